"""Text read from a record, a game file or the history, made safe to print on a terminal.

A record may hold any text: a player's name with ``ESC [2K`` and a carriage return
in it erases the line it is printed on and writes a forged one ("Replay matches the
record.") in its place; another control sequence changes the window's title or the
colours, and a direction override (U+202E) turns the rest of a line around. The
commands that print what a file or a database holds (``replay``, ``review``,
``verify``, ``scores``, ``stats`` and every error line) pass it through `printable`,
which writes each such character as the escape a record's JSON writes it with,
``\\u001b``: seen, never obeyed, and the same in the file and on the screen. Nothing
is refused (old records may hold such names); the terminal game's screens draw text
with Textual, which obeys no escape.
"""

from __future__ import annotations

import unicodedata

__all__ = ["hidden", "printable"]

_SHOWN_FORMATS = {"\u200c", "\u200d"}
"""Invisible formatting a name may need (`shutthebox.core.names`): the zero-width (non-)joiner of
joined emoji and of some scripts; with the tag characters of a subdivision's flag (U+E0020 to U+E007F)."""


def hidden(char: str) -> bool:
    """A character a terminal obeys or hides rather than shows: a control character (C0, DEL, C1), a
    line or paragraph separator, a surrogate (which cannot even be printed), or invisible formatting,
    the direction overrides and isolates (U+202A to U+202E, U+2066 to U+2069) among it, but for the joiners
    and the tags an emoji is built of."""
    category = unicodedata.category(char)
    if category in {"Cc", "Cs", "Zl", "Zp"}:
        return True
    return category == "Cf" and char not in _SHOWN_FORMATS and not 0xE0020 <= ord(char) <= 0xE007F


def _escape(char: str) -> str:
    """``\\u001b``, as JSON writes a character; one outside the first plane as its two halves, as JSON
    does (``\\udb40\\udc01``)."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def printable(text: str) -> str:
    """``text`` with each `hidden` character written as its JSON escape (``\\u202e``), the rest as it
    is. A JSON text stays valid JSON, meaning the same: JSON writes a control character in a string
    as such an escape, and none of them may stand outside one."""
    if text.isprintable():  # the usual case, at once (a space other than " " is not, but is kept)
        return text
    return "".join(_escape(char) if hidden(char) else char for char in text)
