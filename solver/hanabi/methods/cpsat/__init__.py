"""CP-SAT encoding of full-information Hanabi: the maximum final score from a position.

Time is counted in *events*, not turns. While the deck has cards every play or discard is
followed by a draw, so every turn before the last draw is either a clue or the removal of
the next deck card. The game from the position is therefore D *steps* (D = cards left in
the deck) — step e is a run of ``run[e]`` clue turns followed by the turn that removes deck
card e (it goes to the actor's hand, or with deck plays the last card may be played straight
from the deck) — and then the final round, F events of one turn each (F = players, or the
turns left if the final round has begun). Deck card j is drawn at step j, so its holder is
the actor of step j: who holds what is known at every step, and no horizon is needed.

Every solution of the model is a legal line of the rules engine, and every legal line is a
solution up to one score-preserving restriction: *symmetry breaking* between two copies of
a card (same suit and rank) in one hand: the lower-order copy is used first
(``canonical_line`` renames the copies of a line the same way). The model holds only lines
scoring at least ``target`` (and at most ``upper``), so an infeasible model proves every
score in that range unreachable.

``cpsat_max`` decides in two phases: first the feasibility question "can the game reach the
cards' bound?" (a model without objective: often infeasible at once), then, if not, the
maximisation over the lines that beat the seed line (the hint or greedy playouts). With
full information a clue only spends a token (no rule looks at what it touched): the model
counts clues and the decoder picks concrete legal clues.

Layout, as in the OR-Tools CP-SAT samples: data -> variables -> constraints -> objective ->
solve -> decode. Each constraint block opens with its rule in plain words; blocks marked
*redundant* follow from the others and only help the solver. The solution is decoded into
engine :class:`Action` s, replayed through the engine, and its score checked against the
objective; a mismatch raises, since it would be a bug in the encoding.

Public API: :func:`cpsat_max` returning a :class:`CpsatResult`; :func:`model_accepts`
(does the model hold a given line? for tests); :func:`canonical_line`, :func:`greedy_line`.

Modules: :mod:`.model` (data, variables, constraints, objective), :mod:`.redundant` (the
redundant constraints and symmetry breaking), :mod:`.lines` (hints and decoding),
:mod:`.solve` (seed lines and the two phases), :mod:`.common` (what they share).
"""
from __future__ import annotations

from .common import REDUNDANT, CpsatResult
from .solve import canonical_line, cpsat_max, greedy_line, model_accepts

__all__ = ["REDUNDANT", "CpsatResult", "canonical_line", "cpsat_max", "greedy_line", "model_accepts"]
