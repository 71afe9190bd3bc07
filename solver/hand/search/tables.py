"""Lookup tables over one suit's byte (bit r set: the card of rank r, 7 = 0 .. A = 7).

``PEXT[u << 8 | x]`` (``x`` a subset of ``u``): ``x``'s bits compressed to their places
among ``u``'s -- the relative ranks of ``x`` among the cards ``u`` still in play.
``REPS[u << 8 | x]``: one bit (the lowest) of each run of ``x``'s cards that are adjacent
among ``u``'s: cards of one hand with no other card in play between them are equivalent.
``TOPRUN[u << 8 | x]``: how many of ``u``'s highest cards ``x`` holds in a row.
``HIGH[b]``: the highest rank in byte ``b`` (-1 for none); ``COUNT[b]``: its cards.
``DUCK[m << 8 | o]`` (``m``, ``o`` disjoint): 1 if a seat holding ``m`` of a suit, the others
``o``, can play under every card the others lead there: ``m``'s i-th lowest card is below
``o``'s i-th lowest, for every i up to the shorter length.
"""
from __future__ import annotations

from typing import Final


def _build() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    pext = [0] * 65536
    reps = [0] * 65536
    toprun = [0] * 65536
    for u in range(256):
        bits = [r for r in range(8) if u >> r & 1]
        x = u
        while True:
            v = 0
            rp = 0
            for i, r in enumerate(bits):
                if x >> r & 1:
                    v |= 1 << i
                    if i == 0 or not x >> bits[i - 1] & 1:
                        rp |= 1 << r
            t = 0
            for r in reversed(bits):
                if not x >> r & 1:
                    break
                t += 1
            pext[u << 8 | x] = v
            reps[u << 8 | x] = rp
            toprun[u << 8 | x] = t
            if x == 0:
                break
            x = (x - 1) & u
    duck = [0] * 65536
    for m in range(256):
        mine = [r for r in range(8) if m >> r & 1]
        free = 255 ^ m
        o = free
        while True:
            theirs = [r for r in range(8) if o >> r & 1]
            if all(mine[i] < theirs[i] for i in range(min(len(mine), len(theirs)))):
                duck[m << 8 | o] = 1
            if o == 0:
                break
            o = (o - 1) & free
    high = [b.bit_length() - 1 for b in range(256)]
    count = [b.bit_count() for b in range(256)]
    return pext, reps, toprun, high, count, duck


_TABLES = _build()
# bytes, not lists, where every value is a byte: the compiled kernel reads a byte of a
# bytes object as a machine integer, and an item of a list as an object to unbox
PEXT: Final[bytes] = bytes(_TABLES[0])
REPS: Final[bytes] = bytes(_TABLES[1])
TOPRUN: Final[bytes] = bytes(_TABLES[2])
HIGH: Final[list[int]] = _TABLES[3]
COUNT: Final[bytes] = bytes(_TABLES[4])
DUCK: Final[bytes] = bytes(_TABLES[5])
