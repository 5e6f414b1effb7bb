"""The game screen at every size from 40x12 to 200x60: every tile and player shown, or a notice."""

from __future__ import annotations

import pytest
from tui_support import make_app, press

from shutthebox import Mode, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.view import fit
from shutthebox.term.widgets import KeyBar, Tile

SIZES = [(40, 12), (60, 20), (80, 24), (120, 40), (200, 60)]
SEVEN = ("Ana", "Bea", "Cid", "Dora", "Eli", "Fay", "Gus")


def screen_text(app: ShutTheBoxApp) -> str:
    """What the terminal shows now, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def tile_shown(app: ShutTheBoxApp, tile: Tile) -> bool:
    """Whether the whole tile is on the screen, drawn at the width it was given."""
    region = tile.region
    if not region or region.right > app.size.width or region.bottom > app.size.height:
        return False
    corners = [(region.x, region.y), (region.right - 1, region.bottom - 1)]
    return all(app.screen.get_widget_at(x, y)[0] is tile for x, y in corners)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tiles", [9, 12])
@pytest.mark.parametrize("players", [SEVEN, ("Ana",)])
async def test_every_tile_and_player_is_shown(
    size: tuple[int, int], tiles: int, players: tuple[str, ...]
) -> None:
    mode = Mode.SOLO if len(players) == 1 else Mode.ROUND
    app = make_app(Rules(tiles=tiles, mode=mode), players, "3,4")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = app.query(Tile)
        assert [t.view.number for t in shown] == list(range(1, tiles + 1))
        assert all(tile_shown(app, tile) for tile in shown), [t.region for t in shown]
        text = screen_text(app)
        for name in players:
            assert name in text, (name, text)
        assert "too small" not in text
        assert " roll " in text and text.rstrip().endswith("quit"), text  # the key bar whole, not cut


@pytest.mark.parametrize("size", [(39, 24), (80, 11), (30, 8)])
async def test_below_the_least_size_a_notice_shows(size: tuple[int, int]) -> None:
    app = make_app(Rules(tiles=12, mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "The terminal is too small" in text
        assert not any(tile_shown(app, tile) for tile in app.query(Tile))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in screen_text(app)
        assert all(tile_shown(app, tile) for tile in app.query(Tile))


def test_the_board_grows_on_a_big_terminal_and_shrinks_on_a_narrow_one() -> None:
    assert fit(120, 40, 12, 2).tiles == "big"
    assert fit(80, 24, 12, 2).tiles == "normal"
    assert fit(60, 20, 12, 2).tiles == "compact"
    assert fit(40, 12, 12, 7).tiles == "tiny"
    assert fit(60, 20, 9, 7).short and not fit(80, 24, 9, 7).short


async def test_the_header_wraps_instead_of_being_cut() -> None:
    rules = Rules.preset("pub")
    app = make_app(rules, ("Ana", "Luis"), "3,4")
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        title = app.query_one("#title")
        assert title.size.height >= 2
        text = " ".join(screen_text(app).split())
        assert "at most 2 tiles" in text


async def test_the_board_takes_room_on_a_big_terminal() -> None:
    app = make_app(Rules(tiles=12, mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        tile = app.query_one("#tile-12", Tile)
        assert (tile.region.width, tile.region.height) == (8, 6)
        assert app.query_one("#log").region.height <= 16


async def test_the_tiles_that_make_the_roll_stand_out_even_without_colour() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "4,4", "6,3")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "8", "enter", "enter")  # 9 to make: 9, 7+2, 6+3, … but not 8 (shut)
        usable = [t.view.number for t in app.query(Tile) if t.view.usable]
        assert usable == [1, 2, 3, 4, 5, 6, 7, 9]
        nine, eight = app.query_one("#tile-9", Tile), app.query_one("#tile-8", Tile)
        assert nine.rich_style.bold and not eight.rich_style.bold  # bold survives NO_COLOR
        assert nine.rich_style.color != eight.rich_style.color
        assert "6" in str(app.query_one("#dice").render())


async def test_the_last_roll_stays_visible_after_the_move() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "4,4", "6,3")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "enter", "8", "enter")
        assert "(8)" in str(app.query_one("#dice").render())


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 24)])
async def test_the_key_bar_is_never_cut(size: tuple[int, int]) -> None:
    """Picking tiles on 12 tiles has the longest bar: at 60 columns it once lost "quit"."""
    app = make_app(Rules(tiles=12, mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "enter")
        await pilot.pause()
        bar = app.query_one(KeyBar)
        rows = screen_text(app).splitlines()[bar.region.y : bar.region.bottom]
        shown = "\n".join(rows)
        words = " ".join(shown.split())
        for key, label in bar.keys:
            assert f"{key} {label}" in words, (key, label, shown)
