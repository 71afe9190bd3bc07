"""JSON values for the fuzzer: emitting JSON with raw tokens and repeated keys (``Raw``, ``Dup``,
:func:`emit`, :func:`encode`), odd strings, wrong values of every type, nesting bombs, random
actions and custom-variant specs.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from solver.hanabi.rules import BUILTIN


class Raw:
    """JSON text emitted verbatim: NaN, 1e999, a nesting bomb, a huge array."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:40]!r}{'...' if len(self.text) > 40 else ''})"


class Dup:
    """A JSON object with repeated keys (a list of (key, value) pairs)."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list):
        self.pairs = pairs


def emit(node: Any, ensure_ascii: bool = True, indent: bool = False) -> str:
    out: list[str] = []
    sep = ",\n " if indent else ", "

    def w(n: Any) -> None:
        if isinstance(n, Raw):
            out.append(n.text)
        elif isinstance(n, Dup | dict):
            items = n.pairs if isinstance(n, Dup) else list(n.items())
            out.append("{")
            for i, (k, v) in enumerate(items):
                if i:
                    out.append(sep)
                out.append(json.dumps(k if isinstance(k, str) else str(k), ensure_ascii=ensure_ascii))
                out.append(": ")
                w(v)
            out.append("}")
        elif isinstance(n, list | tuple):
            out.append("[")
            for i, x in enumerate(n):
                if i:
                    out.append(sep)
                w(x)
            out.append("]")
        else:
            out.append(json.dumps(n, ensure_ascii=ensure_ascii))

    w(node)
    return "".join(out)


def encode(node: Any, rng: random.Random | None = None) -> bytes:
    """JSON bytes; with ``rng``, sometimes raw UTF-8 (lone surrogates become the bytes
    of an encoded surrogate, which is not UTF-8) and sometimes indented."""
    ascii_only = rng is None or rng.random() < 0.75
    indent = rng is not None and rng.random() < 0.3
    return emit(node, ensure_ascii=ascii_only, indent=indent).encode("utf-8", "surrogatepass")



SURROGATES = ["\ud800", "\udfff", "\udc80", "\udbff", "\ud83d", "\ude00"]
ARG_SURROGATES = ["\udcff", "\udc80", "\udce9"]  # what a non-UTF-8 byte in argv decodes to
ODD_CHARS = ["\x00", "\n", "\r", "\t", "\x0b", "\x0c", "\x1b[31m", "\u2028", "\u0085", "\ufeff", "\u202e", "😀",
             "é", "İ", "\u0301", "١", "Ⅻ", "\uffff", "\\", '"', "'", "%s", "{0}", "{}"]


def nest(depth: int, kind: str = "list") -> Raw:
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a": ' * depth + "1" + "}" * depth)


def odd_string(rng: random.Random, base: str = "") -> str:
    r = rng.random()
    if r < 0.35:
        s = rng.choice(SURROGATES)
        i = rng.randint(0, len(base))
        return base[:i] + s + base[i:]
    if r < 0.7:
        c = rng.choice(ODD_CHARS)
        i = rng.randint(0, len(base))
        return base[:i] + c + base[i:]
    if r < 0.8:
        return base * rng.randint(2, 50) if base else "x" * rng.choice([1000, 100_000])
    if r < 0.9:
        return base.upper() if rng.random() < 0.5 else " " + base + " "
    return ""


def wrong_value(rng: random.Random, old: Any) -> Any:
    """A value of another type or out of range, near ``old`` when it can be."""
    choices: list[Callable[[], Any]] = [
        lambda: None, lambda: True, lambda: False,
        lambda: 0, lambda: 1, lambda: -1, lambda: 2, lambda: 5, lambda: 6, lambda: 99,
        lambda: 10**30, lambda: -10**30, lambda: 2**63, lambda: 2**64, lambda: -2**63 - 1,
        lambda: 1.5, lambda: 0.0, lambda: -0.0, lambda: 1e308, lambda: 1e-320,
        lambda: Raw("NaN"), lambda: Raw("Infinity"), lambda: Raw("-Infinity"), lambda: Raw("1e999"),
        lambda: Raw("-1e999"), lambda: Raw("1E400"), lambda: Raw("1.0"), lambda: Raw("-0"), lambda: Raw("2e0"),
        lambda: Raw("9" * rng.choice([20, 4300, 5000])),
        lambda: "", lambda: rng.choice(SURROGATES), lambda: odd_string(rng, "x"),
        lambda: [], lambda: {}, lambda: [old], lambda: {"a": old}, lambda: [None], lambda: [[]],
        lambda: nest(rng.choice([10, 200, 500]), rng.choice(["list", "dict"])),
        lambda: nest(rng.randint(880, 1000), rng.choice(["list", "dict"])),
        lambda: nest(rng.choice([1500, 3000, 100_000]), rng.choice(["list", "dict"])),
    ]
    if isinstance(old, bool):
        choices += [lambda: not old, lambda: int(old), lambda: str(old).lower()] * 3
    elif isinstance(old, int):
        choices += [lambda: str(old), lambda: float(old), lambda: old + 0.5, lambda: -old, lambda: old + 1,
                    lambda: old - 1, lambda: old * 10**9, lambda: [old, old], lambda: Raw(f"{old}.0"),
                    lambda: Raw(f"{old}e0"), lambda: bool(old % 2)] * 2
    elif isinstance(old, str):
        choices += [lambda: odd_string(rng, old), lambda: odd_string(rng, old), lambda: [old],
                    lambda: len(old), lambda: old.lower(), lambda: old + "\ud800",
                    lambda: {"name": old}] * 2
    elif isinstance(old, list):
        choices += [lambda: {str(i): x for i, x in enumerate(old)}, lambda: old[:1], lambda: old + old,
                    lambda: [old], lambda: emit(old)[:200], lambda: len(old)] * 2
    elif isinstance(old, dict):
        choices += [lambda: list(old.values()), lambda: list(old.keys()), lambda: [old], lambda: emit(old)[:200],
                    lambda: {k: None for k in old}] * 2
    return rng.choice(choices)()


CUSTOM_KEYS = ("suits", "ranks", "handSize", "clueTokens", "strikes")


def random_custom(rng: random.Random) -> dict:
    spec = {"suits": rng.randint(1, 6), "ranks": sorted(rng.choice([1, 1, 1, 2, 2, 3, 3, 4, 4, 5])
                                                         for _ in range(rng.randint(1, 10))),
            "handSize": rng.randint(1, 6), "clueTokens": rng.randint(0, 10)}
    if rng.random() < 0.6:
        spec["strikes"] = rng.randint(1, 4)
    return spec


VARIANT_NAMES = sorted(BUILTIN) + ["no variant", "  No Variant  ", "NO VARIANT", "Nope", "", "Rainbow",
                                    "Black (7 Suits)", "No Variant\n", "No\u00a0Variant", "6 suits "]


def random_action(rng: random.Random, n_cards: int = 50, n_players: int = 5) -> dict:
    kind = rng.choice([0, 0, 1, 1, 2, 3, 4, 5, 6, -1])
    if kind in (0, 1):
        target = rng.choice([rng.randrange(max(1, n_cards)), n_cards, n_cards + 1, -1, 10**9, 10**30])
    else:
        target = rng.choice([rng.randrange(max(1, n_players)), n_players, -1, 99])
    value = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 9, -1, 10**30])
    act: dict[str, Any] = {"type": kind, "target": target, "value": value}
    if rng.random() < 0.2:
        del act["value"]
    return act


def short(v: Any, n: int = 60) -> str:
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."
