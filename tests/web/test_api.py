"""The JSON API: every route, and every refusal leaves the room as it was."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.core.record import GameRecord, replay, result_of
from shutthebox.web import Settings, create_app
from tests.support.web import SOLO, Table, create, online, profile_key, refused


# -- rules and the page ----------------------------------------------------------
def test_rules_catalog_lists_every_option_preset_and_bot(client: TestClient) -> None:
    catalog = client.get("/api/rules").json()
    assert set(catalog["options"]) == set(catalog["defaults"])
    assert catalog["options"]["scoring"]["values"] == ["sum", "sum-plus-roll", "digits", "count"]
    assert catalog["presets"]["web"]["one_die"] == "sum-le-6"
    assert set(catalog["strengths"]) == {"easy", "medium", "hard", "expert"}
    assert "optimal" in catalog["bots"]


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/sw.js").status_code == 200


def test_openapi_describes_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in [
        "/api/rules", "/api/rooms", "/api/rooms/{code}", "/api/rooms/{code}/join",
        "/api/rooms/{code}/actions", "/api/rooms/{code}/hint", "/api/rooms/{code}/review",
        "/api/rooms/{code}/record", "/api/games", "/api/games/{game_id}",
        "/api/games/{game_id}/review", "/api/players/{name}/history",
        "/api/players/{name}/bests", "/api/leaderboard",
    ]:
        assert path in paths, path


# -- creating rooms --------------------------------------------------------------
def test_one_player_alone_plays_solo_with_the_server_dice(client: TestClient) -> None:
    table, state = create(client, **SOLO)
    assert len(table.code) == 5
    assert state["status"] == "playing"
    assert state["rules"]["mode"] == "solo"
    assert state["you"] == [0]
    match = state["match"]
    assert (match["phase"], match["dice_options"]) == ("roll", [2])
    assert (match["is_chance"], match["is_decision"], match["dice_due"]) == (True, False, 2)
    assert match["board"]["open"] == list(range(1, 10))


def test_every_rule_option_can_be_chosen(client: TestClient) -> None:
    options = {
        "tiles": 12, "one_die": "sum-lt-6", "one_die_forced": True, "max_tiles": 3,
        "scoring": "digits", "mode": "elimination", "shut_wins": False, "stake": 2,
        "limit": 30, "doubles_extra_turn": True,
    }
    _, state = create(client, seats=[{"name": "Ana"}, {"name": "Luis"}], rules=options)
    assert state["rules"] == options
    assert state["match"]["phase"] == "roll-off"
    assert state["match"]["board"]["size"] == 12


def test_a_preset_with_options_over_it(client: TestClient) -> None:
    _, state = create(client, seats=[{"name": "Ana"}], preset="web-10", rules={"scoring": "count"})
    assert (state["rules"]["tiles"], state["rules"]["one_die"]) == (10, "sum-le-6")
    assert state["rules"]["scoring"] == "count"


@pytest.mark.parametrize(
    ("body", "status", "error", "words"),
    [
        ({"seats": [{"name": "Ana"}], "preset": "nope"}, 422, "malformed", ["unknown preset 'nope'"]),
        ({"seats": [{"name": "Ana"}], "rules": {"tiles": 13}}, 422, "malformed", ["tiles", "13"]),
        ({"seats": [{"name": "Ana"}], "rules": {"scoring": "golf"}}, 422, "malformed", ["'golf'"]),
        ({"seats": [{"name": "Ana"}], "rules": {"colour": "red"}}, 422, "malformed", ["'colour'"]),
        ({"seats": []}, 422, "malformed", ["seats"]),
        ({"seats": [{"name": "Ana"}], "rounds": 0}, 422, "malformed", ["rounds"]),
        ({"seats": [{"name": "Ana"}], "extra": 1}, 422, "malformed", ["extra"]),
        ({"seats": [{"name": ""}]}, 422, "malformed", ["seat 0: a name needs at least one visible"]),
        (
            {"seats": [{"name": "Ana"}, {"name": "Ana"}]}, 409, "name-taken",
            ["player names must differ: Ana, Ana"],
        ),
        ({"seats": [{"kind": "bot", "name": "B", "bot": "hard"}]}, 422, "malformed", ["played here"]),
        (
            {"seats": [{"name": "Ana"}, {"kind": "bot", "name": "B", "bot": "genius"}]},
            422, "malformed", ["unknown bot 'genius'", "expert"],
        ),
        (
            {"seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "rules": {"mode": "long"}},
            422, "malformed", ["two players, not 3"],
        ),
        (
            {"seats": [{"name": "A"}, {"kind": "remote"}], "rules": {"mode": "solo"}},
            422, "malformed", ["solo is played by one player"],
        ),
        (  # alone, the player rolled for the start of every round (rules: solo is one turn)
            {"seats": [{"name": "Ana"}], "rounds": 3}, 422, "malformed",
            ["rounds 3: one player plays one turn; rounds are for two players or more"],
        ),
    ],
)
def test_bad_room_requests_name_what_is_wrong(
    client: TestClient, body: dict[str, Any], status: int, error: str, words: list[str]
) -> None:
    refused(client.post("/api/rooms", json=body), status, error, *words)


def test_unknown_room_is_not_found(client: TestClient) -> None:
    refused(client.get("/api/rooms/ZZZZZ"), 404, "not-found", "ZZZZZ")
    refused(client.post("/api/rooms/ZZZZZ/actions", json={"type": "roll"}), 404, "not-found")
    refused(client.post("/api/rooms/ZZZZZ/join", json={"name": "Luis"}), 404, "not-found")


# -- a whole game --------------------------------------------------------------------
def test_a_solo_game_is_played_saved_and_replays(client: TestClient) -> None:
    table, _ = create(client, **SOLO)
    state = table.play_while_mine()
    assert state["status"] == "over"
    game_id = state["saved_game_id"]
    assert isinstance(game_id, int)
    turn = state["match"]["history"][0]
    assert turn["score"] == sum(turn["open"])
    record = GameRecord.from_json(client.get(f"/api/rooms/{table.code}/record").json())
    assert record.seed == 7
    assert result_of(replay(record)) == state["match"]["result"]
    stored = client.get(f"/api/games/{game_id}").json()
    assert stored["scores"] == [{"player": "Ana", "score": turn["score"]}]
    assert stored["record"] == record.to_json()
    assert client.get("/api/games").json()["total"] == 1
    assert client.get("/api/games", params={"player": "Nadie"}).json() == {"games": [], "total": 0}  # was 1
    assert client.get("/api/games", params={"player": "Ana", "limit": 1}).json()["total"] == 1


def test_the_fair_seed_stays_secret_until_the_game_is_over(client: TestClient) -> None:
    table, state = create(client, seats=[{"name": "Ana"}])
    committed = state["fairness"]
    assert state["seed"] is None and state["kind"] == "ranked" and committed["server_seed"] is None
    during = client.get(f"/api/rooms/{table.code}/record").json()
    assert during["seed"] is None and during["fairness"] == committed
    over = table.play_while_mine()
    record = client.get(f"/api/rooms/{table.code}/record").json()
    revealed = over["fairness"]["server_seed"]
    assert record["fairness"]["server_seed"] == revealed
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == committed["commitment"]
    assert result_of(replay(GameRecord.from_json(record))) == over["match"]["result"]


def test_the_same_seed_rolls_the_same_dice(client: TestClient) -> None:
    first, _ = create(client, **SOLO)
    second, _ = create(client, **SOLO)
    assert first.act({"type": "roll"})["match"]["roll"] == second.act({"type": "roll"})["match"]["roll"]


def test_the_recent_events_show_each_roll_and_move(client: TestClient) -> None:
    table, _ = create(client, **SOLO)
    rolled = table.act({"type": "roll"})
    move = rolled["match"]["legal_moves"][0]
    moved = table.act({"type": "move", "tiles": move})
    assert [e["kind"] for e in moved["recent"]] == ["roll", "move"]
    assert moved["recent"][0]["dice"] == rolled["match"]["roll"]
    assert moved["recent"][1]["tiles"] == move
    assert moved["events"] == 2


def test_one_die_is_offered_only_when_the_rules_allow(client: TestClient) -> None:
    table, state = create(client, seats=[{"name": "Ana"}], rules={"tiles": 6}, seed=1)
    assert state["match"]["phase"] == "choose"  # tiles 1-6 only: one die allowed (high-shut)
    assert state["match"]["dice_options"] == [1, 2]
    chosen = table.act({"type": "dice", "count": 1})
    assert (chosen["match"]["phase"], chosen["match"]["dice_count"]) == ("roll", 1)
    rolled = table.act({"type": "roll"})
    assert len(rolled["match"]["roll"]) == 1


# -- refusals: nothing changes -----------------------------------------------------------
def test_an_illegal_move_is_refused_and_nothing_changes(client: TestClient) -> None:
    table, _ = create(client, **SOLO)
    table.act({"type": "roll"})
    before = table.state()
    total = sum(before["match"]["roll"])
    wrong = [1] if total != 1 else [2]
    refused(table.post({"type": "move", "tiles": wrong}), 409, "illegal", "adds up to 1", str(total))
    refused(table.post({"type": "roll"}), 409, "illegal", "nothing is to be rolled now")
    refused(table.post({"type": "dice", "count": 1}), 409, "illegal", "no choice of dice")
    assert table.state() == before


def test_one_die_when_the_rules_forbid_it_is_refused(client: TestClient) -> None:
    table, before = create(client, **SOLO)
    refused(table.post({"type": "dice", "count": 1}), 409, "illegal", "one die is not allowed")
    assert table.state() == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"type": "move", "tiles": [13]}, ["tile 13"]),
        ({"type": "move", "tiles": [3, 3]}, ["twice"]),
        ({"type": "move", "tiles": []}, ["tiles []"]),
        ({"type": "move", "tiles": "5+3"}, ["tiles"]),
        ({"type": "move"}, ["tiles", "Field required"]),
        ({"type": "dice", "count": "two"}, ["count"]),
        ({"type": "jump"}, ["'jump'"]),
        ({"kind": "roll"}, ["type"]),
        ({"type": "roll", "faces": [6, 6]}, ["faces"]),
    ],
)
def test_malformed_actions_are_refused_and_nothing_changes(
    client: TestClient, body: dict[str, Any], words: list[str]
) -> None:
    table, _ = create(client, **SOLO)
    table.act({"type": "roll"})
    before = table.state()
    refused(table.post(body), 422, "malformed", *words)
    assert table.state() == before


@pytest.mark.parametrize(
    "body",
    [
        {"type": "move", "tiles": [True]}, {"type": "move", "tiles": ["1"]}, {"type": "move", "tiles": [1.0]},
        {"type": "dice", "count": "2"}, {"type": "dice", "count": 2.0}, {"type": "dice", "count": True},
        {"type": "roll", "seat": "0"}, {"type": "roll", "seat": 0.0}, {"type": "roll", "seat": False},
    ],
)
def test_an_action_takes_whole_numbers_only_as_json_integers(
    client: TestClient, body: dict[str, Any]
) -> None:
    """Regression: ``true``, ``"1"`` and ``1.0`` were read as 1 (``"tiles": [true]`` shut tile 1)."""
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    if body["type"] == "move":
        table.act({"type": "roll"})
    before = table.state()
    refused(table.post(body), 422, "malformed", "integer")
    assert table.state() == before


@pytest.mark.parametrize(
    ("field", "wrong", "right"),
    [("rounds", "1", 1), ("rounds", 1.0, 1), ("rounds", True, 1), ("turn_seconds", "60", 60),
     ("seed", 7.0, 7), ("hints", "false", False), ("hints", 0, False),
     ("rules", {"tiles": 9.0}, {"tiles": 9}), ("rules", {"stake": "2"}, {"stake": 2})],
)
def test_a_new_room_takes_numbers_and_switches_as_json_gives_them(
    client: TestClient, field: str, wrong: object, right: object
) -> None:
    body = {"seats": [{"name": "Ana"}, {"kind": "remote"}]}
    refused(client.post("/api/rooms", json={**body, field: wrong}), 422, "malformed")
    assert client.post("/api/rooms", json={**body, field: right}).status_code == 201


def test_a_request_without_a_seat_token_cannot_act(client: TestClient) -> None:
    table, before = create(client, **SOLO)
    no_token = client.post(f"/api/rooms/{table.code}/actions", json={"type": "roll"})
    refused(no_token, 403, "wrong-seat", "holds no seat")
    other, _ = create(client, **SOLO)
    stranger = Table(client, table.code, other.token)
    refused(stranger.post({"type": "roll"}), 403, "wrong-seat", table.code)
    assert table.state() == before


def test_acting_out_of_turn_in_an_online_room_is_refused(client: TestClient) -> None:
    host, guest = online(client)
    before = host.state()
    assert before["status"] == "playing"
    assert before["match"]["actor"] == 0  # Ana rolls first in the roll-off
    refused(guest.post({"type": "roll"}), 409, "wrong-turn", "not your turn", "Ana")
    refused(guest.post({"type": "roll", "seat": 0}), 403, "wrong-seat", "seat 0 (Ana) is not yours")
    refused(host.post({"type": "roll", "seat": 1}), 403, "wrong-seat", "seat 1 (Luis)")
    refused(host.post({"type": "roll", "seat": 7}), 403, "wrong-seat", "seat 7")
    after = host.state()
    assert after["clock"]["deadline"] == before["clock"]["deadline"]  # the clock's own remaining runs down
    assert {**after, "clock": None} == {**before, "clock": None}


def test_each_online_seat_acts_for_itself_until_the_game_is_over(client: TestClient) -> None:
    host, guest = online(client)
    assert host.state()["you"] == [0] and guest.state()["you"] == [1]
    state = host.state()
    for _ in range(200):
        if state["status"] == "over":
            break
        mover = host if state["match"]["actor"] == 0 else guest
        idle = guest if mover is host else host
        refused(idle.post({"type": "roll"}), 409, "wrong-turn")
        state = mover.step()
    assert state["status"] == "over"
    assert state["saved_game_id"] is not None
    refused(host.post({"type": "roll"}), 409, "over", "over")


# -- joining online rooms -------------------------------------------------------------
def test_an_online_room_waits_for_its_players(client: TestClient) -> None:
    host, state = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}, {"kind": "remote"}])
    assert state["status"] == "waiting" and state["match"] is None
    refused(host.post({"type": "roll"}), 409, "waiting", "2 more")
    refused(client.get(f"/api/rooms/{host.code}/record"), 409, "waiting")
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": "Ana"}), 409, "name-taken", "'Ana'")
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": " "}), 422, "malformed", "name")
    refused(client.post(f"/api/rooms/{host.code}/join", json={}), 422, "malformed", "name")
    luis = client.post(f"/api/rooms/{host.code.lower()}/join", json={"name": "Luis"}).json()
    assert (luis["seat"], luis["state"]["status"]) == (1, "waiting")
    eva = client.post(f"/api/rooms/{host.code}/join", json={"name": "  Eva  "}).json()
    assert eva["seat"] == 2
    assert eva["state"]["status"] == "playing"
    assert [s["name"] for s in eva["state"]["seats"]] == ["Ana", "Luis", "Eva"]
    refused(client.post(f"/api/rooms/{host.code}/join", json={"name": "Zoe"}), 409, "room-full")


# -- bots --------------------------------------------------------------------------------
@pytest.mark.parametrize("strength", ["easy", "medium", "hard", "expert"])
def test_a_game_against_a_bot_of_each_strength(client: TestClient, strength: str) -> None:
    table, _ = create(
        client,
        seats=[{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": strength}],
        rules={"shut_wins": False},
        seed=3,
    )
    state = table.state()
    for _ in range(100):
        if state["status"] == "over":
            break
        assert state["match"]["actor"] == 0  # the bot has played whenever it was its turn
        state = table.step()
    assert state["status"] == "over"
    players = {t["player"] for t in state["match"]["history"]}
    assert players == {0, 1}
    assert state["saved_game_id"] is not None


@pytest.mark.parametrize("mode", ["elimination", "long"])
def test_elimination_and_the_long_game_against_a_bot(client: TestClient, mode: str) -> None:
    table, _ = create(
        client,
        seats=[{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "hard"}],
        rules={"mode": mode, "limit": 20},
        seed=5,
    )
    state = table.state()
    for _ in range(500):
        if state["status"] == "over":
            break
        state = table.step()
    assert state["status"] == "over"
    assert state["match"]["winner_name"] in {"Ana", "Robo"}
    if mode == "elimination":
        totals = state["match"]["totals"]
        assert max(totals) >= 20
    else:
        assert all(t["score"] is None for t in state["match"]["history"])


def test_pass_and_play_one_token_plays_every_seat(client: TestClient) -> None:
    table, state = create(client, seats=[{"name": "Ana"}, {"name": "Luis"}, {"name": "Eva"}], seed=2)
    assert state["you"] == [0, 1, 2]
    state = table.play_while_mine()
    assert state["status"] == "over"
    assert len({t["player"] for t in state["match"]["history"]}) >= 1


# -- hints and reviews ------------------------------------------------------------------
def test_a_hint_ranks_the_legal_moves(client: TestClient) -> None:
    table, _ = create(client, **SOLO)
    refused(client.get(f"/api/rooms/{table.code}/hint", headers=table.headers), 409, "no-decision")
    state = table.act({"type": "roll"})
    hint = client.get(f"/api/rooms/{table.code}/hint", headers=table.headers)
    assert hint.status_code == 200
    advice = hint.json()
    assert advice["objective"] == "score" and advice["lower_is_better"] is True
    shut = sorted(sorted(c["shut"]) for c in advice["choices"])
    assert shut == sorted(state["match"]["legal_moves"])
    assert advice["choices"][0]["loss"] == 0
    assert all(c["loss"] >= 0 for c in advice["choices"])
    refused(client.get(f"/api/rooms/{table.code}/hint"), 403, "wrong-seat")


def test_hints_can_be_turned_off(client: TestClient) -> None:
    table, _ = create(client, **SOLO, hints=False)
    table.act({"type": "roll"})
    refused(client.get(f"/api/rooms/{table.code}/hint", headers=table.headers), 403, "hints-off")


def test_the_review_grades_each_decision_after_the_game(client: TestClient) -> None:
    table, _ = create(client, **SOLO)
    refused(client.get(f"/api/rooms/{table.code}/review"), 409, "not-over")
    state = table.play_while_mine()
    review = client.get(f"/api/rooms/{table.code}/review").json()
    moves = [e for e in state["recent"] if e["kind"] == "move"]
    assert len(review["decisions"]) == len(moves)
    assert {d["verdict"] for d in review["decisions"]} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    stored = client.get(f"/api/games/{state['saved_game_id']}/review").json()
    assert stored == review
    refused(client.get("/api/games/999/review"), 404, "not-found", "999")
    refused(client.get("/api/games/999"), 404, "not-found")


# -- history, bests, leaderboard ---------------------------------------------------------
def test_history_bests_and_leaderboard(client: TestClient) -> None:
    ana = profile_key(client, "Ana")
    scores = []
    for _ in (1, 2, 3):
        table, _ = create(client, seats=[{}], key=ana)
        scores.append(table.play_while_mine()["match"]["history"][0]["score"])
    table, _ = create(client, seats=[{}], rules={"tiles": 10}, key=profile_key(client, "Luis"))
    luis = table.play_while_mine()["match"]["history"][0]["score"]

    history = client.get("/api/players/Ana/history").json()["turns"]
    assert [t["score"] for t in history] == scores[::-1]
    bests = client.get("/api/players/Ana/bests").json()["bests"]
    assert [(b["tiles"], b["score"], b["turns"]) for b in bests] == [(9, min(scores), 3)]
    assert client.get("/api/players/Ana/bests", params={"tiles": 10}).json()["bests"] == []

    board = client.get("/api/leaderboard").json()
    assert [(e["player"], e["best"]) for e in board["entries"]] == [("Ana", min(scores))]
    ten = client.get("/api/leaderboard", params={"tiles": 10}).json()
    assert [(e["player"], e["best"]) for e in ten["entries"]] == [("Luis", luis)]
    assert client.get("/api/leaderboard", params={"preset": "digits"}).json()["entries"] == []
    refused(client.get("/api/leaderboard", params={"scoring": "golf"}), 422, "malformed", "golf")
    refused(client.get("/api/leaderboard", params={"tiles": 40}), 422, "malformed", "tiles")
    refused(client.get("/api/games", params={"limit": 0}), 422, "malformed", "limit")


# -- the server itself -----------------------------------------------------------------------
def test_finished_games_survive_a_server_restart(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'kept.db'}", bot_delay=0)
    with TestClient(create_app(settings)) as first:
        table, _ = create(first, **SOLO)
        score = table.play_while_mine()["match"]["history"][0]["score"]
    with TestClient(create_app(settings)) as second:
        games = second.get("/api/games").json()["games"]
        assert [g["scores"] for g in games] == [[{"player": "Ana", "score": score}]]
        room = second.get(f"/api/rooms/{table.code}", headers=table.headers).json()  # rooms are kept too
        assert (room["status"], room["saved_game_id"], room["you"]) == ("over", games[0]["id"], [0])


def test_the_data_folder_holds_the_default_database(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path / "data", bot_delay=0))) as client:
        create(client, **SOLO)[0].play_while_mine()
    assert (tmp_path / "data" / "shutthebox.db").is_file()


def test_finished_rooms_leave_memory_at_once_and_no_fixed_cap_blocks_new_games(tmp_path: Path) -> None:
    """Today's regression: 500 quick games filled a fixed cap of rooms for hours."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", bot_delay=0, max_rooms_per_client=2)
    with TestClient(create_app(settings)) as client:
        copies = client.app.state.server.copies  # type: ignore[attr-defined]
        for _ in range(6):  # three times the cap of games in play per address, one after another
            table, _ = create(client, **SOLO)
            assert table.code in copies
            assert table.play_while_mine()["status"] == "over"
            assert table.code not in copies  # its game is in the database: the copy goes
        assert len(client.get("/api/games").json()["games"]) == 6
        assert table.state()["status"] == "over"  # read back from the store when asked for


def test_every_seat_of_a_round_for_stakes_gets_its_own_hint(client: TestClient) -> None:
    """Pass and play for three, with stakes: each hint is the round's for the seat to play, after the
    scores posted before it, in stakes (issue 17)."""
    from shutthebox.core.rules import Rules
    from shutthebox.strategy.solver import solve_round

    rules = {"tiles": 5, "stake": 2}
    seats = [{"name": "Ana"}, {"name": "Luis"}, {"name": "Eva"}]
    table, state = create(client, seats=seats, rules=rules, seed=4)
    solved = solve_round(Rules(tiles=5, stake=2), 3, "stake")
    seen = set()
    while state["status"] == "playing":
        match = state["match"]
        if match["phase"] in ("choose", "move"):
            hint = client.get(f"/api/rooms/{table.code}/hint", headers=table.headers).json()
            now = (match["round"], match["tiebreak"])
            posted = [t["score"] for t in match["history"] if (t["round"], t["tiebreak"]) == now]
            seat = hint["seat"]
            assert hint["objective"] == "stake" and (seat["players"], seat["pot"]) == (3, 3)
            assert seat["best"] == (min(posted) if posted else None)
            if match["tiebreak"] == 0:
                assert seat["seat"] == len(posted)
                turn = solved.turn(seat["seat"], seat["best"], seat["ties"])
                target = sum(1 << (t - 1) for t in match["board"]["open"])
                assert hint["value"] == pytest.approx(turn.value_at(target), abs=1e-12)
            seen.add(seat["seat"])
            best = hint["choices"][0]
            state = table.act({"type": "move", "tiles": best["shut"]} if "shut" in best
                              else {"type": "dice", "count": best["dice"]})
        else:
            state = table.act({"type": "roll"})
    assert {0, 1} <= seen
    review = client.get(f"/api/rooms/{table.code}/review").json()
    assert {d["objective"] for d in review["decisions"]} == {"stake"}
    assert {d["verdict"] for d in review["decisions"]} == {"best"}  # every choice was the hint's
