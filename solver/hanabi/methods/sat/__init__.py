"""SAT encoding of perfect-information Hanabi: "from this position, can the game end with
a score of at least ``target``?"

The question becomes a CNF formula, solved with a python-sat solver (CaDiCaL 1.9.5 by
default). A model decodes into a line of engine actions, which is replayed through the rules
engine before it is returned (a line the engine rejects is a bug, and raises); UNSAT proves
the target unreachable, and the solver's DRAT proof can be written out and checked with
``drat-trim`` (:func:`check_drat`).

Two encodings of the same rules are provided:

* ``model="steps"`` (the default, :func:`encode_steps`): indexed by *removals*. Before the
  deck runs out every turn is either a clue or a play/discard that draws, so a game is D
  steps, each "a run of clue turns, then the removal of the next deck card", followed by
  the final round. Card i is drawn at step i, so its holder is the actor of step i, and no
  horizon is needed. With the redundant hand-capacity constraint this decides the hard
  two-player decks in seconds.
* ``model="turns"`` (:func:`encode_turns`): indexed by turns ``t = 0..H-1`` over a safe
  horizon H (:func:`horizon`), one action per turn (play, discard, clue as a stall, or the
  no-op of a finished game), draws in deck order through an order-encoded counter of
  removed cards. Simpler to read against the rules, much slower on hard decks; kept as a
  second, differently built witness.

Both read like an OR-Tools sample: *data* (the facts of the position, :class:`_Data`),
*variables* (named by documented tuples in an ``IDPool``), *constraints* (one block per
rule, each opening with the rule in plain words), *solve* (:func:`_solve`) and *decode*.
Constraints marked *redundant* follow from the others and only help the solver; the
*symmetry* block removes lines that are renamings of others (it keeps at least one line of
every outcome, so UNSAT still proves unreachability). The package imports only the rules
engine.

One encoding per module: :mod:`.steps` and :mod:`.turns`; what both share in
:mod:`.common`; solving, decoding and proofs in :mod:`.solve`.

Public API: :func:`sat_reachable`, :func:`sat_max`, :func:`check_drat`, :func:`encode`.
"""
from __future__ import annotations

from .common import STEP_FEATURES, TURN_FEATURES, Encoding, SatMax, SatResult
from .solve import MODELS, SLICE_CONFLICTS, SOLVER_NAMES, SatSession, check_drat, encode, sat_max, sat_reachable
from .steps import encode_steps
from .turns import encode_turns, horizon

__all__ = [
    "SatResult", "SatMax", "SatSession", "Encoding", "sat_reachable", "sat_max", "check_drat",
    "encode", "encode_steps", "encode_turns", "horizon",
    "MODELS", "SOLVER_NAMES", "SLICE_CONFLICTS", "STEP_FEATURES", "TURN_FEATURES",
]
