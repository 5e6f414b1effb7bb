"""``shutthebox scores`` in words: each recent game that counts for no best is marked so."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from shutthebox import Game, GameRecord, Mode, Rules
from shutthebox.cli import main
from shutthebox.i18n import using
from shutthebox.storage import Database, GameRepository
from shutthebox.storage.reader import scores_json
from shutthebox.term.scores import scores_lines
from tests.support.drive import finish

SOLO = Rules(mode=Mode.SOLO)


def played(kind: str, n: int) -> GameRecord:
    """The record of a finished solo game of Ana's, of ``kind``."""
    if kind == "practice":
        game = Game(SOLO, ["Ana"], seed=n)
    elif kind == "companion":
        game = Game(SOLO, ["Ana"], by_hand=True)
    else:
        game = Game(SOLO, ["Ana"])
    finish(game, random.Random(n))
    record = game.record()
    if kind == "assisted":  # as a version 3 record says a hint was asked: the asker's turns count for none
        record = replace(record, assisted=(0,))
    assert record.kind == kind
    return record


KINDS = ("ranked", "practice", "companion", "assisted")


@pytest.fixture
def history() -> None:
    """One game of each kind, the ranked one first (so listed last)."""
    with Database.open() as database:
        games = GameRepository(database)
        for n, kind in enumerate(KINDS):
            games.save(played(kind, n), source="terminal")


def recent(lines: list[str]) -> list[str]:
    return lines[lines.index("Recent games:") + 1 :]


def test_games_that_count_for_no_best_are_marked(history: None) -> None:
    """Regression: a practice game, a game at a real box and a game with a hint were listed like a
    ranked one, and nothing said why their scores were no best."""
    games = recent(scores_lines())
    assert [line.split()[0] for line in games] == ["#4", "#3", "#2", "#1"]
    assisted, companion, practice, ranked = games
    assert practice.endswith(" · practice (no best)")
    assert companion.endswith(" · companion (no best)")
    assert assisted.endswith(" · hint asked (no best for the asker)")
    assert "no best" not in ranked and "practice" not in ranked


def test_the_marks_in_spanish(history: None) -> None:
    with using("es"):
        games = recent_es(scores_lines())
    assert games[0].endswith(" · con pista (sin récord para quien la pidió)")
    assert games[1].endswith(" · modo compañero (sin récord)")
    assert games[2].endswith(" · práctica (sin récord)")
    assert "récord" not in games[3]


def recent_es(lines: list[str]) -> list[str]:
    return lines[lines.index("Partidas recientes:") + 1 :]


def test_the_json_is_as_it_was(history: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["kind"] for g in data["games"]] == list(reversed(KINDS))
    assert [g["ranked"] for g in data["games"]] == [False, False, False, True]
    assert data == scores_json()
    assert not any("no best" in json.dumps(g) for g in data["games"])


def test_an_unknown_kind_is_shown_as_it_is(history: None, tmp_path: Path) -> None:
    """A kind from a later version of the program is named as stored, never dropped or an error."""
    with sqlite3.connect(tmp_path / "history.db") as db:
        db.execute("UPDATE games SET kind = 'tournament' WHERE id = 1")
    db.close()
    assert recent(scores_lines())[-1].endswith(" · tournament")
