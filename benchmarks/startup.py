"""Start-up of the command, whole process, against a bare Python start-up measured in the same run.

    python benchmarks/startup.py [--runs 40]

Each command runs ``--runs`` times, interleaved with the others (so a noisy
moment hits them all alike); the figure is the median wall time of one whole
process, and the ratio is against ``python -c pass`` of the same interpreter.
The second line is a floor, not a command: the standard modules a hint cannot
do without in this code (its parser, its result dataclasses, its JSON).
``scores`` reads a history of 200 finished games in a temporary SQLite file.
``play`` runs in a pseudo-terminal of 80x24 and is timed until its first screen
is drawn (the game's key bar, or the setup form's legend), then told to quit.
Modules load from their bytecode, as they do once the command has run once.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def _history(path: Path, games: int) -> None:
    """A history of finished games (solo, rounds, some with typed dice), as players leave them."""
    from shutthebox.core.game import Game
    from shutthebox.core.rules import Mode, Rules
    from shutthebox.storage import Database, GameRepository

    rng = random.Random(7)
    with Database.open(f"sqlite:///{path}") as database:
        repository = GameRepository(database)
        for index in range(games):
            rules = Rules(tiles=rng.choice((9, 10, 12)), mode=Mode.SOLO if index % 3 else Mode.ROUND)
            players = ["Ana"] if rules.mode is Mode.SOLO else ["Ana", "Luis", "Eva"][: rng.randint(2, 3)]
            game = Game(rules, players, seed=index)
            while not game.state.is_over:
                state = game.state
                game.roll() if state.is_chance else game.act(rng.choice(state.legal_actions()))
            game.save(repository, source="terminal")


def _until_drawn(command: list[str], env: dict[str, str], shown: bytes, seconds: float = 30) -> float:
    """Run ``command`` in an 80x24 pseudo-terminal; the seconds until its output holds ``shown``."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in the terminal
        os.execve(command[0], command, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    try:
        while shown not in seen:
            if time.perf_counter() - start > seconds:
                raise RuntimeError(f"{command}: {shown!r} not drawn in {seconds} s")
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                seen = seen[-4096:] + os.read(fd, 65536)
        return time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    try:
        _history(folder / "history.db", 200)
        env = {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{folder / 'history.db'}", "LANG": "C"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a player's machine: modules load from bytecode
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            # The floor of a hint within our style: its parser, its result dataclasses, its JSON.
            "python -c 'import argparse, dataclasses, json'": [
                sys.executable, "-c", "import argparse, dataclasses, json"
            ],
            "shutthebox --help": [str(BIN / "shutthebox"), "--help"],
            "shutthebox --lang es --help": [str(BIN / "shutthebox"), "--lang", "es", "--help"],
            "shutthebox scores": [str(BIN / "shutthebox"), "scores"],
            "shutthebox scores --json": [str(BIN / "shutthebox"), "scores", "--json"],
            "shutthebox hint (4 open tiles)": [
                str(BIN / "shutthebox"), "hint", "--open", "1,4,5,8", "--dice", "3,6", "--json"
            ],
            "shutthebox hint (12 open tiles)": [
                str(BIN / "shutthebox"), "hint", "--tiles", "12", "--open", ",".join(map(str, range(1, 13))),
                "--dice", "3,6", "--json",
            ],
        }
        terminal = {**env, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        screens = {  # the command, and words its first screen draws
            "shutthebox play Ana (game)": ([str(BIN / "shutthebox"), "play", "Ana"], b"roll"),
            "shutthebox play (setup)": ([str(BIN / "shutthebox"), "play"], b"Ctrl+S"),
        }
        times: dict[str, list[float]] = {name: [] for name in [*commands, *screens]}
        for _ in range(3):  # warm the file cache and the bytecode
            for command in commands.values():
                subprocess.run(command, env=env, capture_output=True, check=True)
            for command, shown in screens.values():
                _until_drawn(command, terminal, shown)
        for _ in range(args.runs):
            for name, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, env=env, capture_output=True, check=True)
                times[name].append(time.perf_counter() - start)
            for name, (command, shown) in screens.items():
                times[name].append(_until_drawn(command, terminal, shown))
        bare = statistics.median(times["python -c pass"])
        print(f"{'command':48} {'median':>9} {'ratio':>7}   ({args.runs} runs each, interleaved)")
        for name, measured in times.items():
            median = statistics.median(measured)
            print(f"{name:48} {median * 1000:7.1f} ms {median / bare:6.2f}x")
    finally:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
