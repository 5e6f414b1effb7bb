"""The keyboard beyond the digits (issue 30): arrows and Space over the tiles, a word for any key
without a use, Ctrl+C as the quit key, the confirm's yes in the player's language."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from shutthebox import Mode, Phase, Rules
from shutthebox.core.record import GameRecord
from shutthebox.i18n import activate
from shutthebox.term.hints import hint_lines
from shutthebox.term.screens import ConfirmScreen
from shutthebox.term.widgets import Tile
from tests.support.tui import SIZE, make_app, press, script_state, shown, state

SOLO = Rules(mode=Mode.SOLO)


def cursor(app: object) -> list[int]:
    return [tile.view.number for tile in app.query(Tile) if tile.has_class("-cursor")]  # type: ignore[attr-defined]


async def test_arrows_move_a_cursor_over_the_open_tiles_and_space_picks() -> None:
    app = make_app(SOLO, ("Ana",), "3,4", "1,1")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # 7
        assert state(app).phase is Phase.MOVE
        await press(pilot, "right")
        assert cursor(app) == [1]
        await press(pilot, "right", "right", "space")  # tile 3 picked
        assert app.controller.selected == 1 << 2 and cursor(app) == [3]
        await press(pilot, "right", "enter")  # 3 alone does not make 7: Enter picks the tile under the cursor
        assert app.controller.selected == (1 << 2) | (1 << 3)
        await press(pilot, "enter")  # 3 + 4 make 7: Enter shuts them
        assert 3 not in state(app).board and 4 not in state(app).board
        await press(pilot, "enter")  # 1 + 1
        await press(pilot, "right")  # the cursor's 4 is shut: the next open tile
        assert cursor(app) == [5]
        await press(pilot, "left", "left")  # the shut 3 and 4 are skipped
        assert cursor(app) == [1]
        await press(pilot, "left")  # round to the last open tile
        assert cursor(app) == [9]


async def test_a_key_without_a_use_says_which_keys_work_in_the_status_lines() -> None:
    app = make_app(SOLO, ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        start = state(app)
        for key in ("f5", "up", "pagedown"):
            await press(pilot, key)
            assert state(app) is start
            message = shown(app, "#message")
            assert "does nothing here" in message and "⏎ roll" in message and "? help" in message, key
        assert not app._notifications


async def test_ctrl_c_asks_to_quit_in_the_players_language_and_s_says_yes() -> None:
    app = make_app(SOLO, ("Ana",), "3,4", lang="es")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "ctrl+c")
        assert not app._notifications  # no English toast
        assert isinstance(app.screen, ConfirmScreen)
        legend = str(app.screen.query_one("#confirm", Static).render())
        assert "s: sí" in legend, legend
        await press(pilot, "s")
        await pilot.pause()
    assert isinstance(app.return_value, GameRecord)


async def test_in_english_y_says_yes_and_s_does_not() -> None:
    app = make_app(SOLO, ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "q", "s")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "Y")
        await pilot.pause()
    assert isinstance(app.return_value, GameRecord)


def test_the_spanish_hint_writes_its_chances_with_a_decimal_comma() -> None:
    state_ = script_state(Rules(mode=Mode.ROUND), ("Ana", "Luis"), "r5 r3 r3,4")
    activate("es")
    lines = hint_lines(state_)
    text = " ".join(lines)
    assert "50,7\u00a0%" in text and "." not in text, lines  # 54,2 %: a comma, and a (no-break) space
    activate("en")
    text = " ".join(hint_lines(state_))
    assert "50.7%" in text


def test_a_hint_past_the_terminals_budget_is_ranked_by_the_cheaper_objective(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression (a hostile user, issue 29): the terminal's hint started whatever solve the moment
    asked; in a round of eight under ``digits`` on 12 tiles, a solve of 27 GB that grew until the
    system killed it, quitting the game or not. A hint past the terminal's budget is now ranked by
    the cheaper objective, as a server's is: here the round's chance to win made dearer than the
    budget, the lowest expected score answers."""
    from shutthebox.strategy.cost import cost_of
    from shutthebox.strategy.names import Objective
    from shutthebox.term import hints

    rules = Rules(mode=Mode.ROUND)
    state_ = script_state(rules, ("Ana", "Luis"), "r5 r3 r3,4")
    assert "%" in " ".join(hint_lines(state_))  # within the budget: the chance to win the round
    score, win = cost_of(rules, Objective.SCORE), cost_of(rules, Objective.WIN, 2)
    assert score.bytes < win.bytes
    monkeypatch.setattr(hints, "TERMINAL_BYTES", score.bytes)
    lines = hint_lines(state_)
    assert lines and "%" not in " ".join(lines), lines  # an expected score, not a chance
