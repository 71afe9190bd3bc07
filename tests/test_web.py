"""The board's server (web/, ``hanabi serve``) through Starlette's test client: the pages,
the JSON API against the commands' ``--json`` on the same input, bad input (400 with the
command line's message), a body too large (413), user text rendered as text, a busy pool
(503), a killed worker, and the command itself in a real process."""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from starlette.testclient import TestClient

from web import create_app
from web.work import Busy, Workers

from conftest import DATA, REPO, run_cli

GAME = DATA / "hanablive" / "p5v0s198_game149251.json"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1)) as c:
        yield c


def same(a: dict, b: dict) -> bool:
    """Two solve answers agree but for the times."""
    drop = ("stats",)
    return {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def test_the_board_of_a_seed(client):
    r = client.get("/seed/p3v0s1")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp and "unsafe-inline" not in csp
    # no inline script: every script is the package's own file, or data
    for tag in re.findall(r"<script[^>]*>", r.text):
        assert 'src="/static/' in tag or 'type="application/json"' in tag, tag
    data = json.loads(re.search(r'<script type="application/json" id="game-data">(.*?)</script>', r.text, re.S)[1])
    assert data["variant"] == "No Variant" and len(data["positions"]) == 1 and data["perfect"] == 25
    assert client.get("/static/board.js").status_code == 200
    assert client.get("/healthz").json() == {"ok": True}


def test_the_board_of_a_game_file(client):
    r = client.post("/game", files={"file": ("game.json", GAME.read_bytes(), "application/json")})
    assert r.status_code == 200
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', r.text, re.S)[1])
    assert len(data["positions"]) == 54 and data["positions"][-1]["score"] == 23
    pasted = client.post("/game", data={"game": GAME.read_text()})
    assert pasted.status_code == 200 and json.loads(
        re.search(r'id="game-data">(.*?)</script>', pasted.text, re.S)[1])["positions"][-1]["score"] == 23


def test_solve_answers_as_the_command_does(client):
    api = client.get("/api/solve", params={"seed": "p3v0s1"}).json()
    cli = json.loads(run_cli("solve", "--seed", "p3v0s1", "--json").stdout)
    assert same(api, cli) and api["max_score"] == 25
    api = client.post("/api/solve", json={"game": json.loads(GAME.read_text()), "turn": 41}).json()
    cli = json.loads(run_cli("solve", str(GAME), "--turn", "41", "--json").stdout)
    assert same(api, cli) and api["max_score"] == 23 and api["from_turn"] == 41


def test_review_answers_as_the_command_does(client):
    api = client.post("/api/review", json={"game": GAME.read_text()}).json()
    cli = json.loads(run_cli("review", str(GAME), "--json").stdout)
    for answer in (api, cli):
        for t in answer["turns"]:
            t.pop("seconds")
    assert api == cli
    assert [(d["turn"], d["before"], d["after"]) for d in api["drops"]] == [(35, 25, 24), (40, 24, 23)]


def test_chances_answer_as_the_command_does(client):
    api = client.post("/api/chances", json={"game": json.loads(GAME.read_text()), "turn": 45}).json()
    cli = json.loads(run_cli("chances", str(GAME), "--turn", "45", "--json").stdout)
    assert api == cli and api["target"] == 23


def test_bad_input_is_400_with_the_command_lines_message(client, tmp_path):
    truncated = GAME.read_text()[:500]
    r = client.post("/api/solve", content=truncated)
    assert r.status_code == 400
    path = tmp_path / "t.json"
    path.write_text(truncated)
    cli = run_cli("solve", str(path)).stderr.strip()
    assert r.json()["error"].split(": ", 1)[1] == cli.split(": ", 2)[2]  # the same words after the source
    assert client.get("/api/solve", params={"seed": "p3v9999s1"}).status_code == 400
    assert client.get("/api/solve").status_code == 400
    bad_turn = client.post("/api/solve", json={"game": GAME.read_text(), "turn": 99})
    assert bad_turn.status_code == 400 and "out of range 0..53" in bad_turn.json()["error"]
    page = client.post("/game", data={"game": truncated})
    assert page.status_code == 400 and "invalid JSON" in page.text


def test_a_body_too_large_is_413(client):
    big = "x" * (3 * 1024 * 1024)
    r = client.post("/api/solve", content=big)
    assert r.status_code == 413 and "larger than 2 MB" in r.json()["error"]
    page = client.post("/game", files={"file": ("big.json", big.encode(), "application/json")})
    assert page.status_code == 413


def test_player_names_are_text_not_markup(client):
    d = json.loads(GAME.read_text())
    evil = "<img src=x onerror=alert(1)>"
    d["players"][0] = evil
    r = client.post("/game", data={"game": json.dumps(d)})
    assert r.status_code == 200
    assert evil not in r.text and "<img" not in r.text


def test_a_full_queue_is_busy_and_a_killed_worker_does_not_stop_the_server():
    pool = Workers(workers=1, queue=1)

    async def three():
        jobs = [pool.run(f"k{i}", time.sleep, 1.0) for i in range(3)]
        return await asyncio.gather(*jobs, return_exceptions=True)

    try:
        out = asyncio.run(three())
        assert sum(isinstance(x, Busy) for x in out) == 1 and out.count(None) == 2

        async def killed():
            task = asyncio.ensure_future(pool.run("slow", time.sleep, 30))
            await asyncio.sleep(1.0)
            for pid in list(pool._executor()._processes):
                os.kill(pid, signal.SIGKILL)
            return await asyncio.gather(task, return_exceptions=True)

        (err,) = asyncio.run(killed())
        assert isinstance(err, Busy) and "ask again" in str(err)
        assert asyncio.run(pool.run("after", abs, -3)) == 3  # a new pool answers
    finally:
        pool.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_hanabi_serve_starts_answers_and_stops_on_sigterm():
    port = _free_port()
    hanabi = [sys.executable, "-c", "import cli.hanabi as h; h.main()"]
    proc = subprocess.Popen([*hanabi, "serve", "--port", str(port)], cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        line = proc.stderr.readline()
        assert line.strip() == f"hanabi serve: http://127.0.0.1:{port}/ (Ctrl-C stops it)"
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    assert json.load(r) == {"ok": True}
                break
            except OSError:
                assert time.monotonic() - t0 < 10, "the server did not answer"
                time.sleep(0.1)
        # the port is taken now: a second server says so in one line
        second = subprocess.run([*hanabi, "serve", "--port", str(port)], cwd=REPO, capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 2 and second.stderr.startswith("error: ") and "is in use" in second.stderr
        proc.send_signal(signal.SIGTERM)
        rest = proc.communicate(timeout=20)[1]
        # it shuts down, then ends as a process ended by SIGTERM does (as analyse exits 143)
        assert proc.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM), (proc.returncode, rest)
        assert "Traceback" not in rest and "error" not in rest.lower()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_refuses_a_bad_port_or_host():
    out = run_cli("serve", "--port", "0")
    assert out.exit_code == 2 and "a port is 1..65535" in out.stderr
    out = run_cli("serve", "--host", "no-such-host.invalid", "--port", "8765")
    assert out.exit_code == 2 and "--host 'no-such-host.invalid'" in out.stderr


def test_a_link_a_game_number_and_a_replay_address_open_the_board(client, hanablive_site):
    link = json.loads(run_cli("solve", str(GAME), "--turn", "40", "--json").stdout)["link"]
    for ref, last_score in ((link, 24), ("149251", 23), ("https://hanab.live/replay/149251", 23)):
        r = client.get("/open", params={"ref": ref})
        assert r.status_code == 200, r.text[:300]
        data = json.loads(re.search(r'id="game-data">(.*?)</script>', r.text, re.S)[1])
        assert data["positions"][-1]["score"] == last_score
    api = client.get("/api/solve", params={"ref": "149251", "turn": "41"}).json()
    assert api["max_score"] == 23 and api["from_turn"] == 41
    missing = client.get("/open", params={"ref": "999999"})
    assert missing.status_code == 400 and "no such game" in missing.text


def test_the_board_of_a_line_from_a_turn(client):
    game = json.loads(GAME.read_text())
    answer = client.post("/api/solve", json={"game": game, "turn": 36}).json()
    view = client.post("/api/board", json={"game": game, "turn": 36, "line": answer["actions"]}).json()
    assert len(view["positions"]) == 36 + len(answer["actions"]) + 1
    assert view["positions"][-1]["score"] == answer["max_score"] == 24 and view["positions"][-1]["over"]
    bad = client.post("/api/board", json={"game": game, "turn": 36, "line": [{"type": 0, "target": 999}]})
    assert bad.status_code == 400
    assert bad.json()["error"] == ("the game, the line from turn 36: action 36: play card #999: no such card "
                                   "(deck has 50)")
    not_a_list = client.post("/api/board", json={"game": game, "line": 5})
    assert not_a_list.json()["error"] == "line: a list of hanab.live actions"


def _wait(client, job: str) -> dict:
    t0 = time.monotonic()
    while True:
        s = client.get(f"/api/review/jobs/{job}").json()
        if s["status"] != "running":
            return s
        assert time.monotonic() - t0 < 120, "the review did not finish"
        time.sleep(0.1)


def test_a_review_in_the_background_comes_point_by_point_and_ends_as_the_command_says():
    with TestClient(create_app(workers=1)) as client:
        r = client.post("/api/review/jobs", json={"game": GAME.read_text()})
        assert r.status_code == 202
        job = r.json()["job"]
        s = _wait(client, job)
        assert s["status"] == "done" and s["total"] == 54 and [p["turn"] for p in s["points"]] == list(range(54))
        cli = json.loads(run_cli("review", str(GAME), "--json").stdout)
        for answer in (s["review"], cli):
            for t in answer["turns"]:
                t.pop("seconds")
        assert s["review"] == cli
        assert [p["max_score"] for p in s["points"]] == [t["max_score"] for t in cli["turns"]]
        # the same game again: the same job, at once
        assert client.post("/api/review/jobs", json={"game": GAME.read_text()}).json()["job"] == job
        assert client.get("/api/review/jobs/nope").status_code == 404
        assert client.delete("/api/review/jobs/nope").status_code == 404


def test_a_review_can_be_cancelled():
    with TestClient(create_app(workers=1)) as client:
        job = client.post("/api/review/jobs", json={"game": GAME.read_text()}).json()["job"]
        assert client.delete(f"/api/review/jobs/{job}").json() == {"cancelled": True}
        s = _wait(client, job)
        assert s["status"] == "cancelled" and len(s["points"]) < s["total"] and s["review"] is None


def test_the_store_keeps_the_answers_across_a_restart(tmp_path):
    store = tmp_path / "answers.sqlite"
    with TestClient(create_app(workers=1, store=str(store))) as client:
        first = client.get("/api/solve", params={"seed": "p2v0s57"}).json()
    assert store.exists()
    app = create_app(workers=1, store=str(store))
    with TestClient(app) as client:
        again = client.get("/api/solve", params={"seed": "p2v0s57"}).json()
        assert again == first
        assert app.state.workers._pool is None  # answered from the file: no worker was started
    (tmp_path / "other.sqlite").write_bytes(b"not an sqlite file at all, but long enough to be read")
    out = run_cli("serve", "--port", str(_free_port()), "--store", str(tmp_path / "other.sqlite"))
    assert out.exit_code == 2 and "not a readable board answer store" in out.stderr


def test_a_bare_deck_with_its_players_and_variant(client):
    deck = ("r3 y2 g2 y3 b5 r1 m2 b3 m4 g1 r4 g2 m1 g5 g1 b2 y4 b1 y3 r4 g4 b2 y1 r1 r3 y5 y4 b1 y1 b1 r2 m1 b4 y1 "
            "m4 g3 y2 m1 g4 r2 b4 r1 m3 r5 g3 g1 b3 m5 m3 m2")
    r = client.post("/game", data={"game": deck, "players": "2", "variant": "Rainbow (5 Suits)"})
    assert r.status_code == 200
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', r.text, re.S)[1])
    assert data["variant"] == "Rainbow (5 Suits)" and len(data["players"]) == 2
    bad = client.post("/game", data={"game": deck, "players": "9"})
    assert bad.status_code == 400 and "a player count 2..6" in bad.text


@pytest.mark.parametrize("host,warned", [("0.0.0.0", True), ("127.0.0.1", False)])
def test_serve_warns_off_the_loopback_address_and_stops_on_ctrl_c(host, warned):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", "import cli.hanabi as h; h.main()", "serve", "--host", host,
                             "--port", str(port)], cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        if warned:
            assert first.strip() == f"warning: listening on {host}: the board is reachable from other machines"
            first = proc.stderr.readline()
        assert first.strip() == f"hanabi serve: http://{host}:{port}/ (Ctrl-C stops it)"
        t0 = time.monotonic()
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                assert time.monotonic() - t0 < 10, "the server did not answer"
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        rest = proc.communicate(timeout=20)[1]
        assert proc.returncode in (-signal.SIGINT, 128 + signal.SIGINT, 0), (proc.returncode, rest)
        assert "Traceback" not in rest and "error" not in rest.lower()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------------------------------
# Hand (Hareega): the double-dummy answers beside the commands' (issue 36)
# ---------------------------------------------------------------------------------------
def run_hand(*args):
    from click.testing import CliRunner

    from cli.hand import hand

    return CliRunner().invoke(hand, [str(a) for a in args])


DEAL8 = "dealer 3: S:T7 H:- D:AQ8 C:QJ9 / S:A98 H:A97 D:J C:8 / S:- H:KQJT D:T9 C:A7 / S:KQJ H:8 D:K7 C:KT"
POSITION = ("leader 2: S:J98 H:Q D:- C:T / S:AT H:A8 D:Q C:- / S:- H:9 D:8 C:KQ / S:- H:- D:AJ97 C:7 ; "
            "table KD ; taken 2 0 1 0 ; bids 3 1 2 0")


def test_hand_solve_answers_as_the_command_does(client):
    by_seed = client.get("/api/hand/solve", params={"seed": "8"}).json()
    cli = json.loads(run_hand("solve", DEAL8, "--json").stdout)
    assert by_seed == cli
    posted = client.post("/api/hand/solve", content=DEAL8).json()
    assert posted == cli
    seat = client.post("/api/hand/solve", json={"position": DEAL8, "seat": 1, "rule": "atleast"}).json()
    assert seat == json.loads(run_hand("solve", DEAL8, "--seat", "1", "--rule", "atleast", "--json").stdout)


def test_hand_best_answers_as_the_command_does(client):
    api = client.post("/api/hand/best", json={"position": POSITION}).json()
    cli = json.loads(run_hand("best", POSITION, "--json").stdout)
    assert api == cli and api["best"] == ["JD"]
    api = client.post("/api/hand/best", json={"position": POSITION, "bid": 1}).json()
    assert api == json.loads(run_hand("best", POSITION, "--bid", "1", "--json").stdout)


def test_hand_bad_input_is_400_with_the_command_lines_message(client):
    bad = "dealer 3: S:T7 H:- D:AQ8 C:QJ9 / S:A98"
    r = client.post("/api/hand/solve", content=bad)
    cli = run_hand("solve", bad).stderr.strip()
    assert r.status_code == 400 and r.json()["error"].split(": ", 1)[1] == cli.split(": ", 2)[2]
    assert client.get("/api/hand/solve").status_code == 400
    assert client.get("/api/hand/solve", params={"seed": "8", "dealer": "7"}).status_code == 400
    assert client.post("/api/hand/best", json={"position": POSITION, "bid": 9}).status_code == 400
    assert client.post("/api/hand/solve", json={"position": DEAL8, "rule": "most"}).status_code == 400
