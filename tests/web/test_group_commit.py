"""`GroupCommit`: the room writes that come while a flush runs go together in the next commit, each
acknowledged only once its group is on disk; a conflict is its own writer's, a failed group every
writer's of that group."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from shutthebox.storage import Database
from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, Run, Write
from shutthebox.web import grouped
from shutthebox.web.grouped import GroupCommit


def room(code: str, version: int = 0) -> KeptRoom:
    return KeptRoom(code=code, status="playing", setup={}, dice=None, seats=[], version=version)


class Gated(RoomRepository):
    """A store whose first group waits at a gate, so the writes that come meanwhile queue up."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self.gate = threading.Event()
        self.groups: list[list[str]] = []

    def keep_group(self, writes: Any, run: Run | None = None) -> list[int | ConflictError]:
        if not self.groups:
            self.gate.wait(10)
        self.groups.append([kept.code for kept, _events in writes])
        return super().keep_group(writes, run)


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

        def keep_group(self, writes: list[Write], run: Run | None = None) -> list[int | ConflictError]:
            Broken.calls += 1
            if Broken.calls == 1:
                raise OSError("disk full")
            return super().keep_group(writes, run)

    writes = GroupCommit(Broken(database))
    lost = await asyncio.gather(writes.keep(room("AAAAA"), []), writes.keep(room("BBBBB"), []),
                                return_exceptions=True)
    assert all(isinstance(error, OSError) for error in lost)
    assert await writes.keep(room("CCCCC"), []) == 1
    await writes.drain()
    assert Broken(database).get("AAAAA") is None and Broken(database).get("CCCCC") is not None


async def test_on_sqlite_a_group_runs_its_statements_in_the_servers_thread_and_commits_in_a_worker(
    database: Database,
) -> None:
    """Each SQLite statement lets the interpreter's lock go; run in a worker thread, each then waits
    for the server's busy thread to give it back (a flush of 20 actions: 90 ms for 17 of CPU)."""
    server_thread = threading.get_ident()
    statements: list[int] = []
    commits: list[int] = []
    event.listen(database.engine, "commit", lambda _connection: commits.append(threading.get_ident()))

    def then(_connection: Any) -> dict[str, Any]:  # a room's own work runs among the group's statements
        statements.append(threading.get_ident())
        return {"status": "over"}

    rooms = [room(f"ROOM{n}") for n in range(3)]
    for kept in rooms:
        kept.then = then
    versions = await asyncio.gather(*(GroupCommit(RoomRepository(database)).keep(kept, []) for kept in rooms))
    assert versions == [1, 1, 1]
    assert statements == [server_thread] * 3
    assert commits and server_thread not in commits  # the wait for the disk is never the server's


async def test_a_group_waits_for_another_writer_in_its_worker_thread_never_in_the_servers(
    database: Database, tmp_path: Path,
) -> None:
    """The group takes SQLite's write lock before its statements run in the server's thread: with
    another connection writing, the server goes on (turns of its loop keep coming) until it commits."""
    other = sqlite3.connect(tmp_path / "rooms.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    writes = GroupCommit(RoomRepository(database))
    kept = asyncio.create_task(writes.keep(room("AAAAA"), []))
    turns = 0
    for _ in range(50):
        await asyncio.sleep(0.01)
        turns += 1
    assert not kept.done() and turns == 50  # the loop kept turning while the group waited
    other.execute("COMMIT")
    other.close()
    assert await kept == 1


def test_a_loop_that_stops_during_a_flush_leaves_no_worker_waiting_nor_the_lock_held(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forced exit ends the loop without the last group's drain. The worker, which needs the loop
    to run its statements, then gets an error and rolls back (none of the group was answered);
    before, it waited for good, holding SQLite's write lock, and the process could not exit."""
    monkeypatch.setattr(grouped, "LOOP_CHECK_SECONDS", 0.05)
    finished = threading.Event()
    outcome: list[BaseException] = []

    class Watched(Gated):
        def keep_group(self, writes: Any, run: Run | None = None) -> list[int | ConflictError]:
            try:
                return super().keep_group(writes, run)
            except BaseException as error:
                outcome.append(error)
                raise
            finally:
                finished.set()

    store = Watched(database)
    loop = asyncio.new_event_loop()
    pending: list[asyncio.Task[int]] = []

    async def serve_then_stop() -> None:
        pending.append(asyncio.create_task(GroupCommit(store).keep(room("AAAAA"), [])))
        await asyncio.sleep(0.05)  # the flush's worker waits at the gate

    try:
        loop.run_until_complete(serve_then_stop())  # the loop stops, with the flush under way
        store.gate.set()  # the worker goes on, to a loop that no longer runs
        assert finished.wait(10), "the worker still waits for the stopped loop"
        assert outcome and "stopped" in str(outcome[0])
        other = sqlite3.connect(tmp_path / "rooms.db", isolation_level=None, timeout=0)
        other.execute("BEGIN IMMEDIATE")  # the write lock was let go
        other.execute("ROLLBACK")
        other.close()
        assert store.get("AAAAA") is None  # rolled back
    finally:
        store.gate.set()
        loop.close()
