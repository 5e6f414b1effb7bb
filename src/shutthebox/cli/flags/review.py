"""The flags of ``shutthebox review``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import named
from shutthebox.i18n import _

__all__ = ["review_arguments"]


def review_arguments(review: argparse.ArgumentParser) -> None:
    review.add_argument("file", type=named, metavar=_("RECORD"), help=_("a game record (JSON)"))
    review.add_argument("--json", action="store_true", help=_("print one JSON object"))
