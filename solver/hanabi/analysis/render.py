"""Plain-text views of positions and games (used by the CLI).

One turn numbering everywhere: turn N is the position after N actions (``State.turn``,
``--turn N``, the JSON ``turn``/``from_turn``); the move made there, action N (0-based, as
the error messages count actions), is listed as ``N.``, followed by the position it
leads to."""
from __future__ import annotations

from solver.hanabi.rules import Action, Game, State


def card_str(game: Game, order: int) -> str:
    return game.deck[order].to_str(game.variant)


def describe_position(st: State) -> str:
    g = st.game
    v = g.variant
    lines = [f"Turn {st.turn}: " + (f"game over ({st.end_reason})" if st.over else
                                     f"{g.player_name(st.current)} to act")]
    lines.append("Stacks:  " + "  ".join(f"{s.name} {st.stacks[i]}/{s.max_rank}" for i, s in enumerate(v.suits)))
    lines.append(f"Score {st.score}/{g.perfect_score}   clues {g.tokens_text(st.clues)}/{g.tokens_text(g.max_clues)}   "
                 f"strikes {st.strikes}/{g.strike_limit}")
    lines.append(f"Deck {st.deck_left} cards   pace {st.pace}   max reachable {st.still_reachable()}"
                 + (f"   turns left {st.turns_left}" if st.turns_left is not None else ""))
    w = max(len(n) for n in g.names)
    for p, hand in enumerate(st.hands):
        cards = " ".join(f"{card_str(g, o)}#{o}" for o in reversed(hand))  # newest first, as on hanab.live
        mark = "*" if p == st.current and not st.over else " "
        lines.append(f"{mark} {g.names[p]:<{w}}  {cards}")
    disc = " ".join(card_str(g, o) for o in sorted(st.discards, key=lambda o: (g.deck[o], o)))
    lines.append(f"Discards ({len(st.discards)}): {disc or '-'}")
    draw = " ".join(card_str(g, o) for o in range(st.next_draw, len(g.deck)))
    lines.append(f"Draw pile (next first): {draw or '-'}")
    return "\n".join(lines)


def describe_turn(st_before: State, action: Action) -> str:
    """``N. Player: move``: the move made at turn N (from the position after N actions)."""
    g = st_before.game
    return f"{st_before.turn:3d}. {g.player_name(st_before.current)}: {action.describe(g)}"


def status_line(st: State) -> str:
    stacks = " ".join(s.top_text(st.stacks[i]) for i, s in enumerate(st.game.variant.suits))
    clues = st.game.tokens_text(st.clues)
    return f"[{stacks}] score {st.score} clues {clues} strikes {st.strikes} deck {st.deck_left}"
