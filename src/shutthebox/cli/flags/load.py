"""The flags of ``shutthebox loadtest``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import named, number_type, positive, whole
from shutthebox.core.errors import N_
from shutthebox.i18n import _

__all__ = ["loadtest_arguments", "think_range"]


MAX_THINK = 3600.0
MAX_PROCESSES = 64
"""`shutthebox.ops.loadtest.MAX_PROCESSES`, stated again: the parser must not load the tester."""


_THINK = N_("{text!r} is not a think time: seconds as MIN-MAX (0.5-1.5) or one number, 0 to 3600")


_tiles = number_type(int, 1, 12)
_processes = number_type(int, 1, MAX_PROCESSES)
_timeout = number_type(
    float, 0.001, None, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be more than 0 seconds"),
)


def think_range(text: str) -> tuple[float, float]:
    """``MIN-MAX`` seconds (or one number for both), 0 <= MIN <= MAX <= 3600."""
    low_text, dash, high_text = text.partition("-")
    try:
        low = float(low_text)
        high = float(high_text) if dash else low
    except ValueError:
        raise argparse.ArgumentTypeError(_(_THINK).format(text=text)) from None
    if not 0 <= low <= high <= MAX_THINK:  # NaN fails every comparison: refused too
        raise argparse.ArgumentTypeError(_(_THINK).format(text=text))
    return low, high


def loadtest_arguments(parser: argparse.ArgumentParser) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument(
        "--url", type=named, help=_("the server to load, on this machine only (http://127.0.0.1:8000)")
    )
    target.add_argument("--spawn", action="store_true", help=_(
        "start a server of its own in a temporary folder for the test, and stop it after"
    ))
    parser.add_argument("--workers", type=positive, metavar="K", help=_(
        "with --spawn: server workers; 1 over SQLite, more over a temporary PostgreSQL and Redis (1)"
    ))
    parser.add_argument("--games", type=positive, default=100, metavar="N",
                        help=_("whole games to play (100)"))
    parser.add_argument("--concurrency", type=positive, default=10, metavar="C",
                        help=_("games in play at once (10)"))
    parser.add_argument("--processes", type=_processes, default=1, metavar="P", help=_(
        "tester processes the games and the concurrency are split across, 1-64; one Python process "
        "tops out at one core (1)"
    ))
    parser.add_argument("--think", type=think_range, default=(0.0, 0.0), metavar="MIN-MAX", help=_(
        "seconds each player waits before each action, drawn uniformly between MIN and MAX (0)"
    ))
    parser.add_argument("--websocket", action="store_true", help=_(
        "act over the room WebSocket, each latency up to the state that answers the action (default: "
        "HTTP, up to the response)"
    ))
    parser.add_argument("--tiles", type=_tiles, default=9, help=_("tiles of each solo game, 1-12 (9)"))
    parser.add_argument("--seed", type=whole, help=_("seed of the players' choices and think times"))
    parser.add_argument("--timeout", type=_timeout, default=600.0, metavar=_("SECONDS"), help=_(
        "stop after this many seconds and report, the games not done counted unfinished (600)"
    ))
    parser.add_argument("--many-clients", action="store_true", help=_(
        "each game claims an address of its own in X-Forwarded-For, so per-address rate limits count "
        "it apart; the server must trust this machine as its proxy (serve --trust-proxy 127.0.0.1); "
        "always on with --spawn"
    ))
    parser.add_argument("--json", action="store_true", help=_(
        "print the result as one JSON object; latency percentiles are nearest-rank (an observed value)"
    ))
