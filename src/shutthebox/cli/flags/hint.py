"""The flags of ``shutthebox hint``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import add_rules_options, number_type, whole
from shutthebox.cli.solving import objective_args
from shutthebox.i18n import _

__all__ = ["hint_arguments"]


def hint_arguments(hint: argparse.ArgumentParser) -> None:
    hint.add_argument(
        "--open", required=True, metavar=_("TILES"), help=_("open tiles, e.g. 1,5,9 (- for none)")
    )
    rolled = hint.add_mutually_exclusive_group()
    rolled.add_argument("--dice", metavar=_("FACES"), help=_("the dice rolled, e.g. 3,1 (or 5 for one die)"))
    rolled.add_argument("--roll", type=whole, metavar=_("TOTAL"), help=_("the total rolled, e.g. 4"))
    hint.add_argument(
        "--one-die-roll",
        action="store_true", help=_("with --roll: the total came from one die"),
    )
    hint.add_argument(
        "--extra", type=number_type(int, 0), default=0, help=_("extra turns held from doubles (0)")
    )
    hint.add_argument("--opening", action="store_true", help=_("long game: the player opens shut tiles"))
    add_rules_options(hint)
    objective_args(hint)
    hint.add_argument("--json", action="store_true", help=_("print one JSON object"))
