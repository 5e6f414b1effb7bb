"""The look of the game screen, laid out to read well from 40x12 to 200x60.

The app sets classes by the terminal's size: the screen is ``-short`` (one-line
scoreboard and dice) or ``-tall`` (big tiles), or ``-too-small`` (only a notice);
the tile row is ``-big``, ``-compact`` or ``-tiny`` so that every tile fits.

The box is wood and the tiles cream, with the tiles that can make the roll in gold; Textual
brings the colours down to 256 or 16 where the terminal has no more, and drops them all under
``NO_COLOR`` (greys too), where bold and a double frame mark those tiles and reverse the picked ones.

The lines under the tiles have fixed heights, so a change of words redraws
them without a new layout of the whole screen; the status and the message grow
to the lines their words wrap to (the game screen sets their heights), never cut.
"""

__all__ = ["GAME_CSS", "PALETTE"]

PALETTE = {  # each stays distinct from the others and from the box when brought down to 16 colours
    "box": "#5c3a1e",
    "tile": "#c9ab85",
    "active": "#f3e4c6",
    "usable": "#ffd35c",
    "shut": "#9a6b3a",
    "selected": "#ff8a3d",
    "frame": "#3b2412",
}

GAME_CSS = "".join(f"$stb-{name}: {value};\n" for name, value in PALETTE.items()) + """
Screen {
    layout: vertical;
    align: center middle;  /* on a big window the game sits in its middle, not in a corner */
}
#title {
    height: auto;
    background: $primary;
    color: $text;
    text-style: bold;
    padding: 0 1;
}
#top-row {
    height: auto;
}
#top {
    height: auto;
    width: 100%;
    max-width: 110;  /* the scores and the dice stay together over the box on a wide window */
}
#scores {
    width: 1fr;
    height: auto;
    padding: 0 1;
    overflow-y: auto;
    scrollbar-size-vertical: 1;
}
#dice {
    width: 22;
    height: 3;
}
#board {
    height: auto;
    align: center top;
}
TileRow {
    layout: horizontal;
    width: auto;
    height: 4;
    padding: 0 1;
    background: $stb-box;
}
.tile {
    width: 6;
    height: 4;
    color: $stb-tile;
}
.tile.-active {
    color: $stb-active;
}
.tile.-usable {
    color: $stb-usable;
    text-style: bold;
}
.tile.-shut {
    color: $stb-shut;
}
.tile.-cursor {
    background: $stb-frame;
}
.tile.-selected {
    color: $stb-selected;
    text-style: bold reverse;
}
#status {
    height: 1;
    padding: 0 1;
    text-style: bold;
}
#message {
    height: 1;
    padding: 0 1;
    color: $error;
}
#hint {
    height: auto;
    max-height: 4;
    padding: 0 1;
    color: $success;
}
#hint.-empty {
    display: none;
}
#summary {
    display: none;
    height: auto;
    width: auto;
    min-width: 40;
    max-width: 100%;
    border: round $success;
    padding: 0 2;
}
#summary-row {
    height: auto;
    align: center top;
}
Screen.-over #summary {
    display: block;
}
Screen.-short #summary {
    display: none;  /* a short terminal: the status line says who won, the log the rest */
}
#log {
    height: 1fr;
    min-height: 3;
    padding: 0 1;
    border-top: hkey $panel-lighten-1;
    scrollbar-size-vertical: 1;
    scrollbar-gutter: stable;  /* the lines keep their width when the scrollbar comes */
}
#keys {
    height: auto;
    max-height: 2;
    dock: bottom;
    padding: 0 1;
}
#too-small {
    display: none;
    width: 100%;
    height: 100%;
    content-align: center middle;
    text-align: center;
    color: $warning;
}
Screen.-too-small > * {
    display: none;
}
Screen.-too-small > #too-small {
    display: block;
}
TileRow.-big {
    height: 9;
    padding: 1 1 0 1;
    border: heavy $stb-frame;
}
TileRow.-big .tile {
    width: 8;
    height: 6;
}
TileRow.-huge {
    height: 12;
    padding: 1 2 0 2;
    border: heavy $stb-frame;
}
TileRow.-huge .tile {
    width: 11;
    height: 9;
}
TileRow.-giant {
    height: 16;
    padding: 1 3 0 3;
    border: heavy $stb-frame;
}
TileRow.-giant .tile {
    width: 15;
    height: 13;
}
TileRow.-compact .tile {
    width: 4;
}
TileRow.-tiny {
    height: 2;
}
TileRow.-tiny .tile {
    width: 3;
    height: 2;
}
Screen.-short #dice {
    width: 14;
    height: 1;
}
Screen.-short #scores {
    max-height: 3;
}
Screen.-short #hint {
    max-height: 2;
}
Screen.-short #log {
    min-height: 0;
    border-top: none;
}
#dice.-big {
    width: 40;
    height: 5;
}
Screen.-tall #log {
    max-height: 16;
}
Screen.-tall #dice {
    margin-right: 2;
}
"""
