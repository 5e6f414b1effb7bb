"""The plain game's prompts (issue 30): ``?`` answers about the prompt at hand, a quit word, a game
left unfinished says so (and the command fails), and a tile limit is named in its refusal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from shutthebox import Game, Mode, Rules, ScriptedDice
from shutthebox.core.dice import Roll
from shutthebox.i18n import activate
from shutthebox.term.plain import PlainGame

SHUTTHEBOX = Path(sys.executable).parent / "shutthebox"


def play(rules: Rules, answers: str, *rolls: str) -> tuple[Game, str, PlainGame]:
    game = Game(rules, ["Ana"], dice=ScriptedDice([Roll.parse(r) for r in rolls]))
    out = io.StringIO()
    plain = PlainGame(game, stdin=io.StringIO(answers), stdout=out)
    plain.run()
    return game, out.getvalue(), plain


def test_a_question_mark_at_the_roll_says_how_to_roll() -> None:
    game, out, _ = play(Rules(mode=Mode.SOLO), "?\n", "3,4")
    assert "companion" not in out, out
    assert "Press Enter to roll" in out and "q quits" in out
    assert game.events == []


def test_q_before_anything_is_played_leaves_at_once() -> None:
    game, out, plain = play(Rules(mode=Mode.SOLO), "q\n", "3,4")
    assert "Quit this game?" not in out and game.events == [] and plain.status == 0


def test_quit_mid_game_asks_first_and_no_keeps_playing() -> None:
    game, out, plain = play(Rules(mode=Mode.SOLO), "\nquit\nn\n7\nq\ny\n", "3,4", "6,6")
    assert out.count("Quit this game? It is not over.") == 2
    assert 7 not in game.state.board  # "n" kept the game going: 7 was shut
    assert not game.state.is_over and out.rstrip().endswith("Game abandoned.")
    assert plain.status == 0  # left on purpose


def test_salir_and_si_quit_in_spanish() -> None:
    activate("es")
    game, out, _ = play(Rules(mode=Mode.SOLO), "\nsalir\ns\n", "3,4")
    assert "¿Salir de esta partida? No ha terminado." in out, out
    assert "Partida abandonada." in out and not game.state.is_over


def test_a_tile_limit_refusal_names_the_rule() -> None:
    _, out, _ = play(Rules(mode=Mode.SOLO, max_tiles=2), "\n1+2+4\n", "3,4")
    assert "'1+2+4': at most 2 tiles a roll" in out, out


def test_end_of_input_mid_game_says_so_and_the_command_fails(tmp_path: Path) -> None:
    env = {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{tmp_path / 'history.db'}", "LANG": "C"}
    done = subprocess.run(
        [str(SHUTTHEBOX), "--lang", "en", "play", "Ana", "--plain", "--seed", "1"],
        input="\n", capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert "The game was left unfinished" in done.stdout, done.stdout
    assert done.returncode == 1, done.stderr
    before = subprocess.run(  # nothing played: nothing left unfinished
        [str(SHUTTHEBOX), "--lang", "en", "play", "Ana", "--plain", "--seed", "1"],
        input="", capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert before.returncode == 0 and "unfinished" not in before.stdout
