"""The flags of ``shutthebox solve``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import add_rules_options, named
from shutthebox.cli.solving import objective_args
from shutthebox.i18n import _

__all__ = ["solve_arguments"]


def solve_arguments(solve: argparse.ArgumentParser) -> None:
    add_rules_options(solve)
    objective_args(solve)
    solve.add_argument("--exact", action="store_true", help=_("also print the exact rational value"))
    solve.add_argument(
        "--table", type=named, metavar=_("FILE"), help=_("write the whole optimal policy as CSV")
    )
    solve.add_argument("--json", action="store_true", help=_("print one JSON object"))
