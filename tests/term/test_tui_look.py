"""The look of the terminal game: pip dice, a palette that survives 256 and 16 colours and
``NO_COLOR``, and snapshots of the main screens in colour and without.

The snapshots are Textual's own SVG screenshots (`App.export_screenshot`), kept in
``tests/term/snapshots``. After a change of look, look at the new pictures and keep them with
``SHUTTHEBOX_UPDATE_SNAPSHOTS=1 pytest tests/term/test_tui_look.py``; otherwise a screen that
differs from its picture fails, naming the file written beside it for comparison.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from itertools import combinations
from pathlib import Path

import pytest
from rich.color import Color, ColorSystem
from textual.pilot import Pilot

from shutthebox import Mode, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.style import PALETTE
from shutthebox.term.widgets import Tile, pip_face
from tests.support.tmux import terminal
from tests.support.tui import dice, make_app, press

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("SHUTTHEBOX_UPDATE_SNAPSHOTS") == "1"


def test_each_die_face_has_its_number_of_pips_where_a_real_die_has_them() -> None:
    for face in range(1, 7):
        drawn = pip_face(face)
        inside = [line[1:-1] for line in drawn[1:-1]]
        assert "".join(inside).count("●") == face
        assert inside == [line[::-1] for line in reversed(inside)]  # a half turn leaves a face as it is
        assert {len(line) for line in drawn} == {9}
    assert pip_face(1)[2] == "│   ●   │"
    assert "?" in pip_face(None)[2] and "●" not in "".join(pip_face(None))


async def test_a_tall_terminal_draws_the_dice_with_their_pips() -> None:
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "3,4")
    async with app.run_test(size=(120, 40)) as pilot:
        await press(pilot, "enter")
        await pilot.pause()
        text = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert text.count("●") == 3 + 4 and "= 7" in text


@pytest.mark.parametrize("system", [ColorSystem.EIGHT_BIT, ColorSystem.STANDARD])
def test_the_tile_colours_stay_apart_in_256_and_16_colours(system: ColorSystem) -> None:
    """A terminal with fewer colours gets the nearest of its own: every state of a tile must still
    differ from the others and from the box (in 16 colours, shut tiles once vanished into it)."""
    brought_down = {name: Color.parse(value).downgrade(system).number for name, value in PALETTE.items()}
    for (one, a), (other, b) in combinations(brought_down.items(), 2):
        assert a != b, (system, one, other, brought_down)


@pytest.mark.slow
async def test_without_colour_bold_and_a_double_frame_mark_the_tiles_that_make_the_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(Rules(mode=Mode.SOLO), ("Ana",), "4,4", "5,6")
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        await press(pilot, "enter")  # 8: every tile but 8 and 9 can make it
        await pilot.pause()
        for tile in app.query(Tile):
            segments = [segment for strip in tile.render_lines(tile.region.reset_offset) for segment in strip]
            styles = [segment.style for segment in segments if segment.text.strip() and segment.style]
            colours = {c for style in styles for c in (style.color, style.bgcolor) if c is not None}
            assert all(c.is_default for c in colours), (tile.view.number, colours)  # no greys either
            assert any(style.bold for style in styles) == tile.view.usable, tile.view.number
            framed_double = "╔" in "".join(segment.text for segment in segments)
            assert framed_double == tile.view.usable, tile.view.number  # bold may look like nothing
        assert [tile.view.number for tile in app.query(Tile) if tile.view.usable] == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.slow
def test_no_color_sends_no_colour_to_a_real_terminal(tmp_path: Path) -> None:
    """Under ``NO_COLOR`` the terminal gets no colour at all (once, 256-colour greys), in tmux."""
    args = ["play", "Ana", "--seed", "3", "--lang", "en"]
    with terminal(args, tmp=tmp_path, env={"NO_COLOR": "1"}) as term:
        term.wait_for("Ana: roll two dice.")
        term.keys("Enter")
        term.wait_for("Ana: shut tiles that make")
        shown = term.screen(escapes=True)
    codes = [code for sgr in re.findall(r"\x1b\[([0-9;:]*)m", shown) for code in sgr.split(";")]
    assert "1" in codes and "╔" in shown  # bold and the double frame: the tiles that make the roll
    colour_codes = {*range(30, 39), *range(40, 49), *range(90, 98), *range(100, 108)}  # 39, 49: default
    assert not [code for code in codes if code.isdigit() and int(code) in colour_codes]


Step = Callable[[Pilot[object]], Awaitable[None]]


async def _roll(pilot: Pilot[object]) -> None:
    """Who starts rolled (1, then 3: Luis), then Luis's first roll (3+4)."""
    for _ in range(3):
        await press(pilot, "enter")
        await pilot.pause()


async def _roll_and_pick(pilot: Pilot[object]) -> None:
    await _roll(pilot)
    await press(pilot, "3")


async def _help(pilot: Pilot[object]) -> None:
    await _roll(pilot)
    await press(pilot, "question_mark")


async def _nothing(pilot: Pilot[object]) -> None:
    return None


def _game(tiles: int = 9) -> ShutTheBoxApp:
    return make_app(Rules(tiles=tiles, mode=Mode.ROUND), ("Ana", "Luis"), "1", "3", "3,4", "6,6")


SEVEN = ("Ana", "Bea", "Cid", "Dora", "Eli", "Fay", "Gus")


def _seven() -> ShutTheBoxApp:
    """Seven players on 12 tiles: Gus rolls highest for the start (6), then 3+4."""
    return make_app(Rules(tiles=12, mode=Mode.ROUND), SEVEN, "1", "2", "3", "4", "5", "1", "6", "3,4")


async def _seven_roll(pilot: Pilot[object]) -> None:
    for _ in range(8):
        await press(pilot, "enter")
        await pilot.pause()


def _setup() -> ShutTheBoxApp:
    return ShutTheBoxApp(None, dice=dice("3,4"), bot_delay=0, handover_delay=0, repeat_gap=0)


SCREENS: dict[str, tuple[Callable[[], ShutTheBoxApp], tuple[int, int], Step]] = {
    "game-80x24": (_game, (80, 24), _roll_and_pick),
    "game-12-tiles-120x40": (lambda: _game(12), (120, 40), _roll),
    "game-seven-players-60x20": (_seven, (60, 20), _seven_roll),
    "help-80x24": (_game, (80, 24), _help),
    "setup-80x24": (_setup, (80, 24), _nothing),
    "too-small-40x10": (_game, (40, 10), _nothing),
}


@pytest.mark.parametrize("colour", ["colour", "no-colour"])
@pytest.mark.parametrize("name", list(SCREENS))
async def test_the_main_screens_look_as_their_pictures(
    name: str, colour: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if colour == "no-colour":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    make, size, step = SCREENS[name]
    app = make()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await step(pilot)  # type: ignore[arg-type]
        await pilot.pause()
        picture = app.export_screenshot(title=name)
    kept = SNAPSHOTS / f"{name}-{colour}.svg"
    if UPDATE or not kept.exists():
        kept.parent.mkdir(exist_ok=True)
        kept.write_text(picture, encoding="utf-8")
        assert not UPDATE or kept.exists()
        if not UPDATE:
            pytest.fail(f"no picture of {name} was kept: one was written to {kept}; look at it and commit it")
        return
    if picture != kept.read_text(encoding="utf-8"):
        now = tmp_path / kept.name
        now.write_text(picture, encoding="utf-8")
        pytest.fail(f"{name} ({colour}) differs from {kept}: the screen now is in {now}")
