"""Player names: any name a person can type, cleaned the same way everywhere.

A name is NFC-normalised, its runs of spaces made one, and trimmed. It may hold
letters of any script, accents, "/", and emoji joined into one (family, flags,
skin tones); it may not hold control or invisible formatting characters
(bidirectional overrides among them), and it is at most `NAME_LENGTH`
characters as a person counts them (a joined emoji is one).
"""

from __future__ import annotations

import re
import unicodedata

from shutthebox.core.errors import ParseError

__all__ = ["NAME_LENGTH", "clean_name", "unseen_removed", "visible_length"]

NAME_LENGTH = 24
"""The most characters a name shows, counting a joined emoji or an accented letter as one."""
CODE_POINTS = 64
"""The most code points behind them (a family emoji takes seven)."""

MARKS_PER_CHARACTER = 4
"""The most combining marks one character carries (a name piled with marks spills over others)."""

_JOINERS = {"\u200c", "\u200d"}  # zero-width (non-)joiner: joined emoji, some scripts
_FORBIDDEN = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
_SPACES = {"\t", "\n", "\r"}  # pasted along with a name: made one space like the others
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5"}
"""Letters that draw nothing (Hangul fillers, the blank Braille pattern, Khmer inherent vowels)."""
_UNSEEN = re.compile(
    "[\u034f\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\U000e0100-\U000e01ef]"
    "|(?<![\U0001f3f4\U000e0020-\U000e007f])[\U000e0020-\U000e007f]+"
)
"""What a reader cannot see in a name: joiners, variation selectors, the grapheme joiner, and tag
characters anywhere but in a flag's tag sequence (after U+1F3F4)."""


_PILED = re.compile(
    f"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]{{{MARKS_PER_CHARACTER + 1}}}"
)
"""More combining marks in a row than one character carries."""


def unseen_removed(name: str) -> str:
    """``name`` without what a reader cannot see: two names equal after this look the same."""
    return _UNSEEN.sub("", name)


def _allowed_format(char: str) -> bool:
    """The invisible characters a typed name may need: joiners and emoji tag characters."""
    return char in _JOINERS or 0xE0020 <= ord(char) <= 0xE007F


def _extends(char: str) -> bool:
    """A code point drawn as part of the character before it."""
    code = ord(char)
    return (
        unicodedata.category(char) in {"Mn", "Me", "Mc"}
        or char in _JOINERS
        or 0xFE00 <= code <= 0xFE0F  # variation selectors (text or emoji style)
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (subdivision flags)
    )


def visible_length(name: str) -> int:
    """How many characters a person sees: marks, joiners and what a joiner joins count for nothing,
    and a pair of regional indicators (a flag) is one."""
    count, joined, flag_half = 0, False, False
    for char in name:
        if joined or _extends(char):
            joined = char == "\u200d"
            continue
        if 0x1F1E6 <= ord(char) <= 0x1F1FF:
            flag_half = not flag_half
            if not flag_half:
                continue
        count += 1
    return count


def clean_name(name: str) -> str:
    """``name`` as it is kept and shown, or a `ParseError` saying what is wrong with it."""
    if not isinstance(name, str):
        raise ParseError("a name is text, not {value!r}", value=name)
    composed = unicodedata.normalize("NFC", name)
    for char in composed:  # before collapsing spaces: str.split() takes \x1c-\x1f, NEL, Zl and Zp for spaces
        category = unicodedata.category(char)
        if char in _SPACES:
            continue
        if char in _BLANKS or category in _FORBIDDEN or (category == "Cf" and not _allowed_format(char)):
            raise ParseError(
                "the name {name!r} holds an invisible or control character (U+{code:04X})",
                name=name, code=ord(char),
            )
    cleaned = " ".join(composed.split())
    if not cleaned or visible_length(cleaned) == 0:  # joiners, selectors or tags alone show nothing
        raise ParseError("a name needs at least one visible character, not {name!r}", name=name)
    if visible_length(cleaned) > NAME_LENGTH:
        raise ParseError(
            "the name {name!r} is longer than {most} characters", name=name, most=NAME_LENGTH
        )
    if len(cleaned) > CODE_POINTS:
        raise ParseError(
            "the name {name!r} is built of more than {most} code points (joined emoji take several)",
            name=name, most=CODE_POINTS,
        )
    if cleaned in {".", ".."}:
        raise ParseError(
            "the name {name!r} reads as a folder in a web address (where it names the player): add a letter",
            name=name,
        )
    if _PILED.search(cleaned):
        raise ParseError(
            "the name {name!r} piles more than {most} marks on one character",
            name=name, most=MARKS_PER_CHARACTER,
        )
    return cleaned
