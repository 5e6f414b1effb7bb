"""Statements run on the driver's cursor (`storage.prepared`) write and read what SQLAlchemy's own
`Connection.execute` does, on SQLite and PostgreSQL: JSON and UTC dates converted alike, the rows
changed counted, and a key taken raised as SQLAlchemy's `IntegrityError`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import bindparam, insert, literal, select, update
from sqlalchemy.exc import IntegrityError

from shutthebox.storage.database import Database
from shutthebox.storage.models import RoomEventRow, RoomRow
from shutthebox.storage.prepared import Prepared

ROOM = {
    "code": "PREP1", "status": "playing", "setup": {"rules": {"tiles": 9}, "name": "Ñandú ✓"}, "dice": None,
    "seats": [{"index": 0, "name": "Ana"}], "extra": {"notices": [1, 2.5, None]}, "game_id": None,
    "created_at": datetime(2026, 12, 2, 8, 30, tzinfo=timezone(timedelta(hours=1))),
    "touched_at": datetime(2026, 12, 2, 7, 31, tzinfo=UTC), "version": 1, "due_at": 1.5e9, "owner": None,
    "player": "p" * 64,
}


def test_a_prepared_write_reads_back_as_a_write_through_sqlalchemy(database: Database) -> None:
    with database.engine.begin() as connection:
        Prepared(insert(RoomRow)).run(connection, ROOM)
        connection.execute(insert(RoomRow), {**ROOM, "code": "CORE1"})
    with database.engine.connect() as connection:
        rows = connection.execute(select(RoomRow.__table__).order_by(RoomRow.code)).mappings().all()
    core, prepared = ({k: v for k, v in row.items() if k != "code"} for row in rows)
    assert prepared == core
    assert prepared["created_at"] == ROOM["created_at"] and prepared["extra"] == ROOM["extra"]


def test_a_prepared_update_counts_the_rows_it_changed_and_a_select_answers_its_first_value(
    database: Database,
) -> None:
    change = Prepared(update(RoomRow).where(
        RoomRow.code == bindparam("at_code"), RoomRow.version == bindparam("at_version")
    ))
    version_of = Prepared(select(RoomRow.version).where(RoomRow.code == bindparam("code")))
    with database.engine.begin() as connection:
        Prepared(insert(RoomRow)).run(connection, ROOM)
        over = {"version": 2, "status": "over", "at_code": "PREP1", "at_version": 1}
        assert change.run(connection, over) == 1
        assert change.run(connection, {"version": 3, "at_code": "PREP1", "at_version": 1}) == 0  # stale
        assert version_of.scalar(connection, {"code": "PREP1"}) == 2
        assert version_of.scalar(connection, {"code": "NONE1"}) is None


def test_a_place_taken_twice_is_sqlalchemys_integrity_error_and_the_transaction_writes_nothing(
    database: Database,
) -> None:
    events = Prepared(insert(RoomEventRow))
    with database.engine.begin() as connection:
        Prepared(insert(RoomRow)).run(connection, ROOM)
    with pytest.raises(IntegrityError), database.engine.begin() as connection:
        events.run_many(connection, [{"room_code": "PREP1", "seq": 0, "body": {"roll": [3, 4]}}] * 2)
    with database.engine.connect() as connection:
        assert connection.execute(select(RoomEventRow.seq)).all() == []


def test_values_a_statement_holds_itself_are_bound_and_an_in_list_of_values_is_refused(
    database: Database,
) -> None:
    with database.engine.begin() as connection:
        for code, status in (("OVER1", "over"), ("PLAY1", "playing"), ("PLAY2", "playing")):
            Prepared(insert(RoomRow)).run(connection, {**ROOM, "code": code, "status": status})
        not_over = RoomRow.status.not_in([literal("over"), literal("left")])
        first = Prepared(select(RoomRow.code).where(not_over, RoomRow.code > bindparam("after"))
                         .order_by(RoomRow.code).limit(1))
        assert first.first(connection, {"after": "A"}) == ("PLAY1",)
        assert first.first(connection, {"after": "PLAY1"}) == ("PLAY2",)
        assert first.first(connection, {"after": "PLAY2"}) is None
        listed = Prepared(select(RoomRow.code).where(RoomRow.status.in_(["over", "left"])))
        with pytest.raises(ValueError, match="IN list"):
            listed.first(connection, {})
