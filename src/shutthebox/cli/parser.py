"""The command line's parser pieces: one-line errors, every word from the catalog, the rule flags.

argparse asks gettext for its own words (``usage:``, ``options``, its errors);
here it asks the project's catalog, in the language in use, so ``--help`` and
every refusal read in one language. Every subcommand that takes rules uses the
same flags, named after the rule options (``--tiles``, ``--one-die``, …).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable

from shutthebox.core.errors import N_, ShutTheBoxError
from shutthebox.core.options import CLASSIC, Mode, OneDie, Scoring
from shutthebox.i18n import _, ngettext

TYPE_CHECKING = False  # typing itself is not imported: every command starts here
if TYPE_CHECKING:
    from typing import NoReturn, TypeVar

    from shutthebox.core.rules import Rules

    _N = TypeVar("_N", int, float)


__all__ = [
    "RULE_FLAGS",
    "CliError",
    "Parser",
    "add_rules_options",
    "named",
    "natural",
    "number_type",
    "positive",
    "rules_from_args",
    "whole",
]

argparse._ = _  # type: ignore[attr-defined]  # argparse's words, from the project's catalog
argparse.ngettext = ngettext  # type: ignore[attr-defined]


class CliError(ShutTheBoxError):
    """A problem with the command line (a missing extra, a file), reported in one line."""


class _Formatter(argparse.HelpFormatter):
    """argparse's layout, as wide as the terminal: measured without shutil (a start-up of its own)."""

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ.get("COLUMNS", "")) or os.get_terminal_size(sys.stdout.fileno()).columns
        except (ValueError, OSError):
            columns = 80
        super().__init__(prog, width=max(columns - 2, 20))


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, without the usage block."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: error: {message} (see --help)").format(
            prog=self.prog, message=message
        ) + "\n")


def number_type(
    convert: Callable[[str], _N],
    low: float,
    high: float | None = None,
    *,
    not_a: str = N_("{text!r} is not a whole number"),
    out_of_range: str | None = None,
) -> Callable[[str], _N]:
    """An argparse type: ``convert`` the text, refused in one line if it fails or falls outside
    ``low``..``high``. ``not_a`` and ``out_of_range`` are catalog messages (``{text}``, ``{value}``,
    ``{low}``, ``{high}`` filled in)."""

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(_(not_a).format(text=text)) from None
        if not (low <= value if high is None else low <= value <= high):
            if out_of_range is not None:
                refusal = out_of_range
            elif high is None:
                refusal = N_("{text!r} must be {low} or more")
            else:
                refusal = N_("{text!r} must be between {low} and {high}")
            raise argparse.ArgumentTypeError(_(refusal).format(text=text, value=value, low=low, high=high))
        return value

    return parse


def named(text: str) -> str:
    """An argparse type for what names a file, a folder, a database or a server: refused when empty,
    the same way wherever it is asked (pathlib reads "" as the current folder, and an option given ""
    would be quietly left off)."""
    if not text:
        raise argparse.ArgumentTypeError(_("{text!r} is empty: it names nothing").format(text=text))
    return text


positive = number_type(int, 1)
natural = number_type(int, 0)
whole = number_type(int, -math.inf)


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The rule flags shared by every subcommand that takes rules (docs/rules.md)."""
    from shutthebox.core.rules import PRESETS  # the presets are `Rules` values: a dataclass to import

    group = parser.add_argument_group(_("rules (docs/rules.md; a preset first, then each flag over it)"))
    group.add_argument("--preset", choices=list(PRESETS), help=_("start from a named rule set"))
    group.add_argument("--tiles", type=positive, help=_("tiles 1..N on the board, 1-12 (9)"))
    group.add_argument(
        "--one-die", choices=[o.value for o in OneDie], help=_("when one die may be rolled (high-shut)")
    )
    group.add_argument(
        "--one-die-forced", action=argparse.BooleanOptionalAction,
        help=_("one die must be rolled whenever it is allowed (off)"),
    )
    group.add_argument("--max-tiles", type=positive, help=_("at most this many tiles per roll"))
    group.add_argument("--scoring", choices=[s.value for s in Scoring], help=_("how open tiles score (sum)"))
    group.add_argument("--mode", choices=[m.value for m in Mode], help=_("way to play (round)"))
    group.add_argument(
        "--shut-wins", action=argparse.BooleanOptionalAction,
        help=_("shutting the box wins the round at once (on)"),
    )
    group.add_argument("--stake", type=natural, help=_("stake each player puts in the pot (0)"))
    group.add_argument("--limit", type=positive, help=_("elimination total that retires (45)"))
    group.add_argument(
        "--doubles-extra-turn", action=argparse.BooleanOptionalAction,
        help=_("a double earns an extra roll after a miss (on in the long game only)"),
    )


RULE_FLAGS = tuple(CLASSIC)
"""The flag of each rule option, by its `Rules` field (the classic options name every one)."""


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the flags describe: the preset (or classic) with each given flag over it."""
    from shutthebox.core.rules import Rules

    changes = {name: getattr(args, name) for name in RULE_FLAGS if getattr(args, name) is not None}
    return Rules.preset(args.preset or "classic", **changes)
