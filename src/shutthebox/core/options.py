"""Options as names: the base of every enumerated choice, and the classic game's values as plain data.

The words of the rules (`i18n.words`) read stored rules keys against these
before any game starts, so they live apart from the `Rules` value (a
dataclass, slower to import).
"""

from __future__ import annotations

from enum import StrEnum

from shutthebox.core.errors import RulesError

TYPE_CHECKING = False  # typing is not imported at run time: every command starts here
if TYPE_CHECKING:
    from typing import Self

__all__ = ["CLASSIC", "Choice"]


class Choice(StrEnum):
    """Named values to choose from (a rule option, a solver objective); `parse` reads one."""

    @classmethod
    def unknown(cls) -> str:
        """The catalog message refusing a value not among these (``{value}``, ``{names}``)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, value: str | Self) -> Self:
        """The member named ``value``; a `RulesError` naming every choice when there is none."""
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(member.value for member in cls)
            raise RulesError(cls.unknown(), value=value, names=names) from None

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
