"""The review (``v``) at every size: what each choice cost, in the solver's units, and readable
below 80 columns (each decision a block of lines) as well as in the table of a wide terminal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.widgets import Static

from shutthebox import Mode, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.hints import loss_words
from shutthebox.term.screens import ReviewScreen
from tests.support.tui import make_app, press

SOLO = Rules(mode=Mode.SOLO)
# As in test_tui_solo: one die at 1 4 5 6 where two dice were best, a blunder of 2.28 points.
ROLLS = ("3,4", "6,6", "5,3", "1,1", "6", "6,6")
KEYS = ("enter", "7", "enter", "enter", "9", "3", "enter", "space", "8", "enter",
        "2", "2", "enter", "1", "6", "enter", "2")


def screen_text(app: ShutTheBoxApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def review_lines(review: ReviewScreen, width: int) -> list[str]:
    """The whole review (scrolled or not) as the review screen draws it at ``width`` columns."""
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(review.query_one("#review-table", Static).content)
    return console.export_text().splitlines()




def test_a_loss_is_said_in_its_unit() -> None:
    assert loss_words("score", 0.4213) == "0.42 points lost"
    assert loss_words("shut", 0.031) == "3.1 percentage points lost"
    assert loss_words("win", 0.2) == "20.0 percentage points lost"
    assert loss_words("stake", 0.125) == "0.125 stakes lost"


async def test_the_review_table_says_what_each_choice_cost() -> None:
    app = make_app(SOLO, ("Ana",), *ROLLS)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *KEYS, "v")
        assert isinstance(app.screen, ReviewScreen)
        text = screen_text(app)
        assert "Points lost" in text and "…" not in text
        blunder = next(line for line in text.splitlines() if "blunder" in line)
        assert "one die" in blunder and "two dice" in blunder and "2.28" in blunder
        assert sum("best" in line and " 0 " in line for line in text.splitlines()) == 7


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (79, 24)])
async def test_below_80_columns_each_decision_reads_whole(size: tuple[int, int]) -> None:
    app = make_app(SOLO, ("Ana",), *ROLLS)
    async with app.run_test(size=size) as pilot:
        await press(pilot, *KEYS, "v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        text = screen_text(app)
        assert "1. Ana [1 2 3 4 5 6 7 8 9] roll 7" in text and "chose 7: best" in text and "…" not in text
        width = review.query_one("#review-table").size.width
        lines = review_lines(review, width)
        assert all(len(line.rstrip()) <= width for line in lines)
        said = " ".join(" ".join(lines).split())
        assert "6. Ana [1 · · 4 5 6 · · ·] chose one die: blunder, 2.28 points lost; best two dice" in said
        assert "Accuracy: Ana 97%" in said
