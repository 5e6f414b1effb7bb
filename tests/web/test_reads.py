"""`web.reads.read`: a local store's read runs in the server's own thread, another's in a worker
thread (a network round trip must not hold the event loop)."""

from __future__ import annotations

import threading
from pathlib import Path

from shutthebox.storage import Database
from shutthebox.storage.rooms import RoomRepository
from shutthebox.web.reads import read


class Remote:
    local = False


async def test_a_local_read_stays_in_this_thread_and_another_goes_to_a_worker(tmp_path: Path) -> None:
    here = threading.get_ident()
    with Database.open(f"sqlite:///{tmp_path / 'rooms.db'}") as database:
        rooms = RoomRepository(database)
        assert rooms.local
        assert await read(rooms, threading.get_ident) == here
        assert await read(rooms, rooms.held, None, "someone") == (0, 0)
    assert await read(Remote(), threading.get_ident) != here
