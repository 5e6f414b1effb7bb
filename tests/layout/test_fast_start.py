"""A command starts at once: ``--help`` and ``scores`` import only what they use.

Speed itself is measured in ``benchmarks/startup.py``; here the test is what a
command loads, which does not depend on how busy the machine is.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shutthebox

HEAVY = {"numpy", "sqlalchemy", "alembic", "textual", "rich", "fastapi", "babel", "platformdirs"}
"""Libraries with a start-up of their own, each needed by some commands, never by these."""
SLOW_STDLIB = {"typing", "dataclasses", "inspect", "pathlib", "shutil", "contextlib", "fractions", "json"}
"""Standard modules that cost a command's start-up as much as all its work."""


def loaded(argv: list[str], env: dict[str, str]) -> set[str]:
    """The top-level modules loaded by the command ``shutthebox ARGV``, run in a fresh process."""
    probe = (  # it imports nothing the command might not (io is loaded at start-up anyway)
        "import io, sys\n"
        f"sys.argv = ['shutthebox', *{argv!r}]\n"
        "from shutthebox.cli.main import main\n"
        "real, sys.stdout = sys.stdout, io.StringIO()\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "finally:\n"
        "    sys.stdout = real\n"
        "print(repr(sorted({name.split('.')[0] for name in sys.modules})))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{tmp_path / 'history.db'}", "LANG": "C"}


@pytest.mark.parametrize("argv", [["--help"], ["--lang", "es", "--help"], ["scores"], ["scores", "--json"]])
def test_help_and_scores_load_no_heavy_library(argv: list[str], env: dict[str, str]) -> None:
    modules = loaded(argv, env)
    assert "shutthebox" in modules
    assert not modules & HEAVY, modules & HEAVY
    slow = SLOW_STDLIB - {"json"} if "--json" in argv else SLOW_STDLIB  # JSON out is json's job
    assert not modules & slow, modules & slow


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the other systems ask platformdirs")
def test_scores_reads_a_real_history_without_sqlalchemy(env: dict[str, str]) -> None:
    from shutthebox import Game, Rules
    from shutthebox.storage import Database, GameRepository

    with Database.open(env["SHUTTHEBOX_DB"]) as database:
        game = Game(Rules(mode="solo"), ["Ana"], seed=3)
        while not game.state.is_over:
            game.roll() if game.state.is_chance else game.act(game.state.legal_actions()[0])
        game.save(GameRepository(database), source="terminal")
    modules = loaded(["scores"], env)
    assert "sqlite3" in modules and not modules & HEAVY


def test_the_package_root_loads_its_names_when_asked() -> None:
    probe = "import shutthebox, sys; print('shutthebox.core.match' in sys.modules)"
    cold = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert cold.stdout.strip() == "False"
    from shutthebox.core import board, chance, dice, errors, game, match, record, rules

    homes = (board, chance, dice, errors, game, match, record, rules)
    for name in shutthebox.__all__:
        value = getattr(shutthebox, name)
        assert any(getattr(home, name, None) is value for home in homes), name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        shutthebox.Nope  # noqa: B018


def test_a_hint_on_a_few_open_tiles_loads_no_numpy(env: dict[str, str]) -> None:
    """A person at a real box asks about one position: the answer must not wait for NumPy (issue 14)."""
    modules = loaded(["hint", "--open", "1,4,5,8", "--dice", "3,6", "--json"], env)
    assert "shutthebox" in modules and not modules & HEAVY, modules & HEAVY
    unused = {"pathlib", "fractions", "random", "csv"}  # files, exact sums (and so a match), rolling dice
    assert not modules & unused, modules & unused
    whole = loaded(["hint", "--tiles", "12", "--open", "1,2,3,4,5,6,7,8,9,10,11,12", "--dice", "3,6"], env)
    assert "numpy" in whole  # a whole 12-tile board: the vectorized solver


SERVER_SIDE = {"fastapi", "starlette", "sqlalchemy", "numpy", "uvicorn", "alembic", "httpx", "httpcore"}
"""What a load tester must not load (issue 29): the web app, its storage and solver cost a third of
its CPU, and httpx's pool scan grows with the games at once; the server it loads is another process."""
SERVER_PACKAGES = ("shutthebox.web", "shutthebox.storage", "shutthebox.strategy", "shutthebox.core.solver")


@pytest.mark.parametrize("transport", [[], ["--websocket"]], ids=["http", "websocket"])
def test_the_load_tester_imports_nothing_of_the_server(env: dict[str, str], transport: list[str]) -> None:
    """The whole run of ``loadtest``, against a stand-in that answers its first look (``/api/rules``)
    and nothing else (each game fails, and the run reports it): every module it loads, named."""
    probe = (
        "import io, sys, threading\n"
        "from http.server import BaseHTTPRequestHandler, HTTPServer\n"
        "class Rules(BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        self.send_response(200 if self.path == '/api/rules' else 404)\n"
        "        self.send_header('Content-Length', '0')\n"
        "        self.end_headers()\n"
        "    do_POST = do_GET\n"
        "    def log_message(self, *args):\n"
        "        pass\n"
        "stand_in = HTTPServer(('127.0.0.1', 0), Rules)\n"
        "threading.Thread(target=stand_in.serve_forever, daemon=True).start()\n"
        "sys.argv = ['shutthebox', 'loadtest', '--url', f'http://127.0.0.1:{stand_in.server_port}',"
        f" '--games', '2', *{transport!r}]\n"
        "from shutthebox.cli.main import main\n"
        "import shutthebox.cli.load, shutthebox.ops.loadtest.play\n"
        "real, sys.stdout = sys.stdout, io.StringIO()\n"
        "try:\n"
        "    status = main()\n"
        "finally:\n"
        "    out, sys.stdout = sys.stdout.getvalue(), real\n"
        "print(status, 'errors' in out)\n"
        "print(repr(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    ran, names = done.stdout.splitlines()[-2:]
    assert ran == "1 True", done.stdout  # the games were tried, and failed: nothing listens there
    modules = set(ast.literal_eval(names))
    assert "websockets" in modules and "h11" in modules
    assert not {name.split(".")[0] for name in modules} & SERVER_SIDE
    ours = sorted(name for name in modules if name.startswith(SERVER_PACKAGES))
    assert not ours, ours
