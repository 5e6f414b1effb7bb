"""The plain line-by-line game: answers in, lines out; the game rolls, typed dice only in companion mode."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

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
    ScriptedDice,
    replay,
)
from shutthebox.i18n import using
from shutthebox.strategy.bots import Seated, make_bot
from shutthebox.term.plain import PlainGame
from tests.support.drive import random_action
from tests.support.tui import ROLLS, Broken, Wrong, dice

SHUTTHEBOX = Path(sys.executable).parent / "shutthebox"

# The worked turn of rules §2: shut 8, 7, 6, 4 and 3+2, then a 3+1 cannot be used.
ROLLS_1_5_9 = ["4,4", "3,4", "3,3", "2,2", "2,3", "3,1"]
TO_1_5_9 = ["", "8", "", "7", "", "6", "", "4", "", "3+2", ""]
"""What Ana answers: Enter to roll, then the tiles to shut."""
REFUSED = "typed dice are for companion mode (--companion) only, at a real box; press Enter to roll."


def run(
    lines: list[str],
    rolls: list[str] = ROLLS_1_5_9,
    rules: Rules | None = None,
    lang: str = "en",
    hint: object = None,
) -> tuple[Match | None, Game, str]:
    """Play ``lines`` as typed answers; the game rolls ``rolls`` when Enter asks it to."""
    game = Game(rules or Rules(mode=Mode.SOLO), ["Ana"], dice=ScriptedDice([Roll.parse(r) for r in rolls]))
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{line}\n" for line in lines))
    plain = PlainGame(game, stdin=stdin, stdout=out, hint=hint)  # type: ignore[arg-type]
    with using(lang):
        return plain.run(), game, out.getvalue()


def test_a_solo_game_rolled_by_the_game() -> None:
    final, game, out = run(TO_1_5_9)
    assert final is game.state and final.is_over
    assert final.history[0].board.open_tiles == (1, 5, 9) and final.history[0].score == 15
    assert [str(e.action) for e in game.events] == [
        "4+4", "8", "3+4", "7", "3+3", "6", "2+2", "4", "2+3", "3+2", "3+1"
    ]
    assert not any(e.typed for e in game.events)
    lines = out.splitlines()
    assert lines[0] == "Shut the Box"
    assert lines[1].startswith("Rules: 9 ") and "solo" in lines[1]
    assert lines[2] == "Ana's turn"
    assert lines[3] == "Board: 1 2 3 4 5 6 7 8 9"
    assert "Press Enter to roll (two dice): Ana rolls 4+4 = 8" in out
    assert "type" not in out  # the prompt no longer invites typing the dice
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
    (0, "x"), (0, "7,7"), (0, "3"), (0, "1,2,3"), (0, "0,4"), (0, "4,4"), (0, "4 4"), (10, "3,1"),
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
    _, _, out = run(["x", *TO_1_5_9[:2], "nine", *TO_1_5_9[2:]])
    assert "'x'" in out and "'nine'" in out  # the messages quote what was typed


def test_typed_dice_outside_companion_mode_are_refused_and_change_nothing() -> None:
    """Regression: the plain game took typed dice in any game, and their score counted as a best."""
    game = Game(Rules(mode=Mode.SOLO), ["Ana"])  # fair dice: a ranked game
    out = io.StringIO()
    before = game.state
    PlainGame(game, stdin=io.StringIO("6,6\n6 6\n"), stdout=out).run()  # type: ignore[arg-type]
    assert game.state is before and game.events == []
    text = out.getvalue()
    assert text.count(f"'6,6': {REFUSED} Nothing changed.") == 1
    assert f"'6 6': {REFUSED} Nothing changed." in text
    assert "Ana rolls" not in text and text.rstrip().endswith("Game abandoned.")


def test_question_mark_lists_the_legal_moves_and_h_asks_for_a_hint() -> None:
    final, game, out = run([*TO_1_5_9[:1], "?", "h", *TO_1_5_9[1:]])
    assert final is not None and final.history[0].score == 15
    listed = out.split("Legal moves: ")[1].splitlines()[0].split(", ")
    assert sorted(listed) == sorted(["8", "7+1", "6+2", "5+3", "5+2+1", "4+3+1"])
    assert "No hint available here." in out
    assert game.assisted == {0}


def test_hints_in_an_unranked_game_come_at_once_and_are_noted_in_the_record() -> None:
    def hint(state: Match) -> str:
        return "shut 8"

    _, game, out = run([*TO_1_5_9[:1], "h", "h", *TO_1_5_9[1:3], "h", *TO_1_5_9[3:]], hint=hint)
    assert out.count("Hint: shut 8") == 3 and "asked for a hint" not in out and "Press h again" not in out
    assert game.record().assisted == (0,) and len(game.record().helped) == 1  # once a turn
    _, quiet, out = run(TO_1_5_9, hint=hint)
    assert not quiet.assisted and "asked for a hint" not in out


def test_hints_in_companion_mode_are_the_advice_and_mark_nobody() -> None:
    game = Game(Rules(mode=Mode.SOLO), ["Ana"], by_hand=True)
    out = io.StringIO()
    answers = io.StringIO("4,4\nh\n8\n")
    PlainGame(game, stdin=answers, stdout=out, hint=lambda state: "shut 8").run()  # type: ignore[arg-type]
    assert not game.assisted and "asked for a hint" not in out.getvalue()
    assert [e.typed for e in game.events] == [True, False]


def test_a_game_on_a_chosen_seed_says_it_is_practice_at_the_start() -> None:
    game = Game(Rules(mode=Mode.SOLO), ["Ana"], seed=7)
    out = io.StringIO()
    PlainGame(game, stdin=io.StringIO(""), stdout=out).run()  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert lines[2] == "Practice game: the dice come from seed 7, so this game counts for no best."
    fair = io.StringIO()
    PlainGame(Game(Rules(mode=Mode.SOLO), ["Ana"]), stdin=io.StringIO(""), stdout=fair).run()  # type: ignore[arg-type]
    assert "Practice" not in fair.getvalue()


def test_the_dice_choice_prompt() -> None:
    rolls = ["6,3", "6,2", "4,3", "5", "1,1", "2"]
    lines = ["", "9", "", "8", "", "7", "x", "3", "1", "", "5", "2", "", "2", "1", ""]
    final, game, out = run(lines, rolls)
    assert final is not None and final.is_over
    assert out.count("One die or two? [1/2] ") == 5  # twice refused ("x", "3"), then 1, 2 and 1
    assert "Press Enter to roll (one die): Ana rolls 5 = 5" in out
    assert "Ana rolls 2 = 2" in out
    assert final.history[0].board.open_tiles == (1, 3, 4, 6)
    assert final.history[0].score == 14
    assert sum(1 for e in game.events if type(e.action).__name__ == "DiceChoice") == 3


def test_input_running_out_abandons_the_game() -> None:
    final, game, out = run(TO_1_5_9[:4])
    assert final is None and not game.state.is_over
    unfinished = "The game was left unfinished: the input ended before it was over."
    assert out.rstrip().endswith(f"Game abandoned.\n{unfinished}")
    assert game.state.board.open_tiles == (1, 2, 3, 4, 5, 6, 9)


def test_spanish_text() -> None:
    _, _, out = run(TO_1_5_9, lang="es")
    assert out.startswith("Cerrar la Caja\n")
    assert "Turno de Ana" in out
    assert "Ana anota 15 (abiertas: 1, 5, 9), calificación C." in out
    _, _, out = run(["4,4"], lang="es")
    assert "'4,4': los dados se escriben solo en modo compañero (--companion)" in out


class _RandomBot:
    fallback = None
    patience = None

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def think(self, state: Match) -> DiceChoice | Move:
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


@pytest.mark.slow
def test_a_real_pipe_run_on_a_chosen_seed_is_practice_and_records_its_seed(tmp_path: Path) -> None:
    """Regression: ``play --plain --seed 1 --save`` wrote ``"seed": null`` (every roll counted as
    typed), so replay could not check the rolls. A chosen seed is a practice game: it says so at the
    start and at the end, and counts for no best."""
    text, expected = solo_answers(1)
    record = tmp_path / "game.json"
    env = {**os.environ, "SHUTTHEBOX_DB": f"sqlite:///{tmp_path / 'history.db'}", "LANG": "C"}
    done = subprocess.run(
        [str(SHUTTHEBOX), "--lang", "en", "play", "Ana", "--plain", "--seed", "1", "--save", str(record)],
        input=text, capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Practice game: the dice come from seed 1, so this game counts for no best." in done.stdout
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
    assert saved.events == tuple(expected.events)  # the same game, action for action
    assert saved.seed == 1 and not saved.typed and saved.kind == "practice"
    assert "A practice game (dice from the chosen seed 1), so it counts for no best." in done.stdout
    assert "personal best" not in done.stdout
    forged = saved.to_json()
    forged["events"][0]["roll"] = [7 - face for face in forged["events"][0]["roll"]]
    with pytest.raises(RecordError, match=r"event 0: roll .* is not what seed 1 gives"):
        replay(GameRecord.from_json(forged))
    replayed = subprocess.run(
        [str(SHUTTHEBOX), "replay", str(record)],
        capture_output=True, text=True, timeout=60, check=False, env=env,
    )
    assert replayed.returncode == 0 and "Replay matches the record." in replayed.stdout


class _Answers(io.StringIO):
    """Standard input that answers as it is asked: Enter to roll, two dice, the last legal move."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def readline(self, size: int | None = -1) -> str:
        state = self.game.state
        if state.phase is Phase.MOVE:
            return f"{state.legal_moves[-1]}\n"
        return "2\n" if state.phase is Phase.CHOOSE else "\n"


def test_a_fair_game_counts_for_the_best_and_its_record_is_proven(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from shutthebox.core.verify import verify
    from shutthebox.term.saving import save_finished
    from shutthebox.term.session import PlaySetup

    monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{tmp_path / 'history.db'}")
    setup = PlaySetup(rules=Rules(mode=Mode.SOLO), humans=("Ana",))
    game = setup.new_game()
    out = io.StringIO()
    assert PlainGame(game, stdin=_Answers(game), stdout=out).run() is game.state
    assert "Practice" not in out.getvalue() and game.ranked
    lines = save_finished(game, setup.humans)
    assert lines[0] == "Saved to your history (game 1)."
    assert lines[1].startswith("New personal best for Ana on 9 tiles: ")
    created = "Your player profile Ana was created; its secret key stays in your data folder."
    assert lines[2:] == [created]  # the first game saved here
    record = game.record()
    assert record.kind == "ranked" and verify(record).proven


def test_a_question_mark_at_the_dice_choice_explains_it_and_asks_for_no_hint() -> None:
    """Regression: ``?`` at "One die or two?" asked for a hint, and a hint costs the player's best."""
    asked: list[Match] = []

    def hint(state: Match) -> str:
        asked.append(state)
        return "two dice"

    rolls = ["6,3", "6,2", "4,3", "5", "1,1", "2"]
    lines = ["", "9", "", "8", "", "7", "?", "1", "", "5", "2", "", "2", "1", ""]
    final, game, out = run(lines, rolls, hint=hint)
    assert final is not None and final.history[0].score == 14  # the game as without the "?"
    assert "Type 1 to roll one die or 2 to roll two dice; h asks for a hint." in out
    assert not asked and not game.assisted and "Hint: " not in out and "no best" not in out


class _AsksHints(_Answers):
    """`_Answers`, with ``h`` typed first at a decision: ``presses(player, n)`` times at that player's
    decision numbered ``n`` (from 0)."""

    def __init__(self, game: Game, presses: dict[tuple[int, int], int]) -> None:
        super().__init__(game)
        self.presses = presses
        self.at: Match | None = None
        self.left = 0
        self.decisions: dict[int, int] = {}

    def readline(self, size: int | None = -1) -> str:
        state = self.game.state
        if state.is_decision and state is not self.at:
            assert state.actor is not None
            self.at = state
            n = self.decisions.get(state.actor, 0)
            self.decisions[state.actor] = n + 1
            self.left = self.presses.get((state.actor, n), 0)
        if state.is_decision and self.left:
            self.left -= 1
            return "h\n"
        return super().readline(size)


def hint_warning(player: str, score: int) -> str:
    return f"A hint now makes {player}'s turn count {score} in the rankings. Press h again to see it."


def test_in_a_ranked_game_the_first_hint_of_each_player_is_warned_of_and_asked_again() -> None:
    """Regression: the first ``h`` of a ranked game showed the hint at once and cost the player's
    best without a word before. Now it says the price; a second ``h`` shows it; later ones come at
    once; and another player is warned for themselves."""
    from tests.support.drive import fair_dice_for

    rolls = [Roll.parse(r) for r in ("6", "1", "3,4", "6,6")]  # Ana starts, then rolls 3+4 and 6+6
    game = Game(Rules(), ["Ana", "Luis"], dice=fair_dice_for(rolls))
    assert game.ranked
    asked: list[Match] = []

    def hint(state: Match) -> str:
        asked.append(state)
        return "shut 7"

    answers = _AsksHints(game, {(0, 0): 2, (0, 1): 1, (1, 0): 1})
    out = io.StringIO()
    assert PlainGame(game, stdin=answers, stdout=out, hint=hint).run() is game.state
    text = out.getvalue()
    assert text.count(hint_warning("Ana", 45)) == 1 and text.count(hint_warning("Luis", 45)) == 1
    notice = "Ana asked for a hint: this turn counts 45 in the rankings, as it stood."
    assert text.count(notice) == 1
    assert text.index(hint_warning("Ana", 45)) < text.index(notice) < text.index("Hint: shut 7")
    assert text.count("Hint: shut 7") == 2 == len(asked)  # the second h, then at once
    assert [s.actor for s in asked] == [0, 0]
    assert game.assisted == {0} and game.record().assisted == (0,)  # Luis was only warned
    assert "Luis asked for a hint" not in text


def test_the_warning_lapses_once_the_game_moves_on() -> None:
    from tests.support.drive import fair_dice_for

    game = Game(Rules(mode=Mode.SOLO), ["Ana"], dice=fair_dice_for([Roll.parse("3,4"), Roll.parse("6,6")]))
    answers = _AsksHints(game, {(0, 0): 1, (0, 1): 1})  # one h at 3+4, a move, one h at 6+6
    out = io.StringIO()
    PlainGame(game, stdin=answers, stdout=out, hint=lambda state: "shut 9+3").run()  # type: ignore[arg-type]
    text = out.getvalue()
    assert text.count("A hint now makes Ana's turn count ") == 2 and "Hint: " not in text
    assert not game.assisted


def test_hints_in_a_practice_game_cost_no_best_and_come_at_once() -> None:
    """A chosen seed counts for no best already: its hints are shown without a warning."""
    _, game, out = run([*TO_1_5_9[:1], "h", *TO_1_5_9[1:]], hint=lambda state: "shut 8")
    assert not game.ranked and out.count("Hint: shut 8") == 1 and "Press h again" not in out


class _Slow:
    """A bot that keeps the game waiting until let go (then it would shut 7)."""

    fallback, patience = None, None

    def __init__(self) -> None:
        self.go = threading.Event()

    def think(self, state: Match) -> DiceChoice | Move:
        self.go.wait(10)
        return Move.parse("7")


@pytest.mark.parametrize("kind", ["fails", "is refused", "takes too long"])
def test_a_bot_that_fails_is_refused_or_takes_too_long_is_replaced_by_its_fallback(kind: str) -> None:
    """As in the Textual app (tests/term/test_tui_bots.py): Ana's 6+6 ends her turn on one tile a roll;
    the bot's 3+4 can only shut 7, which its fallback (the heuristic) does."""
    slow = _Slow()
    own = {"fails": Broken(), "is refused": Wrong(), "takes too long": slow}[kind]
    bot = Seated(own, make_bot("heuristic"), 0.05 if kind == "takes too long" else None)  # type: ignore[arg-type]
    game = Game(Rules(mode=Mode.ROUND, max_tiles=1), ["Ana", "Bot"], dice=dice(*ROLLS), bots={1: bot})
    out = io.StringIO()
    try:
        state = PlainGame(game, stdin=io.StringIO("\n\n"), stdout=out).run()
    finally:
        slow.go.set()
    assert state is not None and state.is_over and [t.score for t in state.history] == [45, 38]
    assert "Bot shuts 7." in out.getvalue() and 1 in game.bots


def test_when_even_the_fallback_is_refused_the_person_plays_the_seat() -> None:
    bot = Seated(Wrong(), Wrong())  # type: ignore[arg-type]
    game = Game(Rules(mode=Mode.ROUND, max_tiles=1), ["Ana", "Bot"], dice=dice(*ROLLS), bots={1: bot})
    out = io.StringIO()
    state = PlainGame(game, stdin=io.StringIO("\n\n7\n\n"), stdout=out).run()  # then 7 for the seat
    assert state is not None and state.is_over and 1 not in game.bots
    text = out.getvalue()
    assert "Not allowed: " in text and "Tiles to shut for 7" in text and "Bot shuts 7." in text
