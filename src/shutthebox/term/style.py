"""The look of the game screen, laid out to read well in a terminal of 80x24.

The lines under the tiles have fixed heights, so a change of words redraws
them without a new layout of the whole screen.
"""

__all__ = ["GAME_CSS"]

GAME_CSS = """
Screen {
    layout: vertical;
}
#title {
    height: 1;
    background: $primary;
    color: $text;
    text-style: bold;
    padding: 0 1;
}
#top {
    height: auto;
    max-height: 7;
}
#scores {
    width: 1fr;
    height: auto;
    padding: 0 1;
}
#dice {
    width: 22;
    height: 3;
}
#tiles {
    layout: horizontal;
    height: 4;
    padding: 0 1;
}
.tile {
    width: 6;
    height: 4;
    color: $text-muted;
}
.tile.-active {
    color: $text;
    text-style: bold;
}
.tile.-shut {
    color: $text-disabled;
}
.tile.-selected {
    color: $warning;
    text-style: bold;
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
    height: 4;
    padding: 0 1;
    color: $success;
}
#log {
    height: 1fr;
    min-height: 3;
    padding: 0 1;
    border-top: hkey $panel-lighten-1;
    scrollbar-size-vertical: 1;
}
#keys {
    height: 1;
    dock: bottom;
    padding: 0 1;
}
"""
