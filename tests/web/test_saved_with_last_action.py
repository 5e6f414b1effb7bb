"""A finished game is kept in the very transaction of the action that finished it (issue 29): the
answer to that action already names the saved game, the room is written once for it, and a save
that fails there never refuses the action (the game is saved after, by the room's own work)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shutthebox.storage.database import StorageError
from shutthebox.web import create_app
from shutthebox.web import worker as worker_module
from tests.support.web import create, settings_at

SOLO = {"seats": [{"name": "Ana"}], "rules": {"tiles": 3, "mode": "solo"}}


def play_out(client: TestClient) -> tuple[list[dict], str]:
    table, _ = create(client, **SOLO)
    answers = [table.state()]
    while answers[-1]["status"] == "playing":
        answers.append(table.step())
    return answers, table.code


def test_the_last_action_answers_with_its_game_saved_and_writes_the_room_once(tmp_path: Path) -> None:
    with TestClient(create_app(settings_at(tmp_path))) as client:
        answers, code = play_out(client)
        last = answers[-1]
        assert last["saved_game_id"] is not None
        assert last["version"] == answers[-2]["version"] + 1  # one write: the action and its game
        stored = client.get(f"/api/games/{last['saved_game_id']}").json()
        assert stored["players"] == ["Ana"]
        assert [result["player"] for result in last["results"]] == ["Ana"]  # the result screen's
    with sqlite3.connect(tmp_path / "rooms.db") as database:
        assert database.execute("SELECT count(*) FROM games").fetchone() == (1,)
        kept = database.execute("SELECT game_id, due_at FROM rooms WHERE code = ?", (code,)).fetchone()
    game_id, due_at = kept
    assert game_id == last["saved_game_id"]
    within_the_hour = time.time() + 3600
    assert due_at > within_the_hour  # nothing left to do: no server reads it back to save it


def test_a_save_that_fails_in_the_last_action_leaves_the_action_kept_and_the_game_saved_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = worker_module.write_game
    failures = iter([True])

    def fails_once(connection: object, game: object) -> int:
        if next(failures, False):
            raise StorageError("the disk said no")
        return real(connection, game)  # type: ignore[arg-type]

    monkeypatch.setattr(worker_module, "write_game", fails_once)
    with TestClient(create_app(settings_at(tmp_path))) as client:
        answers, _code = play_out(client)
        assert answers[-1]["status"] == "over"  # the action was kept, not refused
        assert answers[-1]["saved_game_id"] is not None  # saved by the room's own work, just after
    with sqlite3.connect(tmp_path / "rooms.db") as database:
        assert database.execute("SELECT count(*) FROM games").fetchone() == (1,)
