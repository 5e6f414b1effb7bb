"""Issue 30's minor items for the command line: units, words, one style of error, records checked alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox import Game, Move, Roll, Rules, ScriptedDice
from shutthebox.cli import main

SRC = str(Path(__file__).resolve().parents[2] / "src")


def run_text(capsys: pytest.CaptureFixture[str], lang: str, *argv: str) -> str:
    assert main(["--lang", lang, *argv]) == 0
    return capsys.readouterr().out


def cli(*argv: str, home: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command as a person runs it: its own process, its exit status, its two streams."""
    env = {**os.environ, "PYTHONPATH": SRC, "SHUTTHEBOX_LANG": "en"}
    if home is not None:  # a machine of its own: its data folder and its history
        home.mkdir(parents=True, exist_ok=True)
        env.update(XDG_DATA_HOME=str(home), SHUTTHEBOX_DB=f"sqlite:///{home / 'games.db'}")
    return subprocess.run(
        [sys.executable, "-m", "shutthebox", "--lang", "en", *argv],
        capture_output=True, text=True, env=env, input=stdin, timeout=120, check=False,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def solo_record(tmp_path: Path) -> Path:
    game = Game(Rules(mode="solo"), ["Ana"], dice=ScriptedDice([Roll.of(4, 5), Roll.of(1, 1)]))
    game.roll()
    game.act(Move.parse("6+2+1"))
    game.roll()
    path = tmp_path / "game.json"
    game.record().save(path)
    return path


# -- 1. units --------------------------------------------------------------------------------------


def test_hint_for_a_chance_says_percentages_and_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "hint", "--open", "1,2,3,4,5,6,7,8,9", "--dice", "5,6", "--objective", "win")
    assert "(loss" not in out and "0.501530" not in out
    assert "50.2 %" in out and "3.6 percentage points lost" in out
    assert "Ranked best first" in out and "  1. shut 9+2" in out and "  2. shut 8+3" in out


def test_hint_for_the_score_says_points(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "hint", "--open", "1,4,5,8", "--dice", "3,6")
    assert "0.10 points lost" in out and "(loss" not in out
    out = run_text(capsys, "es", "hint", "--open", "1,4,5,8", "--dice", "3,6")
    assert "0,10 puntos perdidos" in out or "0.10 puntos perdidos" in out


def test_review_says_the_unit_of_a_loss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "review", str(solo_record(tmp_path)))
    assert "14.71 points lost" in out and "loss 14." not in out


# -- 2. words --------------------------------------------------------------------------------------


def test_recent_games_say_each_way_of_playing_plainly() -> None:
    import random

    from shutthebox import Mode
    from shutthebox.storage import Database, GameRepository
    from shutthebox.term.scores import scores_lines
    from tests.support.drive import finish

    with Database.open() as database:
        games = GameRepository(database)
        for mode, players, seed in ((Mode.SOLO, ["Ana"], 1), (Mode.ELIMINATION, ["Ana", "Luis"], 3),
                                    (Mode.LONG, ["Ana", "Luis"], 5)):
            game = Game(Rules(mode=mode), players, seed=seed)
            finish(game, random.Random(seed))
            games.save(game.record(), source="terminal")
        lines = scores_lines(["Ana"])
    solo = next(line for line in lines if "· solo," in line)
    assert "won by" not in solo and "Ana: " in solo, solo
    elimination = next(line for line in lines if "elimination" in line)
    assert "Ana: total " in elimination and "Luis: total " in elimination, elimination
    long = next(line for line in lines if "long game" in line)
    assert "no score" not in long and long.count("Ana") == 1 + ("won by Ana" in long), long


def test_a_board_of_one_tile_is_said_in_the_singular() -> None:
    import random

    from shutthebox.term.saving import save_finished
    from tests.support.drive import finish

    game = Game(Rules(tiles=1, mode="solo"), ["Ana"])  # fair dice: the turn counts for a best
    finish(game, random.Random(1))
    text = "\n".join(save_finished(game, ["Ana"]))
    assert "on 1 tile:" in text and "1 tiles" not in text, text


@pytest.mark.parametrize(
    ("change", "words", "not_said"),
    [
        ({"format": None}, 'its format is null, not "shutthebox-record"', "None"),
        ({"events": None}, "events must be a list of actions, not nothing (null)", "NoneType"),
        ({"events": [{"player": 0, "roll": [4, 5], "x": {"a": 1}}]}, '{"player": 0', "{'player'"),
        ({"seed": 10 ** 400}, "(401 digits)", "9" * 30),
    ],
)
def test_record_errors_say_what_is_wrong_in_words(
    tmp_path: Path, change: dict[str, object], words: str, not_said: str
) -> None:
    data = json.loads(solo_record(tmp_path).read_text(encoding="utf-8"))
    data.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("replay", "review"):
        err = one_line_error(cli(command, str(path)))
        assert words in err and not_said not in err and len(err) < 300, err
    said = cli("verify", str(path))
    assert said.returncode == 1 and words in said.stdout and not_said not in said.stdout, said.stdout


def test_a_daily_practice_is_said_to_be_one() -> None:
    import random
    from datetime import date

    from shutthebox.core.daily import Challenge, PracticeDice
    from shutthebox.term.saving import save_finished
    from tests.support.drive import finish

    challenge = Challenge(date(2026, 1, 2), 9)
    game = Game(challenge.rules, ["Ana"], dice=PracticeDice(challenge.dice(b"s" * 32)))
    finish(game, random.Random(2))
    text = "\n".join(save_finished(game, ["Ana"]))
    assert "fair scheme" not in text and "practice of the day's challenge" in text, text


def test_train_asks_in_plain_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["--lang", "en", "train", "Ana", "--count", "1", "--goal", "long", "--tiles", "6"]) == 0
    out = capsys.readouterr().out
    assert "playing for winning" not in out and "(goal: winning the long game)" in out, out


# -- 3. review checks a record as replay does ------------------------------------------------------


@pytest.mark.parametrize("edit", ["winner", "cut"])
def test_review_refuses_what_replay_refuses(tmp_path: Path, edit: str) -> None:
    data = json.loads(solo_record(tmp_path).read_text(encoding="utf-8"))
    if edit == "winner":
        data["result"]["winner"] = "Luis"
    else:
        data["events"] = data["events"][:2]  # the game stops before its end, its result kept
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    replayed = one_line_error(cli("replay", str(path)))
    reviewed = one_line_error(cli("review", str(path)))
    assert reviewed.partition(": error: ")[2] == replayed.partition(": error: ")[2], reviewed
    assert "differs" in reviewed, reviewed


# -- 4. replay tells each turn's rolls and moves ---------------------------------------------------


def test_replay_tells_rolls_moves_and_labels_the_open_tiles(tmp_path: Path) -> None:
    done = cli("replay", str(solo_record(tmp_path)))
    assert done.returncode == 0, done.stderr
    told = "round 1: Ana: rolled 4+5, shut 6+2+1, rolled 1+1; open: 3 4 5 7 8 9 -> 36"
    assert told in done.stdout, done.stdout


# -- 6. a profile file that cannot be read ---------------------------------------------------------


def test_an_unreadable_profile_file_is_said_and_the_best_agrees_with_scores() -> None:
    import random

    from shutthebox.term.profile import profile_path
    from shutthebox.term.saving import save_finished
    from shutthebox.term.scores import scores_lines
    from tests.support.drive import finish

    first = Game(Rules(mode="solo"), ["Ana"])
    finish(first, random.Random(1))
    save_finished(first, ["Ana"])  # Ana's profile is made, its key kept in profile.json
    profile_path().write_text("{not json", encoding="utf-8")
    bests = [line for line in scores_lines(["Ana"]) if line.startswith("  Ana: best ")]
    again = Game(Rules(mode="solo"), ["Ana"])
    finish(again, random.Random(2))
    text = "\n".join(save_finished(again, ["Ana"]))
    assert text.count("could not be read") == 1 and "profile.json" in text and "set aside" in text, text
    # a guest's first best, where scores goes on showing the profile's: the line says whose it is
    assert "New personal best for Ana" in text and "kept as a guest's" in text, text
    assert [line for line in scores_lines(["Ana"]) if line.startswith("  Ana: best ")] == bests


# -- 7. train --------------------------------------------------------------------------------------


def first_puzzle(out: str) -> str:
    return out.split("Puzzle 1 of", 1)[1].split("Your answer", 1)[0].split("\n", 1)[1]


def test_train_deals_the_first_puzzle_by_chance_and_sums_up_at_the_end_of_input(
    tmp_path: Path
) -> None:
    firsts = set()
    for n in range(4):  # a new player each time: every puzzle is as near their rating
        done = cli("train", "Ana", "--count", "3", "--tiles", "6", home=tmp_path / str(n), stdin="1\n")
        assert done.returncode == 0, done.stderr
        firsts.add(first_puzzle(done.stdout))
        assert "Session over: " in done.stdout and " of 1 right." in done.stdout, done.stdout  # input ended
    assert len(firsts) > 1, firsts  # the same four times: one chance in tens of thousands


def test_train_seed_deals_the_same_puzzles(tmp_path: Path) -> None:
    dealt = [
        first_puzzle(cli("train", "Ana", "--count", "1", "--tiles", "6", "--seed", "7",
                         home=tmp_path / str(n), stdin="1\n").stdout)
        for n in range(2)
    ]
    assert dealt[0] == dealt[1]


# -- 8. one style of error -------------------------------------------------------------------------


def test_a_refused_command_line_and_a_failed_run_say_their_error_alike(tmp_path: Path) -> None:
    usage = one_line_error(cli("solve", "--objective", "beat"))  # refused by the parser
    run = one_line_error(cli("replay", str(tmp_path / "missing.json")))  # failed as it ran
    assert usage.startswith("shutthebox solve: error: "), usage
    assert run.startswith("shutthebox replay: error: "), run
