"""Errors in the user's language: the core keeps its English, the CLI says it in Spanish too.

The core's errors are a catalog template and its values (``i18n.say`` speaks them); argparse's
usage errors come from the same catalog.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shutthebox import Rules
from shutthebox.cli import main
from shutthebox.cli.hint import _roll_of
from shutthebox.cli.parser import RULE_FLAGS
from shutthebox.cli.simulate import _plot_path, _simulate_matches
from shutthebox.cli.solve import run_solve
from shutthebox.core.board import Board, Move
from shutthebox.core.chance import outcomes
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError, ShutTheBoxError
from shutthebox.core.match import Match
from shutthebox.core.record import FORMAT, Event, GameRecord, replay
from shutthebox.core.rules import grade
from shutthebox.i18n import languages, say, translations, using
from shutthebox.strategy.bots import make_bot
from shutthebox.strategy.names import Objective
from shutthebox.strategy.simulate import compile_strategy, simulate
from shutthebox.strategy.solver import solve_round
from tests.support.cli import in_english
from tools.catalogs import template

SRC = Path(__file__).resolve().parents[2] / "src" / "shutthebox"


@pytest.fixture(autouse=True)
def _quiet_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An English locale (``--lang`` decides), no stdin, and files in a scratch folder."""
    in_english(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.chdir(tmp_path)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    return status, capsys.readouterr().err


# -- the command line in Spanish and in English --------------------------------------

BASE = {"format": FORMAT, "version": 1, "rules": {}, "players": ["A"], "events": []}
JUNK = "{oops"


def _json_error(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return str(error)
    raise AssertionError("valid JSON")


def _write_records(folder: Path) -> None:
    (folder / "junk.json").write_text(JUNK, encoding="utf-8")
    (folder / "rules.json").write_text(json.dumps({**BASE, "rules": {"tiles": 13}}), encoding="utf-8")
    roll = {**BASE, "events": [{"player": 0, "roll": [7]}]}
    (folder / "roll.json").write_text(json.dumps(roll), encoding="utf-8")
    seeded = {**BASE, "rules": {"mode": "solo"}, "seed": 1, "events": [{"player": 0, "roll": [3, 3]}]}
    (folder / "seed.json").write_text(json.dumps(seeded), encoding="utf-8")


CASES = [
    pytest.param(
        ["solve", "--tiles", "13"],
        "el número de fichas debe estar entre 1 y 12, no 13",
        "tiles must be between 1 and 12, not 13",
        id="rules",
    ),
    pytest.param(
        ["hint", "--open", "1,15"],
        "tablero '1,15': la ficha 15 no está entre 1 y 12",
        "board '1,15': tile 15 is not between 1 and 12",
        id="parse-board",
    ),
    pytest.param(
        ["hint", "--open", "1,2", "--dice", "7"],
        "tirada (7,): un dado muestra de 1 a 6, no 7",
        "roll (7,): a die shows 1 to 6, not 7",
        id="parse-dice",
    ),
    pytest.param(
        ["replay", "junk.json"],
        "el registro no es JSON válido: línea 1, columna 2",
        f"record is not valid JSON: {_json_error(JUNK)}",
        id="record-json",
    ),
    pytest.param(
        ["replay", "missing.json"],
        "no se puede leer el registro 'missing.json': no existe",
        "cannot read record 'missing.json': No such file or directory",
        id="record-unreadable",
    ),
    pytest.param(
        ["review", "rules.json"],
        "reglas del registro: el número de fichas debe estar entre 1 y 12, no 13",
        "record rules: tiles must be between 1 and 12, not 13",
        id="record-wraps-rules",
    ),
    pytest.param(
        ["replay", "roll.json"],
        "acción 0: tirada (7,): un dado muestra de 1 a 6, no 7",
        "event 0: roll (7,): a die shows 1 to 6, not 7",
        id="record-wraps-parse",
    ),
    pytest.param(
        ["replay", "seed.json"],
        "acción 0: la tirada 3+3 no es la que da la semilla 1 (2+5)",
        "event 0: roll 3+3 is not what seed 1 gives (2+5)",
        id="record-seed",
    ),
    pytest.param(
        ["solve", "--objective", "beat"],
        "el objetivo beat necesita --target K",
        "objective beat needs --target K",
        id="cli-solver-objective",
    ),
    pytest.param(
        ["hint", "--open", "1,2", "--roll", "13"],
        "--roll 13: dos dados suman de 2 a 12",
        "--roll 13: two dice total 2 to 12",
        id="cli-solver-roll",
    ),
    pytest.param(
        ["simulate", "--vs", "greedy", "--mode", "solo", "--games", "10"],
        "--vs juega partidas: elige --mode round, elimination o long",
        "--vs plays matches: choose --mode round, elimination or long",
        id="cli-solver-vs",
    ),
    pytest.param(
        ["play", "--plain", "--mode", "long", "Ana", "Luis", "Eva"],
        "el juego largo es para dos jugadores, no para 3",
        "the long game is played by two players, not 3",
        id="match-setup",
    ),
    pytest.param(
        ["simulate", "--vs", "nobody", "--games", "10"],
        "robot desconocido 'nobody': elige uno de easy",
        "unknown bot 'nobody': choose one of easy, medium, hard, expert, random, greedy, fewest, "
        "heuristic, optimal, optimal-score, optimal-shut",
        id="bot",
    ),
    pytest.param(
        ["simulate", "--strategy", "optimal-beat", "--games", "10"],
        "la estrategia optimal-beat necesita una puntuación objetivo (--target K)",
        "strategy optimal-beat needs a target score (--target K)",
        id="objective",
    ),
]

ENGLISH = {
    "must", "between", "needs", "cannot", "not", "is", "the", "of", "to", "and", "record",
    "event", "tile", "tiles", "roll", "choose", "unknown", "player", "players", "game", "one",
    "two", "dice", "die", "shows", "seed", "gives", "file", "valid", "line", "column", "plays",
}


@pytest.mark.parametrize(("argv", "spanish", "english"), CASES)
def test_cli_errors_speak_spanish(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], spanish: str, english: str,
) -> None:
    _write_records(tmp_path)
    status, err = cli(capsys, "--lang", "es", *argv)
    assert status == 2
    assert len(err.splitlines()) == 1, err
    prefix = f"shutthebox {argv[0]}: error: "  # issue 30: each error named by its command, as the parser does
    assert err.startswith(prefix) and spanish in err
    assert english not in err
    message = re.sub(r"--[a-z-]+", "", err.removeprefix(prefix))  # flags are flags
    leftovers = ENGLISH & {word.lower() for word in re.findall(r"[A-Za-z]+", message)}
    assert not leftovers, err


@pytest.mark.parametrize(("argv", "spanish", "english"), CASES)
def test_cli_errors_in_english_are_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], spanish: str, english: str,
) -> None:
    _write_records(tmp_path)
    status, err = cli(capsys, "--lang", "en", *argv)
    assert status == 2
    assert err == f"shutthebox {argv[0]}: error: {english}\n"


# -- every keyed error has its templates ------------------------------------------------

def _solve_args(**given: object) -> argparse.Namespace:
    values: dict[str, object] = {
        "objective": "score", "target": None, "exact": False, "table": None, "json": False, "lang": "en",
        "preset": None, "players": 2, "seat": None, "best": None, "ties": 1, **dict.fromkeys(RULE_FLAGS),
    }
    return argparse.Namespace(**{**values, **given})


def _record(**given: object) -> GameRecord:
    return GameRecord.from_json({**BASE, **given})


def _replay(rules: Rules, events: list[Event], *, seed: int | None = None, result: object = None) -> None:
    replay(GameRecord(rules, ("A",), events, seed=seed, result=result))


TRIGGERS: list[Callable[[], object]] = [
    # rules
    lambda: Rules(one_die="sometimes"),
    lambda: Rules(scoring="golf"),
    lambda: Rules(mode="fly"),
    lambda: grade(-1),
    lambda: Rules(shut_wins=1),
    lambda: Rules(stake=1.5),
    lambda: Rules(tiles=13),
    lambda: Rules(max_tiles=0),
    lambda: Rules(stake=-1),
    lambda: Rules(limit=0),
    lambda: Rules(mode="long", one_die="never", tiles=1),
    lambda: Rules.preset("nope"),
    lambda: Rules().but(colour=1),
    lambda: Rules.from_dict([]),
    # match setup
    lambda: Match.new(Rules(), []),
    lambda: Match.new(Rules(), ["A", "A"]),
    lambda: Match.new(Rules(mode="solo"), ["A", "B"]),
    lambda: Match.new(Rules(mode="long"), ["A", "B", "C"]),
    lambda: Match.new(Rules(mode="elimination"), ["A"]),
    lambda: Match.new(Rules(), ["A"], rounds=0),
    lambda: Match.new(Rules(tiles=1, one_die="never"), ["A", "B"]),
    lambda: Match.new(Rules(tiles=1, one_die="never", mode="elimination"), ["A", "B"]),
    # boards, moves, rolls
    lambda: Board.parse(" , "),
    lambda: Move.parse(","),
    lambda: Board.parse("a"),
    lambda: Move.parse("x"),
    lambda: Board.parse("13"),
    lambda: Move.parse("0"),
    lambda: Board.parse("1,1"),
    lambda: Move.parse("2 2"),
    lambda: Move(0),
    lambda: Move.of([13]),
    lambda: Move.of([2, 2]),
    lambda: Board(13, 0),
    lambda: Board(3, 0b1000),
    lambda: Board.with_open(3, [4]),
    lambda: Board.parse("9", 5),
    lambda: Roll(()),
    lambda: Roll((7,)),
    lambda: Roll.parse("x"),
    lambda: outcomes(3),
    # records
    lambda: Event.from_json(5, 0),
    lambda: Event.from_json({"player": 0}, 1),
    lambda: Event.from_json({"player": 0, "dice": 3}, 2),
    lambda: Event.from_json({"player": 0, "roll": [7]}, 3),
    lambda: Event.from_json({"player": 0, "move": "x"}, 4),
    lambda: GameRecord.from_json([]),
    lambda: GameRecord.from_json({"format": "x"}),
    lambda: GameRecord.from_json({"format": FORMAT, "version": 9}),
    lambda: GameRecord.from_json({"format": FORMAT, "version": 1}),
    lambda: _record(players=[1]),
    lambda: _record(seed="x"),
    lambda: _record(rounds="x"),
    lambda: _record(events={}),
    lambda: _record(result=[]),
    lambda: _record(rules={"tiles": 13}),
    lambda: GameRecord.loads(JUNK),
    lambda: GameRecord.load(Path("missing.json")),
    lambda: replay(GameRecord(Rules(mode="long"), ("A",))),
    lambda: _replay(Rules(mode="solo"), [Event(0, Roll((3, 3)))], seed=1),
    lambda: _replay(Rules(mode="solo"), [Event(0, Move.parse("9"))]),
    lambda: _replay(Rules(mode="solo"), [], result={"over": True}),
    # the study commands
    lambda: run_solve(_solve_args(objective="beat")),
    lambda: run_solve(_solve_args(objective="long", exact=True)),
    lambda: run_solve(_solve_args(objective="win", exact=True, tiles=3)),
    lambda: run_solve(_solve_args(players=3)),
    lambda: run_solve(_solve_args(objective="win", players=3, seat=4)),
    lambda: run_solve(_solve_args(objective="win", best=3)),
    lambda: run_solve(_solve_args(objective="win", seat=2)),
    lambda: run_solve(_solve_args(objective="win", players=3, seat=2, best=3, ties=2)),
    lambda: run_solve(_solve_args(objective="win", players=3, seat=2, best=3, table="t.csv")),
    lambda: solve_round(Rules(tiles=3), 9),
    lambda: solve_round(Rules(tiles=3), 3, "stake", pot=2),
    lambda: solve_round(Rules(tiles=3), 3, "shut"),
    lambda: solve_round(Rules(tiles=1, one_die="never"), 2),
    lambda: solve_round(Rules(tiles=3), 3).turn(3),
    lambda: solve_round(Rules(tiles=3), 3).turn(0, 4),
    lambda: solve_round(Rules(tiles=3), 3).turn(1),
    lambda: solve_round(Rules(tiles=3), 3).turn(1, 99),
    lambda: solve_round(Rules(tiles=3), 3).turn(1, 4, 2),
    lambda: _roll_of(argparse.Namespace(dice=None, roll=7, one_die_roll=True)),
    lambda: _roll_of(argparse.Namespace(dice=None, roll=13, one_die_roll=False)),
    lambda: _plot_path("scores.pdf"),
    lambda: _simulate_matches(argparse.Namespace(strategy="greedy", vs="random"), Rules(mode="solo")),
    lambda: Objective.parse("glory"),
    lambda: make_bot("nobody"),
    lambda: compile_strategy(Rules(), "nobody"),
    lambda: simulate(Rules(), "optimal-beat", 10),
    lambda: simulate(Rules(), "random", 0),
]


def _raised() -> list[ShutTheBoxError]:
    errors = []
    for trigger in TRIGGERS:
        with pytest.raises(ShutTheBoxError) as caught:
            trigger()
        errors.append(caught.value)
    return errors


def test_every_error_is_a_catalog_template_said_in_every_language() -> None:
    messages = {m.id for m in template() if m.id}
    for error in _raised():
        assert error.template in messages, error.template  # extracted for the translators
        assert say(error) == str(error)  # English: the template itself
        for lang in languages()[1:]:
            assert translations(lang).gettext(error.template) != error.template, (lang, error.template)
            with using(lang):
                said = say(error)
            assert said != str(error), (lang, error.template)


def test_every_error_class_raised_in_the_code_names_its_template_literally() -> None:
    """A template built at run time (an f-string) would escape the catalog: the extractor skips it."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in SRC.rglob("*.py"))
    ours = "ShutTheBox|Rules|Parse|IllegalAction|OutOfTurn|Record|Storage|Cli"
    built = re.findall(rf"(?:(?:{ours})Error\(|RefusedError\(\s*Refusal\.[A-Z_]+,)\s*f[\"']", source)
    assert not built, built


def test_an_error_the_catalog_does_not_know_is_said_in_english() -> None:
    error = RulesError("something odd about {thing}", thing="x")
    with using("es"):
        assert say(error) == "something odd about x"


# -- argparse's own usage errors ------------------------------------------------------

@pytest.mark.parametrize(
    ("argv", "spanish", "english"),
    [
        (["play", "--scoring", "golf"], "argumento --scoring: valor no válido: 'golf' (elige entre",
         "argument --scoring: invalid choice: 'golf' (choose from"),
        (["hint"], "faltan argumentos obligatorios: --open", "the following arguments are required: --open"),
        (["hint", "--open", "1", "--roll", "x"], "argumento --roll: 'x' no es un número entero",
         "argument --roll: 'x' is not a whole number"),
        (["play", "--tiles", "0"], "argumento --tiles: '0' debe ser 1 o más",
         "argument --tiles: '0' must be 1 or more"),
        (["play", "--bogus"], "argumentos no reconocidos: --bogus", "unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_speak_spanish(
    capsys: pytest.CaptureFixture[str], argv: list[str], spanish: str, english: str,
) -> None:
    status, err = cli(capsys, "--lang", "es", *argv)
    assert status == 2 and len(err.splitlines()) == 1, err
    assert spanish in err and err.endswith("(consulta --help)\n") and english not in err
    status, err = cli(capsys, "--lang", "en", *argv)
    assert status == 2 and len(err.splitlines()) == 1, err
    assert english in err and err.endswith("(see --help)\n")


def test_every_kind_of_error_is_a_catalog_keyword() -> None:
    """An error class the catalog tool does not know keeps its messages English: a refusal of a
    look-alike profile name once reached a Spanish reader in English."""
    import importlib
    import pkgutil

    import shutthebox
    from tools.catalogs import PYTHON_KEYWORDS

    for module in pkgutil.walk_packages(shutthebox.__path__, "shutthebox."):
        if ".migrations" not in module.name and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    kinds, seen = [ShutTheBoxError], set()
    while kinds:
        kind = kinds.pop()
        seen.add(kind.__name__)
        kinds.extend(kind.__subclasses__())
    assert "NameTakenError" in seen
    assert seen <= set(PYTHON_KEYWORDS), sorted(seen - set(PYTHON_KEYWORDS))
