"""Progress on standard error for the commands that can take over a second.

Shown only when standard error is a terminal, and only once the work has taken
a second (``DELAY``): a quick run, a pipe or a log file gets nothing, so the
output a script reads is the same either way. ``--no-progress`` (``simulate``)
or ``--json`` turn it off.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tqdm import tqdm

__all__ = ["DELAY", "counter", "shown", "working"]

DELAY = 1.0
"""Seconds of work before any progress is drawn."""


def shown(quiet: bool = False) -> bool:
    """Whether progress is drawn: not asked away and standard error a terminal."""
    return not quiet and sys.stderr.isatty()


def counter(total: int, unit: str, quiet: bool = False) -> Any:
    """A tqdm bar over ``total`` units on standard error (None when not shown): cleared at the end."""
    if not shown(quiet):
        return None
    return tqdm(total=total, unit=unit, file=sys.stderr, leave=False, delay=DELAY)


@contextmanager
def working(label: str, quiet: bool = False) -> Iterator[None]:
    """``label`` and the seconds spent, redrawn on standard error while a call with no steps of its
    own (a long-game solve) runs; the line is wiped when it ends."""
    if not shown(quiet):
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    drawn = False

    def draw() -> None:
        nonlocal drawn
        if done.wait(DELAY):
            return
        while not done.is_set():
            sys.stderr.write(f"\r{label} {time.monotonic() - start:.0f} s")
            sys.stderr.flush()
            drawn = True
            done.wait(0.5)

    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if drawn:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
