"""Rounds solved ahead (issue 29): a room of three players or more has its round solved in the
background as it opens, so its first hint is answered from a solve made; the solve is kept on disk
and read back by a server started again, which then solves nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.strategy import solver
from shutthebox.web import create_app
from shutthebox.web.door import CALL_PRICE
from tests.support.web import create, server_of, settings_at

THREE = [{"name": name} for name in ("Ana", "Luis", "Eva")]
ROUND_OF_THREE = {"rules": {"tiles": 7, "mode": "round"}, "seats": THREE}


def serving(path: Path) -> TestClient:
    """A server over ``path`` whose solver runs in a thread of this process, its rounds kept there."""
    return TestClient(create_app(settings_at(path, solver_processes=0, solved_dir=path / "solved")))


def settled(client: TestClient) -> None:
    """Wait for the solves started ahead to be done."""
    advice = server_of(client).advice
    deadline = time.monotonic() + 60
    while advice._ahead:
        assert time.monotonic() < deadline, "the round was not solved ahead within a minute"
        time.sleep(0.02)


def first_decision(client: TestClient, **body: Any) -> Any:
    table, _ = create(client, **body)
    while table.state()["match"]["phase"] != "move":
        table.step()
    return table


def test_a_round_is_solved_as_its_room_opens_and_its_first_hint_costs_a_call(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        table, _ = create(client, **ROUND_OF_THREE)
        settled(client)
        assert list((tmp_path / "solved").glob("round-*/round.json"))  # kept for the next start
        server = server_of(client)
        while table.state()["match"]["phase"] != "move":
            table.step()
        state = server.copies.get(table.code).room.game.state  # type: ignore[union-attr]
        assert server.advice.advisor.price(state, server.advice.advisor.plan(state)) == CALL_PRICE
        assert client.get(f"/api/rooms/{table.code}/hint", headers=table.headers).status_code == 200


def test_a_server_started_again_reads_the_round_back_and_solves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(tmp_path) as client:
        table = first_decision(client, **ROUND_OF_THREE)
        settled(client)
        before = client.get(f"/api/rooms/{table.code}/hint", headers=table.headers).json()
    solver._round_cached.cache_clear()  # a new process: nothing solved in memory
    solved: list[int] = []
    real = solver.solve_round_key
    monkeypatch.setattr(solver, "solve_round_key", lambda *a, **k: solved.append(1) or real(*a, **k))
    with serving(tmp_path) as client:
        again = first_decision(client, **ROUND_OF_THREE)
        settled(client)
        seen = {key: again.state()["match"][key] for key in ("phase", "roll", "board", "actor")}
        answer = client.get(f"/api/rooms/{again.code}/hint", headers=again.headers)
        assert answer.status_code == 200, answer.text
    assert solved == []
    if seen == {key: table.state()["match"][key] for key in ("phase", "roll", "board", "actor")}:
        assert answer.json()["choices"] == before["choices"]


def test_solo_rooms_and_duels_are_not_solved_ahead(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        create(client, seats=[{"name": "Ana"}], rules={"tiles": 7, "mode": "solo"})
        create(client, seats=[{"name": "Ana"}, {"name": "Luis"}], rules={"tiles": 7, "mode": "round"})
        assert not server_of(client).advice._ahead
        assert server_of(client).door.jobs == 0
