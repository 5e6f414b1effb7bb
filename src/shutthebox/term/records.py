"""``play --save``: each game of a sitting written to a file of its own the moment it ends.

Written as each game ends, not when the player leaves: a terminal closed or a process ended by a
signal after a finished game still leaves its record. A write that fails is said at once, in the
game, and again when the sitting ends; the command then exits non-zero.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shutthebox.core.record import GameRecord
from shutthebox.i18n import _

__all__ = ["RecordFiles", "Written"]


@dataclass(frozen=True, slots=True)
class Written:
    """One record's file, and why it could not be written (None: it was)."""

    path: Path
    error: str | None
    verifiable: bool = False

    def lines(self) -> list[str]:
        """What to say of it, in the game's log."""
        if self.error is not None:
            return [_("The game record could not be written to {path}: {error}").format(
                path=self.path, error=self.error
            )]
        said = [_("Game record saved to {path}").format(path=self.path)]
        if self.verifiable:
            said.append(_("Anyone can check its dice: shutthebox verify {path}").format(path=self.path))
        return said


class RecordFiles:
    """The records of a sitting, each to the file ``where(n)`` names for the n-th (a record written
    once is not written again); the games end on one thread, their records are written on another."""

    def __init__(self, where: Callable[[int], Path]) -> None:
        self.where = where
        self.written: list[Written] = []
        self._done: set[str] = set()
        self._lock = threading.Lock()

    @property
    def failed(self) -> bool:
        """Whether some record could not be written."""
        return any(file.error is not None for file in self.written)

    def write(self, record: GameRecord) -> Written | None:
        """Write ``record`` to the next file (None if it was written already)."""
        text = record.dumps()
        with self._lock:
            if text in self._done:
                return None
            self._done.add(text)
            path = self.where(len(self.written) + 1)
            try:
                record.save(path)
            except OSError as error:
                written = Written(path, str(error.strerror or error))
            else:
                fairness = record.fairness
                written = Written(path, None, verifiable=fairness is not None and fairness.revealed)
            self.written.append(written)
            return written
