"""``shutthebox train``: the trainer's puzzles in the terminal, line by line.

The same pools, ratings and schedule as the web page's trainer, kept in the
history database under this machine's profile (made on first use, as ``play``
makes it): a puzzle missed here comes back here and on the page of a server that
shares the database.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime

from shutthebox.cli.parser import CliError
from shutthebox.cli.paths import check_database
from shutthebox.core.board import Move
from shutthebox.core.dice import DiceChoice
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import _, say
from shutthebox.storage import Database, ProfileRepository
from shutthebox.storage.trainer import TrainerRepository
from shutthebox.strategy.names import Objective
from shutthebox.strategy.trainer import (
    EXACT,
    Goal,
    Puzzle,
    explain,
    pick,
    pool_key,
    puzzles,
    rate,
    schedule,
    training_rules,
)
from shutthebox.term.profile import link_profile, read_profile

__all__ = ["run_train"]


def run_train(args: argparse.Namespace) -> int:
    try:
        goal = Goal.parse(args.goal)
        rules = training_rules(Rules.preset(args.preset, tiles=args.tiles, mode=Mode.SOLO), goal)
    except ShutTheBoxError as error:
        raise CliError("{error}", error=error) from None
    pool = puzzles(rules, goal)
    if not pool:
        raise CliError("no position of these rules fools a common habit: try more tiles")
    check_database(create=True)
    local = read_profile()
    name = args.player or (local.name if local else _("Player"))
    with Database.open() as database:
        shown = [local.name if local else name]
        seats, news = link_profile(ProfileRepository(database), shown, shown)
        if news:
            print(news)
        if 0 not in seats:
            raise CliError("the trainer keeps a rating: it needs this machine's profile")
        profile_id, kept = seats[0], TrainerRepository(database)
        right = answered = 0
        chance = random.Random(args.seed)  # deals among the puzzles as near the rating: not always the first
        for number in range(1, args.count + 1):
            standing = kept.standing(profile_id)
            seen = kept.reviews(profile_id, pool_key(rules, goal))
            difficulty = kept.difficulties([p.key for p in pool])
            puzzle, again = pick(pool, seen, difficulty, standing.rating, datetime.now(UTC), chance=chance)
            kept.deal(profile_id, puzzle.key, datetime.now(UTC))  # the trainer rates the puzzles it dealt
            print()
            print(_("Puzzle {n} of {of} · your rating {rating}").format(
                n=number, of=args.count, rating=round(standing.rating.rating)))
            if again:
                print(_("You missed this one before: here it is again."))
            chosen = _ask(puzzle, goal)
            if chosen is None:  # the end of input ends the session: what was answered is summed up
                break
            right += _answered(kept, profile_id, puzzle, chosen)
            answered += 1
        print()
        if answered:
            print(_("Session over: {right} of {of} right.").format(right=right, of=answered))
        else:
            print(_("Session over: no puzzle answered."))
    return 0


def _ask(puzzle: Puzzle, goal: Goal) -> DiceChoice | Move | None:
    """Show the puzzle and read an answer (its number, or the tiles); None at the end of input."""
    board = " ".join(str(t) if puzzle.open >> (t - 1) & 1 else "·" for t in range(1, puzzle.rules.tiles + 1))
    print(_("Board: {tiles}").format(tiles=board))
    aim = goal_words(goal)
    if puzzle.roll is None:
        print(_("Before the roll: one die or two? (goal: {goal})").format(goal=aim))
    else:
        print(_("You rolled {roll}. Which tiles do you shut? (goal: {goal})").format(
            roll=" + ".join(map(str, puzzle.roll.dice)), goal=aim))
    answers = puzzle.answers
    print("  ".join(f"{i}) {say(a) if puzzle.roll is None else a}" for i, a in enumerate(answers, start=1)))
    while True:
        print(_("Your answer (its number): "), end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(answers):
            return answers[int(text) - 1]
        print(_("{text!r} is not one of the numbers 1 to {last}.").format(text=text, last=len(answers)))


def _answered(kept: object, profile_id: int, puzzle: Puzzle, chosen: DiceChoice | Move) -> int:
    """Rate and keep the answer, and say how it was: the answers ranked, why, the rating's move."""

    assert isinstance(kept, TrainerRepository)
    advice = puzzle.advice()
    right = advice.loss_of(chosen) <= EXACT
    standing, difficulty = kept.standing(profile_id), kept.difficulty(puzzle.key)
    player, position = rate(standing.rating, difficulty, right)
    streak, due = schedule(kept.streak(profile_id, puzzle.key), right, datetime.now(UTC))
    kept.answer(profile_id, puzzle.key, pool_key(puzzle.rules, puzzle.goal), right=right, player=player,
                puzzle=position, streak=streak, due=due)
    print(_("Right: that is the best answer.") if right else _("Not the best answer."))
    for choice in advice.choices:
        mark = "✓" if choice.loss <= EXACT else " "
        label = say(choice.action) if puzzle.roll is None else str(choice.action)
        value = (_("expected score {value}").format(value=f"{choice.value:.2f}") if advice.lower_is_better
                 else _("chance {value} %").format(value=f"{100 * choice.value:.1f}"))
        print(f"  {mark} {label:<12} {value}")
    print(say(explain(puzzle, chosen)))
    print(_("Your rating: {before} → {after}").format(before=round(standing.rating.rating),
                                                      after=round(player.rating)))
    return int(right)


def goal_words(goal: Goal) -> str:
    return {
        Objective.SCORE: _("the lowest score"),
        Objective.SHUT: _("shutting the box"),
        Objective.BEAT: _("a score under {target}").format(target=goal.target),
        Objective.LONG: _("winning the long game"),
    }[goal.objective]
