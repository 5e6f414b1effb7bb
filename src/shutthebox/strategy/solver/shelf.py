"""Solved rounds kept on disk, so a server solves a large round once per rule set, not once per start.

A round of eight on 12 tiles takes the solver 10 to 20 s and keeps about 70 MB of tables (every seat's
turn in every state). The shelf writes those tables as they are (``.npy``, float64: what is read
back is bit for bit what was solved) into a folder of their own per round, named by everything the
round depends on, with a small ``round.json`` of its other fields. Reading maps the files into
memory (``mmap_mode="r"``): a loaded round costs no solve, and the worker processes of one machine
share its pages. A folder appears whole or not at all (written aside, then renamed), so a crash
mid-write leaves nothing half read; one that cannot be read is solved again. The shelf holds at most
``max_bytes``: a round kept past it makes room by dropping the rounds read least recently (a server
meets new rule sets as fast as its clients make rooms of them: about 250 MB a rule set on 12 tiles).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from shutthebox.strategy.solver.rounds import Round
from shutthebox.strategy.solver.solution import Objective
from shutthebox.strategy.solver.turn import BoolArray, FloatArray, TurnValues

__all__ = ["FORMAT", "MAX_BYTES", "RoundShelf"]

FORMAT = 1
"""The layout of a shelved round; a folder of another layout is solved again."""
MAX_BYTES = 2_000_000_000
"""What a shelf holds at most by default: the rounds of three to eight of eight rule sets on 12 tiles."""

TurnOf = Callable[[FloatArray, BoolArray, FloatArray], TurnValues]
"""A seat's turn from its kept arrays (values, one-die choices, failed-roll payoffs): the rest of a
turn (its board, its rules) follows from the round's rules."""


class RoundShelf:
    """The solved rounds kept in ``folder``, each under a name that says all it depends on."""

    def __init__(self, folder: Path, max_bytes: int = MAX_BYTES) -> None:
        self.folder = folder
        self.max_bytes = max_bytes

    def _place(self, name: str) -> Path:
        digest = hashlib.sha256(f"{FORMAT}:{name}".encode()).hexdigest()[:32]
        return self.folder / f"round-{digest}"

    def get(self, name: str, turn_of: TurnOf) -> Round | None:
        """The round kept under ``name``, its tables mapped from disk; None if none is (or it cannot
        be read: then it is solved again, and kept anew)."""
        place = self._place(name)
        try:
            meta = json.loads((place / "round.json").read_text(encoding="utf-8"))
            if meta["format"] != FORMAT or meta["name"] != name:
                return None
            turns = tuple(
                turn_of(*(np.load(place / f"seat{seat}.{part}.npy", mmap_mode="r")
                          for part in ("values", "one_die", "fail")))
                for seat in range(meta["players"])
            )
            read = Round(
                meta["players"], Objective(meta["objective"]), tuple(meta["posted"]), tuple(meta["seats"]),
                turns, meta["sweeps"], meta["residual"],
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
        with contextlib.suppress(OSError):
            os.utime(place)  # read now: the last to go when room is made
        return read

    def put(self, name: str, solved: Round) -> None:
        """Keep ``solved`` under ``name`` (a round kept already is left as it is). A disk that refuses
        leaves the shelf without it: the round is solved again when next needed."""
        place = self._place(name)
        if place.exists():
            return
        parts = [(turn.values, turn.one_die, turn.fail.table) for turn in solved.turns]
        size = sum(array.nbytes for arrays in parts for array in arrays)
        if size > self.max_bytes or not self._room_for(size):
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            aside = Path(tempfile.mkdtemp(prefix=".writing-", dir=self.folder))
        except OSError:
            return
        try:
            for seat, turn in enumerate(solved.turns):
                for part, array in (("values", turn.values), ("one_die", turn.one_die),
                                    ("fail", turn.fail.table)):
                    np.save(aside / f"seat{seat}.{part}.npy", np.ascontiguousarray(array))
            meta = {
                "format": FORMAT, "name": name, "players": solved.players, "objective": str(solved.objective),
                "posted": list(solved.posted), "seats": list(solved.seats), "sweeps": solved.sweeps,
                "residual": solved.residual,
            }
            (aside / "round.json").write_text(json.dumps(meta), encoding="utf-8")
            for path in aside.iterdir():  # on disk before the folder is named: whole after a power cut
                with path.open("rb") as written:
                    os.fsync(written.fileno())
            aside.rename(place)
        except OSError:  # full, read-only, or another process named it first: nothing is lost
            shutil.rmtree(aside, ignore_errors=True)

    def _room_for(self, size: int) -> bool:
        """Make room for ``size`` more bytes, dropping the rounds read least recently; whether there
        is room now (another process may be dropping the same)."""
        kept = []
        with contextlib.suppress(OSError):
            for place in self.folder.glob("round-*"):
                with contextlib.suppress(OSError):
                    used = place.stat().st_mtime
                    kept.append((used, place, sum(path.stat().st_size for path in place.iterdir())))
        total = sum(bytes_ for _used, _place, bytes_ in kept)
        for _used, place, bytes_ in sorted(kept):
            if total + size <= self.max_bytes:
                break
            shutil.rmtree(place, ignore_errors=True)  # a process reading it keeps its mapped pages
            total -= bytes_
        return total + size <= self.max_bytes
