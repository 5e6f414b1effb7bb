"""The rules in words, light enough for ``shutthebox scores``: ways to play, one-die rules, scorings.

`options_line` says a rule set in a line from its plain options (`Rules.to_dict`, or a stored
rules key read back), so listing stored games needs no `Rules`: this module imports only the
rules' enums and the i18n runtime (`i18n.words` names a `Rules`, a move and the rest of the game).
Every name is a message of the catalog (marked with `N_`), said in the language in use when shown.
Each table is keyed by the members of its enum, in their order, and refused at import when a member
has no word.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shutthebox.core.options import CLASSIC, Mode, OneDie, Scoring
from shutthebox.i18n import N_, _, ngettext

__all__ = ["MODES", "ONE_DIE_WHEN", "SCORINGS", "every_word", "mode_name", "options_line"]


def every_word(names: Iterable[str], words: dict[str, str]) -> dict[str, str]:
    """``words`` for each of ``names``, in their order; a `LookupError` at import when a name has no word
    or a word no name, so a table cannot fall behind its enum."""
    names = [str(name) for name in names]
    if missing := [name for name in names if name not in words]:
        raise LookupError(f"no word for {', '.join(missing)}")
    if extra := sorted(set(words) - set(names)):
        raise LookupError(f"a word for no choice: {', '.join(extra)}")
    return {name: words[name] for name in names}


MODES: dict[str, str] = every_word(Mode, {
    "solo": N_("solo"),
    "round": N_("round"),
    "elimination": N_("elimination"),
    "long": N_("long game"),
})
"""The ways to play (rules §5) by their `Mode` value, as a player names them."""

ONE_DIE_WHEN: dict[str, str] = every_word(OneDie, {
    "high-shut": N_("once 7 and up are shut"),
    "sum-le-6": N_("when open tiles sum ≤ 6"),
    "sum-lt-6": N_("when open tiles sum < 6"),
    "never": N_("never"),
})
"""When one die may be rolled (rules §3)."""

SCORINGS: dict[str, str] = every_word(Scoring, {
    "sum": N_("sum"),
    "sum-plus-roll": N_("sum plus last roll"),
    "digits": N_("digits"),
    "count": N_("tiles left"),
})
"""How the open tiles score (rules §4)."""


def mode_name(mode: str) -> str:
    """A way to play in words: ``solo``, ``long game``; an unknown one as it is."""
    return _(MODES[mode]) if mode in MODES else str(mode)



def options_line(options: Mapping[str, object], *, with_mode: bool = True) -> str:
    """The rules in a short line: board, way to play (unless left out), and each option off the classic.

    ``options`` as `Rules.to_dict` gives them, or a stored rules key read back (`i18n.words.rules_line`
    takes a `Rules`).
    """
    options = {**CLASSIC, **options}
    mode, tiles = str(options["mode"]), _whole(options["tiles"])
    parts = [ngettext("{tiles} tile", "{tiles} tiles", tiles).format(tiles=tiles)]
    if with_mode:
        parts.append(mode_name(mode))
    if options["one_die"] != CLASSIC["one_die"]:
        parts.append(_("one die {when}").format(when=_(ONE_DIE_WHEN[str(options["one_die"])])))
    if options["one_die_forced"]:
        parts.append(_("one die forced"))
    if options["max_tiles"] is not None:
        most = _whole(options["max_tiles"])
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


def _whole(value: object) -> int:
    """An option's number as `int` reads it (a stored key's may be any text): a `TypeError` when
    ``value`` is no number nor text, a `ValueError` when its text is no number."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")
