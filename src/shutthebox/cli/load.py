"""The ``loadtest`` subcommand: many whole games through the public API of a server on this machine.

``--url`` loads a running server; ``--spawn`` starts one of its own in a
temporary folder (``--workers``: one over SQLite, more over a temporary
PostgreSQL and Redis) and stops it after. The playing and measuring is
`shutthebox.ops.loadtest`; here the flags become its settings and its result
becomes a table or one JSON object.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import json
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from shutthebox.cli.parser import CliError
from shutthebox.core.errors import N_
from shutthebox.i18n import _, ngettext

try:  # the web extra (websockets, h11): one missing is refused in one line naming it
    from shutthebox.ops import loadtest
    from shutthebox.ops.loadtest import LoadResult, LoadSettings, SpawnError, run_measured, spawned
except ImportError as error:
    raise CliError(
        "the load tester needs {module}: pip install 'shutthebox[web]'", module=error.name
    ) from None


__all__ = ["run_loadtest"]


_SPAWN_FAILED = {
    "stopped": N_("the server stopped as it started (exit status {status}); the end of its log is above"),
    "silent": N_("the server did not answer within {seconds} s; the end of its log is above"),
    "unavailable": N_("several workers need a temporary PostgreSQL and Redis: {reason}"),
}


def run_loadtest(args: argparse.Namespace) -> int:
    """0 when every game finished and no request failed, 1 otherwise (the result is reported either
    way), 2 for a command line refused."""
    if args.workers is not None and not args.spawn:
        raise CliError("--workers goes with --spawn: a server given by --url runs the workers it has")
    url: str | None = args.url  # None with --spawn (one of the two is required)
    if url is not None and "://" not in url:
        meant = "http://" + url
        raise CliError("--url {url!r} names no scheme: did you mean {meant!r}?", url=url, meant=meant)
    if url is not None and not loadtest.is_loopback(url):
        raise CliError(
            "a load test plays against this machine only: {url!r} is not an http address of 127.0.0.1, "
            "localhost or ::1", url=url,
        )
    if url is not None:
        _check_answers(url)
    result = _run_spawned(args) if url is None else run_measured(_settings(args, url))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print("\n".join(result_lines(result)))
    return 0 if result.finished == result.games and not result.errors else 1


def _check_answers(url: str) -> None:
    """Refuse, in one line, a run against an address where no server answers (each of its games
    would fail alike, and the result say only that)."""
    address = urlsplit(url)
    probe = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port or 80, timeout=5)
    try:
        probe.request("GET", address.path.rstrip("/") + "/api/rules")
        probe.getresponse().read()
    except (OSError, http.client.HTTPException) as error:
        raise CliError(
            "no server answers at {url} ({error}): start one there (shutthebox serve), or let the load "
            "test start its own (--spawn)", url=url, error=type(error).__name__,
        ) from None
    finally:
        probe.close()


def _settings(args: argparse.Namespace, url: str, workers: int | None = None) -> LoadSettings:
    return LoadSettings(
        url=url, games=args.games, concurrency=args.concurrency, think=args.think,
        websocket=args.websocket, tiles=args.tiles, seed=args.seed, timeout=args.timeout,
        many_clients=args.many_clients or workers is not None, spawn_workers=workers,
        processes=args.processes,
    )


def _run_spawned(args: argparse.Namespace) -> LoadResult:
    """The run against a server of our own, in a temporary folder removed after; the server's CPU
    over the run beside the tester's."""
    workers = args.workers or 1
    with tempfile.TemporaryDirectory(prefix="shutthebox-load-") as folder:
        try:
            with spawned(Path(folder), workers) as server:
                before = server.cpu_seconds()
                result = run_measured(_settings(args, server.url, workers))
                after = server.cpu_seconds()
                used = None if before is None or after is None else after - before
                return dataclasses.replace(result, server_cpu_seconds=used)
        except SpawnError as error:
            if error.log:
                print(error.log, file=sys.stderr)
            values = dict(error.values)
            reason = values.get("reason")
            if isinstance(reason, str):
                values["reason"] = _(reason)  # a reason of `ops.throwaway`'s, in the catalog
            raise CliError(_SPAWN_FAILED[error.kind], **values) from None


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

    def cpu(seconds: float | None) -> str:
        per_action = result.cpu_ms_per_action(seconds)
        return "-" if per_action is None else _("{value:.3f} ms per action").format(value=per_action)

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
        (_("tester CPU"), cpu(result.tester_cpu_seconds)),
        (_("server CPU"), cpu(result.server_cpu_seconds)),
    ]
    width = max(len(label) for label, _value in rows)
    lines = [f"{label.ljust(width)}  {value}" for label, value in rows]
    if result.timed_out:
        unfinished = result.unfinished
        lines.append(ngettext(
            "Stopped at the timeout: {count} game not done.",
            "Stopped at the timeout: {count} games not done.", unfinished,
        ).format(count=unfinished))
    if result.errors.get(loadtest.REFUSED) and result.settings.spawn_workers is None:
        lines.append(_(
            "The server's rate limits refused games: every game came from this one address. Start it "
            "with --trust-proxy 127.0.0.1 and add --many-clients (each game its own address), or use "
            "--spawn."
        ))
    lines.append(settings_line(result.settings))
    return lines


def settings_line(settings: LoadSettings) -> str:
    """The settings of a run, in one line."""
    low, high = settings.think
    workers = settings.spawn_workers
    server = settings.url if workers is None else ngettext(
        "a server of its own, {workers} worker", "a server of its own, {workers} workers", workers
    ).format(workers=workers)
    testers = ngettext(
        "{processes} tester process", "{processes} tester processes", settings.processes
    ).format(processes=settings.processes)
    think = (_("no think time") if high == 0
             else _("think {low}-{high} s").format(low=f"{low:g}", high=f"{high:g}"))
    return _(
        "Settings: {server}, {games} games, {concurrency} at once in {testers}, over {transport}, {think}, "
        "{tiles} tiles, seed {seed}, timeout {timeout} s; latency percentiles nearest-rank."
    ).format(
        server=server, games=settings.games, concurrency=min(settings.concurrency, settings.games),
        testers=testers, transport="WebSocket" if settings.websocket else "HTTP", think=think,
        tiles=settings.tiles, seed="-" if settings.seed is None else settings.seed,
        timeout=f"{settings.timeout:g}",
    )
