"""The ``loadtest`` subcommand: many whole games through the public API of a server on this machine.

``--url`` loads a running server; ``--spawn`` starts one of its own in a
temporary folder (``--workers``: one over SQLite, more over a temporary
PostgreSQL and Redis) and stops it after. The playing and measuring is
`shutthebox.ops.loadtest`; here the flags become its settings and its result
becomes a table or one JSON object.
"""

from __future__ import annotations

import argparse
import sys

from shutthebox.cli.parser import CliError, number_type, positive, whole
from shutthebox.core.errors import N_
from shutthebox.i18n import _, ngettext

TYPE_CHECKING = False
if TYPE_CHECKING:
    from shutthebox.ops.loadtest import LoadResult, LoadSettings

__all__ = ["loadtest_arguments", "run_loadtest"]

MAX_THINK = 3600.0
_tiles = number_type(int, 1, 12)
_timeout = number_type(
    float, 0.001, None, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be more than 0 seconds"),
)
_THINK = N_("{text!r} is not a think time: seconds as MIN-MAX (0.5-1.5) or one number, 0 to 3600")


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
        "--url", help=_("the server to load, on this machine only (http://127.0.0.1:8000)")
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
    parser.add_argument("--think", type=think_range, default=(0.0, 0.0), metavar="MIN-MAX", help=_(
        "seconds each player waits before each action, drawn uniformly between MIN and MAX (0)"
    ))
    parser.add_argument("--websocket", action="store_true", help=_(
        "act over the room WebSocket, each latency up to the state that answers the action (default: "
        "HTTP, up to the response)"
    ))
    parser.add_argument("--tiles", type=_tiles, default=9, help=_("tiles of each solo game, 1-12 (9)"))
    parser.add_argument("--seed", type=whole, help=_("seed of the players' choices and think times"))
    parser.add_argument("--timeout", type=_timeout, default=600.0, metavar="SECONDS", help=_(
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


_SPAWN_FAILED = {
    "stopped": N_("the server stopped as it started (exit status {status}); the end of its log is above"),
    "silent": N_("the server did not answer within {seconds} s; the end of its log is above"),
    "unavailable": N_("several workers need a temporary PostgreSQL and Redis: {reason}"),
}


def run_loadtest(args: argparse.Namespace) -> int:
    """0 when every game finished and no request failed, 1 otherwise (the result is reported either
    way), 2 for a command line refused."""
    try:
        from shutthebox.ops import loadtest
    except ImportError as error:
        raise CliError("the load tester needs {module}: pip install 'shutthebox[web]' httpx",
                       module=error.name) from None
    if args.workers is not None and not args.spawn:
        raise CliError("--workers goes with --spawn: a server given by --url runs the workers it has")
    if args.url is not None and not loadtest.is_loopback(args.url):
        raise CliError(
            "a load test plays against this machine only: {url!r} is not an http address of 127.0.0.1, "
            "localhost or ::1", url=args.url,
        )
    result = _run_spawned(args) if args.spawn else _run(_settings(args, args.url))
    if args.json:
        import json

        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print("\n".join(result_lines(result)))
    return 0 if result.finished == result.games and not result.errors else 1


def _settings(args: argparse.Namespace, url: str, workers: int | None = None) -> LoadSettings:
    from shutthebox.ops.loadtest import LoadSettings

    return LoadSettings(
        url=url, games=args.games, concurrency=args.concurrency, think=args.think,
        websocket=args.websocket, tiles=args.tiles, seed=args.seed, timeout=args.timeout,
        many_clients=args.many_clients or workers is not None, spawn_workers=workers,
    )


def _run(settings: LoadSettings) -> LoadResult:
    import asyncio

    from shutthebox.ops.loadtest import run_load

    return asyncio.run(run_load(settings))


def _run_spawned(args: argparse.Namespace) -> LoadResult:
    """The run against a server of our own, in a temporary folder removed after."""
    import tempfile
    from pathlib import Path

    from shutthebox.ops.loadtest import SpawnError, spawned

    workers = args.workers or 1
    with tempfile.TemporaryDirectory(prefix="shutthebox-load-") as folder:
        try:
            with spawned(Path(folder), workers) as url:
                return _run(_settings(args, url, workers))
        except SpawnError as error:
            if error.log:
                print(error.log, file=sys.stderr)
            raise CliError(_SPAWN_FAILED[error.kind], **error.values) from None


ERROR_WORDS = {
    "refused": N_("refused by a rate limit"),
    "http": N_("HTTP {detail}"),
    "timeout": N_("no answer in time"),
    "connection": N_("connection failed, {detail}"),
    "unreadable": N_("unreadable answer"),
    "stuck": N_("no action offered"),
    "socket": N_("WebSocket failed"),
    "socket-http": N_("WebSocket refused with HTTP {detail}"),
    "socket-closed": N_("WebSocket closed with {detail}"),
    "socket-error": N_("WebSocket error {detail}"),
}
"""The words of each kind of error (`shutthebox.ops.loadtest.ERROR_KINDS`); its detail is data."""


def error_words(kind: str) -> str:
    """A kind of error as the table says it (an unknown one as it is)."""
    code, _space, detail = kind.partition(" ")
    return _(ERROR_WORDS[code]).format(detail=detail) if code in ERROR_WORDS else kind


def result_lines(result: LoadResult) -> list[str]:
    """The result as a short table, its labels aligned, then the settings in one line."""
    latency = result.latency_ms()
    errors = str(result.error_count)
    if result.errors:
        kinds = sorted(result.errors.items())
        errors += " (" + ", ".join(f"{error_words(kind)}: {count}" for kind, count in kinds) + ")"

    def ms(value: float | None) -> str:
        return "-" if value is None else _("{value:.1f} ms").format(value=value)

    rows = [
        (_("games"), str(result.games)),
        (_("finished"), str(result.finished)),
        (_("saved"), str(result.saved)),
        (_("errors"), errors),
        (_("games per second"), f"{result.games_per_second:.2f}"),
        (_("actions"), str(result.actions)),
        (_("actions per second"), f"{result.actions_per_second:.1f}"),
        (_("latency p50"), ms(latency["p50"])),
        (_("latency p95"), ms(latency["p95"])),
        (_("latency p99"), ms(latency["p99"])),
        (_("latency max"), ms(latency["max"])),
        (_("elapsed"), _("{seconds:.2f} s").format(seconds=result.elapsed)),
    ]
    width = max(len(label) for label, _value in rows)
    lines = [f"{label.ljust(width)}  {value}" for label, value in rows]
    if result.timed_out:
        unfinished = result.unfinished
        lines.append(ngettext(
            "Stopped at the timeout: {count} game not done.",
            "Stopped at the timeout: {count} games not done.", unfinished,
        ).format(count=unfinished))
    lines.append(settings_line(result.settings))
    return lines


def settings_line(settings: LoadSettings) -> str:
    """The settings of a run, in one line."""
    low, high = settings.think
    workers = settings.spawn_workers
    server = settings.url if workers is None else ngettext(
        "a server of its own, {workers} worker", "a server of its own, {workers} workers", workers
    ).format(workers=workers)
    return _(
        "Settings: {server}, {games} games, {concurrency} at once, over {transport}, think {low}-{high} s, "
        "{tiles} tiles, seed {seed}, timeout {timeout} s; latency percentiles nearest-rank."
    ).format(
        server=server, games=settings.games, concurrency=settings.concurrency,
        transport="WebSocket" if settings.websocket else "HTTP", low=f"{low:g}", high=f"{high:g}",
        tiles=settings.tiles, seed="-" if settings.seed is None else settings.seed,
        timeout=f"{settings.timeout:g}",
    )
