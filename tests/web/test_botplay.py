"""The bots through the core's step API: a bot thinks with its room unlocked, its choice is played only
if the game is still where it was thought (else it thinks again), and a bot that fails or runs out of
patience is replaced for that choice by its fallback; a copy read back from the store is a new held
copy (its lock kept), and a room holds the game alone."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.core.board import Move
from shutthebox.core.game import Due, Game
from shutthebox.core.match import DiceChoice
from shutthebox.storage import RoomRepository, StorageBusyError
from shutthebox.strategy.bots import Seated
from shutthebox.web import Settings, create_app
from shutthebox.web.botplay import BotPlayer
from shutthebox.web.room import Room
from shutthebox.web.server import Server
from tests.support.web import create

BOT_SEATS = [{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "easy"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'b.db'}", bot_delay=0, tick_seconds=3600)
    with TestClient(create_app(settings)) as client:
        yield client


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def play_until_the_bot_has_thought(client: TestClient, thoughts: list[Any]) -> dict[str, Any]:
    table, _ = create(client, seats=BOT_SEATS, seed=8)
    state = table.state()
    while not thoughts and state["status"] == "playing":
        state = table.step()
    return state


def test_a_bot_thinks_with_its_room_unlocked(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    real = BotPlayer.think
    locked: list[bool] = []

    async def watched(self: BotPlayer, room: Room, game: Game, due: Due) -> DiceChoice | Move:
        locked.append(server_of(client).copies.get(room.code).lock.locked())
        return await real(self, room, game, due)

    monkeypatch.setattr(BotPlayer, "think", watched)
    play_until_the_bot_has_thought(client, locked)
    assert locked and not any(locked)


def test_a_choice_for_a_state_the_game_left_is_thought_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the bot thinks, its room is read back from the store (a new game, at the same place): the
    choice thought for the old one is not played there; the bot thinks again and plays once."""
    real = BotPlayer.think
    thoughts: list[int] = []

    async def meanwhile(self: BotPlayer, room: Room, game: Game, due: Due) -> DiceChoice | Move:
        held = server_of(client).copies.get(room.code)
        thoughts.append(len(game.events))
        if len(thoughts) == 1:
            held.stale = True  # as after a failed write: the next change reads the room back first
        return await real(self, room, game, due)

    monkeypatch.setattr(BotPlayer, "think", meanwhile)
    play_until_the_bot_has_thought(client, thoughts)
    assert thoughts[:2] == [thoughts[0], thoughts[0]]  # thought again at the same place, on the new copy


def test_a_bot_that_fails_or_runs_out_of_patience_is_played_by_its_fallback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: Seated, state: Any) -> DiceChoice | Move:
        raise RuntimeError("the bot's own thinking broke")

    monkeypatch.setattr(Seated, "think", broken)
    with caplog.at_level(logging.WARNING, logger="shutthebox.web.botplay"):
        table, _ = create(client, seats=BOT_SEATS, seed=8)
        final = table.play_while_mine()
        while final["status"] == "playing":
            final = table.play_while_mine()
    assert final["status"] == "over"  # the fallback chose every time
    assert "fallback plays" in caplog.text

    release = threading.Event()
    asked: list[int] = []
    returned: list[int] = []

    def stuck(self: Seated, state: Any) -> DiceChoice | Move:
        asked.append(1)
        release.wait(10)  # thinks until the test is over: only the fallback can have chosen
        returned.append(1)
        return self.fallback.think(state)

    monkeypatch.setattr(Seated, "think", stuck)
    monkeypatch.setattr(Game, "patience", lambda self, due: 0.01)
    try:
        table, _ = create(client, seats=BOT_SEATS, seed=8)
        state = table.play_while_mine()
        while state["status"] == "playing" and state["events"] < 30:
            state = table.play_while_mine()
        assert asked and not returned and state["events"] >= 2  # played on, no thinking ever done
    finally:
        release.set()


def test_a_copy_read_back_after_a_failed_write_is_a_new_one_with_the_same_lock(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=2)
    before = table.state()
    copies = server_of(client).copies
    held = copies.get(table.code)

    def locked(*_args: object) -> None:
        raise StorageBusyError("database is locked")

    monkeypatch.setattr(RoomRepository, "keep_group", locked)
    assert table.post({"type": "roll"}).status_code == 503
    monkeypatch.undo()
    again = copies.get(table.code)
    assert again is not held and again.lock is held.lock  # replaced whole, no field copied by hand
    assert again.room is not held.room and again.version == held.version
    assert table.state() == before


def test_a_room_holds_the_game_and_nothing_of_the_store() -> None:
    kept = {"version", "kept_events", "stale", "behind", "lock", "due_at", "last"}
    assert not kept & {field.name for field in dataclasses.fields(Room)}
