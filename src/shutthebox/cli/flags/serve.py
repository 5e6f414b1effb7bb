"""The flags of ``shutthebox serve``: part of the parser, light to import (see `shutthebox.cli.main`)."""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import named, number_type
from shutthebox.core.errors import N_
from shutthebox.i18n import _

__all__ = ["serve_arguments"]


_NO_CLOCK = N_("{text!r} must be 0 (no clock) or 5 to 3600 seconds")


_port = number_type(
    int, 0, 65535, not_a=N_("{text!r} is not a port number"),
    out_of_range=N_("port {value} is not between 0 and 65535"),
)
_seconds = number_type(
    float, 0, 10, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0 and 10 seconds"),
)
_clock_seconds = number_type(int, 0, 3600, out_of_range=_NO_CLOCK)
_workers = number_type(
    int, 1, 64, not_a=N_("{text!r} is not a number of processes"),
    out_of_range=N_("{text!r} must be between 1 and 64 processes"),
)
_solver_processes = number_type(
    int, 0, 64, not_a=N_("{text!r} is not a number of processes"),
    out_of_range=N_("{text!r} must be between 0 and 64 processes"),
)
_idle_seconds = number_type(
    int, 60, None, out_of_range=N_("{text!r} must be at least 60 seconds"),
)


def _turn_seconds(text: str) -> int:
    """Seconds of the turn clock: 0 for none, else 5 to 3600 (as a room may ask)."""
    seconds = _clock_seconds(text)
    if 0 < seconds < 5:
        raise argparse.ArgumentTypeError(_(_NO_CLOCK).format(text=text))
    return seconds


_timeout = number_type(
    float, 0.5, 600, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0.5 and 600 seconds"),
)


def serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    serve.add_argument("--port", type=_port, default=8000, help=_("port to listen on (8000)"))
    serve.add_argument("--db", type=named, metavar="URL", help=_("database URL: sqlite:///FILE or postgresql://…"))
    serve.add_argument("--data", type=named, metavar=_("DIR"), help=_(
        "folder of the default SQLite database and of the rounds the solver keeps (solved/, up to about "
        "250 MB a rule set)"
    ))
    serve.add_argument(
        "--workers", type=_workers, default=1, metavar="N",
        help=_("server processes behind the one address (1); more than one share their rooms through "
               "--redis, best over PostgreSQL (--db postgresql://…)"),
    )
    serve.add_argument(
        "--solver-processes", type=_solver_processes, default=1, metavar="N",
        help=_("worker processes for the solver (hints, bots, reviews, the trainer), each server process's"
               " own, so its work never slows the players' actions, and one more for the large rounds"
               " solved ahead (1; 0: in the server process)"),
    )
    serve.add_argument(
        "--redis", type=named, metavar="URL",
        help=_("Redis shared by the processes of the server (redis://host:6379/0): news of rooms, "
               "leases of their work, rate limits"),
    )
    serve.add_argument(
        "--bot-delay", type=_seconds, default=0.6, metavar=_("SECONDS"),
        help=_("pause before each bot action, so people can follow it (0.6)"),
    )
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
        help=_("server log level (info)"),
    )
    serve.add_argument(
        "--turn-seconds", type=_turn_seconds, default=60, metavar=_("SECONDS"),
        help=_("the turn clock of online rooms: seconds for each action before a bot plays it (60; 0: none)"),
    )
    serve.add_argument(
        "--room-idle", type=_idle_seconds, default=7200, metavar=_("SECONDS"),
        help=_("close a room nobody played nor watched for this long (7200)"),
    )
    serve.add_argument(
        "--room-memory", type=_idle_seconds, default=600, metavar=_("SECONDS"),
        help=_("let a room nobody acted in for this long leave memory, polled or not: it is read back "
               "from the database when asked for (600)"),
    )
    serve.add_argument(
        "--trust-proxy", metavar=_("ADDRESSES"),
        help=_("addresses of a reverse proxy whose X-Forwarded-For names the client (none: the rate "
               "limits count the connecting address)"),
    )
    serve.add_argument(
        "--allow-origin", action="append", default=[], metavar=_("ORIGIN"), dest="allowed_origins",
        help=_("a page origin (https://example.com) whose WebSockets, and requests that count against "
               "a rate limit, are welcome too; repeatable"),
    )
    serve.add_argument(
        "--allowed-host", action="append", default=[], metavar=_("NAME"), dest="allowed_hosts",
        help=_("a name the server answers to, as a browser's address gives it (games.example.com; "
               "its port aside); repeatable; * for any. Others are refused, so a page whose name was "
               "pointed at this server (DNS rebinding) reaches nothing. By default 127.0.0.1, "
               "localhost and [::1] on loopback; on 0.0.0.0 or :: any address of this machine, and "
               "localhost; else the --host"),
    )
    serve.add_argument(
        "--header-timeout", type=_timeout, default=10.0, metavar=_("SECONDS"),
        help=_("close a connection that has not sent a whole request's headers this long after it "
               "opened or its request began, or its whole body this long after its headers (10)"),
    )
    serve.add_argument(
        "--idle-timeout", type=_timeout, default=5.0, metavar=_("SECONDS"),
        help=_("close a connection idle this long after an answer (5)"),
    )
