"""The one reader of JSON text for both games: ``json.loads`` whose every failure (bad
syntax, nesting too deep for the parser, an integer beyond Python's digit limit) is one
line naming where and what, raised as the caller's own input error (each game's engine has
its ``MalformedError``). It imports nothing from the project."""
from __future__ import annotations

import json
from typing import Any


def parse_json(text: str, where: str, error: type[ValueError]) -> Any:
    """``text`` read as JSON; a fault is ``error`` (one line: ``where``, then the line (for
    text of several lines) and column of the fault, or why)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        at = f"line {e.lineno} column {e.colno}" if "\n" in text.strip() else f"column {e.colno}"
        raise error(f"{where}: invalid JSON at {at}: {e.msg}") from None
    except RecursionError:
        raise error(f"{where}: invalid JSON: nested too deeply") from None
    except ValueError as e:  # e.g. an integer beyond Python's digit limit
        raise error(f"{where}: invalid JSON: {e}") from None
