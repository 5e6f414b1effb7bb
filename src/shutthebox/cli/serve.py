"""``shutthebox serve``: the web app under uvicorn, its flags turned into `web.settings.Settings`.

FastAPI, uvicorn and the storage are imported only when the server starts; a missing one is
refused in one line naming the extra to install.
"""

from __future__ import annotations

import argparse

from shutthebox.cli.parser import CliError, number_type
from shutthebox.core.errors import N_
from shutthebox.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # `--help` starts without typing, socket and the web app
    import socket
    from typing import Any

    from shutthebox.web.settings import Settings

__all__ = ["run_serve", "serve_arguments", "serve_settings", "with_tcp_protocol"]


_port = number_type(
    int, 0, 65535, not_a=N_("{text!r} is not a port number"),
    out_of_range=N_("port {value} is not between 0 and 65535"),
)
_seconds = number_type(
    float, 0, 10, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0 and 10 seconds"),
)
_NO_CLOCK = N_("{text!r} must be 0 (no clock) or 5 to 3600 seconds")
_clock_seconds = number_type(int, 0, 3600, out_of_range=_NO_CLOCK)


def _turn_seconds(text: str) -> int:
    """Seconds of the turn clock: 0 for none, else 5 to 3600 (as a room may ask)."""
    seconds = _clock_seconds(text)
    if 0 < seconds < 5:
        raise argparse.ArgumentTypeError(_(_NO_CLOCK).format(text=text))
    return seconds


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
_timeout = number_type(
    float, 0.5, 600, not_a=N_("{text!r} is not a number of seconds"),
    out_of_range=N_("{text!r} must be between 0.5 and 600 seconds"),
)


def serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    serve.add_argument("--port", type=_port, default=8000, help=_("port to listen on (8000)"))
    serve.add_argument("--db", metavar="URL", help=_("database URL: sqlite:///FILE or postgresql://…"))
    serve.add_argument("--data", metavar="DIR", help=_("folder of the default SQLite database"))
    serve.add_argument(
        "--workers", type=_workers, default=1, metavar="N",
        help=_("server processes behind the one address (1); more than one share their rooms through "
               "--redis, best over PostgreSQL (--db postgresql://…)"),
    )
    serve.add_argument(
        "--solver-processes", type=_solver_processes, default=1, metavar="N",
        help=_("worker processes for the solver (hints, bots, reviews, the trainer), each server process's"
               " own, so its work never slows the players' actions (1; 0: in the server process)"),
    )
    serve.add_argument(
        "--redis", metavar="URL",
        help=_("Redis shared by the processes of the server (redis://host:6379/0): news of rooms, "
               "leases of their work, rate limits"),
    )
    serve.add_argument(
        "--bot-delay", type=_seconds, default=0.6, metavar="SECONDS",
        help=_("pause before each bot action, so people can follow it (0.6)"),
    )
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
        help=_("server log level (info)"),
    )
    serve.add_argument(
        "--turn-seconds", type=_turn_seconds, default=60, metavar="SECONDS",
        help=_("the turn clock of online rooms: seconds for each action before a bot plays it (60; 0: none)"),
    )
    serve.add_argument(
        "--room-idle", type=_idle_seconds, default=7200, metavar="SECONDS",
        help=_("close a room nobody played nor watched for this long (7200)"),
    )
    serve.add_argument(
        "--room-memory", type=_idle_seconds, default=600, metavar="SECONDS",
        help=_("let a room nobody acted in for this long leave memory, polled or not: it is read back "
               "from the database when asked for (600)"),
    )
    serve.add_argument(
        "--trust-proxy", metavar="ADDRESSES",
        help=_("addresses of a reverse proxy whose X-Forwarded-For names the client (none: the rate "
               "limits count the connecting address)"),
    )
    serve.add_argument(
        "--allow-origin", action="append", default=[], metavar="ORIGIN", dest="allowed_origins",
        help=_("a page origin (https://example.com) whose WebSockets are welcome too; repeatable"),
    )
    serve.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME", dest="allowed_hosts",
        help=_("a name the server answers to, as a browser's address gives it (games.example.com; "
               "its port aside); repeatable; * for any. Others are refused, so a page whose name was "
               "pointed at this server (DNS rebinding) reaches nothing. By default 127.0.0.1, "
               "localhost and [::1] on loopback; on 0.0.0.0 or :: any address of this machine, and "
               "localhost; else the --host"),
    )
    serve.add_argument(
        "--header-timeout", type=_timeout, default=10.0, metavar="SECONDS",
        help=_("close a connection that has not sent a whole request's headers this long after it "
               "opened or its request began (10)"),
    )
    serve.add_argument(
        "--idle-timeout", type=_timeout, default=5.0, metavar="SECONDS",
        help=_("close a connection idle this long after an answer (5)"),
    )


def serve_processes(settings: Any, workers: int, options: dict[str, Any]) -> None:
    """``workers`` processes on one listening socket, each building the app from ``settings``."""
    import os

    from sqlalchemy.exc import SQLAlchemyError
    from uvicorn import Config
    from uvicorn.supervisors import Multiprocess

    from shutthebox.storage import Database
    from shutthebox.web.app import SETTINGS_VARIABLE, database_url

    try:
        Database.open(database_url(settings)).close()  # migrated once here, not by workers racing
    except SQLAlchemyError as error:
        reason = getattr(error, "orig", None) or error  # the driver's words, without SQLAlchemy's SQL
        raise CliError("the database cannot be opened: {error}", error=str(reason).strip()) from None
    os.environ[SETTINGS_VARIABLE] = settings.to_json()
    config = Config("shutthebox.web.app:app_from_environment", factory=True, workers=workers, **options)
    Multiprocess(config, sockets=[with_tcp_protocol(config.bind_socket())]).run()


def with_tcp_protocol(made: socket.socket) -> socket.socket:
    """The listening socket ``made``, saying it is TCP. uvicorn makes it with protocol 0, so asyncio
    never sets TCP_NODELAY on its connections and every answer waits for a delayed ACK: 44 ms for a
    request 1 ms serves (measured with two workers)."""
    import socket

    listening = socket.socket(made.family, made.type, socket.IPPROTO_TCP, fileno=made.detach())
    listening.set_inheritable(True)
    return listening


def check_redis(url: str) -> None:
    """Refuse a Redis URL that cannot be used before the server starts: the driver, the URL's form."""
    try:
        from redis import Redis
    except ImportError:
        raise CliError("Redis needs its driver: pip install 'shutthebox[redis]'") from None
    from redis.exceptions import RedisError

    try:
        Redis.from_url(url).ping()
    except ValueError as error:
        raise CliError("--redis {url!r}: {error}", url=url, error=error) from None
    except RedisError as error:  # nobody answers there: say so now, not in a worker's traceback
        raise CliError("Redis at {url!r} does not answer: {error}", url=url, error=error) from None


def serve_settings(args: argparse.Namespace) -> Settings:
    """The app's settings from ``serve``'s options: what each worker process is handed, too."""
    from pathlib import Path

    from shutthebox.web.settings import Settings, default_hosts

    return Settings(
        redis_url=args.redis,
        host=args.host,
        port=args.port,
        database_url=args.db,
        data_dir=Path(args.data) if args.data else None,
        bot_delay=args.bot_delay,
        turn_seconds=args.turn_seconds or None,
        room_idle_seconds=float(args.room_idle),
        room_memory_seconds=float(args.room_memory),
        allowed_origins=tuple(args.allowed_origins),
        allowed_hosts=tuple(args.allowed_hosts) or default_hosts(args.host),
        header_timeout=args.header_timeout,
        idle_timeout=args.idle_timeout,
        solver_processes=args.solver_processes,
    )


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from shutthebox.storage import engine_url
        from shutthebox.web import create_app
        from shutthebox.web.connections import http_protocol
        from shutthebox.web.guard import install_log_filter
    except ImportError as error:
        raise CliError(
            "the web app needs {module}: pip install 'shutthebox[web]'",
            module=error.name,
        ) from None
    if args.db:
        url = engine_url(args.db)  # a bad URL, or a missing driver, is reported before the server starts
        from importlib.util import find_spec

        if url.get_backend_name() == "postgresql" and find_spec("psycopg") is None:
            raise CliError("PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'")
    if args.data:
        from shutthebox.cli.paths import check_folder

        check_folder(args.data, "--data")
    if args.workers > 1 and not args.redis:
        raise CliError("several processes share their rooms through Redis: add --redis redis://HOST:6379/0")
    if args.redis:
        check_redis(args.redis)
    settings = serve_settings(args)
    address = f"http://{args.host}:{args.port}/"
    print(_("Shut the Box: {address} (Ctrl+C stops the server)").format(address=address), flush=True)
    install_log_filter()  # the request lines name WebSockets with their ?token=: it is written as …
    options: dict[str, Any] = {
        "host": args.host, "port": args.port, "log_level": args.log_level,
        "ws_max_size": settings.max_frame_bytes,  # a bigger message closes the socket (1009)
        "ws_per_message_deflate": False,  # a state of a few kB is cheaper sent than compressed
        # Only a proxy named here may say whom a request is from: anyone else could pick an
        # address per request and walk around every rate limit.
        "proxy_headers": args.trust_proxy is not None, "forwarded_allow_ips": args.trust_proxy or "",
        # A connection is closed when idle after an answer, and when slow to send its headers.
        "timeout_keep_alive": settings.idle_timeout, "http": http_protocol(settings.header_timeout),
    }
    if args.workers > 1:
        serve_processes(settings, args.workers, options)
    else:
        uvicorn.run(create_app(settings), **options)
    return 0
