"""``shutthebox serve``: its options, and one-line errors before any server starts."""

from __future__ import annotations

import importlib.util

import pytest

from shutthebox.cli import build_parser, main
from shutthebox.cli.serve import serve_settings
from shutthebox.web.settings import LOOPBACK_HOSTS, Settings


def test_serve_options_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.data, args.bot_delay) == ("127.0.0.1", 8000, None, None, 0.6)
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--db", "sqlite:///x.db", "--data", "d"]
    )
    assert (args.host, args.port, args.db, args.data) == ("0.0.0.0", 9000, "sqlite:///x.db", "d")
    assert (args.turn_seconds, args.room_idle, args.trust_proxy) == (60, 7200, None)
    args = build_parser().parse_args(["serve", "--turn-seconds", "0", "--room-idle", "600"])
    assert (args.turn_seconds, args.room_idle, args.room_memory, args.workers) == (0, 600, 600, 1)
    assert (args.header_timeout, args.idle_timeout) == (10.0, 5.0)
    args = build_parser().parse_args(["serve", "--header-timeout", "2.5", "--idle-timeout", "30"])
    assert (args.header_timeout, args.idle_timeout) == (2.5, 30.0)


def test_the_settings_of_serve_reach_every_worker_whole() -> None:
    """``serve --workers`` hands each process the settings as JSON: they come back the same."""
    for argv, hosts in [
        (["serve"], LOOPBACK_HOSTS),
        (["serve", "--host", "0.0.0.0"], ("0.0.0.0", "localhost")),
        (["serve", "--allowed-host", "games.example", "--allowed-host", "*"], ("games.example", "*")),
    ]:
        settings = serve_settings(build_parser().parse_args([*argv, "--header-timeout", "3", "--data", "d"]))
        assert settings.allowed_hosts == hosts and settings.header_timeout == 3.0
        assert Settings.from_json(settings.to_json()) == settings


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--port", "70000"], "port 70000 is not between 0 and 65535"),
        (["serve", "--port", "web"], "'web' is not a port number"),
        (["serve", "--bot-delay", "-1"], "between 0 and 10 seconds"),
        (["serve", "--turn-seconds", "3"], "'3' must be 0 (no clock) or 5 to 3600 seconds"),
        (["serve", "--turn-seconds", "4000"], "'4000' must be 0 (no clock) or 5 to 3600 seconds"),
        (["serve", "--room-idle", "5"], "'5' must be at least 60 seconds"),
        (["serve", "--header-timeout", "0"], "'0' must be between 0.5 and 600 seconds"),
        (["serve", "--idle-timeout", "soon"], "'soon' is not a number of seconds"),
    ],
)
def test_bad_serve_options_exit_with_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err


def test_a_bad_database_url_is_reported_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "mysql://db/games"]) == 2
    err = capsys.readouterr().err
    assert "database URL 'mysql://db/games'" in err and "sqlite:///FILE" in err


def test_postgresql_without_its_driver_is_reported_before_serving(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was a traceback from the server's start-up, after uvicorn had begun."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "psycopg" else real(name))
    assert main(["serve", "--db", "postgresql://user@host/games"]) == 2
    err = capsys.readouterr().err
    needs = "PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'"
    assert err == f"shutthebox serve: error: {needs}\n"


def test_several_workers_need_redis_and_a_sane_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", "2"]) == 2
    assert "add --redis redis://HOST:6379/0" in capsys.readouterr().err
    assert main(["serve", "--redis", "http://not-redis"]) == 2
    assert "--redis 'http://not-redis'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--workers", "0"])
    assert "'0' must be between 1 and 64 processes" in capsys.readouterr().err


def test_the_workers_socket_says_it_is_tcp_so_answers_are_not_held_back() -> None:
    """uvicorn's own socket for several workers has protocol 0: asyncio then never set TCP_NODELAY on
    a connection, and each answer waited for a delayed ACK (44 ms for a request served in 1 ms)."""
    import asyncio
    import socket

    from uvicorn import Config

    from shutthebox.cli.serve import with_tcp_protocol

    async def nodelay(listening: socket.socket) -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def on_connect(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connection = writer.get_extra_info("socket")
            accepted.set_result(connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connect, sock=listening)
        _reader, writer = await asyncio.open_connection(*listening.getsockname()[:2])
        result = await accepted
        writer.close()
        server.close()
        return result

    assert asyncio.run(nodelay(Config("x:y", port=0).bind_socket())) == 0  # what uvicorn gives
    assert asyncio.run(nodelay(with_tcp_protocol(Config("x:y", port=0).bind_socket()))) != 0


def test_an_unreachable_redis_or_database_is_reported_before_serving(
    capsys: pytest.CaptureFixture[str], redis_url: str
) -> None:
    """Both were tracebacks from each worker's start-up."""
    assert main(["serve", "--workers", "2", "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "Redis at 'redis://127.0.0.1:1/0' does not answer" in capsys.readouterr().err
    nowhere = "postgresql://nobody@127.0.0.1:1/x"
    assert main(["serve", "--workers", "2", "--redis", redis_url, "--db", nowhere]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shutthebox serve: error: the database cannot be opened:"), err
    assert "Traceback" not in err
