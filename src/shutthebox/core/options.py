"""The classic game's option values, as plain data.

The words of the rules (`i18n.words`) read stored rules keys against these
before any game starts, so they live apart from the `Rules` value (a
dataclass, slower to import) and its enums.
"""

from __future__ import annotations

__all__ = ["CLASSIC"]

CLASSIC: dict[str, object] = {
    "tiles": 9,
    "one_die": "high-shut",
    "one_die_forced": False,
    "max_tiles": None,
    "scoring": "sum",
    "mode": "round",
    "shut_wins": True,
    "stake": 0,
    "limit": 45,
    "doubles_extra_turn": None,
}
"""The classic game: each option's default (``doubles_extra_turn`` None: on in the long game only).
`Rules()` has the same defaults (a test holds them together)."""
