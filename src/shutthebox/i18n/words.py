"""The game in words for the command line and the terminal games: rule names, rules in a line, dice.

Every name here is a message of the catalog (marked with `N_`), said in the
language in use when it is shown.
"""

from __future__ import annotations

from shutthebox.core.rules import Mode, OneDie, Rules, Scoring
from shutthebox.i18n import N_, _, ngettext

__all__ = [
    "MODES",
    "OBJECTIVES",
    "OBJECTIVE_VALUES",
    "ONE_DIE_WHEN",
    "SCORINGS",
    "STRENGTHS",
    "VERDICTS",
    "dice_word",
    "mode_name",
    "rules_line",
    "strength_name",
    "verdict_name",
]

MODES: dict[Mode, str] = {
    Mode.SOLO: N_("solo"),
    Mode.ROUND: N_("round"),
    Mode.ELIMINATION: N_("elimination"),
    Mode.LONG: N_("long game"),
}
"""The ways to play (rules §5), as a player names them."""

ONE_DIE_WHEN: dict[OneDie, str] = {
    OneDie.HIGH_SHUT: N_("once 7 and up are shut"),
    OneDie.SUM_LE_6: N_("when open tiles sum ≤ 6"),
    OneDie.SUM_LT_6: N_("when open tiles sum < 6"),
    OneDie.NEVER: N_("never"),
}
"""When one die may be rolled (rules §3)."""

SCORINGS: dict[Scoring, str] = {
    Scoring.SUM: N_("sum"),
    Scoring.SUM_PLUS_ROLL: N_("sum plus last roll"),
    Scoring.DIGITS: N_("digits"),
    Scoring.COUNT: N_("tiles left"),
}
"""How the open tiles score (rules §4)."""

STRENGTHS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""The bots' strengths, weakest first."""

VERDICTS: dict[str, str] = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
"""The review's word for each decision, best to worst."""


OBJECTIVE_VALUES: dict[str, str] = {
    "score": N_("expected score"),
    "shut": N_("chance to shut"),
    "beat": N_("chance to score under {target}"),
    "tie-or-beat": N_("chance to score {target} or less"),
    "long": N_("chance to win"),
    "win": N_("chance to win the round"),
}
"""What a value of each objective of the solver means, in a hint."""

OBJECTIVES: dict[str, str] = {
    "score": N_("expected score"),
    "shut": N_("probability of shutting the box"),
    "beat": N_("probability of scoring under {target}"),
    "tie-or-beat": N_("probability of scoring {target} or less"),
    "win": N_("probability of winning a two-player round, playing first"),
    "long": N_("probability of winning the long game"),
}
"""Each objective of the solver, as ``shutthebox solve`` names its value."""


def mode_name(mode: Mode | str) -> str:
    """A way to play in words: ``solo``, ``long game``; an unknown one as it is."""
    try:
        return _(MODES[Mode(mode)])
    except ValueError:
        return str(mode)


def strength_name(strength: str) -> str:
    """A bot's strength in words (``hard`` / ``difícil``); a bot name as it is."""
    return _(STRENGTHS[strength]) if strength in STRENGTHS else strength


def verdict_name(verdict: str) -> str:
    """The review's word for a decision."""
    return _(VERDICTS[verdict])


def dice_word(count: int) -> str:
    """``one die`` / ``two dice``."""
    return _("one die") if count == 1 else _("two dice")


def rules_line(rules: Rules, *, with_mode: bool = True) -> str:
    """The rules in a short line: board, way to play (unless left out), and each option off the classic."""
    parts = [ngettext("{tiles} tile", "{tiles} tiles", rules.tiles).format(tiles=rules.tiles)]
    if with_mode:
        parts.append(mode_name(rules.mode))
    default = Rules(mode=rules.mode)
    if rules.one_die is not default.one_die:
        parts.append(_("one die {when}").format(when=_(ONE_DIE_WHEN[rules.one_die])))
    if rules.one_die_forced:
        parts.append(_("one die forced"))
    if rules.max_tiles is not None:
        most = ngettext("at most {n} tile a roll", "at most {n} tiles a roll", rules.max_tiles)
        parts.append(most.format(n=rules.max_tiles))
    if rules.scoring is not default.scoring:
        parts.append(_("scoring: {scoring}").format(scoring=_(SCORINGS[rules.scoring])))
    if rules.mode is Mode.ROUND and not rules.shut_wins:
        parts.append(_("shutting does not win at once"))
    if rules.stake:
        parts.append(_("stake {stake}").format(stake=rules.stake))
    if rules.mode is Mode.ELIMINATION:
        parts.append(_("out at {limit}").format(limit=rules.limit))
    if rules.doubles_extra_turn != default.doubles_extra_turn:
        parts.append(_("doubles earn a turn") if rules.doubles_extra_turn else _("no extra turns"))
    return " · ".join(parts)
