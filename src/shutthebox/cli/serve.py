"""``shutthebox serve``: the web app under uvicorn, its flags turned into `web.settings.Settings`.

FastAPI, uvicorn and the storage are imported with this module, which only ``serve`` loads (its
flags are `shutthebox.cli.flags.serve`); a missing one is refused in one line naming the extra.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
from pathlib import Path
from typing import Any

from shutthebox.cli.parser import CliError
from shutthebox.cli.paths import check_folder
from shutthebox.i18n import _
from shutthebox.storage.location import data_folder

try:  # the web extra: one missing is refused in one line naming it
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError
    from uvicorn import Config
    from uvicorn.supervisors import Multiprocess

    from shutthebox.storage import Database, engine_url
    from shutthebox.web import create_app
    from shutthebox.web.app import SETTINGS_VARIABLE, database_url
    from shutthebox.web.connections import http_protocol
    from shutthebox.web.frames import MeteredFrames
    from shutthebox.web.guard import install_log_filter
    from shutthebox.web.settings import Settings, default_hosts
except ImportError as error:
    raise CliError("the web app needs {module}: pip install 'shutthebox[web]'", module=error.name) from None


__all__ = ["run_serve", "serve_settings", "with_tcp_protocol"]


def serve_processes(settings: Any, workers: int, options: dict[str, Any]) -> None:
    """``workers`` processes on one listening socket, each building the app from ``settings``."""


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
        solved_dir=Path(args.data or data_folder()) / "solved",
    )


def run_serve(args: argparse.Namespace) -> int:
    if args.db:
        url = engine_url(args.db)  # a bad URL, or a missing driver, is reported before the server starts

        if url.get_backend_name() == "postgresql" and importlib.util.find_spec("psycopg") is None:
            raise CliError("PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'")
    if args.data:
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
        "ws": MeteredFrames,  # uvicorn's sans-I/O protocol, a socket's frames within a budget
        # Only a proxy named here may say whom a request is from: anyone else could pick an
        # address per request and walk around every rate limit.
        "proxy_headers": args.trust_proxy is not None, "forwarded_allow_ips": args.trust_proxy or "",
        # A connection is closed when idle after an answer, and when slow to send its headers.
        "timeout_keep_alive": settings.idle_timeout, "http": http_protocol(settings.header_timeout),
    }
    if args.workers > 1:
        serve_processes(settings, args.workers, options)
    else:
        uvicorn.run(create_app(settings, own_process=True), **options)
    return 0
