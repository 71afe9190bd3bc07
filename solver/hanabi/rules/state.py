"""The game (fixed facts) and the state (the game in progress).

``Game`` holds what never changes: rules, player count and names, the deck order, hand
size, and per-card lookup tables. ``State`` holds a position: whose turn, the hands (card
orders, oldest card first), the next card to draw, stacks, clue tokens, strikes, the
discard pile, the turns left after the last draw, and whether the game is over.

``State.apply`` validates and raises :class:`IllegalActionError`; ``State.push``/``pop``
are the fast unchecked make/unmake used by search.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from . import sudoku, updown
from .cards import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, Card
from .errors import IllegalActionError, MalformedError
from .options import Rules
from .variant import Variant

DEFAULT_NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")

END_PERFECT, END_STRIKEOUT, END_FINAL_ROUND = "perfect", "strikeout", "final_round"
# hanab.live's own ends (Rules.play_to_the_end False): the score equals the maximum still
# reachable; in the final round, no card left to play but with players who had their last turn
END_MAX_SCORE, END_NO_PLAYS = "max_score", "no_plays"
END_WORDS = {
    END_PERFECT: "every stack is complete",
    END_STRIKEOUT: "the last strike",
    END_FINAL_ROUND: "the final round is over",
    END_MAX_SCORE: "the score is the most still reachable: hanab.live ends the game there",
    END_NO_PLAYS: "no player still to act holds a card that can be played: hanab.live ends the game there",
}

# State.key(): current, hands, next_draw, stacks, clues, strikes, discards, turns_left, over,
# last_clue, directions, starts, site_max
StateKey = tuple[int, tuple[tuple[int, ...], ...], int, tuple[int, ...], int, int, tuple[int, ...], int | None, bool,
                 int, tuple[int, ...], tuple[int, ...], int]
# an entry of State._undo: (current, clues, strikes, turns_left, over, end_reason, last_clue,
# site_max) before the action, then the action kind, the card order, its index in the hand
# (order and index -1 for a clue; index -2 for a deck play), whether a card was drawn, the suit
# played onto (-1: none) and that stack's direction (Up or Down) or start (Sudoku) before
_Saved = tuple[int, int, int, int | None, bool, str | None, int, int]
_UndoEntry = tuple[_Saved, int, int, int, bool, int, int]


def _few(items: Iterable[str], limit: int = 8) -> str:
    items = sorted(items)
    more = f" (+{len(items) - limit} more)" if len(items) > limit else ""
    return " ".join(items[:limit]) + more


class Game:
    """Fixed facts of one game: rules, players, deck."""

    def __init__(
        self,
        rules: Rules | Variant,
        players: int,
        deck: Sequence[Card],
        *,
        names: Sequence[str] | None = None,
        starting_player: int = 0,
    ):
        if isinstance(rules, Variant):
            rules = Rules(rules)
        self.rules = rules
        self.variant = v = rules.variant
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
            raise MalformedError(f"bad player count {players!r}: must be 2 to 6")
        self.num_players = players
        self.hand_size = rules.hand_size(players)
        self.deck = tuple(deck)
        want = Counter(Card(s, r) for s, r in v.composition())
        got = Counter(self.deck)
        if got != want:
            missing = want - got
            extra = got - want
            parts = []
            if extra:
                parts.append("unexpected " + _few(c.to_str(v) if 0 <= c.suit < v.num_suits else repr(c)
                                                  for c in extra.elements()))
            if missing:
                parts.append("missing " + _few(c.to_str(v) for c in missing.elements()))
            raise MalformedError(
                f"deck does not match variant {v.name!r} ({len(self.deck)} cards, {sum(want.values())} expected): "
                + "; ".join(parts)
            )
        if players * self.hand_size > len(self.deck):
            raise MalformedError(
                f"bad player count {players}: need {players * self.hand_size} cards for {players} hands of "
                f"{self.hand_size}, deck has {len(self.deck)}"
            )
        if names is None:
            names = DEFAULT_NAMES[:players]
        names = tuple(names)
        if len(names) != players:
            raise MalformedError(f"{len(names)} player names for {players} players")
        self.names = names
        if not isinstance(starting_player, int) or not 0 <= starting_player < players:
            raise MalformedError(f"startingPlayer {starting_player!r} is not a seat 0..{players - 1}")
        self.starting_player = starting_player
        # per-card tables (cheap ints for hot loops)
        self.suit_of = tuple(c.suit for c in self.deck)
        # per card the stack height it plays to: its rank, read backwards in a reversed suit
        # (Suit.height); every stack rule here and in the solvers reads these
        self.rank_of = tuple(v.suits[c.suit].height(c.rank) if 0 <= c.suit < v.num_suits else c.rank
                             for c in self.deck)
        # per card: the clue colors (bit i: clue_colors[i]) and rank clues (bit r: rank r)
        # that touch it, by the variant's touch rules
        touch = v.touches
        self.color_mask = tuple(
            sum(1 << col for col in range(len(v.clue_colors)) if touch(c.suit, c.rank, COLOR_CLUE, col))
            for c in self.deck
        )
        self.rank_mask = tuple(
            sum(1 << r for r in v.clue_ranks if touch(c.suit, c.rank, RANK_CLUE, r)) for c in self.deck
        )
        # per clue kind, whether such a clue may touch no card: empty clues allowed, or a
        # variant whose clues of that kind touch nothing (hanab.live's exception)
        self.empty_clue_ok = {k: rules.empty_clues or v.clue_always_legal(k) for k in (COLOR_CLUE, RANK_CLUE)}
        # a stall needs no touched card
        self.free_clues = any(self.empty_clue_ok.values())
        # per card: some clue touches it (a card no clue touches cannot be the reason a
        # clue is legal: null suits and the like); all_touchable: every card can be clued
        self.touchable = tuple(bool(cm or rm) for cm, rm in zip(self.color_mask, self.rank_mask))
        self.all_touchable = all(self.touchable)
        # Up or Down: a stack's direction is decided by its first cards (solver.hanabi.rules.updown);
        # Sudoku: a stack starts at any rank no other stack started at (solver.hanabi.rules.sudoku)
        self.up_or_down = v.up_or_down
        self.sudoku = v.sudoku
        # Alternating Clues: a clue may not have the type of the clue before it. The rule
        # only binds where a clue of one type can be legal while none of the other is: when
        # some card is touched by one type's clues only, or one type may touch nothing and
        # the other may not. Elsewhere, whenever some clue is legal, one of each type is.
        ok_color, ok_rank = self.empty_clue_ok[COLOR_CLUE], self.empty_clue_ok[RANK_CLUE]
        self.alternating = v.alternating_clues
        self.alternation_binds = v.alternating_clues and not (
            (ok_color and ok_rank)
            or (not ok_color and not ok_rank
                and all(bool(cm) == bool(rm) for cm, rm in zip(self.color_mask, self.rank_mask))))
        self.max_rank = tuple(s.max_rank for s in v.suits)
        # clue tokens are counted in units, as hanab.live's server counts them: one unit a
        # token, or half a token in Clue Starved (a clue costs two units there; a discard or
        # a completed stack gives one)
        self.clue_cost = 2 if v.clue_starved else 1
        self.max_clues = rules.clue_tokens * self.clue_cost
        # a completed stack gives a unit (not in Throw It in a Hole)
        self.stack_token = not v.throw_it_in_a_hole
        self.strike_limit = v.strikes
        self.perfect_score = v.perfect_score
        # the game also ends as hanab.live ends it (see State.push)
        self.site_end = not rules.play_to_the_end
        # with inverted suits a discard is legal with all tokens available (and gains none)
        self.discard_at_max = v.has_inverted_suits
        if self.discard_at_max and rules.deck_plays:
            raise MalformedError(f"variant {v.name!r} with deck plays is not supported yet: with inverted suits "
                                 f"the last card may also be discarded from the deck")
        # the game this one fixes the stacks of (with_heights), or None; per card, the
        # misplay guard of such a game: card o may not be misplayed while its stack is at
        # height guard_height[o] and (guard_owner[o] < 0 or stack guard_owner[o] is empty)
        # (the real game would play it there); -1: no guard
        self.fixed_from: Game | None = None
        self.guard_height: tuple[int, ...] = (-1,) * len(self.deck)
        self.guard_owner: tuple[int, ...] = (-1,) * len(self.deck)
        self.guarded = False
        self._index_heights()

    def _index_heights(self) -> None:
        """The tables read from ``rank_of``: ``orders_of[s][h]``, the orders of the cards of
        suit s that play at height h (h = 0..stack size), and ``height_names[s][h]``, those
        cards as a player names them ("r4"; "r1/r7" for two ranks at one height)."""
        v = self.variant
        self.orders_of = tuple(tuple(tuple(o for o, c in enumerate(self.deck) if c.suit == s and self.rank_of[o] == r)
                                     for r in range(s_.max_rank + 1)) for s, s_ in enumerate(v.suits))
        self.height_names = tuple(
            tuple("/".join(dict.fromkeys(self.deck[o].to_str(v) for o in row)) or f"{v.suits[s].letter}{h}"
                  for h, row in enumerate(rows)) for s, rows in enumerate(self.orders_of))

    def with_heights(self, heights: Sequence[int],
                     guards: Sequence[tuple[int, int]] | None = None) -> Game:
        """This deal played with ordinary stacks, card ``o`` playing at height
        ``heights[o]`` (each stack built 1, 2, ... up to its size): Up or Down with every
        stack's direction fixed, Sudoku with every stack's start fixed (solver.hanabi.methods.split). The
        cards, hands, clues and tokens are this game's; only which card plays where
        changes. ``guards``: per card (height, owner), the misplay guard (see
        ``guard_height``), or None for none."""
        heights = tuple(heights)
        guards = tuple(guards) if guards is not None else ((-1, -1),) * len(self.deck)
        if len(guards) != len(self.deck):
            raise MalformedError(f"with_heights: {len(guards)} guards for a deck of {len(self.deck)} cards")
        if len(heights) != len(self.deck):
            raise MalformedError(f"with_heights: {len(heights)} heights for a deck of {len(self.deck)} cards")
        for o, h in enumerate(heights):
            if not 1 <= h <= self.max_rank[self.suit_of[o]]:
                raise MalformedError(f"with_heights: card {o} ({self.deck[o].to_str(self.variant)}) at height {h}, "
                                     f"outside 1..{self.max_rank[self.suit_of[o]]}")
        g = copy.copy(self)
        g.rank_of = heights
        g.up_or_down = g.sudoku = False
        g.fixed_from = self
        g.guard_height = tuple(h for h, _ in guards)
        g.guard_owner = tuple(t for _, t in guards)
        g.guarded = any(h >= 0 for h in g.guard_height)
        g._index_heights()
        return g

    def tokens_text(self, units: int) -> str:
        """Clue tokens (counted in units) as a player reads them: "3", or "3.5" in Clue
        Starved."""
        whole, half = divmod(units, self.clue_cost)
        return f"{whole}.5" if half else str(whole)

    def player_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < self.num_players else f"player {seat}"

    def initial_state(self) -> State:
        return State(self)

    def __repr__(self) -> str:
        return f"Game({self.variant.name!r}, players={self.num_players}, deck={len(self.deck)} cards)"


class State:
    """A position in a game. Mutable; use :meth:`copy` for an independent one."""

    __slots__ = (
        "game", "current", "hands", "next_draw", "stacks", "clues", "strikes",
        "discards", "turns_left", "over", "end_reason", "turn", "history", "_undo", "last_clue", "directions",
        "starts", "site_max",
    )

    def __init__(self, game: Game):
        self.game = game
        h, n = game.hand_size, game.num_players
        self.hands = [list(range(p * h, (p + 1) * h)) for p in range(n)]
        self.next_draw = n * h
        self.current = game.starting_player
        self.stacks = [0] * game.variant.num_suits
        self.clues = game.max_clues
        self.strikes = 0
        self.discards: list[int] = []
        # the deck may be empty right after the deal (tiny variants): final round at once
        self.turns_left: int | None = n if self.next_draw >= len(game.deck) else None
        self.over = False
        self.end_reason: str | None = None
        self.turn = 0
        self.history: list[Action] = []  # the actions pushed, oldest first
        self._undo: list[_UndoEntry] = []
        # Alternating Clues: the type of the last clue given (COLOR_CLUE or RANK_CLUE), -1
        # before the first; always -1 in other variants
        self.last_clue = -1
        # Up or Down: each stack's direction (updown.UNDECIDED, UP, DOWN); stacks count the
        # cards played. Always UNDECIDED in other variants
        self.directions = [updown.UNDECIDED] * game.variant.num_suits
        # Sudoku: each stack's first rank (0 before it starts), and hanab.live's maximum score
        # as its server keeps it (the lowest its function has given: sudoku.site_max_score)
        self.starts = [0] * game.variant.num_suits
        self.site_max = game.perfect_score

    # ---- facts about the position ----------------------------------------
    @property
    def deck_left(self) -> int:
        return len(self.game.deck) - self.next_draw

    @property
    def score(self) -> int:
        if self.end_reason == END_STRIKEOUT and self.game.rules.strikeout_score == "zero":
            return 0
        return sum(self.stacks)

    def copies_left(self) -> Counter[Card]:
        """Copies of each card still in a hand or the draw pile (not played, not discarded)."""
        g = self.game
        left: Counter[Card] = Counter(g.deck[o] for h in self.hands for o in h)
        left.update(g.deck[o] for o in range(self.next_draw, len(g.deck)))
        return left

    def reach(self) -> tuple[int, ...]:
        """Per suit, the highest rank its stack can still reach: it climbs while every next
        rank has a copy in a hand or the draw pile (ignoring time)."""
        g = self.game
        if g.up_or_down:
            by_suit = self._live_ranks()
            return tuple(updown.reach(top, self.directions[s], g.max_rank[s], by_suit[s])
                         for s, top in enumerate(self.stacks))
        if g.sudoku:
            return sudoku.reach(self.stacks, self.starts, g.max_rank[0], self._live_ranks())
        live = set()
        for o in self._left():
            live.add(g.suit_of[o] * 8 + g.rank_of[o])
        out = []
        for s, top in enumerate(self.stacks):
            r, m = top, g.max_rank[s]
            while r < m and s * 8 + r + 1 in live:
                r += 1
            out.append(r)
        return tuple(out)

    def max_reachable(self) -> int:
        """The sum over suits of the highest rank still reachable given the discard pile
        (hanab.live's 'max score'), ignoring time: the sum of :meth:`reach`. A bound by the
        cards alone: it does not look at whether the game is over (see
        :meth:`still_reachable`)."""
        return sum(self.reach())

    def still_reachable(self) -> int:
        """The most the game can still end with, by the cards: the final score once the
        game is over (nothing is reachable after the end), else :meth:`max_reachable`. This
        is the "max reachable" the command line reports."""
        return self.score if self.over else self.max_reachable()

    def is_playable(self, order: int) -> bool:
        """Card ``order`` would extend its suit's stack now."""
        g = self.game
        s = g.suit_of[order]
        if g.up_or_down:
            return updown.fits(g.rank_of[order], self.stacks[s], self.directions[s], g.max_rank[s]) >= 0
        if g.sudoku:
            return self._sudoku_fits(order) >= 0
        return g.rank_of[order] == self.stacks[s] + 1

    def misplay_guarded(self, order: int) -> bool:
        """In a game with fixed stacks (:meth:`Game.with_heights`): card ``order`` would
        misplay here, but the real game would play it, so the fixed game forbids it."""
        g = self.game
        h = g.guard_height[order]
        if h < 0 or self.stacks[g.suit_of[order]] != h:
            return False
        t = g.guard_owner[order]
        return t < 0 or self.stacks[t] == 0

    def _sudoku_fits(self, order: int) -> int:
        """Sudoku: the stack's start once card ``order`` plays, or -1 (sudoku.fits)."""
        g = self.game
        s = g.suit_of[order]
        others = [b for i, b in enumerate(self.starts) if i != s and b]
        return sudoku.fits(g.rank_of[order], self.stacks[s], self.starts[s], others, g.max_rank[s])

    def _live_ranks(self) -> list[set[int]]:
        """Per suit, the ranks with a copy in a hand or the draw pile."""
        g = self.game
        out: list[set[int]] = [set() for _ in g.variant.suits]
        for o in self._left():
            out[g.suit_of[o]].add(g.rank_of[o])
        return out

    def is_trash(self, order: int, reach: Sequence[int] | None = None) -> bool:
        """Card ``order`` can never score: its rank is on its stack already, or a lower rank
        of its suit has no copy left (``reach``: :meth:`reach`, when the caller has it)."""
        g = self.game
        s, r = g.suit_of[order], g.rank_of[order]
        if g.up_or_down:  # (the stack's direction decides which ranks are still to come)
            return not updown.useful(r, self.stacks[s], self.directions[s], g.max_rank[s], self._live_ranks()[s])
        if g.sudoku:
            others = [b for i, b in enumerate(self.starts) if i != s and b]
            return not sudoku.useful(r, self.stacks[s], self.starts[s], others, g.max_rank[s], self._live_ranks()[s])
        if r <= self.stacks[s]:
            return True
        return r > (self.reach() if reach is None else reach)[s]

    def _left(self) -> Iterator[int]:
        """The cards in a hand or the draw pile."""
        for h in self.hands:
            yield from h
        yield from range(self.next_draw, len(self.game.deck))

    def is_critical(self, order: int, left: Counter[Card] | None = None) -> bool:
        """Card ``order`` can still score and is the last copy of its card in play (in a
        hand or the draw pile): losing it lowers the maximum (``left``:
        :meth:`copies_left`, when the caller has it)."""
        left = self.copies_left() if left is None else left
        return left[self.game.deck[order]] == 1 and not self.is_trash(order)

    def first_clue(self, kind: int | None = None) -> Action | None:
        """The first legal clue in :meth:`legal_actions` order (the next player first,
        colors before ranks), of ``kind`` (COLOR_CLUE or RANK_CLUE) if given, or None.
        With every card visible a clue only passes the turn (and in Alternating Clues
        decides the next clue's type), so this is the clue a solver line gives when it
        stalls."""
        return next((a for a in self._clues() if kind is None or a.kind == kind), None)

    def _clues(self) -> Iterator[Action]:
        """The legal clues, in :meth:`legal_actions` order, made one at a time."""
        g = self.game
        if self.over or self.clues < g.clue_cost:
            return
        me, n = self.current, g.num_players
        v = g.variant
        empty_color, empty_rank = g.empty_clue_ok[COLOR_CLUE], g.empty_clue_ok[RANK_CLUE]
        ncolors = len(v.clue_colors)
        if self.last_clue == COLOR_CLUE:
            ncolors = 0
        ranks = () if self.last_clue == RANK_CLUE else v.clue_ranks
        for off in range(1, n):
            t = (me + off) % n
            for c in range(ncolors):
                tc = self.touched(t, COLOR_CLUE, c)
                if tc or empty_color:
                    yield Action(COLOR_CLUE, t, c, tc)
            for r in ranks:
                tc = self.touched(t, RANK_CLUE, r)
                if tc or empty_rank:
                    yield Action(RANK_CLUE, t, r, tc)

    @property
    def pace(self) -> int:
        """hanab.live's pace: score + cards in the deck + players - max reachable score."""
        return sum(self.stacks) + self.deck_left + self.game.num_players - self.max_reachable()

    def holder(self, order: int) -> int | None:
        for p, hand in enumerate(self.hands):
            if order in hand:
                return p
        return None

    def touched(self, target: int, kind: int, value: int) -> tuple[int, ...]:
        g = self.game
        if kind == COLOR_CLUE:
            bit = 1 << value
            return tuple(o for o in self.hands[target] if g.color_mask[o] & bit)
        bit = 1 << value
        return tuple(o for o in self.hands[target] if g.rank_mask[o] & bit)

    def move_class(self, action: Action) -> str:
        """The kind of move ``action`` (legal here) is, in compact notation: ``c`` for
        every clue (with every card visible a clue's content changes nothing: it spends a
        token and passes the turn), ``pr3``/``dy1`` for a play or a discard of a card of
        the hand to act (by card, not copy: two copies in one hand are interchangeable),
        ``p#N`` for a play from the deck. Where Alternating Clues binds
        (``Game.alternation_binds``) a clue is ``cc`` (color) or ``cr`` (rank)."""
        if action.is_clue:
            if self.game.alternation_binds:  # the type decides which clue may follow
                return "cc" if action.kind == COLOR_CLUE else "cr"
            return "c"
        letter = "p" if action.kind == PLAY else "d"
        if action.target not in self.hands[self.current]:
            return f"{letter}#{action.target}"
        g = self.game
        return letter + g.deck[action.target].to_str(g.variant)

    def move_classes(self) -> dict[str, Action]:
        """Every kind of legal move (:meth:`move_class`) with one representative action
        each, the first of its kind, in :meth:`legal_actions` order (plays, discards,
        then clues)."""
        out: dict[str, Action] = {}
        for a in self.legal_actions():
            out.setdefault(self.move_class(a), a)
        return out

    # ---- legality ---------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        g = self.game
        me = self.current
        acts = [Action(PLAY, o) for o in self.hands[me] if not (g.guarded and self.misplay_guarded(o))]
        if g.rules.deck_plays and self.deck_left == 1:
            acts.append(Action(PLAY, self.next_draw))
        if self.clues < g.max_clues or g.discard_at_max:
            acts.extend(Action(DISCARD, o) for o in self.hands[me])
        acts.extend(self._clues())
        return acts

    def check(self, action: Action) -> Action:
        """Validate ``action``; return it with its clue content filled in, or raise
        :class:`IllegalActionError` saying why."""
        g = self.game
        if not isinstance(action, Action):
            raise MalformedError(f"not an action: {action!r}")
        if self.over:
            raise IllegalActionError(f"the game is over ({self.end_reason})")
        me = self.current
        who = g.player_name(me)
        k, t, v = action.kind, action.target, action.value
        if k in (PLAY, DISCARD):
            verb = "play" if k == PLAY else "discard"
            if t not in self.hands[me]:
                if k == PLAY and g.rules.deck_plays and self.deck_left == 1 and t == self.next_draw:
                    return Action(PLAY, t)
                if not 0 <= t < len(g.deck):
                    raise IllegalActionError(f"{verb} card #{t}: no such card (deck has {len(g.deck)})")
                where = self._where(t)
                raise IllegalActionError(f"{verb} card #{t}: not in {who}'s hand ({where})")
            if k == PLAY and g.guarded and self.misplay_guarded(t):
                raise IllegalActionError(
                    f"play card #{t} ({g.deck[t].to_str(g.variant)}): a misplay here is not allowed in this game "
                    f"with fixed stacks (the real game would play the card: {g.fixed_from!r})")
            if k == DISCARD and self.clues >= g.max_clues and not g.discard_at_max:
                raise IllegalActionError(f"discard card #{t}: all {g.tokens_text(g.max_clues)} clue tokens are "
                                         f"available")
            return Action(k, t)
        if k in (COLOR_CLUE, RANK_CLUE):
            kind = "color" if k == COLOR_CLUE else "rank"
            if self.clues < g.clue_cost:
                left = " (half a token left)" if self.clues else ""
                raise IllegalActionError(f"{kind} clue: no clue tokens left{left}")
            if k == self.last_clue:
                raise IllegalActionError(f"{kind} clue: in Alternating Clues a {kind} clue cannot follow a {kind} clue")
            if not 0 <= t < g.num_players:
                raise IllegalActionError(f"{kind} clue to player {t}: no such player")
            if t == me:
                raise IllegalActionError(f"{kind} clue: {who} cannot clue themself")
            if k == COLOR_CLUE and not 0 <= v < len(g.variant.clue_colors):
                raise IllegalActionError(
                    f"color clue value {v}: not a clue color of {g.variant.name!r} "
                    f"(0..{len(g.variant.clue_colors) - 1})"
                )
            if k == RANK_CLUE and v not in g.variant.clue_ranks:
                raise IllegalActionError(f"rank clue value {v}: not a clue rank of {g.variant.name!r}")
            tc = self.touched(t, k, v)
            if not tc and not g.empty_clue_ok[k]:
                what = g.variant.clue_colors[v].lower() if k == COLOR_CLUE else str(v)
                raise IllegalActionError(f"{kind} clue {what} to {g.player_name(t)} touches no card "
                                         f"(empty clues are off)")
            return Action(k, t, v, tc)
        raise IllegalActionError(f"action type {k} is not a move")

    def _where(self, order: int) -> str:
        if order >= self.next_draw:
            return "still in the deck"
        p = self.holder(order)
        if p is not None:
            return f"held by {self.game.player_name(p)}"
        if order in self.discards:
            return "in the discard pile"
        return "already played"

    def apply(self, action: Action) -> Action:
        """Validate and make ``action``; returns the action with its content."""
        a = self.check(action)
        self.push(a)
        return a

    def apply_all(self, actions: Iterable[Action], label: str = "action") -> State:
        """``apply`` each action in turn; an illegal one raises ``IllegalActionError``
        prefixed with ``label`` and its 0-based index. Returns self."""
        for i, a in enumerate(actions):
            try:
                self.apply(a)
            except IllegalActionError as e:
                raise IllegalActionError(f"{label} {i}: {e}") from None
        return self

    # ---- make / unmake ----------------------------------------------------
    def push(self, action: Action) -> None:
        """Make ``action`` without validation (it must be legal)."""
        g = self.game
        me = self.current
        k = action.kind
        undo = (me, self.clues, self.strikes, self.turns_left, self.over, self.end_reason, self.last_clue,
                self.site_max)
        hand = self.hands[me]
        drew = False
        idx = -1
        played_ok = -1
        old_dir = -1
        if k == PLAY or k == DISCARD:
            o = action.target
            if o == self.next_draw and o not in hand:  # deck play
                self.next_draw += 1
                idx = -2
            else:
                idx = hand.index(o)
                del hand[idx]
            if k == PLAY:
                s = g.suit_of[o]
                new_dir = (updown.fits(g.rank_of[o], self.stacks[s], self.directions[s], g.max_rank[s])
                           if g.up_or_down else self._sudoku_fits(o) if g.sudoku else -1)
                special = g.up_or_down or g.sudoku
                if new_dir >= 0 or (not special and g.rank_of[o] == self.stacks[s] + 1):
                    if g.up_or_down:
                        old_dir, self.directions[s] = self.directions[s], new_dir
                    elif g.sudoku:
                        old_dir, self.starts[s] = self.starts[s], new_dir
                    self.stacks[s] += 1
                    played_ok = s
                    if self.stacks[s] == g.max_rank[s] and self.clues < g.max_clues and g.stack_token:
                        self.clues += 1
                else:
                    self.discards.append(o)
                    self.strikes += 1
            else:
                self.discards.append(o)
                if self.clues < g.max_clues:  # (at the maximum only with inverted suits)
                    self.clues += 1
            if g.sudoku:  # (the server lowers its maximum after every play or discard)
                dead = [{r for r in set(v_.ranks) if all(x in self.discards for x in g.orders_of[i][r])}
                        for i, v_ in enumerate(g.variant.suits)]
                self.site_max = min(self.site_max, sudoku.site_max_score(self.starts, g.max_rank[0], dead))
            if idx >= 0 and self.next_draw < len(g.deck):
                hand.append(self.next_draw)
                self.next_draw += 1
                drew = True
        else:
            o = -1
            self.clues -= g.clue_cost
            if g.alternating:
                self.last_clue = k
        self._undo.append((undo, k, o, idx, drew, played_ok, old_dir))
        self.history.append(action)
        # end of turn
        if self.strikes >= g.strike_limit:
            self.over, self.end_reason = True, END_STRIKEOUT
        elif played_ok >= 0 and self.stacks == list(g.max_rank):
            self.over, self.end_reason = True, END_PERFECT
        if self.turns_left is not None:
            self.turns_left -= 1
            if self.turns_left <= 0 and not self.over:
                self.over, self.end_reason = True, END_FINAL_ROUND
        elif self.next_draw >= len(g.deck) and (drew or idx == -2):
            self.turns_left = g.num_players
        self.current = (me + 1) % g.num_players
        self.turn += 1
        if not self.over and g.site_end:
            # hanab.live's CheckEnd (server/src/game.go), after every action: the score is
            # the most still reachable, or no card that would extend a stack is left but in
            # the hands of players who have had their last turn (the site marks their cards
            # CannotBePlayed: command_action.go)
            if self._nothing_to_score():
                self.over, self.end_reason = True, END_MAX_SCORE
            elif self.turns_left is not None and not self._live_play():
                self.over, self.end_reason = True, END_NO_PLAYS

    def _nothing_to_score(self) -> bool:
        """The score is :meth:`max_reachable`: every incomplete stack's next card has all
        its copies discarded (a played copy would have raised the stack). Cheap: it stops
        at the first suit whose next card still has a copy."""
        g = self.game
        if g.up_or_down:
            return sum(self.stacks) == self.max_reachable()
        if g.sudoku:  # the site's maximum reached, or no stack's next card left
            return (sum(self.stacks) == self.site_max
                    or sudoku.all_dead(self.stacks, self.starts, g.max_rank[0], self._live_ranks()))
        discards = self.discards
        for s, h in enumerate(self.stacks):
            if h < g.max_rank[s] and any(o not in discards for o in g.orders_of[s][h + 1]):
                return False
        return True

    def _live_play(self) -> bool:
        """In the final round: a player still to act holds a card that extends a stack
        (the deck is empty: the players still to act are the next ``turns_left``)."""
        g = self.game
        n = g.num_players
        for i in range(self.turns_left or 0):
            for o in self.hands[(self.current + i) % n]:
                if self.is_playable(o):
                    return True
        return False

    def pop(self) -> Action:
        """Unmake the last pushed action and return it."""
        if not self._undo:
            raise IllegalActionError("pop: no action to undo")
        undo, k, o, idx, drew, played_ok, old_dir = self._undo.pop()
        me = undo[0]
        (self.current, self.clues, self.strikes, self.turns_left, self.over, self.end_reason,
         self.last_clue, self.site_max) = undo
        self.turn -= 1
        if k == PLAY or k == DISCARD:
            hand = self.hands[me]
            if drew:
                hand.pop()
                self.next_draw -= 1
            if played_ok >= 0:
                self.stacks[played_ok] -= 1
                if old_dir >= 0:
                    if self.game.sudoku:
                        self.starts[played_ok] = old_dir
                    else:
                        self.directions[played_ok] = old_dir
            else:
                self.discards.pop()
            if idx == -2:
                self.next_draw -= 1
            else:
                hand.insert(idx, o)
        return self.history.pop()

    # ---- copies and comparison -------------------------------------------
    def copy(self) -> State:
        s = State.__new__(State)
        s.game = self.game
        s.current, s.next_draw, s.clues, s.strikes = self.current, self.next_draw, self.clues, self.strikes
        s.hands = [list(h) for h in self.hands]
        s.stacks = list(self.stacks)
        s.discards = list(self.discards)
        s.turns_left, s.over, s.end_reason, s.turn = self.turns_left, self.over, self.end_reason, self.turn
        s.last_clue = self.last_clue
        s.directions = list(self.directions)
        s.starts = list(self.starts)
        s.site_max = self.site_max
        s.history = list(self.history)
        s._undo = list(self._undo)
        return s

    def snapshot(self) -> dict[str, Any]:
        """Every field of the position as plain data (for tests and JSON); in Alternating
        Clues also ``last_clue``, the type of the last clue given ("color", "rank" or None)."""
        out: dict[str, Any] = {
            "current": self.current,
            "hands": [list(h) for h in self.hands],
            "next_draw": self.next_draw,
            "stacks": list(self.stacks),
            "clues": self.clues,
            "strikes": self.strikes,
            "discards": list(self.discards),
            "turns_left": self.turns_left,
            "over": self.over,
            "score": self.score,
        }
        if self.game.alternating:
            out["last_clue"] = {COLOR_CLUE: "color", RANK_CLUE: "rank"}.get(self.last_clue)
        if self.game.up_or_down:
            out["directions"] = ["finished" if h == m else updown.DIRECTION_NAMES[d]
                                 for h, m, d in zip(self.stacks, self.game.max_rank, self.directions)]
        if self.game.sudoku:
            out["starts"] = [b or None for b in self.starts]
        return out

    def key(self) -> StateKey:
        """Everything that decides the game from here, as a hashable value (the state
        itself is mutable, so it is not hashable: use this as a dict key)."""
        return (
            self.current, tuple(map(tuple, self.hands)), self.next_draw, tuple(self.stacks),
            self.clues, self.strikes, tuple(self.discards), self.turns_left, self.over, self.last_clue,
            tuple(self.directions), tuple(self.starts), self.site_max,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game is self.game and other.key() == self.key()

    __hash__ = None  # type: ignore[assignment]  # mutable: hash key() instead

    def __repr__(self) -> str:
        return f"<State turn {self.turn} score {self.score} clues {self.clues} strikes {self.strikes}>"


def replay(game: Game, actions: Iterable[Action]) -> State:
    """Apply ``actions`` from the start; an illegal one raises ``IllegalActionError``
    naming its 0-based index."""
    st = game.initial_state()
    st.apply_all(actions)
    return st
