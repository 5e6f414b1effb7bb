"""Bots in the Textual app: each thinks in a worker, within its patience; one that fails, takes too
long or chooses what the game refuses is replaced by its fallback and keeps its seat, and only when
even the fallback's step is refused does a person at the keyboard take the seat."""

from __future__ import annotations

import threading

from tui_support import ROLLS, SIZE, Broken, Wrong, log_text, make_app, press, shown, state

from shutthebox import Mode, Move, Rules
from shutthebox.core.match import DiceChoice, Match
from shutthebox.strategy.bots import Seated, make_bot
from shutthebox.term.app import ShutTheBoxApp

ONE_TILE = Rules(mode=Mode.ROUND, max_tiles=1)


class Slow:
    """A bot that keeps its shell waiting: it answers (tile 7) only once let go."""

    name, fallback, patience = "slow", None, None

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked = 0

    def think(self, state: Match) -> DiceChoice | Move:
        self.asked += 1
        self.go.wait(10)
        return Move.parse("7")


def seat(
    app: ShutTheBoxApp, own: object, fallback: object | None = None, patience: float | None = None
) -> None:
    """Seat 1 is played from now on by ``own`` with ``fallback`` (else the heuristic), before its turn."""
    assert app.game is not None and app.game.due().seat == 0
    app.game.seat_bot(1, Seated(own, fallback or make_bot("heuristic"), patience))  # type: ignore[arg-type]


def game() -> ShutTheBoxApp:
    return make_app(ONE_TILE, ("Ana",), *ROLLS, bots=("greedy",))


async def test_a_bot_that_fails_is_replaced_by_its_fallback() -> None:
    app = game()
    async with app.run_test(size=SIZE) as pilot:
        seat(app, Broken())
        await press(pilot, "enter", "enter")  # the start, then Ana's 6+6 ends her turn; the bot's turn
        final = state(app)
        assert final.is_over and [t.score for t in final.history] == [45, 38]
        assert "Bot (greedy) shuts 7." in log_text(app)
        assert app.game is not None and 1 in app.game.bots and shown(app, "#message") == ""


async def test_a_bot_that_outlasts_its_patience_is_replaced_and_its_late_answer_dropped() -> None:
    slow = Slow()
    app = game()
    try:
        async with app.run_test(size=SIZE) as pilot:
            seat(app, slow, patience=0.05)
            await press(pilot, "enter")
            await pilot.press("enter")  # not `press`: it would wait for the slow bot's worker
            for _ in range(500):
                if state(app).is_over:
                    break
                await pilot.pause(0.01)
            final = state(app)
            assert final.is_over and slow.asked == 1 and "Bot (greedy) shuts 7." in log_text(app)
            assert app.game is not None and 1 in app.game.bots
            slow.go.set()  # its answer comes now, for a state the game has left
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert state(app) is final and len(app.game.events) == 6  # the two dice to start, then four
    finally:
        slow.go.set()


async def test_a_bot_whose_choice_is_refused_is_replaced_by_its_fallback() -> None:
    app = game()
    async with app.run_test(size=SIZE) as pilot:
        seat(app, Wrong())
        await press(pilot, "enter", "enter")
        assert state(app).is_over and "Bot (greedy) shuts 7." in log_text(app)
        assert app.game is not None and 1 in app.game.bots


async def test_when_even_the_fallback_is_refused_a_person_takes_the_seat() -> None:
    app = game()
    async with app.run_test(size=SIZE) as pilot:
        seat(app, Wrong(), Wrong())
        await press(pilot, "enter", "enter")
        assert app.game is not None and 1 not in app.game.bots
        assert shown(app, "#message").startswith("Not allowed: ") and state(app).actor == 1
        assert "Bot (greedy): shut tiles that make 7." in shown(app, "#status")
        await press(pilot, "7", "enter", "enter")
        assert state(app).is_over and "Bot (greedy) shuts 7." in log_text(app)
