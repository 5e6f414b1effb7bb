"""The flags of ``shutthebox stats``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import named, number_type
from shutthebox.core.tiles import MAX_TILES
from shutthebox.i18n import _

__all__ = ["stats_arguments"]


def stats_arguments(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("name", nargs="?", metavar=_("NAME"),
                       help=_("the player (default: this machine's profile)"))
    stats.add_argument("--db", type=named, metavar="URL",
                       help=_("database URL (default: $SHUTTHEBOX_DB, or the user data folder)"))
    stats.add_argument("--tiles", type=number_type(int, 1, MAX_TILES), metavar="N",
                       help=_("only boards of N tiles, 1-12"))
    stats.add_argument("--json", action="store_true",
                       help=_("print the web page's statistics object as JSON"))
