"""What the board draws: a game read from a request, and every position of it as plain
data for the page's script (cards with their suit's colour, hands, stacks, tokens,
strikes, pace, the draw pile face up, the discard pile, the action made)."""
from __future__ import annotations

from typing import Any

from solver.hanabi.analysis.render import describe_turn
from solver.hanabi.rules import GameRecord, MalformedError, Rules, State, game_from_seed, load_text, parse_variant
from solver.hanabi.rules.fetch import is_reference, load_reference

MAX_BODY = 2 * 1024 * 1024  # bytes of a game a request may carry

# the colours of the suits, by the first word of their names (as the site shows them);
# a suit of another name is drawn grey
COLOURS = {
    "red": "#d9473f", "yellow": "#e0b012", "green": "#3c9a47", "blue": "#2f6fc1", "purple": "#7d4cb0",
    "teal": "#1c9a9a", "black": "#222222", "rainbow": "#c0468f", "multicolor": "#c0468f", "white": "#d8d8d8",
    "brown": "#8a5a2b", "pink": "#e77fb3", "gray": "#9a9a9a", "grey": "#9a9a9a", "omni": "#b07a2a",
    "null": "#6b6b6b", "dark": "#444444", "orange": "#e8822a", "cocoa": "#6e4a2f", "prism": "#9b6bd1",
}


def read_seed(seed: str) -> GameRecord:
    """A hanab.live seed's deal, as a record without actions."""
    seed = seed.strip()
    if not seed or len(seed) > 200:
        raise MalformedError("a seed is a short text such as p3v0s1")
    game = game_from_seed(seed)
    return GameRecord(game, [], None, f"seed {seed}", {"seed": seed})


def read_named(text: str) -> GameRecord:
    """A game named in one line: a hanab.live game number, replay address or shared-replay
    link (:mod:`solver.hanabi.rules.fetch`), else a seed."""
    text = text.strip()
    if is_reference(text):
        return load_reference(text)
    return read_seed(text)


def read_game(text: str, source: str = "the game", *, players: str | None = None,
              variant: str | None = None) -> GameRecord:
    """A game from the text of a request (hanab.live JSON, or a deck in compact notation,
    for which ``players`` and ``variant`` say what a bare deck does not)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
        raise MalformedError(f"{source}: more than {MAX_BODY // (1024 * 1024)} MB")
    if not text.strip():
        raise MalformedError(f"{source}: empty")
    n = None
    if players:
        if not players.strip().isdigit() or not 2 <= int(players) <= 6:
            raise MalformedError(f"players {players[:20]!r}: a player count 2..6")
        n = int(players)
    rules = Rules(parse_variant(variant.strip())) if variant and variant.strip() else None
    rec = load_text(text, source, players=n, rules=rules)
    rec.state_after()  # every action legal before anything is drawn
    return rec


def colour(name: str) -> str:
    words = name.lower().replace("-", " ").split()
    for w in words:
        if w in COLOURS:
            return COLOURS[w]
    return "#9a9a9a"


def _card(st: State, o: int) -> dict[str, Any]:
    g = st.game
    c = g.deck[o]
    suit = g.variant.suits[c.suit]
    return {"order": o, "text": c.to_str(g.variant), "rank": c.rank, "suit": suit.name, "colour": colour(suit.name)}


def position(st: State) -> dict[str, Any]:
    """One position as plain data."""
    g = st.game
    suits = g.variant.suits
    return {
        "turn": st.turn,
        "current": None if st.over else g.player_name(st.current),
        "over": st.over,
        "score": st.score,
        "clues": st.clues,
        "max_clues": g.max_clues,
        "strikes": st.strikes,
        "strike_limit": g.strike_limit,
        "pace": st.pace,
        "stacks": [{"suit": s.name, "colour": colour(s.name), "height": h, "top": g.max_rank[i]}
                   for i, (s, h) in enumerate(zip(suits, st.stacks))],
        "hands": [{"player": g.player_name(p), "cards": [_card(st, o) for o in reversed(hand)]}
                  for p, hand in enumerate(st.hands)],
        "deck": [_card(st, o) for o in range(st.next_draw, len(g.deck))],
        "discards": [_card(st, o) for o in st.discards],
    }


def with_line(rec: GameRecord, turn: int, line: Any) -> GameRecord:
    """The game up to ``turn`` actions, then ``line`` (hanab.live action objects): what the
    board shows when it plays a solved line; every action checked."""
    from solver.hanabi.rules import Action

    if not isinstance(line, list):
        raise MalformedError("line: a list of hanab.live actions")
    actions = list(rec.actions[:turn]) + [Action.from_json(a, f"line[{i}]") for i, a in enumerate(line)]
    out = GameRecord(rec.game, actions, None, f"{rec.source}, the line from turn {turn}", dict(rec.extra))
    out.state_after()
    return out


def board_data(rec: GameRecord) -> dict[str, Any]:
    """Every position of the game, from the deal to its last action, and the actions in words."""
    st = rec.game.initial_state()
    positions = [position(st)]
    actions = []
    for a in rec.actions:
        actions.append(describe_turn(st, st.check(a)))
        st.apply(a)
        positions.append(position(st))
    g = rec.game
    return {"variant": g.variant.name, "players": list(g.names), "perfect": g.perfect_score,
            "positions": positions, "actions": actions, "game": rec.to_json()}
