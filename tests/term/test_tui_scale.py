"""The game screen fills the window it is given (issue 30): the box centred and scaled with the width
and the height, no band of empty rows, a panel at the end of a game, a bot's last board held."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from shutthebox import Mode, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.widgets import Tile, TileRow
from tests.support.tui import make_app, press, state

ONE_TILE = Rules(mode=Mode.ROUND, max_tiles=1)


def _game(tiles: int = 9) -> ShutTheBoxApp:
    return make_app(Rules(tiles=tiles, mode=Mode.ROUND), ("Ana", "Luis"), "1", "3", "3,4", "6,6")


def _screen(app: ShutTheBoxApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize(("size", "tiles"), [((120, 40), 9), ((200, 60), 9), ((200, 60), 12), ((80, 24), 9)])
async def test_the_tiles_sit_in_the_middle_of_the_window(size: tuple[int, int], tiles: int) -> None:
    app = _game(tiles)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "enter", "enter", "enter")
        shown = list(app.query(Tile))
        left, right = shown[0].region.x, size[0] - shown[-1].region.right
        assert abs(left - right) <= 2, (left, right)
        row = app.query_one(TileRow).region
        assert row.width < size[0] - 4  # the box is as wide as its tiles, not a band across the window


async def test_a_wide_window_gets_bigger_tiles() -> None:
    widths = {}
    for size in ((120, 40), (200, 60)):
        app = _game()
        async with app.run_test(size=size) as pilot:
            await press(pilot, "enter")
            widths[size] = app.query(Tile).first().region.width
    assert widths[(200, 60)] > widths[(120, 40)] >= 8


async def test_the_pip_dice_and_the_framed_box_come_as_soon_as_they_fit() -> None:
    app = _game()
    async with app.run_test(size=(80, 30)) as pilot:
        await press(pilot, "enter", "enter", "enter")
        text = "\n".join(_screen(app))
        assert text.count("●") == 3 + 4  # pip dice
        assert app.query_one(TileRow).has_class("-big") and "┏" in text


async def test_no_band_of_empty_rows_under_the_box_at_80x24() -> None:
    app = _game()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "enter", "enter")
        rows = _screen(app)
        status = next(i for i, row in enumerate(rows) if "Luis: shut tiles" in row)
        log_top = next(i for i, row in enumerate(rows) if "▔▔▔" in row)
        assert log_top - status <= 2, rows


async def test_the_end_of_a_game_shows_a_summary_panel() -> None:
    app = make_app(ONE_TILE, ("Ana", "Luis"), "5", "3", "6,6", "3,4", "6,6")  # Ana 45, Luis 38
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "enter", "enter", "enter", "enter", "7", "enter", "enter")
        assert state(app).is_over
        panel = app.query_one("#summary", Static)
        assert panel.display and panel.region.height >= 4
        text = str(panel.render())
        assert "Luis wins" in text and "Ana" in text and "45" in text and "38" in text, text


async def test_a_bots_last_board_stays_until_the_next_press() -> None:
    # the bot (5) starts: 3+4 shuts 7, 6+6 ends its turn; then Ana's turn
    app = make_app(ONE_TILE, ("Ana",), "3", "5", "3,4", "6,6", "6,6", bots=("heuristic",))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter")  # Ana's die of the roll-off; then the bot's whole turn
        assert state(app).actor == 0  # Ana's turn
        shut = [tile.view.number for tile in app.query(Tile) if not tile.view.is_open]
        assert shut == [7], shut  # the bot's board, held
        assert "next player" in str(app.query_one("#keys").render())
        await press(pilot, "enter")
        assert all(tile.view.is_open for tile in app.query(Tile))  # Ana's own board
