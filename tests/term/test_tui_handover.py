"""A held or doubled Enter never crosses a turn's end: the next player takes over with a fresh press.

Textual has no key-up event, so a key held down arrives as a burst of presses a few hundredths of a
second apart; these tests drive the app with the pilot on a clock of their own, so that "a burst" and
"a pause" mean the same on a loaded machine as on an idle one.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from shutthebox import Mode, OneDie, Phase, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.session import PlaySetup
from tests.support.tmux import terminal
from tests.support.tui import SIZE, dice, settle, state

THREE_TILES = Rules(mode=Mode.ROUND, tiles=3, one_die=OneDie.NEVER)
"""Three tiles, two dice always: a roll of 7 or more makes nothing, and the turn ends on it."""
ROLL_OFF = ("5", "3", "2")
"""Ana 5, Luis 3, Eva 2: Ana plays first, then Luis, then Eva."""
REPEAT = 0.03
"""Seconds between two presses of a held key (about 33 a second, as terminals repeat)."""
PAUSE = 1.0
"""Seconds a person takes to look at the screen and press again."""


class Clock:
    """A monotonic clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table_of_three(*rolls: str) -> tuple[ShutTheBoxApp, Clock]:
    """Ana, Luis and Eva at three tiles, the handover as it is played (not the tests' zero delay)."""
    setup = PlaySetup(rules=THREE_TILES, humans=("Ana", "Luis", "Eva"), seed=5, lang="en")
    app = ShutTheBoxApp(setup, dice=dice(*ROLL_OFF, *rolls), bot_delay=0)
    clock = Clock()
    app.controller.clock = clock
    return app, clock


async def enter(pilot: Pilot[Any], clock: Clock, after: float, times: int = 1) -> None:
    """Press Enter ``times``, each ``after`` seconds after the press before."""
    for _ in range(times):
        clock.now += after
        await pilot.press("enter")
        await settle(pilot)


async def roll_off(pilot: Pilot[Any], clock: Clock) -> None:
    """Each of the three rolls a die for the start, with a pause before each press."""
    await enter(pilot, clock, PAUSE, times=3)
    assert state(pilot.app).actor == 0 and state(pilot.app).phase is Phase.ROLL  # type: ignore[arg-type]


async def test_a_burst_of_enters_plays_only_the_current_players_turn() -> None:
    app, clock = table_of_three("6,6", "6,5", "6,4")
    async with app.run_test(size=SIZE) as pilot:
        await roll_off(pilot, clock)
        await enter(pilot, clock, PAUSE)  # Ana presses Enter...
        await enter(pilot, clock, REPEAT, times=29)  # ...and holds it for about a second
        now = state(app)
        assert [result.player for result in now.history] == [0]  # Ana's turn ended on 6+6, no other
        assert now.actor == 1 and now.roll is None  # nothing rolled for Luis
        assert app.controller.handover is not None  # Ana's board still shown
        await enter(pilot, clock, PAUSE)  # Luis presses, fresh: he takes over
        assert app.controller.handover is None and state(app).roll is None
        await enter(pilot, clock, PAUSE)  # and his next press rolls
        assert [result.player for result in state(app).history] == [0, 1]


async def test_a_press_right_after_the_end_or_a_doubled_one_hands_nothing_over() -> None:
    app, clock = table_of_three("6,6", "6,5")
    async with app.run_test(size=SIZE) as pilot:
        await roll_off(pilot, clock)
        await enter(pilot, clock, PAUSE)  # Ana's 6+6 ends her turn
        await enter(pilot, clock, 0.5)  # a held key's first repeat: too soon after the end to have seen it
        assert app.controller.handover is not None
        await enter(pilot, clock, PAUSE)  # Luis takes over...
        assert app.controller.handover is None
        await enter(pilot, clock, REPEAT, times=5)  # ...and his doubled (held) press rolls nothing
        assert state(app).roll is None and state(app).actor == 1 and len(state(app).history) == 1


async def test_a_burst_after_a_pause_hands_over_once_and_rolls_after_the_next_pause() -> None:
    app, clock = table_of_three("6,6", "2,1")
    async with app.run_test(size=SIZE) as pilot:
        await roll_off(pilot, clock)
        await enter(pilot, clock, PAUSE)  # Ana's turn ends
        await enter(pilot, clock, PAUSE)  # Luis takes over
        await enter(pilot, clock, PAUSE)  # and rolls 2+1
        assert state(app).actor == 1 and state(app).phase is Phase.MOVE


async def test_a_held_enter_does_not_roll_for_the_person_after_a_bot() -> None:
    """The key held for Luis rolls nothing for Ana once the bot between them has played: the bot's
    last board is held until Ana's own fresh press, and only her next one rolls."""
    setup = PlaySetup(rules=THREE_TILES, humans=("Ana", "Luis"), bots=("easy",), seed=5, lang="en")
    # the start: Ana 2, Luis 5, the bot 3 (Luis, the bot, then Ana); Luis 6+6, the bot 6+5
    app = ShutTheBoxApp(setup, dice=dice("2", "5", "3", "6,6", "6,5", "1,2"), bot_delay=0)
    clock = Clock()
    app.controller.clock = clock
    async with app.run_test(size=SIZE) as pilot:
        await enter(pilot, clock, PAUSE, times=2)  # Ana's die, Luis's die; the bot rolls its own
        assert state(app).actor == 1 and state(app).phase is Phase.ROLL
        await enter(pilot, clock, PAUSE)  # Luis presses...
        await enter(pilot, clock, REPEAT, times=29)  # ...and holds: his turn, then the bot's, end
        now = state(app)
        assert [result.player for result in now.history] == [1, 2]
        assert now.actor == 0 and now.roll is None and app.controller.handover is not None
        await enter(pilot, clock, PAUSE)  # Ana's own press takes over from the bot's last board...
        assert app.controller.handover is None and state(app).roll is None
        await enter(pilot, clock, PAUSE)  # ...and her next rolls 1+2
        assert state(app).phase is Phase.MOVE


@pytest.mark.slow
def test_thirty_enters_sent_by_a_real_terminal_roll_one_die(tmp_path: Path) -> None:
    """The issue's own game, in tmux: 30 Enters in one write, as a held key, roll only Ana's die."""
    args = ["play", "Ana", "Luis", "Eva", "--tiles", "3", "--one-die", "never", "--seed", "5", "--lang", "en"]
    with terminal(args, tmp=tmp_path) as term:
        term.wait_for("Ana: roll one die to see who starts.")
        term.keys(*["Enter"] * 30)
        term.wait_for("Luis: roll one die to see who starts.")
        time.sleep(1.0)  # every press long read by now
        shown = term.wait_for("Luis: roll one die to see who starts.")
        assert "Ana rolls one die" in shown and "Luis rolls" not in shown
