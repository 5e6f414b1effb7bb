"""The game in words for the command line and the terminal games: rule names, rules in a line, dice.

Every name here is a message of the catalog (marked with `N_`), said in the
language in use when it is shown. It reads the rules as plain options (the
classic defaults, the enums' values), so listing stored games needs no `Rules`.
Each table is keyed by the members of its enum, in their order, and refused at
import when a member has no word: a new rule, objective or grade cannot go unnamed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shutthebox.core.options import CLASSIC, Mode, OneDie, Scoring
from shutthebox.i18n import N_, _, ngettext
from shutthebox.strategy.names import ROUND_OBJECTIVES, Objective
from shutthebox.strategy.names import STRENGTHS as BOT_STRENGTHS
from shutthebox.strategy.names import VERDICTS as GRADES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from shutthebox.core.rules import Rules

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
    "mode_name",
    "rules_line",
    "strength_name",
    "verdict_name",
]


def _every(names: Iterable[str], words: dict[str, str]) -> dict[str, str]:
    """``words`` for each of ``names``, in their order; a `LookupError` at import when a name has no word
    or a word no name, so a table cannot fall behind its enum."""
    names = [str(name) for name in names]
    if missing := [name for name in names if name not in words]:
        raise LookupError(f"no word for {', '.join(missing)}")
    if extra := sorted(set(words) - set(names)):
        raise LookupError(f"a word for no choice: {', '.join(extra)}")
    return {name: words[name] for name in names}


MODES: dict[str, str] = _every(Mode, {
    "solo": N_("solo"),
    "round": N_("round"),
    "elimination": N_("elimination"),
    "long": N_("long game"),
})
"""The ways to play (rules §5) by their `Mode` value, as a player names them."""

ONE_DIE_WHEN: dict[str, str] = _every(OneDie, {
    "high-shut": N_("once 7 and up are shut"),
    "sum-le-6": N_("when open tiles sum ≤ 6"),
    "sum-lt-6": N_("when open tiles sum < 6"),
    "never": N_("never"),
})
"""When one die may be rolled (rules §3)."""

SCORINGS: dict[str, str] = _every(Scoring, {
    "sum": N_("sum"),
    "sum-plus-roll": N_("sum plus last roll"),
    "digits": N_("digits"),
    "count": N_("tiles left"),
})
"""How the open tiles score (rules §4)."""

STRENGTHS: dict[str, str] = _every(BOT_STRENGTHS, {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
})
"""The bots' strengths, weakest first."""

VERDICTS: dict[str, str] = _every(GRADES, {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
})
"""The review's word for each decision, best to worst."""


OBJECTIVE_VALUES: dict[str, str] = _every(Objective, {
    "score": N_("expected score"),
    "shut": N_("chance to shut"),
    "beat": N_("chance to score under {target}"),
    "tie-or-beat": N_("chance to score {target} or less"),
    "long": N_("chance to win"),
    "win": N_("chance to win the round"),
    "stake": N_("stakes expected from the round"),
})
"""What a value of each objective of the solver means, in a hint."""

OBJECTIVES: dict[str, str] = _every((o for o in Objective if o not in ROUND_OBJECTIVES), {
    "score": N_("expected score"),
    "shut": N_("probability of shutting the box"),
    "beat": N_("probability of scoring under {target}"),
    "tie-or-beat": N_("probability of scoring {target} or less"),
    "long": N_("probability of winning the long game"),
})
"""Each objective of the solver, as ``shutthebox solve`` names its value."""


def mode_name(mode: str) -> str:
    """A way to play in words: ``solo``, ``long game``; an unknown one as it is."""
    return _(MODES[mode]) if mode in MODES else str(mode)


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
    from shutthebox.core.board import Move  # here, not above: listing stored games needs no board
    from shutthebox.core.dice import DiceChoice

    if isinstance(action, DiceChoice):
        return dice_word(action.count)
    if isinstance(action, Move):
        return _(N_("open {move}") if opening else N_("shut {move}")).format(move=action)
    return str(action)


def rules_line(rules: Rules | Mapping[str, object], *, with_mode: bool = True) -> str:
    """The rules in a short line: board, way to play (unless left out), and each option off the classic.

    ``rules`` is a `Rules`, or its options as `Rules.to_dict` gives them (or a stored rules key, read back).
    """
    options = {**CLASSIC, **(rules.to_dict() if hasattr(rules, "to_dict") else rules)}
    mode, tiles = str(options["mode"]), int(options["tiles"])
    parts = [ngettext("{tiles} tile", "{tiles} tiles", tiles).format(tiles=tiles)]
    if with_mode:
        parts.append(mode_name(mode))
    if options["one_die"] != CLASSIC["one_die"]:
        parts.append(_("one die {when}").format(when=_(ONE_DIE_WHEN[str(options["one_die"])])))
    if options["one_die_forced"]:
        parts.append(_("one die forced"))
    if options["max_tiles"] is not None:
        most = int(options["max_tiles"])
        parts.append(ngettext("at most {n} tile a roll", "at most {n} tiles a roll", most).format(n=most))
    if options["scoring"] != CLASSIC["scoring"]:
        parts.append(_("scoring: {scoring}").format(scoring=_(SCORINGS[str(options["scoring"])])))
    if mode == "round" and not options["shut_wins"]:
        parts.append(_("shutting does not win at once"))
    if options["stake"]:
        parts.append(_("stake {stake}").format(stake=options["stake"]))
    if mode == "elimination":
        parts.append(_("out at {limit}").format(limit=options["limit"]))
    doubles = options["doubles_extra_turn"]
    if doubles is not None and bool(doubles) != (mode == "long"):
        parts.append(_("doubles earn a turn") if doubles else _("no extra turns"))
    return " · ".join(parts)
