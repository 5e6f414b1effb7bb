"""``shutthebox cheatsheet``: the page to print with the best move for every roll, as a file.

The same page the web app serves at ``/api/cheatsheet``: one rule set, played
for the lowest expected score, in the language of the command line. The file is
tried for writing before the solve, and ``-`` is standard output, as no file.
"""

from __future__ import annotations

import argparse
import sys

from shutthebox.cli.parser import CliError, rules_from_args
from shutthebox.cli.paths import writable_file
from shutthebox.cli.progress import working
from shutthebox.i18n import _, language
from shutthebox.reports.cheatsheet import sheet_html
from shutthebox.strategy.cheatsheet import cheatsheet, sheet_rules

__all__ = ["run_cheatsheet"]


def run_cheatsheet(args: argparse.Namespace) -> int:
    rules = sheet_rules(rules_from_args(args))  # an option the sheet cannot honour: refused first
    path = writable_file(args.output, "FILE") if args.output not in (None, "-") else None
    with working(_("solving…"), args.no_progress):
        page = sheet_html(cheatsheet(rules), language())
    if path is None:
        sys.stdout.write(page)
        return 0
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as error:
        raise CliError("{path!r}: {error}", path=str(path), error=error.strerror or error) from None
    print(_("Cheat sheet written to {path}: open it in a browser and print it.").format(path=path))
    return 0
