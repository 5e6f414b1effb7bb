"""Two processes' copies of one room over one store: a copy refused by the store is read back whole,
and a task that took the copy before that still catches up the copy that replaced it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shutthebox.core.errors import IllegalActionError
from shutthebox.core.fair import FairDice
from shutthebox.core.rules import Rules
from shutthebox.storage import Database
from shutthebox.storage.rooms import RoomRepository
from shutthebox.web.copies import Copies
from shutthebox.web.grouped import GroupCommit
from shutthebox.web.hub import LocalHub
from shutthebox.web.seats import SeatSpec
from shutthebox.web.tables import new_room


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[tuple[Copies, Copies]]:
    """The copies of two processes, A and B, over one SQLite store, each telling nobody."""

    async def tell(_news: Any) -> None:
        return None

    with Database.open(f"sqlite:///{tmp_path / 'rooms.db'}") as database:
        kept = RoomRepository(database)

        def process() -> Copies:
            return Copies(kept, LocalHub(), clock=lambda: 0.0, idle_seconds=600, tell=tell,
                          writes=GroupCommit(kept))

        yield process(), process()


async def test_a_copy_taken_before_it_was_read_back_is_caught_up_as_the_copy_that_replaced_it(
    processes: tuple[Copies, Copies], caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: B's bot worker took B's copy, then waited for its lock while a player's roll on B
    was refused by the store (A had rolled first) and the copy read back whole. The worker then
    caught up the copy it had taken, which held the refused roll: its actions did not follow on
    from the store's, so it was read back whole a second time, with a warning in the log
    ("caught up by a whole replay") that two processes met in a normal game."""
    a, b = processes
    ana = SeatSpec(kind="here", name="Ana")
    room, token = new_room(a.new_code(), Rules.preset("classic"), [ana], now=0.0)
    room.dice = FairDice()
    room.start_if_ready()
    on_a = await a.add(room)
    on_b = await b.fresh(room.code)
    on_a, _ = await a.change(on_a, lambda room: room.act(token, "roll", now=0.0))  # B does not hear of it
    taken = b.find(room.code)  # what B's worker holds while it waits for the copy's lock
    assert taken is on_b
    with pytest.raises(IllegalActionError, match="nothing is to be rolled now"):  # B rolls too: refused
        await b.change(on_b, lambda room: room.act(token, "roll", now=0.0))
    assert taken.stale and b.find(room.code) is not taken  # read back whole: a new copy
    with caplog.at_level(logging.WARNING, logger="shutthebox"):
        async with taken.lock:  # as the worker does, once the lock is its
            caught = await b.catch_up(taken)
    assert [record.getMessage() for record in caplog.records] == []
    assert caught is b.find(room.code)
    assert (caught.version, len(caught.room.log)) == (on_a.version, len(on_a.room.log))
