"""Games in play per player (issue 28, defect 1): the cap follows the player (a profile, a guest key,
else the address), not everyone behind one address; a player lists their games and resigns each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from shutthebox.web import create_app
from tests.support.web import SOLO, create, refused, settings_at

RANKED = {"seats": [{"name": "Ana"}]}


def as_guest(client: TestClient, guest: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/rooms", json=body, headers={"X-Guest-Key": guest})
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_guests_behind_one_address_each_have_their_own_cap(tmp_path: Path) -> None:
    """Today's regression: 20 unfinished games from one address blocked everyone behind it."""
    with TestClient(create_app(settings_at(tmp_path, max_rooms_per_player=2))) as client:
        as_guest(client, "pub-ana", SOLO)
        as_guest(client, "pub-ana", SOLO)
        refused(client.post("/api/rooms", json=SOLO, headers={"X-Guest-Key": "pub-ana"}),
                429, "too-many", "2 games", "resign")
        as_guest(client, "pub-luis", SOLO)  # another guest at the same address plays on


def test_the_address_keeps_a_higher_ceiling(tmp_path: Path) -> None:
    settings = settings_at(tmp_path, max_rooms_per_player=2, max_rooms_per_client=3)
    with TestClient(create_app(settings)) as client:
        for guest in ("a", "b", "c"):
            as_guest(client, guest, SOLO)
        fourth = client.post("/api/rooms", json=SOLO, headers={"X-Guest-Key": "d"})
        refused(fourth, 429, "too-many", "address")


def test_a_player_lists_their_games_in_play_and_no_one_elses(tmp_path: Path) -> None:
    with TestClient(create_app(settings_at(tmp_path))) as client:
        mine = as_guest(client, "ana-key", {**SOLO, "rules": {"tiles": 10}})
        as_guest(client, "luis-key", SOLO)
        listed = client.get("/api/me/rooms", headers={"X-Guest-Key": "ana-key"}).json()
        assert [game["code"] for game in listed["games"]] == [mine["code"]]
        game = listed["games"][0]
        facts = (game["tiles"], game["players"], game["status"], game["kind"])
        assert facts == (10, ["Ana"], "playing", "practice")
        assert "token" not in str(listed)  # the seat token stays with the page that holds it
        assert listed["limit"] == 20


def test_resigning_frees_a_place_and_a_ranked_game_is_played_to_its_end(tmp_path: Path) -> None:
    with TestClient(create_app(settings_at(tmp_path, max_rooms_per_player=1))) as client:
        room = as_guest(client, "ana-key", RANKED)  # ranked: fair dice, no seed
        refused(client.post("/api/rooms", json=SOLO, headers={"X-Guest-Key": "ana-key"}), 429, "too-many")
        resigned = client.post(
            f"/api/rooms/{room['code']}/resign", headers={"Authorization": f"Bearer {room['token']}"}
        )
        assert resigned.status_code == 200, resigned.text
        state = resigned.json()["state"]
        assert state["status"] == "over"  # a bot played the seat out: the game counts as played to its end
        assert state["stood_in"] == [0] and state["seats"][0]["stand_in"]
        assert client.get("/api/me/rooms", headers={"X-Guest-Key": "ana-key"}).json()["games"] == []
        as_guest(client, "ana-key", SOLO)  # its place is free


def test_the_creator_resigns_with_the_guest_key_alone(tmp_path: Path) -> None:
    """A page that lost the seat token (another tab, a cleared store) still resigns its own game."""
    with TestClient(create_app(settings_at(tmp_path))) as client:
        room = as_guest(client, "ana-key", SOLO)
        refused(client.post(f"/api/rooms/{room['code']}/resign", headers={"X-Guest-Key": "luis-key"}),
                403, "wrong-seat")
        resigned = client.post(f"/api/rooms/{room['code']}/resign", headers={"X-Guest-Key": "ana-key"})
        assert resigned.status_code == 200, resigned.text
        assert client.get("/api/me/rooms", headers={"X-Guest-Key": "ana-key"}).json()["games"] == []


def test_a_token_of_no_seat_and_no_profile_is_told_it_holds_no_seat(tmp_path: Path) -> None:
    """Regression: a bearer token that was neither a seat of the room nor a profile key was answered
    401 "no player profile has this key; create one first", about profiles it never asked for; a
    creator's guest key beside a stale token was refused the same way. Both now read as what they are."""
    with TestClient(create_app(settings_at(tmp_path))) as client:
        room = as_guest(client, "ana-key", SOLO)
        stale = {"Authorization": "Bearer not-a-seat-of-this-room"}
        refused(client.post(f"/api/rooms/{room['code']}/resign", headers=stale), 403, "wrong-seat", "no seat")
        assert client.get("/api/me/rooms", headers={"X-Guest-Key": "ana-key"}).json()["games"] != []
        with_key = {**stale, "X-Guest-Key": "ana-key"}
        resigned = client.post(f"/api/rooms/{room['code']}/resign", headers=with_key)
        assert resigned.status_code == 200, resigned.text
        assert client.get("/api/me/rooms", headers={"X-Guest-Key": "ana-key"}).json()["games"] == []


def test_nobody_resigns_a_game_by_sharing_its_creators_address(tmp_path: Path) -> None:
    """Regression: a room made with no key is its address's; anyone else behind that address (a pub, a
    school) listed it and resigned it with no token and no key, a bot then playing the seat."""
    with TestClient(create_app(settings_at(tmp_path))) as client:
        made = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"kind": "remote"}]})
        room = made.json()
        client.post(f"/api/rooms/{room['code']}/join", json={"name": "Luis"})
        refused(client.post(f"/api/rooms/{room['code']}/resign"), 403, "wrong-seat")
        seats = client.get(f"/api/rooms/{room['code']}", headers={"Authorization": f"Bearer {room['token']}"})
        assert seats.json()["seats"][0]["stand_in"] is False  # nothing changed
        resigned = client.post(f"/api/rooms/{room['code']}/resign",
                               headers={"Authorization": f"Bearer {room['token']}"})
        assert resigned.status_code == 200, resigned.text  # its own token does


def test_a_room_not_begun_is_closed_by_resigning_and_a_finished_one_refuses(client: TestClient) -> None:
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
    resigned = client.post(f"/api/rooms/{host.code}/resign", headers=host.headers)
    assert resigned.status_code == 200 and resigned.json() == {"code": host.code, "state": None}
    refused(client.get(f"/api/rooms/{host.code}"), 404, "not-found")
    done, _ = create(client, **SOLO)
    done.play_while_mine()
    refused(client.post(f"/api/rooms/{done.code}/resign", headers=done.headers), 409, "over")


def test_a_malformed_guest_key_is_refused_and_changes_nothing(client: TestClient) -> None:
    refused(client.post("/api/rooms", json=SOLO, headers={"X-Guest-Key": "no spaces!"}), 422, "malformed")
    assert client.get("/api/games").json()["games"] == []


# -- issue 28, defect 14: guests no longer all share "Player" ------------------------------------
def test_guests_get_distinct_default_names_and_a_friend_joins_without_a_clash(client: TestClient) -> None:
    seats = [{"kind": "here"}, {"kind": "remote"}]
    host = client.post("/api/rooms", json={"seats": seats, "seed": 2}, headers={"X-Guest-Key": "ana-key"})
    assert host.status_code == 201, host.text
    code = host.json()["code"]
    joined = client.post(f"/api/rooms/{code}/join", json={}, headers={"X-Guest-Key": "luis-key"})
    assert joined.status_code == 200, joined.text
    names = [seat["name"] for seat in joined.json()["state"]["seats"]]
    assert names[0] != names[1] and all(name.startswith("Player ") for name in names)
    again = as_guest(client, "ana-key", {"seats": [{"kind": "here"}], "seed": 2})
    assert again["state"]["seats"][0]["name"] == names[0]  # a guest keeps their name from room to room


def test_a_profile_that_takes_a_guests_own_name_shuts_nobody_out(client: TestClient) -> None:
    """Regression: a guest's own name is one of 9,000 ("Player 1817"), shown to everyone at their table;
    a profile made under it (10 a minute from an address) refused that guest every room and join."""
    seats = [{"kind": "here"}, {"kind": "remote"}]
    first = client.post("/api/rooms", json={"seats": seats}, headers={"X-Guest-Key": "ana-key"}).json()
    own = first["state"]["seats"][0]["name"]
    assert client.post("/api/profiles", json={"name": own}).status_code == 201  # taken by a stranger
    again = client.post("/api/rooms", json={"seats": seats}, headers={"X-Guest-Key": "ana-key"})
    assert again.status_code == 201, again.text
    other = again.json()["state"]["seats"][0]["name"]
    assert other != own and other.startswith("Player ")
    assert client.post("/api/rooms", json={"seats": seats}, headers={"X-Guest-Key": "ana-key"}).json()[
        "state"]["seats"][0]["name"] == other  # the same one each time
    joined = client.post(f"/api/rooms/{first['code']}/join", json={}, headers={"X-Guest-Key": "ana-key"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["state"]["seats"][1]["name"] == other


def test_a_guest_name_is_said_in_the_readers_language(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"seats": [{}], "seed": 2},
                       headers={"X-Guest-Key": "ana-key", "Accept-Language": "es"})
    assert made.json()["state"]["seats"][0]["name"].startswith("Jugador ")


# -- hostile round four (issue 29) ---------------------------------------------------------------
def test_a_joiner_who_leaves_before_the_start_frees_their_seat_and_closes_nothing(client: TestClient) -> None:
    """Regression: anyone who took one seat of a waiting room (its link, or a guessed code) could
    resign and so delete the room for its creator and everyone who had joined."""
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}, {"kind": "remote"}])
    joined = client.post(f"/api/rooms/{host.code}/join", json={"name": "Stranger"}).json()
    stranger = {"Authorization": f"Bearer {joined['token']}"}
    left = client.post(f"/api/rooms/{host.code}/resign", headers=stranger)
    assert left.status_code == 200, left.text
    state = client.get(f"/api/rooms/{host.code}", headers=host.headers).json()
    assert (state["status"], [seat["name"] for seat in state["seats"]]) == ("waiting", ["Ana", None, None])
    refused(client.post(f"/api/rooms/{host.code}/resign", headers=stranger), 403, "wrong-seat", "no seat")
    for name in ("Luis", "Marta"):  # the seat is open again: the game begins with the next two
        assert client.post(f"/api/rooms/{host.code}/join", json={"name": name}).status_code == 200
    assert client.get(f"/api/rooms/{host.code}", headers=host.headers).json()["status"] == "playing"


def test_resigning_again_writes_and_tells_nothing(client: TestClient) -> None:
    """Regression: each repeated resign of seats already left was a write and a state pushed to every
    socket, the room's version growing by one each time, though nothing changed."""
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
    joined = client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis"}).json()
    luis = {"Authorization": f"Bearer {joined['token']}"}
    first = client.post(f"/api/rooms/{host.code}/resign", headers=luis).json()["state"]
    for _ in range(3):
        again = client.post(f"/api/rooms/{host.code}/resign", headers=luis)
        assert again.status_code == 200 and again.json()["state"]["version"] == first["version"]
