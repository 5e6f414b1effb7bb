"""`RoomRepository`: rooms in play kept with their actions; one write per version of a room (the
compare-and-set that lets several server processes share rooms); tickets claimed once."""

from __future__ import annotations

import socket
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url

from shutthebox.storage import Database
from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository, token_hash


def kept(code: str = "ABCDE", **more: object) -> KeptRoom:
    seats = [{"index": 0, "kind": "here", "name": "Ana", "token_hash": token_hash("t0k3n")}]
    return KeptRoom(code=code, status="playing", setup={"rules": {}}, dice=None, seats=seats, **more)  # type: ignore[arg-type]


def test_a_room_and_its_actions_come_back_in_order(database: Database) -> None:
    rooms = RoomRepository(database)
    room = kept()
    room.version = rooms.keep(room, [(0, {"seat": 0, "roll": [3, 4]})])
    room.version = rooms.keep(room, [(1, {"seat": 0, "move": [7]}), (2, {"seat": 0, "roll": [1, 1]})])
    back = rooms.get("ABCDE")
    assert back is not None and back.version == room.version == 2
    roll, move, again = back.events
    assert (roll["roll"], move["move"], again["roll"]) == ([3, 4], [7], [1, 1])
    assert back.seats[0]["token_hash"] == token_hash("t0k3n") and "t0k3n" not in str(back)
    assert rooms.get("ZZZZZ") is None
    later = rooms.get("ABCDE", after=2)  # the actions after a point: a copy catching up
    assert later is not None and (later.first_event, later.events) == (2, [{"seat": 0, "roll": [1, 1]}])


def test_two_writers_cannot_both_take_one_place_in_a_rooms_history(database: Database) -> None:
    rooms = RoomRepository(database)
    room = kept()
    rooms.keep(room, [(0, {"seat": 0, "roll": [3, 4]})])
    with pytest.raises(ConflictError):  # a second new room under the same code
        rooms.keep(room, [(0, {"seat": 0, "roll": [6, 6]})])
    assert rooms.get("ABCDE").events == [{"seat": 0, "roll": [3, 4]}]  # type: ignore[union-attr]


def test_a_write_over_a_version_another_writer_changed_is_refused_and_changes_nothing(
    database: Database,
) -> None:
    """Two processes holding the same version of a room: the first write wins, the second (even one
    that adds no action, such as a join) is refused whole."""
    rooms = RoomRepository(database)
    first = kept()
    version = rooms.keep(first)
    mine, theirs = replace(first, version=version), replace(first, version=version)
    rooms.keep(replace(theirs, seats=[*theirs.seats, {"index": 1, "name": "Luis"}]), [(0, {"seat": 0})])
    with pytest.raises(ConflictError):
        rooms.keep(replace(mine, seats=[*mine.seats, {"index": 1, "name": "Eva"}]), [(0, {"seat": 1})])
    back = rooms.get("ABCDE")
    assert back is not None and back.version == version + 1
    assert back.seats[1]["name"] == "Luis" and back.events == [{"seat": 0}]


def test_rooms_come_due_in_order_and_closing_spares_one_touched_since(database: Database) -> None:
    rooms = RoomRepository(database)
    old = datetime.now(UTC) - timedelta(hours=3)
    for code, due in (("AAAAA", 50.0), ("BBBBB", 10.0), ("CCCCC", None), ("DDDDD", 500.0)):
        rooms.keep(kept(code, due_at=due, touched_at=old, owner="me"))
    assert rooms.due(100.0) == ["BBBBB", "AAAAA"]
    rooms.reschedule("BBBBB", 1, 1000.0)
    rooms.reschedule("AAAAA", 7, 1000.0)  # not at that version: left as it is
    assert rooms.due(100.0) == ["AAAAA"] and rooms.held(None, "me") == (0, 4)
    rooms.keep(kept("DDDDD", version=1))  # touched now
    gone = rooms.forget(["AAAAA", "DDDDD", "ZZZZZ"], untouched_since=datetime.now(UTC) - timedelta(hours=1))
    assert gone == ["AAAAA"] and rooms.get("AAAAA") is None and rooms.get("DDDDD") is not None


def test_a_ticket_is_claimed_once_and_only_in_time(database: Database) -> None:
    rooms = RoomRepository(database)
    now = datetime.now(UTC)
    rooms.commit("ticket-1", b"\x01" * 32, now)
    rooms.commit("ticket-2", b"\x02" * 32, now - timedelta(hours=1))
    assert rooms.claim("ticket-1", now - timedelta(minutes=15)) == b"\x01" * 32
    assert rooms.claim("ticket-1", now - timedelta(minutes=15)) is None  # once
    assert rooms.claim("ticket-2", now - timedelta(minutes=15)) is None  # too late
    assert rooms.forget(["ABCDE"]) == []  # forgetting what is not there is no error


def test_a_read_that_a_write_crosses_returns_the_row_and_the_actions_of_one_version(
    database: Database,
) -> None:
    """A room is read in two statements (its row, then its actions). At PostgreSQL's READ COMMITTED,
    and in SQLite where a SELECT opens no transaction, each statement sees the data committed when it
    starts: another process's write landing between them gave the old row with the new action (a
    copy at version 6 holding version 7's roll, CI of stop 22). The read must return one version."""
    from sqlalchemy import event

    rooms, writer = RoomRepository(database), RoomRepository(database)
    room = kept()
    room.version = rooms.keep(room, [(0, {"seat": 0, "roll": [3, 4]})])
    crossed: list[int] = []

    def write_between(conn: object, cursor: object, statement: str, *args: object) -> None:
        reading_actions = statement.lstrip().upper().startswith("SELECT") and "room_events" in statement
        if reading_actions and not crossed:  # the row is read; the actions are about to be
            crossed.append(0)
            crossed[0] = writer.keep(replace(room, status="over"), [(1, {"seat": 0, "move": [7]})])

    event.listen(database.engine, "before_cursor_execute", write_between)
    try:
        back = rooms.get("ABCDE")
    finally:
        event.remove(database.engine, "before_cursor_execute", write_between)
    assert crossed == [2]  # the write did land between the two statements
    assert back is not None
    assert (back.version, back.status, len(back.events)) == (2, "over", 2)


def commits_of(database: Database) -> list[int]:
    """A list that grows by one at each commit of ``database`` (the waits for its disk)."""
    seen: list[int] = []
    event.listen(database.engine, "commit", lambda _connection: seen.append(1))
    return seen


def test_a_group_of_writes_is_one_commit_and_a_conflict_in_it_spares_the_others(database: Database) -> None:
    rooms = RoomRepository(database)
    writes = [
        (kept(code), [(0, {"seat": 0, "roll": [n, 1]})])
        for n, code in enumerate(["AAAAA", "BBBBB", "CCCCC"], 1)
    ]
    versions = rooms.keep_group(writes)
    assert versions == [1, 1, 1]
    commits = commits_of(database)
    stale = replace(writes[1][0], version=0 + 5)  # a version the store never held: another writer's
    moved = [
        (replace(writes[0][0], version=1, status="over"), [(1, {"seat": 0, "move": [2]})]),
        (stale, [(1, {"seat": 0, "move": [9]})]),
        (replace(writes[2][0], version=1), [(1, {"seat": 0, "move": [4]})]),
    ]
    first, refused, third = rooms.keep_group(moved)
    assert len(commits) == 1  # one transaction for the three
    assert (first, third) == (2, 2) and isinstance(refused, ConflictError)
    assert rooms.get("AAAAA").status == "over"  # type: ignore[union-attr]
    assert rooms.get("BBBBB").events == [{"seat": 0, "roll": [2, 1]}]  # type: ignore[union-attr]
    assert rooms.get("CCCCC").events[-1] == {"seat": 0, "move": [4]}  # type: ignore[union-attr]


def test_a_place_taken_in_a_group_has_the_group_written_one_by_one(database: Database) -> None:
    """A new room under a code the store holds breaks the group's transaction (PostgreSQL voids it
    whole): the group is written again write by write, and only that one is refused."""
    rooms = RoomRepository(database)
    rooms.keep(kept("AAAAA"))
    taken, fresh = rooms.keep_group(
        [(kept("AAAAA"), [(0, {"seat": 0})]), (kept("DDDDD"), [(0, {"seat": 0})])]
    )
    assert isinstance(taken, ConflictError) and fresh == 1
    assert rooms.get("AAAAA").events == [] and rooms.get("DDDDD").events == [{"seat": 0}]  # type: ignore[union-attr]


def test_what_play_does_not_change_is_not_written_again(database: Database) -> None:
    """The setup, the dice and the seats are written only when they differ from the room as last kept."""
    rooms = RoomRepository(database)
    first = kept()
    first.version = rooms.keep(first)
    later = replace(first, status="over", seats=[{"index": 0, "name": "Not written"}])
    later.settled = frozenset({"seats", "setup", "dice"})  # as if equal to what is kept: left alone
    rooms.keep(later)
    back = rooms.get("ABCDE")
    assert back is not None and back.status == "over" and back.seats == first.seats
    assert replace(first).settled_since(first).settled == {"setup", "dice", "seats"}
    assert replace(first, seats=[]).settled_since(first).settled == {"setup", "dice"}
    assert replace(first).settled_since(None).settled == frozenset()


class RoundTrips:
    """A relay between the clients of a database and its server (each connection its own) that
    counts the round trips: each time a client speaks again after the server answered it."""

    def __init__(self, host: str, port: int) -> None:
        self.server = (host, port)
        self.count = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self._listener.accept()
            server = socket.create_connection(self.server)
            last = ["server"]  # who spoke last on this connection
            threading.Thread(target=self._relay, args=(client, server, "client", last), daemon=True).start()
            threading.Thread(target=self._relay, args=(server, client, "server", last), daemon=True).start()

    def _relay(self, source: socket.socket, target: socket.socket, side: str, last: list[str]) -> None:
        try:
            while data := source.recv(65536):
                with self._lock:
                    if side == "client" and last[0] == "server":
                        self.count += 1
                    last[0] = side
                target.sendall(data)
        except OSError:  # the other way closed both first
            pass
        finally:
            source.close()
            target.close()


@pytest.mark.slow
def test_on_postgresql_a_group_of_writes_takes_as_many_round_trips_as_one_write(
    postgres_database: str,
) -> None:
    """The rooms' rows of a group go together, then the actions of all (psycopg's pipeline), then
    the commit: ten rooms moved, one of them refused and one with work of its own (a finished game's
    save), in the round trips of one room moved alone and one more for that work. Before: two more
    for each room (22 against 5)."""
    url = make_url(postgres_database)
    relay = RoundTrips(url.host or "127.0.0.1", url.port or 5432)
    relayed = url.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
    with Database.open(relayed) as database:
        rooms = RoomRepository(database)
        written = [kept(f"R{n:04d}") for n in range(10)]
        versions = rooms.keep_group([(room, [(0, {"seat": 0, "roll": [2, 1]})]) for room in written])
        assert versions == [1] * 10

        def moved(group: list[KeptRoom], seq: int) -> list[int | ConflictError]:
            before = relay.count
            done = rooms.keep_group([(room, [(seq, {"seat": 0, "move": [seq]})]) for room in group])
            for room, version in zip(group, done, strict=True):
                if isinstance(version, int):
                    room.version = version
            return [relay.count - before, *done]

        alone, *_ = moved([replace(written[0], version=1)], 1)
        group = [replace(room, version=1) for room in written[1:]]
        group[3] = replace(group[3], version=7)  # another writer's version: refused
        group[5].then = lambda _connection: {"status": "over"}
        trips, *done = moved(group, 1)
        assert trips <= alone + 1, (trips, alone)
        assert [isinstance(version, ConflictError) for version in done] == [n == 3 for n in range(9)]
        back = rooms.get("R0006")
        assert back is not None and back.status == "over" and back.events[-1] == {"seat": 0, "move": [1]}
        refused = rooms.get("R0004")
        assert refused is not None and refused.version == 1 and len(refused.events) == 1
