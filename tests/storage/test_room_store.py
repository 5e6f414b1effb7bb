"""`RoomStore`: rooms in play kept with their actions; one action per place; tickets claimed once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shutthebox.storage import Store
from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomStore, token_hash


def kept(code: str = "ABCDE") -> KeptRoom:
    seats = [{"index": 0, "kind": "here", "name": "Ana", "token_hash": token_hash("t0k3n")}]
    return KeptRoom(code=code, status="playing", setup={"rules": {}}, dice=None, seats=seats)


def test_a_room_and_its_actions_come_back_in_order(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        rooms = RoomStore(store.engine)
        room = kept()
        rooms.keep(room, [(0, {"seat": 0, "roll": [3, 4]})])
        rooms.keep(room, [(1, {"seat": 0, "move": [7]}), (2, {"seat": 0, "roll": [1, 1]})])
        [back] = rooms.open_rooms()
        roll, move, again = back.events
        assert (roll["roll"], move["move"], again["roll"]) == ([3, 4], [7], [1, 1])
        assert back.seats[0]["token_hash"] == token_hash("t0k3n") and "t0k3n" not in str(back)
        assert rooms.get("ABCDE") == back and rooms.get("ZZZZZ") is None


def test_two_writers_cannot_both_take_one_place_in_a_rooms_history(tmp_path: Path) -> None:
    """The compare-and-set several server processes will rely on."""
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        rooms = RoomStore(store.engine)
        room = kept()
        rooms.keep(room, [(0, {"seat": 0, "roll": [3, 4]})])
        with pytest.raises(ConflictError):
            rooms.keep(room, [(0, {"seat": 0, "roll": [6, 6]})])
        assert rooms.get("ABCDE").events == [{"seat": 0, "roll": [3, 4]}]  # type: ignore[union-attr]


def test_a_ticket_is_claimed_once_and_only_in_time(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        rooms = RoomStore(store.engine)
        now = datetime.now(UTC)
        rooms.commit("ticket-1", b"\x01" * 32, now)
        rooms.commit("ticket-2", b"\x02" * 32, now - timedelta(hours=1))
        assert rooms.claim("ticket-1", now - timedelta(minutes=15)) == b"\x01" * 32
        assert rooms.claim("ticket-1", now - timedelta(minutes=15)) is None  # once
        assert rooms.claim("ticket-2", now - timedelta(minutes=15)) is None  # too late
        rooms.forget(["ABCDE"])  # forgetting what is not there is no error
