"""``shutthebox train``: a session in the terminal, each answer rated and kept under this machine's
profile, the best answer the solver's, a miss due again."""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

from cli.test_cli import cli
from shutthebox.storage import Database, ProfileRepository
from shutthebox.storage.trainer import TrainerRepository
from shutthebox.strategy.trainer import Puzzle
from shutthebox.term.profile import read_profile


def test_a_session_rates_each_answer_and_keeps_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nseven\n2\n1\n"))
    status, out, err = cli(capsys, "--lang", "en", "train", "Ana", "--count", "3", "--tiles", "8")
    assert status == 0, err
    assert out.count("Your rating: ") == 3 and "Session over:" in out
    assert "'seven' is not one of the numbers 1 to" in out
    verdicts = re.findall(r"(Right: that is the best answer\.|Not the best answer\.)", out)
    said_right = int(re.search(r"Session over: (\d) of 3 right", out)[1])  # type: ignore[index]
    assert len(verdicts) == 3 and verdicts.count("Right: that is the best answer.") == said_right
    local = read_profile()
    assert local is not None and local.name == "Ana"
    with Database.open(os.environ["SHUTTHEBOX_DB"]) as database:
        profiles = ProfileRepository(database)
        profile = profiles.by_key(local.key)
        assert profile is not None
        standing = TrainerRepository(database).standing(profile.id)
    assert (standing.answered, standing.right) == (3, said_right)


def test_each_puzzle_names_the_solvers_best_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    status, out, _ = cli(capsys, "--lang", "en", "train", "Luis", "--count", "1", "--goal", "shut")
    assert status == 0
    local = read_profile()
    assert local is not None
    with Database.open(os.environ["SHUTTHEBOX_DB"]) as database:
        profiles = ProfileRepository(database)
        profile = profiles.by_key(local.key)
        assert profile is not None
        key = next(iter(TrainerRepository(database).reviews(profile.id, _pool_of_any(database, profile.id))))
    best = Puzzle.from_key(key).advice().best
    assert best is not None and re.search(rf"✓ {re.escape(str(best.action))}\s", out)


def _pool_of_any(database: Database, profile_id: int) -> str:
    from shutthebox.core.rules import Mode, Rules
    from shutthebox.strategy.trainer import Goal, pool_key

    return pool_key(Rules.preset("web", tiles=9, mode=Mode.SOLO), Goal.parse("shut"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--goal", "win"], "score, shut, beat-10, long, not 'win'"), (["--preset", "nope"], "nope")],
)
def test_a_wrong_goal_or_rule_set_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = cli(capsys, "train", *argv)
    assert status == 2 and out == "" and message in err and "Traceback" not in err
