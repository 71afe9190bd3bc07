"""Games named by hanab.live rather than given: a shared-replay link (decoded here, no
network), a game number or a replay address (``149251``, ``https://hanab.live/replay/149251``:
fetched from the site's export endpoint, ``/export/{id}``). ``HANABI_SITE`` names another
site (a mirror, or a local server in the tests); without network, a one-line error."""
from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request

from .errors import MalformedError
from .hanablive import GameRecord, game_from_json
from .links import game_from_link, is_link

SITE = "https://hanab.live"
REPLAY = re.compile(r"^(?:https?://[^/\s]+/(?:replay|shared-replay)/)?(?P<id>\d{1,12})(?:#\d+)?/?$")
TIMEOUT = 15.0  # seconds to wait for the site
MAX_BYTES = 2 * 1024 * 1024


def site() -> str:
    return os.environ.get("HANABI_SITE", SITE).rstrip("/")


def game_number(text: str) -> int | None:
    """The game number ``text`` names (``149251``, ``.../replay/149251``), or None."""
    m = REPLAY.match(text.strip())
    return int(m["id"]) if m else None


def _looks_like_link(text: str) -> bool:
    """A shared-replay link, or what is meant as one (then :func:`game_from_link` says what is wrong)."""
    return is_link(text) or "shared-replay-json/" in text


def is_reference(text: str) -> bool:
    """``text`` names a game on the site: a shared-replay link, a game number or a replay
    address."""
    return _looks_like_link(text) or game_number(text) is not None


def load_reference(text: str) -> GameRecord:
    """The game ``text`` names (see :func:`is_reference`)."""
    if _looks_like_link(text):
        return game_from_link(text)
    number = game_number(text)
    if number is None:
        raise MalformedError(f"{text[:80]!r}: not a hanab.live game number, replay address or shared-replay link")
    return fetch_game(number)


def fetch_game(number: int) -> GameRecord:
    """Game ``number`` as the site exports it."""
    url = f"{site()}/export/{number}"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as r:
            data = r.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            raise MalformedError(f"hanab.live game {number}: no such game ({url})") from None
        raise MalformedError(f"hanab.live game {number}: the site answered {e.code} {e.reason} ({url})") from None
    except (urllib.error.URLError, OSError) as e:
        why = getattr(e, "reason", None) or e
        raise MalformedError(f"hanab.live game {number}: cannot reach {site()} (offline?): {why}") from None
    if len(data) > MAX_BYTES:
        raise MalformedError(f"hanab.live game {number}: the export is larger than 2 MB")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MalformedError(f"hanab.live game {number}: the site's answer is not a game (not JSON)") from None
    rec = game_from_json(obj, f"hanab.live game {number}")
    rec.state_after()
    return rec
