"""The trainer through the API: a puzzle, an answer ranked with its values and the why, both
Glicko-2 ratings moving the right way, a missed puzzle due again within the session."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.trainer import Goal, Puzzle
from shutthebox.web import Settings, create_app
from tests.support.web import Later, profile_key


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


def best_and_worst(puzzle: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answers the exact solver ranks first and last, as the API takes them."""
    advice = Puzzle.from_key(puzzle["key"]).advice()

    def body(action: Any) -> dict[str, Any]:
        return {"dice": action.count} if hasattr(action, "count") else {"shut": list(action.tiles)}
    return body(advice.choices[0].action), body(advice.choices[-1].action)


def test_a_puzzle_its_answers_and_the_ratings(client: TestClient) -> None:
    assert client.get("/api/train").status_code == 401
    key = profile_key(client, "Ana")
    first = client.get("/api/train", params={"tiles": 9, "goal": "score"}, headers=bearer(key)).json()
    puzzle = first["puzzle"]
    assert puzzle["goal"] == "score" and puzzle["rules"]["tiles"] == 9 and len(puzzle["answers"]) >= 2
    assert first["standing"]["rating"] == 1500 and first["again"] is False
    best, _ = best_and_worst(puzzle)

    right = client.post("/api/train", json={"key": puzzle["key"], **best}, headers=bearer(key)).json()
    assert right["right"] is True and right["loss"] == 0
    assert right["rating"]["after"]["rating"] > right["rating"]["before"]["rating"]
    assert right["difficulty"]["after"]["rating"] < right["difficulty"]["before"]["rating"]
    assert right["ranking"][0]["best"] is True
    assert "leaves" in right["why"] or "makes a move" in right["why"]
    assert right["streak"] == 1

    after = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()
    assert after["puzzle"]["key"] != puzzle["key"] and after["seen"] == 1  # answered right: not due yet
    _, worst = best_and_worst(after["puzzle"])
    answered = client.post("/api/train", json={"key": after["puzzle"]["key"], **worst}, headers=bearer(key))
    wrong = answered.json()
    assert wrong["right"] is False and wrong["loss"] > 0 and wrong["streak"] == 0
    assert wrong["rating"]["after"]["rating"] < wrong["rating"]["before"]["rating"]
    assert "costs" in wrong["why"]


def test_a_missed_puzzle_comes_back_within_the_session(client: TestClient, later: Later) -> None:
    key = profile_key(client, "Luis")
    puzzle = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()["puzzle"]
    _, worst = best_and_worst(puzzle)
    client.post("/api/train", json={"key": puzzle["key"], **worst}, headers=bearer(key))
    later.by = 180  # three minutes later
    again = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()
    assert again["again"] is True and again["puzzle"]["key"] == puzzle["key"]


def test_every_goal_and_a_refused_answer(client: TestClient) -> None:
    key = profile_key(client, "Eva")
    for goal in ("shut", "beat-10", "long"):
        got = client.get("/api/train", params={"tiles": 8, "goal": goal}, headers=bearer(key))
        assert got.status_code == 200, got.text
        rules = Rules.from_dict(got.json()["puzzle"]["rules"])
        assert (rules.mode is Mode.LONG) == (goal == "long")
    bad = client.get("/api/train", params={"goal": "win"}, headers=bearer(key))
    assert bad.status_code == 422 and "score, shut, beat-10, long" in bad.json()["detail"]
    puzzle = client.get("/api/train", headers=bearer(key)).json()["puzzle"]
    body = {"key": puzzle["key"], "shut": [1, 2, 3, 4, 5]}
    wrong = client.post("/api/train", json=body, headers=bearer(key))
    assert wrong.status_code == 422 and "not one of this puzzle's answers" in wrong.json()["detail"]
    assert client.post("/api/train", json={"key": "x", "dice": 1}, headers=bearer(key)).status_code == 422
    assert Goal.parse("beat-10").target == 10


def test_your_own_mistakes_come_first(client: TestClient) -> None:
    """The decisions you got wrong in your stored games come back as puzzles, before any other."""
    from shutthebox import Game
    from shutthebox.core.board import Move
    from shutthebox.strategy.advice import advise
    from shutthebox.strategy.review import review

    key = profile_key(client, "Rosa")
    server = client.app.state.server  # type: ignore[attr-defined]
    profile = server.profiles.kept.by_key(key)
    rules = Rules.preset("web", mode=Mode.SOLO)
    for seed in range(30):  # the worst move every time: a game with mistakes
        game = Game(rules, ["Rosa"], seed=seed)
        while not game.state.is_over:
            if game.state.is_chance:
                game.roll()
            else:
                game.act(advise(game.state).choices[-1].action)
        record = game.record()
        wrong = [d for d in review(record).decisions if d.verdict in ("mistake", "blunder")
                 and isinstance(d.chosen, Move)]
        if wrong:
            break
    game.save(server.games, source="web", profiles={0: profile.id})
    first = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()["puzzle"]
    decisions = [d for d in review(record).decisions if d.verdict in ("mistake", "blunder")]
    mistakes = {(tuple(d.board.open_tiles), tuple(d.roll.dice) if d.roll else None) for d in decisions}
    assert first["habit"] == "yours"
    assert (tuple(first["open"]), tuple(first["roll"]) if first["roll"] else None) in mistakes


def test_a_dealing_answered_many_times_at_once_counts_once(client: TestClient) -> None:
    """Regression (a hostile client, issue 29): one puzzle's answer sent six times at once (a double
    click does it twice) was rated and counted four to six times; the dealing is spent by one."""
    key = profile_key(client, "Ana")
    puzzle = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()["puzzle"]
    _, worst = best_and_worst(puzzle)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(
            lambda _: client.post("/api/train", json={"key": puzzle["key"], **worst}, headers=bearer(key)),
            range(6),
        ))
    assert sorted(answer.status_code for answer in answers) == [200, 404, 404, 404, 404, 404]
    standing = client.get("/api/train", params={"tiles": 9}, headers=bearer(key)).json()["standing"]
    assert (standing["answered"], standing["right"]) == (1, 0)
