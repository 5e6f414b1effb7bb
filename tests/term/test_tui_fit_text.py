"""Words are wrapped, never cut, at every size the README promises (40x12 to 200x60): the log, the
status at a turn's end, the one-line scoreboard; after a resize the log shows its newest line."""

from __future__ import annotations

import re

import pytest

from shutthebox import Mode, OneDie, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.session import PlaySetup
from shutthebox.term.widgets import GameLog, Scoreboard
from tests.support.tui import dice, make_app, press

PROFILE = (
    "Your player profile Ana was created; its secret key stays in your data folder, readable by you alone."
)
"""A line the keeper writes at the first saved game: longer than an 80-column log."""
THREE_TILES = Rules(mode=Mode.ROUND, tiles=3, one_die=OneDie.NEVER)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def screen_lines(app: ShutTheBoxApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def region_text(app: ShutTheBoxApp, selector: str) -> str:
    """The text the terminal shows inside a widget's region."""
    region = app.query_one(selector).region
    lines = screen_lines(app)[region.y : region.bottom]
    return "\n".join(line[region.x : region.right] for line in lines)


def assert_log_whole(app: ShutTheBoxApp) -> None:
    """Every line said is in the log, word for word, and no written row is wider than the log."""
    log = app.query_one(GameLog)
    width = log.scrollable_content_region.width
    assert all(strip.text.rstrip() == strip.text.rstrip()[:width] for strip in log.lines)
    assert max(len(strip.text.rstrip()) for strip in log.lines) <= width
    assert words(" ".join(strip.text for strip in log.lines)) == words(" ".join(app.controller.log))


def kept_app(*rolls: str) -> ShutTheBoxApp:
    """Ana alone on three tiles, whose finished game the keeper answers with a long line."""
    setup = PlaySetup(rules=Rules(mode=Mode.SOLO, tiles=3, one_die=OneDie.NEVER), humans=("Ana",),
                      seed=1, lang="en")
    return ShutTheBoxApp(setup, dice=dice(*rolls), bot_delay=0, handover_delay=0, repeat_gap=0,
                         save=lambda game, setup: [PROFILE])


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 24), (200, 60)])
async def test_the_log_wraps_its_lines_at_every_size(size: tuple[int, int]) -> None:
    app = kept_app("6,6")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "enter")  # 6+6 makes nothing on three tiles: the game is over, and kept
        assert app.controller.log[-1] == PROFILE
        assert_log_whole(app)


async def test_after_a_resize_the_log_is_wrapped_anew_and_shows_its_end() -> None:
    app = kept_app("6,6")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter")
        log = app.query_one(GameLog)
        for width, height in [(40, 12), (120, 40), (45, 13), (80, 24)]:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            await pilot.pause()
            assert_log_whole(app)
            assert log.scroll_y == log.max_scroll_y, (width, height)
            assert "you alone." in region_text(app, "#log")  # the newest line, on screen


async def test_at_40x12_the_turns_end_says_whole_who_plays_next() -> None:
    app = make_app(THREE_TILES, ("Ana", "Luis"), "5", "3", "6,6")
    async with app.run_test(size=(40, 12)) as pilot:
        await press(pilot, "enter", "enter", "enter")  # the start, then Ana's 6+6 ends her turn
        assert app.controller.handover is not None
        status = words(region_text(app, "#status"))
        assert status == "Ana's turn is over: 6. Luis: press Enter when ready."


async def test_at_40x12_each_players_score_stays_beside_their_name() -> None:
    app = make_app(THREE_TILES, ("Ana", "Luis"), "2", "3", "5", "6,6", bots=("medium",))
    async with app.run_test(size=(40, 12)) as pilot:
        await press(pilot, "enter", "enter")  # the start: the bot's 5 wins it, and its 6+6 scores 6
        assert app.query_one(Scoreboard).has_class("-inline")
        lines = region_text(app, "#scores").splitlines()
        assert any(re.search(r"Bot \(medium\) ⚙ 6\b", line) for line in lines), lines
        assert any("Ana" in line for line in lines) and any("Luis" in line for line in lines), lines
