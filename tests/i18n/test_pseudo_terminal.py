"""A third language is a new `.po` file and nothing else, and no word of the command line or of the
terminal games escapes the catalog.

A pseudo-language (`tools.catalogs.write_pseudo`: every message "translated" to ⟦look-alikes⟧) is
written as one `.po` file into a folder of its own, named by ``$SHUTTHEBOX_LOCALES``. Everything a
person reads must then be inside ⟦ ⟧ runs, but data: player names (Greek here, so they need no
allow-list), numbers, boards, moves, rolls, paths, and the code a person types (flags, metavars,
choice values, command names), which is stripped precisely where it stands.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.text import Text
from textual.binding import Binding
from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from shutthebox import DiceChoice, Game, GameRecord, Mode, Phase, Roll, Rules
from shutthebox.cli.main import COMMANDS, build_parser
from shutthebox.core.chance import DiceSource, SeededDice
from shutthebox.core.game import Wait
from shutthebox.core.match import Match
from shutthebox.core.record import FORMAT
from shutthebox.core.rules import OneDie, Scoring
from shutthebox.i18n import LOCALES_VAR, language_name, languages, using
from shutthebox.strategy.names import BOT_NAMES, STRATEGIES, STRENGTHS
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.keys import BINDINGS, TILE_OF_KEY
from shutthebox.term.saving import save_finished
from shutthebox.term.screens import ConfirmScreen, HelpScreen, ReviewScreen, SetupScreen
from shutthebox.term.session import PlaySetup
from shutthebox.term.widgets import GameLog, KeyBar, KeyList
from tests.support.tui import SIZE, click, press, rendered, state
from tools.catalogs import PSEUDO, pseudo, unmarked_words, write_pseudo

ALLOWED = {
    "shutthebox",  # the program's name: the command a person types, in usage lines and before refusals
    "S", "A", "B", "C", "F",  # the grades ("grade C"): letters, the same in every language
}
"""ASCII words the command line and the terminal games may show outside the catalog or inside a
message (a value it names). Everything else a person reads is a message, or data stripped as such."""

HOST, GUEST = "Άννα", "Λουκάς"
PO = Path(PSEUDO) / "LC_MESSAGES" / "shutthebox.po"

# -- what is code, not words: stripped where it stands ----------------------------------------------
FLAG = re.compile(r"(?<![\w-])--?[a-z][a-z-]*")
"""An option flag (``--tiles``, ``-h``, ``--no-shut-wins``): what a person types, in every language."""
CHOICES = re.compile(r"\{[^{}\s]+\}")
"""argparse's list of the values a flag takes (``{solo,round,elimination,long}``)."""


def metavars() -> set[str]:
    """Every metavar of the command line (``PLAYER``, ``FILE``, ``MAX_TILES``, ``COMMAND``): the
    placeholders of the usage lines, read off the parser itself."""
    found: set[object] = set()
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if action.option_strings and action.nargs != 0:
                found.add(action.metavar or action.dest.upper())
            elif not action.option_strings:
                found.add(action.metavar or action.dest)
            choices = action.choices if isinstance(action.choices, dict) else {}
            parsers += [child for child in choices.values() if hasattr(child, "_actions")]
    return {str(name) for name in found if isinstance(name, str)}


def strip_code(text: str) -> str:
    """``text`` without the flags and choice lists of the command line."""
    return FLAG.sub(" ", CHOICES.sub(" ", text))


COMMAND_NAMES = tuple(command.name for command in COMMANDS)
METAVARS = tuple(metavars())
NAMES = (*BOT_NAMES, *STRATEGIES)
"""The bots and the strategies, by the names ``--bot``, ``--vs`` and ``--strategy`` take."""


def assert_all_marked(what: str, texts: Iterable[str], data: Iterable[str] = ()) -> None:
    """Every ASCII word of ``texts`` is allowed or data: none outside the messages (a string the
    catalog never saw), and none inside one either (an English word filled into a message, such as
    a name from a table said without ``_()``: the look-alikes of a message hold no ASCII letter)."""
    texts, data = list(texts), list(data)
    assert any("⟦" in text for text in texts), f"{what}: nothing in the pseudo-language: {texts}"
    outside = unmarked_words(texts, ALLOWED, data)
    assert not outside, f"{what}: words outside the catalog: {sorted(outside)}\n" + "\n".join(texts)
    unwrapped = [text.replace("⟦", " ").replace("⟧", " ") for text in texts]
    inside = unmarked_words(unwrapped, ALLOWED, data)
    assert not inside, f"{what}: English inside a message: {sorted(inside)}\n" + "\n".join(texts)


# -- the pseudo-language: one .po file in a folder of its own ---------------------------------------
@pytest.fixture(scope="module")
def locales(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A catalog folder holding the pseudo-language: its `.po` file, nothing else."""
    return write_pseudo(tmp_path_factory.mktemp("pseudo") / "locale")


@pytest.fixture
def speak_pseudo(locales: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """In-process code finds the pseudo-language among its languages."""
    monkeypatch.setenv(LOCALES_VAR, str(locales))
    return locales


@dataclass
class Ran:
    """A finished run of the command: its exit status and what it wrote."""

    status: int
    out: str
    err: str


def environment(locales: Path, db: Path, columns: int) -> dict[str, str]:
    """A neutral locale (``--lang`` decides), the pseudo-language's folder, a history of the test's own."""
    unset = ("LC_ALL", "LC_MESSAGES", "LANGUAGE")
    env = {name: value for name, value in os.environ.items() if name not in unset}
    return {**env, LOCALES_VAR: str(locales), "SHUTTHEBOX_DB": f"sqlite:///{db}", "LANG": "C",
            "COLUMNS": str(columns)}


def shutthebox(
    locales: Path, db: Path, *argv: str, stdin: str = "", cwd: Path | None = None, columns: int = 100
) -> Ran:
    """``shutthebox --lang en@pseudo ARGV`` in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "shutthebox", "--lang", PSEUDO, *argv],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
        env=environment(locales, db, columns), cwd=cwd,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


# -- 1. the command line's help ----------------------------------------------------------------------
@pytest.mark.slow
def test_a_new_po_file_is_a_new_language_of_the_command_line(locales: Path, tmp_path: Path) -> None:
    ran = shutthebox(locales, tmp_path / "db.sqlite", "--help")
    assert ran.status == 0 and ran.err == ""
    offered = re.search(r"--lang \{([^{}]+)\}", ran.out)
    assert offered is not None and PSEUDO in offered.group(1).split(","), ran.out
    assert ran.out.startswith(pseudo("usage: "))
    # the program read the .po file as it is: it wrote nothing beside it (no compiled .mo)
    assert [path.relative_to(locales) for path in locales.rglob("*") if path.is_file()] == [PO]


@pytest.mark.parametrize("command", [None, *COMMAND_NAMES], ids=["shutthebox", *COMMAND_NAMES])
def test_every_help_is_in_the_pseudo_language(locales: Path, tmp_path: Path, command: str | None) -> None:
    argv = ["--help"] if command is None else [command, "--help"]
    # a terminal wide enough that no name is cut at its hyphen ("optimal-|score")
    ran = shutthebox(locales, tmp_path / "db.sqlite", *argv, columns=1000)
    assert ran.status == 0 and ran.err == ""
    # each command's name, each metavar and the names of the bots are code: what a person types
    assert_all_marked(f"{argv}", [strip_code(ran.out)], (*COMMAND_NAMES, *METAVARS, *NAMES))


def test_shutthebox_alone_prints_the_help_in_the_pseudo_language(locales: Path, tmp_path: Path) -> None:
    ran = shutthebox(locales, tmp_path / "db.sqlite")
    assert ran.status == 2
    assert_all_marked("shutthebox", [strip_code(ran.out)], (*COMMAND_NAMES, *METAVARS))


# -- 2. refusals -------------------------------------------------------------------------------------
JUNK = "{oops"


def json_detail(text: str) -> str:
    """What Python's JSON parser says of ``text``: a value the message quotes (a translation may drop it)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.msg
    raise AssertionError("valid JSON")


def quoted(*values: str) -> tuple[str, ...]:
    """Values as a refusal quotes them (``'golf'``): what was typed, or what may be."""
    return tuple(repr(value) for value in values)


REFUSALS = [
    # argparse's usage errors: the value given and the values allowed are data
    pytest.param(["play", "--scoring", "golf"], quoted("golf", *(s.value for s in Scoring)), id="bad-choice"),
    pytest.param(["bogus"], ("COMMAND", *quoted("bogus", *COMMAND_NAMES)), id="bad-command"),
    pytest.param(["hint"], (), id="missing-flag"),
    pytest.param(["play", "--bogus"], (), id="unrecognized-flag"),
    pytest.param(["play", "--tiles", "0"], (), id="tiles-0"),
    pytest.param(["hint", "--open", "1", "--roll", "x"], quoted("x"), id="roll-x"),
    pytest.param(["simulate", "--games", "lots"], quoted("lots"), id="games-lots"),
    pytest.param(["serve", "--port", "70000"], (), id="port"),
    pytest.param(["serve", "--bot-delay", "x"], quoted("x"), id="seconds"),
    pytest.param(["hint", "--open"], (), id="expected-one-argument"),
    pytest.param(["hint", "--open", "1", "--dice", "3", "--roll", "4"], (), id="not-allowed-with"),
    pytest.param(["play", "--s", "3"], (), id="ambiguous-option"),
    pytest.param(["play", "--no-shut-wins=3"], (), id="ignored-explicit-argument"),
    # the program's own refusals
    pytest.param(["solve", "--tiles", "13"], (), id="rules"),
    pytest.param(["hint", "--open", "1,15"], (), id="board"),
    pytest.param(["hint", "--open", "1,2", "--dice", "7"], (), id="dice"),
    pytest.param(["hint", "--open", "1,2", "--roll", "13"], (), id="roll-total"),
    pytest.param(["replay", "missing.json"], quoted("missing.json"), id="record-missing"),
    # what Python's JSON parser says is quoted as it says it (a translation may leave it out)
    pytest.param(["replay", "junk.json"], (json_detail(JUNK),), id="record-json"),
    pytest.param(["review", "rules.json"], (), id="record-rules"),
    pytest.param(["solve", "--objective", "beat"], ("beat",), id="objective-needs-target"),
    pytest.param(["solve", "--objective", "long", "--exact"], (), id="exact-long"),
    pytest.param(["simulate", "--vs", "greedy", "--mode", "solo", "--games", "10"], (), id="vs-solo"),
    pytest.param(["simulate", "--plot", "scores.pdf", "--games", "10"], quoted("scores.pdf"), id="plot"),
    # the bots --vs takes, by their names
    pytest.param(["simulate", "--vs", "nobody", "--games", "10"], (*quoted("nobody"), *STRENGTHS, *BOT_NAMES),
                 id="bot"),
    pytest.param(["play", "--plain", "--mode", "long", HOST, GUEST, "Ζωή"], (), id="long-for-three"),
    pytest.param(["play", "--plain", HOST, HOST], (), id="same-name"),
    pytest.param(["serve", "--db", "bogus://x"], (*quoted("bogus://x"), "bogus"), id="database-url"),
    pytest.param(["stats", "Nobody", "--db", "sqlite:///games.db"], quoted("games.db"), id="stats-no-db"),
]


@pytest.mark.parametrize(("argv", "data"), REFUSALS)
def test_every_refusal_is_one_line_in_the_pseudo_language(
    locales: Path, tmp_path: Path, argv: list[str], data: tuple[str, ...]
) -> None:
    (tmp_path / "junk.json").write_text(JUNK, encoding="utf-8")
    rules = {"format": FORMAT, "version": 1, "rules": {"tiles": 13}, "players": ["Ω"], "events": []}
    (tmp_path / "rules.json").write_text(json.dumps(rules), encoding="utf-8")
    ran = shutthebox(locales, tmp_path / "db.sqlite", *argv, cwd=tmp_path)
    assert ran.status == 2 and ran.out == ""
    assert len(ran.err.splitlines()) == 1, ran.err
    assert ran.err.startswith("⟦"), ran.err  # "shutthebox: error:" is a message too
    # argparse names the command refusing: "shutthebox play: error: ..."
    assert_all_marked(f"{argv}", [strip_code(ran.err)], (*COMMAND_NAMES, *data))


# -- 3 and 4. the plain game, and the outputs of the commands -------------------------------------------
def answers(setup: PlaySetup) -> tuple[str, Match]:
    """What a person types in the plain game of ``setup`` (the same seed: the same dice and bots):
    Enter to roll, 2 for two dice, the last legal move; first, once each, an answer that is refused,
    ``?`` and ``h`` (they change nothing)."""
    game = setup.new_game()
    typed: list[str] = []
    asked: set[Phase] = set()
    while not game.state.is_over:
        now = game.state
        if game.step_bots():
            continue
        if now.phase not in asked:
            asked.add(now.phase)
            typed += {Phase.ROLL: ["9,9"], Phase.CHOOSE: ["3", "h"], Phase.MOVE: ["?", "h", "99"]}.get(
                now.phase, ["x"]
            )
        if now.is_chance:
            game.roll()
            typed.append("")
        elif now.phase is Phase.CHOOSE:
            game.act(DiceChoice(2))
            typed.append("2")
        else:
            move = now.legal_moves[-1]
            game.act(move)
            typed.append(str(move))
    return "".join(f"{line}\n" for line in typed), game.state


@dataclass
class Played:
    """The plain games, played once for the module, their history and their records."""

    db: Path
    solo: Ran
    solo_record: Path
    round: Ran
    round_record: Path
    long: Ran
    companion: Ran


# A companion solo game (typed dice): 6+6 shut 9+3, 5+4 shut 8+1, 6+6 shut 7+5, two dice 1+1 shut 2,
# one die 4 shut 4, one die 5 cannot be used: 6 is left. "x" and "7" are refused on the way.
COMPANION = ["6 6", "9+3", "5,4", "8 1", "6+6", "7,5", "2", "x", "1 1", "2", "7", "1", "4", "4", "1", "5"]


@pytest.fixture(scope="module")
def played(locales: Path, tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("played")
    db = folder / "history.sqlite"
    solo_record, round_record = folder / "solo.json", folder / "round.json"
    text, final = answers(PlaySetup(rules=Rules(mode=Mode.SOLO), humans=(HOST,), seed=4))
    assert "\n2\n" in text and final.is_over  # this seed asks for the dice once the 7, 8, 9 are shut
    solo = shutthebox(locales, db, "play", HOST, "--plain", "--seed", "4", "--save", str(solo_record),
                      stdin=text)
    rules = Rules(stake=2)
    text, final = answers(PlaySetup(rules=rules, humans=(HOST,), bots=("expert",), seed=3, rounds=2))
    assert "\n2\n" in text and len(final.round_winners) == 2
    round_ = shutthebox(
        locales, db, "play", HOST, "--plain", "--bot", "expert", "--stake", "2", "--rounds", "2",
        "--seed", "3", "--save", str(round_record), stdin=text,
    )
    rules = Rules(mode=Mode.LONG, tiles=4)
    text, final = answers(PlaySetup(rules=rules, humans=(HOST,), bots=("hard",), seed=4))
    assert final.winner == 0  # the bot shuts first; Άννα opens the tiles it shut, all of them
    long = shutthebox(locales, db, "play", HOST, "--plain", "--bot", "hard", "--mode", "long", "--tiles", "4",
                      "--seed", "4", stdin=text)
    companion = shutthebox(locales, db, "play", HOST, "--plain", "--companion",
                           stdin="".join(f"{line}\n" for line in COMPANION))
    return Played(db, solo, solo_record, round_, round_record, long, companion)


@pytest.mark.parametrize("game", ["solo", "round", "long", "companion"])
def test_the_plain_game_speaks_the_pseudo_language(played: Played, game: str) -> None:
    ran: Ran = getattr(played, game)
    assert ran.status == 0 and ran.err == "", ran.err
    lines = ran.out.splitlines()
    assert lines[0] == pseudo("Shut the Box")
    assert pseudo("Game abandoned.") not in ran.out
    for expected in {
        "solo": ["Final score ", "One die or two?", "Legal moves: ", "Hint: ", "is not a move", "Saved to"],
        "round": ["rolls one die to see who starts", "wins round", "Ledger: ", "Bot (",
                  "typed dice are for companion mode"],
        "long": ["'s turn, opening shut tiles", "Tiles to open for", "opens every tile and wins!"],
        "companion": ["Companion mode", "Hint: ", "Type what", "counts for no best", "showing 1 to 6"],
    }[game]:
        assert pseudo(expected).strip("⟦⟧") in ran.out, expected
    # "1 2 3 · · ·" boards, "5+4" moves, "3+6 = 9" rolls and numbers have no letters: the paths and
    # the answers quoted back are data
    assert_all_marked(game, lines, (str(played.solo_record), str(played.round_record), *quoted("x")))


@pytest.mark.slow
def test_replay_and_review_of_a_record_of_the_plain_game(locales: Path, played: Played) -> None:
    for record in (played.solo_record, played.round_record):
        for command in ("replay", "review"):
            ran = shutthebox(locales, played.db, command, str(record))
            assert ran.status == 0 and ran.err == "", ran.err
            assert len(ran.out.splitlines()) > 2
            assert_all_marked(f"{command} {record.name}", ran.out.splitlines(), (str(record),))


def test_scores_after_the_games(locales: Path, played: Played) -> None:
    ran = shutthebox(locales, played.db, "scores")
    assert ran.status == 0 and ran.err == "", ran.err
    assert HOST in ran.out and "#4 " in ran.out  # the four games, the companion one among them
    assert_all_marked("scores", ran.out.splitlines())


@pytest.mark.slow
def test_stats_after_the_games(locales: Path, played: Played) -> None:
    ran = shutthebox(locales, played.db, "stats", HOST)
    assert ran.status == 0 and ran.err == "", ran.err
    assert HOST in ran.out and len(ran.out.splitlines()) > 10
    assert_all_marked("stats", ran.out.splitlines(), (HOST,))


OUTPUTS = [
    pytest.param(["solve"], (), id="solve"),
    pytest.param(["solve", "--objective", "shut", "--exact"], (), id="solve-shut-exact"),
    pytest.param(["solve", "--objective", "beat", "--target", "5", "--tiles", "6"], (), id="solve-beat"),
    pytest.param(["solve", "--objective", "long", "--tiles", "4"], (), id="solve-long"),
    # the objective is named by its value, as --objective takes it
    pytest.param(["hint", "--open", "1,4,5,8", "--dice", "3,6"], ("score",), id="hint-move"),
    pytest.param(["hint", "--open", "1,2,3"], ("score",), id="hint-dice"),
    pytest.param(["hint", "--open", "1", "--dice", "6,6"], ("score",), id="hint-no-move"),
    pytest.param(["hint", "--open", "-", "--tiles", "4", "--mode", "long", "--opening", "--roll", "5"],
                 ("long",), id="hint-opening"),
    # a strategy and the bots are named by their names, as --strategy and --vs take them
    pytest.param(["simulate", "--games", "2000", "--no-progress"], ("optimal",), id="simulate"),
    pytest.param(["simulate", "--games", "2000", "--no-progress", "--strategy", "optimal-beat",
                  "--target", "8"], ("optimal-beat",), id="simulate-target"),
    pytest.param(["simulate", "--strategy", "greedy", "--vs", "random", "--mode", "round", "--games", "20"],
                 ("greedy", "random"), id="simulate-vs"),
    pytest.param(["simulate", "--strategy", "greedy", "--vs", "greedy", "--mode", "long", "--games", "20",
                  "--tiles", "4"], ("greedy",), id="simulate-vs-itself"),
    pytest.param(["scores"], (), id="scores-empty"),
]


@pytest.mark.parametrize(("argv", "data"), OUTPUTS)
def test_every_output_is_in_the_pseudo_language(
    locales: Path, tmp_path: Path, argv: list[str], data: tuple[str, ...]
) -> None:
    ran = shutthebox(locales, tmp_path / "db.sqlite", *argv)
    assert ran.status == 0 and ran.err == "", ran.err
    assert_all_marked(f"{argv}", ran.out.splitlines(), (*data, str(tmp_path / "db.sqlite")))


TQDM_FIGURES = re.compile(r"(?<=\d)[kMGT]|/s\]")
"""The progress bar's SI prefixes (``2.50M``) and its rate per second (``…/s]``): units, not words."""


def test_the_progress_bar_of_a_long_simulation(locales: Path, tmp_path: Path) -> None:
    ran = shutthebox(locales, tmp_path / "db.sqlite", "simulate", "--games", "5e6")
    assert ran.status == 0
    assert_all_marked("simulate --games 5e6", ran.out.splitlines(), ("optimal",))
    bars = [bar for bar in ran.err.split("\r") if bar.strip()]
    assert bars and all("%|" in bar for bar in bars), ran.err
    assert_all_marked("the progress bar", [TQDM_FIGURES.sub(" ", bar) for bar in bars])


# -- 5. the Textual app ------------------------------------------------------------------------------
KEY_OF = {tile: key for key, tile in TILE_OF_KEY.items()}
"""Tile -> the Textual key that picks it."""
LETTER_KEYS = {binding.key for binding in BINDINGS if isinstance(binding, Binding) and binding.key.isalpha()}
"""The letters bound to the game screen's actions (``h``, ``v``, ``n``, ``s``, ``q``)."""
KEY_CAP = re.compile(r"[0-9⏎⌫=\- ]+|\?( F1)?|← → ␣")
"""The other key caps of the key bar and the help: digits and ranges of them (``1-9 0 - =``), ⏎, ⌫,
and the help's own keys (``?`` in the bar, ``? F1`` in the help), the arrows and Space (``← → ␣``)."""
AppPilot = Pilot[GameRecord | None]


def key_bar_words(bar: KeyBar | KeyList) -> str:
    """What the key bar shows, its key caps (the keys to press, the same in every language) blanked."""
    text = bar.render()
    shown = list(text.plain)
    for span in text.spans:
        if span.style == "reverse bold":
            cap = text.plain[span.start : span.end].strip()
            assert KEY_CAP.fullmatch(cap) or cap in LETTER_KEYS, cap
            shown[span.start : span.end] = " " * (span.end - span.start)
    return "".join(shown)


def words_of(widget: Widget) -> str:
    """What a widget draws, as text: its string, or a Rich renderable (a table) printed."""
    shown = widget.render()
    if isinstance(shown, str | Text | Content):
        return str(shown)
    if isinstance(widget, Static) and type(widget).render is Static.render:
        return rendered(widget.content)  # a Rich table handed to a Static (the review)
    return rendered(shown)  # a table drawn by the widget (the scoreboard)


def screen_texts(app: ShutTheBoxApp) -> list[str]:
    """Every text the screen on top shows: titles, labels, values, choices, buttons, tables, log, keys."""
    texts = [app.title]
    for widget in app.screen.query("*"):
        texts += [str(title) for title in (widget.border_title, widget.border_subtitle) if title]
        if isinstance(widget, KeyBar | KeyList):
            texts.append(key_bar_words(widget))
        elif isinstance(widget, GameLog):
            texts.append("\n".join(strip.text for strip in widget.lines))
        elif isinstance(widget, Input):
            texts += [widget.value, widget.placeholder]
        elif isinstance(widget, Select):  # every choice, not only the one shown (a Static inside)
            texts += [str(prompt) for prompt, _value in widget._options]
            if widget.is_blank():
                texts.append(widget.prompt)
        elif isinstance(widget, Button):
            texts.append(str(widget.label))
        elif isinstance(widget, Static) or (
            type(widget).__module__.startswith("shutthebox.") and type(widget).render is not Widget.render
        ):
            texts.append(words_of(widget))  # labels, titles, status, message, hint, scoreboard, tiles, dice
    return texts


def message(app: ShutTheBoxApp) -> str:
    """The message line: why the last key was refused."""
    return str(app.query_one("#message", Static).render())


def said(template: str, **values: object) -> str:
    """A message of the catalog as the pseudo-language says it, its values filled in."""
    return pseudo(template).format(**values)


def other_language_names() -> tuple[str, ...]:
    """The other languages of the language choice, each named in itself (as a language switch does)."""
    return tuple(language_name(lang) for lang in languages() if lang != PSEUDO)


def assert_screens_marked(what: str, texts: list[str], data: Iterable[str] = ()) -> None:
    assert_all_marked(what, texts, (*other_language_names(), *data))


class FirstThenSeeded:
    """Dice that roll ``first``, then as seeded dice do."""

    def __init__(self, first: Iterable[str], seed: int) -> None:
        self.first = [Roll.parse(roll) for roll in first]
        self.rest = SeededDice(seed)

    def roll(self, count: int) -> Roll:
        return self.first.pop(0) if self.first else self.rest.roll(count)


def make_app(setup: PlaySetup | None, dice: DiceSource | None = None) -> ShutTheBoxApp:
    """An app in the pseudo-language whose bots take their steps without a pause; it keeps finished games."""
    def keep(game: Game, played: PlaySetup) -> list[str]:
        return save_finished(game, played.humans)

    return ShutTheBoxApp(setup, lang=PSEUDO, dice=dice, bot_delay=0,
        handover_delay=0, repeat_gap=0, save=keep)


async def play_to_the_end(
    app: ShutTheBoxApp, pilot: AppPilot, faces: random.Random | None = None
) -> list[str]:
    """Play the people's part by keys, a hint asked at each decision (typing ``faces`` in companion
    mode); every screen on the way, as text."""
    seen = screen_texts(app)
    for _step in range(400):
        now = state(app)
        if now.is_over:
            break
        if now.is_chance:
            keys = [str(faces.randint(1, 6)) for _ in range(now.dice_due)] if faces else ["enter"]
        elif now.phase is Phase.CHOOSE:
            keys = ["h", "2"]
        else:
            keys = ["h", *(KEY_OF[tile] for tile in now.legal_moves[-1].tiles), "enter"]
        for key in keys:
            await press(pilot, key)
            seen += screen_texts(app)
    assert state(app).is_over
    return seen


async def after_the_game(app: ShutTheBoxApp, pilot: AppPilot) -> list[str]:
    """The finished game: a refused key, the review, and the setup screen opened on the game played."""
    await press(pilot, "enter")
    assert message(app) == said("The game is over: n for a new game, v for the review, q to quit.")
    seen = screen_texts(app)
    await press(pilot, "v")
    assert isinstance(app.screen, ReviewScreen)
    seen += screen_texts(app)
    await press(pilot, "escape", "s")
    assert isinstance(app.screen, SetupScreen)
    seen += screen_texts(app)
    await press(pilot, "escape")
    return seen


@pytest.mark.slow
async def test_the_setup_screen_in_the_pseudo_language(speak_pseudo: Path) -> None:
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        assert isinstance(form, SetupScreen)
        seen = screen_texts(app)
        language = form.query_one("#lang", Select)
        assert PSEUDO in [value for _prompt, value in language._options]  # a new .po file, a new choice
        assert str(language.query_one("#label", Static).render()) == pseudo("English")  # named in itself
        one_die = {str(prompt) for prompt, _value in form.query_one("#one_die", Select)._options}
        assert len(one_die) == len(OneDie) and all(prompt.startswith("⟦") for prompt in one_die)
        refusals = [
            ({"#players": f"{HOST}, {HOST}"}, said("every player needs a different name")),
            ({"#players": f"{HOST}, {GUEST}, Ζωή", "#mode": "long"},
             said("the long game is for two (people or bots)")),
            ({"#players": HOST, "#mode": "auto", "#rounds": "0"},
             said("{field}: at least {least}", field=said("Rounds"), least=1)),
        ]
        for fields, refusal in refusals:
            for selector, value in fields.items():
                field = form.query_one(selector)
                assert isinstance(field, Input | Select)
                field.value = value
            await press(pilot, "ctrl+s")
            assert isinstance(app.screen, SetupScreen)
            shown = str(form.query_one("#setup-error", Static).render())
            assert shown == said("Not allowed: {reason}", reason=refusal)
            seen += screen_texts(app)
        form.query_one("#rounds", Input).value = "1"
        form.query_one("#bots", Input).value = pseudo("expert")  # a strength typed in the language shown
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, SetupScreen)
        assert app.setup is not None and app.setup.bots == ("expert",)
        seen += screen_texts(app)
    assert_screens_marked("setup", seen)


@pytest.mark.slow
async def test_a_solo_game_on_the_screen_in_the_pseudo_language(speak_pseudo: Path) -> None:
    setup = PlaySetup(rules=Rules(mode=Mode.SOLO, max_tiles=3), humans=(HOST,), seed=4, lang=PSEUDO)
    app = make_app(setup, FirstThenSeeded(["6,6", "4,4"], seed=4))
    async with app.run_test(size=SIZE) as pilot:
        seen = screen_texts(app)
        await click(pilot, "#tile-5")
        assert message(app) == said("Roll first, then pick tiles.")
        seen += screen_texts(app)
        refusals: list[tuple[tuple[str, ...], str]] = [
            (("5",), said("Typed dice are for companion mode (--companion) only: press Enter to roll.")),
            (("v",), said("The review comes once the game is over.")),
            (("h",), said("No hint available here.")),
            (("enter", "enter"), said("Pick tiles that make {total}.", total=12)),  # 6+6, then 4+4
            (("escape", "0"), said("There is no tile {tile} on this board.", tile=10)),
            (("escape", "1", "2", "3", "6", "enter"), said("At most {n} tiles a roll.", n=3)),
            (("escape", "1", "enter"), said("{tiles} make {sum}, not {total}.", tiles=1, sum=1, total=12)),
            (("escape", "9", "3", "enter", "enter", "9"), said("Tile {tile} is already shut.", tile=9)),
        ]
        for keys, refusal in refusals:
            await press(pilot, *keys)
            assert message(app) == refusal, keys
            seen += screen_texts(app)
        for key in ("n", "s", "q"):  # a game in play: each asks first
            await press(pilot, key)
            assert isinstance(app.screen, ConfirmScreen), key
            seen += screen_texts(app)
            await press(pilot, "n")
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        seen += screen_texts(app)
        await press(pilot, "escape")
        await press(pilot, "escape")
        seen += await play_to_the_end(app, pilot)
        seen += await after_the_game(app, pilot)
    assert_screens_marked("solo", seen)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "bots", "rounds"),
    [
        pytest.param(Rules(stake=2, one_die=OneDie.SUM_LE_6, scoring=Scoring.SUM_PLUS_ROLL), ("expert",), 2,
                     id="round-stakes"),
        pytest.param(Rules(mode=Mode.ELIMINATION, limit=15, shut_wins=False), ("easy", "greedy"), 1,
                     id="elimination"),
        pytest.param(Rules(mode=Mode.LONG, tiles=4), ("hard",), 1, id="long"),
    ],
)
async def test_games_against_bots_on_the_screen(
    speak_pseudo: Path, rules: Rules, bots: tuple[str, ...], rounds: int
) -> None:
    setup = PlaySetup(rules=rules, humans=(HOST,), bots=bots, seed=5, rounds=rounds, lang=PSEUDO)
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        seen = await play_to_the_end(app, pilot)
        seen += await after_the_game(app, pilot)
    # a bot named by its name (not a strength) is named so in every language, as the player typed it
    assert_screens_marked(rules.mode.value, seen, set(bots) & set(BOT_NAMES))


async def test_a_bot_thinking_on_the_screen(speak_pseudo: Path) -> None:
    app = make_app(PlaySetup(rules=Rules(), humans=(HOST,), bots=("medium",), seed=2, lang=PSEUDO))
    app.bot_delay = 60  # the bot waits: it is its turn while Άννα presses keys
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # Άννα's die to see who starts; the bot's is due
        assert app.game is not None and app.game.due().wait is Wait.CHANCE
        seen = screen_texts(app)
        await press(pilot, "enter")
        bot = said("Bot ({bot})", bot=pseudo("medium"))
        assert message(app) == said("Wait: it is {player}'s turn.", player=bot)
        seen += screen_texts(app)
    assert_screens_marked("a bot thinking", seen)


@pytest.mark.slow
async def test_a_companion_game_on_the_screen(speak_pseudo: Path) -> None:
    app = make_app(PlaySetup(rules=Rules(), humans=(HOST, GUEST), companion=True, seed=2, lang=PSEUDO))
    async with app.run_test(size=SIZE) as pilot:
        seen = screen_texts(app)
        await press(pilot, "enter")  # the faces are typed, not rolled
        assert message(app) == said("Type the faces of the dice you rolled (1 to 6).")
        seen += screen_texts(app)
        await press(pilot, "9")
        assert message(app) == said("A die shows 1 to 6, not {face}.", face=9)
        seen += await play_to_the_end(app, pilot, random.Random(7))
        seen += await after_the_game(app, pilot)
    assert_screens_marked("companion", seen)


def test_bots_are_named_in_the_pseudo_language_in_process(speak_pseudo: Path) -> None:
    """`using` speaks the pseudo-language in-process too: a game set up in it names its bots in it."""
    with using(PSEUDO):
        setup = PlaySetup(rules=Rules(), humans=(HOST,), bots=("expert", "greedy"), lang=PSEUDO)
    assert setup.names[1] == said("Bot ({bot})", bot=pseudo("expert"))
    assert_all_marked("bot names", setup.names[1:], ("greedy",))
