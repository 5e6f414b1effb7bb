"""Game review: optimal play is graded perfect; a deliberate mistake costs exactly its value."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from shutthebox import DiceChoice, Game, GameRecord, Mode, Move, Phase, Roll, Rules, legal_moves
from shutthebox.core.board import mask_of
from shutthebox.core.chance import SeededDice
from shutthebox.strategy.bots import make_bot
from shutthebox.strategy.review import VERDICTS, review, verdict
from shutthebox.strategy.solver import Objective
from shutthebox.strategy.solver.exact import exact_value
from tests.support.drive import action

SOLO = Rules(mode=Mode.SOLO)


def bot_game(rules: Rules, seats: int, seed: int, name: str = "optimal") -> GameRecord:
    players = [f"P{i}" for i in range(seats)]
    bots = [make_bot(name, random.Random(seed + i)) for i in range(seats)]
    game = Game(rules, players, seed=seed)
    while not game.state.is_over:
        state = game.state
        if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
            game.roll()
        else:
            assert state.actor is not None
            game.act(bots[state.actor].think(state))
    return game.record()


def scripted_game(rules: Rules, script: str, seed: int = 0) -> Game:
    """A game at a real box whose first actions (rolls included) are scripted; then optimal play,
    with dice from ``seed``, to the end."""
    game = Game(rules, ["P"], by_hand=True)
    for token in script.split():
        game.act(action(token))
    bot, dice = make_bot("optimal"), SeededDice(seed)
    while not game.state.is_over:
        if game.state.phase is Phase.ROLL:
            game.act(dice.roll(game.state.dice_due))
        else:
            game.act(bot.think(game.state))
    return game


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        (Rules(), 2),
        (Rules(shut_wins=False, tiles=6), 3),
        (Rules(mode=Mode.SOLO, scoring="digits", one_die="sum-le-6"), 1),  # type: ignore[arg-type]
        (Rules(mode=Mode.ELIMINATION, tiles=6, limit=12), 2),
        (Rules(mode=Mode.LONG, tiles=6), 2),
    ],
    ids=lambda v: v.describe() if isinstance(v, Rules) else f"{v} seats",
)
def test_optimal_play_is_graded_perfect(rules: Rules, seats: int) -> None:
    graded = 0
    for seed in range(3):
        record = GameRecord.loads(bot_game(rules, seats, seed).dumps())
        result = review(record)
        assert result.decisions
        for decision in result.decisions:
            assert decision.verdict == "best", decision
            assert decision.loss == 0
            assert decision.chosen == decision.best or decision.value_chosen == decision.value_best
        assert all(score == 100.0 for score in result.accuracy.values())
        graded += len(result.accuracy)
    assert graded > 0


def test_a_bad_move_on_a_full_board_with_a_9() -> None:
    full = SOLO.full_mask
    expected = {m: exact_value(SOLO, "score", board=full ^ m.mask) for m in legal_moves(SOLO, full, 9)}
    best, worst = min(expected, key=expected.__getitem__), max(expected, key=expected.__getitem__)
    assert best == Move.parse("9") and worst == Move.parse("6+2+1")
    game = scripted_game(SOLO, f"r4,5 m{worst}")
    result = review(game.record())
    first = result.decisions[0]
    assert (first.chosen, first.best, first.roll) == (worst, best, Roll.of(4, 5))
    assert first.objective is Objective.SCORE
    assert first.loss == pytest.approx(float(expected[worst] - expected[best]), abs=1e-9)
    assert first.value_chosen == pytest.approx(float(expected[worst]), abs=1e-9)
    assert first.verdict == "blunder"
    assert all(d.verdict == "best" for d in result.decisions[1:])
    choices = [d for d in result.decisions if d.had_choice]
    kept = float(expected[best] / expected[worst])  # the blunder keeps best/chosen of the value
    assert result.accuracy["P"] == round(100 * (len(choices) - 1 + kept) / len(choices), 1) < 100


def test_a_bad_dice_choice_on_1_and_2() -> None:
    # With {1, 2} open, one die expects 23/12 and two dice 599/216 (see test_advice): rolling
    # two costs 599/216 - 414/216 = 185/216.
    script = "r6,3 m9 r6,2 m8 r4,3 m7 d1 r6 m6 d1 r5 m5 d1 r4 m4 d1 r3 m3 d2 r1,2 m2+1"
    result = review(scripted_game(SOLO, script).record())
    at_1_2 = [d for d in result.decisions if d.board.mask == mask_of((1, 2)) and d.roll is None]
    assert len(at_1_2) == 1
    decision = at_1_2[0]
    assert decision.chosen == DiceChoice(2) and decision.best == DiceChoice(1)
    assert decision.loss == pytest.approx(float(Fraction(185, 216)), abs=1e-12)
    assert decision.verdict != "best"
    assert result.accuracy["P"] < 100
    data = result.to_json()
    assert data["decisions"][result.decisions.index(decision)]["chosen"] == {"dice": 2}


def test_verdicts_grow_with_the_loss() -> None:
    assert verdict(0.0, 11.0, Objective.SCORE) == "best"
    assert verdict(0.0, 0.4, Objective.BEAT) == "best"
    for objective, best in ((Objective.SCORE, 11.0), (Objective.SHUT, 0.1), (Objective.LONG, 0.6)):
        words = [verdict(loss, best, objective) for loss in (1e-6, 1e-3, 0.01, 0.05, 0.2, 1.0, 30.0)]
        ranks = [VERDICTS.index(w) for w in words]
        assert ranks == sorted(ranks) and words[0] != "best" and words[-1] == "blunder"
