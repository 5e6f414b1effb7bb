"""The setup form: presets first, a visible focus, a key legend, and lists that open full width."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Label, Select, Static
from textual.widgets._select import SelectOverlay

from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import SetupScreen
from tests.support.tui import SIZE, dice, press

pytestmark = pytest.mark.slow  # the Textual app's setup screen, field by field


async def test_the_tiles_list_opens_as_wide_as_its_field() -> None:
    app = ShutTheBoxApp(None, dice=dice("3,4"), bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        tiles = app.screen.query_one("#tiles", Select)
        tiles.focus()
        await press(pilot, "enter")
        await pilot.pause()
        overlay = tiles.query_one(SelectOverlay)
        assert tiles.expanded
        assert overlay.region.width == tiles.region.width and overlay.region.x == tiles.region.x
        assert overlay.region.right <= SIZE[0]


async def test_the_preset_comes_first_and_fills_in_the_rules() -> None:
    app = ShutTheBoxApp(None, dice=dice("3,4"), bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        assert isinstance(form, SetupScreen)
        first = form.query(".field").first()
        assert first.query_one(Select).id == "preset"
        form.query_one("#preset", Select).value = "pub"
        await pilot.pause()
        assert form.query_one("#max_tiles", Select).value == 2
        assert form.query_one("#one_die", Select).value == "sum-le-6"
        assert form.query_one("#one_die_forced", Select).value == "on"
        form.query_one("#players", Input).value = "Ana"
        await press(pilot, "ctrl+s")
        assert app.setup is not None and app.setup.rules.max_tiles == 2


async def test_the_focused_field_stands_out_and_the_keys_are_listed() -> None:
    app = ShutTheBoxApp(None, dice=dice("3,4"), bot_delay=0, handover_delay=0, repeat_gap=0)
    async with app.run_test(size=SIZE) as pilot:
        form = app.screen
        legend = str(form.query_one("#setup-keys", Static).render())
        assert "Ctrl+S" in legend and "Esc" in legend and "Tab" in legend
        labels = list(form.query(".field-label").results(Label))
        focused = form.query_one("#players", Input).parent
        assert focused is not None
        mine = focused.query_one(Label)
        others = [label for label in labels if label is not mine]
        assert all(mine.styles.color != label.styles.color for label in others)
        await press(pilot, "tab")
        assert mine.styles.color == others[0].styles.color  # the focus moved on, and its mark with it
