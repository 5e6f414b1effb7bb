"""`GroupCommit`: the room writes that come while a flush runs go together in the next commit, each
acknowledged only once its group is on disk; a conflict is its own writer's, a failed group every
writer's of that group."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from shutthebox.storage import Database
from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, Write
from shutthebox.web.grouped import GroupCommit


def room(code: str, version: int = 0) -> KeptRoom:
    return KeptRoom(code=code, status="playing", setup={}, dice=None, seats=[], version=version)


class Gated(RoomRepository):
    """A store whose first group waits at a gate, so the writes that come meanwhile queue up."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self.gate = threading.Event()
        self.groups: list[list[str]] = []

    def keep_group(self, writes: Any) -> list[int | ConflictError]:
        if not self.groups:
            self.gate.wait(10)
        self.groups.append([kept.code for kept, _events in writes])
        return super().keep_group(writes)


@pytest.fixture
def database(tmp_path: Path) -> Any:
    with Database.open(f"sqlite:///{tmp_path / 'rooms.db'}") as opened:
        yield opened


async def test_writes_that_come_during_a_flush_are_one_group_each_told_its_own_answer(
    database: Database,
) -> None:
    store = Gated(database)
    store.keep(room("TAKEN"))
    sizes: list[int] = []
    writes = GroupCommit(store, grouped=sizes.append)
    first = asyncio.create_task(writes.keep(room("FIRST"), [(0, {"seat": 0})]))
    await asyncio.sleep(0.05)  # the first group is at the gate; these queue behind it
    later = [asyncio.create_task(writes.keep(room(f"ROOM{n}"), [(0, {"seat": 0})])) for n in range(5)]
    stale = asyncio.create_task(writes.keep(room("TAKEN", version=7), []))
    await asyncio.sleep(0.05)
    assert not first.done() and not any(task.done() for task in later)  # nothing told before its commit
    store.gate.set()
    assert await first == 1
    assert [await task for task in later] == [1] * 5
    with pytest.raises(ConflictError):
        await stale
    assert store.groups == [["FIRST"], [f"ROOM{n}" for n in range(5)] + ["TAKEN"]]
    assert sizes == [1, 6]
    assert all(store.get(f"ROOM{n}") is not None for n in range(5))


async def test_a_group_the_store_cannot_write_fails_each_of_its_writers_and_the_next_group_goes_on(
    database: Database,
) -> None:
    class Broken(RoomRepository):
        calls = 0

        def keep_group(self, writes: list[Write]) -> list[int | ConflictError]:
            Broken.calls += 1
            if Broken.calls == 1:
                raise OSError("disk full")
            return super().keep_group(writes)

    writes = GroupCommit(Broken(database))
    lost = await asyncio.gather(writes.keep(room("AAAAA"), []), writes.keep(room("BBBBB"), []),
                                return_exceptions=True)
    assert all(isinstance(error, OSError) for error in lost)
    assert await writes.keep(room("CCCCC"), []) == 1
    await writes.drain()
    assert Broken(database).get("AAAAA") is None and Broken(database).get("CCCCC") is not None
