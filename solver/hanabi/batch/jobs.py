"""What a batch analyses: jobs from seed ranges, deck files and folders of games.

A job is a small picklable dict (it travels to worker processes and Dask workers):
``name`` (the input's name: the seed, ``FILE:ID``, a game file's path), ``key`` (the
store key, :func:`~.store.game_digest` of the game; None for the seeds of a range, whose
deck the worker deals), ``seed`` (the seed whose deal the deck is, or None), ``players``,
``start`` (the starting player), ``options`` (hanab.live JSON options: the variant and
rule flags) and ``deck`` (compact notation, or None when the worker deals it from the
seed). :func:`solve_job` turns one job into one store row.

:func:`make_jobs` checks every input up front but makes the jobs on demand: a seed range
stays three numbers (:class:`SeedRange`, a lazy sequence), so a run over 100 million seeds
never holds them all; files and folders (small) are read whole, as lists.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from solver.hanabi.rules import (
    Game,
    MalformedError,
    Rules,
    format_compact,
    game_from_json,
    load_file,
    load_text,
    parse_compact,
    parse_json,
    read_jsonl,
    read_text,
)
from solver.hanabi.rules.seeds import seed_deals

from .store import Row, budget_text, game_digest, line_json, rules_text

RANGE = re.compile(r"^(?P<prefix>.*?)(?P<lo>\d+)\.\.(?P<prefix2>.*?)(?P<hi>\d+)$")
MAX_RANGE = 100_000_000


def parse_range(text: str) -> tuple[str, int, int]:
    """``p3v0s1..100000`` (or ``p3v0s1..p3v0s100000``) → (``p3v0s``, 1, 100000)."""
    m = RANGE.match(text)
    if not m:
        raise MalformedError(f"bad seed range {text!r}: expected PREFIX<first>..<last>, e.g. p3v0s1..1000")
    for end in ("lo", "hi"):
        if len(m[end]) > 18:
            raise MalformedError(f"bad seed range {text[:40]!r}...: a seed number of {len(m[end])} digits, far "
                                 f"too large")
    prefix, lo, hi = m["prefix"], int(m["lo"]), int(m["hi"])
    if m["prefix2"] and m["prefix2"] != prefix:
        raise MalformedError(f"bad seed range {text!r}: the two ends have different prefixes "
                             f"{prefix!r} and {m['prefix2']!r}")
    if hi < lo:
        raise MalformedError(f"bad seed range {text!r}: last {hi} is below first {lo}")
    if hi - lo + 1 > MAX_RANGE:
        raise MalformedError(f"bad seed range {text!r}: more than {MAX_RANGE} seeds")
    return prefix, lo, hi


class SeedRange(Sequence):
    """The jobs of the seeds ``prefix<lo>`` .. ``prefix<hi>``, made on demand (a range's
    keys are ``prefix`` and a number without leading zeros; ``prefix`` never ends in a
    digit, see :func:`parse_range`)."""

    def __init__(self, prefix: str, lo: int, hi: int, players: int, options: dict):
        self.prefix, self.lo, self.hi = prefix, lo, hi
        self.players, self.options = players, options

    def __len__(self) -> int:
        return self.hi - self.lo + 1

    def job(self, n: int) -> dict:
        seed = f"{self.prefix}{n}"
        return {"key": None, "name": seed, "seed": seed, "players": self.players, "start": 0,
                "options": self.options, "deck": None}

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.job(n) for n in range(self.lo, self.hi + 1)[i]]
        return self.job(range(self.lo, self.hi + 1)[i])

    def __iter__(self) -> Iterator[dict]:
        for n in range(self.lo, self.hi + 1):
            yield self.job(n)

    def number(self, key: str) -> int | None:
        """The seed number if ``key`` is one of this range's keys, else None."""
        if not key.startswith(self.prefix):
            return None
        rest = key[len(self.prefix):]
        if not (rest.isascii() and rest.isdigit()) or (rest[0] == "0" and rest != "0"):
            return None
        n = int(rest)
        return n if self.lo <= n <= self.hi else None

    def __repr__(self) -> str:
        return f"SeedRange({self.prefix}{self.lo}..{self.hi})"


def seed_range(text: str, players: int | None, rules: Rules | None) -> SeedRange:
    """The jobs of a seed range; the first seed is dealt here, so a bad prefix (or player
    count, or variant) fails before any work starts."""
    from solver.hanabi.rules.seeds import game_from_seed

    prefix, lo, hi = parse_range(text)
    first = game_from_seed(f"{prefix}{lo}", players=players, rules=rules)
    return SeedRange(prefix, lo, hi, first.num_players, first.rules.to_json_options())


def seed_jobs(text: str, players: int | None, rules: Rules | None) -> Iterator[dict]:
    return iter(seed_range(text, players, rules))


def _deck_job(name: str, game: Game, seed: str | None = None) -> dict:
    """The job of a deck from a file: ``seed`` is kept only if it deals this very deck (a
    stored row's seed always names its deal, see :meth:`~.store.Store.skipped_seeds`)."""
    deck = format_compact(game.deck, game.variant)
    opts = game.rules.to_json_options()
    if seed is not None and not seed_deals(seed, game.num_players, game.variant, game.deck):
        seed = None
    return {"key": game_digest(game.num_players, game.starting_player, rules_text(opts), deck),
            "name": name, "seed": seed, "players": game.num_players, "start": game.starting_player,
            "options": opts, "deck": deck}


def file_jobs(path: Path, players: int | None, rules: Rules | None) -> Iterator[dict]:
    """A JSON Lines file (one deck or game object a line, with optional ``id``, integer
    ``players`` and ``variant`` name), a JSON file (one game, or a list of them), or a text
    file with one compact deck a line (needs ``players``). Jobs are named ``FILE:ID`` (the
    object's ``id`` or ``seed``, else its line or list index), a single game by its path."""
    text = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        objs = parse_json(text, str(path))
        if not isinstance(objs, list):
            raise MalformedError(f"{path}: expected a list of games")
        items = [(f"{path}:{i}", o, f"{path}: item {i}") for i, o in enumerate(objs)]
    elif stripped.startswith("{") and path.suffix != ".jsonl":
        rec = load_file(path, players=players, rules=rules)
        yield _deck_job(str(path), rec.game, rec.extra.get("seed"))
        return
    elif stripped.startswith("{"):
        items = [(f"{path}:{n}", obj, f"{path}: line {n}") for n, obj in read_jsonl(path, text)]
    else:
        base = rules or Rules.from_json_options({})
        if players is None:
            raise MalformedError(f"{path}: a file of compact decks needs --players")
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                game = Game(base, players, parse_compact(line, base.variant))
            except MalformedError as e:
                raise MalformedError(f"{path}: line {i}: {e}") from None
            yield _deck_job(f"{path}:{i}", game)
        return
    seen = set()
    for key, obj, where in items:
        if not isinstance(obj, dict):
            raise MalformedError(f"{where}: expected an object, got {type(obj).__name__}")
        obj = dict(obj)
        n = players
        if isinstance(obj.get("players"), int) and not isinstance(obj.get("players"), bool):
            n = obj.pop("players")
        if isinstance(obj.get("variant"), str) and "options" not in obj:
            obj["options"] = {"variant": obj.pop("variant")}
        elif rules is not None and "options" not in obj:
            obj["options"] = rules.to_json_options()
        rec = game_from_json(obj, where, n)
        ident = obj.get("id", obj.get("seed"))
        k = f"{path}:{ident}" if ident is not None else key
        if k in seen:
            raise MalformedError(f"{where}: duplicate id {ident!r}")
        seen.add(k)
        yield _deck_job(k, rec.game, obj.get("seed"))


def folder_jobs(path: Path, players: int | None, rules: Rules | None,
                warn: Callable[[str], None] | None = None) -> Iterator[dict]:
    """Every ``*.json`` game file in the folder (sorted by name): its deck, from the start.
    A JSON file that is not a game (an object without a ``deck``, e.g. a results file) is
    skipped, with a warning naming it; a broken game file is an error."""
    files = sorted(p for p in path.iterdir() if p.suffix == ".json" and p.is_file())
    found = 0
    for p in files:
        text = read_text(p)
        obj = parse_json(text, str(p))
        if not isinstance(obj, dict) or "deck" not in obj:
            if warn:
                kind = "an object without a deck" if isinstance(obj, dict) else f"a JSON {type(obj).__name__}"
                warn(f"{p}: skipped, not a game ({kind})")
            continue
        rec = load_text(text, str(p), players=players, rules=rules)  # what load_file does, the file read once
        found += 1
        yield _deck_job(str(p), rec.game, rec.extra.get("seed"))
    if not found:
        raise MalformedError(f"{path}: no .json game files in this folder")


class Jobs(Sequence):
    """The jobs of a batch, in input order, made on demand: ``parts`` are seed ranges
    (:class:`SeedRange`) and lists of jobs (files, folders, single seeds). ``len()`` and
    indexing need no job to be made."""

    repeats = 0  # inputs dropped by make_jobs as the same game as an earlier job

    def __init__(self, parts: list):
        self.parts = [p for p in parts if len(p)]
        self._starts = []
        n = 0
        for p in self.parts:
            self._starts.append(n)
            n += len(p)
        self._len = n

    @classmethod
    def of(cls, jobs: Iterable[dict]) -> Jobs:
        """``jobs`` as it is if it is a :class:`Jobs`, else its jobs in one list."""
        return jobs if isinstance(jobs, Jobs) else cls([list(jobs)])

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[dict]:
        for p in self.parts:
            yield from p

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("job index out of range")
        k = bisect.bisect_right(self._starts, i) - 1
        return self.parts[k][i - self._starts[k]]

    def ranges(self) -> list[SeedRange]:
        return [p for p in self.parts if isinstance(p, SeedRange)]

    def listed(self) -> list[dict]:
        """The jobs that are not in a seed range (files, folders, single seeds)."""
        return [j for p in self.parts if not isinstance(p, SeedRange) for j in p]


def _check_unique(jobs: Jobs) -> None:
    """No key twice, without making a range's jobs: the listed keys go in a set (files are
    small), a range cannot repeat itself, two ranges overlap only with the same prefix and
    intersecting numbers, and a listed key is in a range only if it is the prefix and a
    number (a prefix never ends in a digit, so stripping the digits finds it)."""
    by_prefix: dict[str, list[SeedRange]] = {}
    for r in jobs.ranges():
        by_prefix.setdefault(r.prefix, []).append(r)
    for rs in by_prefix.values():
        rs = sorted(rs, key=lambda r: (r.lo, r.hi))
        for a, b in zip(rs, rs[1:], strict=False):
            if b.lo <= a.hi:
                raise MalformedError(f"job {b.prefix + str(b.lo)!r} is given twice")
    names: set[str] = set()
    for j in jobs.listed():
        name = j["name"]
        head = name.rstrip("0123456789")
        if name in names or any(r.number(name) is not None for r in by_prefix.get(head, ())):
            raise MalformedError(f"job {name!r} is given twice")
        names.add(name)


def make_jobs(inputs, players: int | None = None, rules: Rules | None = None,
              warn: Callable[[str], None] | None = None) -> Jobs:
    """All jobs of the given inputs (seed ranges, single seeds, files, folders), in order,
    rejecting a name given twice: a lazy sequence (:class:`Jobs`). Every input is checked
    here (files read and parsed, the first seed of each range dealt), so errors come
    before any work starts; ``warn`` is told of the files a folder's scan skips. One game
    under two names (the same deck in two files) is one job: the first name is kept and
    the others are counted in :attr:`Jobs.repeats`."""
    parts: list = []
    for text in inputs:
        p = Path(text)
        try:
            is_dir, exists = p.is_dir(), p.exists()
        except OSError:  # a name the system cannot take as a path (too long): a seed or a range
            is_dir = exists = False
        if is_dir:
            parts.append(list(folder_jobs(p, players, rules, warn)))
        elif exists:
            parts.append(list(file_jobs(p, players, rules)))
        elif ".." in text:
            parts.append(seed_range(text, players, rules))
        elif text.endswith((".json", ".jsonl", ".txt")) or "/" in text:
            raise MalformedError(f"{text}: no such file or folder")
        else:
            from solver.hanabi.rules.seeds import game_from_seed

            g = game_from_seed(text, players=players, rules=rules)
            parts.append([_deck_job(text, g, text)])
    _check_unique(Jobs(parts))
    # one game under two names: keep the first (a range's games are told apart by seed)
    seen: set[str] = set()
    repeats = 0
    for i, part in enumerate(parts):
        if isinstance(part, list):
            kept = []
            for j in part:
                if j["key"] not in seen:
                    seen.add(j["key"])
                    kept.append(j)
            repeats += len(part) - len(kept)
            parts[i] = kept
    jobs = Jobs(parts)
    jobs.repeats = repeats
    return jobs


def job_game(job: dict) -> Game:
    rules = Rules.from_json_options(job["options"])
    if job["deck"] is None:
        from solver.hanabi.rules.seeds import game_from_seed

        return game_from_seed(job["seed"], players=job["players"], rules=rules)
    return Game(rules, job["players"], parse_compact(job["deck"], rules.variant),
                starting_player=job.get("start", 0))


def solve_job(job: dict, timeout: float | None) -> Row:
    """Solve one job's deck from the start; the line is replayed in the engine by
    :func:`solver.hanabi.methods.portfolio.solve` before it is returned. The row records the budget
    (:func:`solver.hanabi.methods.portfolio.budget`) and the nodes spent."""
    from solver.errors import SolverError
    from solver.hanabi.methods.portfolio import budget, solve

    game = job_game(job)
    sol = solve(game, timeout=timeout)
    rules = rules_text(game.rules.to_json_options())
    deck = format_compact(game.deck, game.variant)
    key = game_digest(game.num_players, game.starting_player, rules, deck)
    if job.get("key") not in (None, key):
        raise SolverError(f"job {job['name']!r}: its key {job['key']} is not the digest {key} of its game")
    return Row(
        key=key, name=job["name"], seed=job["seed"], players=game.num_players, start=game.starting_player,
        variant=game.variant.name, rules=rules, deck=deck, position="[]",
        max_score=sol.max_score, upper_bound=sol.upper_bound, perfect=game.perfect_score,
        exact=sol.exact, proof_kind=sol.proof.kind, proof_reason=sol.proof.reason,
        methods=",".join(sol.proof.methods), seconds=float(sol.stats.get("time", 0.0)),
        nodes=int(sol.stats.get("nodes", 0)), line=line_json(sol.actions), timeout=timeout,
        budget=budget_text(budget(timeout, game.num_players)), relaxed_nodes=int(sol.stats.get("relaxed_nodes", 0)),
    )
