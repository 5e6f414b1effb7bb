"""Helpers for the API tests (the app in process, through a TestClient): a room seen through one
seat token, a refusal read, and the server's clock moved by hand."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from shutthebox.web import Settings
from shutthebox.web.server import Server


class Table:
    """A room seen through one token."""

    def __init__(self, client: TestClient, code: str, token: str) -> None:
        self.client, self.code, self.token = client, code, token

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/api/rooms/{self.code}", headers=self.headers)
        assert response.status_code == 200, response.text
        return response.json()

    def post(self, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/rooms/{self.code}/actions", json=body, headers=self.headers)

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(body)
        assert response.status_code == 200, response.text
        return response.json()

    def step(self) -> dict[str, Any]:
        """One action of a simple player: two dice, the first legal move."""
        match = self.state()["match"]
        if match["phase"] == "choose":
            return self.act({"type": "dice", "count": match["dice_options"][-1]})
        if match["phase"] in ("roll", "roll-off"):
            return self.act({"type": "roll"})
        return self.act({"type": "move", "tiles": match["legal_moves"][0]})

    def play_while_mine(self) -> dict[str, Any]:
        state = self.state()
        while state["status"] == "playing" and state["match"]["actor"] in state["you"]:
            state = self.step()
        return state


def profile_key(client: TestClient, name: str) -> str:
    """A new profile's secret key."""
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    key: str = response.json()["key"]
    return key


def create(client: TestClient, key: str | None = None, **body: Any) -> tuple[Table, dict[str, Any]]:
    """A new room; with a profile ``key``, the creator's profile plays its first seat here."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = client.post("/api/rooms", json=body, headers=headers)
    assert response.status_code == 201, response.text
    data = response.json()
    return Table(client, data["code"], data["token"]), data["state"]


def online(client: TestClient, **rules: Any) -> tuple[Table, Table]:
    """A two-seat online room: Ana here, Luis joined with the code."""
    host, _ = create(
        client, seats=[{"name": "Ana"}, {"kind": "remote"}], rules=rules, seed=11
    )
    joined = client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis"})
    assert joined.status_code == 200, joined.text
    return host, Table(client, host.code, joined.json()["token"])


SOLO = {"seats": [{"name": "Ana"}], "seed": 7}


def refused(response: Any, status: int, error: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == error
    for word in words:
        assert word in body["detail"]



class Later:
    """The server's wall clock, which a test moves on by hand (``later.by = 180``)."""

    def __init__(self) -> None:
        self.by = 0.0

    def __call__(self) -> float:
        return time.time() + self.by


class FakeClock:
    """The server's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def settings_at(path: Path, **more: Any) -> Settings:
    # The ticker never runs on its own here: the tests tick by hand, on a clock they move.
    return Settings(database_url=f"sqlite:///{path / 'rooms.db'}", bot_delay=0, tick_seconds=3600, **more)


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def tick(client: TestClient) -> None:
    """One turn of the ticker (clocks, rematches, bots, closing), run now."""
    assert client.portal is not None
    client.portal.call(server_of(client).worker.tick)

