"""Refused keys leave the match as it was; the setup screen; Spanish; the history callback."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from shutthebox import Game, Mode, Phase, Rules
from shutthebox.core.record import GameRecord
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import ConfirmScreen, ReviewScreen, SetupScreen
from shutthebox.term.session import PlaySetup
from tests.support.tui import SIZE, dice, log_text, make_app, press, shown, state

SOLO = Rules(mode=Mode.SOLO)
REFUSED_TYPED_DICE = "Typed dice are for companion mode (--companion) only: press Enter to roll."


@pytest.mark.slow
async def test_bad_keys_get_a_message_and_change_nothing() -> None:
    app = make_app(Rules(mode=Mode.SOLO, max_tiles=2), ("Ana",), "4,4", "6,6")
    async with app.run_test(size=SIZE) as pilot:
        start = state(app)
        await press(pilot, "5")
        assert state(app) is start and shown(app, "#message") == REFUSED_TYPED_DICE
        await press(pilot, "enter")
        rolled = state(app)
        assert rolled.phase is Phase.MOVE
        cases = [
            (("0",), "There is no tile 10 on this board."),
            (("enter",), "Pick tiles that make 8."),
            (("5", "enter"), "5 make 5, not 8."),
            (("5", "2", "1", "enter"), "At most 2 tiles a roll."),
            (("v",), "The review comes once the game is over."),
        ]
        for keys, message in cases:
            await press(pilot, "escape", *keys)
            assert state(app) is rolled, keys
            assert shown(app, "#message") == message
        await press(pilot, "escape", "8", "enter")
        shut = state(app)
        assert shut.board.shut_tiles == (8,)
        await press(pilot, "enter", "8")
        assert state(app).phase is Phase.MOVE and shown(app, "#message") == "Tile 8 is already shut."
        assert app.controller.selected == 0


async def test_nothing_happens_after_the_end_but_new_setup_or_quit() -> None:
    app = make_app(SOLO, ("Ana",), "1,1", "1,1")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "2", "enter", "enter")
        over = state(app)
        assert over.is_over
        await press(pilot, "enter", "5", "h")
        assert state(app) is over
        assert shown(app, "#message").startswith("The game is over: n for a new game")


@pytest.mark.slow
async def test_the_setup_screen_starts_the_game_it_describes() -> None:
    app = ShutTheBoxApp(None, dice=dice("3", "5"), bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SetupScreen)
        form = app.screen
        form.query_one("#players", Input).value = "Ana, Luis, Eva"
        form.query_one("#mode", Select).value = "long"
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, SetupScreen)  # the long game is for two: refused
        error = str(form.query_one("#setup-error").render())
        assert error == "Not allowed: the long game is for two (people or bots)"
        form.query_one("#players", Input).value = "Ana, Ana"
        form.query_one("#mode", Select).value = "auto"
        await press(pilot, "ctrl+s")
        assert str(form.query_one("#setup-error").render()).endswith("every player needs a different name")
        form.query_one("#players", Input).value = "Ana"
        form.query_one("#rounds", Input).value = "0"
        await press(pilot, "ctrl+s")
        assert str(form.query_one("#setup-error").render()).endswith("Rounds: at least 1")
        form.query_one("#rounds", Input).value = "1"
        form.query_one("#players", Input).value = "Ana, Luis"
        form.query_one("#mode", Select).value = "elimination"
        form.query_one("#limit", Input).value = "30"
        form.query_one("#tiles", Select).value = 10
        form.query_one("#stake", Input).value = "2"
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, SetupScreen)
        rules = state(app).rules
        assert (rules.mode, rules.limit, rules.tiles, rules.stake) == (Mode.ELIMINATION, 30, 10, 2)
        assert state(app).players == ("Ana", "Luis") and state(app).ledger == (-2, -2)
        await press(pilot, "enter", "enter")
        assert state(app).order == (1, 0)  # Luis rolled 5 to Ana's 3


@pytest.mark.slow
async def test_the_game_in_spanish() -> None:
    app = make_app(SOLO, ("Ana",), "3,4", "1,1", lang="es")
    async with app.run_test(size=SIZE) as pilot:
        assert "Ana: tira dos dados." in shown(app, "#status")
        await press(pilot, "7")
        refused = "Solo en modo compañero (--companion) se escriben los dados: pulsa Intro."
        assert shown(app, "#message") == refused
        await press(pilot, "enter", "7", "enter", "enter", "7")
        assert shown(app, "#message") == "La ficha 7 ya está cerrada."
        assert "Ana: cierra fichas que sumen 2." in shown(app, "#status")
        await press(pilot, "2")
        assert "2 = 2: Intro las cierra." in shown(app, "#status")
        log = log_text(app)
        assert "Turno de Ana" in log and "Ana tira 3+4 = 7" in log and "Ana cierra 7." in log
        assert "Cerrar la Caja · 9 fichas · solitario" in shown(app, "#title")
        assert "elegir fichas" in str(app.query_one("#keys").render())


async def test_a_finished_game_goes_to_the_history_once() -> None:
    kept: list[tuple[GameRecord, PlaySetup]] = []

    def keep(game: Game, setup: PlaySetup) -> list[str]:
        kept.append((game.record(), setup))
        return ["Saved to your history (game 1).", "New personal best for Ana on 9 tiles: 43!"]

    setup = PlaySetup(rules=SOLO, humans=("Ana",), seed=4)
    app = ShutTheBoxApp(setup, dice=dice("1,1", "1,1"), bot_delay=0,
        handover_delay=0, repeat_gap=0, save=keep)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "2", "enter", "enter", "enter")
        assert len(kept) == 1
        record, played = kept[0]
        assert played is setup and record.result is not None
        assert record.result.turns[0].score == 43
        assert log_text(app).endswith(
            "Saved to your history (game 1).\nNew personal best for Ana on 9 tiles: 43!"
        )
        await press(pilot, "q")
    assert isinstance(app.return_value, GameRecord)


@pytest.mark.slow
async def test_s_after_a_game_opens_the_setup_filled_in_with_it() -> None:
    app = make_app(SOLO, ("Ana",), "1,1", "1,1", "2,2")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s")
        assert isinstance(app.screen, ConfirmScreen)  # in the middle of a game: s asks first
        await press(pilot, "n")
        assert not isinstance(app.screen, SetupScreen | ConfirmScreen)
        await press(pilot, "enter", "2", "enter", "enter", "s")
        assert isinstance(app.screen, SetupScreen)
        form = app.screen
        assert form.query_one("#players", Input).value == "Ana"
        assert form.query_one("#mode", Select).value == "auto"
        form.query_one("#players", Input).value = "Ana, Luis"
        form.query_one("#stake", Input).value = "3"
        await press(pilot, "ctrl+s")
        fresh = state(app)
        assert fresh.players == ("Ana", "Luis") and fresh.rules.mode is Mode.ROUND
        assert fresh.rules.stake == 3 and fresh.phase is Phase.ROLL_OFF


@pytest.mark.slow
async def test_advice_review_and_bots_work_in_workers_without_freezing_the_screen() -> None:
    """The bot's pause is a timer, its thinking a worker: the test awaits them as they come."""
    rules = Rules(mode=Mode.ROUND)
    rolls = ("2", "5", "6,6", "1,2", "1,1", "4,5", "1,1", "1,1")
    app = make_app(rules, ("Ana",), *rolls, bots=("greedy",))
    app.bot_delay = 0.01
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        for _ in range(500):  # the bot plays its turn in the background; wait for Ana's turn
            if state(app).actor == 0 and state(app).phase is Phase.ROLL:
                break
            await pilot.pause(0.01)
        assert state(app).history[0].score == 30
        await pilot.press("enter", "enter", "h")  # the bot's last board held, then Ana rolls
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown(app, "#hint").startswith("Best: shut 9 (chance to win the round ")
        await pilot.press("9", "enter", "enter", "2", "enter", "enter")
        assert state(app).is_over and state(app).winner == 1
        await pilot.press("v")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert [d.player for d in app.screen.review.decisions] == ["Bot (greedy)"] * 2 + ["Ana"] * 2
