"""The flags of ``shutthebox scores``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import number_type
from shutthebox.i18n import _

__all__ = ["MOST_GAMES", "scores_arguments"]

MOST_GAMES = 1_000_000
"""The most recent games ``--limit`` lists: more than a history holds, less than SQLite's integers."""


def scores_arguments(scores: argparse.ArgumentParser) -> None:
    scores.add_argument(
        "players", nargs="*", metavar=_("PLAYER"), help=_("only these players (default: all)")
    )
    scores.add_argument(
        "--limit", type=number_type(int, 1, MOST_GAMES), default=10,
        help=_("how many recent games to list (10)"),
    )
    scores.add_argument("--json", action="store_true", help=_("print bests and games as JSON"))
