"""The flags of ``shutthebox cheatsheet``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import add_rules_options, named
from shutthebox.i18n import _

__all__ = ["cheatsheet_arguments"]


def cheatsheet_arguments(sheet: argparse.ArgumentParser) -> None:
    sheet.add_argument("output", nargs="?", type=named, metavar=_("FILE"), help=_(
        "the HTML file to write (standard output by default, or -); open it and print it"
    ))
    sheet.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_rules_options(sheet)
