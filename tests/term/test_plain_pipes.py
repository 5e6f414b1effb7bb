"""``shutthebox play`` line by line through real pipes: bots, companion mode, history, scores."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox import Game, Mode, Phase, Rules
from shutthebox.storage import Database
from shutthebox.term.hints import hint_text
from shutthebox.term.plain import PlainGame
from shutthebox.term.session import PlaySetup

# A companion solo game: 6+6 shut 9+3, 5+4 shut 8+1, 6+6 shut 7+5, two dice 1+1 shut 2,
# one die 4 shut 4, one die 5 cannot be used: 6 is left.
COMPANION = ["6 6", "9+3", "5,4", "8 1", "6+6", "7,5", "2", "1 1", "2", "1", "4", "4", "1", "5"]


def shutthebox(
    args: list[str], lines: list[str], db: Path, *, lang: str = "C"
) -> subprocess.CompletedProcess[str]:
    """Run the command with ``lines`` on a pipe as its standard input, its output on a pipe."""
    env = {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{db}", "LANG": lang, "LC_ALL": lang}
    return subprocess.run(
        [sys.executable, "-m", "shutthebox", *args],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.mark.slow
def test_a_companion_game_through_a_pipe_advises_and_is_kept_but_counts_for_no_best(db: Path) -> None:
    run = shutthebox(["play", "Ana", "--companion"], COMPANION, db)  # not a terminal: plain by itself
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "\x1b[" not in out  # no full-screen escape codes on a pipe
    lines = out.splitlines()
    assert lines[:3] == [
        "Shut the Box",
        "Rules: 9 tiles · solo",
        "Companion mode: roll the real dice, type the faces, see the best move.",
    ]
    assert out.count("Hint: Best: shut ") == 5  # before each move, unasked
    assert "Hint: Best: two dice" in out or "Hint: Best: one die" in out  # before each dice choice
    assert "Ana rolls 5+4 = 9" in out and "Ana shuts 8+1." in out
    assert "Ana scores 6 (open: 6), grade B." in out
    assert "Final score 6, grade B." in out
    assert "Saved to your history (game 1)." in out
    assert "The dice were typed in, so this game counts for no best." in out
    assert "personal best" not in out

    worse = ["1 1", "2", "1,1"]  # 2, then 1+1 cannot be used: 43
    again = shutthebox(["play", "Ana", "--companion"], worse, db)
    assert "Ana scores 43" in again.stdout
    assert "counts for no best" in again.stdout

    scores = shutthebox(["scores"], [], db)
    assert scores.returncode == 0, scores.stderr
    assert scores.stdout.count("#") == 2 and "solo, 9 tiles · Ana: 43" in scores.stdout
    data = json.loads(shutthebox(["scores", "--json"], [], db).stdout)
    assert data["bests"] == []
    assert [(g["source"], g["typed"]) for g in data["games"]] == [("companion", True)] * 2


@pytest.mark.slow
def test_bad_typed_dice_and_moves_get_a_message_and_change_nothing(db: Path, tmp_path: Path) -> None:
    clean = shutthebox(["play", "Ana", "--companion", "--save", str(tmp_path / "a.json")], COMPANION, db)
    assert clean.returncode == 0, clean.stderr
    bad = [*COMPANION[:2], "7 1", "x", "1 2 3", "", *COMPANION[2:3], "9", "nine", *COMPANION[3:]]
    messy = shutthebox(["play", "Ana", "--companion", "--save", str(tmp_path / "b.json")], bad, db)
    assert messy.returncode == 0, messy.stderr
    out = messy.stdout
    assert "'7 1' is not two dice showing 1 to 6; nothing changed." in out
    assert "'x' is not two dice showing 1 to 6; nothing changed." in out
    assert "'1 2 3' is not two dice showing 1 to 6; nothing changed." in out
    assert "Type the faces of the dice you rolled (1 to 6)." in out
    assert "'9' is not a move for 9 here; legal moves: 5+4, 6+2+1, 7+2, 8+1" in out  # 9 is shut
    assert "'nine' is not a move for 9 here" in out
    first = json.loads((tmp_path / "a.json").read_text())
    second = json.loads((tmp_path / "b.json").read_text())
    assert first["events"] == second["events"] and first["result"] == second["result"]


class _Answers(io.StringIO):
    """Standard input that answers as it is asked: Enter to roll, the first legal move."""

    def __init__(self, game: Game, bots: set[int]) -> None:
        super().__init__()
        self.game = game
        self.bots = bots
        self.given: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        state = self.game.state
        if state.phase is Phase.MOVE:
            answer = str(state.legal_moves[0])
        elif state.phase is Phase.CHOOSE:
            answer = "2"
        else:
            answer = ""
        self.given.append(answer)
        return answer + "\n"


@pytest.mark.slow
def test_a_seeded_round_against_bots_replays_the_same_through_a_pipe(db: Path) -> None:
    rules = Rules(mode=Mode.ROUND, stake=1)
    setup = PlaySetup(rules=rules, humans=("Ana",), bots=("expert", "easy"), seed=11)
    game = setup.new_game()
    answers = _Answers(game, set(setup.bot_seats))
    out = io.StringIO()
    PlainGame(game, stdin=answers, stdout=out, hint=lambda state: hint_text("en", state)).run()
    assert game.state.is_over
    run = shutthebox(["play", "Ana", "--bot", "expert", "--bot", "easy", "--seed", "11", "--stake", "1",
                      "--plain"], answers.given, db)
    assert run.returncode == 0, run.stderr
    expected = out.getvalue()
    assert run.stdout.startswith(expected)  # then the line about the history
    assert "Bot (expert) rolls" in expected and "Bot (easy)" in expected
    assert "Ledger: " in expected


def test_a_long_game_for_three_or_an_unknown_bot_is_refused(db: Path) -> None:
    run = shutthebox(["play", "Ana", "Luis", "Eva", "--mode", "long", "--plain"], [], db)
    assert run.returncode == 2 and "the long game is played by two players, not 3" in run.stderr
    run = shutthebox(["play", "Ana", "--bot", "genius", "--plain"], [], db)
    assert run.returncode == 2 and "unknown bot 'genius'" in run.stderr


@pytest.mark.slow
def test_spanish_from_the_locale_and_from_lang(db: Path) -> None:
    run = shutthebox(["play", "Ana", "--companion"], ["1 1", "2", "1 1"], db, lang="es_ES.UTF-8")
    assert run.stdout.splitlines()[:2] == ["Cerrar la Caja", "Reglas: 9 fichas · solitario"]
    assert "Ana anota 43 (abiertas: 1, 3, 4, 5, 6, 7, 8, 9), calificación F." in run.stdout
    assert "Guardada en tu historial (partida 1)." in run.stdout
    run = shutthebox(["play", "Ana", "--lang", "es", "--companion"], ["9"], db)
    assert "'9' no es dos dados de 1 a 6; no ha cambiado nada." in run.stdout
    assert "Partida abandonada." in run.stdout
    scores = shutthebox(["--lang", "es", "scores"], [], db)
    assert "Mejores marcas (por tamaño de tablero y reglas):" in scores.stdout


def test_scores_with_no_history_yet_says_so_and_makes_none(db: Path) -> None:
    run = shutthebox(["scores"], [], db)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"No history at {db} yet: no game has been saved there."]
    assert not db.exists()


def test_scores_with_an_empty_history(db: Path) -> None:
    Database.open(f"sqlite:///{db}").close()  # a history made, with no game in it
    run = shutthebox(["scores"], [], db)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "Personal bests (per board size and rules):",
        "  none yet",
        "Recent games:",
        "  none yet",
    ]
