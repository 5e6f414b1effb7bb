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

import json
import re
import unicodedata
from functools import cache
from importlib import resources

__all__ = ["look_alike_keys"]


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to the lowest code point of its class (ASCII when there is one)."""
    table = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data = json.loads(table.read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    for char, glyphs in data.items():
        for glyph in glyphs:
            other = glyph["c"].replace("\u200e", "")
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent}


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


_INVISIBLE = re.compile(
    "[\u034f\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\U000e0100-\U000e01ef]"
    "|(?<![\U0001f3f4\U000e0020-\U000e007f])[\U000e0020-\U000e007f]+"
)
"""What a reader cannot see: joiners, variation selectors, the grapheme joiner, and tag characters
anywhere but in a flag's tag sequence (after U+1F3F4)."""


def look_alike_keys(name: str) -> frozenset[str]:
    """The keys under which ``name`` is held: equal keys, look-alike names."""
    plain = unicodedata.normalize("NFKC", _INVISIBLE.sub("", name))
    return frozenset({_fold(_skeleton(plain)), _skeleton(_fold(plain))})
