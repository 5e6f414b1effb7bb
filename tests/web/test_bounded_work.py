"""Hints, server bots and reviews within the solver budget (issue 10: one hint in a 2-player
12-tile `digits` room took 36 s and 5.6 GB)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from shutthebox.core.match import Match
from shutthebox.strategy.advice import advise
from shutthebox.strategy.solver import Objective
from tests.support.web import create

DIGITS_12 = {"tiles": 12, "scoring": "digits", "mode": "round"}


def test_a_hint_over_the_budget_is_ranked_by_the_lowest_score_and_says_so(client: TestClient) -> None:
    host, _ = create(client, seats=[{"name": "Ana"}, {"name": "Luis"}], rules=DIGITS_12, seed=5)
    while host.state()["match"]["phase"] != "move":  # past the roll-off for the order, to a roll
        host.step()
    response = client.get(f"/api/rooms/{host.code}/hint", headers=host.headers)
    assert response.status_code == 200, response.text
    advice = response.json()
    assert (advice["bounded"]["asked"], advice["bounded"]["answered"]) == ("win", "score")
    assert "instead" in advice["bounded"]["reason"]
    state: Match = client.app.state.server.copies.get(host.code).room.game.state  # type: ignore[attr-defined]
    exact = advise(state, Objective.SCORE)  # what the lowest expected score ranks, computed apart
    assert [c["value"] for c in advice["choices"]] == [c.value for c in exact.choices]
    assert host.state()["assisted"] == [state.actor]


def test_an_expert_bot_in_a_digits_room_plays_within_the_budget(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"kind": "bot", "name": "Max", "bot": "expert"}]
    table, _ = create(client, seats=seats, rules=DIGITS_12, seed=2)
    final = table.play_while_mine()
    while final["status"] == "playing":
        final = table.play_while_mine()
    assert final["status"] == "over"  # the bot moved (a win solve would take minutes and gigabytes)
    review = client.get(f"/api/rooms/{table.code}/review")
    assert review.status_code == 200, review.text
    assert {d["objective"] for d in review.json()["decisions"]} <= {"score", "beat", "tie-or-beat", "shut"}
