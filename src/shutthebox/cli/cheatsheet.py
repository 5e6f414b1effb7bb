"""``shutthebox cheatsheet``: the page to print with the best move for every roll, as a file.

The same page the web app serves at ``/api/cheatsheet``: one rule set, played
for the lowest expected score, in the language of the command line.
"""

from __future__ import annotations

import argparse
import sys

from shutthebox.cli.parser import CliError, add_rules_options, rules_from_args
from shutthebox.i18n import _, language

__all__ = ["cheatsheet_arguments", "run_cheatsheet"]


def cheatsheet_arguments(sheet: argparse.ArgumentParser) -> None:
    sheet.add_argument("output", nargs="?", metavar="FILE", help=_(
        "the HTML file to write (standard output by default); open it and print it"
    ))
    add_rules_options(sheet)


def run_cheatsheet(args: argparse.Namespace) -> int:
    from shutthebox.cli.paths import writable_file
    from shutthebox.reports.cheatsheet import sheet_html
    from shutthebox.strategy.cheatsheet import cheatsheet

    path = writable_file(args.output, "FILE") if args.output else None
    page = sheet_html(cheatsheet(rules_from_args(args)), language())
    if path is None:
        sys.stdout.write(page)
        return 0
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as error:
        raise CliError("{path!r}: {error}", path=str(path), error=error.strerror or error) from None
    print(_("Cheat sheet written to {path}: open it in a browser and print it.").format(path=path))
    return 0
