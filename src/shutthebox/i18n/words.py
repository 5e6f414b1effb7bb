"""The game in words for the command line and the terminal games: rule names, rules in a line, dice.

Every name here is a message of the catalog (marked with `N_`), said in the
language in use when it is shown. The ways to play, the one-die rules, the scorings and the rules
in a line read from plain options are in `i18n.rulewords`, light enough for ``shutthebox scores``
(listing stored games needs no `Rules`); they are named here too. Each table is keyed by the
members of its enum, in their order, and refused at import when a member has no word: a new rule,
objective or grade cannot go unnamed.
"""

from __future__ import annotations

from collections.abc import Mapping

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice
from shutthebox.core.rules import Rules
from shutthebox.i18n import N_, _
from shutthebox.i18n.rulewords import MODES, ONE_DIE_WHEN, SCORINGS, every_word, mode_name, options_line
from shutthebox.strategy.names import ROUND_OBJECTIVES, Objective
from shutthebox.strategy.names import STRENGTHS as BOT_STRENGTHS
from shutthebox.strategy.names import VERDICTS as GRADES

__all__ = [
    "MODES",
    "OBJECTIVES",
    "OBJECTIVE_VALUES",
    "ONE_DIE_WHEN",
    "SCORINGS",
    "STRENGTHS",
    "VERDICTS",
    "action_words",
    "dice_word",
    "loss_words",
    "mode_name",
    "rules_line",
    "strength_name",
    "value_words",
    "verdict_name",
]


STRENGTHS: dict[str, str] = every_word(BOT_STRENGTHS, {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
})
"""The bots' strengths, weakest first."""

VERDICTS: dict[str, str] = every_word(GRADES, {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
})
"""The review's word for each decision, best to worst."""


OBJECTIVE_VALUES: dict[str, str] = every_word(Objective, {
    "score": N_("expected score"),
    "shut": N_("chance to shut"),
    "beat": N_("chance to score under {target}"),
    "tie-or-beat": N_("chance to score {target} or less"),
    "long": N_("chance to win"),
    "win": N_("chance to win the round"),
    "stake": N_("stakes expected from the round"),
})
"""What a value of each objective of the solver means, in a hint."""

OBJECTIVES: dict[str, str] = every_word((o for o in Objective if o not in ROUND_OBJECTIVES), {
    "score": N_("expected score"),
    "shut": N_("probability of shutting the box"),
    "beat": N_("probability of scoring under {target}"),
    "tie-or-beat": N_("probability of scoring {target} or less"),
    "long": N_("probability of winning the long game"),
})
"""Each objective of the solver, as ``shutthebox solve`` names its value."""


def strength_name(strength: str) -> str:
    """A bot's strength in words (``hard`` / ``difícil``); a bot name as it is."""
    return _(STRENGTHS[strength]) if strength in STRENGTHS else strength


def verdict_name(verdict: str) -> str:
    """The review's word for a decision."""
    return _(VERDICTS[verdict])


def dice_word(count: int) -> str:
    """``one die`` / ``two dice``."""
    return _("one die") if count == 1 else _("two dice")


def action_words(action: object, *, opening: bool = False) -> str:
    """A choice as a player says it: ``shut 5+3`` (``open 4`` for the long game's opener), ``one die``;
    a roll as it shows."""
    if isinstance(action, DiceChoice):
        return dice_word(action.count)
    if isinstance(action, Move):
        return _(N_("open {move}") if opening else N_("shut {move}")).format(move=action)
    return str(action)


def rules_line(rules: Rules | Mapping[str, object], *, with_mode: bool = True) -> str:
    """The rules in a short line: board, way to play (unless left out), and each option off the classic.

    ``rules`` is a `Rules`, or its options as `Rules.to_dict` gives them (or a stored rules key, read back).
    """
    return options_line(rules.to_dict() if isinstance(rules, Rules) else rules, with_mode=with_mode)


def value_words(objective: object, value: float) -> str:
    """A value of the solver in its unit: expected points (``6.89``), stakes (``+0.125``), or a chance
    as a percentage (``50.2 %``)."""
    if str(objective) == "score":
        return f"{value:.2f}"
    if str(objective) == "stake":
        return f"{value:+.3f}"
    return _("{pct} %").format(pct=f"{100 * value:.1f}")


def loss_words(objective: object, loss: float) -> str:
    """What a choice gives up against the best one, with its unit, in the words of the web review and
    the hints: ``0.42 points lost`` of expected score, ``1.2 percentage points lost`` of a chance."""
    if str(objective) == "score":
        return _("{points} points lost").format(points=f"{loss:.2f}")
    if str(objective) == "stake":
        return _("{stakes} stakes lost").format(stakes=f"{loss:.3f}")
    return _("{pct} percentage points lost").format(pct=f"{100 * loss:.1f}")
