"""The analysis board in the browser (``hanabi serve``): a local web app above the library.

:func:`create_app` builds the Starlette application: the pages (``/``, ``/seed/{seed}``,
``POST /game``), the JSON API beside them (``/api/solve``, ``/api/review``,
``/api/chances``, ``/healthz``: the same objects as the commands' ``--json``), the static
files it serves itself (no network at run time). Heavy work runs in worker processes
(:mod:`.work`); the pages only read a game and draw it (:mod:`.board`).
"""
from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
