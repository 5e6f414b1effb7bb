"""A room's log is the record's events (`core.record.Event.to_json`) and where help came, one shape;
a room kept in the shape before (``"seat"``, a move's tiles lowest first) still restores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RecordError
from shutthebox.core.match import DiceChoice
from shutthebox.core.record import Event
from shutthebox.storage.models import RoomEventRow
from shutthebox.web import Settings, create_app
from shutthebox.web.roomlog import Entry
from shutthebox.web.server import Server
from shutthebox.web.views import RECENT_EVENTS, event_json, recent_json
from tests.support.web import Table, create


@pytest.mark.parametrize(
    ("entry", "kept"),
    [
        (Entry(0, Event(0, Roll((3, 4)))), {"player": 0, "roll": [3, 4]}),
        (Entry(1, Event(1, Move.of([5, 2])), "clock"), {"player": 1, "move": [5, 2], "by": "clock"}),
        (Entry(0), {"player": 0, "assist": True}),
    ],
)
def test_an_entry_is_the_records_event_and_its_annotations(entry: Entry, kept: dict[str, Any]) -> None:
    assert entry.to_json() == kept
    assert Entry.from_json(kept, 0) == entry
    if entry.event is not None:
        assert {k: v for k, v in kept.items() if k != "by"} == entry.event.to_json()


@pytest.mark.parametrize(
    ("old", "entry"),
    [
        ({"seat": 0, "roll": [6, 1]}, Entry(0, Event(0, Roll((6, 1))))),
        ({"seat": 1, "move": [1, 3, 5], "by": "clock"}, Entry(1, Event(1, Move.of([5, 3, 1])), "clock")),
        ({"seat": 0, "dice": 1}, Entry(0, Event(0, DiceChoice(1)))),
        ({"seat": 2, "assist": True}, Entry(2)),
    ],
)
def test_the_shape_before_is_read_as_it_was_meant(old: dict[str, Any], entry: Entry) -> None:
    assert Entry.from_json(old, 3) == entry


def test_an_entry_that_is_neither_is_a_record_error() -> None:
    for wrong in ({"player": "0", "roll": [1]}, {"player": 0}, {"player": 0, "roll": [1], "by": "me"}):
        with pytest.raises(RecordError):
            Entry.from_json(wrong, 7)


def test_the_pages_recent_events_keep_their_keys() -> None:
    rolled = {"seq": 4, "player": 1, "kind": "roll", "dice": [2, 5]}
    assert event_json(4, Event(1, Roll((2, 5))), False) == rolled
    assert event_json(5, Event(1, Move.of([4, 3])), True) == {
        "seq": 5, "player": 1, "kind": "move", "tiles": [3, 4], "by": "clock",
    }


def test_the_recent_events_each_drawn_once_are_those_drawn_afresh(tmp_path: Path) -> None:
    """A state shows the room's last 16 events, each drawn once for the room's game and shared by
    every state after (`views.recent_json`): the same as drawn afresh (a stand-in's marked as it is
    played: `test_durable_rooms`)."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'recent.db'}", bot_delay=0, tick_seconds=3600)
    with TestClient(create_app(settings)) as client:
        table, _ = create(client, seats=[{"name": "Ana"}, {"kind": "bot", "bot": "easy"}], seed=11, rounds=3)
        server: Server = client.app.state.server  # type: ignore[attr-defined]
        state, shown = table.state(), 0
        while state["status"] == "playing":
            room = server.copies.get(table.code).room
            assert room.game is not None
            events = room.game.events
            afresh = [event_json(i, e, i in room.by_clock) for i, e in enumerate(events)][-RECENT_EVENTS:]
            assert recent_json(room, room.game) == afresh == state["recent"][-len(afresh):]
            state, shown = table.step(), shown + 1
        assert shown > RECENT_EVENTS


def old_shape(body: dict[str, Any]) -> dict[str, Any]:
    """An entry as rooms were kept before the record's shape."""
    old = {("seat" if key == "player" else key): value for key, value in body.items()}
    if "move" in old:
        old["move"] = sorted(old["move"])
    return old


def test_a_room_kept_in_the_shape_before_resumes_where_it_was(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'log.db'}", bot_delay=0, tick_seconds=3600)
    with TestClient(create_app(settings)) as first:
        table, _ = create(first, seats=[{"name": "Ana"}, {"kind": "bot", "bot": "easy"}], seed=4)
        state = table.state()
        while not (state["match"]["is_decision"] and state["match"]["actor"] in state["you"]):
            state = table.step()
        hinted = first.get(f"/api/rooms/{table.code}/hint", headers=table.headers)
        assert hinted.status_code == 200, hinted.text  # noted in the log before it is given
        table.step()
        before = table.state()
        assert before["assisted"] == [0]
        server: Server = first.app.state.server  # type: ignore[attr-defined]
        with server.database.engine.begin() as connection:
            rows = connection.execute(select(RoomEventRow.seq, RoomEventRow.body)
                                      .where(RoomEventRow.room_code == table.code)).all()
            assert {"player": 0, "assist": True} in [body for _seq, body in rows]
            assert all("player" in body and "seat" not in body for _seq, body in rows)
            for seq, body in rows:
                connection.execute(update(RoomEventRow).where(
                    RoomEventRow.room_code == table.code, RoomEventRow.seq == seq
                ).values(body=old_shape(body)))
    with TestClient(create_app(settings)) as second:
        again = Table(second, table.code, table.token)
        assert again.state() == before
        final = again.play_while_mine()
        while final["status"] == "playing":
            final = again.play_while_mine()
        assert final["status"] == "over" and final["saved_game_id"] is not None
