"""From the rules engine to the chance search and back: which games it takes, the
position of an engine :class:`~solver.hanabi.rules.State` with its pile as a multiset, and the
engine's legal actions as the search's moves."""
from __future__ import annotations

from types import ModuleType

from solver.errors import MalformedError
from solver.hanabi.rules import DISCARD, PLAY, Action, Game, State

from .kernel import CLUE, FROM_PILE, ChancePos, Facts


def unsupported_reason(game: Game) -> str | None:
    """Why the chance search cannot take ``game``, or None."""
    v = game.variant
    if game.up_or_down or game.sudoku:
        return (f"chances: {v.name!r} is not supported: its stacks' directions or starts depend on the cards "
                f"played first (the deck-known solve() handles it)")
    if game.alternation_binds:
        return f"chances: {v.name!r} is not supported: Alternating Clues binds here (which clue types are left)"
    if game.guarded:
        return "chances: a game with fixed stacks (solver.hanabi.methods.split) is not supported"
    return None


def check_supported(game: Game) -> None:
    why = unsupported_reason(game)
    if why is not None:
        raise MalformedError(why)


def card_class(game: Game, order: int) -> int:
    """The search's class of card ``order``: suit * 8 + the height it plays to."""
    return game.suit_of[order] * 8 + game.rank_of[order]


def facts_of(game: Game, impl: ModuleType | None = None) -> Facts:
    """The fixed facts of ``game`` (``impl``: the kernel's position module to build them
    with, default the kernel in use)."""
    nclasses = 8 * game.variant.num_suits
    touch = [False] * nclasses
    for o in range(len(game.deck)):
        if game.touchable[o]:
            touch[card_class(game, o)] = True
    make = Facts if impl is None else impl.Facts
    return make(game.num_players, game.variant.num_suits, list(game.max_rank), game.max_clues, game.clue_cost,
                 game.stack_token, game.strike_limit, game.rules.strikeout_score == "stacks", game.perfect_score,
                 game.site_end, game.discard_at_max, touch, game.all_touchable or game.free_clues, game.free_clues,
                 game.rules.deck_plays)


def position_of(state: State, facts: Facts | None = None, impl: ModuleType | None = None) -> ChancePos:
    """The chance search's position of ``state``: its hands, and its pile as the multiset
    of the cards not yet drawn (their order forgotten). ``impl``: the kernel's position
    module to build it with (default the kernel in use; the differential test builds both)."""
    g = state.game
    check_supported(g)
    f = facts_of(g, impl) if facts is None else facts
    hands = [[card_class(g, o) for o in h] for h in state.hands]
    deck = [0] * (8 * g.variant.num_suits)
    for o in range(state.next_draw, len(g.deck)):
        deck[card_class(g, o)] += 1
    tl = -1 if state.turns_left is None else state.turns_left
    make = ChancePos if impl is None else impl.ChancePos
    return make(f, hands, deck, list(state.stacks), state.clues, state.strikes, state.current, tl,
                state.over, state.score if state.over else -1)


def move_of(state: State, action: Action) -> tuple[int, int]:
    """The search's move ``(kind, index in the mover's hand)`` for a legal engine action."""
    if action.is_clue:
        return CLUE, -1
    if action.kind not in (PLAY, DISCARD):
        raise MalformedError(f"action {action}: not a play, a discard or a clue")
    hand = state.hands[state.current]
    if action.kind == PLAY and action.target == state.next_draw and action.target not in hand:
        return PLAY, FROM_PILE  # (deck plays: the pile's last card)
    if action.target not in hand:
        raise MalformedError(f"action {action}: card {action.target} is not in the hand of the player to move")
    return action.kind, hand.index(action.target)
