"""``shutthebox scores``: personal bests and the recent games, read from the history."""

from __future__ import annotations

import argparse
import os

from shutthebox.cli.history import check_database
from shutthebox.cli.parser import CliError
from shutthebox.cli.printable import printable
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.i18n import _
from shutthebox.storage.location import default_url, sqlite_file
from shutthebox.storage.reader import scores_json
from shutthebox.term.scores import scores_lines

__all__ = ["run_scores"]


def run_scores(args: argparse.Namespace) -> int:
    check_database(create=False)
    file = sqlite_file(default_url())
    if file is not None and not os.path.lexists(file) and not args.json:  # read, never create
        print(_("No history at {path} yet: no game has been saved there.").format(path=file))
        return 0
    try:
        if args.json:
            import json  # --json alone: the table of scores starts without it

            print(printable(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False)))
            return 0
        lines = scores_lines(args.players, limit=args.limit)
    except ShutTheBoxError:
        raise
    except Exception as error:  # a database that cannot be opened or read: one line, as `stats` says it
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CliError("the history cannot be read: {reason}", reason=reason) from None
    for line in lines:
        print(printable(line))  # the names of the history are anyone's: the web's players chose them
    return 0
