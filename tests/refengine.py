"""Naive, independent reference implementation of full-information Hanabi
rules (custom variants), used only by tests to cross-check the fast engine.

Deliberately simple: every apply() returns a new game (a copy of the whole state).
Standard library only; imports nothing from the project.

Variant dict: {"suits": n (1..6), "ranks": [multiset of ranks 1..5 of ONE suit],
               "handSize": h, "clueTokens": c, "strikes": s (optional, default 3),
               "null": [suit indices] (optional: the last suits, whose cards no clue
               touches, like hanab.live's Null suit: it has no clue color, and a rank clue
               does not touch its cards either),
               "inverted": [suit indices] (optional: hanab.live's inverted (orange) suits,
               as its server's commandActionPlay / commandActionDiscard apply them in a
               live game: playing such a card discards it, gaining a token unless all are
               available; discarding it plays it; and with any such suit a discard is
               legal with all tokens available, gaining none),
               "colorless": [suit indices] (optional: suits that no color clue touches and
               that have no clue color of their own, like hanab.live's White and Brown
               suits; rank clues touch their cards as usual. The color clue values are the
               suits that are neither null nor colorless),
               "rankless": [suit indices] (optional: suits whose cards no rank clue
               touches; color clues touch them as usual),
               "clueStarved": True (optional: hanab.live's "Clue Starved" variants, counted
               as its server counts them (server/src/variant.go GetAdjustedClueTokens,
               AtMaxClueTokens): in units of half a clue token. The team starts with
               2 x clueTokens units, which is also the maximum (self.max_clues); a clue
               needs and costs 2 units; a discard (or an inverted card's play) gives 1 unit
               unless at the maximum; completing a stack gives 1 unit, capped at the
               maximum; a discard is illegal at the maximum unless the variant has
               inverted suits. self.clues and snapshot()["clues"] are in these units, so
               they equal the site server's ClueTokens),
               "throwItInAHole": True (optional: hanab.live's "Throw It in a Hole": with
               every card visible the one rule that changes the game is that completing a
               stack gives no clue token (server/src/variant.go
               ShouldGiveClueTokenForFinishingStack, game_player.go PlayCard); a misplay
               still strikes and goes to the discard pile, and the game ends as usual (the
               site only hides plays from the players: actions_scrub.go)),
               "alternatingClues": True (optional: hanab.live's "Alternating Clues": the
               game remembers the type of the last clue given, none at the start (server
               game.go LastClueTypeGiven = -1, set by game_player.go GiveClue; plays and
               discards leave it alone), and a clue of the same type as that one is
               illegal (command_action.go commandActionClue). snapshot() then has the key
               "last_clue" (None, "color" or "rank") and state_key() includes it)}

A variant may also spell out what a hanab.live variant needs (tests/test_site_variants.py
builds these from the independent reference of the site's code, tests/siteoracle.py):
"cards" (the deck's cards in order, instead of "suits" x "ranks"; "suits" is still the
suit count), "maxRanks" (per suit: the rank that completes it), "colorValues" and
"rankValues" (the clue values that exist), "touches" (a function (suit, rank, "color" or
"rank", value) -> whether that clue touches that card) and "emptyOk" ({"color": bool,
"rank": bool}: a clue of that kind may touch nothing).

Actions here are the commands a player gives (so with inverted suits ('play', o) may
discard); the project's engine names what happened, as the site's game records do.

Actions (tuples):
    ('play', order)            order = index of the card in the deck list
    ('discard', order)
    ('color', target, color)   color in 0..suits-1 (color index == suit index), not a
                               null or colorless suit
    ('rank', target, rank)     rank in the distinct values of variant["ranks"]
"""

import collections
import copy
import random
import sys

# Tiny variants (variant dicts as above) small enough for brute_force_max to walk every
# line; the encodings' tests draw their random positions from them.
TINY_VARIANTS = [
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 2},
    {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2},
    {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 1, "strikes": 2},
    {"suits": 3, "ranks": [1, 2], "handSize": 2, "clueTokens": 2},
    {"suits": 1, "ranks": [1, 1, 2, 2, 3], "handSize": 2, "clueTokens": 3},
    {"suits": 1, "ranks": [1, 1, 2, 2, 3, 3], "handSize": 2, "clueTokens": 2},
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 1, "clueTokens": 1},  # hands run empty
    {"suits": 2, "ranks": [1, 3, 3], "handSize": 2, "clueTokens": 0},  # a gap, no tokens
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 1, "strikes": 1},
    {"suits": 3, "ranks": [1, 2, 3], "handSize": 1, "clueTokens": 2, "strikes": 1},
    {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 4},  # rounds of clues
]

_FLAG_KEYS = ("clueStarved", "throwItInAHole", "alternatingClues")


def composition(variant):
    """Deck composition: for each suit in order, each rank of sorted(ranks) (or the
    variant's own "cards")."""
    if "cards" in variant:
        return [tuple(c) for c in variant["cards"]]
    cards = []
    for suit in range(variant["suits"]):
        for rank in sorted(variant["ranks"]):
            cards.append((suit, rank))
    return cards


def _check_variant(variant):
    if not isinstance(variant, dict):
        raise ValueError("variant must be a dict")
    for key in ("suits", "handSize", "clueTokens"):
        if key not in variant:
            raise ValueError("variant is missing key %r" % key)
    for key in _FLAG_KEYS:
        if key in variant and not isinstance(variant[key], bool):
            raise ValueError("%s must be a bool" % key)
    if "cards" in variant:
        if "colorless" in variant or "rankless" in variant:
            raise ValueError("colorless / rankless need the default deck and clues "
                             "(spell them out with \"touches\" and \"colorValues\")")
        return
    if "ranks" not in variant:
        raise ValueError("variant is missing key 'ranks'")
    n = variant["suits"]
    if not isinstance(n, int) or not 1 <= n <= 6:
        raise ValueError("suits must be an int in 1..6")
    ranks = variant["ranks"]
    if not isinstance(ranks, (list, tuple)) or len(ranks) == 0:
        raise ValueError("ranks must be a non-empty list")
    for r in ranks:
        if not isinstance(r, int) or not 1 <= r <= 5:
            raise ValueError("every rank must be an int in 1..5")
    h = variant["handSize"]
    if not isinstance(h, int) or h < 1:
        raise ValueError("handSize must be a positive int")
    c = variant["clueTokens"]
    if not isinstance(c, int) or c < 0:
        raise ValueError("clueTokens must be a non-negative int")
    s = variant.get("strikes", 3)
    if not isinstance(s, int) or s < 1:
        raise ValueError("strikes must be a positive int")
    null = variant.get("null", [])
    if sorted(null) != list(range(n - len(null), n)):
        raise ValueError("null must list the last suits")
    if any(not isinstance(x, int) or not 0 <= x < n for x in variant.get("inverted", [])):
        raise ValueError("inverted must list suit indices")
    for key in ("colorless", "rankless"):
        if key not in variant:
            continue
        if "touches" in variant or "colorValues" in variant or "rankValues" in variant:
            raise ValueError("%s cannot be combined with touches / colorValues / "
                             "rankValues" % key)
        xs = variant[key]
        if not isinstance(xs, (list, tuple)) or len(set(xs)) != len(xs):
            raise ValueError("%s must be a list of distinct suit indices" % key)
        for x in xs:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n:
                raise ValueError("%s must list suit indices" % key)
            if x in null:
                raise ValueError("%s must not list a null suit" % key)


class RefGame:
    def __init__(self, variant, players, deck, empty_clues=False,
                 keep_stacks_on_strikeout=False, deck_plays=False,
                 starting_player=0, play_to_the_end=False):
        _check_variant(variant)
        if not isinstance(players, int) or players < 2:
            raise ValueError("players must be an int >= 2")
        deck = [tuple(card) for card in deck]
        if sorted(deck) != sorted(composition(variant)):
            raise ValueError("deck is not a permutation of the variant's composition")
        hand_size = variant["handSize"]
        if len(deck) < players * hand_size:
            raise ValueError("deck too small to deal %d hands of %d"
                             % (players, hand_size))
        if not isinstance(starting_player, int) or not 0 <= starting_player < players:
            raise ValueError("starting_player must be in 0..players-1")

        # fixed settings
        self.variant = copy.deepcopy(variant)
        self.players = players
        self.deck = deck
        self.empty_clues = bool(empty_clues)
        self.keep_stacks_on_strikeout = bool(keep_stacks_on_strikeout)
        self.deck_plays = bool(deck_plays)
        # False: the game also ends as hanab.live ends it (server/src/game.go CheckEnd):
        # once the score equals the site's maximum score, or when no card that would
        # extend a stack is left but discarded ones and cards marked "cannot be played"
        # (held by a player who took a turn after the last card was drawn)
        self.play_to_the_end = bool(play_to_the_end)
        # in clue-starved variants tokens are counted in half-token units, as the site's
        # server counts them (variant.go GetAdjustedClueTokens): a clue costs 2 units
        self.clue_starved = bool(variant.get("clueStarved", False))
        self.clue_cost = 2 if self.clue_starved else 1
        self.max_clues = variant["clueTokens"] * self.clue_cost
        self.stack_token = not variant.get("throwItInAHole", False)
        self.alternating = bool(variant.get("alternatingClues", False))
        self.strike_limit = variant.get("strikes", 3)
        n = variant["suits"]
        self.max_ranks = list(variant.get("maxRanks") or [max(variant["ranks"])] * n)
        self.max_rank = max(self.max_ranks)
        self.num_suits = variant["suits"]

        # mutable state
        self.current = starting_player
        self.hands = []
        for p in range(players):
            self.hands.append(list(range(p * hand_size, (p + 1) * hand_size)))
        self.next_draw = players * hand_size
        self.stacks = [0] * self.num_suits
        self.clues = self.max_clues
        self.strikes = 0
        self.discards = []
        self.turns_left = None
        self._over = False
        self.cannot_play = set()  # card orders marked "cannot be played"
        self.last_clue = None  # alternatingClues: "color" or "rank", the last clue's type
        if self.next_draw == len(self.deck):
            self.turns_left = players

    # ------------------------------------------------------------ helpers
    def _deck_remaining(self):
        return len(self.deck) - self.next_draw

    def _card(self, order):
        return self.deck[order]

    def _touches(self, target, kind, value):
        touches = self.variant.get("touches")
        if touches is not None:
            return any(touches(*self._card(order), kind, value) for order in self.hands[target])
        null = self.variant.get("null", [])
        colorless = self.variant.get("colorless", [])
        rankless = self.variant.get("rankless", [])
        for order in self.hands[target]:
            suit, rank = self._card(order)
            if suit in null:
                continue
            if kind == "color" and suit == value and suit not in colorless:
                return True
            if kind == "rank" and rank == value and suit not in rankless:
                return True
        return False

    def _legal_color_values(self):
        if "colorValues" in self.variant:
            return list(self.variant["colorValues"])
        null = self.variant.get("null", [])
        colorless = self.variant.get("colorless", [])
        return [s for s in range(self.num_suits) if s not in null and s not in colorless]

    def _legal_rank_values(self):
        if "rankValues" in self.variant:
            return list(self.variant["rankValues"])
        return sorted(set(self.variant["ranks"]))

    def _play_card(self, order):
        """Play a card (already removed from wherever it was)."""
        suit, rank = self._card(order)
        if rank == self.stacks[suit] + 1:
            self.stacks[suit] += 1
            # completing a stack gives a token (one unit when clue-starved), none when
            # the variant is throwItInAHole, and never beyond the maximum
            if self.stacks[suit] == self.max_ranks[suit] and self.clues < self.max_clues \
                    and self.stack_token:
                self.clues += 1
        else:
            self.discards.append(order)
            self.strikes += 1

    def _draw(self, player):
        if self.next_draw < len(self.deck):
            self.hands[player].append(self.next_draw)
            self.next_draw += 1

    # ------------------------------------------------------------ public API
    @property
    def over(self):
        return self._over

    @property
    def score(self):
        if self.strikes >= self.strike_limit and not self.keep_stacks_on_strikeout:
            return 0
        return sum(self.stacks)

    def _illegal_reason(self, action):
        """Return None if action is legal, else a message string."""
        if self._over:
            return "game is over"
        if not isinstance(action, tuple) or len(action) == 0:
            return "action must be a non-empty tuple"
        kind = action[0]
        me = self.current
        if kind == "play":
            if len(action) != 2:
                return "play takes exactly one argument"
            order = action[1]
            if order in self.hands[me]:
                return None
            if (self.deck_plays and self._deck_remaining() == 1
                    and order == self.next_draw):
                return None
            return "card %r is not playable by player %d" % (order, me)
        if kind == "discard":
            if len(action) != 2:
                return "discard takes exactly one argument"
            if self.clues == self.max_clues and not self.variant.get("inverted"):
                return "cannot discard with all clue tokens available"
            if action[1] not in self.hands[me]:
                return "card %r is not in player %d's hand" % (action[1], me)
            return None
        if kind in ("color", "rank"):
            if len(action) != 3:
                return "clue takes exactly two arguments"
            target, value = action[1], action[2]
            if self.clues < self.clue_cost:
                return "no clue tokens"
            if not isinstance(target, int) or isinstance(target, bool) \
                    or not 0 <= target < self.players:
                return "invalid target %r" % (target,)
            if target == me:
                return "cannot clue yourself"
            if kind == "color":
                legal_values = self._legal_color_values()
            else:
                legal_values = self._legal_rank_values()
            if isinstance(value, bool) or value not in legal_values:
                return "invalid %s value %r" % (kind, value)
            if self.alternating and kind == self.last_clue:
                return "a %s clue cannot follow a %s clue" % (kind, kind)
            empty_ok = self.empty_clues or self.variant.get("emptyOk", {}).get(kind, False)
            if not empty_ok and not self._touches(target, kind, value):
                return "clue touches no cards"
            return None
        return "unknown action kind %r" % (kind,)

    def legal_actions(self):
        if self._over:
            return []
        candidates = []
        me = self.current
        for order in self.hands[me]:
            candidates.append(("play", order))
            candidates.append(("discard", order))
        if self.deck_plays and self._deck_remaining() == 1:
            candidates.append(("play", self.next_draw))
        for target in range(self.players):
            for color in self._legal_color_values():
                candidates.append(("color", target, color))
            for rank in self._legal_rank_values():
                candidates.append(("rank", target, rank))
        legal = [a for a in candidates if self._illegal_reason(a) is None]
        return sorted(set(legal))

    def _copy(self):
        """A new game in this game's state, with its own copies of the mutable state
        (hands, stacks, discards; the counters are plain values); the fixed settings
        (variant, deck, options), which nothing changes, are shared."""
        g = copy.copy(self)
        g.hands = [list(h) for h in self.hands]
        g.stacks = list(self.stacks)
        g.discards = list(self.discards)
        g.cannot_play = set(self.cannot_play)
        return g

    def apply(self, action):
        if isinstance(action, list):
            action = tuple(action)
        reason = self._illegal_reason(action)
        if reason is not None:
            raise ValueError("illegal action %r: %s" % (action, reason))
        g = self._copy()
        me = g.current
        kind = action[0]
        deck_had_cards = g._deck_remaining() > 0

        inverted = g.variant.get("inverted", [])
        if kind in ("play", "discard") and action[1] in g.hands[me] and g.deck[action[1]][0] in inverted:
            kind = "discard" if kind == "play" else "play"  # an inverted suit's card
        if kind == "play":
            order = action[1]
            if order in g.hands[me]:
                g.hands[me].remove(order)
                g._play_card(order)
                g._draw(me)
            else:
                # deck play of the last deck card; no draw follows
                assert g.deck_plays and g._deck_remaining() == 1 \
                    and order == g.next_draw
                g.next_draw += 1
                g._play_card(order)
        elif kind == "discard":
            order = action[1]
            g.hands[me].remove(order)
            g.discards.append(order)
            if g.clues < g.max_clues:
                g.clues += 1
            g._draw(me)
        else:  # color / rank clue
            g.clues -= g.clue_cost
            if g.alternating:
                g.last_clue = kind

        # final-round bookkeeping; a player who acts once the last card is drawn (not
        # the one who drew it) has had their last turn: their cards cannot be played
        deck_became_empty = deck_had_cards and g._deck_remaining() == 0
        if g.turns_left is not None:
            g.cannot_play.update(g.hands[me])
        if deck_became_empty:
            g.turns_left = g.players
        elif g.turns_left is not None:
            g.turns_left -= 1

        # end-of-game checks
        if g.strikes == g.strike_limit:
            g._over = True
        elif all(s == m for s, m in zip(g.stacks, g.max_ranks)):
            g._over = True
        elif g.turns_left is not None and g.turns_left == 0:
            g._over = True
        elif not g.play_to_the_end and (sum(g.stacks) == g._site_max_score() or g._nothing_playable()):
            g._over = True

        g.current = (g.current + 1) % g.players
        return g

    def _site_max_score(self):
        """Per suit, ranks counted up from 1 while some copy is not discarded."""
        total = 0
        for suit in range(self.num_suits):
            for rank in range(1, self.max_ranks[suit] + 1):
                copies = [o for o, c in enumerate(self.deck) if c == (suit, rank)]
                if not copies or all(o in self.discards for o in copies):
                    break
                total += 1
        return total

    def _nothing_playable(self):
        """No stack's next card is anywhere but in the discards or marked."""
        for suit in range(self.num_suits):
            if self.stacks[suit] == self.max_ranks[suit]:
                continue
            want = (suit, self.stacks[suit] + 1)
            for o, c in enumerate(self.deck):
                if c == want and o not in self.discards and o not in self.cannot_play:
                    return False
        return True

    def snapshot(self):
        snap = {
            "current": self.current,
            "hands": [list(h) for h in self.hands],
            "next_draw": self.next_draw,
            "stacks": list(self.stacks),
            "clues": self.clues,
            "strikes": self.strikes,
            "discards": list(self.discards),
            "turns_left": self.turns_left,
            "over": self._over,
            "score": self.score,
        }
        if self.alternating:
            snap["last_clue"] = self.last_clue
        return snap

    def state_key(self):
        """Exact hashable key of the full mutable state (settings are fixed
        per game and shared by all descendants, so they are not included)."""
        key = (
            self.current,
            tuple(tuple(h) for h in self.hands),
            self.next_draw,
            tuple(self.stacks),
            self.clues,
            self.strikes,
            tuple(self.discards),
            self.turns_left,
            self._over,
            tuple(sorted(self.cannot_play)),
        )
        if self.alternating:
            key += (self.last_clue,)
        return key


def distinct_moves(game):
    """The legal actions of `game`, with the clues merged: every play and discard, and
    the first legal clue only (none if no clue is legal); with "alternatingClues", the
    first legal color clue and the first legal rank clue.

    Every card is visible to every player, so a clue informs nobody: by the rules a
    given clue spends one clue token (two units when clue-starved) and passes the turn,
    whichever player, colour or rank it names, and nothing else about the game changes
    (apply() records nothing of the clue but, with "alternatingClues", its type). Every
    legal clue (of one type) therefore leads to one and the same position, and a search
    over the positions needs to try one of them (of each type)."""
    moves, clues = [], {}
    for a in game.legal_actions():
        if a[0] in ("color", "rank"):
            kind = a[0] if game.alternating else "clue"
            if kind not in clues:
                clues[kind] = a
        else:
            moves.append(a)
    for kind in ("clue", "color", "rank"):
        if kind in clues:
            moves.append(clues[kind])
    return moves


def brute_force_max(game):
    """Maximum final score over all legal lines from `game` (plain recursion over the
    positions, memoised on the exact full-state key; of the clues, which all lead to the
    same position, one is tried: see distinct_moves)."""
    memo = {}
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10000))
    try:
        def rec(g):
            if g.over:
                return g.score
            key = g.state_key()
            if key in memo:
                return memo[key]
            actions = distinct_moves(g)
            if not actions:
                # cannot happen under these rules (play is always legal),
                # but be safe: a stuck game is scored as it stands
                best = g.score
            else:
                best = max(rec(g.apply(a)) for a in actions)
            memo[key] = best
            return best
        return rec(game)
    finally:
        sys.setrecursionlimit(old_limit)


# ---------------------------------------------------------------- self-check
def _check_invariants(g):
    s = g.snapshot()
    all_orders = []
    for h in s["hands"]:
        all_orders.extend(h)
    played = sum(s["stacks"])
    # every drawn card is in exactly one place: hand, discards, or stacks
    assert len(all_orders) == len(set(all_orders))
    assert not set(all_orders) & set(s["discards"])
    assert all(o < s["next_draw"] for o in all_orders + s["discards"])
    assert len(all_orders) + len(s["discards"]) + played == s["next_draw"]
    assert 0 <= s["clues"] <= g.max_clues
    assert g.max_clues == g.variant["clueTokens"] * (2 if g.variant.get("clueStarved") else 1)
    if g.variant.get("alternatingClues"):
        assert s["last_clue"] in (None, "color", "rank")
        assert g.state_key()[-1] == s["last_clue"]
    else:
        assert "last_clue" not in s
    assert 0 <= s["strikes"] <= g.strike_limit
    assert all(0 <= x <= g.max_rank for x in s["stacks"])
    for h in s["hands"]:
        assert h == sorted(h)  # oldest first == increasing order
        assert len(h) <= g.variant["handSize"]
    if s["turns_left"] is not None:
        assert s["next_draw"] == len(g.deck)
        assert 0 <= s["turns_left"] <= g.players
    if s["over"]:
        assert g.legal_actions() == []
    else:
        assert len(g.legal_actions()) > 0


def _check_step(cur, action, nxt, seen):
    """Check the clue-token and clue-type rules on one transition cur -(action)-> nxt,
    counting in `seen` which rules were exercised."""
    v = cur.variant
    starved, hole = v.get("clueStarved", False), v.get("throwItInAHole", False)
    before, after = cur.clues, nxt.clues
    kind = action[0]
    if kind in ("color", "rank"):
        assert after == before - (2 if starved else 1)
        if starved:
            seen["starved clue costs 2"] += 1
        if v.get("alternatingClues"):
            assert cur.last_clue != kind and nxt.last_clue == kind
            seen["alternating clue accepted"] += 1
        return
    if v.get("alternatingClues"):
        assert nxt.last_clue == cur.last_clue
    order = action[1]
    in_hand = order in cur.hands[cur.current]
    if in_hand and cur.deck[order][0] in v.get("inverted", []):
        kind = "discard" if kind == "play" else "play"
    if kind == "discard":
        assert after == min(before + 1, cur.max_clues)
        if starved and before < cur.max_clues:
            seen["starved discard gains 1 unit"] += 1
        return
    suit, rank = cur.deck[order]
    if rank != cur.stacks[suit] + 1:  # a misplay: a strike, the card to the discards
        assert after == before and nxt.strikes == cur.strikes + 1
        assert order in nxt.discards
        if hole:
            seen["hole misplay strikes"] += 1
    elif rank == cur.max_ranks[suit]:  # completes the stack
        if hole:
            assert after == before
            if before < cur.max_clues:
                seen["hole stack gives nothing"] += 1
        else:
            assert after == min(before + 1, cur.max_clues)
            if starved and before < cur.max_clues:
                seen["starved stack gains 1 unit"] += 1
    else:
        assert after == before


def _check_alternation(g, seen):
    """In an alternatingClues game with a clue given, every clue of the last clue's type
    that would otherwise be legal is refused, for that reason only."""
    if not g.variant.get("alternatingClues") or g.last_clue is None or g.over:
        return
    other = copy.copy(g)
    other.last_clue = None
    for a in other.legal_actions():
        if a[0] == g.last_clue:
            assert "cannot follow" in g._illegal_reason(a)
            seen["alternating same type refused"] += 1
        elif a[0] in ("color", "rank"):
            assert g._illegal_reason(a) is None


def _expect_illegal(g, action, words):
    reason = g._illegal_reason(action)
    assert reason is not None and words in reason, (action, reason)
    try:
        g.apply(action)
        raise AssertionError("expected %r to be refused" % (action,))
    except ValueError:
        pass


def _check_new_rules():
    """Hand-made games, each exercising one rule of the optional keys."""
    # clueStarved: 2 units a token; a clue costs 2, a discard and a completed stack 1
    v = {"suits": 1, "ranks": [1, 1, 2, 2], "handSize": 1, "clueTokens": 2,
         "clueStarved": True}
    g = RefGame(v, 2, [(0, 1), (0, 1), (0, 2), (0, 2)])
    assert g.max_clues == 4 and g.clues == 4 and g.snapshot()["clues"] == 4
    _expect_illegal(g, ("discard", 0), "all clue tokens")
    g = g.apply(("rank", 1, 1))
    assert g.clues == 2
    g = g.apply(("rank", 0, 1))
    assert g.clues == 0
    _expect_illegal(g, ("rank", 1, 1), "no clue tokens")
    g = g.apply(("play", 0))
    assert g.clues == 0 and g.stacks == [1]
    g = g.apply(("discard", 1))
    assert g.clues == 1  # a discard gains half a token
    _expect_illegal(g, ("rank", 1, 2), "no clue tokens")  # 1 unit is not a clue
    g = g.apply(("play", 2))
    assert g.clues == 2 and g.stacks == [2] and g.over  # a completed stack: 1 unit
    v = {"suits": 1, "ranks": [1, 1], "handSize": 1, "clueTokens": 1, "clueStarved": True}
    g = RefGame(v, 2, [(0, 1), (0, 1)]).apply(("play", 0))
    assert g.clues == 2 == g.max_clues  # capped at the maximum
    # clueStarved with an inverted suit: a discard at the maximum is legal, gains none
    v = {"suits": 2, "ranks": [1, 1], "handSize": 1, "clueTokens": 1, "clueStarved": True,
         "inverted": [1]}
    g = RefGame(v, 2, [(0, 1), (1, 1), (0, 1), (1, 1)])
    g = g.apply(("discard", 0))
    assert g.clues == 2 and g.discards == [0]

    # throwItInAHole: a completed stack gives nothing; a misplay strikes as usual
    for hole in (False, True):
        v = {"suits": 1, "ranks": [1, 1, 2], "handSize": 1, "clueTokens": 2}
        if hole:
            v["throwItInAHole"] = True
        g = RefGame(v, 2, [(0, 1), (0, 1), (0, 2)])
        g = g.apply(("rank", 1, 1))
        assert g.clues == 1
        g = g.apply(("play", 1))
        g = g.apply(("play", 0))  # a second 1: a misplay
        assert g.strikes == 1 and g.discards == [0] and g.clues == 1
        g = g.apply(("play", 2))
        assert g.stacks == [2] and g.over and g.score == 2
        assert g.clues == (1 if hole else 2)

    # alternatingClues (with a colorless suit: its cards take rank clues only)
    v = {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 4,
         "alternatingClues": True, "colorless": [1]}
    deck = [(0, 1), (1, 1), (0, 2), (1, 2)]
    g = RefGame(v, 2, deck)
    assert g.snapshot()["last_clue"] is None
    assert g._legal_color_values() == [0]
    _expect_illegal(g, ("color", 1, 1), "invalid color value")
    _expect_illegal(g, ("color", 1, 0), "touches no cards")
    g = g.apply(("rank", 1, 1))
    assert g.snapshot()["last_clue"] == "rank" and g.clues == 3
    _expect_illegal(g, ("rank", 0, 1), "cannot follow")  # touches a card: refused
    assert [a for a in distinct_moves(g) if a[0] in ("color", "rank")] == [("color", 0, 0)]
    g = g.apply(("color", 0, 0))
    assert g.snapshot()["last_clue"] == "color"
    _expect_illegal(g, ("color", 1, 0), "cannot follow")  # checked first, as on the site
    assert g._illegal_reason(("rank", 1, 1)) is None
    g = g.apply(("play", 0))  # plays and discards leave the last clue's type alone
    assert g.snapshot()["last_clue"] == "color" and g.hands[0] == [2]
    _expect_illegal(g, ("color", 0, 0), "cannot follow")  # touches (0, 2): refused
    assert g._illegal_reason(("rank", 0, 2)) is None
    g2 = RefGame(v, 2, deck, starting_player=1)
    clues = [a for a in distinct_moves(g2) if a[0] in ("color", "rank")]
    assert clues == [("color", 0, 0), ("rank", 0, 1)], clues  # one of each type
    assert g2.apply(clues[0]).state_key() != g2.apply(clues[1]).state_key()
    # without the key: one clue, and no last_clue anywhere
    v0 = dict(v)
    del v0["alternatingClues"]
    g0 = RefGame(v0, 2, deck, starting_player=1)
    assert [a for a in distinct_moves(g0) if a[0] in ("color", "rank")] == [("color", 0, 0)]
    g0 = g0.apply(("color", 0, 0)).apply(("discard", 0))
    assert g0._illegal_reason(("color", 0, 0)) is None and "last_clue" not in g0.snapshot()

    # the rule bites: a line of stalling clues needs two rank clues in a row (the
    # colorless suit's cards take no color clue), so the best score drops from 5 to 4
    v = {"suits": 2, "ranks": [1, 2, 3], "handSize": 1, "clueTokens": 2, "colorless": [1]}
    deck = [(0, 1), (0, 2), (1, 2), (1, 3), (1, 1), (0, 3)]
    assert brute_force_max(RefGame(v, 2, deck)) == 5
    assert brute_force_max(RefGame(dict(v, alternatingClues=True), 2, deck)) == 4

    # rankless: its cards take color clues only
    v = {"suits": 2, "ranks": [1, 2], "handSize": 2, "clueTokens": 2, "rankless": [1]}
    g = RefGame(v, 2, [(0, 1), (0, 2), (1, 1), (1, 2)])
    _expect_illegal(g, ("rank", 1, 1), "touches no cards")
    assert g._illegal_reason(("color", 1, 1)) is None
    g = RefGame(v, 2, [(0, 1), (0, 2), (1, 1), (1, 2)], starting_player=1)
    assert g._illegal_reason(("rank", 0, 1)) is None

    # validation of the new keys
    base = {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 2}
    for extra in ({"colorless": [2]}, {"rankless": [-1]}, {"colorless": [0, 0]},
                  {"colorless": [1], "null": [1]}, {"rankless": [1], "null": [1]},
                  {"colorless": 0}, {"clueStarved": 1}, {"throwItInAHole": "yes"},
                  {"alternatingClues": None}, {"rankless": [True]}):
        bad = dict(base, **extra)
        try:
            RefGame(bad, 2, composition(bad))
            raise AssertionError("expected ValueError for %r" % (extra,))
        except ValueError:
            pass


def _self_check(seed=12345):
    import time
    rng = random.Random(seed)
    variants = [
        {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 2},
        {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2},
        {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 1,
         "strikes": 2},
        {"suits": 3, "ranks": [1, 2], "handSize": 2, "clueTokens": 2},
        {"suits": 1, "ranks": [1, 1, 2, 2, 3, 3], "handSize": 2, "clueTokens": 2},
        # the optional keys
        {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 1,
         "clueStarved": True},
        {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2,
         "clueStarved": True, "null": [1]},
        {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2,
         "throwItInAHole": True},
        {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 1, "strikes": 2,
         "throwItInAHole": True, "clueStarved": True},
        {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 4,
         "alternatingClues": True, "colorless": [1]},
        {"suits": 3, "ranks": [1, 2], "handSize": 2, "clueTokens": 2,
         "alternatingClues": True, "rankless": [0], "colorless": [2]},
        {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 2,
         "alternatingClues": True, "clueStarved": True, "throwItInAHole": True,
         "inverted": [1]},
    ]
    seen = collections.Counter()
    _check_new_rules()
    for variant in variants:
        for opts in ({}, {"deck_plays": True, "empty_clues": True},
                     {"keep_stacks_on_strikeout": True, "starting_player": 1}):
            deck = composition(variant)
            rng.shuffle(deck)
            g = RefGame(variant, 2, deck, **opts)
            t0 = time.time()
            best = brute_force_max(g)
            dt = time.time() - t0
            print("%-70s %-60s max=%d (%.2fs)" % (variant, opts, best, dt))
            assert 0 <= best <= variant["suits"] * max(variant["ranks"])
            if variant.get("alternatingClues"):
                # the rule only takes clues away: never better than without it
                free = dict(variant, alternatingClues=False)
                free_best = brute_force_max(RefGame(free, 2, deck, **opts))
                assert best <= free_best
                if best < free_best:
                    seen["alternation lowers the maximum"] += 1
            for _ in range(200):
                cur = g
                _check_invariants(cur)
                while not cur.over:
                    before = cur.snapshot()
                    action = rng.choice(cur.legal_actions())
                    nxt = cur.apply(action)
                    assert cur.snapshot() == before  # self unchanged
                    _check_invariants(nxt)
                    _check_step(cur, action, nxt, seen)
                    _check_alternation(nxt, seen)
                    cur = nxt
                assert cur.score <= best
                try:
                    cur.apply(("play", 0))
                    raise AssertionError("apply on an over game must fail")
                except ValueError:
                    pass
    # validation
    v = variants[0]
    for bad in (lambda: RefGame(v, 1, composition(v)),
                lambda: RefGame(v, 2, composition(v)[:-1]),
                lambda: RefGame(v, 4, composition(v))):
        try:
            bad()
            raise AssertionError("expected ValueError")
        except ValueError:
            pass
    print("rules exercised: %s" % dict(sorted(seen.items())))
    for rule in ("starved clue costs 2", "starved discard gains 1 unit",
                 "starved stack gains 1 unit", "hole stack gives nothing",
                 "hole misplay strikes", "alternating clue accepted",
                 "alternating same type refused"):
        assert seen[rule] > 0, "never exercised: %s" % rule
    print("self-check OK")


if __name__ == "__main__":
    _self_check()
