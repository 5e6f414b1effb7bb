"""The lane (`web.lane`): a room's creation, its state, an action and its socket are answered without
FastAPI's handling of a request, exactly as FastAPI's own routes answer them; whatever the lane does
not read as the common case goes on to FastAPI, which answers it as ever."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from shutthebox.web import Settings, create_app
from shutthebox.web.lane import Lane

CREATE = {"seats": [{"name": "Ana"}, {"kind": "bot", "bot": "easy"}], "seed": 5}
"""A practice room: its dice, and so its whole game, the same in every app."""
SECRETS = re.compile(r'"(code|token)":"[^"]*"')
"""What differs from app to app: the codes and tokens of the rooms made by the requests."""
RequestLine = tuple[str, str, dict[str, Any]]


def requests(code: str, token: str) -> list[RequestLine]:
    """What a player, a script and an attacker send a game's routes: well-formed and not."""
    bearer = {"Authorization": f"Bearer {token}"}
    room, actions = f"/api/rooms/{code}", f"/api/rooms/{code}/actions"
    return [
        ("GET", room, {"headers": bearer}),
        ("GET", room, {}),  # a watcher
        ("GET", room, {"headers": {"Authorization": "Bearer not-a-seat"}}),
        ("GET", room, {"headers": {"Authorization": "Bearer bad token!"}}),  # refused by the dependency
        ("GET", "/api/rooms/" + "X" * 17, {}),  # a code too long for any room: 404, as an unknown one
        ("GET", "/api/rooms/NOPE1", {}),
        ("HEAD", room, {}),  # answered as the GET it asks about (`web.head`), by the lane and FastAPI alike
        ("POST", actions, {"json": {"type": "roll"}, "headers": bearer}),
        ("POST", actions, {"json": {"type": "roll"}, "headers": bearer}),
        ("POST", actions, {"json": {"type": "move", "tiles": [13]}, "headers": bearer}),
        ("POST", actions, {"json": {"type": "jump"}, "headers": bearer}),  # not an action: 422
        ("POST", actions, {"content": b'{"type": "roll"}', "headers": {**bearer, "Content-Type": "text/x"}}),
        ("POST", actions, {"content": b"", "headers": bearer}),
        ("POST", actions, {"json": {"type": "roll"}}),  # no token
        ("PUT", actions, {"json": {"type": "roll"}, "headers": bearer}),  # no such method: 405
        ("POST", "/api/rooms", {"json": {"seats": "Ana"}}),  # 422, in FastAPI's words
        ("POST", "/api/rooms", {"json": {**CREATE, "preset": "no-such-preset"}}),  # a refusal of the service
        ("POST", "/api/rooms", {"json": CREATE, "headers": {"Authorization": "Bearer unknown-key"}}),
        ("POST", "/api/rooms", {"json": CREATE, "headers": {"X-Guest-Key": "bad key"}}),
        ("POST", "/api/rooms", {"json": CREATE, "headers": {"X-Guest-Key": "guest-1"}}),
        ("POST", "/api/rooms", {"json": CREATE, "headers": {"Accept-Language": "es"}}),
    ]


def answers(client: TestClient) -> list[tuple[int, str, str]]:
    """Each of `requests` answered, in order, against a room made first: its status, type and body
    (the rooms' codes and tokens named alike in every app)."""
    made = client.post("/api/rooms", json=CREATE)
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]
    found = []
    for method, path, options in requests(code, token):
        answer = client.request(method, path, **options)
        text = SECRETS.sub(r'"\1":"…"', answer.text.replace(code, "CODE").replace(token, "TOKEN"))
        found.append((answer.status_code, answer.headers.get("content-type", ""), text))
    return found


@pytest.fixture
def app_settings(tmp_path: Path) -> Iterator[Settings]:
    yield Settings(database_url=f"sqlite:///{tmp_path / 'lane.db'}", bot_delay=0)


def answered(folder: Path) -> list[tuple[int, str, str]]:
    """`answers` of a new app over a database in ``folder``."""
    folder.mkdir()
    with TestClient(create_app(Settings(database_url=f"sqlite:///{folder / 'a.db'}", bot_delay=0))) as client:
        return answers(client)


def test_each_of_a_games_routes_answers_as_fastapis_own_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    laned = answered(tmp_path / "laned")

    async def passing_on(self: Lane, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)

    monkeypatch.setattr(Lane, "__call__", passing_on)
    fastapis = answered(tmp_path / "fastapis")
    assert [status for status, _type, _body in laned] == [
        200, 200, 200, 422, 404, 404, 200, 200, 200, 422, 422, 422, 422, 403, 405, 422, 422, 401, 422, 201,
        201,
    ]
    for request, mine, theirs in zip(requests("CODE", "TOKEN"), laned, fastapis, strict=True):
        assert mine == theirs, request


def test_the_lane_answers_the_common_case_and_passes_the_rest_on(
    app_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed: list[str] = []
    original = Lane.__init__

    def counting(self: Lane, app: Any, routes: Any) -> None:
        async def inner(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] in ("http", "websocket"):
                passed.append(f"{scope.get('method', 'WS')} {scope['path']}")
            await app(scope, receive, send)

        original(self, inner, routes)

    monkeypatch.setattr(Lane, "__init__", counting)
    with TestClient(create_app(app_settings)) as client:
        made = client.post("/api/rooms", json=CREATE).json()
        bearer = {"Authorization": f"Bearer {made['token']}"}
        room = f"/api/rooms/{made['code']}"
        assert client.get(room, headers=bearer).status_code == 200
        assert client.post(f"{room}/actions", json={"type": "roll"}, headers=bearer).status_code == 200
        with client.websocket_connect(f"{room}/ws?token={made['token']}") as socket:
            assert socket.receive_json()["type"] == "state"
        assert passed == []  # all four on the lane
        assert client.post(f"{room}/actions", json={"type": "jump"}, headers=bearer).status_code == 422
        assert client.get("/api/rules").status_code == 200
        assert passed == [f"POST {room}/actions", "GET /api/rules"]


def test_a_body_read_on_the_lane_reaches_fastapi_whole(app_settings: Settings) -> None:
    """A body the lane read and did not take (not the route's model) is read again by FastAPI: its
    refusal names what is wrong in it, not a body missing."""
    with TestClient(create_app(app_settings)) as client:
        answer = client.post("/api/rooms", json={"seats": [{"kind": "sofa"}]})
    assert answer.status_code == 422
    assert [error["loc"] for error in answer.json()["errors"]] == [["body", "seats", 0, "kind"]]
