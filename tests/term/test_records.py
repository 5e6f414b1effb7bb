"""`RecordFiles`: the records of a sitting, each to its own file as its game ends, never twice."""

from __future__ import annotations

import random
from pathlib import Path

from shutthebox import Game, GameRecord, Rules
from shutthebox.cli.paths import numbered
from shutthebox.term.records import RecordFiles
from tests.support.drive import finish


def finished_record(seed: int) -> GameRecord:
    game = Game(Rules(tiles=4), ["Ana"], seed=seed)
    finish(game, random.Random(seed))
    return game.record()


def test_each_record_goes_to_the_next_file_once(tmp_path: Path) -> None:
    files = RecordFiles(lambda n: numbered(tmp_path / "game.json", n))
    first, second = finished_record(1), finished_record(2)
    assert files.write(first) is not None
    assert files.write(first) is None  # the game handed back on leaving, written already
    written = files.write(second)
    assert written is not None and written.path == tmp_path / "game-2.json"
    assert written.lines() == [f"Game record saved to {tmp_path / 'game-2.json'}"]
    assert GameRecord.load(tmp_path / "game.json").dumps() == first.dumps() and not files.failed


def test_a_write_that_fails_is_said_and_marks_the_sitting_failed(tmp_path: Path) -> None:
    files = RecordFiles(lambda n: tmp_path / "gone" / f"game-{n}.json")
    written = files.write(finished_record(1))
    assert written is not None and written.error is not None and files.failed
    assert written.lines()[0].startswith(f"The game record could not be written to {tmp_path}")
