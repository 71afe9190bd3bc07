"""The SAT encodings (solver/hanabi/methods/sat/) against the brute-force reference engine.

Tiny custom variants, random decks and random mid-game positions, every rule option: the
SAT maximum must equal ``refengine.brute_force_max`` and every decoded line must replay
in the engine to the claimed score. Both models (``steps``, the default, and ``turns``)
are checked. Then full decks: a winnable No Variant deck reaches 25, a deck whose maximum
is below perfect is UNSAT at 25 and SAT at its maximum, and UNSAT answers come with a
DRAT proof that a small RUP checker below (and drat-trim, when installed) accepts.
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from solver.hanabi.methods.sat import check_drat, encode, sat_max, sat_reachable
from solver.hanabi.methods.sat import solve as sat_solve
from solver.hanabi.rules import PLAY, Card, Game, Rules, custom_variant, variant_by_name

from conftest import HARD_SAMPLE, NV_SAMPLE, as_tuple
from known_max import brute_force_max
from refengine import TINY_VARIANTS as TINY
from refengine import RefGame

DECKS = {"nv_winnable.jsonl": NV_SAMPLE, "hard_2p.jsonl": HARD_SAMPLE}  # copies in tests/data/decks





def random_position(seed: int):
    """A random tiny game (variant, players, options, deck) walked a random number of
    random legal moves in, drawn again (seed, then "seed/1", "seed/2", ...) until the
    position is live; returns the engine state and the reference game at the same
    position."""
    k = 0
    while True:
        st, ref = _random_position(seed if k == 0 else f"{seed}/{k}")
        if not st.over:
            return st, ref
        k += 1


def _random_position(seed):
    rng = random.Random(seed)
    while True:
        vd = rng.choice(TINY)
        players = rng.choice([2, 2, 3])
        v = custom_variant(vd)
        cards = list(v.composition())
        if players * vd["handSize"] <= len(cards):
            break
    rng.shuffle(cards)
    opts = {
        "empty_clues": rng.random() < 0.3,
        "deck_plays": rng.random() < 0.4,
        "strikeout_score": rng.choice(["zero", "stacks"]),
    }
    first = rng.randrange(players)
    opts["play_to_the_end"] = rng.random() < 0.3
    game = Game(Rules(v, **opts), players, [Card(s, r) for s, r in cards], starting_player=first)
    ref = RefGame(vd, players, cards, empty_clues=opts["empty_clues"],
                  keep_stacks_on_strikeout=opts["strikeout_score"] == "stacks",
                  deck_plays=opts["deck_plays"], starting_player=first, play_to_the_end=opts["play_to_the_end"])
    st = game.initial_state()
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4])):
        if st.over:
            break
        a = st.apply(rng.choice(st.legal_actions()))
        ref = ref.apply(as_tuple(a))
    return st, ref


def replay_score(state, actions) -> int:
    st = state.copy()
    for a in actions:
        st.apply(a)
    assert st.over, "a decoded line must finish the game"
    return st.score


def load_deck(name: str, pred):
    for line in DECKS[name].read_text().splitlines():
        d = json.loads(line)
        if pred(d):
            cards = [Card(c["suitIndex"], c["rank"]) for c in d["deck"]]
            return d, Game(Rules(variant_by_name(d["variant"])), d["players"], cards)
    raise LookupError(name)


# ---------------------------------------------------------------------------------------
# Tiny variants: exact agreement with brute force
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(120))
def test_steps_max_matches_brute_force(seed):
    st, ref = random_position(seed)
    best = brute_force_max(ref)
    r = sat_max(st)
    assert r.exact and r.max_score == best == r.upper_bound, (seed, r, best)
    assert replay_score(st, r.actions) == best


@pytest.mark.parametrize("seed", range(1000, 1040))
def test_turns_max_matches_brute_force(seed):
    st, ref = random_position(seed)
    best = brute_force_max(ref)
    r = sat_max(st, model="turns")
    assert r.exact and r.max_score == best, (seed, r, best)
    assert replay_score(st, r.actions) == best


@pytest.mark.parametrize("seed", range(2000, 2030))
@pytest.mark.parametrize("model", ["steps", "turns"])
def test_reachable_is_sharp_at_the_maximum(seed, model):
    """SAT at the maximum with a line reaching it; UNSAT one above."""
    st, ref = random_position(seed)
    best = brute_force_max(ref)
    yes = sat_reachable(st, best, model=model)
    assert yes.status == "sat" and replay_score(st, yes.actions) >= best
    no = sat_reachable(st, best + 1, model=model)
    assert no.status == "unsat" and no.actions is None
    for key in ("variables", "clauses", "turns", "time"):
        assert key in yes.stats


@pytest.mark.parametrize("features", [frozenset(), frozenset({"symmetry"}), frozenset({"capacity", "pace"})])
def test_optional_constraints_do_not_change_the_answer(features):
    for seed in range(3000, 3015):
        st, ref = random_position(seed)
        best = brute_force_max(ref)
        assert sat_reachable(st, best, features=features).status == "sat"
        assert sat_reachable(st, best + 1, features=features).status == "unsat"


@pytest.mark.parametrize("deck_plays,best", [(True, 2), (False, 1)])
def test_deck_play_needed_for_the_maximum(deck_plays, best):
    # one suit with ranks 1 2 2, one-card hands: Alice r2, Bob r2, deck r1. Only by
    # playing r1 straight from the deck can Bob's r2 follow in the final round.
    spec = {"suits": 1, "ranks": [1, 2, 2], "handSize": 1, "clueTokens": 1}
    deck = [Card(0, 2), Card(0, 2), Card(0, 1)]
    st = Game(Rules(custom_variant(spec), deck_plays=deck_plays), 2, deck).initial_state()
    ref = RefGame(spec, 2, [(c.suit, c.rank) for c in deck], deck_plays=deck_plays)
    assert brute_force_max(ref) == best
    for model in ("steps", "turns"):
        r = sat_max(st, model=model)
        assert r.exact and r.max_score == best
        assert replay_score(st, r.actions) == best
        if deck_plays:  # r1 (order 2) is played while it is the deck's last card
            assert any(a.kind == PLAY and a.target == 2 for a in r.actions)


def test_finished_position_and_timeout():
    st, _ = random_position(7)
    while not st.over:
        st.apply(st.legal_actions()[0])
    assert sat_reachable(st, st.score).status == "sat"
    assert sat_reachable(st, st.score + 1).status == "unsat"
    _, game = load_deck("hard_2p.jsonl", lambda d: True)
    assert sat_reachable(game.initial_state(), 25, timeout=0).status == "unknown"
    with pytest.raises(ValueError):
        encode(game.initial_state(), 25, model="nope")


# ---------------------------------------------------------------------------------------
# Built-in variants: the two models agree near the end of random games
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["No Variant", "Black (6 Suits)", "Rainbow (5 Suits)", "6 Suits"])
def test_models_agree_late_in_builtin_variants(name):
    rng = random.Random(name)
    v = variant_by_name(name)
    while True:  # deal again until the game is still live with 3 cards left in the deck
        cards = [Card(s, r) for s, r in v.composition()]
        rng.shuffle(cards)
        game = Game(Rules(v, deck_plays=True), 3, cards)
        st = game.initial_state()
        # play a random but mostly sensible game down to 3 cards left in the deck
        while st.deck_left > 3 and not st.over:
            acts = st.legal_actions()
            good = [a for a in acts if a.kind == PLAY and st.is_playable(a.target)]
            st.apply(good[0] if good else rng.choice([a for a in acts if a.kind != PLAY] or acts))
        if not st.over:
            break
    a = sat_max(st, model="steps")
    b = sat_max(st, model="turns")
    assert a.exact and b.exact and a.max_score == b.max_score
    assert replay_score(st, a.actions) == a.max_score
    assert replay_score(st, b.actions) == b.max_score


# ---------------------------------------------------------------------------------------
# Full decks
# ---------------------------------------------------------------------------------------
def test_winnable_no_variant_deck_reaches_25():
    d, game = load_deck("nv_winnable.jsonl", lambda d: d["players"] == 2 and d["winnable"])
    r = sat_reachable(game.initial_state(), 25)
    assert r.status == "sat", d["id"]
    assert replay_score(game.initial_state(), r.actions) == 25


def test_winnable_deck_reaches_25_with_more_players():
    d, game = load_deck("nv_winnable.jsonl", lambda d: d["players"] == 5 and d["winnable"])
    r = sat_reachable(game.initial_state(), 25)
    assert r.status == "sat", d["id"]
    assert replay_score(game.initial_state(), r.actions) == 25


def test_deck_below_perfect_unsat_at_25_sat_at_maximum():
    d, game = load_deck("hard_2p.jsonl", lambda d: d["id"] == "rama_hard_decks-0")
    assert d["winnable"] is False
    st = game.initial_state()
    assert sat_reachable(st, 25).status == "unsat"
    r = sat_max(st, lower=20)
    assert r.exact and r.max_score == r.upper_bound == 24
    assert replay_score(st, r.actions) == 24


# ---------------------------------------------------------------------------------------
# DRAT proofs
# ---------------------------------------------------------------------------------------
def _parse_dimacs(text):
    clauses = []
    for line in text.splitlines():
        if line.startswith(("p", "c")) or not line.strip():
            continue
        clauses.append([int(x) for x in line.split()[:-1]])
    return clauses


def _rup_check(clauses, proof_lines) -> bool:
    """A small forward DRUP checker (unit propagation with occurrence lists): every added
    lemma must follow by unit propagation from the clauses so far, and the empty clause
    must be derived. Enough for the tiny instances here (CaDiCaL's proofs are DRUP)."""
    db: dict[int, list[int]] = {}
    occ: dict[int, set[int]] = {}
    by_key: dict[tuple, list[int]] = {}
    next_id = 0

    units: set[int] = set()

    def add(cl):
        nonlocal next_id
        db[next_id] = cl
        by_key.setdefault(tuple(sorted(cl)), []).append(next_id)
        for lit in cl:
            occ.setdefault(lit, set()).add(next_id)
        if len(cl) <= 1:
            units.add(next_id)
        next_id += 1

    def delete(cl):
        ids = by_key.get(tuple(sorted(cl)))
        if ids:
            cid = ids.pop()
            units.discard(cid)
            for lit in db.pop(cid):
                occ[lit].discard(cid)

    def propagates_to_conflict(assumed):
        val = {}
        queue = []
        for lit in assumed:
            if val.get(-lit):
                return True
            if lit not in val:
                val[lit] = True
                queue.append(lit)
        for cid in units:
            cl = db[cid]
            if not cl or val.get(-cl[0]):
                return True
            if cl[0] not in val:
                val[cl[0]] = True
                queue.append(cl[0])
        while queue:
            lit = queue.pop()
            for cid in list(occ.get(-lit, ())):
                cl = db[cid]
                unassigned = None
                count = 0
                sat_ = False
                for x in cl:
                    if val.get(x):
                        sat_ = True
                        break
                    if not val.get(-x):
                        count += 1
                        unassigned = x
                        if count > 1:
                            break
                if sat_ or count > 1:
                    continue
                if count == 0:
                    return True
                val[unassigned] = True
                queue.append(unassigned)
        return False

    for cl in clauses:
        add(cl)
    for line in proof_lines:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "d":
            delete([int(x) for x in parts[1:-1]])
            continue
        lemma = [int(x) for x in parts[:-1]]
        if not propagates_to_conflict([-x for x in lemma]):
            return False
        if not lemma:
            return True
        add(lemma)
    return propagates_to_conflict([])


def test_unsat_comes_with_a_checkable_drat_proof(tmp_path):
    v = custom_variant({"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 1})
    deck = [Card(0, 2), Card(1, 2), Card(0, 1), Card(1, 1), Card(0, 1), Card(1, 1)]
    st = Game(Rules(v), 2, deck).initial_state()
    ref = RefGame({"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 1}, 2,
                  [(c.suit, c.rank) for c in deck])
    best = brute_force_max(ref)
    proof = tmp_path / "p.drat"
    r = sat_reachable(st, best + 1, proof_path=proof)
    assert r.status == "unsat"
    cnf = Path(r.stats["cnf_path"])
    assert cnf.exists() and proof.exists()
    assert _rup_check(_parse_dimacs(cnf.read_text()), proof.read_text().splitlines())
    assert check_drat(cnf, proof) in (True, None)  # None: drat-trim not installed


def test_rup_checker_rejects_a_bogus_proof(tmp_path):
    # (x1 or x2), (not x1 or x2): satisfiable; "proving" the empty clause must fail
    assert not _rup_check([[1, 2], [-1, 2]], ["0"])
    assert _rup_check([[1, 2], [-1, 2], [-2]], ["2 0", "0"])


def test_check_drat_without_drat_trim(monkeypatch, tmp_path):
    monkeypatch.setattr(sat_solve.shutil, "which", lambda name: None)
    assert check_drat(tmp_path / "a.cnf", tmp_path / "a.drat") is None


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim not installed")
def test_drat_trim_verifies_a_full_deck_proof(tmp_path):
    _, game = load_deck("hard_2p.jsonl", lambda d: d["id"] == "rama_hard_decks-0")
    proof = tmp_path / "p.drat"
    r = sat_reachable(game.initial_state(), 25, proof_path=proof)
    assert r.status == "unsat"
    assert check_drat(r.stats["cnf_path"], proof, timeout=120) is True


def test_capacity_ignores_cards_never_drawn_after_the_game_ends():
    """Regression: the hand-capacity constraint counted deck cards of no-op steps (after
    the game ended) as held, ruling out every line that ends with 2+ cards in the deck."""
    from solver.hanabi.methods.sat import sat_max, sat_reachable
    from solver.hanabi.rules import Game, Rules, custom_variant, parse_compact

    v = custom_variant({"suits": 1, "ranks": [1, 1, 1, 1, 1, 1, 1, 1, 2], "handSize": 2, "clueTokens": 0,
                        "strikes": 3})
    g = Game(Rules(v), 2, parse_compact("r1 r2 r1 r1 r1 r1 r1 r1 r1", v))
    res = sat_reachable(g.initial_state(), 2)
    assert res.status == "sat"
    st = g.initial_state().apply_all(res.actions)
    assert st.over and st.score == 2 and st.deck_left >= 2
    assert sat_max(g.initial_state()).max_score == 2


# ---- SatSession: a live solver answered in conflict budgets --------------------------------
def _hard_deck(k: int):
    """(start position, its ``winnable`` label: another project's solver) of hard deck k."""
    import json

    from solver.hanabi.rules import game_from_json

    from conftest import REPO

    rows = [json.loads(x) for x in (REPO / "tests" / "data" / "decks" / "hard_2p_first20.jsonl").open()]
    game = game_from_json({"deck": rows[k]["deck"]}, rows[k]["id"], players=2).game
    return game.initial_state(), rows[k]["winnable"]


@pytest.mark.parametrize("solver", ["cadical195", "minisat22"])
def test_sat_session_goes_on_where_it_stopped_and_is_deterministic(solver):
    from solver.hanabi.methods.sat import SatSession

    st, winnable = _hard_deck(3)
    assert winnable is False
    runs = []
    for _ in range(2):
        with SatSession(st, 25, solver=solver) as ss:
            seen = []
            for budget in (100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200):
                res = ss.run(budget)
                seen.append((res.status, res.stats["conflicts"]))
                if res.status != "unknown":
                    break
            runs.append(seen)
    assert runs[0] == runs[1]  # the same budgets, the same answers and conflict counts
    statuses = [s for s, _ in runs[0]]
    assert statuses[0] == "unknown" and statuses[-1] == "unsat"
    counts = [c for _, c in runs[0]]
    assert counts == sorted(counts) and counts[0] > 0  # one solver: the conflicts add up


def test_sat_session_answers_once_and_frees_its_solver():
    from solver.hanabi.methods.sat import SatSession

    st, winnable = _hard_deck(7)
    assert winnable is True
    ss = SatSession(st, 25)
    res = ss.run(10**6)
    assert res.status == "sat" and ss.run(1) is res  # decided: the same answer, no more work
    end = st.copy().apply_all(res.actions)
    assert end.over and end.score == 25
    ss.close()


def test_the_portfolio_spends_sat_conflicts_not_seconds():
    """The portfolio's SAT calls are budgeted in conflicts: the same deck, solved twice,
    makes the same SAT calls with the same conflict counts."""
    from solver.hanabi.methods.portfolio import solve

    st, winnable = _hard_deck(3)
    assert winnable is False
    a, b = solve(st), solve(st)
    calls = [[(x["target"], x["result"], x["conflicts"]) for x in s.stats["attempts"] if x["method"] == "sat"]
             for s in (a, b)]
    assert calls[0] and calls[0] == calls[1]
    assert (a.max_score, a.upper_bound, a.exact) == (b.max_score, b.upper_bound, b.exact) == (24, 24, True)
