"""Online results people can trust: fair dice nobody picks, ranked play, profiles nobody can borrow."""

from __future__ import annotations

import hashlib
import random
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from shutthebox.core.fair import die
from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from web.helpers import Table, create, profile_key


def refused(response: Any, status: int, error: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == error, body
    for word in words:
        assert word in body["detail"], body["detail"]


def join(client: TestClient, code: str, key: str | None = None, **body: Any) -> tuple[Table, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = client.post(f"/api/rooms/{code}/join", json=body, headers=headers)
    assert response.status_code == 200, response.text
    data = response.json()
    return Table(client, code, data["token"]), data["state"]


def play_out(*tables: Table) -> dict[str, Any]:
    """Each seat plays its turns until the game is over."""
    state = tables[0].state()
    while state["status"] == "playing":
        actor = state["match"]["actor"]
        table = next(t for t in tables if actor in t.state()["you"])
        state = table.step()
    return state


# -- fair dice -------------------------------------------------------------------------------------
def commit(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/commitments")
    assert response.status_code == 201, response.text
    promise: dict[str, Any] = response.json()
    return promise


def test_the_dice_come_from_the_committed_seed_and_every_client_seed(client: TestClient) -> None:
    promise = commit(client)
    assert promise["server_seed"] is None and promise["client_seeds"] == []
    host, state = create(
        client, seats=[{"name": "Ana"}, {"kind": "remote"}], ticket=promise["ticket"], client_seed="ana-seed"
    )
    commitment = state["fairness"]["commitment"]
    assert commitment == promise["commitment"]  # committed before the server knew Ana's seed
    guest, joined = join(client, host.code, name="Luis", client_seed="luis-seed")
    assert joined["fairness"]["client_seeds"] == ["ana-seed", "luis-seed"]
    assert joined["fairness"]["commitment"] == commitment and joined["fairness"]["server_seed"] is None
    over = play_out(host, guest)
    seed = bytes.fromhex(over["fairness"]["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment
    record = client.get(f"/api/rooms/{host.code}/record").json()
    faces = [face for event in record["events"] if "roll" in event for face in event["roll"]]
    assert faces == [die(seed, ["ana-seed", "luis-seed"], k) for k in range(len(faces))]
    assert verify(GameRecord.from_json(record)).proven


def test_a_creator_learns_nothing_that_tells_the_next_roll(client: TestClient) -> None:
    """Before: a creator chose the seed and predicted 10 of 10 rolls, the opponent's included."""
    response = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"kind": "remote"}]})
    assert response.status_code == 201
    text = response.text
    host = Table(client, response.json()["code"], response.json()["token"])
    guest, _ = join(client, host.code, name="Luis")
    during = client.get(f"/api/rooms/{host.code}/record").json()
    assert during["seed"] is None and during["fairness"]["server_seed"] is None
    over = play_out(host, guest)
    assert over["fairness"]["server_seed"] not in text  # nothing said at creation held the seed


def test_a_creators_client_seed_comes_only_after_the_commitment(client: TestClient) -> None:
    """Before: the server learned the creator's seed before it drew and committed to its own."""
    solo = {"seats": [{"name": "Ana"}]}
    refused(client.post("/api/rooms", json={**solo, "client_seed": "early"}), 422, "malformed", "commit")
    ticket = commit(client)["ticket"]
    practice = {**solo, "ticket": ticket, "seed": 3}
    refused(client.post("/api/rooms", json=practice), 422, "malformed", "practice")
    create(client, **solo, ticket=ticket, client_seed="mine")
    refused(client.post("/api/rooms", json={**solo, "ticket": ticket}), 422, "malformed", "ticket")  # once
    refused(client.post("/api/rooms", json={**solo, "ticket": "forged"}), 422, "malformed", "ticket")


@pytest.mark.parametrize("seed", ["", "a,b", "x" * 65, "semi:colon", "ñ"])
def test_a_client_seed_that_could_blur_the_dice_is_refused(client: TestClient, seed: str) -> None:
    ticket = commit(client)["ticket"]
    refused(
        client.post("/api/rooms", json={"seats": [{"name": "Ana"}], "ticket": ticket, "client_seed": seed}),
        422, "malformed",
    )
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
    before = host.state()
    refused(
        client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis", "client_seed": seed}),
        422,
        "malformed",
    )
    assert host.state() == before  # the seat is still open


# -- ranked and practice -------------------------------------------------------------------------------
def test_a_chosen_seed_makes_a_practice_room_every_seat_is_told_of(client: TestClient) -> None:
    key = profile_key(client, "Ana")
    host, state = create(client, key=key, seats=[{}, {"kind": "remote"}], seed=1234)
    assert (state["kind"], state["ranked"], state["seed"], state["fairness"]) == (
        "practice",
        False,
        1234,
        None,
    )
    guest, joined = join(client, host.code, name="Luis")
    assert (joined["kind"], joined["seed"]) == ("practice", 1234)  # the joiner sees it too
    play_out(host, guest)
    games = client.get("/api/games").json()["games"]
    assert [(g["kind"], g["ranked"]) for g in games] == [("practice", False)]
    assert client.get("/api/leaderboard").json()["entries"] == []
    assert client.get("/api/players/Ana/bests").json()["bests"] == []


def test_six_shut_boxes_on_a_chosen_seed_never_reach_the_leaderboard(client: TestClient) -> None:
    """Before: six games on a chosen seed put a player first on the classic leaderboard."""
    key = profile_key(client, "Mallory")
    for _ in range(6):
        create(client, key=key, seats=[{}], seed=99)[0].play_while_mine()
    fair = profile_key(client, "Ana")
    create(client, key=fair, seats=[{}])[0].play_while_mine()
    assert [e["player"] for e in client.get("/api/leaderboard").json()["entries"]] == ["Ana"]


def test_a_hint_makes_the_askers_turn_count_as_it_stood_and_the_others_as_played(client: TestClient) -> None:
    """The dice are fair, so a round may end before Ana decides anything (Luis starts and shuts the
    box): then a new round, until she has a choice to ask about. The hint cannot take her turn out of
    the rankings: it counts as it stood when she asked (its open tiles then), Luis's as he played."""
    def anas_choice(match: dict[str, Any]) -> bool:
        return bool(match["is_decision"]) and match["actor"] == 0

    ana, luis = profile_key(client, "Ana"), profile_key(client, "Luis")
    for _round in range(10):
        host, _ = create(client, key=ana, seats=[{}, {"kind": "remote"}])
        guest, _ = join(client, host.code, key=luis)
        state = host.state()
        while state["status"] == "playing" and not anas_choice(state["match"]):
            (host if state["match"]["actor"] == 0 else guest).step()
            state = host.state()
        if state["status"] == "playing":
            break
    asked_at = sum(state["match"]["board"]["open"])
    turns_before = sum(1 for t in state["match"]["history"] if t["player"] == 0)
    assert client.get(f"/api/rooms/{host.code}/hint", headers=host.headers).status_code == 200
    assert host.state()["assisted"] == [0]
    play_out(host, guest)
    assert client.get("/api/games").json()["games"][0]["kind"] == "ranked"  # help voids nothing
    anas = client.get("/api/players/Ana/history").json()["turns"][::-1]  # oldest first
    helped = anas[turns_before]
    assert helped["score"] <= asked_at and helped["counted"] == asked_at
    assert all(t["counted"] == t["score"] for i, t in enumerate(anas) if i != turns_before)
    assert all(t["counted"] == t["score"] for t in client.get("/api/players/Luis/history").json()["turns"])
    board = {e["player"]: e["best"] for e in client.get("/api/leaderboard").json()["entries"]}
    assert board["Ana"] == min(t["counted"] for t in anas) and "Luis" in board


def test_bots_and_guests_are_never_on_the_leaderboard(client: TestClient) -> None:
    create(client, seats=[{"name": "Guest"}, {"kind": "bot", "name": "Robo", "bot": "expert"}])[
        0
    ].play_while_mine()
    assert client.get("/api/leaderboard").json()["entries"] == []
    games = client.get("/api/games").json()["games"]
    assert games and games[0]["ranked"]  # the game itself was fair; nobody in it has a profile


# -- profiles ---------------------------------------------------------------------------------------------
def test_a_profile_is_created_named_and_found_by_its_key_only(client: TestClient) -> None:
    made = client.post("/api/profiles", json={"name": "  Ana   María "})
    assert made.status_code == 201
    key, profile = made.json()["key"], made.json()["profile"]
    assert profile["name"] == "Ana María"
    me = client.get("/api/profiles/me", headers={"Authorization": f"Bearer {key}"})
    assert me.json() == profile
    renamed = client.patch(
        "/api/profiles/me", json={"name": "Anita"}, headers={"Authorization": f"Bearer {key}"}
    )
    assert renamed.json() == {"id": profile["id"], "name": "Anita"}
    refused(client.get("/api/profiles/me", headers={"Authorization": "Bearer not-a-key"}), 401, "no-profile")
    refused(client.get("/api/profiles/me"), 401, "no-profile")
    refused(
        client.post("/api/rooms", json={"seats": [{}]}, headers={"Authorization": "Bearer wrong"}),
        401,
        "no-profile",
    )


@pytest.mark.parametrize("look_alike", ["\u0410na", "\uff21\uff4e\uff41", "ANA", "ana", " Ana "])
def test_two_profiles_cannot_hold_names_that_look_alike(client: TestClient, look_alike: str) -> None:
    profile_key(client, "Ana")
    refused(client.post("/api/profiles", json={"name": look_alike}), 409, "name-taken", "Ana")
    other = profile_key(client, "Eva")
    refused(
        client.patch(
            "/api/profiles/me", json={"name": look_alike}, headers={"Authorization": f"Bearer {other}"}
        ),
        409,
        "name-taken",
    )
    assert (
        client.get("/api/profiles/me", headers={"Authorization": f"Bearer {other}"}).json()["name"] == "Eva"
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "visible character"),
        ("a\u0000b", "U+0000"),
        ("\u202eanA", "U+202E"),
        ("x" * 25, "longer than 24"),
    ],
)
def test_a_name_that_cannot_be_shown_is_refused_with_the_reason(
    client: TestClient, name: str, words: str
) -> None:
    refused(client.post("/api/profiles", json={"name": name}), 422, "malformed", words)
    refused(client.post("/api/rooms", json={"seats": [{"name": name}]}), 422, "malformed", words)


@pytest.mark.parametrize("name", ["AC/DC", "👨‍👩‍👧‍👦 Fam", "🇪🇸 José", "50% off?#"])
def test_any_typed_name_plays_and_shows_its_bests_by_url(client: TestClient, name: str) -> None:
    key = profile_key(client, name)
    table, state = create(client, key=key, seats=[{}])
    assert state["seats"][0]["name"] == name and state["seats"][0]["profile"] is not None
    score = table.play_while_mine()["match"]["history"][0]["score"]
    bests = client.get(f"/api/players/{quote(name, safe='')}/bests").json()
    assert bests["player"] == name and [b["score"] for b in bests["bests"]] == [score]
    history = client.get(f"/api/players/{quote(name, safe='')}/history").json()["turns"]
    assert [t["score"] for t in history] == [score]
    assert [e["player"] for e in client.get("/api/leaderboard").json()["entries"]] == [name]


def test_a_profile_joins_under_its_own_name_and_only_once(client: TestClient) -> None:
    ana = profile_key(client, "Ana")
    host, _ = create(client, key=ana, seats=[{}, {"kind": "remote"}, {"kind": "remote"}])
    refused(
        client.post(f"/api/rooms/{host.code}/join", json={}, headers={"Authorization": f"Bearer {ana}"}),
        409,
        "name-taken",
    )
    luis = profile_key(client, "Luis")
    _, state = join(client, host.code, key=luis, name="Someone else")
    assert [s["name"] for s in state["seats"][:2]] == ["Ana", "Luis"]
    refused(client.post(f"/api/rooms/{host.code}/join", json={}), 422, "malformed", "name")


def test_the_leaderboard_ranks_fair_games_of_profiles(client: TestClient) -> None:
    rng = random.Random(3)
    keys = {name: profile_key(client, name) for name in ("Ana", "Luis", "Eva")}
    best: dict[str, int] = {}
    for _ in range(6):
        name = rng.choice(list(keys))
        score = create(client, key=keys[name], seats=[{}])[0].play_while_mine()["match"]["history"][0][
            "score"
        ]
        best[name] = min(best.get(name, score), score)
    entries = client.get("/api/leaderboard").json()["entries"]
    assert {e["player"]: e["best"] for e in entries} == best
    assert [e["best"] for e in entries] == sorted(e["best"] for e in entries)
    assert all(isinstance(e["profile"], int) for e in entries)


def test_a_look_alike_is_refused_in_the_readers_language(client: TestClient) -> None:
    profile_key(client, "Ana")
    response = client.post("/api/profiles", json={"name": "\u0410na"}, headers={"Accept-Language": "es"})
    refused(response, 409, "name-taken", "se parece demasiado a 'Ana'")


def test_a_guest_or_a_bot_cannot_pass_for_a_profile(client: TestClient) -> None:
    """Before: a guest seat named Ana played, and its games showed in Ana's history."""
    profile_key(client, "Ana")
    for seats in ([{"name": "ana"}], [{"name": "Luis"}, {"kind": "bot", "name": "\u0410na", "bot": "easy"}]):
        refused(client.post("/api/rooms", json={"seats": seats}), 409, "name-taken", "profile")
    host, _ = create(client, seats=[{"name": "Luis"}, {"kind": "remote"}])
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": "ANA"}), 409, "name-taken")
    refused(client.post("/api/rooms", json={"seats": [{"name": "Eva"}, {"name": "EVA"}]}), 409, "name-taken")
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": "luis"}), 409, "name-taken")


def test_a_players_history_is_the_profiles(client: TestClient) -> None:
    ana = profile_key(client, "Ana")
    table, _ = create(client, key=ana, seats=[{}])
    score = table.play_while_mine()["match"]["history"][0]["score"]
    assert [t["score"] for t in client.get("/api/players/Ana/history").json()["turns"]] == [score]
    games = client.get("/api/games", params={"player": "Ana"}).json()["games"]
    assert [g["scores"][0]["score"] for g in games] == [score]


def test_games_rolled_on_a_players_own_machine_stay_off_the_server_board(client: TestClient) -> None:
    """Before: a terminal game on the same database put its player first on the server's leaderboard."""
    from shutthebox import Game, Rules

    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    termy = lobby.profiles.create("Termy")[0]
    game = Game(Rules(mode="solo"), ["Termy"])  # type: ignore[arg-type]
    while not game.state.is_over:
        state = game.state
        game.roll() if state.is_chance else game.act(state.legal_actions()[0])
    game.save(lobby.games, source="terminal", profiles={0: termy.id})
    assert lobby.games.leaderboard() and client.get("/api/leaderboard").json()["entries"] == []
    assert client.get("/api/players/Termy/bests").json()["bests"] == []
    assert lobby.games.bests("Termy")  # the terminal's own bests keep it


@pytest.mark.parametrize("path", ["/api/profiles", "/api/rooms"])
def test_a_lone_surrogate_in_a_name_is_a_refusal_not_a_crash(client: TestClient, path: str) -> None:
    body = '{"name": "\\ud800"}' if path == "/api/profiles" else '{"seats": [{"name": "A\\ud800"}]}'
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["error"] == "malformed"


@pytest.mark.parametrize("seed", [True, -1, 2**63, "7", 1.5])
def test_a_practice_seed_is_a_whole_number_that_fits(client: TestClient, seed: object) -> None:
    response = client.post("/api/rooms", json={"seats": [{"name": "Ana"}], "seed": seed})
    refused(response, 422, "malformed", "seed")
