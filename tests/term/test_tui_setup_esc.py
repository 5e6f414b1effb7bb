"""The setup screen's Esc and its placeholders (issue 30)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Input, Static

from shutthebox import Mode, Rules
from shutthebox.i18n import Lang, activate
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import SetupScreen
from tests.support.tui import SIZE, dice, make_app, press


def _setup_app(lang: Lang = "en") -> ShutTheBoxApp:
    activate(lang)
    return ShutTheBoxApp(None, lang=lang, dice=dice("3,4"), bot_delay=0, handover_delay=0, repeat_gap=0)


async def test_esc_with_no_game_quits_and_the_legend_says_so() -> None:
    app = _setup_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SetupScreen)
        legend = str(app.screen.query_one("#setup-keys", Static).render())
        assert "Esc: quit" in legend, legend
        await press(pilot, "escape")
        await pilot.pause()
        assert not app.is_running
    assert app.return_value is None


async def test_esc_with_a_game_under_the_form_goes_back_to_it() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s", "y")  # the game in play asks first
        assert isinstance(app.screen, SetupScreen)
        assert "Esc: back" in str(app.screen.query_one("#setup-keys", Static).render())
        await press(pilot, "escape")
        assert not isinstance(app.screen, SetupScreen) and app.is_running


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_placeholders_fit_their_fields_at_80_columns(lang: Lang) -> None:
    app = _setup_app(lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for field in app.screen.query(Input):
            if field.placeholder:
                width = field.content_region.width
                assert Text(field.placeholder).cell_len <= width, (field.id, field.placeholder, width)
