"""Rooms kept in the store: a restart resumes them; a write that fails changes nothing; the turn
clock, stand-ins, adjournment and rematches (issue 10)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from shutthebox.storage.database import RETRY_DELAYS, StorageBusyError, retrying
from shutthebox.storage.rooms import RoomRepository
from shutthebox.web import create_app
from tests.support.web import SOLO, FakeClock, Table, create, online, refused, server_of, settings_at, tick


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    clock = FakeClock()
    with TestClient(create_app(settings_at(tmp_path), clock=clock)) as client:
        yield client, clock


# -- durable rooms --------------------------------------------------------------------------
@pytest.mark.slow
def test_a_room_in_play_resumes_after_a_restart_with_the_same_tokens(tmp_path: Path) -> None:
    settings = settings_at(tmp_path)
    with TestClient(create_app(settings)) as first:
        host, _ = create(first, seats=[{"name": "Ana"}, {"kind": "remote"}], rules={"mode": "round"})
        joined = first.post(f"/api/rooms/{host.code}/join", json={"name": "Luis", "client_seed": "luis-1"})
        guest = Table(first, host.code, joined.json()["token"])
        host.play_while_mine()
        guest.act({"type": "roll"})
        before = guest.state()
    with TestClient(create_app(settings)) as second:
        host.client = guest.client = second
        after = guest.state()
        # the same dice, seats, commitment and phase: nothing acknowledged lost (the clock starts over)
        assert {**after, "clock": None} == {**before, "clock": None}
        assert after["fairness"]["client_seeds"][-1] == "luis-1"
        final = finish(second, host, guest)
        assert final["status"] == "over" and final["saved_game_id"] is not None
        assert final["fairness"]["server_seed"] is not None  # revealed: and the record verifies
        record = second.get(f"/api/rooms/{host.code}/record").json()
        from shutthebox.core.record import GameRecord
        from shutthebox.core.verify import verify

        assert verify(GameRecord.from_json(record)).proven


def test_a_hint_is_kept_before_it_is_given(tmp_path: Path) -> None:
    """A crash after a hint must not make the game ranked again."""
    settings = settings_at(tmp_path)
    with TestClient(create_app(settings)) as first:
        table, _ = create(first, seats=[{"name": "Ana"}])
        table.act({"type": "roll"})
        assert first.get(f"/api/rooms/{table.code}/hint", headers=table.headers).status_code == 200
    with TestClient(create_app(settings)) as second:
        table.client = second
        assert table.state()["assisted"] == [0]


def test_a_write_that_fails_changes_nothing_and_is_refused(
    clocked: tuple[TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _clock = clocked
    table, _ = create(client, **SOLO)
    before = table.state()

    def locked(*_args: object) -> None:
        raise StorageBusyError("database is locked")

    monkeypatch.setattr(RoomRepository, "keep_group", locked)
    refused(table.post({"type": "roll"}), 503, "busy", "nothing changed")
    monkeypatch.undo()
    assert table.state() == before  # put back as the store holds it
    assert table.act({"type": "roll"})["events"] == 1


def test_a_locked_write_is_tried_again_then_given_up() -> None:
    calls: list[float] = []

    def flaky() -> str:
        if len(calls) < 3:
            calls.append(0)
            raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))
        return "kept"

    slept: list[float] = []
    assert retrying(flaky, sleep=slept.append) == "kept"
    assert slept == list(RETRY_DELAYS[:3])

    def always() -> None:
        raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    with pytest.raises(StorageBusyError):
        retrying(always, sleep=lambda _s: None)

    def broken() -> None:
        raise OperationalError("INSERT", {}, sqlite3.OperationalError("no such table: rooms"))

    with pytest.raises(OperationalError):  # only a lock is waited out
        retrying(broken, sleep=lambda _s: None)


@pytest.mark.slow
def test_a_finished_game_waits_out_a_writer_holding_the_lock_for_over_five_seconds(tmp_path: Path) -> None:
    """Issue 10: another writer holding SQLite's lock past the 5 s busy timeout lost the game (500)."""
    with TestClient(create_app(settings_at(tmp_path))) as client:
        table, _ = create(client, **SOLO)
        holder = sqlite3.connect(tmp_path / "rooms.db", check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held for 6 s
        released = threading.Timer(6.0, holder.commit)
        released.start()
        started = time.monotonic()
        state = table.play_while_mine()
        released.join()
        holder.close()
        assert time.monotonic() - started >= 5.0
        assert state["status"] == "over" and state["saved_game_id"] is not None
        assert client.get(f"/api/games/{state['saved_game_id']}").status_code == 200


def test_abandoned_rooms_are_closed_and_finished_games_stay(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    done, _ = create(client, **SOLO)
    game_id = done.play_while_mine()["saved_game_id"]
    waiting, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}])
    clock.now += 2 * 3600 + 60
    tick(client)  # the store says both are due to close: the process that takes the lease closes them
    refused(client.get(f"/api/rooms/{waiting.code}"), 404, "not-found")
    refused(client.get(f"/api/rooms/{done.code}"), 404, "not-found")
    assert client.get(f"/api/games/{game_id}").status_code == 200
    kept = RoomRepository(server_of(client).database)
    assert not kept.has(waiting.code) and not kept.has(done.code)


# -- the turn clock ---------------------------------------------------------------------------
def test_online_rooms_have_a_clock_and_pass_and_play_rooms_none(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, clock = clocked
    host, _guest = online(client)
    state = host.state()
    assert state["turn_seconds"] == 60
    assert state["clock"] == {"seat": 0, "deadline": clock.now + 60, "remaining": 60.0}
    solo, _ = create(client, **SOLO)
    assert (solo.state()["turn_seconds"], solo.state()["clock"]) == (None, None)
    refused(client.post("/api/rooms", json={**SOLO, "turn_seconds": 3}), 422, "malformed", "5 seconds")


def test_a_seat_out_of_time_is_played_by_a_stand_in_for_that_turn(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, clock = clocked
    host, guest = online(client)
    clock.now += 59
    tick(client)
    assert host.state()["match"]["actor"] == 0  # not yet
    clock.now += 2
    tick(client)
    state = guest.state()
    assert state["match"]["actor"] == 1  # Ana's turn was played out for her
    assert [n["kind"] for n in state["notices"]] == ["missed"]
    assert state["seats"][0]["missed"] == 1 and not state["seats"][0]["stand_in"]
    played = [e for e in state["recent"] if e["player"] == 0]
    assert played and all(e.get("by") == "clock" for e in played)
    assert [e["kind"] for e in played] == ["roll"] and len(played[0]["dice"]) == 1  # her roll-off die
    assert state["assisted"] == []  # the roll-off is nobody's turn: a die rolled for her helps nobody
    assert state["clock"]["seat"] == 1 and state["clock"]["remaining"] == 60.0


@pytest.mark.slow
def test_a_second_miss_hands_the_seat_to_a_bot_and_the_others_finish(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, clock = clocked
    host, guest = online(client, mode="elimination")
    clock.now += 61
    tick(client)  # Ana misses once
    state = guest.play_while_mine()
    while state["status"] == "playing" and not state["seats"][0]["stand_in"]:
        clock.now += 61
        tick(client)  # Ana misses again
        state = guest.play_while_mine()
    assert [n["kind"] for n in state["notices"]][:2] == ["missed", "stand-in"]
    left_at = state["notices"][1]["event"]
    while state["status"] == "playing":
        assert state["match"]["actor"] == 1  # she left: her seat plays at once, by the clock's bot
        state = guest.play_while_mine()
    assert state["status"] == "over" and state["saved_game_id"] is not None
    assert state["stood_in"] == [0]
    record = client.get(f"/api/rooms/{host.code}/record").json()
    assert len(record["events"]) > left_at and 0 in record["assisted"]
    rematch = client.post(f"/api/rooms/{host.code}/rematch", json={}, headers=guest.headers).json()["rematch"]
    assert rematch["answers"] == [None, True]  # she left, yet she is asked: she may be back


def test_adjourned_games_wait_for_the_missing_player(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(create_app(settings_at(tmp_path), clock=clock)) as client:
        host, _ = create(  # seeded: with fair dice Luis, starting, shut the box 1 time in 200 (game over)
            client, seats=[{"name": "Ana"}, {"kind": "remote"}], on_leave="adjourn", turn_seconds=30, seed=3
        )
        joined = client.post(f"/api/rooms/{host.code}/join", json={"name": "Luis"})
        guest = Table(client, host.code, joined.json()["token"])
        clock.now += 31
        tick(client)  # the first miss: a stand-in plays Ana's turn
        guest.play_while_mine()
        clock.now += 31
        tick(client)  # the second: the game waits for her
        state = guest.state()
        assert state["adjourned"] == {"seat": 0, "name": "Ana"} and state["clock"] is None
        clock.now += 3600
        tick(client)
        assert guest.state()["match"] == state["match"]  # nothing moves while adjourned
        host.step()
        state = host.state()
        assert state["adjourned"] is None and state["notices"][-1]["kind"] == "resumed"


# -- rematch -----------------------------------------------------------------------------------
def finish(client: TestClient, *tables: Table) -> dict[str, Any]:
    state = tables[0].state()
    while state["status"] == "playing":
        for table in tables:
            state = table.play_while_mine()
    return state


def test_a_rematch_accepted_by_both_players_seats_them_again_with_their_tokens(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, _clock = clocked
    host, guest = online(client)
    published = finish(client, host, guest)["rematch_commitment"]
    assert published is not None  # committed as the game ended: before anyone sends a seed for it
    offered = client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True, "client_seed": "ana"},
                          headers=host.headers)
    assert offered.status_code == 200, offered.text
    rematch = offered.json()["rematch"]
    assert (rematch["offered_by"], rematch["answers"], rematch["code"]) == (0, [True, None], None)
    assert rematch["commitment"] == published
    answered = client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=guest.headers)
    code = answered.json()["rematch"]["code"]
    assert code is not None and code != host.code
    new_host, new_guest = Table(client, code, host.token), Table(client, code, guest.token)
    state = new_guest.state()
    assert (state["you"], new_host.state()["you"]) == ([1], [0])
    assert [s["name"] for s in state["seats"]] == ["Ana", "Luis"]
    assert state["kind"] == "ranked" and state["fairness"]["client_seeds"] == ["ana"]
    assert state["fairness"]["commitment"] == rematch["commitment"]  # committed at the offer
    assert finish(client, new_host, new_guest)["status"] == "over"


def test_a_declined_rematch_is_told_and_throws_nobody_into_a_solo_game(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    """Issue 28, defect 6: Zoe's "no" left Ana alone in a solo game she never asked for."""
    client, clock = clocked
    host, guest = online(client)
    finish(client, host, guest)
    client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=host.headers)
    declined = client.post(f"/api/rooms/{host.code}/rematch", json={"accept": False}, headers=guest.headers)
    rematch = declined.json()["rematch"]
    assert rematch["code"] is None and rematch["answers"] == [True, False]  # the page says "Luis declined"
    assert host.state()["rematch"]["code"] is None

    other_host, other_guest = online(client)
    finish(client, other_host, other_guest)
    client.post(f"/api/rooms/{other_host.code}/rematch", json={"accept": True}, headers=other_host.headers)
    clock.now += 61
    tick(client)  # Luis never answered: counted as declined, and Ana is not left alone in a new game
    assert other_host.state()["rematch"] == {**other_host.state()["rematch"], "code": None,
                                             "answers": [True, False]}
    settled = other_host.state()["version"]
    for _ in range(3):  # before: the offer ended with no room stayed due, rewritten at every tick
        clock.now += 5
        tick(client)
    assert other_host.state()["version"] == settled


def test_three_players_play_on_without_the_one_who_declined(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _clock = clocked
    host, _ = create(client, seats=[{"name": "Ana"}, {"kind": "remote"}, {"kind": "remote"}], seed=11)
    joined = [client.post(f"/api/rooms/{host.code}/join", json={"name": name}) for name in ("Luis", "Eva")]
    luis, eva = (Table(client, host.code, answer.json()["token"]) for answer in joined)
    finish(client, host, luis, eva)
    client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=host.headers)
    client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=luis.headers)
    code = client.post(
        f"/api/rooms/{host.code}/rematch", json={"accept": False}, headers=eva.headers
    ).json()["rematch"]["code"]
    state = Table(client, code, host.token).state()
    assert [s["name"] for s in state["seats"]] == ["Ana", "Luis"]
    refused(client.get(f"/api/rooms/{code}/hint", headers=eva.headers), 403, "wrong-seat")


def test_a_rematch_is_refused_before_the_end_and_to_strangers(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _clock = clocked
    host, guest = online(client)
    refused(client.post(f"/api/rooms/{host.code}/rematch", json={}, headers=host.headers), 409, "not-over")
    finish(client, host, guest)
    refused(client.post(f"/api/rooms/{host.code}/rematch", json={}), 403, "wrong-seat")
    refused(
        client.post(f"/api/rooms/{host.code}/rematch", json={"accept": False}, headers=host.headers),
        422, "malformed",
    )


# -- holes of issue 10 -------------------------------------------------------------------------
def test_a_dice_choice_that_changes_nothing_is_refused_and_not_recorded(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, _clock = clocked
    table, _ = create(client, **SOLO)
    before = table.state()
    refused(table.post({"type": "dice", "count": 2}), 409, "illegal", "already chosen")
    assert table.state() == before and before["events"] == 0


def test_a_non_ascii_token_on_the_socket_breaks_nothing(clocked: tuple[TestClient, FakeClock]) -> None:
    """Issue 10: `?token=%C3%A9` made every request to the room answer 500 for 6 hours."""
    client, _clock = clocked
    table, _ = create(client, **SOLO)
    with client.websocket_connect(f"/api/rooms/{table.code}/ws?token=%C3%A9") as socket:
        assert socket.receive_json()["error"] == "malformed"  # refused at the edge
    assert table.act({"type": "roll"})["events"] == 1
    assert client.get(f"/api/rooms/{table.code}").status_code == 200
    non_ascii = {"Authorization": "Bearer \u00e9t\u00e9".encode()}
    response = client.get(f"/api/rooms/{table.code}", headers=non_ascii)  # type: ignore[dict-item]
    assert response.status_code in (400, 422) and response.json()["error"] == "malformed"
    # and behind the edge, a room itself holds no seat for a token of the wrong shape, without a fault
    room = server_of(client).copies.get(table.code).room
    assert room.seats_of("é") == room.seats_of("x" * 65) == () and room.seats_of(table.token) == (0,)


def test_an_absurd_rule_value_is_refused_at_creation(clocked: tuple[TestClient, FakeClock]) -> None:
    """Issue 10: a 106-digit max_tiles was accepted at creation and failed at the save."""
    client, _clock = clocked
    huge = int("9" * 106)
    for option, word in [("max_tiles", "max_tiles"), ("stake", "stake"), ("limit", "limit")]:
        response = client.post("/api/rooms", json={**SOLO, "rules": {option: huge}})
        refused(response, 422, "malformed", word)
        assert str(huge) not in response.text  # no echo of the input


def test_one_address_holds_a_bounded_number_of_games_in_play(tmp_path: Path) -> None:
    with TestClient(create_app(settings_at(tmp_path, max_rooms_per_client=2))) as client:
        first, _ = create(client, **SOLO)
        create(client, **SOLO)
        refused(client.post("/api/rooms", json=SOLO), 429, "too-many", "2 games")
        first.play_while_mine()  # a finished game frees its place
        create(client, **SOLO)


def test_a_bot_seat_needs_no_name(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _clock = clocked
    _table, state = create(client, seats=[{"name": "Ana"}, {"kind": "bot", "bot": "easy"}], seed=3)
    assert [s["name"] for s in state["seats"]] == ["Ana", "Bot 2"]


# -- found by the review of this change --------------------------------------------------------
def test_a_failed_write_leaves_the_clock_running(
    clocked: tuple[TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, clock = clocked
    host, _guest = online(client)

    def locked(*_args: object) -> None:
        raise StorageBusyError("database is locked")

    monkeypatch.setattr(RoomRepository, "keep_group", locked)
    refused(host.post({"type": "roll"}), 503, "busy")
    monkeypatch.undo()
    assert host.state()["clock"] is not None  # the room was reloaded: its clock runs again
    clock.now += 61
    tick(client)
    assert host.state()["seats"][0]["missed"] == 1


def test_an_action_that_crosses_the_timer_is_no_miss(clocked: tuple[TestClient, FakeClock]) -> None:
    client, clock = clocked
    host, _guest = online(client)
    room = server_of(client).copies.get(host.code).room
    deadline = room.deadline
    assert deadline is not None
    room.act(host.token, "roll", now=clock.now)  # in time, but the clock is not armed yet (the write runs)
    assert room.run_out(deadline + 1) is None and room.seats[0].missed == 0


def test_a_game_saved_again_under_its_room_is_kept_once(clocked: tuple[TestClient, FakeClock]) -> None:
    """A crash or a failed write between the save and the room's note of it saved the game twice."""
    client, _clock = clocked
    table, _ = create(client, **SOLO)
    state = table.play_while_mine()
    server = server_of(client)
    assert client.portal is not None
    held = client.portal.call(server.copies.fresh, table.code)
    game = held.room.game
    assert game is not None
    game.saved_id = None  # as if the room had not kept the id
    client.portal.call(server.worker.save_if_over, held)
    assert game.saved_id == state["saved_game_id"]
    assert client.get("/api/games").json()["total"] == 1


def test_a_rematch_whose_write_fails_is_settled_once_later(
    clocked: tuple[TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _clock = clocked
    host, guest = online(client)
    finish(client, host, guest)
    client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=host.headers)
    real = RoomRepository.keep_all
    failures = iter([True])

    def fails_once(store: RoomRepository, rooms: Any) -> list[int]:
        if len(rooms) == 2 and next(failures, False):
            raise StorageBusyError("database is locked")
        return real(store, rooms)

    monkeypatch.setattr(RoomRepository, "keep_all", fails_once)
    answered = client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=guest.headers)
    assert answered.status_code == 200 and answered.json()["rematch"]["code"] is None  # the answer is kept
    tick(client)
    code = host.state()["rematch"]["code"]
    assert code is not None
    server = server_of(client)
    seed = server.copies.get(code).room.dice.server_seed.hex()  # type: ignore[union-attr]
    kept = RoomRepository(server.database).open_rooms()
    dealt = [r.code for r in kept if (r.dice or {}).get("server_seed") == seed]
    assert dealt == [code]  # one room dealt those dice


def test_a_rematch_is_answered_once_and_a_lone_players_rematch_has_no_clock(
    clocked: tuple[TestClient, FakeClock],
) -> None:
    client, _clock = clocked
    host, guest = online(client)
    finish(client, host, guest)
    offer = {"accept": True, "client_seed": "a"}
    client.post(f"/api/rooms/{host.code}/rematch", json=offer, headers=host.headers)
    again = client.post(f"/api/rooms/{host.code}/rematch", json=offer, headers=host.headers)
    refused(again, 409, "over", "answered")  # no pile of client seeds in the new room's dice
    accepted = client.post(f"/api/rooms/{host.code}/rematch", json={"accept": True}, headers=guest.headers)
    both = Table(client, accepted.json()["rematch"]["code"], host.token).state()
    assert both["fairness"]["client_seeds"] == ["a"]

    lone, _ = create(client, seats=[{"name": "Eva"}, {"kind": "bot", "bot": "easy"}], turn_seconds=30)
    lone.play_while_mine()
    offered = client.post(f"/api/rooms/{lone.code}/rematch", json={"accept": True}, headers=lone.headers)
    alone = Table(client, offered.json()["rematch"]["code"], lone.token).state()
    assert (alone["turn_seconds"], alone["clock"]) == (None, None)


def test_socket_messages_spend_the_addresses_request_budget(tmp_path: Path) -> None:
    settings = settings_at(tmp_path, rate_room_requests="6/minute")
    with TestClient(create_app(settings)) as client:
        table, _ = create(client, **SOLO)
        with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={table.token}") as socket:
            socket.receive_json()
            replies = []
            for _ in range(8):
                socket.send_json({"type": "ping"})
                replies.append(socket.receive_json())
        assert replies[-1]["type"] == "error" and replies[-1]["error"] == "too-many"


def test_an_unknown_language_is_not_echoed(clocked: tuple[TestClient, FakeClock]) -> None:
    client, _clock = clocked
    response = client.get("/api/i18n/" + "x" * 8000)
    assert response.status_code == 422 and len(response.content) < 1000
