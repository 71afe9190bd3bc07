"""A progress line for long batch commands: redrawn at most a few times a second, and
only on a terminal (a log file or a pipe gets nothing)."""
from __future__ import annotations

import sys
import time
from typing import TextIO

REDRAW = 0.25  # seconds between redraws


class Progress:
    """``Progress(total, label)``; ``update(n, item)`` after each item; ``close()`` at the
    end (or use it as a context manager). Silent unless ``file`` is a terminal."""

    def __init__(self, total: int, label: str, file: TextIO | None = None, *, clock=time.monotonic):
        self.total, self.label = total, label
        self.file = file if file is not None else sys.stderr
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._drawn = -REDRAW  # draw the first update at once
        self._width = 0
        try:
            self.live = bool(self.file.isatty())
        except (AttributeError, ValueError, OSError):
            self.live = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def update(self, n: int = 1, item: str | None = None) -> None:
        self.done += n
        if not self.live:
            return
        now = self.clock()
        if now - self._drawn >= REDRAW or self.done >= self.total:
            self._drawn = now
            self._draw(now, item)

    def _draw(self, now: float, item: str | None) -> None:
        elapsed = now - self.started
        pct = 100 * self.done / self.total if self.total else 100.0
        eta = ""
        if 0 < self.done < self.total and elapsed > 0:
            left = elapsed / self.done * (self.total - self.done)
            eta = f", about {_clock(left)} left"
        text = f"{self.label}: {self.done}/{self.total} ({pct:.0f}%){eta}" + (f"  {item}" if item else "")
        text = text[:200]
        pad = max(0, self._width - len(text))
        self._width = len(text)
        try:
            self.file.write("\r" + text + " " * pad)
            self.file.flush()
        except (OSError, ValueError):
            self.live = False  # a terminal gone away: the work goes on

    def close(self) -> None:
        if self.live and self._width:
            try:
                self.file.write("\n")
                self.file.flush()
            except (OSError, ValueError):
                pass
        self.live = False


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
