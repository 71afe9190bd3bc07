"""The one reader of JSON text for both games: ``json.loads`` whose every failure (bad
syntax, nesting too deep for the parser, an integer too long to read) is one line naming
where and what, raised as the caller's own input error (each game's engine has its
``MalformedError``). It imports nothing from the project."""
from __future__ import annotations

import json
import sys
from typing import Any


class _TooLong:
    """An integer of more digits than Python reads (``sys.get_int_max_str_digits``): kept
    as its length, so that the error can name the field that holds it."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def parse_json(text: str, where: str, error: type[ValueError]) -> Any:
    """``text`` read as JSON; a fault is ``error`` (one line: ``where``, then the line (for
    text of several lines) and column of the fault, or why; for a number too long to read,
    the field that holds it)."""
    limit = sys.get_int_max_str_digits() or None
    found: list[int] = []

    def read_int(s: str) -> int | _TooLong:
        digits = len(s.lstrip("-"))
        if limit is not None and digits > limit:
            found.append(digits)
            return _TooLong(digits)
        return int(s)

    try:
        obj = json.loads(text, parse_int=read_int)
    except json.JSONDecodeError as e:
        at = f"line {e.lineno} column {e.colno}" if "\n" in text.strip() else f"column {e.colno}"
        raise error(f"{where}: invalid JSON at {at}: {e.msg}") from None
    except RecursionError:
        raise error(f"{where}: invalid JSON: nested too deeply") from None
    except ValueError as e:  # (no other ValueError is known; kept one line all the same)
        raise error(f"{where}: invalid JSON: {e}") from None
    if found:
        path, digits = _first_too_long(obj)
        raise error(f"{where}: {path}: a number of {digits} digits, far too large for any field")
    return obj


def _first_too_long(obj: Any) -> tuple[str, int]:
    """Where the first number too long to read is, as ``deck[3].rank`` (``the value`` for
    the whole text), and its digits."""
    todo: list[tuple[str, Any]] = [("", obj)]
    while todo:
        path, x = todo.pop(0)
        if isinstance(x, _TooLong):
            return path or "the value", x.digits
        if isinstance(x, dict):
            todo.extend((f"{path}.{k}" if path else str(k), v) for k, v in x.items())
        elif isinstance(x, list):
            todo.extend((f"{path}[{i}]", v) for i, v in enumerate(x))
    return "the value", 0  # pragma: no cover  (found says there is one)
