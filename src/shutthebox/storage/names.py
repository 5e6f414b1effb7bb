"""Look-alike keys of a name: two profiles may not hold names a reader could take for one another.

Names are compared after Unicode compatibility normalisation (fullwidth
``Ana`` is ``Ana``), case folding (``ANA`` is ``ana``) and the Unicode
confusables (UTS #39: Cyrillic and Greek capital A look like Latin ``A``;
``l``, ``I`` and ``1`` look alike), as listed by the `confusable_homoglyphs` data. Each name
gets its keys (the skeleton of the folded name and the folded skeleton, which
differ for ``I``); a profile's keys are unique in the database, so a clash is
refused by the database itself, even between two requests at once.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from functools import cache
from importlib import resources

from shutthebox.core.names import unseen_removed

__all__ = ["look_alike_keys"]


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to the lowest code point of its class (ASCII when there is
    one), or to the ASCII letters it is drawn like (``m`` is ``rn``)."""
    table = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data = json.loads(table.read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    spelled: dict[str, str] = {}  # a letter drawn like two: m is rn
    for char, glyphs in data.items():
        for glyph in glyphs:
            other = glyph["c"].replace("\u200e", "")
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif len(char) == 1 and other.isascii() and other.isalnum():
                spelled[char] = min(spelled.get(char, other), other)
    skeleton = {char: spelled.get(find(char), find(char)) for char in parent}
    for char, spelling in spelled.items():
        skeleton.setdefault(char, spelling)
    return skeleton


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def look_alike_keys(name: str) -> frozenset[str]:
    """The keys under which ``name`` is held (SHA-256 in hex: a long name's keys fit any column):
    equal keys, look-alike names."""
    plain = unicodedata.normalize("NFKC", unseen_removed(name))
    keys = {_fold(_skeleton(plain)), _skeleton(_fold(plain))}
    return frozenset(hashlib.sha256(key.encode("utf-8")).hexdigest() for key in keys)
