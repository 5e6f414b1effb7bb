"""The ``shutthebox`` command: clear help, and bad arguments in one line with status 2."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox import Game, GameRecord, Rules, __version__, replay
from shutthebox.cli import build_parser
from shutthebox.cli.parser import rules_from_args
from shutthebox.core.record import result_of
from tests.support.cli import cli, in_english
from tests.support.drive import finish

SHUTTHEBOX = Path(sys.executable).parent / "shutthebox"


@pytest.fixture(autouse=True)
def _quiet_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """English text, and any history the command keeps goes to a throwaway database."""
    in_english(monkeypatch, tmp_path)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_help_names_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "--help")
    assert status == 0 and err == ""
    assert "Shut the Box" in out and "Cerrar la Caja" in out
    for name in subcommands():
        assert name in out
    assert "--version" in out and "--lang" in out
    assert {"play", "replay"} <= set(subcommands())


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_each_subcommand_help_names_its_options(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, err = cli(capsys, name, "--help")
    assert status == 0 and err == ""
    options = [
        option
        for action in subcommands()[name]._actions
        for option in action.option_strings
        if option.startswith("--")
    ]
    assert options
    for option in options:
        assert option in out, option


def test_play_help_names_the_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = cli(capsys, "play", "--help")
    for option in ("--tiles", "--one-die", "--one-die-forced", "--max-tiles", "--scoring", "--mode",
                   "--shut-wins", "--stake", "--limit", "--doubles-extra-turn", "--preset", "--seed",
                   "--save", "--plain", "--rounds"):
        assert option in out, option
    for value in ("high-shut", "sum-le-6", "sum-lt-6", "never", "sum-plus-roll", "digits", "elimination"):
        assert value in out, value


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "--version")
    assert status == 0 and out.strip() == f"shutthebox {__version__}"


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys)
    assert status == 2 and "usage" in out.lower()


def bad_record(tmp_path: Path) -> Path:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "shutthebox-record", "version": 1, "rules": {}, "players": ["A"], '
                    '"events": [{"player": 0, "move": [9]}]}', encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "--tiles", "13"], "13"),
        (["play", "--tiles", "0"], "'0'"),
        (["play", "--tiles", "nine"], "'nine'"),
        (["play", "--one-die", "sometimes"], "sometimes"),
        (["play", "--scoring", "golf"], "golf"),
        (["play", "--mode", "long", "A", "B", "C"], "two players, not 3"),
        (["play", "--mode", "solo", "A", "B"], "one player, not 2"),
        (["play", "--stake", "-1"], "-1"),
        (["play", "--preset", "nope"], "nope"),
        (["play", "--rounds", "x"], "'x'"),
        (["play", "A", "A"], "differ"),
        (["replay", "missing.json"], "missing.json"),
        (["replay"], "FILE"),
        (["fly"], "fly"),
        (["--lang", "fr", "play"], "fr"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    argv: list[str], needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, _, err = cli(capsys, *argv)
    assert status == 2
    assert len(err.splitlines()) == 1, err
    assert "error" in err and needle in err
    assert "Traceback" not in err


def test_replay_of_a_bad_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = cli(capsys, "replay", str(bad_record(tmp_path)))
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and "event 0" in err and "no roll to match" in err
    (tmp_path / "junk.json").write_text("{oops", encoding="utf-8")
    status, _, err = cli(capsys, "replay", str(tmp_path / "junk.json"))
    assert status == 2 and len(err.splitlines()) == 1 and "not valid JSON" in err


def saved_game(tmp_path: Path, rules: Rules, players: list[str]) -> tuple[Path, Game]:
    game = Game(rules, players, seed=12)
    finish(game, random.Random(12))
    path = tmp_path / "game.json"
    game.record().save(path)
    return path, game


def test_replay_prints_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, game = saved_game(tmp_path, Rules(stake=2), ["Ana", "Luis"])
    status, out, err = cli(capsys, "replay", str(path))
    assert status == 0 and err == ""
    assert "Replay matches the record." in out
    winner = game.state.players[game.state.winner] if game.state.winner is not None else "-"
    assert f"winner: {winner}" in out
    assert "Ana" in out and "Luis" in out and "Ledger:" in out
    assert out.count("round 1") >= len(game.state.history)


def test_replay_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, game = saved_game(tmp_path, Rules(mode="elimination"), ["Ana", "Luis", "Eva"])  # type: ignore[arg-type]
    status, out, _ = cli(capsys, "replay", "--json", str(path))
    assert status == 0
    assert json.loads(out) == result_of(game.state) == json.loads(game.record().dumps())["result"]


def test_rule_flags_build_the_rules() -> None:
    parser = build_parser()
    args = parser.parse_args(["play", "--preset", "web", "--tiles", "12", "--one-die-forced",
                              "--max-tiles", "2", "--scoring", "count", "--no-shut-wins", "--stake", "3"])
    assert rules_from_args(args) == Rules(tiles=12, one_die="sum-le-6", one_die_forced=True,  # type: ignore[arg-type]
                                          max_tiles=2, scoring="count", shut_wins=False, stake=3)  # type: ignore[arg-type]
    args = parser.parse_args(["play", "--mode", "long", "--no-doubles-extra-turn", "--limit", "30"])
    assert rules_from_args(args) == Rules(mode="long", doubles_extra_turn=False, limit=30)  # type: ignore[arg-type]
    assert rules_from_args(parser.parse_args(["play"])) == Rules()


def test_play_plain_companion_with_typed_rolls_and_save(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed = ["4,4", "8", "3,4", "7", "3,3", "6", "2,2", "4", "2,3", "3+2", "3,1"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in typed)))
    path = tmp_path / "solo.json"
    argv = ["--lang", "en", "play", "Ana", "--plain", "--companion", "--save", str(path)]
    status, out, err = cli(capsys, *argv)
    assert status == 0, err
    assert "Ana scores 15 (open: 1, 5, 9), grade C." in out
    assert "The dice were typed in, so this game counts for no best." in out
    record = GameRecord.load(path)
    assert record.seed is None and record.typed and record.kind == "companion"  # and the record says so
    state = replay(record)
    assert state.history[0].score == 15 and state.rules.mode.value == "solo"
    assert "shutthebox verify" not in out  # typed dice: nothing to prove


@pytest.mark.parametrize("seed", [[], ["--seed", "3"]], ids=["fair", "practice"])
def test_play_plain_refuses_typed_dice_outside_companion_mode(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: list[str]
) -> None:
    """Regression: ``play --plain`` took typed dice in any game, and the score counted as a best."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("4,4\n8\n3 1\n"))
    path = tmp_path / "solo.json"
    status, out, err = cli(capsys, "--lang", "en", "play", "Ana", "--plain", *seed, "--save", str(path))
    assert status == 0 and err == ""  # refused with a message, never a traceback
    refused = "typed dice are for companion mode (--companion) only, at a real box; press Enter to roll."
    assert f"'4,4': {refused} Nothing changed." in out
    assert f"'8': {refused}" in out and f"'3 1': {refused}" in out
    assert "Ana rolls" not in out and "Game abandoned." in out
    assert "Press Enter to roll (two dice): " in out and "type the dice" not in out
    assert not path.exists()  # nothing was played, so nothing to save


def test_play_in_spanish(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("6,6\n9+3\n1,1\n2\n1,2\n"))
    argv = ["--lang", "es", "play", "Ana", "--plain", "--companion", "--one-die", "never"]
    status, out, _ = cli(capsys, *argv)
    assert status == 0
    assert out.startswith("Cerrar la Caja")
    assert "Ana anota 31 (abiertas: 1, 4, 5, 6, 7, 8), calificación F." in out


def test_the_installed_command_shows_its_help() -> None:
    env = {**os.environ, "LANG": "C"}
    done = subprocess.run([str(SHUTTHEBOX), "--help"], capture_output=True, text=True, timeout=60,
                          check=False, env=env)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: shutthebox")
    assert "play" in done.stdout and "replay" in done.stdout
    bad = subprocess.run([str(SHUTTHEBOX), "play", "--tiles", "13"], capture_output=True, text=True,
                         timeout=60, check=False, env=env, stdin=subprocess.DEVNULL)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("e\x1b[2Jvil", "the name 'e\\x1b[2Jvil' holds an invisible or control character (U+001B)"),
        ("An\u202ea", "the name 'An\\u202ea' holds an invisible or control character (U+202E)"),
        ("\u2066Ana", "the name '\\u2066Ana' holds an invisible or control character (U+2066)"),
        ("Bartholomew Fitzgerald III", "the name 'Bartholomew Fitzgerald III' is longer than 24 characters"),
        ("  ", "a name needs at least one visible character, not '  '"),
    ],
    ids=["escape", "bidi-override", "bidi-isolate", "too-long", "blank"],
)
def test_play_refuses_a_player_name_the_history_would_refuse(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, why: str
) -> None:
    """Regression: ``play --plain $'e\\x1b[2Jvil'`` played a whole game (the escape drawn in every
    line) that then could not be saved; such a name is refused before the game, in one line."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 40))
    path = tmp_path / "game.json"
    status, out, err = cli(capsys, "--lang", "en", "play", "--plain", "Luis", name, "--save", str(path))
    assert status == 2 and out == "" and not path.exists()
    assert err == f"shutthebox play: error: {why}\n"
    status, _, err = cli(capsys, "--lang", "es", "play", "--plain", name)
    assert status == 2 and err.startswith("shutthebox play: error: ") and len(err.splitlines()) == 1
    assert "\x1b" not in err and "\u202e" not in err and "\u2066" not in err  # quoted, never drawn


def test_play_keeps_the_names_cleaned(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed = ["4,4", "8", "3,4", "7", "3,3", "6", "2,2", "4", "2,3", "3+2", "3,1"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in typed)))
    path = tmp_path / "solo.json"
    status, out, err = cli(
        capsys, "--lang", "en", "play", "--plain", "--companion", " Ana\tMari\u0301a ", "--save", str(path)
    )
    assert status == 0, err
    assert "Ana María's turn" in out and "Ana María scores 15" in out
    assert "Saved to your history (game 1)." in out
    assert GameRecord.load(path).players == ("Ana María",)


def test_solve_objective_long_plays_the_long_games_own_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --mode, --objective long once solved the round's rules (no extra turns: 0.5366)."""
    import json

    from shutthebox.strategy.solver import solve_long

    status, out, _ = cli(capsys, "solve", "--objective", "long", "--json")
    plain = json.loads(out)
    assert status == 0 and plain["doubles_extra_turn"] is True
    assert plain["value"] == pytest.approx(solve_long(Rules(mode="long")).value, abs=1e-12)  # type: ignore[arg-type]
    status, out, _ = cli(capsys, "solve", "--objective", "long")
    assert status == 0 and "long game:" in out and "round" not in out
    status, _, err = cli(capsys, "solve", "--objective", "long", "--mode", "round")
    assert status == 2 and "leave out --mode or give --mode long" in err and "Traceback" not in err
    status, out, _ = cli(capsys, "solve", "--objective", "long", "--no-doubles-extra-turn", "--json")
    assert json.loads(out)["value"] == pytest.approx(0.536631151705, abs=1e-12)


@pytest.mark.parametrize("tiles", [1, 2, 3])
def test_a_probability_never_prints_above_one(capsys: pytest.CaptureFixture[str], tiles: int) -> None:
    import json

    for objective, mode in (("long", "long"), ("win", "round"), ("shut", "solo")):
        argv = ["solve", "--objective", objective, "--mode", mode, "--tiles", str(tiles), "--json"]
        status, out, _ = cli(capsys, *argv)
        assert status == 0 and 0.0 <= json.loads(out)["value"] <= 1.0, (objective, out)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["atlas", "out", "--games", "10000000000000"],
         ("argument --games: '10000000000000' must be between 1 and 1000000000",
          "argumento --games: '10000000000000' debe estar entre 1 y 1000000000")),
        (["simulate", "--games", "10", "--target", "-3"],
         ("argument --target: '-3': no score is under -3 (a score is 0 or more): give 1 or more",
          "argumento --target: '-3': ninguna puntuación es menor que -3 (una puntuación es 0 o más): "
          "indica 1 o más")),
        (["simulate", "--games", "10", "--target", "0"],
         ("argument --target: '0': no score is under 0 (a score is 0 or more): give 1 or more",
          "argumento --target: '0': ninguna puntuación es menor que 0 (una puntuación es 0 o más): "
          "indica 1 o más")),
        (["stats", "Ana", "--tiles", "13"],
         ("argument --tiles: '13' must be between 1 and 12",
          "argumento --tiles: '13' debe estar entre 1 y 12")),
    ],
)
def test_a_number_out_of_the_rules_range_is_refused_as_argparse_refuses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str],
    said: tuple[str, str],
) -> None:
    """Regression (a hostile user): ``atlas --games`` had no upper bound (years of simulation), and
    ``simulate --target -3`` (a chance of nothing) and ``stats --tiles 13`` (no such board) were
    accepted. Each is refused before any work, in one line with status 2, in the reader's language."""
    import shutthebox.cli.atlas

    def no_atlas(*args: object, **kwargs: object) -> None:
        raise AssertionError("the atlas was computed")

    monkeypatch.setattr(shutthebox.cli.atlas, "atlas", no_atlas)
    argv = [argv[0], *(str(tmp_path / a) if a == "out" else a for a in argv[1:])]
    for lang, words in zip(("en", "es"), said, strict=True):
        status, out, err = cli(capsys, "--lang", lang, *argv)
        assert (status, out) == (2, "") and err.count("\n") == 1, err
        assert f"shutthebox {argv[0]}: error: {words} (" in err, err
    assert not (tmp_path / "out").exists()


EMPTY_NAMES = [
    (["replay", ""], "FILE"), (["review", ""], "RECORD"), (["verify", ""], "RECORD"),
    (["cheatsheet", ""], "FILE"), (["atlas", ""], "OUTDIR"), (["play", "--save", ""], "--save"),
    (["simulate", "--plot", ""], "--plot"), (["solve", "--table", ""], "--table"),
    (["stats", "--db", ""], "--db"), (["serve", "--db", ""], "--db"), (["serve", "--data", ""], "--data"),
    (["serve", "--redis", ""], "--redis"), (["loadtest", "--url", ""], "--url"),
    (["daily", "--server", ""], "--server"),
]
"""Every file, folder, database and server a command line names, given as ``""``."""
SPANISH_METAVARS = {"FILE": "ARCHIVO", "RECORD": "REGISTRO", "OUTDIR": "CARPETA"}


@pytest.mark.parametrize(
    ("argv", "what"), EMPTY_NAMES, ids=[" ".join(arg or "''" for arg in argv) for argv, _ in EMPTY_NAMES]
)
def test_an_empty_name_is_one_error_wherever_a_file_or_a_server_is_named(
    capsys: pytest.CaptureFixture[str], argv: list[str], what: str
) -> None:
    """Regression (a hostile user): ``replay ""`` said "cannot read record '.': Is a directory",
    ``cheatsheet ""`` "not a file name", ``stats --db ""`` "not a URL", ``loadtest --url ""`` "names no
    scheme", and ``play --save ""``, ``simulate --plot ""``, ``solve --table ""`` and ``serve --db ""``
    quietly did without it (``atlas ""`` wrote into the current folder). Now one refusal, before any
    work (the parser alone is asked here), in the reader's language."""
    from shutthebox.i18n import activate

    try:
        for lang, said in (("en", "'' is empty: it names nothing"), ("es", "'' está vacío: no nombra nada")):
            activate(lang)
            with pytest.raises(SystemExit) as exit_:
                build_parser(argv[0]).parse_args(argv)
            argument = "argument" if lang == "en" else "argumento"
            named = what if lang == "en" else SPANISH_METAVARS.get(what, what)
            see = "see --help" if lang == "en" else "consulta --help"
            assert (exit_.value.code, capsys.readouterr()) == (
                2, ("", f"shutthebox {argv[0]}: error: {argument} {named}: {said} ({see})\n")
            ), lang
    finally:
        activate("en")
