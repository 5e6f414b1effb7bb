"""``atlas`` and ``cheatsheet``: the place written is tried before the work, the work says how far it
is on a terminal, and the sheet is the one of the rules asked for (issue 30)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from shutthebox.cli import atlas as atlas_command
from shutthebox.cli import cheatsheet as cheatsheet_command
from shutthebox.cli import progress
from shutthebox.core.rules import Rules
from shutthebox.i18n import _
from shutthebox.strategy.atlas import atlas_steps
from shutthebox.strategy.solver import solve
from tests.support.cli import cli, in_english

UNWRITABLE = Path("/proc/shutthebox-issue-30")
"""A place no one can make a file or folder in, root included (Linux's /proc)."""


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    in_english(monkeypatch, tmp_path)


def _never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("computed before the place to write was tried")


class _Terminal(io.StringIO):
    """Standard error as a terminal: where progress is drawn."""

    def isatty(self) -> bool:
        return True


needs_proc = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")


@needs_proc
def test_the_atlas_tries_its_folder_before_computing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(atlas_command, "atlas", _never)
    status, out, err = cli(capsys, "atlas", str(UNWRITABLE / "atlas"), "--tiles", "3", "--games", "10")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "OUTDIR" in err and str(UNWRITABLE) in err


@needs_proc
def test_the_cheatsheet_tries_its_file_before_solving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cheatsheet_command, "cheatsheet", _never)
    status, out, err = cli(capsys, "cheatsheet", "/proc/shutthebox-sheet.html", "--tiles", "4")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot be written" in err


def test_the_atlas_shows_its_progress_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    status, out, _err = cli(capsys, "atlas", str(tmp_path / "a"), "--tiles", "3", "--games", "50")
    assert status == 0 and "index.html" in out
    drawn = terminal.getvalue()
    assert f"/{atlas_steps(3)} " in drawn and "step/s" in drawn  # the steps, counted
    assert any(_(words) in drawn for words in atlas_command.PART_WORDS.values())  # and named
    quiet = _Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    status, out, _err = cli(capsys, "atlas", str(tmp_path / "b"), "--tiles", "3", "--games", "50",
                            "--no-progress")
    assert status == 0 and "index.html" in out and quiet.getvalue() == ""


def test_the_cheatsheet_honours_an_extra_roll_on_doubles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """8.04, the turn's expected score with a double's extra roll, where the classic sheet says 11.01."""
    doubles = Rules(doubles_extra_turn=True)
    expected = solve(doubles).value
    assert f"{expected:.2f}" == "8.04" and f"{solve(Rules()).value:.2f}" == "11.01"
    status, _out, _err = cli(capsys, "cheatsheet", str(tmp_path / "sheet.html"), "--doubles-extra-turn")
    assert status == 0
    page = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    assert "8.04 from the full board" in page and "11.01" not in page
    status, classic, _ = cli(capsys, "cheatsheet")
    assert status == 0 and page != classic and "11.01 from the full board" in classic


def test_a_dash_is_standard_output_not_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = cli(capsys, "cheatsheet", "-", "--tiles", "5")
    assert status == 0 and out.startswith("<!doctype html>")
    assert not (tmp_path / "-").exists()
    status, plain, _ = cli(capsys, "cheatsheet", "--tiles", "5")
    assert plain == out


@pytest.mark.parametrize("mode", ["long", "elimination"])
def test_the_cheatsheet_refuses_a_way_to_play_it_cannot_describe(
    capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    status, out, err = cli(capsys, "cheatsheet", "--mode", mode, "--tiles", "4")
    assert status == 2 and out == ""
    assert err.strip() == (
        "shutthebox cheatsheet: error: a cheat sheet is for one turn played for the lowest score; "
        f"the {mode} mode is not supported"
    )
