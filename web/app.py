"""The routes of the board: pages and the JSON API. Bad input answers 400 (the API:
``{"error": "..."}``, the one-line message the command line gives), a body over
:data:`~.board.MAX_BODY` 413, a full queue 503; never a stack trace."""
from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.errors import IllegalActionError, MalformedError, SolverError
from solver.hanabi.analysis.answers import check_turn
from solver.hanabi.rules import GameRecord
from solver.hand.rules import RULES, Deal
from solver.hand.rules import IllegalMoveError as HandIllegal
from solver.hand.rules import MalformedError as HandMalformed

from .board import MAX_BODY, board_data, read_game, read_named, read_seed, with_line
from .work import (
    Busy,
    Reviews,
    Workers,
    chances_job,
    game_key,
    hand_best_job,
    hand_solve_job,
    review_job,
    solve_job,
)

HERE = Path(__file__).parent
# no script but the package's own, no style but its own, nothing from the network
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class TooLarge(Exception):
    pass


class Headers:
    """Every answer carries the Content Security Policy and refuses to be framed or sniffed."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer")]
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with)


def _check_length(request: Request) -> None:
    """A request that says it carries more than MAX_BODY is refused before it is read."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise TooLarge()


def _is_form(request: Request) -> bool:
    """The request is a page's form (fields, or an uploaded file)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind in ("application/x-www-form-urlencoded", "multipart/form-data")


def _unwrap(text: str, key: str, unless: str | None = None) -> tuple[str, dict[str, Any]]:
    """``{key: X, ...}`` (and no ``unless`` key): X as text (a JSON object written out) and the
    object around it; any other text as it is, with nothing around it."""
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and key in obj and (unless is None or unless not in obj):
            inner = obj[key]
            return (inner if isinstance(inner, str) else json.dumps(inner)), obj
    return text, {}


async def _body(request: Request) -> bytes:
    """The request's body, refused past MAX_BODY before it is all read."""
    _check_length(request)
    out = bytearray()
    async for chunk in request.stream():
        out += chunk
        if len(out) > MAX_BODY:
            raise TooLarge()
    return bytes(out)


async def _form_fields(request: Request) -> dict[str, str]:
    """The short fields of a page's form (players, variant), or none."""
    if not _is_form(request):
        return {}
    form = await request.form(max_part_size=MAX_BODY)
    return {k: v for k in ("players", "variant") if isinstance(v := form.get(k), str) and v.strip()}


async def _game_text(request: Request) -> str:
    """A game from a request: the body (hanab.live JSON or compact notation), a JSON object
    ``{"game": ...}``, or the form field ``game`` (a page's form, or an uploaded file)."""
    if _is_form(request):
        _check_length(request)
        form = await request.form(max_part_size=MAX_BODY)
        value = form.get("game")
        if value is None or value == "":
            file = form.get("file")
            if file is not None and hasattr(file, "read"):
                data = await file.read(MAX_BODY + 1)
                if len(data) > MAX_BODY:
                    raise TooLarge()
                return _text(data)
            raise MalformedError("the form has no game (paste it, or choose a file)")
        if not isinstance(value, str):
            data = await value.read(MAX_BODY + 1)
            if len(data) > MAX_BODY:
                raise TooLarge()
            return _text(data)
        return value
    return _text(await _body(request))


async def _posted(request: Request) -> tuple[GameRecord, dict[str, Any]]:
    """The game a POST carries, and the object around it: the body is the game itself
    (hanab.live JSON or compact notation; ``{}`` around it), or ``{"game": GAME, ...}`` with
    GAME the game's JSON object or its text (the object's other fields: ``turn``, ``line``)."""
    text, around = _unwrap(await _game_text(request), "game", unless="deck")
    return read_game(text), around


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise MalformedError(f"the game is not UTF-8 text (byte {e.start})") from None


def _turn(value: Any, rec: GameRecord) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.isdigit())):
        raise MalformedError(f"turn {value!r}: a number of actions 0..{len(rec.actions)}")
    check_turn(None, int(value), len(rec.actions))
    return int(value)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _json_errors(handler):
    """An API handler whose failures answer as JSON: a body too large 413, a full queue
    503, bad input 400 (the command line's message), an internal contradiction 500."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except TooLarge:
            return _error(f"the game is larger than {MAX_BODY // (1024 * 1024)} MB", 413)
        except Busy as e:
            return _error(str(e), 503)
        except (MalformedError, IllegalActionError, HandMalformed, HandIllegal) as e:
            return _error(str(e), 400)
        except SolverError as e:
            return _error(f"internal error (please report it): {e}", 500)

    return wrapped


def _small(value: Any, what: str, lo: int, hi: int) -> int | None:
    """An optional small number of a request (a seat, a bid, a dealer, a seed)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.isdigit()
                                                                  and len(value) <= 12)):
        raise MalformedError(f"{what} {str(value)[:20]!r}: a number {lo}..{hi}")
    n = int(value)
    if not lo <= n <= hi:
        raise MalformedError(f"{what} {n}: a number {lo}..{hi}")
    return n


async def _hand_request(request: Request) -> tuple[str, dict[str, Any]]:
    """A Hand deal or position from a request, as text (notation or JSON), and the request's
    parameters: GET ``?seed=N[&dealer=D]`` (a seeded deal, as ``hand deal --seed``), or POST
    the text itself or ``{"position": ..., "rule": ..., "seat": ..., "bid": ...}``."""
    from solver.hand.analysis.answers import position_from_text

    if request.method == "GET":
        params: dict[str, Any] = dict(request.query_params)
        seed = _small(params.get("seed"), "seed", 0, 2 ** 63 - 1)
        if seed is None:
            raise MalformedError("give ?seed=N (a seeded deal, as hand deal --seed N), or POST the deal or position")
        dealer = _small(params.get("dealer"), "dealer", 0, 3)
        text = json.dumps(Deal.random(seed, 3 if dealer is None else dealer).to_json())
    else:
        text, params = _unwrap(await _game_text(request), "position")
    rule = params.get("rule", "exact")
    if rule not in RULES:
        raise MalformedError(f"rule {str(rule)[:20]!r}: one of {', '.join(RULES)}")
    position_from_text(text, "the deal")  # a bad deal or position is 400 here, before any work
    return text, params


def create_app(workers: int = 1, queue: int = 8, store: str | None = None) -> Starlette:
    """The board's application; ``workers`` processes do the solving, ``queue`` more
    requests may wait for one; ``store``: an SQLite file that keeps the answers
    (:class:`.store.AnswerStore`)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
    pool = Workers(workers, queue, store)
    reviews = Reviews(pool)

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def board(rec: GameRecord) -> HTMLResponse:
        data = board_data(rec)
        return page("board.html", title=f"{data['variant']}, {len(data['players'])} players", data=data,
                    source=rec.source)

    async def index(request: Request) -> Response:
        return page("index.html")

    async def seed_page(request: Request) -> Response:
        try:
            return board(read_seed(request.path_params["seed"]))
        except (MalformedError, IllegalActionError) as e:
            return page("index.html", 400, error=str(e))

    async def open_page(request: Request) -> Response:
        try:
            return board(read_named(request.query_params.get("ref", "")))
        except (MalformedError, IllegalActionError) as e:
            return page("index.html", 400, error=str(e))

    async def game_page(request: Request) -> Response:
        try:
            text = await _game_text(request)
            return board(read_game(text, **await _form_fields(request)))
        except TooLarge:
            return page("index.html", 413, error=f"the game is larger than {MAX_BODY // (1024 * 1024)} MB")
        except (MalformedError, IllegalActionError) as e:
            return page("index.html", 400, error=str(e))

    async def api(request: Request, kind: str) -> Response:
        if request.method == "GET":
            seed, ref = request.query_params.get("seed"), request.query_params.get("ref")
            if not seed and not ref:
                raise MalformedError("give ?seed=... (a hanab.live seed) or ?ref=... (a game number, replay "
                                     "address or shared-replay link), or POST the game")
            rec = read_seed(seed) if seed else read_named(ref or "")
            turn = _turn(request.query_params.get("turn"), rec)
        else:
            rec, wrapped = await _posted(request)
            turn = _turn(wrapped.get("turn") if wrapped else request.query_params.get("turn"), rec)
        game = rec.to_json()
        if kind == "solve":
            answer = await pool.run(game_key(rec, kind, turn), solve_job, game, turn)
        elif kind == "review":
            answer = await pool.run(game_key(rec, kind, None), review_job, game)
        else:
            answer = await pool.run(game_key(rec, kind, turn), chances_job, game, turn)
        return JSONResponse(answer)

    @_json_errors
    async def solve_api(request: Request) -> Response:
        return await api(request, "solve")

    @_json_errors
    async def review_api(request: Request) -> Response:
        return await api(request, "review")

    @_json_errors
    async def chances_api(request: Request) -> Response:
        return await api(request, "chances")

    @_json_errors
    async def board_api(request: Request) -> Response:
        """The board's data of a game, or of the game up to a turn and then a line."""
        rec, obj = await _posted(request)
        if "line" in obj:
            turn = _turn(obj.get("turn"), rec)
            rec = with_line(rec, len(rec.actions) if turn is None else turn, obj["line"])
        return JSONResponse(board_data(rec))

    @_json_errors
    async def review_start(request: Request) -> Response:
        """A review in the background: its job, whose points come as they are solved."""
        rec, _ = await _posted(request)
        return JSONResponse({"job": reviews.start(rec)}, status_code=202)

    async def review_job_state(request: Request) -> Response:
        jid = request.path_params["job"]
        if request.method == "DELETE":
            return JSONResponse({"cancelled": True}) if reviews.cancel(jid) else _error(f"no review {jid!r}", 404)
        state = reviews.state(jid)
        return JSONResponse(state) if state is not None else _error(f"no review {jid!r}", 404)

    @_json_errors
    async def hand_solve_api(request: Request) -> Response:
        text, params = await _hand_request(request)
        rule, seat = params.get("rule", "exact"), _small(params.get("seat"), "seat", 0, 3)
        key = f"hand-solve:{text}:{rule}:{seat}"
        return JSONResponse(await pool.run(key, hand_solve_job, text, rule, seat))

    @_json_errors
    async def hand_best_api(request: Request) -> Response:
        text, params = await _hand_request(request)
        rule, bid = params.get("rule", "exact"), _small(params.get("bid"), "bid", 0, 8)
        key = f"hand-best:{text}:{rule}:{bid}"
        return JSONResponse(await pool.run(key, hand_best_job, text, rule, bid))

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    routes = [
        Route("/", index),
        Route("/seed/{seed}", seed_page),
        Route("/open", open_page),
        Route("/game", game_page, methods=["POST"]),
        Route("/api/solve", solve_api, methods=["GET", "POST"]),
        Route("/api/review", review_api, methods=["POST"]),
        Route("/api/chances", chances_api, methods=["POST"]),
        Route("/api/board", board_api, methods=["POST"]),
        Route("/api/review/jobs", review_start, methods=["POST"]),
        Route("/api/review/jobs/{job}", review_job_state, methods=["GET", "DELETE"]),
        Route("/api/hand/solve", hand_solve_api, methods=["GET", "POST"]),
        Route("/api/hand/best", hand_best_api, methods=["POST"]),
        Route("/healthz", healthz),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        reviews.close()
        pool.close()

    app = Starlette(routes=routes, middleware=[Middleware(Headers)], lifespan=lifespan)
    app.state.workers = pool
    return app
