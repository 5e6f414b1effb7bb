"""Watching a room by its link (issue 28, defect 5): no seat, no token, no action, no hint; the seats
see how many watch; the creator can make a room private (watchers refused, 403 with a reason)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.web import create, online, refused


def test_anyone_watches_a_full_room_by_its_link_and_may_not_act_or_ask(client: TestClient) -> None:
    host, _guest = online(client)
    seen = client.get(f"/api/rooms/{host.code}")  # no token at all
    assert seen.status_code == 200 and seen.json()["you"] == [] and seen.json()["private"] is False
    refused(client.post(f"/api/rooms/{host.code}/actions", json={"type": "roll"}), 403, "wrong-seat")
    refused(client.get(f"/api/rooms/{host.code}/hint"), 403, "wrong-seat")
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": "Zoe"}), 409, "room-full")


def test_the_seats_see_how_many_watch(client: TestClient) -> None:
    host, guest = online(client)
    with client.websocket_connect(f"/api/rooms/{host.code}/ws?token={host.token}") as seat:
        assert seat.receive_json()["state"]["watchers"] == 0
        with client.websocket_connect(f"/api/rooms/{host.code}/ws") as watcher:
            assert watcher.receive_json()["state"]["you"] == []
            assert host.state()["watchers"] == 1
            mover = host if host.state()["match"]["actor"] in host.state()["you"] else guest
            mover.post({"type": "roll"})
            assert seat.receive_json()["state"]["watchers"] == 1  # told with the next state, not at once
    assert host.state()["watchers"] == 0


def test_the_creator_makes_a_room_private_and_watchers_are_refused(client: TestClient) -> None:
    host, guest = online(client)
    refused(client.post(f"/api/rooms/{host.code}/privacy", json={"private": True}, headers=guest.headers),
            403, "wrong-seat", "creator")
    assert client.get(f"/api/rooms/{host.code}").status_code == 200  # the guest's try changed nothing
    made = client.post(f"/api/rooms/{host.code}/privacy", json={"private": True}, headers=host.headers)
    assert made.json() == {"code": host.code, "private": True}
    refused(client.get(f"/api/rooms/{host.code}"), 403, "private", "private")
    assert guest.state()["private"] is True  # the seats still see it
    with client.websocket_connect(f"/api/rooms/{host.code}/ws") as watcher:
        assert watcher.receive_json()["error"] == "private"


def test_a_room_created_private_still_shows_its_invitation_until_full(client: TestClient) -> None:
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}], private=True, seed=3)
    invited = client.get(f"/api/rooms/{host.code}").json()  # the invited see who invites, to what
    assert invited["status"] == "waiting" and invited["seats"][0]["name"] == "Ana"
    client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis"})
    refused(client.get(f"/api/rooms/{host.code}"), 403, "private")


def test_a_watcher_whose_room_turns_private_is_sent_away(client: TestClient) -> None:
    host, _guest = online(client)
    with client.websocket_connect(f"/api/rooms/{host.code}/ws") as watcher:
        watcher.receive_json()
        client.post(f"/api/rooms/{host.code}/privacy", json={"private": True}, headers=host.headers)
        closed = watcher.receive()
        assert closed["type"] == "websocket.close"


def test_a_private_rooms_record_is_its_players_alone(client: TestClient) -> None:
    """Regression: the room and its socket refused a stranger, but its record (every roll and move so
    far, the names) was anyone's with the code."""
    host, guest = online(client)
    client.post(f"/api/rooms/{host.code}/privacy", json={"private": True}, headers=host.headers)
    refused(client.get(f"/api/rooms/{host.code}/record"), 403, "private")
    for seat in (host, guest):
        assert client.get(f"/api/rooms/{host.code}/record", headers=seat.headers).status_code == 200
    client.post(f"/api/rooms/{host.code}/privacy", json={"private": False}, headers=host.headers)
    assert client.get(f"/api/rooms/{host.code}/record").status_code == 200  # open again: anyone's
