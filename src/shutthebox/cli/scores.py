"""``shutthebox scores``: personal bests and the recent games, read from the history."""

from __future__ import annotations

import argparse

from shutthebox.cli.history import check_database
from shutthebox.storage.reader import scores_json
from shutthebox.term.scores import scores_lines

__all__ = ["run_scores"]


def run_scores(args: argparse.Namespace) -> int:
    check_database(create=False)

    if args.json:
        import json  # --json alone: the table of scores starts without it

        print(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False))
        return 0
    for line in scores_lines(args.players, limit=args.limit):
        print(line)
    return 0
