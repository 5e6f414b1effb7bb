"""`RoomRepository`: rooms in play kept with their actions; one write per version of a room (the
compare-and-set that lets several server processes share rooms); tickets claimed once."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

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
    database: Database
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
    assert rooms.due(100.0) == ["AAAAA"] and rooms.in_play_by("me") == 4
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
    database: Database
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
