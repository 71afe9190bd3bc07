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
               "last_clue" (None, "color" or "rank") and state_key() includes it),
               "suitRanks": [[ranks of suit 0], [ranks of suit 1], ...] (optional, instead
               of "ranks": each suit's own multiset of ranks, e.g. from site_ranks(), so
               that one suit of a variant can be dealt as a reversed suit and the others
               as normal ones; the rank clue values are then the ranks of all suits),
               "reversed": [suit indices] (optional: hanab.live's reversed suits, played
               as its server plays them (server/src/variants_reversible.go
               variantReversiblePlay, with the directions game.go NewGame gives: a reversed
               suit's stack goes Down, every other suit's Up). A reversed suit's stack
               starts with its top rank S (the suit's stack size, 5 on the site) and then
               takes each next lower rank down to 1; the other suits play 1 up to S as
               usual. Playing the card that finishes a stack (S going up, 1 going down)
               gives a clue token (game_player.go PlayCard's extraClue). The deck is what
               the ranks say: for the site's deck give the reversed suit the ranks
               site_ranks("reversed") (three S, one 1). With "reversed", "upOrDown" or
               "sudoku" (the mechanics whose stacks do not simply count up),
               snapshot()["stacks"] and self.stacks hold per suit the NUMBER OF CARDS
               PLAYED on the stack (0..S; the site's g.Score is their sum), never the
               rank of its top card (that is in self.tops); the site's maximum score is
               kept as its server keeps g.MaxScore: it starts at the sum of the stack
               sizes and, after every play and discard (a misplay included), drops to the
               server's GetMaxScore when that is lower (game_player.go PlayCard,
               DiscardCard); the game ends (unless play_to_the_end) when the score equals
               it, or when the server's variantReversibleCheckAllDead /
               variantSudokuCheckAllDead finds no card that could be played (game.go
               CheckEnd); state_key() includes the tops, directions, starts and that
               maximum)}
               "upOrDown": True (optional: hanab.live's "Up or Down", played as its server
               plays it (variants_reversible.go variantReversiblePlay, IsUpOrDown): every
               stack starts undecided and takes a 1 (then goes up to S), an S (then goes
               down to 1) or the suit's START card, whose rank is 7 here as on the
               server ((suit, 7) in card tuples; no rank clue touches it, as the site's
               clue ranks are 1..5); on a START card a 2 sends the stack up and an S - 1
               down (S is the stack size, 5 on the site; the reference needs S >= 4 so
               that the two differ). The START card counts as one played card (the
               server's g.Score++ on every play), so a finished stack holds S cards
               (1..S, S..1, START 2..S or START S-1..1) and the score is the number of
               cards played; the site's maximum counts S per finished stack
               (variantReversibleGetMaxScore: variant.StackSize). snapshot()["directions"]
               gives per suit "undecided", "up", "down" or "finished". The site's deck
               per suit is site_ranks("upOrDown"): one 1, one S, one START),
               "sudoku": True (optional: hanab.live's "Sudoku", played as its server plays
               it (server/src/variants_sudoku.go): a stack may start with any rank that is
               not already another stack's start (variantSudokuPlay checks g.StackStarts),
               then goes up one rank a card and wraps from N to 1 until it holds N cards
               (N is the stack size: every suit's top rank, the number of suits on the
               site; the reference allows fewer suits than N); finishing a stack gives a
               clue token; the site's maximum is variantSudokuGetMaxScore (with its
               sudokuWalkUpAll, which, unlike the client's, gives every start in a run of
               live ranks the run's whole length, so it can count more than can be
               played; the game's end does not change: at the true maximum nothing is
               playable and variantSudokuCheckAllDead ends it). snapshot()["starts"]
               gives per suit the stack's first rank, or None; the site's deck per suit
               is site_ranks("sudoku", N): two of every rank)

site_ranks(mechanic, stack_size=5, one_of_each=False) gives the ranks the site deals for
one suit (server/src/game_deck.go numCopiesOfCard, variant.go totalCardsInSuit).

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
import itertools
import random
import sys
from typing import Any

# Tiny variants (variant dicts as above) small enough for brute_force_max to walk every
# line; the encodings' tests draw their random positions from them.
TINY_VARIANTS: list[dict[str, Any]] = [
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

_FLAG_KEYS = ("clueStarved", "throwItInAHole", "alternatingClues", "upOrDown", "sudoku")

# the stack directions of the site's server (server/src/variants_reversible.go)
UNDECIDED, UP, DOWN, FINISHED = "undecided", "up", "down", "finished"
START_RANK = 7  # an "Up or Down" START card's rank, as the site's server numbers it


def site_ranks(mechanic, stack_size=5, one_of_each=False):
    """The ranks (a sorted multiset) the site deals for one suit of stack size
    `stack_size` (5 on the site but in Sudoku, where it is the number of suits),
    following server/src/game_deck.go numCopiesOfCard (and variant.go totalCardsInSuit):
    `mechanic` is "normal" (three 1s, two of each middle rank, one S), "reversed" (a
    reversed suit: one 1, two of each middle rank, three S), "upOrDown" (one 1, two of
    each middle rank, one S and one START card, rank 7) or "sudoku" (two of every rank
    1..S); a one-of-each suit (e.g. Black) has one of each rank (and in "Up or Down" one
    START card too). The server's rank 5 is read as the top rank S here."""
    if mechanic not in ("normal", "reversed", "upOrDown", "sudoku"):
        raise ValueError("unknown mechanic %r" % (mechanic,))
    if not isinstance(stack_size, int) or not 1 <= stack_size <= 5:
        raise ValueError("stack_size must be an int in 1..5")
    ranks = list(range(1, stack_size + 1))
    if mechanic == "upOrDown":
        ranks.append(START_RANK)
    if one_of_each:
        return ranks
    out = []
    for rank in ranks:
        if rank == START_RANK:
            n = 1
        elif mechanic == "sudoku":
            n = 2
        elif rank == 1:
            n = 1 if mechanic in ("upOrDown", "reversed") else 3
        elif rank == stack_size:
            n = 3 if mechanic == "reversed" else 1
        else:
            n = 2
        out += [rank] * n
    return sorted(out)


def sudoku_walk_up_all(dead, size, client=False):
    """server/src/variants_sudoku.go sudokuWalkUpAll: for the ranks 1..size of one suit
    (dead[r - 1]: every copy of rank r discarded), (no rank dead, per start rank the
    most cards a stack started there can hold). The server gives each start in a run
    of live ranks ending at a dead one the run's whole length (curVal - lastDead - 1);
    with client=True, the client's sudoku.ts version, which gives the cards from that
    start to the dead rank (currentRank - writeRank)."""
    scores = [size] * size
    last_dead = -1
    for cur in range(size):
        if dead[cur % size]:
            for w in range(last_dead + 1, cur):
                scores[w] = (cur - w) if client else (cur - last_dead - 1)
            scores[cur] = 0
            last_dead = cur
    if last_dead == -1:
        return True, scores
    for w in range(last_dead + 1, size):
        scores[w] = min(scores[0] + size - w, size)
    return False, scores


def _suit_ranks(variant):
    """Per suit, the ranks of the variant dict's deck (None for a "cards" variant)."""
    if "cards" in variant:
        return None
    if "suitRanks" in variant:
        return [list(r) for r in variant["suitRanks"]]
    return [list(variant["ranks"]) for _ in range(variant["suits"])]


def _stack_sizes(variant):
    """Per suit, the rank that completes it (the stack size: a START card is no rank)."""
    if variant.get("maxRanks"):
        return list(variant["maxRanks"])
    per_suit = _suit_ranks(variant)
    if per_suit is None:
        per_suit = [[] for _ in range(variant["suits"])]
        for suit, rank in variant["cards"]:
            per_suit[suit].append(rank)
    return [max([r for r in rs if r != START_RANK] or [0]) for rs in per_suit]


def composition(variant):
    """Deck composition: for each suit in order, each rank of sorted(ranks) (or the
    variant's own "cards")."""
    if "cards" in variant:
        return [tuple(c) for c in variant["cards"]]
    cards = []
    per_suit = _suit_ranks(variant)
    for suit in range(variant["suits"]):
        for rank in sorted(per_suit[suit]):
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
    _check_stack_keys(variant)
    if "cards" in variant:
        if "colorless" in variant or "rankless" in variant:
            raise ValueError("colorless / rankless need the default deck and clues "
                             "(spell them out with \"touches\" and \"colorValues\")")
        return
    if ("ranks" in variant) == ("suitRanks" in variant):
        raise ValueError("variant needs exactly one of 'ranks' and 'suitRanks'")
    n = variant["suits"]
    if not isinstance(n, int) or not 1 <= n <= 6:
        raise ValueError("suits must be an int in 1..6")
    if "suitRanks" in variant:
        lists = variant["suitRanks"]
        if not isinstance(lists, (list, tuple)) or len(lists) != n:
            raise ValueError("suitRanks must list the ranks of each suit")
    else:
        lists = [variant["ranks"]]
    allowed = "1..5, or 7 (START) with upOrDown" if variant.get("upOrDown") else "1..5"
    for ranks in lists:
        if not isinstance(ranks, (list, tuple)) or len(ranks) == 0:
            raise ValueError("ranks must be a non-empty list")
        for r in ranks:
            if not isinstance(r, int) or not (
                    1 <= r <= 5 or (r == START_RANK and variant.get("upOrDown"))):
                raise ValueError("every rank must be an int in %s" % allowed)
    _check_stack_sizes(variant)
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


def _check_stack_keys(variant):
    """The keys that change how the stacks play: "reversed", "upOrDown", "sudoku"."""
    n = variant["suits"]
    rev = variant.get("reversed")
    if rev is not None:
        if not isinstance(rev, (list, tuple)) or len(set(rev)) != len(rev):
            raise ValueError("reversed must be a list of distinct suit indices")
        for x in rev:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n:
                raise ValueError("reversed must list suit indices")
    chosen = [k for k in ("reversed", "upOrDown", "sudoku") if variant.get(k)]
    if len(chosen) > 1:
        raise ValueError("%s cannot be combined (no hanab.live variant does)"
                         % " and ".join(chosen))
    if "cards" in variant:
        if any(variant.get(k) for k in ("reversed", "upOrDown", "sudoku")):
            _check_stack_sizes(variant)
        for _suit, rank in variant["cards"]:
            if rank == START_RANK and not variant.get("upOrDown"):
                raise ValueError("a START card (rank 7) needs upOrDown")


def _check_stack_sizes(variant):
    sizes = _stack_sizes(variant)
    if variant.get("reversed") and min(sizes) < 2:
        raise ValueError("reversed needs stacks of at least 2 cards")
    if variant.get("sudoku"):
        n = variant["suits"]
        if len(set(sizes)) != 1 or not 2 <= sizes[0] <= 5 or n > sizes[0]:
            raise ValueError("sudoku needs one stack size N in 2..5 for every suit and "
                             "at most N suits")
        per_suit = _suit_ranks(variant) or [[r for x, r in variant["cards"] if x == s]
                                            for s in range(n)]
        if any(not 1 <= r <= sizes[0] for rs in per_suit for r in rs):
            raise ValueError("sudoku ranks must lie in 1..N")
    if variant.get("upOrDown") and min(sizes) < 4:
        raise ValueError("upOrDown needs stacks of at least 4 cards (after a START card "
                         "a 2 goes up and an S - 1 down)")


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
        # per suit the rank that completes it; with "reversed" / "upOrDown" / "sudoku" the
        # stack size (the number of cards a finished stack holds)
        self.max_ranks = _stack_sizes(variant)
        self.max_rank = max(self.max_ranks)
        self.num_suits = variant["suits"]
        # the stack mechanics of the site's server: "reversible" is its HasReversedSuits
        # (a reversed suit, or Up or Down), whose plays variantReversiblePlay judges
        self.reversed_suits = frozenset(variant.get("reversed") or ())
        self.up_or_down = bool(variant.get("upOrDown", False))
        self.sudoku = bool(variant.get("sudoku", False))
        self.reversible = self.up_or_down or bool(self.reversed_suits)
        self.special = self.reversible or self.sudoku

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
        if self.special:
            # the server's g.Stacks (the top card's rank, 0 for none, 7 for START),
            # g.PlayStackDirections (NewGame: Down for a reversed suit, Up for the others
            # in a Reversed variant; Undecided in Up or Down and Sudoku) and g.StackStarts
            # (Sudoku: the first card's rank, 0 for none), and g.MaxScore
            self.tops = [0] * n
            if self.reversible and not self.up_or_down:
                self.directions = [DOWN if s in self.reversed_suits else UP
                                   for s in range(n)]
            else:
                self.directions = [UNDECIDED] * n
            self.starts = [0] * n
            self.site_max = sum(self.max_ranks)
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
        if "suitRanks" in self.variant:
            ranks = set(r for rs in self.variant["suitRanks"] for r in rs)
        else:
            ranks = set(self.variant["ranks"])
        ranks.discard(START_RANK)  # the site's clue ranks are 1..5: no clue names START
        return sorted(ranks)

    # ------------------------------------------------- reversed / up or down / sudoku
    def _reversible_play(self, suit, rank):
        """server/src/variants_reversible.go variantReversiblePlay, read with the suit's
        stack size S for the server's 5 (and S - 1 for its 4): whether the card misplays;
        a card that plays sets the stack's direction as there."""
        size = self.max_ranks[suit]
        top, direction = self.tops[suit], self.directions[suit]
        if direction == UNDECIDED:
            if top == 0:  # nothing played on the stack yet
                failed = rank not in (1, size, START_RANK)
                if not failed:
                    if rank == 1:
                        self.directions[suit] = UP
                    elif rank == size:
                        self.directions[suit] = DOWN
                    # a START card leaves the direction undecided
            elif top == START_RANK:
                failed = rank not in (2, size - 1)
                if not failed:
                    self.directions[suit] = UP if rank == 2 else DOWN
            else:  # unreachable: an undecided stack holds nothing or a START card
                raise AssertionError("undecided stack topped by %r" % (top,))
        elif direction == UP:
            failed = rank != top + 1
            if not failed and rank == size:
                self.directions[suit] = FINISHED
        elif direction == DOWN:
            if not self.up_or_down and top == 0:
                failed = rank != size  # a reversed stack starts with its top rank
            else:
                failed = rank != top - 1
            if not failed and rank == 1:
                self.directions[suit] = FINISHED
        else:  # FINISHED: every card misplays
            failed = True
        return failed

    def _sudoku_play(self, suit, rank):
        """server/src/variants_sudoku.go variantSudokuPlay: whether the card misplays."""
        size = self.max_ranks[suit]
        if self.tops[suit] == 0:
            if rank in self.starts:  # another stack's start
                return True
            self.starts[suit] = rank
            return False
        next_rank = self.tops[suit] % size + 1
        failed = rank != next_rank or self.directions[suit] == FINISHED
        if not failed:
            final_rank = (self.starts[suit] + size - 2) % size + 1  # start - 1, cyclic
            if rank == final_rank:
                self.directions[suit] = FINISHED
        return failed

    def _sudoku_max(self):
        """server/src/variants_sudoku.go variantSudokuGetMaxScore: the suits with no
        rank all discarded count N; a started suit counts its walk from its start; the
        others take distinct free starts as the best assignment gives them (the server
        tries every assignment in lexicographic order; every injective one is tried
        here, the same maximum, 0 if none assigns every such suit)."""
        size = self.max_ranks[0]
        independent, partial, unassigned = 0, {}, []
        for suit in range(self.num_suits):
            dead = [self._all_discarded(suit, r) for r in range(1, size + 1)]
            all_max, scores = sudoku_walk_up_all(dead, size)
            if all_max:
                independent += size
                continue
            if self.starts[suit] != 0:
                independent += scores[self.starts[suit] - 1]
                continue
            partial[suit] = scores
            unassigned.append(suit)
        if not unassigned:
            return independent
        free = [k for k in range(1, size + 1) if k not in self.starts]
        best = 0
        for chosen in itertools.permutations(free, len(unassigned)):
            best = max(best, sum(partial[x][k - 1] for x, k in zip(unassigned, chosen)))
        return independent + best

    def _sudoku_all_dead(self):
        """server/src/variants_sudoku.go variantSudokuCheckAllDead."""
        size = self.max_ranks[0]
        free = [k for k in range(1, size + 1) if k not in self.starts]
        for suit in range(self.num_suits):
            if self.directions[suit] == FINISHED:
                continue
            top = self.tops[suit]
            needed = [top % size + 1] if top != 0 else free
            for o, c in enumerate(self.deck):
                if c[0] == suit and c[1] in needed and o not in self.discards \
                        and o not in self.cannot_play:
                    return False
        return True

    def _special_play(self, suit, rank):
        """A play under "reversed" / "upOrDown" / "sudoku" (game_player.go PlayCard):
        whether it plays; on success the stack counts one more card, its top is the card,
        and finishing the stack gives the clue token (extraClue)."""
        if self.sudoku:
            failed = self._sudoku_play(suit, rank)
        else:
            failed = self._reversible_play(suit, rank)
        if failed:
            return False
        self.stacks[suit] += 1  # g.Score++
        self.tops[suit] = rank
        if self.sudoku:
            extra = self.directions[suit] == FINISHED
        else:
            extra = rank in (self.max_ranks[suit], 1) and self.directions[suit] == FINISHED
        if extra and self.stack_token and self.clues < self.max_clues:
            self.clues += 1
        return True

    def _all_discarded(self, suit, rank):
        """GetSpecificCardNum: every copy of the card is discarded (true if none exist)."""
        return all(o in self.discards
                   for o, c in enumerate(self.deck) if c == (suit, rank))

    def _reversible_suit_max(self, suit):
        """One suit's share of server/src/variants_reversible.go
        variantReversibleGetMaxScore (walkUp / walkDown), S for the server's 5."""
        size = self.max_ranks[suit]
        ranks = list(range(1, size + 1)) + ([START_RANK] if self.up_or_down else [])
        dead = {r: self._all_discarded(suit, r) for r in ranks}

        def walk_up():
            if self.up_or_down:
                if dead[1] and dead[START_RANK]:
                    return 0  # in Up or Down, 1 or START starts an up stack
            elif dead[1]:
                return 0
            n = 1
            for r in range(2, size + 1):
                if dead[r]:
                    break
                n += 1
            return n

        def walk_down():
            if self.up_or_down:
                if dead[size] and dead[START_RANK]:
                    return 0
            elif dead[size]:
                return 0
            n = 1
            for r in range(size - 1, 0, -1):
                if dead[r]:
                    break
                n += 1
            return n

        direction = self.directions[suit]
        if direction == UNDECIDED:
            return max(walk_up(), walk_down())
        if direction == UP:
            return walk_up()
        if direction == DOWN:
            return walk_down()
        return size  # FINISHED

    def site_max_function(self):
        """The site server's GetMaxScore in this position (game.go: for these mechanics
        variantReversibleGetMaxScore or variantSudokuGetMaxScore)."""
        if self.sudoku:
            return self._sudoku_max()
        return sum(self._reversible_suit_max(s) for s in range(self.num_suits))

    def _update_site_max(self):
        """PlayCard / DiscardCard: g.MaxScore drops to GetMaxScore() when that is lower."""
        if self.special:
            self.site_max = min(self.site_max, self.site_max_function())

    def _reversible_all_dead(self):
        """server/src/variants_reversible.go variantReversibleCheckAllDead."""
        for suit in range(self.num_suits):
            size, top = self.max_ranks[suit], self.tops[suit]
            direction = self.directions[suit]
            if direction == UNDECIDED:
                if top == 0:
                    needed = [1, size, START_RANK]
                elif top == START_RANK:
                    needed = [2, size - 1]
                else:
                    needed = []
            elif direction == UP:
                needed = [top + 1]
            elif direction == DOWN:
                needed = [size] if (not self.up_or_down and top == 0) else [top - 1]
            else:
                continue
            for o, c in enumerate(self.deck):
                if c[0] == suit and c[1] in needed and o not in self.discards \
                        and o not in self.cannot_play:
                    return False
        return True

    def _play_card(self, order):
        """Play a card (already removed from wherever it was)."""
        suit, rank = self._card(order)
        if self.special:
            if not self._special_play(suit, rank):
                self.discards.append(order)  # a misplay: DiscardCard
                self.strikes += 1
            self._update_site_max()
            return
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
        if self.special:
            g.tops = list(self.tops)
            g.directions = list(self.directions)
            g.starts = list(self.starts)
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
            g._update_site_max()
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
        elif not g.play_to_the_end and (sum(g.stacks) == g._site_max_now() or g._nothing_playable()):
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

    def _site_max_now(self):
        """The site's g.MaxScore as CheckEnd compares the score with it."""
        return self.site_max if self.special else self._site_max_score()

    def _nothing_playable(self):
        """No stack's next card is anywhere but in the discards or marked."""
        if self.sudoku:
            return self._sudoku_all_dead()
        if self.reversible:
            return self._reversible_all_dead()
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
        if self.up_or_down:
            snap["directions"] = list(self.directions)
        if self.sudoku:
            snap["starts"] = [r or None for r in self.starts]
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
        if self.special:
            key += (tuple(self.tops), tuple(self.directions), tuple(self.starts),
                    self.site_max)
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
    assert all(x <= m for x, m in zip(s["stacks"], g.max_ranks))
    assert ("directions" in s) == bool(g.variant.get("upOrDown"))
    assert ("starts" in s) == bool(g.variant.get("sudoku"))
    if g.special:
        assert s["score"] == sum(s["stacks"]) or s["score"] == 0
        assert all((d == FINISHED) == (x == m)
                   for d, x, m in zip(g.directions, s["stacks"], g.max_ranks))
        assert 0 <= g.site_max <= sum(g.max_ranks)
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


def _check_step(cur, action, nxt, seen, seqs=None):
    """Check the clue-token and clue-type rules on one transition cur -(action)-> nxt,
    counting in `seen` which rules were exercised (with "reversed" / "upOrDown" /
    "sudoku", `seqs` holds per suit the ranks played so far, which a play extends)."""
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
    if cur.special:
        accepted = _accepts(cur, seqs, suit, rank)
        _count_special(cur, seqs, suit, rank, accepted, seen)
        assert nxt.stacks[suit] == cur.stacks[suit] + (1 if accepted else 0)
        assert all(nxt.stacks[x] == cur.stacks[x] for x in range(cur.num_suits)
                   if x != suit)
        if accepted:
            seqs[suit].append(rank)
        completes = accepted and len(seqs[suit]) == cur.max_ranks[suit]
        assert (nxt.directions[suit] == FINISHED) == (len(seqs[suit])
                                                      == cur.max_ranks[suit])
        if completes and before < cur.max_clues and not hole:
            seen["%s stack token" % ("sudoku" if cur.sudoku else "upOrDown"
                                     if cur.up_or_down else "reversed")] += 1
    else:
        accepted = rank == cur.stacks[suit] + 1
        completes = accepted and rank == cur.max_ranks[suit]
    if not accepted:  # a misplay: a strike, the card to the discards
        assert after == before and nxt.strikes == cur.strikes + 1
        assert order in nxt.discards
        if hole:
            seen["hole misplay strikes"] += 1
    elif completes:  # completes the stack
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


def _allowed_sequences(g, suit, seqs):
    """Written apart from the engine: every order in which a stack of `suit` may be
    built in `g`'s variant (as hanab.live's rules pages describe them), given the other
    stacks' played ranks in `seqs` (Sudoku: a start rank is taken by one stack only)."""
    size = g.max_ranks[suit]
    up, down = list(range(1, size + 1)), list(range(size, 0, -1))
    if g.sudoku:
        taken = set(seqs[x][0] for x in range(g.num_suits) if x != suit and seqs[x])
        return [[(k + i - 1) % size + 1 for i in range(size)]
                for k in range(1, size + 1) if k not in taken]
    if g.up_or_down:
        return [up, down, [START_RANK] + up[1:], [START_RANK] + down[1:]]
    return [down] if suit in g.reversed_suits else [up]


def _accepts(g, seqs, suit, rank):
    """A play of (suit, rank) extends the stack (by _allowed_sequences)."""
    want = seqs[suit] + [rank]
    return any(seq[:len(want)] == want for seq in _allowed_sequences(g, suit, seqs))


def _count_special(g, seqs, suit, rank, accepted, seen):
    """Count which rule of the stack mechanics a play exercised."""
    seq, size = seqs[suit], g.max_ranks[suit]
    if g.reversible and not g.up_or_down:
        name = "reversed" if suit in g.reversed_suits else "reversed-variant normal"
        if not seq:
            seen["%s first %s %s" % (name, "top rank" if rank == size else
                                     "1" if rank == 1 else "other",
                                     "accepted" if accepted else "refused")] += 1
        elif accepted:
            seen["%s later accepted" % name] += 1
        return
    if g.up_or_down:
        what = "START" if rank == START_RANK else "top rank" if rank == size else rank
        if not seq:
            seen["upOrDown first %s %s" % (what, "accepted" if accepted else "refused")] += 1
        elif seq == [START_RANK]:
            seen["upOrDown after START %s %s" % (
                "2" if rank == 2 else "S-1" if rank == size - 1 else "other",
                "accepted" if accepted else "refused")] += 1
        elif accepted:
            seen["upOrDown later accepted"] += 1
        return
    if not seq:
        used = any(seqs[x] and seqs[x][0] == rank for x in range(g.num_suits))
        seen["sudoku start %s %s" % ("used" if used else "unused",
                                     "accepted" if accepted else "refused")] += 1
    elif accepted and seq[-1] == size:
        seen["sudoku wraps"] += 1


def _true_max(g, seqs):
    """Written apart from the engine: the most cards the stacks can hold in the end
    given which cards are not all discarded (no regard for time or strikes): per suit
    the longest allowed order that extends the stack with cards some copy of which is
    not discarded; in Sudoku the unstarted stacks take distinct unused starts."""
    def alive(suit, rank):
        return any(c == (suit, rank) and o not in g.discards
                   for o, c in enumerate(g.deck))

    def best(suit, seq_options):
        top = 0
        for seq in seq_options:
            n = len(seqs[suit])
            if seq[:n] != seqs[suit]:
                continue
            while n < len(seq) and alive(suit, seq[n]):
                n += 1
            top = max(top, n)
        return top

    if not g.sudoku:
        return sum(best(x, _allowed_sequences(g, x, seqs)) for x in range(g.num_suits))
    size = g.max_ranks[0]
    taken = set(seq[0] for seq in seqs if seq)
    fixed = sum(best(x, _allowed_sequences(g, x, seqs))
                for x in range(g.num_suits) if seqs[x])
    free = [x for x in range(g.num_suits) if not seqs[x]]
    starts = [k for k in range(1, size + 1) if k not in taken]
    top = 0
    for chosen in itertools.permutations(starts, len(free)):
        total = 0
        for x, k in zip(free, chosen):
            total += best(x, [[(k + i - 1) % size + 1 for i in range(size)]])
        top = max(top, total)
    return fixed + top


def _check_special(g, seqs, history, seen):
    """The stack mechanics' bookkeeping after a step: the stacks count the played
    cards; the site's maximum is the least of the server's function's values so far and
    never below the true maximum (equal to it for the reversible mechanics); a game
    that is not over has some playable card or could still score."""
    if not g.special:
        return
    assert g.stacks == [len(q) for q in seqs]
    assert g.tops == [q[-1] if q else 0 for q in seqs]
    if g.sudoku:
        assert g.starts == [q[0] if q else 0 for q in seqs]
    value = g.site_max_function()
    history.append(value)
    assert g.site_max == min([sum(g.max_ranks)] + history), (g.site_max, history)
    true = _true_max(g, seqs)
    if g.reversible:
        assert value == true, (value, true, seqs)
    else:
        assert value >= true and g.site_max >= true
        if value > true:
            seen["sudoku server max above the true max"] += 1
    if len(history) > 1 and history[-1] < history[-2]:
        seen["site max drops"] += 1
    if len(history) > 1 and history[-1] > history[-2]:
        seen["server max function rises (the stored max does not)"] += 1


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


def _forced(variant, plays=(), discards=(), players=2):
    """A game of `variant` (its composition in order) brought by hand to a position:
    each (suit, rank) of `plays` played in turn (it must play) and every copy of each
    (suit, rank) of `discards` discarded (the site's allDiscarded), with the site's
    maximum updated as its server does after each; returns (game, seqs)."""
    deck = composition(variant)
    g = RefGame(variant, players, deck)
    seqs = [[] for _ in range(g.num_suits)]
    used = set()
    for card in plays:
        order = next(o for o, c in enumerate(deck) if c == card and o not in used)
        used.add(order)
        for h in g.hands:
            if order in h:
                h.remove(order)
        strikes = g.strikes
        g._play_card(order)
        assert g.strikes == strikes, ("misplayed", card)
        seqs[card[0]].append(card[1])
    for card in discards:
        for o, c in enumerate(deck):
            if c == card and o not in used:
                used.add(o)
                g.discards.append(o)
        g._update_site_max()
    return g, seqs


def _check_reversed_rules():
    """Hand-made games of "reversed" (three suits of stack size 3: suit 0 normal,
    one of each; suit 1 reversed, the site's copies; suit 2 reversed, one of each)."""
    assert site_ranks("reversed") == [1, 2, 2, 3, 3, 4, 4, 5, 5, 5]
    assert site_ranks("reversed", one_of_each=True) == [1, 2, 3, 4, 5]
    assert site_ranks("normal") == [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert site_ranks("reversed", 3) == [1, 2, 2, 3, 3, 3]
    v = {"suits": 2, "suitRanks": [[1, 2, 3], site_ranks("reversed", 3)], "handSize": 3,
         "clueTokens": 1, "reversed": [1]}
    deck = [(1, 2), (1, 1), (0, 1), (1, 3), (1, 2), (0, 2), (1, 3), (1, 3), (0, 3)]
    g = RefGame(v, 2, deck)
    assert g.directions == [UP, DOWN] and "directions" not in g.snapshot()
    g = g.apply(("play", 0))  # a reversed stack refuses a 2 first
    assert g.strikes == 1 and g.stacks == [0, 0] and g.discards == [0]
    assert g.site_max == 6  # another 2 is left
    g = g.apply(("play", 3))  # ... and takes its top rank first
    assert g.stacks == [0, 1] and g.tops == [0, 3] and g.snapshot()["stacks"] == [0, 1]
    g = g.apply(("rank", 1, 2))
    assert g.clues == 0
    g = g.apply(("play", 4))
    assert g.stacks == [0, 2] and g.tops == [0, 2] and g.turns_left == 2
    g = g.apply(("play", 1))  # the 1 finishes a reversed stack: a clue token
    assert g.stacks == [0, 3] and g.directions == [UP, FINISHED] and g.clues == 1
    # over by variantReversibleCheckAllDead: suit 0's 1 (order 2) is in the hand of
    # player 0, who has taken a turn since the last card was drawn
    assert g.over and g.turns_left == 1 and 2 in g.cannot_play and g.site_max == 6
    # a finished stack takes nothing more
    h = g._copy()
    h._play_card(7)
    assert h.strikes == 2 and h.stacks == [0, 3]
    # a 1 first is refused too; the top rank of a normal suit is refused first
    v1 = dict(v, suitRanks=[[1, 2, 3], [1, 2, 3]])
    v1["handSize"] = 2
    g = RefGame(v1, 2, [(1, 1), (0, 3), (1, 3), (0, 2), (0, 1), (1, 2)])
    g = g.apply(("play", 0))
    assert g.strikes == 1 and g.stacks == [0, 0]
    g = g.apply(("play", 2))
    assert g.stacks == [0, 1]
    g = g.apply(("play", 1))  # (0, 3) on the normal suit's empty stack
    assert g.strikes == 2 and g.stacks == [0, 1]
    # the site's maximum: the last 1 of the reversed suit discarded costs one card;
    # every S discarded costs the whole suit; a normal suit's 1 the whole suit
    vs = {"suits": 2, "suitRanks": [site_ranks("normal", 5), site_ranks("reversed", 5)],
          "handSize": 2, "clueTokens": 8, "reversed": [1]}
    g, _ = _forced(vs)
    assert g.site_max == 10 and g.site_max_function() == 10
    g, _ = _forced(vs, discards=[(1, 1)])
    assert g.site_max == 9 and g._reversible_suit_max(1) == 4
    g, _ = _forced(vs, discards=[(1, 5)])
    assert g.site_max == 5 and g._reversible_suit_max(1) == 0
    g, _ = _forced(vs, plays=[(1, 5), (1, 4)], discards=[(1, 2)])
    assert g._reversible_suit_max(1) == 3 and g.site_max == 8
    g, _ = _forced(vs, discards=[(0, 3)])
    assert g._reversible_suit_max(0) == 2 and g.site_max == 7
    # the site's end (CheckEnd): with the reversed suit's only 1 discarded the site's
    # maximum is 3, and the game ends when the score reaches it, turns still left
    v2 = {"suits": 2, "suitRanks": [[1, 2], [1, 2, 2]], "handSize": 1, "clueTokens": 3,
          "reversed": [1]}
    deck = [(1, 1), (1, 2), (0, 1), (0, 2), (1, 2)]
    for to_the_end in (False, True):
        g = RefGame(v2, 2, deck, play_to_the_end=to_the_end)
        g = g.apply(("rank", 1, 2)).apply(("play", 1))
        assert g.stacks == [0, 1] and g.site_max == 4
        g = g.apply(("discard", 0))
        assert g.site_max == 3 and g.site_max_function() == 3
        g = g.apply(("play", 2)).apply(("play", 3))
        assert g.stacks == [2, 1] and g.turns_left == 1 and g.clues == 3
        assert g.over == (not to_the_end)


def _useful_ranks(g, seqs, suit):
    """The most cards the stack of `suit` can still hold (_true_max's rule) and the
    ranks, not yet played, of the orders that reach it."""
    def alive(rank):
        return any(c == (suit, rank) and o not in g.discards
                   for o, c in enumerate(g.deck))
    best, useful = -1, set()
    for seq in _allowed_sequences(g, suit, seqs):
        n = len(seqs[suit])
        if seq[:n] != seqs[suit]:
            continue
        m = n
        while m < len(seq) and alive(seq[m]):
            m += 1
        if m > best:
            best, useful = m, set(seq[n:m])
        elif m == best:
            useful |= set(seq[n:m])
    return best, useful


def _check_up_or_down_rules():
    """Hand-made games of "upOrDown", and the site's client tests of it."""
    assert site_ranks("upOrDown") == [1, 2, 2, 3, 3, 4, 4, 5, 7]  # 2 x 5 - 1 cards
    assert site_ranks("upOrDown", one_of_each=True) == [1, 2, 3, 4, 5, 7]  # 5 + 1
    assert site_ranks("upOrDown", 4) == [1, 2, 2, 3, 3, 4, 7]
    v = {"suits": 3, "ranks": site_ranks("upOrDown", 4, one_of_each=True), "handSize": 3,
         "clueTokens": 1, "upOrDown": True}
    assert v["ranks"] == [1, 2, 3, 4, 7]  # S = 4: after START a 2 goes up, a 3 down
    deck = [(0, 1), (1, 4), (2, 7), (1, 2), (0, 3), (0, 2), (2, 3), (1, 3), (2, 4),
            (1, 7), (2, 2), (0, 7), (0, 4), (1, 1), (2, 1)]
    g = RefGame(v, 2, deck)
    assert g.snapshot()["directions"] == [UNDECIDED] * 3
    assert g._legal_rank_values() == [1, 2, 3, 4]  # no clue names START
    g = g.apply(("play", 0))  # a 1 starts a stack going up
    g = g.apply(("play", 3))  # a 2 starts nothing
    assert g.strikes == 1 and g.stacks == [1, 0, 0]
    g = g.apply(("play", 1))  # an S (4) starts a stack going down
    g = g.apply(("play", 4))  # (0, 3) on a 1 going up: refused
    assert g.strikes == 2 and g.snapshot()["directions"] == [UP, DOWN, UNDECIDED]
    g = g.apply(("play", 2))  # START: the stack counts one card, still undecided
    assert g.stacks == [1, 1, 1] and g.tops == [1, 4, 7] and g.score == 3
    assert g.snapshot()["directions"] == [UP, DOWN, UNDECIDED]
    g = g.apply(("rank", 0, 3))
    assert g.clues == 0
    h = g.apply(("play", 8))  # an S (4) on START: neither a 2 nor an S - 1
    assert h.strikes == 3 and h.over and h.score == 0
    g = g.apply(("play", 6))  # an S - 1 (3) on START: going down
    assert g.snapshot()["directions"] == [UP, DOWN, DOWN] and g.stacks == [1, 1, 2]
    # the dead (1, 2) and (0, 3) leave 2 + 2 + 4
    assert g.site_max == 8 == g.site_max_function() and not g.over
    # START then 2: up, and finishing it gives the clue token
    deck2 = [(0, 7), (1, 1), (1, 7), (0, 2), (0, 3), (2, 7), (0, 4), (1, 2), (2, 1),
             (0, 1), (1, 3), (1, 4), (2, 2), (2, 3), (2, 4)]
    g2 = RefGame(v, 2, deck2)
    g2 = g2.apply(("play", 0)).apply(("play", 3))  # START, then a 2 on it: up
    assert g2.snapshot()["directions"][0] == UP and g2.stacks[0] == 2
    g2 = g2.apply(("rank", 1, 3)).apply(("play", 4))
    assert g2.clues == 0 and g2.stacks[0] == 3
    g2 = g2.apply(("play", 6))  # the S finishes the stack: START 2 3 4, four cards
    assert g2.stacks[0] == 4 and g2.directions[0] == FINISHED and g2.clues == 1
    # a 1 finishing a down stack gives it too, capped at the maximum
    for clues in (0, 1):
        g3, seqs = _forced(v, plays=[(0, 4), (0, 3), (0, 2)])
        assert g3.directions[0] == DOWN
        g3.clues = clues
        g3._play_card(deck.index((0, 1)))
        assert g3.directions[0] == FINISHED and g3.stacks[0] == 4 and g3.clues == 1
    # the site's maximum: a stack needs 1 or START to go up, S or START to go down
    vs = {"suits": 1, "ranks": site_ranks("upOrDown"), "handSize": 2, "clueTokens": 8,
          "upOrDown": True}
    for plays, discards, want in (
            ([], [], 5), ([], [(0, 1)], 5), ([], [(0, 1), (0, 7)], 4),
            ([], [(0, 1), (0, 5), (0, 7)], 0), ([(0, 1)], [(0, 7), (0, 3)], 2),
            ([(0, 7)], [(0, 1), (0, 5)], 4), ([(0, 7)], [(0, 2), (0, 4)], 1)):
        g4, seqs = _forced(vs, plays, discards)
        assert g4.site_max_function() == want == _true_max(g4, seqs), (plays, discards)
    # packages/game/src/rules/variants/reversible.test.ts
    # ("upOrDownDeadCardsDirectionUndecided"): reversibleGetRanksUsefulForMaxScore's
    # expected ranks, played out here: the ranks of the orders that reach the stack's
    # maximum, which is the server's variantReversibleGetMaxScore share. The client's
    # sets also hold a START, 1 or 5 whose copies are all discarded (they are the
    # union of the up and down walks' starting cards, dead or not); here those are
    # removed from the expected sets, which otherwise agree.
    S = START_RANK
    cases = [  # (test name, played ranks, all-discarded ranks, expected useful ranks)
        ("Handles no discard, no play", [], [], {1, 2, 3, 4, 5, S}),
        ("Handles ok discards, no play (1)", [], [1], {1, 2, 3, 4, 5, S}),
        ("Handles ok discards, no play (5)", [], [5], {1, 2, 3, 4, 5, S}),
        ("Handles ok discards, no play (START)", [], [S], {1, 2, 3, 4, 5, S}),
        ("Handles play 1, 2, 3", [1, 2, 3], [], {4, 5}),
        ("Handles play 5, discard 2", [5], [2], {3, 4}),
        ("Handles discard 2 and 4", [], [2, 4], {1, 5, S}),
        ("Handles play S, discard 2 and 4", [S], [2, 4], set()),
        ("Handles play S discard 2", [S], [2], {3, 4}),
        ("Handles play S, discard 3", [S], [3], {2, 4}),
        ("Handles discard 2, 5 and Start", [], [2, 5, S], {1, S}),
    ]
    for name, played, dead, expected in cases:
        g5, seqs = _forced(vs, [(0, r) for r in played], [(0, r) for r in dead])
        best, useful = _useful_ranks(g5, seqs, 0)
        assert useful == expected - set(dead), (name, useful, expected)
        assert g5._reversible_suit_max(0) == best, (name, best)


def _check_sudoku_rules():
    """Hand-made games of "sudoku", and the site's client tests of it."""
    assert site_ranks("sudoku", 5) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert site_ranks("sudoku", 4, one_of_each=True) == [1, 2, 3, 4]
    v = {"suits": 3, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 1, "sudoku": True}
    deck = [(0, 2), (0, 3), (1, 2), (1, 3), (2, 1), (0, 1), (1, 1), (2, 2), (2, 3)]
    g = RefGame(v, 2, deck)
    assert g.snapshot()["starts"] == [None] * 3 and "directions" not in g.snapshot()
    g = g.apply(("play", 0))  # any rank starts a stack
    assert g.snapshot()["starts"] == [2, None, None] and g.stacks == [1, 0, 0]
    g = g.apply(("play", 2))  # ... but not another stack's start
    assert g.strikes == 1 and g.stacks == [1, 0, 0] and g.snapshot()["starts"][1] is None
    g = g.apply(("play", 1))
    g = g.apply(("play", 3))  # an unused start
    assert g.snapshot()["starts"] == [2, 3, None] and g.stacks == [2, 1, 0]
    g = g.apply(("rank", 1, 1))
    assert g.clues == 0
    g = g.apply(("play", 5))  # (0, 1) on the 3: wraps from N to 1, finishing the stack
    assert g.stacks == [3, 1, 0] and g.tops[0] == 1 and g.directions[0] == FINISHED
    assert g.clues == 1  # the finished-stack token
    # (1, 2) dead: suit 1 (started at 3) can hold 3, 1: the site's maximum is 3 + 2 + 3
    assert g.site_max == 8 == g.site_max_function()
    g = g.apply(("play", 4))  # the one free start left
    assert g.snapshot()["starts"] == [2, 3, 1]
    h = g.apply(("play", 7))  # (2, 2) on suit 2's 1
    assert h.stacks == [3, 1, 2] and h.tops == [1, 3, 2]
    # a finished stack refuses the next rank up (variantSudokuPlay checks Finished)
    g2, seqs = _forced(v, plays=[(0, 1), (0, 2), (0, 3)])
    assert g2.directions[0] == FINISHED and g2.clues == 1
    assert g2._sudoku_play(0, 1) is True
    # packages/game/src/rules/variants/sudoku.test.ts (sudokuWalkUpAll5 on "Sudoku
    # (5 Suits)", sudokuWalkUpAll4 on "Sudoku (4 Suits)"): per start rank, the most cards
    # a stack started there can hold when the listed ranks are all discarded. The
    # client's expectations are the true values (played out here with _true_max's rule
    # and with the client's walk); the server's sudokuWalkUpAll gives more in 9 of
    # the 15 cases (its `server` column), which the server's maximum score then counts.
    cases = [  # (N, dead ranks, client test's expected, server's sudokuWalkUpAll)
        (5, [1], [0, 4, 3, 2, 1], [0, 4, 3, 2, 1]),
        (5, [2], [1, 0, 4, 3, 2], [1, 0, 4, 3, 2]),
        (5, [3], [2, 1, 0, 4, 3], [2, 2, 0, 4, 3]),
        (5, [4], [3, 2, 1, 0, 4], [3, 3, 3, 0, 4]),
        (5, [5], [4, 3, 2, 1, 0], [4, 4, 4, 4, 0]),
        (5, [2, 5], [1, 0, 2, 1, 0], [1, 0, 2, 2, 0]),
        (5, [1, 4], [0, 2, 1, 0, 1], [0, 2, 2, 0, 1]),
        (5, [1, 2, 5], [0, 0, 2, 1, 0], [0, 0, 2, 2, 0]),
        (4, [1], [0, 3, 2, 1], [0, 3, 2, 1]),
        (4, [2], [1, 0, 3, 2], [1, 0, 3, 2]),
        (4, [3], [2, 1, 0, 3], [2, 2, 0, 3]),
        (4, [4], [3, 2, 1, 0], [3, 3, 3, 0]),
        (4, [2, 4], [1, 0, 1, 0], [1, 0, 1, 0]),
        (4, [1, 4], [0, 2, 1, 0], [0, 2, 2, 0]),
        (4, [1, 2, 4], [0, 0, 1, 0], [0, 0, 1, 0]),
    ]
    for n, dead_ranks, expected, server in cases:
        dead = [r in dead_ranks for r in range(1, n + 1)]
        assert sudoku_walk_up_all(dead, n, client=True) == (False, expected)
        assert sudoku_walk_up_all(dead, n) == (False, server)
        vs = {"suits": n, "ranks": site_ranks("sudoku", n), "handSize": 2,
              "clueTokens": 8, "sudoku": True}
        for start in range(1, n + 1):
            if start in dead_ranks:
                continue
            g3, seqs = _forced(vs, [(0, start)], [(0, r) for r in dead_ranks])
            best, _ = _useful_ranks(g3, seqs, 0)
            assert best == expected[start - 1], (n, dead_ranks, start, best)
            # the other suits count N each: the server's maximum, the true one
            assert g3.site_max_function() == server[start - 1] + n * (n - 1)
            assert _true_max(g3, seqs) == best + n * (n - 1)
    # the server's maximum drops after a discard as its function says: the last 2 of
    # suit 0 in Sudoku (5 Suits) leaves suit 0 a best start of 3 (3 4 5 1); the
    # assignment gives the free starts to the suits (every other suit counts 5)
    vs = {"suits": 5, "ranks": site_ranks("sudoku", 5), "handSize": 2, "clueTokens": 8,
          "sudoku": True}
    g4, seqs = _forced(vs, discards=[(0, 2)])
    assert g4.site_max == 24 == g4.site_max_function() == _true_max(g4, seqs)
    # started at 1 the suit holds only the 1: the server's maximum follows
    g4, seqs = _forced(vs, plays=[(0, 1)], discards=[(0, 2)])
    assert g4.site_max == 21 == _true_max(g4, seqs)
    # two suits wanting the same start: suits 0 and 1 both lack their 2s and 5s; only
    # one can take the start 3 (3 4), the other holds 1 card (start 1 or 4): 15 + 3;
    # the server's walk gives start 4 two cards (4 and the dead 5's run), so its
    # assignment counts 15 + 2 + 2
    g5, seqs = _forced(vs, discards=[(0, 2), (0, 5), (1, 2), (1, 5)])
    assert _true_max(g5, seqs) == 18 and g5.site_max_function() == 19
    # the end: at the true maximum nothing is playable, so variantSudokuCheckAllDead
    # ends the game though the server's maximum is higher (suit 0 started at 4 with its
    # 3 dead, started at 2: the server counts 2 for it, 1 can be played)
    v6 = {"suits": 2, "ranks": [1, 2, 3], "handSize": 1, "clueTokens": 2, "sudoku": True}
    g6 = RefGame(v6, 2, [(0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (0, 1)])
    g6 = g6.apply(("rank", 1, 3)).apply(("discard", 1))
    assert g6.site_max == 5 and sudoku_walk_up_all([False, False, True], 3) == (
        False, [2, 2, 0])
    g6 = g6.apply(("play", 0)).apply(("play", 2)).apply(("play", 3))
    assert not g6.over and g6.site_max == 5
    g6 = g6.apply(("play", 4))
    assert g6.over and g6.score == 4 and g6.turns_left == 1 and g6.site_max == 5
    assert g6._sudoku_all_dead()


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
        # reversed suits (site_ranks: the reversed suit's copies as the site deals them)
        {"suits": 2, "suitRanks": [[1, 2, 3], site_ranks("reversed", 3)], "handSize": 2,
         "clueTokens": 1, "reversed": [1]},
        {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2,
         "reversed": [0, 1]},
        {"suits": 3, "ranks": [1, 2], "handSize": 2, "clueTokens": 1, "strikes": 2,
         "reversed": [2]},
        {"suits": 2, "suitRanks": [[1, 1, 2], [1, 2, 2]], "handSize": 2, "clueTokens": 1,
         "reversed": [1], "clueStarved": True, "inverted": [0]},
        {"suits": 2, "suitRanks": [[1, 2, 3], [1, 2, 3, 3]], "handSize": 2,
         "clueTokens": 1, "reversed": [1], "throwItInAHole": True},
        # up or down (stack size 4: the site's copies of a one-of-each or normal suit)
        {"suits": 1, "ranks": site_ranks("upOrDown", 4), "handSize": 2,
         "clueTokens": 1, "upOrDown": True},
        {"suits": 2, "ranks": site_ranks("upOrDown", 4, one_of_each=True), "handSize": 2,
         "clueTokens": 1, "strikes": 2, "upOrDown": True},
        {"suits": 1, "ranks": site_ranks("upOrDown", 5), "handSize": 2,
         "clueTokens": 2, "upOrDown": True, "clueStarved": True},
        # sudoku (N suits of N ranks as on the site, or fewer suits than N)
        {"suits": 2, "ranks": site_ranks("sudoku", 2), "handSize": 2, "clueTokens": 1,
         "sudoku": True},
        {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 1, "sudoku": True},
        {"suits": 3, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 1, "strikes": 2,
         "sudoku": True},
        {"suits": 2, "ranks": [1, 2, 3, 3], "handSize": 2, "clueTokens": 1,
         "sudoku": True, "throwItInAHole": True},
    ]
    seen = collections.Counter()
    _check_new_rules()
    _check_reversed_rules()
    _check_up_or_down_rules()
    _check_sudoku_rules()
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
            assert 0 <= best <= sum(g.max_ranks)
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
                seqs = [[] for _ in range(cur.num_suits)]
                history = []
                while not cur.over:
                    before = cur.snapshot()
                    action = rng.choice(cur.legal_actions())
                    nxt = cur.apply(action)
                    assert cur.snapshot() == before  # self unchanged
                    _check_invariants(nxt)
                    _check_step(cur, action, nxt, seen, seqs)
                    _check_alternation(nxt, seen)
                    if action[0] in ("play", "discard"):
                        _check_special(nxt, seqs, history, seen)
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
                 "alternating same type refused",
                 "reversed first top rank accepted", "reversed first 1 refused",
                 "reversed first other refused", "reversed later accepted",
                 "reversed-variant normal first 1 accepted",
                 "reversed-variant normal first top rank refused",
                 "reversed stack token", "site max drops",
                 "upOrDown first 1 accepted", "upOrDown first top rank accepted",
                 "upOrDown first START accepted", "upOrDown first 2 refused",
                 "upOrDown after START 2 accepted", "upOrDown after START S-1 accepted",
                 "upOrDown after START other refused", "upOrDown later accepted",
                 "upOrDown stack token",
                 "sudoku start unused accepted", "sudoku start used refused",
                 "sudoku wraps", "sudoku stack token",
                 "sudoku server max above the true max"):
        assert seen[rule] > 0, "never exercised: %s" % rule
    print("self-check OK")


if __name__ == "__main__":
    _self_check()
