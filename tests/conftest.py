"""Shared helpers for the rules-engine tests.

``make_game`` builds a :class:`Game` from a variant (a built-in name or a custom-variant
object) and a deck in compact notation. For built-in variants the deck may be given only
partly: ``fill=True`` appends the rest of the variant's cards in composition order, so a
test only writes the cards it cares about (the top of the deck, i.e. the first hands).
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.hanabi import hanabi as cli
from solver.hanabi.rules import (
    COLOR_CLUE,
    DISCARD,
    PLAY,
    RANK_CLUE,
    Action,
    Card,
    Game,
    Rules,
    parse_compact,
    parse_variant,
)

REPO = Path(__file__).resolve().parents[1]
# Small copies of real data that the tests always have (tests/data/README.md says what
# each file is and where it comes from).
DATA = REPO / "tests" / "data"
# The project's shared data folder, ../shared; HANABI_SHARED=PATH reads it from PATH
# instead (HANABI_SHARED=/nonexistent runs the suite as on a machine without it). Only the
# tests that need more than tests/data holds read it, and they skip without it.
SHARED = Path(os.environ.get("HANABI_SHARED") or REPO.parent / "shared")
# the real hanab.live games and their expected.json: copies of ../shared/hanablive
HANABLIVE = DATA / "hanablive"
# a few reference decks (whole lines of ../shared/decks/*.jsonl), labelled winnable or not
NV_SAMPLE = DATA / "decks" / "nv_winnable_sample.jsonl"
HARD_SAMPLE = DATA / "decks" / "hard_2p_first20.jsonl"


def real_game_files() -> list[Path]:
    """Every hanab.live game file in tests/data/hanablive (expected.json excluded)."""
    files = sorted(p for p in HANABLIVE.glob("*.json") if p.name != "expected.json")
    assert files, f"no real game files in {HANABLIVE}"
    return files


def expected_results() -> dict:
    return json.loads((HANABLIVE / "expected.json").read_text())


def read_rows(path: Path) -> list[dict]:
    """The JSON objects of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def missing(path: Path) -> str:
    """The skip message of a test that needs ``path`` from the shared data folder."""
    return f"needs {path}, which is not there (the shared data folder: ../shared, or HANABI_SHARED)"


def needs_shared(path: Path):
    """Mark: skip the test, naming ``path``, when ``path`` is not there."""
    return pytest.mark.skipif(not path.exists(), reason=missing(path))


def shared_file(path: Path) -> Path:
    """``path`` (in the shared data folder), or skip the test naming it if it is not there."""
    if not path.exists():
        pytest.skip(missing(path))
    return path


def shared_params(path: Path, rows: list, ids=None) -> list:
    """Parameters for a test over ``rows`` read from ``path`` in the shared data folder:
    the rows, or, when ``path`` is not there, one case that skips naming it (not an empty
    parameter set, which pytest would skip without saying what is missing)."""
    if path.exists():
        return [pytest.param(r, id=ids(r) if ids else None) for r in rows]
    return [pytest.param(None, id="missing", marks=pytest.mark.skip(reason=missing(path)))]


def successor_count(state) -> int:
    """How many different positions the legal actions of ``state`` lead to: each play
    and discard its own, every clue the same one (with every card visible a clue only
    spends a token and passes the turn)."""
    acts = state.legal_actions()
    return sum(not a.is_clue for a in acts) + any(a.is_clue for a in acts)


def has_choice(state) -> bool:
    """Something is left to decide from ``state``: the game is not over, and at the
    position itself or further along the moves forced from it (positions with one legal
    move, all clues counting as one) two different moves are possible."""
    st = state.copy()
    while not st.over:
        if successor_count(st) > 1:
            return True
        st.apply(st.legal_actions()[0])
    return False


def full_deck(variant, top: str = "") -> list[Card]:
    """``top`` (compact notation) followed by the variant's remaining cards in
    composition order."""
    v = parse_variant(variant)
    head = parse_compact(top, v) if top.strip() else []
    rest = Counter(Card(s, r) for s, r in v.composition())
    rest.subtract(Counter(head))
    assert all(n >= 0 for n in rest.values()), f"too many copies in {top!r}"
    tail = []
    for s, r in v.composition():
        c = Card(s, r)
        if rest[c] > 0:
            tail.append(c)
            rest[c] -= 1
    return head + tail


def make_game(variant, deck: str, players: int = 2, *, fill: bool = False, starting_player: int = 0,
              names=None, **options) -> Game:
    """A game of ``variant`` (name or custom object) with a compact-notation deck and
    rule ``options`` (``empty_clues=True``, ``strikeout_score="stacks"``, ...)."""
    v = parse_variant(variant)
    cards = full_deck(v, deck) if fill else parse_compact(deck, v)
    return Game(Rules(v, **options), players, cards, names=names, starting_player=starting_player)


def run_cli(*args: str):
    """Invoke ``hanabi`` in-process; returns click's Result (``stdout``/``stderr`` apart)."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_clean_error(result, *needles: str) -> str:
    """Exit code 2, one line on stderr starting with 'error:', nothing on stdout, no
    traceback; returns the message."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr
    assert "Traceback" not in result.output
    assert err.startswith("error:"), err
    assert err.endswith("\n") and err.count("\n") == 1, f"not a single line: {err!r}"
    assert result.stdout == ""
    for n in needles:
        assert n in err, f"{n!r} not in {err!r}"
    return err


# engine actions <-> the reference engine's action tuples (tests/refengine.py)
REF_KIND = {PLAY: "play", DISCARD: "discard", COLOR_CLUE: "color", RANK_CLUE: "rank"}
REF_KIND_BACK = {v: k for k, v in REF_KIND.items()}


def as_tuple(a: Action) -> tuple:
    """An engine action as a reference-engine action."""
    return (REF_KIND[a.kind], a.target) if a.kind in (PLAY, DISCARD) else (REF_KIND[a.kind], a.target, a.value)


def as_command(st, a: Action) -> tuple:
    """The reference engine's command for the engine's action ``a`` in ``st``: ``a`` names
    what happened (as the site's game records do); with an inverted suit's card the player
    plays it to discard it and discards it to play it (the server's commandActionPlay)."""
    g = st.game
    if a.kind in (PLAY, DISCARD) and a.target < len(g.deck) and g.variant.suits[g.suit_of[a.target]].inverted:
        return ("discard" if a.kind == PLAY else "play", a.target)
    return as_tuple(a)


def as_action(t: tuple) -> Action:
    """A reference-engine action tuple as an engine Action."""
    return Action(REF_KIND_BACK[t[0]], *t[1:])


# The tests the edit-test loop leaves out (scripts/test.sh --fast runs ``-m "not slow"``):
# whole modules and single tests of a few seconds each, by name (parametrised cases
# included). CI runs them all.
SLOW_MODULES = {
    "test_fuzz.py",  # every command against a thousand malformed inputs
    "test_web_browser.py",  # a real browser against a real server
}
SLOW_TESTS = {
    "test_the_stats_block_is_what_its_published_rows_say",  # imports 100,000 deals
    "test_an_example_runs_as_written",  # the shell examples of README.md and docs/
    "test_a_timeout_buys_a_fixed_number_of_rounds",
    "test_three_card_positions", "test_four_card_positions", "test_lose_one_bound_never_contradicts_the_oracle",
    "test_killed_run_loses_nothing", "test_killed_run_loses_nothing_and_duplicates_nothing",
    "test_generator_is_deterministic", "test_generate_from_deck_file_and_seeds", "test_difficulty_filter",
    "test_split_solve_matches_brute_force",
    "test_dask_gives_the_same_rows", "test_dask_local_cluster_and_scheduler_address",
    "test_rerun_skips_and_workers_change_nothing",
    "test_every_supported_variant_deals_a_seed_and_plays_a_random_game",
    "test_sigterm_to_analyse_stops_the_workers_quietly_and_keeps_the_rows",
    "test_several_runs_create_one_new_store_at_once",
    "test_two_writers_of_the_same_jobs_count_only_their_real_inserts",
    "test_deck_below_perfect_unsat_at_25_sat_at_maximum", "test_the_portfolio_spends_sat_conflicts_not_seconds",
    "test_perfect_lines_of_hard_winnable_decks_are_solutions", "test_hard_2p_decks",
    "test_a_generated_puzzle_is_valid_and_its_answer_correct", "test_generated_puzzles_pass_check",
    "test_bounds_hold_throughout_the_game_trees", "test_a_solve_makes_the_same_attempts_twice",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_MODULES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


def pytest_sessionfinish(session, exitstatus):
    """A recording run (``BRUTE_FORCE_RECORD=FILE``, scripts/regen_brute_force.py): the
    brute force's answers this run computed, into FILE (merged with what it holds)."""
    target = os.environ.get("BRUTE_FORCE_RECORD")
    if target:
        import known_max

        path = Path(target)
        have = json.loads(path.read_text()) if path.exists() else {}
        have.update(known_max.recorded)
        path.write_text(json.dumps(have, sort_keys=True, indent=0) + "\n")


@pytest.fixture
def hanablive_site(monkeypatch):
    """A local HTTP server in the site's URL layout: /export/{id} serves the games of
    tests/data/hanablive/ by the number in their file names."""
    import http.server
    import threading

    games = {p.stem.rsplit("game", 1)[1]: p.read_bytes() for p in HANABLIVE.glob("*game*.json")
             if p.stem.rsplit("game", 1)[1].isdigit()}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            number = self.path.removeprefix("/export/")
            body = games.get(number)
            self.send_response(200 if body else 404)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(body or b'{"error": "no such game"}')

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("HANABI_SITE", f"http://127.0.0.1:{server.server_address[1]}")
    yield
    server.shutdown()
