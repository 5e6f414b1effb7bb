"""Companion mode: the dice come from a real box, typed as digits; the advice shows by itself."""

from __future__ import annotations

import pytest

from shutthebox import Mode, Phase, Rules
from tests.support.tui import SIZE, log_text, make_app, press, record, script_state, shown, state

SOLO = Rules(mode=Mode.SOLO)


@pytest.mark.slow
async def test_a_companion_game_with_typed_dice_and_advice() -> None:
    app = make_app(SOLO, ("Ana",), companion=True)  # no scripted dice: none may be rolled
    async with app.run_test(size=SIZE) as pilot:
        assert "roll two dice and type the faces: _ _" in shown(app, "#status")
        await press(pilot, "6")
        assert app.controller.typed == (6,) and "type the faces: 6 _" in shown(app, "#status")
        await press(pilot, "6")
        assert state(app).phase is Phase.MOVE and state(app).roll is not None
        assert shown(app, "#hint").startswith("Best: shut ")  # advice without asking
        await press(pilot, "9", "3", "enter", "5", "4", "8", "1", "enter", "6", "6", "7", "5", "enter")
        assert state(app).phase is Phase.CHOOSE
        assert shown(app, "#hint").startswith("Best: ")  # one die or two, advised
        await press(pilot, "2", "1", "1", "2", "enter", "1", "4", "4", "enter", "1", "5")
        final = state(app)
        script = "r6,6 m9+3 r5,4 m8+1 r6,6 m7+5 d2 r1,1 m2 d1 r4 m4 d1 r5"
        assert final == script_state(SOLO, ("Ana",), script)
        assert final.history[0].score == 6
        assert "Companion mode" in log_text(app)
        assert record(app).seed is None  # typed rolls: the seed does not replay them


async def test_bad_typed_dice_get_a_message_and_change_nothing() -> None:
    app = make_app(SOLO, ("Ana",), companion=True)
    async with app.run_test(size=SIZE) as pilot:
        start = state(app)
        for key, message in (
            ("7", "A die shows 1 to 6, not 7."),
            ("0", "A die shows 1 to 6, not 0."),
            ("equals_sign", "A die shows 1 to 6, not =."),
            ("enter", "Type the faces of the dice you rolled (1 to 6)."),
        ):
            await press(pilot, key)
            assert state(app) is start, key
            assert shown(app, "#message") == message
            assert app.controller.typed == ()
        await press(pilot, "x")  # a letter was once ignored without a word
        assert state(app) is start and app.controller.typed == ()
        assert shown(app, "#message") == "Type the faces of the dice you rolled as digits 1 to 6, not x."
        await press(pilot, "3", "backspace")  # a half-typed roll can be taken back
        assert app.controller.typed == () and state(app) is start
        await press(pilot, "3", "9")
        assert app.controller.typed == (3,) and state(app) is start
        await press(pilot, "4")
        assert state(app).roll is not None and state(app).roll.dice == (3, 4)


@pytest.mark.slow
async def test_companion_round_with_a_bot_rolls_typed_for_everyone() -> None:
    rules = Rules(mode=Mode.ROUND)
    app = make_app(rules, ("Ana",), companion=True, bots=("greedy",))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "2", "5")  # the roll-off: Ana 2, then the bot's die, typed by a person
        assert state(app).actor == 1 and state(app).phase is Phase.ROLL
        assert "Bot (greedy): roll two dice and type the faces" in shown(app, "#status")
        await press(pilot, "6", "6")  # the bot then picks its own tiles
        assert state(app).board.shut_tiles == (3, 9)
        await press(pilot, "1", "2", "1", "1")
        assert state(app).actor == 0 and state(app).history[0].score == 30
        await press(pilot, "6", "6", "9", "3", "enter", "1", "1")
        assert state(app).phase is Phase.MOVE  # tile 2 is still open
        await press(pilot, "2", "enter", "6", "6", "8", "4", "enter", "1", "1")
        final = state(app)
        assert final.is_over and final.winner == 0 and final.history[-1].score == 19


async def test_a_key_without_a_use_says_so_and_the_game_keys_still_work() -> None:
    app = make_app(SOLO, ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        start = state(app)
        await press(pilot, "k")
        assert state(app) is start
        assert shown(app, "#message").startswith("The key k does nothing here. Keys now: ⏎ roll · ? help")
        await press(pilot, "enter", "7")
        assert state(app).roll is not None and app.controller.selected == 1 << 6
        assert shown(app, "#message") == ""
