"""``shutthebox scores``: personal bests and the recent games, read from the history."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import positive
from shutthebox.i18n import _

__all__ = ["run_scores", "scores_arguments"]


def scores_arguments(scores: argparse.ArgumentParser) -> None:
    scores.add_argument("players", nargs="*", metavar="PLAYER", help=_("only these players (default: all)"))
    scores.add_argument("--limit", type=positive, default=10, help=_("how many recent games to list (10)"))
    scores.add_argument("--json", action="store_true", help=_("print bests and games as JSON"))


def run_scores(args: argparse.Namespace) -> int:
    from shutthebox.cli.paths import check_database
    from shutthebox.term.scores import scores_json, scores_lines

    check_database(create=False)

    if args.json:
        import json

        print(json.dumps(scores_json(args.players, limit=args.limit), ensure_ascii=False))
        return 0
    for line in scores_lines(args.players, limit=args.limit):
        print(line)
    return 0
