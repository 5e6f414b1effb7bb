"""A player's statistics (`web.stats`, ``GET /api/players/{name}/stats``): every number is computed
again here from the games the test itself played, read back through the other routes and replayed."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.core.record import GameRecord, replay
from shutthebox.core.tiles import grade
from shutthebox.strategy.review import Review, review
from shutthebox.web import Settings, create_app
from shutthebox.web.stats import MOST_BARS, REVIEWED_GAMES, Reviews, histogram
from tests.support.web import create, profile_key, refused


def play(client: TestClient, key: str | None = None, **body: Any) -> int:
    """One solo game played to its end; its stored id."""
    table, _ = create(client, key=key, **body)
    game_id: int = table.play_while_mine()["saved_game_id"]
    return game_id


def record_of(client: TestClient, game_id: int) -> GameRecord:
    return GameRecord.from_json(client.get(f"/api/games/{game_id}").json()["record"])


def turns_of(client: TestClient, game_id: int, seat: str) -> list[tuple[int | None, str]]:
    """(score, grade) of each turn ``seat`` played in the game, replayed from its record."""
    record = record_of(client, game_id)
    return [
        (turn.score, grade(turn.board.open_sum))
        for turn in replay(record).history
        if record.players[turn.player] == seat
    ]


def in_its_bar(bars: list[dict[str, int]], scores: list[int]) -> None:
    """The bars run from 0 without a gap, at most `MOST_BARS`, and count each score once, in its bar."""
    assert bars[0]["low"] == 0 and len(bars) <= MOST_BARS
    assert all(a["high"] + 1 == b["low"] for a, b in pairwise(bars))
    assert bars[-1]["low"] <= max(scores) <= bars[-1]["high"]
    for bar in bars:
        assert bar["count"] == sum(bar["low"] <= s <= bar["high"] for s in scores), bar


# -- the histogram ---------------------------------------------------------------------------
def test_a_bar_per_score_while_they_fit() -> None:
    assert histogram([]) == []
    assert histogram([3, 0, 3]) == [
        {"low": 0, "high": 0, "count": 1}, {"low": 1, "high": 1, "count": 0},
        {"low": 2, "high": 2, "count": 0}, {"low": 3, "high": 3, "count": 2},
    ]
    assert len(histogram([MOST_BARS - 1])) == MOST_BARS


def test_wider_scores_share_bars_of_equal_width() -> None:
    bars = histogram([45, 0])  # 46 scores, 20 bars at most: 3 to a bar
    assert [(b["low"], b["high"]) for b in bars[:2]] == [(0, 2), (3, 5)]
    assert (len(bars), bars[-1]) == (16, {"low": 45, "high": 47, "count": 1})


@settings(deadline=None)  # microseconds of work: a busy machine's pause is no failure
@given(st.lists(st.integers(min_value=0, max_value=10**12), min_size=1, max_size=60))
def test_every_score_is_counted_once_in_its_bar(scores: list[int]) -> None:
    in_its_bar(histogram(scores), scores)


# -- the statistics of a player ------------------------------------------------------------------
@pytest.mark.slow
def test_the_statistics_are_those_of_the_games_played(client: TestClient) -> None:
    ana = profile_key(client, "Ana")
    ranked = [play(client, ana, seats=[{}]) for _ in range(3)]
    ranked.append(play(client, ana, seats=[{}], rules={"tiles": 12}))
    practice = play(client, ana, seats=[{}], seed=7)  # a chosen seed: kept, but no best
    play(client, seats=[{"name": "Luis"}])  # a guest's game is not Ana's

    stats = client.get("/api/players/Ana/stats").json()
    games = client.get("/api/games", params={"player": "Ana"}).json()["games"]
    assert sorted(g["id"] for g in games) == sorted([*ranked, practice])
    assert (stats["player"], stats["games"], stats["turns"], stats["truncated"]) == ("Ana", 5, 5, False)

    turns = {g["id"]: turns_of(client, g["id"], "Ana") for g in games}
    groups = {(g["tiles"], g["rules_key"]) for g in games}
    assert [(g["tiles"], g["rules_key"]) for g in stats["groups"]] == sorted(groups)
    for group in stats["groups"]:
        theirs = [g for g in games if (g["tiles"], g["rules_key"]) == (group["tiles"], group["rules_key"])]
        scored = [t for g in theirs for t in turns[g["id"]] if t[0] is not None]
        scores = [score for score, _ in scored if score is not None]
        assert (group["games"], group["turns"]) == (len(theirs), len(scored))
        assert group["average"] == round(fmean(scores), 2)
        assert (group["lowest"], group["highest"]) == (min(scores), max(scores))
        in_its_bar(group["histogram"], scores)
        assert sum(bar["count"] for bar in group["histogram"]) == len(theirs)  # solo: a turn a game
        grades = Counter(letter for _, letter in scored)
        assert group["grades"] == [{"grade": g, "count": grades[g]} for g in "SABCF"]
        best = min(t[0] for g in theirs if g["kind"] == "ranked" for t in turns[g["id"]] if t[0] is not None)
        assert group["best"]["score"] == best
    every = Counter(letter for game in turns.values() for _, letter in game)
    assert stats["grades"] == [{"grade": g, "count": every[g]} for g in "SABCF"]
    bests = client.get("/api/players/Ana/bests").json()["bests"]
    assert [g["best"] for g in stats["groups"]] == bests  # the practice game's group has one too

    last = stats["last_games"]
    assert [g["id"] for g in last] == [g["id"] for g in games][:10]  # newest first
    assert [(g["score"], g["grade"]) for g in last] == [turns[g["id"]][0] for g in last]
    assert [g["kind"] for g in last] == [g["kind"] for g in games]
    assert all(client.get(g["review"]).status_code == 200 for g in last)


def test_the_accuracy_is_that_of_each_games_review(client: TestClient) -> None:
    ana = profile_key(client, "Ana")
    played = [play(client, ana, seats=[{}]) for _ in range(3)]
    stats = client.get("/api/players/Ana/stats").json()

    expected = []
    for game_id in played:  # oldest first, as the chart reads; reviewed here by the exact solver
        graded = review(record_of(client, game_id))
        chosen = [d for d in graded.decisions if d.had_choice]
        if chosen:
            accuracy = graded.accuracy["Ana"]
            best = sum(d.verdict == "best" for d in chosen)
            expected.append({"id": game_id, "accuracy": accuracy, "decisions": len(chosen), "best": best})
            assert client.get(f"/api/games/{game_id}/review").json()["accuracy"]["Ana"] == accuracy
    over_time = stats["accuracy"]
    fields = ("id", "accuracy", "decisions", "best")
    assert [{k: g[k] for k in fields} for g in over_time["games"]] == expected
    assert over_time["decisions"] == sum(g["decisions"] for g in expected)
    assert over_time["best"] == sum(g["best"] for g in expected)
    assert over_time["mean"] == (round(fmean(g["accuracy"] for g in expected), 1) if expected else None)
    marks = {g["id"]: g["accuracy"] for g in stats["last_games"]}
    assert all(marks[g["id"]]["accuracy"] == g["accuracy"] for g in expected)


@pytest.mark.slow
def test_only_the_newest_games_are_reviewed(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0, rate_rooms="100/minute")
    with TestClient(create_app(settings)) as client:  # more rooms than an address may open by default
        ana = profile_key(client, "Ana")
        played = [play(client, ana, seats=[{}]) for _ in range(REVIEWED_GAMES + 2)]
        stats = client.get("/api/players/Ana/stats", params={"last": 3}).json()
    assert {g["id"] for g in stats["accuracy"]["games"]} <= set(played[2:])
    assert [g["id"] for g in stats["last_games"]] == played[::-1][:3]


def test_a_profile_without_games_and_a_guest(client: TestClient) -> None:
    profile_key(client, "Ana")
    empty = client.get("/api/players/Ana/stats").json()
    assert (empty["games"], empty["groups"], empty["last_games"]) == (0, [], [])
    assert empty["accuracy"] == {
        "games": [], "reviewed_most": REVIEWED_GAMES, "mean": None, "decisions": 0, "best": 0
    }
    score = replay(record_of(client, play(client, seats=[{"name": "Luis"}]))).history[0].score
    luis = client.get("/api/players/Luis/stats").json()
    assert (luis["player"], luis["games"]) == ("Luis", 1)
    assert luis["last_games"][0]["score"] == luis["groups"][0]["best"]["score"] == score


def test_bad_requests_are_refused_with_a_reason(client: TestClient) -> None:
    refused(client.get("/api/players/Nobody/stats"), 404, "not-found", "Nobody")
    refused(client.get("/api/players/Ana/stats", params={"last": 0}), 422, "malformed", "last")
    refused(client.get("/api/players/Ana/stats", params={"last": 51}), 422, "malformed", "last")
    refused(client.get("/api/players/Ana/stats", params={"last": "all"}), 422, "malformed", "last")
    refused(client.get(f"/api/players/{'a' * 201}/stats"), 422, "malformed", "name")


def test_a_stored_game_is_reviewed_once(client: TestClient) -> None:
    games = client.app.state.server.games  # type: ignore[attr-defined]
    first, second = play(client, seats=[{"name": "Luis"}]), play(client, seats=[{"name": "Luis"}])
    asked: list[int] = []

    def counting(game_id: int, record: GameRecord) -> Review:
        asked.append(game_id)
        return review(record)

    reviews = Reviews(kept=1)
    marks = reviews.marks(games, first, counting)
    work = len(asked)
    assert reviews.marks(games, first, counting) == marks and len(asked) == work  # kept: no new work
    reviews.marks(games, second, counting)  # the one kept makes way for it
    work = len(asked)
    assert reviews.marks(games, first, counting) == marks and len(asked) > work
