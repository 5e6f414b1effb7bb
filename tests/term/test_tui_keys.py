"""Keys that must not lose a game: help, a confirmed quit, and a fresh Enter for the next player."""

from __future__ import annotations

from textual.widgets import Static
from tui_support import SIZE, make_app, press, shown, state

from shutthebox import Mode, Phase, Rules
from shutthebox.core.record import GameRecord
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import ConfirmScreen, HelpScreen, SetupScreen
from shutthebox.term.widgets import KeyBar, KeyList

ONE_TILE = Rules(mode=Mode.ROUND, max_tiles=1)
"""One tile a roll: 6+6 makes nothing, so a turn can end on the first roll."""
ANA_FIRST = ("5", "3")
"""The roll-off: Ana 5, Luis 3, so Ana plays first."""


def help_shown(app: ShutTheBoxApp) -> tuple[str, str, str]:
    """The help's keys of the moment, every key, and its rules, as text."""
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    now, every = (str(screen.query_one(f"#{name}", KeyList).render()) for name in ("help-now", "help-keys"))
    return now, every, str(screen.query_one("#help-rules", Static).render())


async def test_help_opens_with_question_mark_and_f1() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        for key in ("question_mark", "f1"):
            await press(pilot, key)
            assert isinstance(app.screen, HelpScreen), key
            now, every, rules = help_shown(app)
            assert "⏎" in now and "roll" in now and "pick tiles" not in now
            assert "hint" in every and "quit" in every
            assert "Shut every tile" in rules and "This game: 9 tiles" in rules
            await press(pilot, "escape")
            assert not isinstance(app.screen, HelpScreen)
        await press(pilot, "enter", "f1")
        assert "pick tiles" in help_shown(app)[0]  # the keys of the moment: a roll to match


async def test_q_mid_game_asks_first() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "q")
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await press(pilot, "enter")  # Enter answers nothing
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")
        assert not isinstance(app.screen, ConfirmScreen) and app.is_running
        assert state(app).phase is Phase.MOVE
        await press(pilot, "q", "y")
        await pilot.pause()
    assert isinstance(app.return_value, GameRecord)


async def test_q_before_anything_is_played_leaves_at_once() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "q")
        await pilot.pause()
    assert app.return_value is None


async def test_a_double_enter_at_a_turns_end_does_not_roll_for_the_next_player() -> None:
    app = make_app(ONE_TILE, ("Ana", "Luis"), *ANA_FIRST, "4,4", "6,6", "2,3")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter", "enter", "8", "enter")
        await press(pilot, "enter", "enter")  # 6+6 ends Ana's turn; the second Enter only hands over
        luis = state(app)
        assert luis.actor == 1 and luis.phase is Phase.ROLL and luis.roll is None
        assert app.controller.handover is None
        await press(pilot, "enter")  # a fresh press rolls for Luis
        assert state(app).roll is not None and state(app).roll.total == 5  # type: ignore[union-attr]


async def test_the_turn_end_shows_the_final_board_and_score_until_the_next_player_is_ready() -> None:
    app = make_app(ONE_TILE, ("Ana", "Luis"), *ANA_FIRST, "4,4", "6,6", "2,3")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter", "enter", "8", "enter", "enter")
        assert state(app).actor == 1 and state(app).board.is_full
        shut = [tile.view.number for tile in app.query("Tile") if not tile.view.is_open]  # type: ignore[attr-defined]
        assert shut == [8]  # Ana's board, not Luis's fresh one
        assert shown(app, "#status") == "Ana's turn is over: 37. Luis: press Enter when ready."
        assert "6" in str(app.query_one("#dice").render())  # the last roll stays on the table
        assert app.query_one(KeyBar).keys[0] == ("⏎", "next player")  # not "roll": Enter hands over
        await press(pilot, "space")
        assert shown(app, "#status") == "Luis: roll two dice."
        assert app.query_one(KeyBar).keys[0] == ("⏎", "roll")
        assert all(tile.view.is_open for tile in app.query("Tile"))  # type: ignore[attr-defined]


async def test_a_held_enter_does_not_hand_over_at_once() -> None:
    app = make_app(ONE_TILE, ("Ana", "Luis"), *ANA_FIRST, "6,6", "2,3")
    app.controller.handover_delay = 3600.0  # no press comes this long after the turn's end in a test
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter", "enter", "enter", "enter", "enter")
        assert app.controller.handover is not None and state(app).roll is None


async def test_setup_escape_goes_back_to_the_game() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "1,1", "1,1")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "2", "enter", "enter", "s")
        assert isinstance(app.screen, SetupScreen)
        await press(pilot, "escape")
        assert not isinstance(app.screen, SetupScreen) and app.is_running
        assert state(app).is_over


async def test_n_and_s_mid_game_ask_and_keep_the_game_on_no() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4", "5,5")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        rolled = state(app)
        for key in ("n", "s"):
            await press(pilot, key)
            assert isinstance(app.screen, ConfirmScreen), key
            await press(pilot, "escape")
            assert state(app) is rolled and not isinstance(app.screen, ConfirmScreen)
        await press(pilot, "s", "y")
        assert isinstance(app.screen, SetupScreen)
        await press(pilot, "escape")  # back to the game, still in play
        assert state(app) is rolled
        await press(pilot, "n", "y")
        fresh = state(app)
        assert fresh is not rolled and fresh.phase is Phase.ROLL and not fresh.history
        assert app.controller.games_played == 1  # the next seed, as after a finished game
