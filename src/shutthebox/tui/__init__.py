"""The terminal game (Textual): ``shutthebox play`` when standard output is a terminal.

`ShutTheBoxApp` holds one immutable `Match` and redraws from it; `widgets`
draw, `view` turns the state into what they draw, `screens` hold the setup
form and the review, and `keys` is the keyboard as data.
"""

from shutthebox.tui.app import ShutTheBoxApp

__all__ = ["ShutTheBoxApp"]
