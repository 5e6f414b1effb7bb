"""Options as names: the base of every enumerated choice, the rules' enums, and the classic game's values.

The words of the rules (`i18n.words`) and the command line's rule flags read
these before any game starts, so they live apart from the `Rules` value (a
dataclass, slower to import); `core.rules` re-exports the enums.
"""

from __future__ import annotations

from enum import StrEnum

from shutthebox.core.errors import N_, RulesError, quoted

TYPE_CHECKING = False  # typing is not imported at run time: every command starts here
if TYPE_CHECKING:
    from typing import Self

__all__ = ["CLASSIC", "Choice", "Mode", "OneDie", "Scoring"]


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
            raise RulesError(cls.unknown(), value=quoted(value), names=names) from None

class OneDie(Choice):
    """When one die may be chosen instead of two (rules §3)."""

    HIGH_SHUT = "high-shut"
    SUM_LE_6 = "sum-le-6"
    SUM_LT_6 = "sum-lt-6"
    NEVER = "never"

    @classmethod
    def unknown(cls) -> str:
        return N_("unknown one-die rule {value!r}: choose one of {names}")


class Scoring(Choice):
    """How the tiles left open are scored (rules §4)."""

    SUM = "sum"
    SUM_PLUS_ROLL = "sum-plus-roll"
    DIGITS = "digits"
    COUNT = "count"

    @classmethod
    def unknown(cls) -> str:
        return N_("unknown scoring {value!r}: choose one of {names}")


class Mode(Choice):
    """The ways to play (rules §5)."""

    SOLO = "solo"
    ROUND = "round"
    ELIMINATION = "elimination"
    LONG = "long"

    @classmethod
    def unknown(cls) -> str:
        return N_("unknown way to play {value!r}: choose one of {names}")


CLASSIC: dict[str, object] = {
    "tiles": 9,
    "one_die": OneDie.HIGH_SHUT,
    "one_die_forced": False,
    "max_tiles": None,
    "scoring": Scoring.SUM,
    "mode": Mode.ROUND,
    "shut_wins": True,
    "stake": 0,
    "limit": 45,
    "doubles_extra_turn": None,
}
"""The classic game: each option's default (``doubles_extra_turn`` None: on in the long game only).
`Rules()` has the same defaults (a test holds them together)."""
