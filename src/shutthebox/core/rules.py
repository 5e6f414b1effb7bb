"""The rule options of the game as one frozen value, with named presets.

Every option of the rules lives here (docs/rules.md states them; § numbers cite it):

- ``tiles`` (§1): the board holds tiles ``1..tiles``, 1 to 12; 9 is classic.
- ``one_die`` (§3): when one die may be rolled instead of two, judged on the
  tiles the player is working on (the open ones, or for the long game's opener
  the shut ones): ``high-shut`` (every tile of 7 or more done), ``sum-le-6``,
  ``sum-lt-6`` or ``never``. ``one_die_forced`` (§7) makes one die compulsory
  whenever it is allowed.
- ``max_tiles`` (§7): at most this many tiles per roll; ``None`` for no limit.
- ``scoring`` (§4): ``sum``, ``sum-plus-roll``, ``digits`` or ``count``; a shut
  box scores 0 under each. The grade S/A/B/C/F always comes from the open sum.
- ``mode`` (§5): ``solo``, ``round``, ``elimination`` or ``long``.
- ``shut_wins`` (§5.2): shutting the box wins the round at once.
- ``stake`` (§5.2): what each player puts in the pot; a shut box is also paid
  double the stake by every other player (round mode).
- ``limit`` (§5.3): the elimination total at which a player retires, 45.
- ``doubles_extra_turn`` (§5.4): a double earns an extra roll after a miss;
  on by default in the long game only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from shutthebox.core.errors import RulesError, quoted
from shutthebox.core.options import Mode, OneDie, Scoring
from shutthebox.core.tiles import MAX_TILES, grade, mask_sum, tiles_of

__all__ = ["PRESETS", "Mode", "OneDie", "Rules", "Scoring", "grade"]


MAX_STAKE = 1_000_000
"""The largest stake a rule set takes (a bound, so no absurd number reaches a store or a screen)."""
MAX_LIMIT = 10_000
"""The largest elimination limit (45 by the rules)."""


def _shown(value: object) -> str:
    """A value as an error names it: its repr, cut short, so an error never echoes a huge input."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "…"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every rule option of the game; the defaults are the classic game."""

    tiles: int = 9
    one_die: OneDie = OneDie.HIGH_SHUT
    one_die_forced: bool = False
    max_tiles: int | None = None
    scoring: Scoring = Scoring.SUM
    mode: Mode = Mode.ROUND
    shut_wins: bool = True
    stake: int = 0
    limit: int = 45
    doubles_extra_turn: bool = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "one_die", OneDie.parse(self.one_die))
        set_(self, "scoring", Scoring.parse(self.scoring))
        set_(self, "mode", Mode.parse(self.mode))
        if self.doubles_extra_turn is None:
            set_(self, "doubles_extra_turn", self.mode is Mode.LONG)
        for name in ("one_die_forced", "shut_wins", "doubles_extra_turn"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(
                    "{name} is true or false, not {value!r}", name=name, value=quoted(getattr(self, name))
                )
        for name in ("tiles", "stake", "limit"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(
                    "{name} must be a whole number, not {value}", name=name, value=_shown(value)
                )
        if not 1 <= self.tiles <= MAX_TILES:
            raise RulesError(
                "tiles must be between 1 and {high}, not {tiles}", high=MAX_TILES, tiles=self.tiles
            )
        if self.max_tiles is not None and (
            not isinstance(self.max_tiles, int)
            or isinstance(self.max_tiles, bool)
            or not 1 <= self.max_tiles <= MAX_TILES
        ):
            raise RulesError(
                "max_tiles must be a whole number from 1 to {high}, or none, not {value}",
                high=MAX_TILES, value=_shown(self.max_tiles),
            )
        if not 0 <= self.stake <= MAX_STAKE:
            raise RulesError(
                "stake must be between 0 and {high}, not {stake}", high=MAX_STAKE, stake=_shown(self.stake)
            )
        if not 1 <= self.limit <= MAX_LIMIT:
            raise RulesError(
                "limit must be between 1 and {high}, not {limit}", high=MAX_LIMIT, limit=_shown(self.limit)
            )
        if self.mode is Mode.LONG and self.one_die is OneDie.NEVER and self.tiles == 1:
            raise RulesError("a long game on one tile can never end when one die is never allowed")

    # -- construction ------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A named preset (``classic``, ``web``, …), with options overridden."""
        try:
            base = PRESETS[name]
        except KeyError:
            names = ", ".join(PRESETS)
            raise RulesError(
                "unknown preset {name!r}: choose one of {names}", name=name, names=names
            ) from None
        return base.but(**overrides)

    def but(self, **changes: Any) -> Rules:
        """These rules with some options changed (the rest re-validated)."""
        known = {f.name for f in fields(self)}
        for name in changes:
            if name not in known:
                options = ", ".join(known)
                raise RulesError(
                    "unknown rule option {name!r}: the options are {options}", name=quoted(name),
                    options=options,
                )
        if "mode" in changes and "doubles_extra_turn" not in changes:
            changes["doubles_extra_turn"] = None
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON values (a fresh dict: drawn for every state a server sends)."""
        return dict(self._plain)

    @cached_property
    def _plain(self) -> dict[str, Any]:
        """`to_dict`, made once per rule set and kept on it (a cache keyed by the rules would hash
        their ten options at every state drawn); every option is a plain value: no deep copy needed."""
        return {f.name: (str(value) if isinstance(value := getattr(self, f.name), StrEnum) else value)
                for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The inverse of `to_dict`; unknown keys are refused."""
        if not isinstance(data, dict):
            raise RulesError("rules must be an object of options, not {data!r}", data=quoted(data))
        return cls().but(**data)

    # -- what the rules decide ----------------------------------------------
    @property
    def full_mask(self) -> int:
        return (1 << self.tiles) - 1

    def one_die_allowed(self, target: int) -> bool:
        """May one die be rolled, given the mask of tiles the player works on? (§3)"""
        if self.one_die is OneDie.HIGH_SHUT:
            return target >> 6 == 0
        if self.one_die is OneDie.SUM_LE_6:
            return mask_sum(target) <= 6
        if self.one_die is OneDie.SUM_LT_6:
            return mask_sum(target) < 6
        return False

    def dice_options(self, target: int) -> tuple[int, ...]:
        """How many dice the player may roll: ``(2,)``, ``(1, 2)`` or, forced, ``(1,)``."""
        if not self.one_die_allowed(target):
            return (2,)
        return (1,) if self.one_die_forced else (1, 2)

    def score(self, open_mask: int, last_total: int) -> int:
        """The score of a finished turn (§4): ``last_total`` is the roll that failed."""
        if open_mask == 0:
            return 0
        if self.scoring is Scoring.SUM:
            return mask_sum(open_mask)
        if self.scoring is Scoring.SUM_PLUS_ROLL:
            return mask_sum(open_mask) + last_total
        if self.scoring is Scoring.DIGITS:
            return int("".join(str(tile) for tile in tiles_of(open_mask)))
        return open_mask.bit_count()

    def describe(self) -> str:
        """One line naming every option that differs from the classic game."""
        default = Rules(mode=self.mode)
        parts = [f"{self.tiles} tiles", f"mode {self.mode}"]
        for f in fields(self):
            if f.name in {"tiles", "mode"}:
                continue
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                parts.append(f"{f.name.replace('_', '-')} {value}")
        return ", ".join(parts)


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "web": Rules(one_die=OneDie.SUM_LE_6),
    "web-10": Rules(tiles=10, one_die=OneDie.SUM_LE_6),
    "web-12": Rules(tiles=12, one_die=OneDie.SUM_LE_6),
    "two-dice": Rules(one_die=OneDie.NEVER),
    "digits": Rules(scoring=Scoring.DIGITS),
    "sailors": Rules(scoring=Scoring.SUM_PLUS_ROLL),
    "elimination": Rules(mode=Mode.ELIMINATION),
    "long": Rules(mode=Mode.LONG),
    "pub": Rules(one_die=OneDie.SUM_LE_6, one_die_forced=True, max_tiles=2),
}
"""Named rule sets (docs/rules.md, Presets): ``classic`` is the defaults, ``web`` has the web game's
one-die rule."""

