"""``shutthebox serve``: its options, and one-line errors before any server starts."""

from __future__ import annotations

import importlib.util

import pytest

from shutthebox.cli import build_parser, main


def test_serve_options_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.data, args.bot_delay) == ("127.0.0.1", 8000, None, None, 0.6)
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--db", "sqlite:///x.db", "--data", "d"]
    )
    assert (args.host, args.port, args.db, args.data) == ("0.0.0.0", 9000, "sqlite:///x.db", "d")
    assert (args.turn_seconds, args.room_idle, args.trust_proxy) == (60, 7200, None)
    args = build_parser().parse_args(["serve", "--turn-seconds", "0", "--room-idle", "600"])
    assert (args.turn_seconds, args.room_idle) == (0, 600)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--port", "70000"], "port 70000 is not between 0 and 65535"),
        (["serve", "--port", "web"], "'web' is not a port number"),
        (["serve", "--bot-delay", "-1"], "between 0 and 10 seconds"),
        (["serve", "--turn-seconds", "3"], "'3' must be 0 (no clock) or 5 to 3600 seconds"),
        (["serve", "--turn-seconds", "4000"], "'4000' must be 0 (no clock) or 5 to 3600 seconds"),
        (["serve", "--room-idle", "5"], "'5' must be at least 60 seconds"),
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


@pytest.mark.skipif(
    importlib.util.find_spec("psycopg") is not None, reason="psycopg is installed here"
)
def test_postgresql_without_its_driver_is_reported_before_serving(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It was a traceback from the server's start-up, after uvicorn had begun."""
    assert main(["serve", "--db", "postgresql://user@host/games"]) == 2
    err = capsys.readouterr().err
    needs = "PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'"
    assert err == f"shutthebox: error: {needs}\n"
