"""The flags of ``shutthebox scores``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import positive
from shutthebox.i18n import _

__all__ = ["scores_arguments"]


def scores_arguments(scores: argparse.ArgumentParser) -> None:
    scores.add_argument("players", nargs="*", metavar="PLAYER", help=_("only these players (default: all)"))
    scores.add_argument("--limit", type=positive, default=10, help=_("how many recent games to list (10)"))
    scores.add_argument("--json", action="store_true", help=_("print bests and games as JSON"))
