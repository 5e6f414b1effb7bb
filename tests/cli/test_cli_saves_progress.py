"""``play --save`` keeps every game of a sitting; the long commands show progress on a terminal only."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from shutthebox import Game, GameRecord, Rules
from shutthebox.cli import main
from shutthebox.cli import progress as progress_module
from shutthebox.cli.paths import numbered
from tests.support.drive import finish


def finished_record(seed: int) -> GameRecord:
    game = Game(Rules(tiles=4), ["Ana"], seed=seed)
    finish(game, random.Random(seed))
    return game.record()


class FakeApp:
    """The full-screen game as `run_play` sees it: two games finished (``n`` between them), then a
    third begun and left when the player quits."""

    return_code: int | None = None  # as a Textual app that ended on q, not on a SIGTERM

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.saved = [finished_record(1), finished_record(2)]

    def run(self) -> GameRecord:
        unfinished = Game(Rules(tiles=4, one_die="never"), ["Ana"], seed=3)  # type: ignore[arg-type]
        unfinished.roll()
        return unfinished.record()


def test_several_games_are_saved_each_to_its_own_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutthebox.term.app

    monkeypatch.setattr(shutthebox.term.app, "ShutTheBoxApp", FakeApp)
    stdout = io.StringIO()
    monkeypatch.setattr(stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdout", stdout)
    path = tmp_path / "game.json"
    status = main(["play", "Ana", "--tiles", "4", "--save", str(path)])
    out = stdout.getvalue()
    assert status == 0
    files = [path, tmp_path / "game-2.json", tmp_path / "game-3.json"]
    assert sorted(tmp_path.glob("game*.json")) == sorted(files)
    loaded = [GameRecord.load(file) for file in files]
    assert [r.dumps() for r in loaded[:2]] == [r.dumps() for r in FakeApp().saved]
    assert len(loaded[2].events) == 1  # the game left after one roll is kept too, last
    for file in files:
        assert f"Game record saved to {file}" in out


def test_a_finished_game_returned_is_not_saved_twice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutthebox.term.app

    class OneGame(FakeApp):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.saved = [finished_record(1)]

        def run(self) -> GameRecord:
            return self.saved[-1]

    monkeypatch.setattr(shutthebox.term.app, "ShutTheBoxApp", OneGame)
    stdout = io.StringIO()
    monkeypatch.setattr(stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["play", "Ana", "--tiles", "4", "--save", str(tmp_path / "one.json")]) == 0
    assert [p.name for p in tmp_path.glob("one*.json")] == ["one.json"]


def test_numbered_files_sit_side_by_side() -> None:
    assert numbered(Path("out/game.json"), 1) == Path("out/game.json")
    assert numbered(Path("out/game.json"), 12) == Path("out/game-12.json")
    assert numbered(Path("record"), 2) == Path("record-2")


class Recorder:
    """A progress bar that counts what it is told."""

    def __init__(self) -> None:
        self.n = 0
        self.closed = False

    def update(self, n: int = 1) -> None:
        self.n += n

    def close(self) -> None:
        self.closed = True


def test_simulate_vs_counts_every_match(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bars: list[Recorder] = []

    def counter(total: int, unit: str, quiet: bool = False) -> Recorder:
        assert total == 7 and not quiet
        bars.append(Recorder())
        return bars[-1]

    monkeypatch.setattr(progress_module, "counter", counter)
    status = main(["simulate", "--vs", "greedy", "--strategy", "optimal", "--mode", "round",
                   "--tiles", "4", "--games", "7"])
    assert status == 0
    assert len(bars) == 1 and bars[0].n == 7 and bars[0].closed
    assert "7 matches" in capsys.readouterr().out


def test_no_progress_when_standard_error_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert progress_module.counter(10, "game") is None
    with progress_module.working("solving…"):
        pass
    assert stderr.getvalue() == ""


def test_progress_on_a_terminal_unless_asked_away(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr(stderr, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stderr", stderr)
    assert progress_module.shown() and not progress_module.shown(quiet=True)
    bar = progress_module.counter(10, "game")
    assert bar is not None and bar.total == 10
    bar.close()
    assert progress_module.counter(10, "game", quiet=True) is None
