"""Solo games played by key presses and clicks in the Textual app."""

from __future__ import annotations

import pytest

from shutthebox import Mode, Phase, Rules
from shutthebox.term.screens import ConfirmScreen, ReviewScreen
from tests.support.tui import SIZE, click, log_text, make_app, press, rendered, script_state, shown, state

pytestmark = pytest.mark.slow  # whole solo games in the Textual app

SOLO = Rules(mode=Mode.SOLO)

# 3+4 shut 7; 6+6 shut 9+3; 5+3 shut 8; 7, 8, 9 are shut: two dice 1+1 shut 2;
# one die 6 shut 6; two dice 6+6 make 12 and 1, 4, 5 (10) are left: score 10.
ROLLS = ("3,4", "6,6", "5,3", "1,1", "6", "6,6")
KEYS = ("enter", "7", "enter", "enter", "9", "3", "enter", "space", "8", "enter",
        "2", "2", "enter", "1", "6", "enter", "2")
SCRIPT = "r3,4 m7 r6,6 m9+3 r5,3 m8 d2 r1,1 m2 d1 r6 m6 d2 r6,6"


async def test_a_whole_solo_game_by_keys() -> None:
    app = make_app(SOLO, ("Ana",), *ROLLS)
    async with app.run_test(size=SIZE) as pilot:
        assert state(app).phase is Phase.ROLL
        assert "Ana: roll two dice." in shown(app, "#status")
        await press(pilot, *KEYS)
        final = state(app)
        assert final.is_over
        assert final == script_state(SOLO, ("Ana",), SCRIPT)
        assert final.history[-1].board.open_tiles == (1, 4, 5)
        assert final.history[-1].score == 10
        log = log_text(app)
        assert "Ana shuts 9+3." in log
        assert "Ana chooses one die." in log
        assert "Ana scores 10 (open: 1, 4, 5), grade B." in log
        assert "Final score 10, grade B." in log
        assert shown(app, "#status") == "Final score 10, grade B."
        record = app.saved[-1]
        assert record.result is not None and record.result.turns[0].score == 10


async def test_tiles_can_be_picked_with_the_mouse() -> None:
    app = make_app(SOLO, ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        await click(pilot, "#tile-5")
        await click(pilot, "#tile-2")
        assert app.controller.selected == 0b10010
        assert "5+2 = 7: Enter shuts them." in shown(app, "#status")
        await click(pilot, "#tile-2")  # a second click puts it back
        assert app.controller.selected == 0b10000
        await click(pilot, "#tile-2")
        await press(pilot, "enter")
        assert state(app).board.open_tiles == (1, 3, 4, 6, 7, 8, 9)


async def test_the_hint_key_shows_the_best_move_from_the_solver() -> None:
    app = make_app(SOLO, ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "h")
        hint = shown(app, "#hint")
        assert hint.startswith("Best: shut 7 (expected score ")
        assert "or shut " in hint and "then" not in hint  # the next best instead, never read as a plan
        await press(pilot, "7", "enter")
        assert shown(app, "#hint") == ""  # a hint belongs to the decision it was asked for


async def test_the_review_of_a_finished_game() -> None:
    app = make_app(SOLO, ("Ana",), *ROLLS)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "v")
        assert "once the game is over" in shown(app, "#message")
        await press(pilot, *KEYS, "v")
        assert isinstance(app.screen, ReviewScreen)
        shown_review = rendered(app.screen.table())
        assert "Review of the game" in shown_review
        accuracy = app.screen.review.accuracy["Ana"]
        assert f"Accuracy: Ana {accuracy:.0f}%" in shown_review and 0 <= accuracy <= 100
        assert "9+3" in shown_review and "1 die" not in shown_review and "one die" in shown_review
        decisions = app.screen.review.decisions
        assert [str(d.chosen) for d in decisions] == ["7", "9+3", "8", "2 dice", "2", "1 die", "6", "2 dice"]
        assert decisions[0].verdict == "best"
        await press(pilot, "escape")
        assert not isinstance(app.screen, ReviewScreen)


async def test_a_long_board_uses_0_minus_and_equals_for_10_11_12() -> None:
    rules = Rules(mode=Mode.SOLO, tiles=12)
    app = make_app(rules, ("Ana",), "6,6", "5,6", "4,6")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        assert "1-9 0 - =" in str(app.query_one("#keys").render())
        await press(pilot, "equals_sign", "enter")
        await press(pilot, "enter", "minus", "enter")
        await press(pilot, "enter", "0", "enter")
        assert state(app).board.shut_tiles == (10, 11, 12)


async def test_new_game_starts_again_with_the_next_seed() -> None:
    app = make_app(SOLO, ("Ana",), *ROLLS, "1,1")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        assert isinstance(app.screen, ConfirmScreen)  # a game in play: n asks first
        await press(pilot, "n")
        assert not isinstance(app.screen, ConfirmScreen)
        await press(pilot, *KEYS, "n")
        fresh = state(app)
        assert fresh.phase is Phase.ROLL and fresh.board.is_full and not fresh.history
        assert app.controller.games_played == 1
