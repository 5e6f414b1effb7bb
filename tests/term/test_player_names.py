"""Players' names at the terminal: cleaned as every name is kept, refused before the game when the
history would refuse them, and shown as text (a name may hold "[", never taken for markup)."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input

from shutthebox import Mode, Phase, Rules
from shutthebox.core.errors import ParseError
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import ReviewScreen, SetupScreen
from shutthebox.term.session import PlaySetup
from tests.support.tui import SIZE, dice, log_text, make_app, press, rendered, scoreboard, shown, state

SOLO = Rules(mode=Mode.SOLO)
BAD_NAMES = [
    pytest.param("e\x1b[2Jvil", "holds an invisible or control character (U+001B)", id="escape"),
    pytest.param("An\u202ea", "holds an invisible or control character (U+202E)", id="bidi-override"),
    pytest.param("Ana\u200b", "holds an invisible or control character (U+200B)", id="zero-width-space"),
    pytest.param("A" * 25, "is longer than 24 characters", id="too-long"),
    pytest.param("\u200d", "a name needs at least one visible character", id="nothing-visible"),
]


def test_a_setup_keeps_the_names_cleaned() -> None:
    setup = PlaySetup(rules=Rules(), humans=("  Ana   María ", "Jose\u0301"), bots=("easy",))
    assert setup.humans == ("Ana María", "José")  # spaces made one, composed
    assert setup.names == ("Ana María", "José", "Bot (easy)")
    assert setup.new_game().state.players == setup.names


@pytest.mark.parametrize(("name", "why"), BAD_NAMES)
def test_a_setup_refuses_a_name_the_history_would_refuse(name: str, why: str) -> None:
    """Regression: such a name started a game that could not be saved at its end."""
    with pytest.raises(ParseError, match=re.escape(why)):
        PlaySetup(rules=SOLO, humans=(name,))


@pytest.mark.parametrize(("name", "why"), BAD_NAMES)
async def test_the_setup_screen_refuses_such_a_name_on_the_screen(name: str, why: str) -> None:
    app = ShutTheBoxApp(None, bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        assert isinstance(form, SetupScreen)
        form.query_one("#players", Input).value = f"Luis, {name}"
        await press(pilot, "ctrl+s")
        assert app.screen is form and app.state is None  # no game began
        error = str(form.query_one("#setup-error").render())
        assert error.startswith("Not allowed: ") and why in error
        assert "\x1b" not in error and "\u202e" not in error  # quoted as escapes, never drawn
        form.query_one("#players", Input).value = "Luis,  Ana   María "
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, SetupScreen)
        assert state(app).players == ("Luis", "Ana María")


async def test_a_name_that_looks_like_markup_is_shown_as_it_is() -> None:
    """Regression: a player named "a[/]b" stopped the game with a MarkupError at its first roll."""
    name = "a[/]b [bold]"
    app = make_app(SOLO, (name,), "1,1", "1,1")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        assert state(app).phase is Phase.MOVE
        assert shown(app, "#status").startswith(f"{name}: ")
        assert name in scoreboard(app)
        await press(pilot, "2", "enter", "enter")
        assert state(app).is_over and f"{name} scores 43" in log_text(app)
        await press(pilot, "v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert rendered(review.table()).splitlines()[2].startswith(f" {name} ")  # its first decision


async def test_the_setup_screen_takes_a_name_that_looks_like_markup() -> None:
    app = ShutTheBoxApp(None, dice=dice("1,1"), bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        form.query_one("#players", Input).value = "[/], [red]Eva"
        await press(pilot, "ctrl+s")
        assert state(app).players == ("[/]", "[red]Eva")
