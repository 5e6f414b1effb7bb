"""No command ends in a traceback: bad paths and bad files are refused in one line, before the work.

Each case runs the installed command as a person would (a subprocess, standard
input closed) and checks the exit status, that standard error is one line and
that no "Traceback" is anywhere in what it printed. The paths a command writes
are checked before it plays, simulates or solves, so nothing computed is lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox.cli.main import COMMANDS

BAD_UTF8 = b"\xff\xfe{\x00 not text"


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A folder holding the bad things the cases name: a file where a folder is wanted, a folder
    where a file is, a record that is not UTF-8, one that is not JSON."""
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "latin1.json").write_bytes(BAD_UTF8)
    (tmp_path / "broken.json").write_text('{"format": ', encoding="utf-8")
    return tmp_path


def run(place: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {**os.environ, "LANG": "C", "PYTHONDONTWRITEBYTECODE": "1",
            "SHUTTHEBOX_DB": f"sqlite:///{place / 'history.db'}", "XDG_DATA_HOME": str(place / "data")}
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        base.pop(var, None)
    base.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "shutthebox", *argv], cwd=place, env=base, capture_output=True,
        text=True, timeout=120, check=False, stdin=subprocess.DEVNULL,
    )


def refused(done: subprocess.CompletedProcess[str], status: int = 2, *words: str) -> None:
    """Refused with ``status`` in one line holding ``words`` (on standard error; `verify`'s verdict
    "not proven" is its output), no traceback."""
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert done.returncode == status, done.stderr
    said = done.stderr or done.stdout
    assert len(said.strip().splitlines()) == 1, said
    for word in words:
        assert word in said, said


CASES: dict[str, list[tuple[list[str], dict[str, str], int, tuple[str, ...]]]] = {
    "play": [
        (["play", "Ana", "--plain", "--save", "missing/game.json"], {}, 2, ("--save", "does not exist")),
        (["play", "Ana", "--plain", "--save", "a-file/game.json"], {}, 2, ("--save", "not a folder")),
        (["play", "Ana", "--plain", "--save", "a-folder"], {}, 2, ("--save", "a folder")),
        (["play", "Ana", "--plain"], {"SHUTTHEBOX_DB": "sqlite:///missing/history.db"}, 2,
         ("history", "does not exist")),
        (["play", "Ana", "--plain"], {"SHUTTHEBOX_DB": "sqlite:///a-file/history.db"}, 2, ("not a folder",)),
        (["play", "Ana", "--plain"], {"SHUTTHEBOX_DB": "sqlite:///a-file"}, 2, ("a-file", "not a database")),
        (["play", "Ana", "--plain"], {"SHUTTHEBOX_DB": "sqlite:///a-folder"}, 2, ("a-folder", "a folder")),
        (["play", "Ana", "--plain", "--stake", "1"], {}, 2, ("--stake 1", "solo")),
        (["play", "Ana", "--plain", "--rounds", "100000000000"], {}, 2, ("from 1 to 20 rounds",)),
        (["play", "Ana", "--plain", "--rounds", "3"], {}, 2, ("--rounds 3", "one player plays one turn")),
        (["play", "--plain", "--companion", "--seed", "3"], {}, 2, ("--seed", "companion")),
        (["play", "--plain", *(f"P{n}" for n in range(30))], {}, 2, ("at most 8 players, not 30",)),
        (["play", "--plain", "Ana", *(f"P{n}" for n in range(6)), "--bot", "easy", "--bot", "hard"], {}, 2,
         ("at most 8 players, not 9",)),
        (["play", "--plain", "Bot (easy)"], {}, 2, ("'Bot (easy)' is a bot's name",)),
        (["play", "--plain", "Ana", "robot (difícil) 2"], {}, 2, ("a bot's name",)),
    ],
    "atlas": [
        (["atlas", "out", "--tiles", "13"], {}, 2, ("2 to 12 tiles",)),
        (["atlas", "a-file", "--tiles", "3", "--games", "10"], {}, 2, ("not a folder",)),
        (["atlas", "out", "--seed", "-1"], {}, 2, ("--seed", "0 or more")),
    ],
    "cheatsheet": [
        (["cheatsheet", "--tiles", "13"], {}, 2, ("13",)),
        (["cheatsheet", "missing/sheet.html"], {}, 2, ("does not exist",)),
        (["cheatsheet", "a-file/sheet.html"], {}, 2, ("not a folder",)),
        (["cheatsheet", "--mode", "long"], {}, 2, ("cheat sheet", "long mode is not supported")),
        (["cheatsheet", "--preset", "elimination"], {}, 2, ("cheat sheet", "elimination mode is not")),
    ],
    "train": [
        (["train", "--goal", "win"], {}, 2, ("beat-10", "not 'win'")),
        (["train", "--tiles", "13"], {}, 2, ("13",)),
        (["train", "--count", "100000"], {}, 2, ("--count", "between 1 and 100")),
        (["train"], {"SHUTTHEBOX_DB": "sqlite:///a-file/history.db"}, 2, ("not a folder",)),
    ],
    "daily": [
        (["daily", "--tiles", "11"], {}, 2, ("9, 10, 12 tiles", "not 11")),
        (["daily", "--day", "31/12/2026"], {}, 2, ("YYYY-MM-DD",)),
        (["daily", "--json"], {"SHUTTHEBOX_DB": "sqlite:///a-file/history.db"}, 2, ("not a folder",)),
        (["daily", "Ana", "--server", "notaurl"], {}, 2, ("--server", "not a web address")),
        (["daily", "Bot (hard)"], {}, 2, ("'Bot (hard)' is a bot's name",)),
        (["daily", "Ana", "--server", "http://[::1"], {}, 2, ("--server", "not a web address")),
        (["daily", "Ana", "--server", "http://host:port"], {}, 2, ("--server", "not a web address")),
    ],
    "scores": [
        (["scores"], {"SHUTTHEBOX_DB": "", "XDG_DATA_HOME": "a-file"}, 2, ("history", "cannot be created")),
        (["scores", "--json"], {"SHUTTHEBOX_DB": "sqlite:///a-file/history.db"}, 2, ("not a folder",)),
        (["scores", "--limit", "99999999999999999999"], {}, 2, ("--limit", "between 1 and")),
        (["scores"], {"SHUTTHEBOX_DB": "sqlite:///a-file"}, 2, ("a-file", "not a database")),
        (["scores", "--json"], {"SHUTTHEBOX_DB": "sqlite:///a-file"}, 2, ("a-file", "not a database")),
        (["scores"], {"SHUTTHEBOX_DB": "sqlite:///a-folder"}, 2, ("a-folder", "a folder")),
        (["scores"], {"SHUTTHEBOX_DB": "postgresql://u@127.0.0.1:1/x"}, 2, ("history cannot be read",)),
    ],
    "stats": [
        (["stats", "Ana"], {"SHUTTHEBOX_DB": "", "XDG_DATA_HOME": "a-file"}, 2, ()),
    ],
    "replay": [
        (["replay", "latin1.json"], {}, 2, ("not UTF-8",)),
        (["replay", "broken.json"], {}, 2, ("not valid JSON",)),
        (["replay", "a-folder"], {}, 2, ("a-folder",)),
        (["replay", "missing.json"], {}, 2, ("missing.json",)),
    ],
    "verify": [
        (["verify", "latin1.json"], {}, 1, ("not UTF-8",)),
        (["verify", "missing.json"], {}, 2, ("missing.json",)),
    ],
    "review": [
        (["review", "latin1.json"], {}, 2, ("not UTF-8",)),
        (["review", "a-folder"], {}, 2, ("a-folder",)),
    ],
    "solve": [
        (["solve", "--tiles", "4", "--table", "missing/policy.csv"], {}, 2, ("--table", "does not exist")),
        (["solve", "--tiles", "4", "--mode", "long", "--objective", "long", "--table", "missing/p.csv"], {},
         2, ("--table", "does not exist")),
        (["solve", "--tiles", "4", "--table", "a-folder"], {}, 2, ("--table", "a folder")),
        (["solve", "--objective", "beat", "--target", "-5"], {}, 2, ("--target -5", "1 or more")),
        (["solve", "--objective", "tie-or-beat", "--target", "-1"], {}, 2, ("--target -1", "0 or more")),
    ],
    "hint": [
        (["hint", "--open", "1,2,x"], {}, 2, ()),
        (["hint", "--open", "1,2,3", "--dice", "2,3", "--one-die", "sum-le-6", "--one-die-forced"], {}, 2,
         ("one die must be rolled",)),
        (["hint", "--open", "1,7,9", "--dice", "5"], {}, 2, ("one die may not be rolled", "high-shut")),
        (["hint", "--open", "1,7,9", "--roll", "5", "--one-die-roll"], {}, 2, ("one die may not be rolled",)),
        (["hint", "--open", "1,2", "--dice", "1,2", "--extra", "1"], {}, 2, ("--extra 1", "doubles")),
        (["hint", "--open", "1,2", "--dice", "1,2", "--opening"], {}, 2, ("--opening", "long")),
        (["hint", "--open", "1,2", "--objective", "beat", "--target", "0"], {}, 2, ("--target 0",)),
    ],
    "simulate": [
        (["simulate", "--games", "1e23"], {}, 2, ("--games", "between 1 and 1000000000")),
        (["simulate", "--tiles", "4", "--games", "10", "--seed", "-1"], {}, 2, ("--seed", "0 or more")),
        (["simulate", "--tiles", "4", "--games", "10", "--plot", "missing/plot.png"], {}, 2,
         ("--plot", "does not exist")),
        (["simulate", "--tiles", "4", "--games", "10", "--plot", "a-file/plot.svg"], {}, 2,
         ("--plot", "not a folder")),
    ],
    "serve": [
        (["serve", "--data", "a-file/data", "--port", "0"], {}, 2, ("--data",)),
    ],
    "loadtest": [
        (["loadtest", "--url", "http://192.0.2.1:8000"], {}, 2, ()),
    ],
}


def test_every_command_has_cases() -> None:
    assert set(CASES) == {command.name for command in COMMANDS}


@pytest.mark.parametrize(
    ("argv", "env", "status", "words"),
    [case for cases in CASES.values() for case in cases],
    ids=[" ".join(case[0]) for cases in CASES.values() for case in cases],
)
def test_refused_in_one_line(
    place: Path, argv: list[str], env: dict[str, str], status: int, words: tuple[str, ...]
) -> None:
    env = {k: (str(place / v) if k == "XDG_DATA_HOME" else v) for k, v in env.items()}
    if env.get("SHUTTHEBOX_DB", "").startswith("sqlite:///"):
        env["SHUTTHEBOX_DB"] = "sqlite:///" + str(place / env["SHUTTHEBOX_DB"][len("sqlite:///"):])
    refused(run(place, *argv, env=env), status, *words)


def test_nothing_is_written_when_the_save_path_is_refused(place: Path) -> None:
    """The game is refused before it starts, not played and then lost."""
    done = run(place, "play", "Ana", "--plain", "--seed", "1", "--save", "missing/game.json")
    refused(done, 2)
    assert "rolls" not in done.stdout and done.stdout == ""


def test_scores_of_a_history_not_there_says_so_and_makes_nothing(place: Path) -> None:
    """Reading the scores of a database file that does not exist says so (exit 0: no game saved yet)
    and leaves no file behind."""
    done = run(place, "scores", env={"SHUTTHEBOX_DB": "sqlite:///nothing-here.db"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "nothing-here.db" in done.stdout and "no game has been saved there" in done.stdout
    assert not (place / "nothing-here.db").exists()
    listed = run(place, "scores", "--json", env={"SHUTTHEBOX_DB": "sqlite:///nothing-here.db"})
    assert listed.returncode == 0 and json.loads(listed.stdout) == {"bests": [], "games": []}
    assert not (place / "nothing-here.db").exists()
