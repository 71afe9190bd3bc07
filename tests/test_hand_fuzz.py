"""Fuzzing the new ``hand`` commands' inputs: mutated puzzle files (``puzzle check``,
``puzzle render``), mutated game files (``review``, ``replay``), mutated deal texts and
options (``puzzle make``), damaged deal stores (``report``). Every input ends in a success
(exit 0), a verdict (exit 1, one line) or a clean error (exit 2: one line ``error: ...`` on
standard error), never a traceback. Seeded (``HAND_FUZZ_SEED``), ``HAND_FUZZ_N`` inputs a
command (default 120)."""
from __future__ import annotations

import copy
import json
import os
import random
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cli.hand

from conftest import REPO

N = int(os.environ.get("HAND_FUZZ_N", "120"))
SEED = os.environ.get("HAND_FUZZ_SEED", "2026")
PUZZLE = REPO / "docs" / "hand-puzzles" / "hand-table-s2026-a8.json"  # 3 cards a hand: quick to check
GAME = REPO / "tests" / "data" / "hand_review_game.json"
CARDS = [r + s for s in "SHDC" for r in "AKQJT987"]
ODD: list[object] = [None, True, -1, 0, 1, 8, 9, 2 ** 70, 1.5, float("nan"), "", "x", "AS", "10H", "ZZ", [], {},
                     ["AS"] * 3, "\udcff", "dealer 3:", "\n"]


class _Entry:
    """The ``hand`` console script as CliRunner calls a command (usage errors included)."""

    name = "hand"

    def main(self, args: Any = (), prog_name: str = "hand", **_: Any) -> None:
        saved = sys.argv
        sys.argv = [prog_name, *args]
        try:
            cli.hand.main()
        finally:
            sys.argv = saved


def run(*args: str | Path):
    return CliRunner().invoke(_Entry(), [str(a) for a in args])  # type: ignore[arg-type]


def judge(res, what: str) -> int:
    """The exit code of a clean outcome; fails the test on anything else."""
    if not isinstance(res.exception, SystemExit) and res.exception is not None:
        raise AssertionError(f"{what}: {type(res.exception).__name__}: {res.exception}")
    assert res.exit_code in (0, 1, 2), (what, res.exit_code, res.output)
    assert "Traceback" not in res.output, (what, res.output)
    if res.exit_code == 2:
        err = res.stderr
        assert err.startswith("error:") and err.count("\n") == 1, (what, err)
    elif res.exit_code == 1:
        assert res.output.count("\n") == 1, (what, res.output)
    return res.exit_code


def _paths(o: Any, pre: tuple = ()) -> list[tuple]:
    out = [pre]
    if isinstance(o, dict):
        for k, v in o.items():
            out += _paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            out += _paths(v, pre + (i,))
    return out


def mutate_json(rng: random.Random, obj: Any) -> str:
    """One structural or textual mutation of ``obj``, as text."""
    d = copy.deepcopy(obj)
    how = rng.randrange(6)
    if how == 5:  # the text cut, or a byte changed
        text = json.dumps(d)
        i = rng.randrange(len(text))
        return text[:i] if rng.random() < 0.5 else text[:i] + rng.choice("{}[]\",:0aZ\\") + text[i + 1:]
    path = rng.choice(_paths(d)[1:])
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if how == 0:  # a value replaced by an odd one
        parent[key] = rng.choice(ODD)
    elif how == 1:  # a card replaced by another card
        parent[key] = rng.choice(CARDS)
    elif how == 2:  # removed
        del parent[key]
    elif how == 3 and isinstance(parent, list) and len(parent) > 1:  # two entries swapped
        j = rng.randrange(len(parent))
        parent[key], parent[j] = parent[j], parent[key]
    else:  # a number moved by one
        v = parent[key]
        parent[key] = v + rng.choice((-1, 1)) if isinstance(v, int) and not isinstance(v, bool) else rng.choice(ODD)
    try:
        return json.dumps(d)
    except ValueError:
        return json.dumps(d, allow_nan=True)


def _fuzz_files(tmp_path: Path, base: Any, command: list[str], name: str, extra: Sequence[str] = (),
                n: int = N) -> dict[int, int]:
    rng = random.Random(f"{SEED}:{name}")
    codes: dict[int, int] = {}
    for k in range(n):
        f = tmp_path / f"{name}{k}.json"
        f.write_text(mutate_json(rng, base), encoding="utf-8", errors="surrogateescape")
        c = judge(run(*command, f, *extra), f"{name} #{k}: {f.read_text(errors='replace')[:300]}")
        codes[c] = codes.get(c, 0) + 1
    return codes


def test_puzzle_check_fuzz(tmp_path):
    codes = _fuzz_files(tmp_path, json.loads(PUZZLE.read_text()), ["puzzle", "check"], "check")
    assert codes.get(2, 0) >= N // 10 and codes.get(1, 0) + codes.get(0, 0) >= N // 20, codes


def test_puzzle_render_fuzz(tmp_path):
    out = tmp_path / "p.svg"
    n = max(1, N // 3)  # drawing is the slow part: fewer inputs
    codes = _fuzz_files(tmp_path, json.loads(PUZZLE.read_text()), ["puzzle", "render"], "render",
                        ["--out", str(out)], n)
    assert codes.get(2, 0) >= n // 10 and codes.get(0, 0) >= 1, codes


@pytest.mark.parametrize("command", [["review", "--round", "1", "--nodes", "300"], ["replay"]])
def test_game_fuzz(tmp_path, command):
    game = json.loads(GAME.read_text())
    game["rounds"] = game["rounds"][:1]
    codes = _fuzz_files(tmp_path, game, command, command[0])
    assert codes.get(2, 0) >= N // 10 and codes.get(0, 0) >= 1, codes


def test_puzzle_make_fuzz(tmp_path):
    pz = json.loads(PUZZLE.read_text())
    from solver.hand.rules import Deal

    deal = str(Deal.from_json(pz["deal"]))
    plays = pz["plays"]
    rng = random.Random(f"{SEED}:make")
    codes: dict[int, int] = {}
    for k in range(N):
        text, ps, bids, kind = deal, list(plays), " ".join(map(str, pz["bids"])), pz["question"]["kind"]
        how = rng.randrange(5)
        if how == 0:
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice(["", "Z", "/", ";", ":", "10", "-"]) + text[i + 1:]
        elif how == 1 and ps:
            ps[rng.randrange(len(ps))] = rng.choice(CARDS + ["ZZ", "", "1"])
        elif how == 2:
            ps = ps[:rng.randrange(len(ps) + 1)]
        elif how == 3:
            bids = rng.choice(["", "1 2 3", "9 0 0 0", "a b c d", "1,2,3,2", "-1 3 3 3", "8 0 0 0"])
        else:
            kind = rng.choice(["safe", "table", "both", ""])
        c = judge(run("puzzle", "make", text, "--plays", " ".join(ps), "--bids", bids, "--kind", kind, "--id",
                      f"m{k}", "--out", tmp_path / f"m{k}.json"), f"make #{k}: {text!r} {ps} {bids!r} {kind!r}")
        codes[c] = codes.get(c, 0) + 1
    assert codes.get(2, 0) >= N // 10 and codes.get(0, 0) + codes.get(1, 0) >= N // 20, codes


def test_report_on_damaged_stores(tmp_path):
    db = tmp_path / "s.sqlite"
    assert run("analyse", "--deals", "3", "--db", db, "--jobs", "1", "--nodes", "300", "--coop-nodes", "300",
               "--quiet").exit_code == 0
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    good = db.read_bytes()
    rng = random.Random(f"{SEED}:store")
    codes: dict[int, int] = {}
    for k in range(N // 2):
        bad = bytearray(good)
        for _ in range(rng.randrange(1, 8)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        if rng.random() < 0.2:
            bad = bad[:rng.randrange(len(bad))]
        f = tmp_path / f"d{k}.sqlite"
        f.write_bytes(bytes(bad))
        c = judge(run("report", f), f"report #{k}")
        codes[c] = codes.get(c, 0) + 1
        assert f.read_bytes() == bytes(bad), "report changed the store"
    assert codes.get(2, 0) + codes.get(0, 0) == N // 2, codes
