"""The trainer's positions: each one's best answer is the exact optimum (against the test suite's own
recursion, written from the rules alone), the habit it is mined for does err there, the pool is the
costliest mistakes first, the explanation's numbers are counted again, missed puzzles come back soon."""

from __future__ import annotations

import itertools
import pickle
from datetime import UTC, datetime, timedelta

import pytest

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice
from shutthebox.core.errors import ParseError
from shutthebox.core.rules import Rules
from shutthebox.i18n import say, using
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver import solve_long
from shutthebox.strategy.trainer import GOALS, INTERVALS, Goal, Puzzle, explain, puzzles, schedule
from tests.support.oracle import TurnOracle, TurnRules, faces, moves_of

RULE_SETS = [
    Rules.preset("web", tiles=7), Rules.preset("classic", tiles=7), Rules.preset("two-dice", tiles=6)
]
ONE_TURN = [(r, g) for r in RULE_SETS for g in GOALS if g.objective is not Objective.LONG]


def oracle_for(rules: Rules, goal: Goal) -> TurnOracle:
    turn = TurnRules(
        rules.tiles, str(rules.one_die), rules.one_die_forced, rules.max_tiles, str(rules.scoring),
        rules.doubles_extra_turn,
    )
    return TurnOracle(turn, str(goal.objective), goal.target)


def oracle_best(puzzle: Puzzle) -> float:
    """The best answer's value by the oracle, in its units (an expected score, or a chance)."""
    oracle = oracle_for(puzzle.rules, puzzle.goal)
    if puzzle.roll is None:
        values = [oracle.option(puzzle.open, 0, count) for count in puzzle.rules.dice_options(puzzle.open)]
        return min(values) if puzzle.goal.objective is Objective.SCORE else max(values)
    after = [oracle.value(puzzle.open ^ m) for m in moves_of(puzzle.open, puzzle.roll.total, None)]
    return min(after) if puzzle.goal.objective is Objective.SCORE else max(after)


@pytest.mark.parametrize(("rules", "goal"), ONE_TURN, ids=str)
def test_every_puzzles_best_answer_is_the_optimum_and_its_habit_errs(rules: Rules, goal: Goal) -> None:
    pool = puzzles(rules, goal)
    assert pool and [p.weight for p in pool] == sorted((p.weight for p in pool), reverse=True)
    for puzzle in pool:
        advice = puzzle.advice()
        assert advice.best is not None
        assert advice.best.value == pytest.approx(float(oracle_best(puzzle)), abs=1e-9)
        assert set(puzzle.answers) == {c.action for c in advice.choices} and len(puzzle.answers) >= 2
        assert puzzle.habit in ("greedy", "heuristic") and puzzle.weight > 0
        assert max(c.loss for c in advice.choices) > 1e-9  # there is a wrong answer to give


def test_the_long_games_puzzles_take_the_long_games_values() -> None:
    pool = puzzles(Rules.preset("web", tiles=7), Goal(Objective.LONG))
    long = solve_long(pool[0].rules).shutter
    assert all(p.rules.mode.value == "long" for p in pool)
    for puzzle in pool:
        best = puzzle.advice().best
        assert best is not None
        if puzzle.roll is not None:
            assert best.value == pytest.approx(long.move_values(puzzle.open, puzzle.roll)[0][1], abs=1e-12)


def test_the_habits_answer_is_the_one_that_costs() -> None:
    """Greedy shuts the highest tiles: on the puzzles mined for it, that move loses."""
    pool = [p for p in puzzles(Rules.preset("web", tiles=9), Goal(Objective.SCORE)) if p.habit == "greedy"]
    assert pool
    for puzzle in pool:
        advice = puzzle.advice()
        if puzzle.roll is None:
            habit: DiceChoice | Move = DiceChoice(min(puzzle.rules.dice_options(puzzle.open)))
        else:
            habit = max((c.action for c in advice.choices), key=lambda m: m.tiles)  # type: ignore[union-attr]
        assert advice.loss_of(habit) > 1e-9


def test_a_puzzle_is_named_by_its_key() -> None:
    for puzzle in puzzles(Rules.preset("web", tiles=9), Goal(Objective.BEAT, 10))[:10]:
        again = Puzzle.from_key(puzzle.key)
        assert (again.rules, again.goal, again.open, again.roll) == (puzzle.rules, puzzle.goal, puzzle.open,
                                                                     puzzle.roll)
    with pytest.raises(ParseError, match="names no puzzle"):
        Puzzle.from_key("nonsense")
    with pytest.raises(ParseError, match="names no puzzle"):  # was a RecursionError: a 500 and a traceback
        Puzzle.from_key("[" * 5000 + "|score|1|-")
    with pytest.raises(ParseError, match="score, shut, beat-10, long, not 'win'"):
        Goal.parse("win")


def test_the_explanation_counts_the_rolls_that_can_be_played() -> None:
    rules = Rules.preset("web", tiles=9)
    puzzle = next(p for p in puzzles(rules, Goal(Objective.SCORE)) if p.roll is not None)
    advice = puzzle.advice()
    best = advice.best
    assert best is not None and isinstance(best.action, Move)
    left = puzzle.open & ~best.action.mask

    def playable(board: int) -> float:  # counted again: rolls of the better number of dice with a move
        return max(sum(1 for roll in faces(c) if moves_of(board, sum(roll), None)) / len(faces(c))
                   for c in rules.dice_options(board))

    text = say(explain(puzzle))
    assert f"{best.action} leaves" in text and f"{100 * playable(left):.0f}%" in text
    other = next(c for c in advice.choices if c.action != best.action)
    assert f"{other.loss:.2f} points of expected score" in say(explain(puzzle, other.action))


def test_the_explanation_writes_its_numbers_as_the_readers_language_does() -> None:
    """Regression: made in a solver's process, the explanation held its numbers written already, so a
    Spanish reader saw "cuesta 0.66 puntos" beside the page's "11,09" (and "97 %" in English)."""
    rules = Rules.preset("web", tiles=9)
    puzzle = next(p for p in puzzles(rules, Goal(Objective.SCORE)) if p.roll is not None)
    advice = puzzle.advice()
    other = next(c for c in advice.choices if c.action != advice.best.action) if advice.best else None
    assert other is not None
    made = pickle.loads(pickle.dumps(explain(puzzle, other.action)))  # as from a solver process
    with using("es"):
        spanish = say(made)
    assert f"cuesta {other.loss:.2f}".replace(".", ",") in spanish and "\u00a0%" in spanish, spanish
    assert f"costs {other.loss:.2f} points" in say(made) and "\u00a0%" not in say(made)


def test_a_miss_comes_back_in_two_minutes_and_each_answer_in_a_row_later() -> None:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    assert schedule(3, False, now) == (0, now + timedelta(minutes=2))
    streak, due = 0, now
    dues = []
    for _ in range(8):
        streak, due = schedule(streak, True, now)
        dues.append(due - now)
    assert dues == [*INTERVALS[1:], INTERVALS[-1], INTERVALS[-1], INTERVALS[-1]]
    assert all(a <= b for a, b in itertools.pairwise(dues))
