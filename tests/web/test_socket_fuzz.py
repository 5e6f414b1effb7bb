"""The room WebSocket under fuzz: whatever a client sends, the socket answers or closes for a stated
reason (never with an internal error), and the room goes on answering."""

from __future__ import annotations

import json
import weakref
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.support.web import Table, create, online

REPLIES = {"state", "error", "hint", "pong"}
INTERNAL_ERROR = 1011


def exchange(socket: WebSocketTestSession, frame: str | bytes) -> list[dict[str, Any]] | int:
    """Send ``frame``, then a ping: the replies up to the pong, or the code the socket closed with."""
    try:
        if isinstance(frame, bytes):
            socket.send_bytes(frame)
        else:
            socket.send_text(frame)
        socket.send_text('{"type": "ping"}')
        replies = []
        while True:
            reply = socket.receive_json()
            assert isinstance(reply, dict) and reply.get("type") in REPLIES, reply
            if reply["type"] == "pong":
                return replies
            replies.append(reply)
    except WebSocketDisconnect as closed:
        assert closed.code != INTERNAL_ERROR
        return closed.code


def still_answers(table: Table) -> None:
    response = table.client.get(f"/api/rooms/{table.code}", headers=table.headers)
    assert response.status_code == 200, response.text


def connect(client: TestClient, table: Table, token: str | None = None) -> Any:
    query = f"?token={token if token is not None else table.token}"
    return client.websocket_connect(f"/api/rooms/{table.code}/ws{query}")


DEEP = "[" * 50_000 + "]" * 50_000
FRAMES: list[str | bytes] = [
    "", " ", "{", "}", "null", "[]", "42", '"roll"', "true", "NaN", '{"type": NaN}',
    '{"type": null}', '{"type": 1}', '{"type": ["roll"]}', '{"type": {"type": "roll"}}',
    '{"type": "roll", "seat": 1e999}', '{"type": "roll", "seat": -Infinity}',
    '{"type": "roll", "seat": 99999999999999999999999999}', '{"type": "roll", "seat": "0"}',
    '{"type": "dice", "count": 3}', '{"type": "dice", "count": -9223372036854775809}',
    '{"type": "move", "tiles": [1e308]}', '{"type": "move", "tiles": "12"}',
    '{"type": "move", "tiles": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}', '{"type": "move", "tiles": null}',
    '{"type": "hint", "extra": 1}', '{"type": "ping", "type": "roll"}', '{"type": "fly"}',
    '{"type": "' + "x" * 10_000 + '"}', DEEP[:8000] + DEEP[-8000:], "é" * 3000, "\x00\x01\x02",
    '{"type": "\\ud800"}', '{"type": "roll"}\n{"type": "roll"}', "\ufeff{}",
    b"", b"\xff\xfe", b'{"type": "roll"}', bytes(range(256)),
]


@pytest.mark.parametrize("frame", FRAMES, ids=range(len(FRAMES)))
def test_a_malformed_frame_is_refused_and_the_room_goes_on(client: TestClient, frame: str | bytes) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "easy"}], seed=2)
    with connect(client, table) as socket:
        assert socket.receive_json()["type"] == "state"
        replies = exchange(socket, frame)
        assert isinstance(replies, list), f"closed with {replies}"
        assert all(r["type"] in ("error", "state") for r in replies)
        sent = frame if isinstance(frame, str) else frame.decode("latin-1")
        if len(sent) >= 40:  # no echo of the input: a refusal says what is wrong, not what was sent
            middle = len(sent) // 2
            pieces = [sent[:40], sent[middle : middle + 40]]
            echoes = [r for r in replies if any(p in json.dumps(r, ensure_ascii=False) for p in pieces)]
            assert not echoes, f"the reply repeats the frame: {json.dumps(echoes)[:300]}"
    still_answers(table)


@pytest.mark.parametrize("size", [16 * 1024 + 1, 1_000_000])
def test_a_huge_frame_closes_that_socket_only(client: TestClient, size: int) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=2)
    with connect(client, table) as other, connect(client, table) as socket:
        other.receive_json()
        socket.receive_json()
        assert exchange(socket, '{"type": "ping", "pad": "' + "x" * size + '"}') == 1009
        replies = exchange(other, '{"type": "ping"}')  # the other socket goes on
        assert isinstance(replies, list) and all(r["type"] == "state" for r in replies)
    still_answers(table)


@pytest.mark.parametrize("token", ["%C3%A9", "%FF", "%00", "a%20b", "x" * 600, "%E2%80%8B"])
def test_a_token_that_is_not_ascii_closes_with_a_reason(client: TestClient, token: str) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=2)
    with connect(client, table, token) as socket:
        first = socket.receive_json()
        if first["type"] == "error":
            assert first["error"] == "malformed"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4422
        else:  # a printable token that holds no seat: a spectator
            assert first["type"] == "state" and first["state"]["you"] == []
    still_answers(table)


def test_out_of_turn_and_unknown_messages_change_nothing(client: TestClient) -> None:
    host, guest = online(client)
    before = host.state()
    with connect(client, guest) as socket:
        socket.receive_json()
        for frame in ['{"type": "roll"}', '{"type": "dice", "count": 1}', '{"type": "move", "tiles": [9]}',
                      '{"type": "hint"}', '{"type": "roll", "seat": 0}', '{"type": "teleport"}']:
            replies = exchange(socket, frame)
            assert isinstance(replies, list)
            errors = [r for r in replies if r["type"] == "error"]
            assert errors and errors[0]["error"] in {"wrong-turn", "wrong-seat", "malformed", "illegal"}
    after = host.state()
    assert (after["events"], after["match"]) == (before["events"], before["match"])


# -- a property: any frame ---------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TYPES = st.sampled_from(["roll", "dice", "move", "hint", "ping", "", "ROLL", "state"]) | st.text(max_size=8)
MESSAGES = st.fixed_dictionaries(
    {"type": TYPES},
    optional={"count": JSON_VALUES, "tiles": JSON_VALUES, "seat": JSON_VALUES, "extra": JSON_VALUES},
)
FRAMES_ANY = (
    MESSAGES.map(lambda m: json.dumps(m, allow_nan=True))
    | JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True))
    | st.text(max_size=200)
    | st.binary(max_size=200)
)


@pytest.mark.slow
@settings(
    max_examples=120, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],  # one room for every example, on purpose
)
@given(frames=st.lists(FRAMES_ANY, min_size=1, max_size=4))
def test_any_frames_get_an_answer_and_the_room_goes_on(client: TestClient, frames: list[str | bytes]) -> None:
    table = _table(client)
    with connect(client, table) as socket:
        assert socket.receive_json()["type"] == "state"
        for frame in frames:
            replies = exchange(socket, frame)
            assert isinstance(replies, list), f"closed with {replies}"
    still_answers(table)


_FUZZED: weakref.WeakKeyDictionary[TestClient, Table] = weakref.WeakKeyDictionary()


def _table(client: TestClient) -> Table:
    """The fuzzed room of this client: one, played against a bot, a new one once it is over (the
    examples share it: creating rooms has a budget)."""
    table = _FUZZED.get(client)
    if table is None or table.state()["status"] == "over":
        table, _ = create(client, seats=[{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "easy"}])
        _FUZZED[client] = table
    return table
