"""``shutthebox stats``: a player's statistics in the terminal, computed again here from the games
the test saves itself, and equal, as JSON, to what the web endpoint serves for the same database."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox import Rules
from shutthebox.cli.main import main
from shutthebox.cli.stats import stats_lines
from shutthebox.core.record import GameRecord, replay
from shutthebox.core.rules import Mode
from shutthebox.core.tiles import grade
from shutthebox.storage import Database, GameRepository
from shutthebox.web import Settings, create_app
from tests.support.storage import fair_game
from tests.support.web import create

GRADES = ("S", "A", "B", "C", "F")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def saved(url: str) -> dict[tuple[int, str], list[GameRecord]]:
    """Ana's games, saved here: solo on 9 tiles (several), solo on 12 tiles, a round with Luis;
    by board size and mode."""
    plan = [(Rules(tiles=9, mode=Mode.SOLO), ["Ana"], f"nine-{i}") for i in range(6)]
    plan += [(Rules(tiles=12, mode=Mode.SOLO), ["Ana"], f"twelve-{i}") for i in range(3)]
    plan += [(Rules(tiles=9, mode=Mode.ROUND), ["Ana", "Luis"], "round-0")]
    games: dict[tuple[int, str], list[GameRecord]] = {}
    with Database.open(url) as database:
        kept = GameRepository(database)
        for rules, players, seed in plan:
            record = fair_game(rules, players, seed).record()
            kept.save(record, source="terminal")
            games.setdefault((rules.tiles, str(rules.mode)), []).append(record)
    return games


def scores_of(records: list[GameRecord], player: str) -> list[int]:
    """Every score ``player`` made in ``records``, replayed: the independent computation."""
    return [
        turn.score
        for record in records
        for turn in replay(record).history
        if record.players[turn.player] == player and turn.score is not None
    ]


def test_the_numbers_are_those_of_the_games_saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    games = saved(url)
    status, out, err = run(capsys, "stats", "Ana", "--db", url, "--json")
    assert status == 0, err
    found = json.loads(out)
    every = [r for records in games.values() for r in records]
    assert found["player"] == "Ana" and found["games"] == len(every)
    assert found["turns"] == len(scores_of(every, "Ana"))
    # solo and round turns under the same scoring rules share a group (a rules key leaves the mode out)
    by_tiles = {group["tiles"]: group for group in found["groups"]}
    assert sorted(by_tiles) == [9, 12] and len(found["groups"]) == 2
    for tiles, group in by_tiles.items():
        records = [r for (size, _), rs in games.items() if size == tiles for r in rs]
        scores = scores_of(records, "Ana")
        grades = Counter(grade(score) for score in scores)
        assert group["games"] == len(records) and group["turns"] == len(scores)
        assert group["average"] == round(sum(scores) / len(scores), 2)
        assert (group["lowest"], group["highest"]) == (min(scores), max(scores))
        assert [(g["grade"], g["count"]) for g in group["grades"]] == [(g, grades[g]) for g in GRADES]
        bars = group["histogram"]
        assert bars[0]["low"] == 0 and bars[-1]["low"] <= max(scores) <= bars[-1]["high"]
        for bar in bars:
            assert bar["count"] == sum(bar["low"] <= s <= bar["high"] for s in scores)
        assert group["best"]["score"] == min(scores)  # every game here is ranked: fair dice, no hint

    status, text, err = run(capsys, "stats", "Ana", "--db", url)
    assert status == 0, err
    assert "\x1b[" not in text  # not a terminal: no colour
    lines = text.splitlines()
    twelve = by_tiles[12]
    assert any(
        f"average {twelve['average']}" in line and f"lowest {twelve['lowest']}" in line
        and f"highest {twelve['highest']}" in line and f"games {twelve['games']}" in line
        for line in lines
    ), text
    # each chart row ends with its count: the grade rows of the 12-tile group, in order
    start = lines.index(next(line for line in lines if line.startswith("12 tiles")))
    grades_at = lines.index("  Grades", start)
    rows = lines[grades_at + 1:grades_at + 6]
    assert [(row.split()[0], int(row.split()[-1])) for row in rows] == [
        (g["grade"], g["count"]) for g in twelve["grades"]
    ]


def test_tiles_keeps_one_board_and_spanish_is_spoken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    saved(url)
    status, out, _ = run(capsys, "stats", "Ana", "--db", url, "--tiles", "12", "--json")
    assert status == 0 and [g["tiles"] for g in json.loads(out)["groups"]] == [12]
    status, text, _ = run(capsys, "--lang", "es", "stats", "Ana", "--db", url, "--tiles", "12")
    assert status == 0 and "  Calificaciones" in text.splitlines() and "  Puntuaciones" in text.splitlines()


def test_the_json_is_the_web_endpoints_for_the_same_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    app = create_app(Settings(database_url=url, bot_delay=0, rate_rooms="100/minute"))
    with TestClient(app) as client:
        for _game in range(3):
            table, _state = create(client, seats=[{"name": "Eva"}])
            table.play_while_mine()
        response = client.get("/api/players/Eva/stats")
        assert response.status_code == 200, response.text
        served: dict[str, Any] = response.json()
    status, out, err = run(capsys, "stats", "Eva", "--db", url, "--json")
    assert status == 0, err
    assert json.loads(out) == served
    assert served["games"] == 3 and served["accuracy"]["games"]  # reviewed, as the page shows


def test_an_unknown_name_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    saved(url)
    status, out, err = run(capsys, "stats", "Nobody", "--db", url)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "'Nobody'" in err and "Traceback" not in err


def test_colour_only_when_asked() -> None:
    found = {
        "player": "Ana", "games": 1, "turns": 1, "truncated": False,
        "groups": [{
            "tiles": 3, "rules_key": "unknown", "games": 1, "turns": 1, "average": 2.0, "lowest": 2,
            "highest": 2, "histogram": [{"low": 0, "high": 0, "count": 0}, {"low": 1, "high": 1, "count": 0},
                                        {"low": 2, "high": 2, "count": 1}],
            "grades": [{"grade": g, "count": int(g == "A")} for g in GRADES], "best": None,
        }],
        "accuracy": {"games": [], "mean": None, "decisions": 0, "best": 0},
    }
    plain = stats_lines(found)
    assert not any("\x1b[" in line for line in plain)
    assert "    2 " + "#" * 30 + " 1" in plain
    assert "    0  0" not in plain  # issue 30: no rows before the lowest score
    assert any("\x1b[" in line for line in stats_lines(found, colour=True))


def test_a_missing_database_is_one_line_and_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such.db"
    status, out, err = run(capsys, "stats", "Ana", "--db", f"sqlite:///{missing}")
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert not missing.parent.exists()


def test_colour_on_a_terminal_unless_no_color(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    saved(url)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    status, coloured, _ = run(capsys, "stats", "Ana", "--db", url, "--tiles", "12")
    assert status == 0 and "\x1b[" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    status, plain, _ = run(capsys, "stats", "Ana", "--db", url, "--tiles", "12")
    assert status == 0 and "\x1b[" not in plain
    assert plain.splitlines() == [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured.splitlines()]


# -- issue 30 --------------------------------------------------------------------------------------


def test_a_name_is_found_in_any_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    saved(url)
    status, out, err = run(capsys, "--lang", "en", "stats", "ana", "--db", url)
    assert status == 0, err
    assert out.startswith("Statistics of Ana: 10 games")


def test_the_histogram_shows_the_rows_with_scores() -> None:
    bars = [{"low": 3 * i, "high": 3 * i + 2, "count": int(i == 15)} for i in range(16)]  # one 47
    found = {
        "player": "Ana", "games": 1, "turns": 1, "truncated": False,
        "groups": [{
            "tiles": 9, "rules_key": "unknown", "games": 1, "turns": 1, "average": 47.0, "lowest": 47,
            "highest": 47, "histogram": bars,
            "grades": [{"grade": g, "count": int(g == "F")} for g in GRADES], "best": None,
        }],
        "accuracy": {"games": [], "mean": None, "decisions": 0, "best": 0},
    }
    lines = stats_lines(found)
    start = lines.index("  Scores") + 1
    assert lines[start:lines.index("  Grades")] == ["    45-47 " + "#" * 30 + " 1"]
    spread = [{"low": i, "high": i, "count": int(i in (2, 9))} for i in range(10)]
    found["groups"][0]["histogram"] = spread  # type: ignore[index]
    lines = stats_lines(found)
    rows = lines[lines.index("  Scores") + 1:lines.index("  Grades")]
    assert [row.split()[0] for row in rows] == ["2", "3-8", "9"]  # the empty run between made one row
