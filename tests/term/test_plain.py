"""The plain line-by-line game: typed rolls and moves in, lines out."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from drive import random_action
from shutthebox import (
    DiceChoice,
    Game,
    GameRecord,
    Match,
    Mode,
    Move,
    Phase,
    RecordError,
    Roll,
    Rules,
    replay,
)
from shutthebox.i18n import using
from shutthebox.term.plain import PlainGame

SHUTTHEBOX = Path(sys.executable).parent / "shutthebox"

# The worked turn of rules §2: shut 8, 7, 6, 4 and 3+2, then a 3+1 cannot be used.
TO_1_5_9 = ["4,4", "8", "3,4", "7", "3,3", "6", "2,2", "4", "2,3", "3+2", "3,1"]


def run(lines: list[str], rules: Rules | None = None, lang: str = "en") -> tuple[Match | None, Game, str]:
    """Play ``lines`` as typed input; the game has seeded dice, but every roll here is typed."""
    game = Game(rules or Rules(mode=Mode.SOLO), ["Ana"], seed=0)
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{line}\n" for line in lines))
    plain = PlainGame(game, stdin=stdin, stdout=out)  # type: ignore[arg-type]
    with using(lang):
        return plain.run(), game, out.getvalue()


def test_a_solo_game_with_typed_rolls() -> None:
    final, game, out = run(TO_1_5_9)
    assert final is game.state and final.is_over
    assert final.history[0].board.open_tiles == (1, 5, 9) and final.history[0].score == 15
    assert [str(e.action) for e in game.events] == [line.replace(",", "+") for line in TO_1_5_9]
    lines = out.splitlines()
    assert lines[0] == "Shut the Box"
    assert lines[1].startswith("Rules: 9 ") and "solo" in lines[1]
    assert lines[2] == "Ana's turn"
    assert lines[3] == "Board: 1 2 3 4 5 6 7 8 9"
    assert "Ana rolls 4+4 = 8" in out
    assert "Board: 1 2 3 4 5 6 7 · 9\n" in out
    assert "Board: 1 · · · 5 · · · 9\n" in out
    assert "Ana rolls 3+1 = 4" in out
    assert "No open tiles make 4: the turn is over." in lines
    assert "Ana scores 15 (open: 1, 5, 9), grade C." in lines
    assert lines.index("Ana scores 15 (open: 1, 5, 9), grade C.") >= len(lines) - 2


def test_a_solo_game_with_sum_plus_roll_scores_19() -> None:
    final, _, out = run(TO_1_5_9, rules=Rules(mode=Mode.SOLO, scoring="sum-plus-roll"))  # type: ignore[arg-type]
    assert final is not None and final.history[0].score == 19
    assert "Ana scores 19 (open: 1, 5, 9), grade C." in out


# Each bad answer, and where in TO_1_5_9 it is typed: at a roll prompt or at a move prompt.
BAD_ANSWERS = [
    (0, "x"), (0, "7,7"), (0, "3"), (0, "1,2,3"), (0, "0,4"),
    (1, "9"), (1, "nine"), (1, "5+4"), (1, "8+8"), (1, "13"), (1, "4,4"),
    (3, "8"), (3, "4+2"), (9, "4+1"),
]


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    clean_final, clean_game, clean_out = run(TO_1_5_9)
    for at, answer in BAD_ANSWERS:
        lines = [*TO_1_5_9[:at], answer, *TO_1_5_9[at:]]
        final, game, out = run(lines)
        assert final == clean_final, answer
        assert game.events == clean_game.events, answer
        assert len(out.splitlines()) > len(clean_out.splitlines()), answer  # a message was printed
    _, _, out = run(["x", *TO_1_5_9[:1], "nine", *TO_1_5_9[1:]])
    assert "'x'" in out and "'nine'" in out  # the messages quote what was typed


def test_question_mark_lists_the_legal_moves_and_h_asks_for_a_hint() -> None:
    final, _, out = run([*TO_1_5_9[:1], "?", "h", *TO_1_5_9[1:]])
    assert final is not None and final.history[0].score == 15
    listed = out.split("Legal moves: ")[1].splitlines()[0].split(", ")
    assert sorted(listed) == sorted(["8", "7+1", "6+2", "5+3", "5+2+1", "4+3+1"])
    assert "No hint available here." in out


def test_the_dice_choice_prompt() -> None:
    lines = ["6,3", "9", "6,2", "8", "4,3", "7", "x", "3", "1", "5", "5", "2", "1,1", "2", "1", "2"]
    final, game, out = run(lines)
    assert final is not None and final.is_over
    assert out.count("One die or two? [1/2] ") == 5  # twice refused ("x", "3"), then 1, 2 and 1
    assert "Ana rolls 5 = 5" in out
    assert "Ana rolls 2 = 2" in out
    assert final.history[0].board.open_tiles == (1, 3, 4, 6)
    assert final.history[0].score == 14
    assert sum(1 for e in game.events if type(e.action).__name__ == "DiceChoice") == 3


def test_input_running_out_abandons_the_game() -> None:
    final, game, out = run(TO_1_5_9[:4])
    assert final is None and not game.state.is_over
    assert out.rstrip().endswith("Game abandoned.")
    assert game.state.board.open_tiles == (1, 2, 3, 4, 5, 6, 9)


def test_spanish_text() -> None:
    _, _, out = run(TO_1_5_9, lang="es")
    assert out.startswith("Cerrar la Caja\n")
    assert "Turno de Ana" in out
    assert "Ana anota 15 (abiertas: 1, 5, 9), calificación C." in out


class _RandomBot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Match) -> DiceChoice | Move:
        return random_action(state, self.rng)  # type: ignore[return-value]


def test_bots_play_a_round_to_the_end() -> None:
    rng = random.Random(6)
    game = Game(Rules(stake=1), ["Ana", "Bot"], seed=6, bots={0: _RandomBot(rng), 1: _RandomBot(rng)})
    out = io.StringIO()
    state = PlainGame(game, stdin=io.StringIO(""), stdout=out).run()
    assert state is not None and state.is_over
    text = out.getvalue()
    assert "rolls one die to decide who starts" in text
    assert f"{state.players[state.order[0]]} starts." in text
    assert "Ledger: " in text
    winner = state.players[state.winner] if state.winner is not None else None
    assert (f"{winner} wins the game!" in text) if winner else ("The game is drawn." in text)


def solo_answers(seed: int) -> tuple[str, Game]:
    """What a person would type, deciding the way this test does, in the game of ``seed``."""
    game = Game(Rules(mode=Mode.SOLO), ["Ana"], seed=seed)
    answers = []
    while not game.state.is_over:
        state = game.state
        if state.phase is Phase.ROLL:
            game.roll()
            answers.append("")
        elif state.phase is Phase.CHOOSE:
            game.act(DiceChoice(2))
            answers.append("2")
        else:
            move = state.legal_moves[-1]
            game.act(move)
            answers.append(str(move))
    return "".join(f"{a}\n" for a in answers), game


def test_a_real_pipe_run_plays_to_the_end_and_records_its_seed(tmp_path: Path) -> None:
    """Regression: ``play --plain --seed 1 --save`` wrote ``"seed": null`` (every roll counted as
    typed), so replay could not check the rolls and the game was not a fair best."""
    text, expected = solo_answers(1)
    record = tmp_path / "game.json"
    env = {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{tmp_path / 'history.db'}", "LANG": "C"}
    done = subprocess.run(
        [str(SHUTTHEBOX), "--lang", "en", "play", "Ana", "--plain", "--seed", "1", "--save", str(record)],
        input=text, capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    turn = expected.state.history[0]
    if turn.board.is_shut:
        assert "Ana shuts the box! Score 0, grade S." in done.stdout
    else:
        open_tiles = ", ".join(map(str, turn.board.open_tiles))
        assert f"Ana scores {sum(turn.board.open_tiles)} (open: {open_tiles})" in done.stdout
    rolls = [e.action for e in expected.events if isinstance(e.action, Roll)]
    assert done.stdout.count("Ana rolls ") == len(rolls)
    assert "Game abandoned." not in done.stdout
    assert record.exists()
    saved = GameRecord.load(record)
    assert saved.events == expected.events  # the same game, action for action
    assert saved.seed == 1 and not saved.typed
    assert "New personal best for Ana on 9 tiles" in done.stdout
    forged = saved.to_json()
    forged["events"][0]["roll"] = [7 - face for face in forged["events"][0]["roll"]]
    with pytest.raises(RecordError, match=r"event 0: roll .* is not what seed 1 gives"):
        replay(GameRecord.from_json(forged))
    replayed = subprocess.run(
        [str(SHUTTHEBOX), "replay", str(record)],
        capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert replayed.returncode == 0 and "Replay matches the record." in replayed.stdout
