"""Trust holes found by attacking a real server, each attack replayed through its public API.

- A daily attempt's dice are the day's for everyone: nothing of them is readable before the day
  is over (its room, its record, its stored game and review are sealed).
- An attempt takes no action after midnight UTC, counts as it stood then, and the day's seed is
  revealed only once no attempt of that day can be played.
- Solver work goes through one priced, fair door: a flood from one address waits behind itself.
- The trainer rates only the puzzles it dealt: it is no free hint for a game in play.
- Help never takes a turn out of the rankings: a hint, walking away from a ranked game, or letting
  the turn clock run out leaves the turn counting as it stood (its open tiles then).

The server's clock is moved with libfaketime (Debian's ``faketime``, which ``make test`` installs),
so a real server meets midnight, and two hours of idleness, within seconds.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from tests.support.serving import Server, running

pytestmark = pytest.mark.slow  # real servers, some under faketime, played through

LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def profile(url: str, name: str) -> str:
    response = httpx.post(f"{url}/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    key: str = response.json()["key"]
    return key


def act(url: str, code: str, token: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{url}/api/rooms/{code}/actions", json=body, headers=bearer(token))


def step(url: str, code: str, token: str, state: dict[str, Any]) -> dict[str, Any]:
    """One action of a plain player for the token's seat: two dice, the first legal move."""
    match = state["match"]
    if match["phase"] == "choose":
        body: dict[str, Any] = {"type": "dice", "count": match["dice_options"][-1]}
    elif match["phase"] in ("roll", "roll-off"):
        body = {"type": "roll"}
    else:
        body = {"type": "move", "tiles": match["legal_moves"][0]}
    response = act(url, code, token, body)
    assert response.status_code == 200, response.text
    played: dict[str, Any] = response.json()
    return played


def room(url: str, code: str, token: str | None = None) -> dict[str, Any]:
    response = httpx.get(f"{url}/api/rooms/{code}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def until(found: Callable[[], Any], seconds: float = 60.0, what: str = "it") -> Any:
    """Ask ``found`` until it answers something true (a real server works in its own time)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = found()
        if answer:
            return answer
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


def answered_at(response: httpx.Response) -> datetime:
    """The server's clock when it answered, from the Date header (to the second, rounded down)."""
    return parsedate_to_datetime(response.headers["date"]).astimezone(UTC)


def server_time(url: str) -> datetime:
    """The server's clock, from the Date header of an answer (to the second)."""
    return answered_at(httpx.get(f"{url}/api/rules"))


@contextmanager
def faked(folder: Path, start: str, *, speed: int, options: tuple[str, ...] = ()) -> Iterator[Server]:
    """A real server whose clock starts at ``start`` (UTC) and runs ``speed`` times as fast."""
    if not LIBFAKETIME.exists():
        pytest.fail(f"{LIBFAKETIME} is missing: install Debian's faketime (make test does)")
    env = {"LD_PRELOAD": str(LIBFAKETIME), "FAKETIME": f"@{start} x{speed}", "TZ": "UTC"}
    with running(folder, env=env, options=options) as served:
        yield served


# -- 1. the daily challenge's dice --------------------------------------------------------------
def test_nothing_of_a_days_dice_is_readable_by_anyone_before_the_day_is_over(tmp_path: Path) -> None:
    """The attack: one profile plays the daily badly, a second reads the seed of its finished game
    (from its room, its record, the stored game) and computes every roll of the day."""
    with running(tmp_path) as server:
        url = server.url
        ana = profile(url, "Ana")
        started = httpx.post(f"{url}/api/daily/9", headers=bearer(ana))
        assert started.status_code == 201, started.text
        code, token = started.json()["code"], started.json()["token"]
        state = room(url, code, token)
        while state["status"] == "playing":
            state = step(url, code, token, state)
        assert state["fairness"]["server_seed"] is None  # even its player sees no seed today
        bea = profile(url, "Bea")
        answers = [
            httpx.get(f"{url}/api/rooms/{code}"),  # a spectator
            httpx.get(f"{url}/api/rooms/{code}", headers=bearer(bea)),
            httpx.get(f"{url}/api/rooms/{code}/record"),
            httpx.get(f"{url}/api/rooms/{code}/record", headers=bearer(token)),
            httpx.get(f"{url}/api/rooms/{code}/review"),
        ]
        games = httpx.get(f"{url}/api/games").json()["games"]
        assert [g["players"] for g in games] == [["Ana"]]  # listed, with its score: nothing more
        game_id = games[0]["id"]
        answers += [httpx.get(f"{url}/api/games/{game_id}"), httpx.get(f"{url}/api/games/{game_id}/review")]
        for answer in answers:
            assert answer.status_code == 403 and answer.json()["error"] == "sealed", answer.text
        result = httpx.get(f"{url}/api/daily/{started.json()['day']}/9/result", headers=bearer(ana)).json()
        assert "record" not in result["optimal"]
        daily = httpx.get(f"{url}/api/daily").json()
        assert all(c["server_seed"] is None for c in daily["challenges"])
        mine = httpx.get(f"{url}/api/rooms/{code}/review", headers=bearer(token))
        assert mine.status_code == 200  # its player may see what each choice cost: they saw the dice


# -- 2. an attempt across midnight ----------------------------------------------------------------
def test_an_attempt_takes_no_action_after_midnight_and_the_seed_waits_for_every_attempt(
    tmp_path: Path,
) -> None:
    """The attack: start the attempt before midnight UTC, wait for the seed to be revealed, then
    finish it knowing every roll. The server's clock runs twenty times as fast (from six minutes to
    midnight: a server slow to start on a busy machine still opens before the attempt is due). Each
    look at the seed and the record is judged by the server's clock when it answered: a machine too
    busy to look before the reveal makes no look wrong."""
    with faked(tmp_path, "2026-12-01 23:54:00", speed=20) as server:
        url = server.url
        ana = profile(url, "Ana")
        until(lambda: server_time(url) >= datetime(2026, 12, 1, 23, 57, 30, tzinfo=UTC), what="23:57:30")
        started = httpx.post(f"{url}/api/daily/9", headers=bearer(ana))
        assert started.status_code == 201, started.text
        code, token, day = started.json()["code"], started.json()["token"], started.json()["day"]
        assert day == "2026-12-01"
        state = step(url, code, token, room(url, code, token))  # the first roll
        assert state["match"]["phase"] == "move", "the server was too slow: the day ended first"
        left = sum(state["match"]["board"]["open"])  # nothing shut yet: what stands at midnight
        until(lambda: server_time(url) >= datetime(2026, 12, 2, tzinfo=UTC), what="midnight")
        late = act(url, code, token, {"type": "move", "tiles": state["match"]["legal_moves"][0]})
        assert late.status_code == 409 and late.json()["error"] == "closed", late.text
        board = until(lambda: httpx.get(f"{url}/api/daily/{day}/9").json()["finished"] == 1 and
                      httpx.get(f"{url}/api/daily/{day}/9").json(), what="the attempt played out")
        assert [(e["player"], e["score"]) for e in board["entries"]] == [("Ana", left)]  # as it stood
        reveal = datetime(2026, 12, 2, 0, 5, tzinfo=UTC)
        seen: list[tuple[datetime, str | None, datetime, int]] = []

        def seed() -> str | None:  # each answer with the server's time when it was given
            daily = httpx.get(f"{url}/api/daily", params={"day": day})
            record = httpx.get(f"{url}/api/rooms/{code}/record")
            found: str | None = daily.json()["challenges"][0]["server_seed"]
            seen.append((answered_at(daily), found, answered_at(record), record.status_code))
            return found

        revealed = until(seed, what="the reveal, five minutes after midnight")
        # Nothing of the dice before the reveal's time (the attack had them at midnight). A Date is the
        # second of uvicorn's last tick, which lags on a busy machine: twenty times as much on this clock.
        soon = reveal - timedelta(seconds=30)
        for seed_at, found, record_at, status in seen:
            assert found is None or seed_at >= soon, (seed_at, found)
            assert status == 403 or record_at >= soon, (record_at, status)
        record = httpx.get(f"{url}/api/rooms/{code}/record").json()
        assert record["fairness"]["server_seed"] == revealed and verify(GameRecord.from_json(record)).proven


# -- 5. results chosen after the fact -----------------------------------------------------------
def solo_room(url: str, key: str) -> tuple[str, str, dict[str, Any]]:
    created = httpx.post(f"{url}/api/rooms", json={"preset": "classic", "seats": [{}]}, headers=bearer(key))
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["state"]["ranked"]
    return body["code"], body["token"], body["state"]


def counted_turns(url: str, name: str) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = httpx.get(f"{url}/api/players/{name}/history").json()["turns"]
    return turns


def test_a_hint_leaves_the_turn_counting_as_it_stood_even_in_the_averages(tmp_path: Path) -> None:
    """The attack: play on while the game goes well, ask for a hint at the next decision when it
    goes badly, so the bad game drops out of the ranking (and of the leaderboard's average). The dice
    are fair: a game may end at its second roll, so games are played until one has a next decision."""
    with running(tmp_path) as server:
        url = server.url
        ana = profile(url, "Ana")
        for _game in range(20):
            code, token, state = solo_room(url, ana)
            state = step(url, code, token, step(url, code, token, state))  # a roll and a move
            while state["status"] == "playing" and not state["match"]["is_decision"]:
                state = step(url, code, token, state)
            if state["status"] == "playing":
                break
        assert state["status"] == "playing" and state["hint_cost"] == sum(state["match"]["board"]["open"])
        stood = state["hint_cost"]
        hint = httpx.get(f"{url}/api/rooms/{code}/hint", headers=bearer(token))
        assert hint.status_code == 200, hint.text
        while state["status"] == "playing":
            state = step(url, code, token, room(url, code, token))
        helped, *others = counted_turns(url, "Ana")  # newest first: the game with the hint
        assert helped["game_id"] == state["saved_game_id"] and helped["counted"] == stood >= helped["score"]
        assert all(turn["counted"] == turn["score"] for turn in others)
        counted = [turn["counted"] for turn in (helped, *others)]
        (entry,) = httpx.get(f"{url}/api/leaderboard").json()["entries"]
        assert (entry["player"], entry["best"], entry["turns"]) == ("Ana", min(counted), len(counted))
        assert entry["average"] == round(sum(counted) / len(counted), 2)


def test_a_ranked_game_walked_away_from_is_played_out_and_counts_as_it_stood(tmp_path: Path) -> None:
    """The attack: leave a ranked solo game that goes badly, so it is closed unsaved. Rooms close
    after ``--room-idle`` (60 s here); the server's clock runs twenty times as fast."""
    with faked(tmp_path, "2026-12-01 12:00:00", speed=20, options=("--room-idle", "60")) as server:
        url = server.url
        ana = profile(url, "Ana")
        code, token, state = solo_room(url, ana)
        state = step(url, code, token, step(url, code, token, state))  # a roll and a move, then gone
        assert state["status"] == "playing"
        stood = sum(state["match"]["board"]["open"])
        (turn,) = until(lambda: counted_turns(url, "Ana"), what="the game played out and kept")
        assert turn["counted"] == stood >= turn["score"]
        assert [e["best"] for e in httpx.get(f"{url}/api/leaderboard").json()["entries"]] == [stood]
        notices = httpx.get(f"{url}/api/rooms/{code}", headers=bearer(token))
        assert notices.status_code == 404 or notices.json()["notices"][-1]["kind"] == "abandoned"


def test_letting_the_turn_clock_run_out_leaves_the_turn_counting_as_it_stood(tmp_path: Path) -> None:
    """The attack: in an online game, stop acting when a turn goes badly: a stand-in bot plays it
    out, and the turn (once, every turn of the game) dropped out of the ranking."""
    with running(tmp_path) as server:
        url = server.url
        keys = {name: profile(url, name) for name in ("Ana", "Luis")}
        seats = [{}, {"kind": "remote"}]
        created = httpx.post(
            f"{url}/api/rooms", json={"preset": "classic", "seats": seats, "turn_seconds": 5},
            headers=bearer(keys["Ana"]),
        ).json()
        code = created["code"]
        joined = httpx.post(f"{url}/api/rooms/{code}/join", json={}, headers=bearer(keys["Luis"])).json()
        tokens = {0: created["token"], 1: joined["token"]}
        state = room(url, code, tokens[0])
        while state["match"]["phase"] == "roll-off" or not state["match"]["is_decision"]:
            state = step(url, code, tokens[state["match"]["actor"]], state)
        idle = state["match"]["actor"]  # this seat now stops acting, at its first decision
        stood = sum(state["match"]["board"]["open"])
        name = state["seats"][idle]["name"]
        until(lambda: room(url, code, tokens[1 - idle])["match"]["actor"] != idle or
              room(url, code, tokens[1 - idle])["status"] == "over", seconds=30, what="the clock")
        state = room(url, code, tokens[1 - idle])
        assert [n["kind"] for n in state["notices"]] == ["missed"]
        while state["status"] == "playing":  # the other plays on; the idle seat is back in time
            actor = state["match"]["actor"]
            state = step(url, code, tokens[actor], state)
        helped = counted_turns(url, name)[-1]  # its first turn: the one the clock ran out in
        assert helped["counted"] == stood >= helped["score"]
        board = {e["player"] for e in httpx.get(f"{url}/api/leaderboard").json()["entries"]}
        assert name in board


# -- 3. solver work with no price --------------------------------------------------------------
def from_address(address: str) -> httpx.Client:
    """A client whose connections leave from ``address`` (any 127.x.y.z reaches the loopback server)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=120)


def test_a_flood_of_solver_work_from_one_address_waits_behind_itself(tmp_path: Path) -> None:
    """The attack: one address asks for cheat sheets without end (each a solve of another rule set,
    with no login), so every other player waits minutes for an answer. Now the address has a few jobs
    queued at most (the rest refused at once, 429), and another player's hint is answered while the
    flood goes on."""
    with running(tmp_path) as server:
        url = server.url
        presets = [  # every preset a sheet describes (the long game and elimination are refused: 422)
            name for name, rules in httpx.get(f"{url}/api/rules").json()["presets"].items()
            if rules["mode"] not in ("long", "elimination")
        ]
        sheets = [(preset, tiles) for tiles in range(12, 2, -1) for preset in presets]
        answers: list[int] = []
        stop, turns, taking = threading.Event(), itertools.cycle(sheets), threading.Lock()

        def flood() -> None:  # each thread asks for the next sheet of the list: another rule set
            with from_address("127.0.0.2") as client:
                while not stop.is_set():
                    with taking:
                        preset, tiles = next(turns)
                    answer = client.get(f"{url}/api/cheatsheet", params={"preset": preset, "tiles": tiles})
                    answers.append(answer.status_code)

        threads = [threading.Thread(target=flood) for _ in range(16)]
        try:
            for thread in threads:
                thread.start()
            until(lambda: 429 in answers, what="the flood refused beyond its queue")
            with from_address("127.0.0.3") as player:
                made = player.post(f"{url}/api/rooms", json={"preset": "classic", "seats": [{"name": "Bea"}]})
                assert made.status_code == 201, made.text
                code, token = made.json()["code"], made.json()["token"]
                state = step(url, code, token, made.json()["state"])  # rolled: a decision to ask about
                assert state["match"]["phase"] == "move"
                hint = player.get(f"{url}/api/rooms/{code}/hint", headers=bearer(token))
                assert hint.status_code == 200, hint.text
            assert all(thread.is_alive() for thread in threads)  # answered while the flood went on
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        assert set(answers) == {200, 429}  # each sheet made or refused at once: nothing else


# -- 4. the trainer as a free hint ----------------------------------------------------------------
def test_the_trainer_rates_only_the_puzzles_it_dealt(tmp_path: Path) -> None:
    """The attack: in the daily challenge (no hints), post the position of one's own game as a trainer
    puzzle and read every move ranked; or post a 12-tile long game's to make the server solve it."""
    with running(tmp_path) as server:
        url = server.url
        ana = profile(url, "Ana")
        started = httpx.post(f"{url}/api/daily/9", headers=bearer(ana)).json()
        code, token = started["code"], started["token"]
        state = step(url, code, token, room(url, code, token))
        assert httpx.get(f"{url}/api/rooms/{code}/hint", headers=bearer(token)).status_code == 403
        board = sum(1 << (tile - 1) for tile in state["match"]["board"]["open"])
        rules = json.dumps(state["rules"], sort_keys=True, separators=(",", ":"))
        roll = "+".join(map(str, state["match"]["roll"]))
        mine = f"{rules}|score|{board}|{roll}"
        long12 = json.dumps({**state["rules"], "tiles": 12, "mode": "long"}, sort_keys=True,
                            separators=(",", ":"))
        for key in (mine, f"{long12}|long|4095|6+6"):
            tried = httpx.post(f"{url}/api/train", json={"key": key, "shut": [9]}, headers=bearer(ana))
            assert tried.status_code == 404 and "not dealt to you" in tried.json()["detail"], tried.text
        assert room(url, code, token)["ranked"] and not room(url, code, token)["assisted"]
        dealt = httpx.get(f"{url}/api/train", headers=bearer(ana)).json()["puzzle"]
        answer = dealt["answers"][0]
        given = {"dice": answer["dice"]} if "dice" in answer else {"shut": answer["shut"]}
        first = httpx.post(f"{url}/api/train", json={"key": dealt["key"], **given}, headers=bearer(ana))
        assert first.status_code == 200, first.text
        again = httpx.post(f"{url}/api/train", json={"key": dealt["key"], **given}, headers=bearer(ana))
        assert again.status_code == 404  # a dealing is answered once
        made_up = httpx.get(f"{url}/api/train", params={"goal": "beat-17"}, headers=bearer(ana))
        assert made_up.status_code == 422 and "beat-10" in made_up.json()["detail"]  # no pool per request
