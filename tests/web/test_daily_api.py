"""The daily challenge through the API: commitments ahead, one ranked attempt a day, the same rolls
for every profile, the leaderboard, the comparison with optimal play, the seed revealed after."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from shutthebox.storage.models import DailySeedRow
from shutthebox.web import Settings, create_app
from tests.support.web import Later, Table, profile_key


@pytest.fixture
def later() -> Later:
    return Later()


@pytest.fixture
def client(tmp_path: Path, later: Later) -> Iterator[TestClient]:
    """The app on a temporary SQLite file, bots answering at once, on a clock the test may move."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0), clock=later)
    with TestClient(app) as test_client:
        yield test_client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def attempt(
    client: TestClient, key: str, tiles: int = 9, one_die: bool = False
) -> tuple[Table, dict[str, Any]]:
    """A whole ranked attempt: two dice (or one whenever allowed) and the first legal move each time;
    the table and what its player saw: the last state, and every event (the record is sealed)."""
    response = client.post(f"/api/daily/{tiles}", headers=bearer(key))
    assert response.status_code == 201, response.text
    table = Table(client, response.json()["code"], response.json()["token"])
    state = table.state()
    seen: dict[int, dict[str, Any]] = {}
    while state["status"] == "playing":
        match = state["match"]
        if match["phase"] == "choose":
            count = match["dice_options"][0] if one_die else match["dice_options"][-1]
            state = table.act({"type": "dice", "count": count})
        elif match["phase"] == "roll":
            state = table.act({"type": "roll"})
        else:
            state = table.act({"type": "move", "tiles": match["legal_moves"][-1 if one_die else 0]})
        seen |= {event["seq"]: event for event in state["recent"]}
    assert sorted(seen) == list(range(state["events"]))
    return table, {**state, "seen": [seen[seq] for seq in sorted(seen)]}


def rolls(attempted: dict[str, Any]) -> list[list[int]]:
    return [event["dice"] for event in attempted["seen"] if event["kind"] == "roll"]


def score_of(attempted: dict[str, Any]) -> int:
    score: int = attempted["match"]["history"][0]["score"]
    return score


def test_the_days_challenges_are_committed_to_a_week_ahead_and_stay_the_same(client: TestClient) -> None:
    first = client.get("/api/daily").json()
    assert [c["tiles"] for c in first["challenges"]] == [9, 10, 12]
    today = date.fromisoformat(first["today"])
    for challenge in first["challenges"]:
        assert challenge["server_seed"] is None and len(challenge["commitment"]) == 64
        assert challenge["client_seed"] == f"daily-{today.isoformat()}-{challenge['tiles']}"
        assert challenge["rules"]["mode"] == "solo" and challenge["rules"]["one_die"] == "sum-le-6"
    week = {(today + timedelta(days=d)).isoformat() for d in range(1, 8)}
    assert {a["day"] for a in first["ahead"]} == week
    again = client.get("/api/daily").json()
    assert again["challenges"] == first["challenges"] and again["ahead"] == first["ahead"]
    tomorrow = client.get("/api/daily", params={"day": (today + timedelta(days=1)).isoformat()}).json()
    assert tomorrow["challenges"][0]["commitment"] == first["ahead"][0]["commitment"]
    late = client.get("/api/daily", params={"day": (today + timedelta(days=8)).isoformat()})
    assert late.status_code == 404 and "not committed to yet" in late.json()["detail"]
    assert client.get("/api/daily", params={"day": "tomorrow"}).status_code == 422


def test_one_ranked_attempt_a_day_on_each_board(client: TestClient) -> None:
    assert client.post("/api/daily/9").status_code == 401
    key = profile_key(client, "Ana")
    attempt(client, key)
    again = client.post("/api/daily/9", headers=bearer(key))
    assert again.status_code == 409 and again.json()["error"] == "played"
    assert "one ranked attempt a day" in again.json()["detail"]
    wrong = client.post("/api/daily/8", headers=bearer(key))
    assert wrong.status_code == 422 and "9, 10, 12 tiles" in wrong.json()["detail"]
    assert client.post("/api/daily/10", headers=bearer(key)).status_code == 201  # another board


def test_two_profiles_meet_the_same_rolls_whatever_they_choose(client: TestClient) -> None:
    _, ana = attempt(client, profile_key(client, "Ana"))
    _, luis = attempt(client, profile_key(client, "Luis"), one_die=True)
    assert ana["fairness"]["algorithm"] == luis["fairness"]["algorithm"] == "hmac-sha256-rolls-v1"
    assert ana["fairness"]["commitment"] == luis["fairness"]["commitment"]
    compared = list(zip(rolls(ana), rolls(luis), strict=False))
    assert compared
    for a, b in compared:
        assert a[0] == b[0] and (len(a) != len(b) or a == b)
    kept = client.get("/api/games").json()
    games = kept["games"] if isinstance(kept, dict) else kept
    assert [g["kind"] for g in games] == ["ranked", "ranked"]  # fair dice, no hint: they count


def test_the_leaderboard_and_the_comparison_with_optimal_play(client: TestClient) -> None:
    keys = {name: profile_key(client, name) for name in ("Ana", "Luis", "Eva")}
    finished = {name: attempt(client, key, one_die=name == "Luis")[1] for name, key in keys.items()}
    today = client.get("/api/daily").json()["today"]
    board = client.get(f"/api/daily/{today}/9").json()
    assert board["finished"] == 3 and board["playing"] == 0
    scores = {name: score_of(seen) for name, seen in finished.items()}
    entries = board["entries"]
    assert sorted(e["player"] for e in entries) == sorted(keys)
    assert [e["rank"] for e in entries] == [1, 2, 3]
    assert [(e["score"], e["rolls"]) for e in entries] == sorted((e["score"], e["rolls"]) for e in entries)
    for entry in entries:
        assert entry["score"] == scores[entry["player"]]
        assert entry["rolls"] == len(rolls(finished[entry["player"]]))
    result = client.get(f"/api/daily/{today}/9/result", headers=bearer(keys["Ana"])).json()
    mine = next(e for e in entries if e["player"] == "Ana")
    assert (result["score"], result["rolls"], result["rank"], result["of"]) == (
        mine["score"], mine["rolls"], mine["rank"], 3
    )
    assert 0 <= result["optimal"]["score"] <= 45 and result["optimal"]["rolls"] >= 1
    assert "record" not in result["optimal"]  # its rolls would tell those who have not played
    nobody = client.get(f"/api/daily/{today}/10/result", headers=bearer(keys["Ana"]))
    assert nobody.status_code == 404


def test_the_next_day_reveals_the_seed_every_attempt_verifies_with(client: TestClient, later: Later) -> None:
    key = profile_key(client, "Ana")
    table, seen = attempt(client, key)
    day = client.get("/api/daily").json()["today"]
    before = client.get("/api/daily", params={"day": day}).json()["challenges"][0]
    # the next day, ten minutes past midnight: past the reveal at five, within the streak's day (a day
    # and ten minutes later, run within ten minutes of midnight, was two days on: the streak gone)
    later.by = (datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1, minutes=10)).timestamp() \
        - time.time()
    after = client.get("/api/daily", params={"day": day}).json()["challenges"][0]
    seed = bytes.fromhex(after["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == before["commitment"] == seen["fairness"]["commitment"]
    record = client.get(f"/api/rooms/{table.code}/record").json()  # the day is over: anyone's to check
    assert record["fairness"]["server_seed"] == after["server_seed"]
    assert verify(GameRecord.from_json(record)).proven
    result = client.get(f"/api/daily/{day}/9/result", headers=bearer(key)).json()
    optimal = GameRecord.from_json(result["optimal"]["record"])
    assert verify(optimal).proven and optimal.fairness is not None
    assert optimal.fairness.commitment == before["commitment"]
    mine = client.get("/api/daily/me", headers=bearer(key)).json()
    assert mine["streak"] == 1  # yesterday's attempt: the streak lives until a whole day is missed
    assert [(a["day"], a["tiles"], a["over"]) for a in mine["attempts"]] == [(day, 9, True)]


def seed_rows(client: TestClient) -> int:
    """How many daily seeds the server's database keeps."""
    server = client.app.state.server  # type: ignore[attr-defined]
    with server.database.engine.connect() as connection:
        count: int = connection.execute(select(func.count()).select_from(DailySeedRow)).scalar_one()
        return count


@pytest.mark.slow
def test_a_past_day_is_only_read_and_one_never_dealt_is_not_found(client: TestClient, later: Later) -> None:
    """Regression: any past day asked for was dealt then, three rows a day for anyone who asked."""
    never = client.get("/api/daily", params={"day": "2001-01-01"})
    assert never.status_code == 404 and never.json()["error"] == "not-found"
    assert "the first is today's" in never.json()["detail"] and seed_rows(client) == 0
    first = client.get("/api/daily").json()
    dealt = seed_rows(client)
    assert dealt == 3 * 8  # today and the week ahead
    today = date.fromisoformat(first["today"])
    for back in (1, 30, 700_000):
        day = (today - timedelta(days=back)).isoformat()
        answer = client.get("/api/daily", params={"day": day})
        assert answer.status_code == 404, answer.text
        assert answer.json()["detail"] == (
            f"there was no daily challenge on {day}: the first was on {today.isoformat()}"
        )
    assert seed_rows(client) == dealt
    later.by = 30 * 86_400  # a month nobody came
    gap = (today + timedelta(days=10)).isoformat()
    answer = client.get("/api/daily", params={"day": gap})
    assert answer.status_code == 404 and "never dealt" in answer.json()["detail"]
    assert seed_rows(client) == dealt
    past = client.get("/api/daily", params={"day": today.isoformat()}).json()  # dealt then: shown now
    assert [c["commitment"] for c in past["challenges"]] == [c["commitment"] for c in first["challenges"]]
    assert all(c["server_seed"] for c in past["challenges"]) and past["ahead"] == []
    assert seed_rows(client) == dealt
    client.get("/api/daily")  # the new today and its week ahead
    assert seed_rows(client) == dealt + 3 * 8
