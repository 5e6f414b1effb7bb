"""Helpers for the Textual pilot tests: scripted dice, an app to drive, keys pressed once the app is
idle (its workers done, their messages handled), and what it shows."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from shutthebox import DiceChoice, Move, Roll, Rules, ScriptedDice
from shutthebox.core.match import Action, Match
from shutthebox.core.record import GameRecord
from shutthebox.i18n import Lang
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.session import PlaySetup
from shutthebox.term.widgets import GameLog, Scoreboard

SIZE = (80, 24)

ROLLS = ("5", "3", "6,6", "3,4", "6,6")
"""A round of Ana against a bot, one tile a roll (``max_tiles=1``): Ana 5 and the bot 3 for the
start; Ana's 6+6 ends her turn (45); the bot's 3+4 can only shut 7, then 6+6 ends its turn (38)."""


class Broken:
    """A bot whose thinking fails."""

    name, fallback, patience = "broken", None, None

    def think(self, state: Match) -> DiceChoice | Move:
        raise RuntimeError("the bot broke")


class Wrong:
    """A bot that chooses what the game refuses: tile 9, whatever the roll."""

    name, fallback, patience = "wrong", None, None

    def think(self, state: Match) -> DiceChoice | Move:
        return Move.parse("9")


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
    """An app whose bots take their steps without a pause to watch them, keys that hand over at once
    (every press taken for a fresh one), and dice that roll ``rolls``."""
    setup = PlaySetup(
        rules=rules, humans=humans, bots=bots, companion=companion, seed=1, rounds=rounds, lang=lang
    )
    return ShutTheBoxApp(setup, dice=dice(*rolls), bot_delay=0, handover_delay=0, repeat_gap=0)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the app is idle: every worker done (a bot's thinking, its fallback, advice, a review,
    a save) and every message it posted handled (which may start the next bot's worker)."""
    app = pilot.app
    await pilot.pause()
    while any(not worker.is_finished for worker in app.workers):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Press ``keys`` one after another, each once the app has settled from the one before, as a
    person who watches the screen would."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def click(pilot: Pilot[Any], selector: str) -> None:
    """Click the widget ``selector``, then let the app settle."""
    await pilot.click(selector)
    await settle(pilot)


def state(app: ShutTheBoxApp) -> Match:
    assert app.state is not None
    return app.state


def shown(app: ShutTheBoxApp, selector: str) -> str:
    """The text a Static widget shows now."""
    return str(app.query_one(selector, Static).render())


def log_text(app: ShutTheBoxApp) -> str:
    """Every line said in the game log, one a line (as said: the log wraps them to its width)."""
    return "\n".join(app.query_one(GameLog).said)


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


def record(app: ShutTheBoxApp) -> GameRecord:
    """The record of the game in play."""
    assert app.game is not None
    return app.game.record()
