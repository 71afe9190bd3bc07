"""hanab.live seed strings -> decks, exactly as the hanab.live server deals them.

The server (Go) deals a game from its seed string in four steps:

1. ``setSeed``: if the seed starts with ``legacy-``, the first ``len("legacy-x-")`` = 9
   bytes are dropped (meant for "legacy-1-", "legacy-2-", ...; it is a fixed 9 bytes,
   whatever they are); the remaining bytes are hashed with Go's ``hash/crc64`` using the
   ECMA table (CRC-64/XZ: reflected polynomial 0xC96C5795D7870F42, initial value and
   final xor all ones), and the checksum, reinterpreted as a signed ``int64``, seeds Go's
   global ``math/rand`` source (``rand.Seed``).
2. ``InitDeck``: the unshuffled deck in the variant's suit order, each suit's ranks
   ascending with their copies (:meth:`Variant.composition`).
3. ``ShuffleDeck``: for i = 0 .. n-1, swap card i with card ``rand.Intn(i + 1)``.
4. The cards are dealt from index 0 (``order`` = index), a whole hand per seat.

Seeds made by the server look like ``p{players}v{variantId}s{suffix}`` (e.g. ``p3v0s1``:
3 players, No Variant, seed suffix "1"); the deck depends only on the whole string and the
variant, the player count is part of the string.

This module is a port of the parts of Go's standard library that this needs:
``hash/crc64`` with the ECMA table, and ``math/rand``'s default source (``rngSource``:
an additive lagged Fibonacci generator seeded through ``seedrand``, a Lehmer generator,
and the ``rngCooked`` table, see :mod:`._rngcooked`) with the ``Rand`` methods ``Int63``,
``Int31``, ``Int31n``, ``Int63n`` and ``Intn`` (which must reproduce Go's rejection rule
bit for bit). tests/test_seeds.py checks it against values printed by a real Go program
(tests/go/seedvectors.go) and against the decks of real hanab.live games.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any, TypeVar

from ._rngcooked import RNG_COOKED, RNG_LEN
from .cards import Card
from .errors import MalformedError
from .options import Rules, parse_variant, variant_by_id
from .state import Game
from .variant import Variant

MASK64 = (1 << 64) - 1

_T = TypeVar("_T")

# ---------------------------------------------------------------- hash/crc64, ECMA table
CRC64_ECMA = 0xC96C5795D7870F42  # Go's crc64.ECMA: the ECMA-182 polynomial, bit-reversed


def _crc_table(poly: int) -> tuple[int, ...]:
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc_table(CRC64_ECMA)


def crc64_ecma(data: bytes) -> int:
    """Go's ``crc64.Checksum(data, crc64.MakeTable(crc64.ECMA))`` (CRC-64/XZ), unsigned."""
    table = _CRC_TABLE
    crc = MASK64
    for b in bytes(data):
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ MASK64


def to_int64(u: int) -> int:
    """A 64-bit pattern as Go's ``int64(u)``."""
    u &= MASK64
    return u - (1 << 64) if u >> 63 else u


# ---------------------------------------------------------------- math/rand: rngSource
RNG_TAP = 273
RNG_MASK = (1 << 63) - 1
INT32_MAX = (1 << 31) - 1
_SEED_ZERO = 89482311  # what rngSource.Seed uses instead of a seed of 0 (mod int32max)
_A, _Q, _R = 48271, 44488, 3399  # seedrand: x -> 48271 x mod (2^31 - 1), by Schrage's method


def _int32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _go_quo_rem(x: int, y: int) -> tuple[int, int]:
    """Go's integer ``x / y`` and ``x % y``: truncated toward zero."""
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q
    return q, x - q * y


def seedrand(x: int) -> int:
    """Go's ``seedrand(x int32) int32``: one step of the Lehmer generator x -> 48271 x mod
    (2^31 - 1), computed as Go does (Schrage's method in int32 arithmetic)."""
    hi, lo = _go_quo_rem(_int32(x), _Q)
    x = _int32(_A * lo - _R * hi)
    if x < 0:
        x = _int32(x + INT32_MAX)
    return x


def _seed_start(seed: int) -> int:
    """``rngSource.Seed``'s reduction: ``seed % int32max`` (Go's truncated remainder), plus
    int32max if negative, and 0 replaced by 89482311."""
    if not -(1 << 63) <= seed < (1 << 63):
        raise ValueError(f"seed {seed} is not an int64")
    _, seed = _go_quo_rem(seed, INT32_MAX)
    if seed < 0:
        seed += INT32_MAX
    if seed == 0:
        seed = _SEED_ZERO
    return seed


def seeded_state_stepwise(seed: int) -> list[int]:
    """The state vector ``rngSource.Seed(seed)`` builds, as unsigned 64-bit words: a line
    by line port of Go's loop (20 warm-up steps of :func:`seedrand`, then three steps per
    word, packed as x<<40 ^ x<<20 ^ x in int64, xored with ``rngCooked``). The generator
    itself uses :func:`_seeded_word`, which computes the same words faster."""
    x = _seed_start(seed)
    vec = [0] * RNG_LEN
    for i in range(-20, RNG_LEN):
        x = seedrand(x)
        if i >= 0:
            u = x << 40
            x = seedrand(x)
            u ^= x << 20
            x = seedrand(x)
            u ^= x
            u ^= RNG_COOKED[i]
            vec[i] = u & MASK64  # int64(x) << 40 keeps the low 64 bits
    return vec


# seedrand is exactly x -> A x mod M (M = 2^31 - 1, a prime; Schrage's method is exact), so
# the k-th step from x0 is x0 * A^k mod M. Word i of the state uses steps 21+3i, 22+3i and
# 23+3i (20 warm-up steps, then one more before the first word).
def _seed_multipliers() -> tuple[tuple[int, int, int, int], ...]:
    steps = []
    p = pow(_A, 21, INT32_MAX)
    for i in range(RNG_LEN):
        a = p
        b = a * _A % INT32_MAX
        c = b * _A % INT32_MAX
        p = c * _A % INT32_MAX
        steps.append((a, b, c, RNG_COOKED[i] & MASK64))
    return tuple(steps)


_SEED_STEPS = _seed_multipliers()


def _seeded_word(s: int, i: int) -> int:
    """Word i of the seeded state, from the reduced seed ``s`` (see :func:`_seed_start`)."""
    a, b, c, k = _SEED_STEPS[i]
    m = INT32_MAX
    return ((s * a % m) << 40 ^ (s * b % m) << 20 ^ (s * c % m) ^ k) & MASK64


def seeded_state(seed: int) -> list[int]:
    """The same words as :func:`seeded_state_stepwise`, one modular product per step."""
    s = _seed_start(seed)
    return [_seeded_word(s, i) for i in range(RNG_LEN)]


class GoRand:
    """Go's ``math/rand`` ``Rand`` over its default source (``rngSource``): the same seed
    gives the same stream as ``rand.New(rand.NewSource(seed))`` or the global functions
    after ``rand.Seed(seed)``. Seeds are Go ``int64`` values.

    The state's words are computed when first read (a deal reads about 2 of the 607 words
    per card), which is what makes seeding cheap; the stream is the same."""

    __slots__ = ("_s", "_vec", "_tap", "_feed")

    def __init__(self, seed: int = 1):
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """``rngSource.Seed``."""
        self._s = _seed_start(seed)
        self._vec: list[int | None] = [None] * RNG_LEN  # None: still the seeded word
        self._tap = 0
        self._feed = RNG_LEN - RNG_TAP

    def state(self) -> list[int]:
        """The current state vector (unsigned words), as Go's ``rng.vec``."""
        return [_seeded_word(self._s, i) if w is None else w for i, w in enumerate(self._vec)]

    def uint64(self) -> int:
        """``rngSource.Uint64`` (also ``Rand.Uint64``, as rngSource is a Source64)."""
        tap = self._tap - 1
        if tap < 0:
            tap += RNG_LEN
        feed = self._feed - 1
        if feed < 0:
            feed += RNG_LEN
        self._tap, self._feed = tap, feed
        vec = self._vec
        a = vec[feed]
        if a is None:
            a = _seeded_word(self._s, feed)
        b = vec[tap]
        if b is None:
            b = vec[tap] = _seeded_word(self._s, tap)
        x = (a + b) & MASK64
        vec[feed] = x
        return x

    def int63(self) -> int:
        """``Int63``: a non-negative 63-bit integer."""
        return self.uint64() & RNG_MASK

    def int31(self) -> int:
        """``Int31``: the top 31 bits of ``Int63``."""
        return self.uint64() >> 32 & INT32_MAX

    def int31n(self, n: int) -> int:
        """``Int31n``: uniform in [0, n), 0 < n <= 2^31 - 1; masks when n is a power of two,
        else rejects ``Int31`` values above the largest multiple of n, minus one."""
        if not 0 < n <= INT32_MAX:
            raise ValueError(f"invalid argument to Int31n: {n}")
        if n & (n - 1) == 0:
            return self.int31() & (n - 1)
        top = INT32_MAX - (1 << 31) % n
        v = self.int31()
        while v > top:
            v = self.int31()
        return v % n

    def int63n(self, n: int) -> int:
        """``Int63n``: uniform in [0, n), 0 < n <= 2^63 - 1; the same rule on 63 bits."""
        if not 0 < n <= RNG_MASK:
            raise ValueError(f"invalid argument to Int63n: {n}")
        if n & (n - 1) == 0:
            return self.int63() & (n - 1)
        top = RNG_MASK - (1 << 63) % n
        v = self.int63()
        while v > top:
            v = self.int63()
        return v % n

    def intn(self, n: int) -> int:
        """``Intn`` (64-bit Go): ``Int31n`` when n <= 2^31 - 1, else ``Int63n``."""
        if n <= 0:
            raise ValueError(f"invalid argument to Intn: {n}")
        if n <= INT32_MAX:
            return self.int31n(n)
        return self.int63n(n)


def server_shuffle(items: Iterable[_T], seed64: int) -> list[_T]:
    """The server's ``ShuffleDeck`` after ``rand.Seed(seed64)``: for i = 0 .. n-1, swap
    item i with item ``rand.Intn(i + 1)``. Returns a new list."""
    out = list(items)
    intn = GoRand(seed64).intn
    for i in range(len(out)):
        j = intn(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------- hanab.live seed strings
LEGACY_PREFIX = "legacy-"
_LEGACY_DROP = len("legacy-x-")
# the server writes the numbers with strconv.Itoa: no leading zeros
_SEED_RE = re.compile(r"p(0|[1-9][0-9]*)v(0|[1-9][0-9]*)s(.*)", re.S)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def _q(seed: object) -> str:
    """The seed quoted for a one-line message (long ones shortened)."""
    r = repr(seed)
    return r if len(r) <= 70 else r[:60] + "..." + r[-7:]


def _seed_bytes(seed: object) -> bytes:
    if not isinstance(seed, str):
        raise MalformedError(f"seed must be a string, got {type(seed).__name__}")
    if seed == "":
        raise MalformedError("seed '': empty seed")
    try:
        # surrogateescape: command-line arguments that were not UTF-8 get their bytes back
        return seed.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise MalformedError(f"seed {_q(seed)}: not encodable as UTF-8") from None


def hashed_seed_bytes(seed: str) -> bytes:
    """The bytes the server hashes: the seed's UTF-8 bytes, less the first 9 bytes if it
    starts with ``legacy-`` (the server's ``seed[len("legacy-x-"):]``)."""
    data = _seed_bytes(seed)
    if data.startswith(LEGACY_PREFIX.encode()):
        if len(data) < _LEGACY_DROP:
            raise MalformedError(
                f"seed {_q(seed)}: starts with 'legacy-' but is shorter than its 9-byte 'legacy-x-' prefix"
            )
        data = data[_LEGACY_DROP:]
    return data


def seed_int64(seed: str) -> int:
    """The int64 that hanab.live passes to ``rand.Seed`` for this seed string."""
    return to_int64(crc64_ecma(hashed_seed_bytes(seed)))


def parse_seed(seed: str) -> tuple[int | None, Variant | None]:
    """Players and variant of a ``p{players}v{variantId}s{suffix}`` seed; ``(None, None)``
    for any other string. Raises :class:`MalformedError` for an empty seed, a player count
    outside 2..6 or a variant id this engine does not know."""
    _seed_bytes(seed)
    m = _SEED_RE.fullmatch(seed)
    if m is None:
        return None, None
    ptxt, vtxt = m.group(1), m.group(2)
    players = int(ptxt) if len(ptxt) <= 3 else None
    if players is None or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedError(
            f"seed {_q(seed)}: bad player count {_q(ptxt)[1:-1]}: must be {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    vid = int(vtxt) if len(vtxt) <= 9 else -1
    try:
        variant = variant_by_id(vid)
    except MalformedError as e:
        raise MalformedError(f"seed {_q(seed)}: {e}") from None
    return players, variant


def _describe(v: Variant) -> str:
    return f"{v.name!r}" + (f" (id {v.hanablive_id})" if v.hanablive_id is not None else "")


@functools.lru_cache(maxsize=64)
def _unshuffled(variant: Variant) -> tuple[Card, ...]:
    """The server's ``InitDeck``: suit by suit, ranks ascending with their copies."""
    return tuple(Card(s, r) for s, r in variant.composition())


def deck_from_seed(
    seed: str, players: int | None = None, variant: Variant | str | dict[str, Any] | None = None
) -> tuple[int, Variant, list[Card]]:
    """``(players, variant, deck)`` for a seed string, the deck top first, as hanab.live
    deals it. ``players`` and ``variant`` (a :class:`Variant`, a name or a custom-variant
    object) are read from a ``p…v…s…`` seed and, if given too, must agree with it; any
    other string needs both."""
    seed64 = seed_int64(seed)
    seed_players, seed_variant = parse_seed(seed)
    if players is not None:
        if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise MalformedError(
                f"seed {_q(seed)}: bad player count {players!r}: must be {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        if seed_players is not None and players != seed_players:
            raise MalformedError(f"seed {_q(seed)} is for {seed_players} players, not {players}")
    if variant is not None:
        variant = parse_variant(variant)
        if seed_variant is not None and variant != seed_variant:
            raise MalformedError(f"seed {_q(seed)} is for variant {_describe(seed_variant)}, not {_describe(variant)}")
    players = seed_players if players is None else players
    variant = seed_variant if variant is None else variant
    if players is None or variant is None:
        missing = " and ".join(w for w, x in (("the player count", players), ("the variant", variant)) if x is None)
        raise MalformedError(
            f"seed {_q(seed)} is not of the form p{{players}}v{{variantId}}s{{suffix}}: give {missing}"
        )
    return players, variant, server_shuffle(_unshuffled(variant), seed64)


def seed_deals(seed: object, players: int, variant: Variant, deck: Iterable[Card]) -> bool:
    """Whether hanab.live, dealing from ``seed`` for ``players`` in ``variant``, gets
    ``deck`` (False for anything that is not a seed of that game, without an error)."""
    if not isinstance(seed, str) or not seed:
        return False
    try:
        _, _, dealt = deck_from_seed(seed, players, variant)
    except ValueError:
        return False
    return tuple(dealt) == tuple(deck)


def game_from_seed(
    seed: str, players: int | None = None, rules: Rules | Variant | str | dict[str, Any] | None = None
) -> Game:
    """The :class:`Game` hanab.live deals for a seed. ``rules`` may be a :class:`Rules`
    (its variant must agree with the seed's), a :class:`Variant`, a variant name or a
    custom-variant object, or None (the seed's variant, default rule options)."""
    if rules is not None and not isinstance(rules, Rules):
        rules = Rules(parse_variant(rules))
    players, variant, deck = deck_from_seed(seed, players, None if rules is None else rules.variant)
    return Game(rules if rules is not None else Rules(variant), players, deck)
