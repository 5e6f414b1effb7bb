"""A round against a bot with stakes, elimination to the limit and the long game, by key presses."""

from __future__ import annotations

import pytest

from shutthebox import Mode, Phase, Rules
from tests.support.tui import SIZE, log_text, make_app, press, scoreboard, script_state, shown, state

pytestmark = pytest.mark.slow  # whole games of each mode in the Textual app


async def test_a_round_against_a_bot_with_a_stake() -> None:
    rules = Rules(mode=Mode.ROUND, stake=1)
    # Roll-off: Ana 2, the bot 5, so the bot starts. The greedy bot shuts 9+3, then
    # 2+1, and a 2 is left unusable on 4..8: it scores 30. Ana shuts 9, 2, 7+5 and
    # cannot use the last 2 (1, 3, 4, 6, 8 open): 22 wins the pot of 2.
    rolls = ("2", "5", "6,6", "1,2", "1,1", "4,5", "1,1", "6,6", "1,1")
    app = make_app(rules, ("Ana",), *rolls, bots=("greedy",))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # Ana's roll-off die; the bot then rolls and plays its turn
        after_bot = state(app)
        assert after_bot.actor == 0 and after_bot.phase is Phase.ROLL
        assert after_bot.history[0].score == 30
        assert "Bot (greedy) shuts 9+3." in log_text(app)
        assert app.controller.handover is not None  # the bot's last board stays until Ana presses
        await press(pilot, "enter")
        await press(pilot, "enter", "9", "enter", "enter", "2", "enter", "enter", "7", "5", "enter", "enter")
        final = state(app)
        script = "r2 r5 r6,6 m9+3 r1,2 m2+1 r1,1 r4,5 m9 r1,1 m2 r6,6 m7+5 r1,1"
        assert final == script_state(rules, ("Ana", "Bot (greedy)"), script)
        assert final.is_over and final.winner == 0
        assert final.ledger == (1, -1)
        log = log_text(app)
        assert "Ana wins round 1." in log and "Ana wins the game!" in log
        assert "Ledger: Ana +1, Bot (greedy) -1" in log
        assert "+1" in scoreboard(app)


async def test_keys_are_refused_while_the_bot_plays() -> None:
    rules = Rules(mode=Mode.ROUND)
    app = make_app(rules, ("Ana",), "2", "5", "6,6", bots=("greedy",))
    app.bot_delay = 60  # the bot waits: it is its turn while Ana presses keys
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        await pilot.pause()
        app.bot_delay = 60
        before = state(app)
        assert before.actor == 1
        await press(pilot, "enter", "9")
        assert state(app) is before
        assert "Wait: it is Bot (greedy)'s turn." in shown(app, "#message")


async def test_elimination_to_a_limit() -> None:
    rules = Rules(mode=Mode.ELIMINATION, limit=10)
    # Ana shuts the box (score 0, no instant win in elimination); Luis uses one 2
    # and then cannot: 43 reaches the limit of 10, so he retires and Ana wins.
    rolls = ("3", "1", "6,6", "1,1", "6,6", "6,6", "3,4", "1,1", "1,1")
    app = make_app(rules, ("Ana", "Luis"), *rolls)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter")  # roll-off
        await press(pilot, "enter", "9", "3", "enter", "enter", "2", "enter", "enter", "8", "4", "enter")
        await press(pilot, "enter", "7", "5", "enter")
        assert state(app).phase is Phase.CHOOSE  # 7, 8, 9 are shut: one die or two
        await press(pilot, "2", "6", "1", "enter")
        assert state(app).actor == 1 and state(app).totals == (0, 0)
        await press(pilot, "enter")  # Luis takes over with a fresh Enter
        await press(pilot, "enter", "2", "enter", "enter")
        final = state(app)
        script = "r3 r1 r6,6 m9+3 r1,1 m2 r6,6 m8+4 r6,6 m7+5 d2 r3,4 m6+1 r1,1 m2 r1,1"
        assert final == script_state(rules, ("Ana", "Luis"), script)
        assert final.is_over and final.winner == 0
        assert final.totals == (0, 43) and final.alive == (True, False)
        log = log_text(app)
        assert "Ana shuts the box! Score 0, grade S." in log
        assert "Luis reaches 43 and retires." in log
        assert "Totals: Ana 0, Luis 43" in log
        assert "43 (out)" in scoreboard(app)


async def test_the_long_game_shut_then_open_with_extra_turns() -> None:
    rules = Rules(mode=Mode.LONG)
    # Ana shuts 9+3 and 2 and 6+5+1 on doubles (three extra turns) and 7+4; four rolls
    # of 3 fail, the first three spend her extra turns. Luis opens 9, then 4+3, then
    # 7+2, chooses two dice and opens 6+5+1: every tile is open and he wins.
    rolls = ("6", "1", "6,6", "1,1", "6,5", "6,6", "1,2", "1,2", "1,2", "1,2",
             "4,5", "3,4", "4,5", "6,6")
    app = make_app(rules, ("Ana", "Luis"), *rolls)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter")
        await press(pilot, "enter", "9", "3", "enter", "enter", "2", "enter")
        await press(pilot, "enter", "7", "4", "enter", "enter", "6", "5", "1", "enter")
        assert state(app).board.open_tiles == (8,)
        await press(pilot, "enter", "enter", "enter", "enter", "enter")  # the last: Luis takes over
        assert state(app).opening and state(app).actor == 1
        assert "Luis's turn, opening shut tiles" in log_text(app)
        assert "opens" in scoreboard(app)
        await press(pilot, "enter", "8")
        assert "Tile 8 is open" in shown(app, "#message")
        await press(pilot, "9", "enter", "enter", "4", "3", "enter", "enter", "7", "2", "enter")
        assert state(app).phase is Phase.CHOOSE
        await press(pilot, "2", "6", "5", "1", "enter")
        final = state(app)
        script = (
            "r6 r1 r6,6 m9+3 r1,1 m2 r6,5 m7+4 r6,6 m6+5+1 r1,2 r1,2 r1,2 r1,2 "
            "r4,5 m9 r3,4 m4+3 r4,5 m7+2 d2 r6,6 m6+5+1"
        )
        assert final == script_state(rules, ("Ana", "Luis"), script)
        assert final.is_over and final.winner == 1 and final.board.is_full
        log = log_text(app)
        assert log.count("Ana spends an extra turn and rolls again.") == 3
        assert "Luis opens every tile and wins!" in log


async def test_two_rounds_each_won_by_one_player_is_a_draw() -> None:
    rules = Rules(mode=Mode.ROUND)
    # Round 1: Ana 22, Luis 43. Round 2 (a new roll-off): Ana 31, Luis 22. One round each.
    script = (
        "r6 r1 r4,5 m9 r6,6 m8+4 r1,1 m2 r1,1 r1,1 m2 r1,1 "
        "r2 r1 r6,6 m9+3 r1,1 m2 r1,1 r6,6 m9+3 r5,6 m8+2+1 r1,1"
    )
    rolls = tuple(token[1:] for token in script.split() if token.startswith("r"))
    app = make_app(rules, ("Ana", "Luis"), *rolls, rounds=2)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "enter", "enter", "9", "enter", "enter", "8", "4", "enter")
        await press(pilot, "enter", "2", "enter", "enter")
        await press(pilot, "enter")  # Luis takes over with a fresh Enter
        await press(pilot, "enter", "2", "enter", "enter")
        assert state(app).round == 2 and state(app).round_winners == (0,)
        await press(pilot, "enter", "enter", "enter", "9", "3", "enter", "enter", "2", "enter", "enter")
        await press(pilot, "enter")  # Luis takes over
        await press(pilot, "enter", "9", "3", "enter", "enter", "8", "2", "1", "enter", "enter")
        final = state(app)
        assert final == script_state(rules, ("Ana", "Luis"), script, rounds=2)
        assert final.is_over and final.round_winners == (0, 1) and final.winner is None
        assert "Rounds" in scoreboard(app)
        log = log_text(app)
        assert "Ana wins round 1." in log and "Luis wins round 2." in log
        assert "The game is drawn." in log
