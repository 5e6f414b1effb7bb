"""The trainer: positions where the obvious answer is wrong, and a schedule to see missed ones again.

A *puzzle* is one decision (a position and its roll, or a position before its
roll: one die or two?) under a rule set and an objective, where the habits most
players have — the highest tiles first (greedy), or the board likelier to use
the next roll (heuristic) — cost something against the exact solver. They are
mined from every reachable position, weighted by how often optimal play meets
them and how much the habit costs there, so the pool is the mistakes that cost
most in real games. The best answer is always the solver's argmax (a test holds
every puzzle to it), and `explain` gives the numbers behind it in player terms.

Each player and each puzzle has a Glicko-2 rating (`shutthebox.core.glicko`);
a missed puzzle comes back soon, a solved one later and later (`schedule`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from shutthebox.core.board import Move, mask_sum
from shutthebox.core.chance import outcomes
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import Figure, ParseError, Phrase
from shutthebox.core.glicko import Rating, update
from shutthebox.core.rules import Mode, Rules
from shutthebox.core.tiles import tiles_of
from shutthebox.strategy.advice import Advice, advise_position, solution_for
from shutthebox.strategy.bots import greedy_move, heuristic_dice, heuristic_move, usable
from shutthebox.strategy.names import Objective
from shutthebox.strategy.review import Review

__all__ = [
    "GOALS", "INTERVALS", "Goal", "Puzzle", "explain", "pick", "pool_key", "puzzles", "rate", "reach",
    "schedule",
]

EXACT = 1e-9
"""A loss this small is a tie: either answer is right."""
INTERVALS = (timedelta(minutes=2), timedelta(days=1), timedelta(days=3), timedelta(days=7),
             timedelta(days=16), timedelta(days=35))
"""When a puzzle comes back: after a miss the first, after each answer in a row the next."""


@dataclass(frozen=True, slots=True)
class Goal:
    """What the player plays for: an objective, the score to beat for ``beat``."""

    objective: Objective
    target: int | None = None

    @property
    def key(self) -> str:
        return str(self.objective) if self.target is None else f"{self.objective}-{self.target}"

    @classmethod
    def parse(cls, key: str) -> Goal:
        """``score``, ``shut``, ``long`` or ``beat-K`` (a score to beat, 1 to 10,000)."""
        for goal in GOALS:
            if goal.key == key:
                return goal
        beat, _, target = key.partition("-")
        if beat == str(Objective.BEAT) and target.isdigit() and 1 <= int(target) <= 10_000:
            return cls(Objective.BEAT, int(target))
        known = ", ".join(g.key for g in GOALS)
        raise ParseError("the trainer's goals are {goals}, not {key!r}", goals=known, key=key)


GOALS = (Goal(Objective.SCORE), Goal(Objective.SHUT), Goal(Objective.BEAT, 10), Goal(Objective.LONG))
"""The goals the trainer teaches: the lowest score, shutting the box, beating 10, the long game."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One decision where a common habit errs: the tiles open, the roll (None: the dice to roll)."""

    rules: Rules
    goal: Goal
    open: int
    roll: Roll | None
    habit: str  # "greedy" or "heuristic": whose answer is wrong here
    weight: float  # how much the habit costs per turn played optimally, from this decision

    @property
    def key(self) -> str:
        """Names the puzzle in the store: the rules, the goal, the position, the roll."""
        rules = json.dumps(self.rules.to_dict(), sort_keys=True, separators=(",", ":"))
        return f"{rules}|{self.goal.key}|{self.open}|{self.roll or '-'}"

    @classmethod
    def from_key(cls, key: str) -> Puzzle:
        """The puzzle a key names (its habit and weight unknown: only the question). A key that
        names none is not repeated: a client that sends its profile key here gets it back nowhere."""
        try:
            rules, goal, open_, roll = key.rsplit("|", 3)
            return cls(Rules.from_dict(json.loads(rules)), Goal.parse(goal), int(open_),
                       None if roll == "-" else Roll.parse(roll), "", 0.0)
        except (ValueError, TypeError, RecursionError):  # RecursionError: JSON nested past Python's limit
            raise ParseError("this key names no puzzle: send the key a puzzle came with") from None

    def advice(self) -> Advice:
        """Every answer ranked by the exact solver."""
        return advise_position(
            self.rules, self.open, self.roll, objective=self.goal.objective, target=self.goal.target
        )

    @property
    def answers(self) -> tuple[DiceChoice | Move, ...]:
        """The answers to choose from, in a fixed order that tells nothing (the highest tiles first)."""
        if self.roll is None:
            return tuple(DiceChoice(c) for c in self.rules.dice_options(self.open))
        moves = [choice.action for choice in self.advice().choices]
        return tuple(sorted(moves, key=lambda m: m.tiles, reverse=True))  # type: ignore[union-attr]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rules": self.rules.to_dict(),
            "goal": self.goal.key,
            "objective": str(self.goal.objective),
            "target": self.goal.target,
            "open": list(tiles_of(self.open)),
            "roll": list(self.roll.dice) if self.roll is not None else None,
            "answers": [_answer_json(a) for a in self.answers],
            "habit": self.habit,  # whose answer errs here: greedy, heuristic, or yours (your games)
        }


def _answer_json(action: DiceChoice | Move) -> dict[str, Any]:
    if isinstance(action, Move):
        return {"shut": list(action.tiles), "label": str(action)}
    return {"dice": action.count, "label": str(action)}


def pool_key(rules: Rules, goal: Goal) -> str:
    """Names a pool (one rule set and goal): the first parts of its puzzles' keys."""
    return Puzzle(rules, goal, 0, None, "", 0.0).key.rsplit("|", 2)[0]


def training_rules(rules: Rules, goal: Goal) -> Rules:
    """The rules a goal is played under: the long game's own mode, else the rules as they are."""
    return rules.but(mode=Mode.LONG) if goal.objective is Objective.LONG else rules


@lru_cache(maxsize=32)
def puzzles(rules: Rules, goal: Goal, count: int = 60) -> tuple[Puzzle, ...]:
    """The ``count`` decisions where the greedy or the heuristic habit costs most per turn of
    optimal play: the chance optimal play meets the decision times what the habit loses there."""
    rules = training_rules(rules, goal)
    met = reach(rules, goal)
    found: list[Puzzle] = []
    for board, chance in met.items():
        if board == 0:  # the box is shut: nothing to decide
            continue
        options = rules.dice_options(board)
        if len(options) > 1:
            found.extend(_dice_puzzles(rules, goal, board, chance))
        for roll, p in _rolls(max(options)):
            found.extend(_move_puzzles(rules, goal, board, roll, chance * p))
    found.sort(key=lambda puzzle: (-puzzle.weight, puzzle.key))
    return tuple(found[:count])


def _rolls(count: int) -> list[tuple[Roll, float]]:
    """One roll of each (total, double or not), with its chance."""
    seen: dict[tuple[int, bool], tuple[Roll, float]] = {}
    for roll, p in outcomes(count):
        key = (roll.total, roll.is_double)
        kept = seen.get(key)
        seen[key] = (kept[0] if kept else roll, (kept[1] if kept else 0.0) + float(p))
    return list(seen.values())


def _dice_puzzles(rules: Rules, goal: Goal, board: int, chance: float) -> list[Puzzle]:
    puzzle = Puzzle(rules, goal, board, None, "", 0.0)
    advice = puzzle.advice()
    habits = {
        "greedy": DiceChoice(min(rules.dice_options(board))),
        "heuristic": DiceChoice(heuristic_dice(rules, board)),
    }
    return [
        Puzzle(rules, goal, board, None, habit, chance * loss)
        for habit, choice in habits.items()
        if (loss := advice.loss_of(choice)) > EXACT
    ][:1]


def _move_puzzles(rules: Rules, goal: Goal, board: int, roll: Roll, chance: float) -> list[Puzzle]:
    puzzle = Puzzle(rules, goal, board, roll, "", 0.0)
    advice = puzzle.advice()
    moves = [choice.action for choice in advice.choices]
    if len(moves) < 2:
        return []
    habits = {"greedy": greedy_move(moves), "heuristic": heuristic_move(rules, board, moves)}  # type: ignore[arg-type]
    return [
        Puzzle(rules, goal, board, roll, habit, chance * loss)
        for habit, move in habits.items()
        if (loss := advice.loss_of(move)) > EXACT
    ][:1]


@lru_cache(maxsize=32)
def reach(rules: Rules, goal: Goal) -> dict[int, float]:
    """The chance that a turn played optimally from the full board meets each board."""
    solution = solution_for(rules, goal.objective, goal.target)
    full = (1 << rules.tiles) - 1
    reach = {full: 1.0}
    for board in sorted(range(1, full + 1), key=lambda b: -b.bit_count()):  # every parent before its children
        chance = reach.get(board)
        if not chance:
            continue
        options = rules.dice_options(board)
        dice = solution.best_dice(board) if len(options) > 1 else options[0]
        for roll, p in outcomes(dice):
            move = solution.best_move(board, roll)
            if move is not None:
                after = board ^ move.mask
                reach[after] = reach.get(after, 0.0) + chance * float(p)
    return reach


def explain(puzzle: Puzzle, chosen: DiceChoice | Move | None = None) -> Phrase:
    """Why the best answer is best, in numbers a player can check: for a move, the chance that the
    next roll can be played from what each leaves open; for the dice, each one's chance to move;
    then what the other answer (the one chosen, or the runner-up) costs, played on at best."""
    advice = puzzle.advice()
    best = advice.best
    assert best is not None
    rules = puzzle.rules
    other = chosen if chosen is not None and chosen != best.action else next(
        (c.action for c in advice.choices if c.action != best.action), best.action
    )
    loss = advice.loss_of(other)
    points = Figure(loss, 2) if advice.objective is Objective.SCORE else Figure(100 * loss, 1)
    cost = (
        Phrase("Played on at best, {other} costs {points} points of expected score.",
               {"other": other, "points": points})
        if advice.objective is Objective.SCORE
        else Phrase("Played on at best, {other} costs {points} percentage points of the chance.",
                    {"other": other, "points": points})
    )
    if puzzle.roll is None:
        assert isinstance(best.action, DiceChoice) and isinstance(other, DiceChoice)
        return Phrase(
            "Here {best} makes a move {p_best} of the time, {other} {p_other}. {cost}",
            {"best": best.action, "other": other, "cost": cost,
             "p_best": _percent(usable(rules, puzzle.open, best.action.count)),
             "p_other": _percent(usable(rules, puzzle.open, other.count))},
        )
    assert isinstance(best.action, Move) and isinstance(other, Move)
    left_best, left_other = puzzle.open & ~best.action.mask, puzzle.open & ~other.mask
    return Phrase(
        "{best} leaves {left_best} open (sum {sum_best}), where the next roll can be played {p_best} of "
        "the time; {other} leaves {left_other} (sum {sum_other}), {p_other}. {cost}",
        {"best": str(best.action), "other": str(other), "left_best": _tiles(left_best),
         "left_other": _tiles(left_other), "sum_best": mask_sum(left_best), "sum_other": mask_sum(left_other),
         "p_best": _percent(_coverage(rules, left_best)), "p_other": _percent(_coverage(rules, left_other)),
         "cost": cost},
    )


def _coverage(rules: Rules, board: int) -> float:
    return 1.0 if board == 0 else max(usable(rules, board, count) for count in rules.dice_options(board))


def _tiles(board: int) -> str:
    return " ".join(map(str, tiles_of(board))) or "—"


def _percent(chance: float) -> Figure:
    return Figure(chance, 0, percent=True)


def schedule(streak: int, correct: bool, now: datetime) -> tuple[int, datetime]:
    """The answers in a row after this one, and when the puzzle comes back: a miss soon (two
    minutes: later in the same session), each right answer in a row later (a day, three, a week…)."""
    streak = streak + 1 if correct else 0
    return streak, now + INTERVALS[min(streak, len(INTERVALS) - 1)]


def pick(
    pool: tuple[Puzzle, ...], seen: dict[str, datetime], difficulty: dict[str, Rating], player: Rating,
    now: datetime, *, own: tuple[Puzzle, ...] = (), chance: random.Random | None = None,
) -> tuple[Puzzle, bool]:
    """The next puzzle, and whether it is one seen before: the one due longest (a miss comes back
    soon), else a mistake of the player's own games not asked yet (``own``), else the unseen one
    whose ``difficulty`` is nearest the ``player``'s rating (when every one is seen, any of the
    pool). ``seen`` gives when each answered puzzle comes back. Of unseen ones as near as each
    other (a new player's: every one), ``chance`` deals one (without it, the first of the pool)."""
    due = sorted((when, key) for key, when in seen.items() if when <= now)
    if due:
        return Puzzle.from_key(due[0][1]), True
    fresh = [p for p in own if p.key not in seen]
    if fresh:
        return fresh[0], False
    unseen = [p for p in pool if p.key not in seen] or list(pool)
    def distance(p: Puzzle) -> float:
        return abs(difficulty.get(p.key, Rating()).rating - player.rating)

    least = min(map(distance, unseen))
    nearest = [p for p in unseen if distance(p) - least < 1e-9]
    return (chance.choice(nearest) if chance is not None else nearest[0]), False


def rate(player: Rating, puzzle: Rating, right: bool) -> tuple[Rating, Rating]:
    """Both ratings after one answer: a game the player wins when the answer is the best."""
    score = 1.0 if right else 0.0
    return update(player, [(puzzle, score)]), update(puzzle, [(player, 1.0 - score)])


def mistakes(review: Review, player: str, rules: Rules, goal: Goal) -> tuple[Puzzle, ...]:
    """The decisions ``player`` got wrong in a reviewed game (a mistake or a blunder), as puzzles of
    the pool of ``rules`` and ``goal``: those made under that goal (a long game's as its shutter)."""
    found = []
    for decision in review.decisions:
        if decision.player != player or decision.verdict not in ("mistake", "blunder") or decision.opening:
            continue
        if (decision.objective, decision.target) != (goal.objective, goal.target):
            continue
        roll = decision.roll if isinstance(decision.chosen, Move) else None
        found.append(Puzzle(rules, goal, decision.board.mask, roll, "yours", decision.loss))
    return tuple(found)
