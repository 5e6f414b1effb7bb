"""The room WebSocket: state pushed to every seat, errors to the sender only, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.support.web import Table, create, online


def connect(client: TestClient, table: Table | None, code: str) -> Any:
    token = f"?token={table.token}" if table else ""
    return client.websocket_connect(f"/api/rooms/{code}/ws{token}")


def next_of(socket: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping state pushes about who is connected."""
    while True:
        message = socket.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] == "state", message


def quiet(socket: WebSocketTestSession) -> None:
    """Nothing else is queued for this socket: a ping is answered first."""
    socket.send_json({"type": "ping"})
    assert socket.receive_json() == {"type": "pong"}


def test_the_state_arrives_on_connecting(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with connect(client, table, table.code) as socket:
        message = socket.receive_json()
        assert message["type"] == "state"
        state = message["state"]
        assert state["code"] == table.code and state["you"] == [0]
        assert state["seats"][0]["connected"] is True
        quiet(socket)


def test_actions_over_the_socket_reach_every_seat(client: TestClient) -> None:
    host, guest = online(client)
    with connect(client, host, host.code) as ana, connect(client, guest, host.code) as luis:
        ana.receive_json()
        ana.receive_json()  # Luis connected
        luis.receive_json()
        ana.send_json({"type": "roll"})
        seen_by_ana = next_of(ana, "state")["state"]
        seen_by_luis = next_of(luis, "state")["state"]
        assert seen_by_ana["events"] == seen_by_luis["events"] == 1
        assert seen_by_ana["recent"] == seen_by_luis["recent"]
        assert (seen_by_ana["you"], seen_by_luis["you"]) == ([0], [1])
        assert all(s["connected"] for s in seen_by_luis["seats"])


def test_a_spectator_sees_the_game_but_cannot_act(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with connect(client, None, table.code) as watcher:
        assert watcher.receive_json()["state"]["you"] == []
        before = table.state()
        watcher.send_json({"type": "roll"})
        error = watcher.receive_json()
        assert error["type"] == "error" and error["error"] == "wrong-seat"
        quiet(watcher)
        assert table.state() == before
        table.act({"type": "roll"})
        assert watcher.receive_json()["state"]["events"] == 1


def test_wrong_turn_and_wrong_seat_over_the_socket_change_nothing(client: TestClient) -> None:
    host, guest = online(client)
    with connect(client, guest, host.code) as luis:
        luis.receive_json()
        before = host.state()
        luis.send_json({"type": "roll"})
        error = luis.receive_json()
        assert (error["type"], error["error"]) == ("error", "wrong-turn")
        assert "Ana" in error["detail"]
        luis.send_json({"type": "roll", "seat": 0})
        error = luis.receive_json()
        assert (error["error"], "seat 0 (Ana) is not yours" in error["detail"]) == ("wrong-seat", True)
        quiet(luis)
        after = host.state()
        assert after["clock"]["deadline"] == before["clock"]["deadline"]  # its remaining runs down
        assert {**after, "clock": None} == {**before, "clock": None}


def test_an_illegal_move_over_the_socket_changes_nothing(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with connect(client, table, table.code) as socket:
        socket.receive_json()
        socket.send_json({"type": "roll"})
        state = next_of(socket, "state")["state"]
        total = sum(state["match"]["roll"])
        socket.send_json({"type": "move", "tiles": [1] if total != 1 else [2]})
        error = socket.receive_json()
        assert (error["type"], error["error"]) == ("error", "illegal")
        assert f"the roll {'+'.join(map(str, state['match']['roll']))} is {total}" in error["detail"]
        quiet(socket)
        assert table.state()["match"] == state["match"]
        socket.send_json({"type": "move", "tiles": state["match"]["legal_moves"][0]})
        assert next_of(socket, "state")["state"]["events"] == 2


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("not json", ["Invalid JSON"]),
        ('["roll"]', ["an object"]),
        ('{"type": "fly"}', ["'fly'"]),
        ('{"type": "move"}', ["tiles", "Field required"]),
        ('{"type": "move", "tiles": "8"}', ["tiles"]),
        ('{"type": "move", "tiles": [0]}', ["tile 0"]),
        ('{"type": "dice"}', ["count"]),
        ('{"type": "roll", "dice": [6, 6]}', ["dice", "Extra inputs"]),
        ('{"type": "move", "tiles": [true]}', ["tiles.0", "integer"]),  # it shut tile 1
        ('{"type": "dice", "count": "1"}', ["count", "integer"]),
        ('{"type": "rematch", "accept": "no"}', ["accept", "boolean"]),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    client: TestClient, raw: str, words: list[str]
) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    before = table.state()
    with connect(client, table, table.code) as socket:
        socket.receive_json()
        socket.send_text(raw)
        error = socket.receive_json()
        assert (error["type"], error["error"]) == ("error", "malformed")
        for word in words:
            assert word in error["detail"]
        quiet(socket)
    assert table.state() == before


def test_choosing_one_die_over_the_socket(client: TestClient) -> None:
    table, state = create(client, seats=[{"name": "Ana"}], rules={"tiles": 6}, seed=1)
    assert state["match"]["dice_options"] == [1, 2]
    with connect(client, table, table.code) as socket:
        socket.receive_json()
        socket.send_json({"type": "dice", "count": 3})
        error = socket.receive_json()
        assert (error["error"], "3 dice: choose one die or two" in error["detail"]) == ("illegal", True)
        socket.send_json({"type": "dice", "count": 1})
        chosen = next_of(socket, "state")["state"]["match"]
        assert (chosen["phase"], chosen["dice_count"]) == ("roll", 1)
        socket.send_json({"type": "roll"})
        rolled = next_of(socket, "state")["state"]
        assert len(rolled["recent"][-1]["dice"]) == 1


def test_a_binary_message_is_malformed(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with connect(client, table, table.code) as socket:
        socket.receive_json()
        socket.send_bytes(b'{"type": "roll"}')
        error = socket.receive_json()
        assert (error["error"], "JSON text" in error["detail"]) == ("malformed", True)
        quiet(socket)
    assert table.state()["events"] == 0


def test_a_hint_over_the_socket_goes_to_the_asker_only(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with connect(client, table, table.code) as socket, connect(client, None, table.code) as watcher:
        socket.receive_json()
        watcher.receive_json()  # a spectator's coming changes nobody's state: only it is told
        socket.send_json({"type": "hint"})
        error = socket.receive_json()
        assert (error["type"], error["error"]) == ("error", "no-decision")
        socket.send_json({"type": "roll"})
        next_of(socket, "state")
        next_of(watcher, "state")
        socket.send_json({"type": "hint"})
        hint = socket.receive_json()
        assert hint["type"] == "hint"
        assert hint["advice"]["choices"][0]["loss"] == 0
        quiet(watcher)


def test_the_bots_moves_are_pushed_and_the_game_ends(client: TestClient) -> None:
    table, _ = create(
        client, seats=[{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "expert"}], seed=4
    )
    with connect(client, table, table.code) as socket:
        state = socket.receive_json()["state"]
        for _ in range(200):
            if state["status"] == "over":
                break
            match = state["match"]
            if match["phase"] == "choose":
                socket.send_json({"type": "dice", "count": 2})
            elif match["phase"] in ("roll", "roll-off"):
                socket.send_json({"type": "roll"})
            else:
                socket.send_json({"type": "move", "tiles": match["legal_moves"][-1]})
            state = next_of(socket, "state")["state"]
            while state["status"] == "playing" and state["match"]["actor"] == 1:
                state = next_of(socket, "state")["state"]
        assert state["status"] == "over"
        assert state["saved_game_id"] is not None


def test_an_unknown_room_answers_not_found_and_closes(client: TestClient) -> None:
    with client.websocket_connect("/api/rooms/NNPE2/ws") as socket:
        error = socket.receive_json()
        assert (error["type"], error["error"]) == ("error", "not-found")
        assert "NNPE2" in error["detail"]
    with client.websocket_connect("/api/rooms/NOPE1/ws") as socket:  # no room code: not echoed
        error = socket.receive_json()
        assert (error["error"], "NOPE1" in error["detail"]) == ("not-found", False)
