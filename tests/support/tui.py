"""Helpers for the Textual pilot tests: scripted dice, an app to drive, and what it shows."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Static

from shutthebox import DiceChoice, Move, Roll, Rules, ScriptedDice
from shutthebox.core.match import Action, Match
from shutthebox.i18n import Lang
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.session import PlaySetup
from shutthebox.term.widgets import GameLog, Scoreboard

SIZE = (80, 24)


def dice(*rolls: str) -> ScriptedDice:
    """Scripted dice from ``"3,4"``-style rolls, in the order the game asks for them."""
    return ScriptedDice([Roll.parse(roll) for roll in rolls])


def make_app(
    rules: Rules,
    humans: tuple[str, ...],
    *rolls: str,
    bots: tuple[str, ...] = (),
    companion: bool = False,
    lang: Lang = "en",
    rounds: int = 1,
) -> ShutTheBoxApp:
    """An app with bots that act at once, advice computed at once, and dice that roll ``rolls``."""
    setup = PlaySetup(
        rules=rules, humans=humans, bots=bots, companion=companion, seed=1, rounds=rounds, lang=lang
    )
    return ShutTheBoxApp(setup, dice=dice(*rolls), bot_delay=0, threads=False, handover_delay=0)


def state(app: ShutTheBoxApp) -> Match:
    assert app.state is not None
    return app.state


def shown(app: ShutTheBoxApp, selector: str) -> str:
    """The text a Static widget shows now."""
    return str(app.query_one(selector, Static).render())


def log_text(app: ShutTheBoxApp) -> str:
    """Every line written to the game log."""
    return "\n".join(strip.text for strip in app.query_one(GameLog).lines)


def script_state(rules: Rules, players: tuple[str, ...], script: str, rounds: int = 1) -> Match:
    """The engine's state after a script (``r3,4`` roll, ``m7`` move, ``d1`` dice), for comparison."""
    state = Match.new(rules, players, rounds=rounds)
    for token in script.split():
        kind, rest = token[0], token[1:]
        action: Action = (
            Roll.parse(rest) if kind == "r" else Move.parse(rest) if kind == "m" else DiceChoice(int(rest))
        )
        state = state.apply(action)
    return state


def rendered(renderable: object) -> str:
    """A Rich renderable (a table) as the plain text of an 80-column terminal."""
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def scoreboard(app: ShutTheBoxApp) -> str:
    """The scoreboard as plain text."""
    return rendered(app.query_one(Scoreboard).render())
