"""The solver's work as a server asks for it: each job one function of plain values, so it can run in
a worker process (the server's `web.door`) and come back as plain values.

A worker process keeps the solver's caches between jobs, so the hints of one rule set share one
solve there as they would in one process. Words are left to the server, which says them in each
reader's language: jobs give back values, advice, reviews and `Phrase` s.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from shutthebox.core.board import Move
from shutthebox.core.daily import Challenge
from shutthebox.core.errors import Phrase
from shutthebox.core.match import DiceChoice, Match
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Rules
from shutthebox.strategy import advice as advice_module
from shutthebox.strategy.advice import Advice, Seat
from shutthebox.strategy.budget import advise_within
from shutthebox.strategy.cheatsheet import Sheet
from shutthebox.strategy.cheatsheet import cheatsheet as sheet_of
from shutthebox.strategy.daily import Outcome, optimal_outcome
from shutthebox.strategy.names import Objective
from shutthebox.strategy.review import Review, review
from shutthebox.strategy.solver import keep_rounds_in
from shutthebox.strategy.tables import table_text
from shutthebox.strategy.trainer import Goal, Puzzle, explain, puzzles

__all__ = [
    "bot_move", "cheatsheet", "daily_optimal", "hint", "puzzle_answers", "puzzle_json", "reviewed",
    "shelved", "solve_ahead", "trainer_pool", "warm",
]

Result = TypeVar("Result")


PARENT_CHECK_SECONDS = 1.0
"""How often a worker process looks whether the server that started it is still there."""


def warm(server: int | None = None) -> None:
    """Start a worker process: what the jobs need is imported once (its first job then starts at
    once), and it ends by itself once the ``server`` process that started it is gone (killed with
    -9, it could not say so): a restarted server never finds the last one's workers still about."""
    if server is not None:
        threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def shelved(folder: str | None, max_bytes: int, job: Callable[..., Result], *args: Any) -> Result:
    """``job(*args)`` with the large rounds kept in ``folder``, ``max_bytes`` of them at most
    (`strategy.solver.shelf`): a round this machine solved once is read back, in whichever worker
    process, across restarts."""
    keep_rounds_in(Path(folder) if folder is not None else None, max_bytes)
    return job(*args)


def solve_ahead(rules: Rules, objective: Objective, target: int | None, seat: Seat, opening: bool) -> None:
    """Solve the round a room will ask its hints and bots of, before anyone asks (kept here and on
    the shelf): the first hint of a round of eight on 12 tiles then answers at once."""
    advice_module.solution_for(rules, objective, target, opening=opening, seat=seat)


def hint(state: Match, objective: Objective, target: int | None, seat: Seat | None, opening: bool) -> Any:
    """The advice for the player to act in ``state``, ranked by ``objective``, as JSON (the solve made
    first, and kept in this process for the next positions of these rules)."""
    advice_module.solution_for(state.rules, objective, target, opening=opening, seat=seat)
    return advice_module.advise(state, objective, target).to_json()


def bot_move(state: Match, objective: Objective, target: int | None) -> DiceChoice | Move:
    """The solver's bot's choice in ``state``, ranked by ``objective`` (as the server planned it: the
    objective of the moment, or the cheaper one over its budget)."""
    best = advice_module.advise(state, objective, target).best
    assert best is not None
    return best.action


def reviewed(record: GameRecord, max_cells: int, max_bytes: int) -> Review:
    """The review of ``record``, each decision advised within the budget."""
    return review(record, lambda state: advise_within(state, max_cells, max_bytes))


def cheatsheet(rules: Rules) -> Sheet:
    return sheet_of(rules)


def value_table(rules: Rules, objective: Objective) -> str:
    """The value table's JSON (`strategy.tables`): a text, cheap to send back and to keep."""
    return table_text(rules, objective)


def trainer_pool(rules: Rules, goal: Goal) -> tuple[tuple[Puzzle, ...], dict[str, Any]]:
    """The trainer's pool of ``rules`` and ``goal``, and each puzzle's JSON (its answers need the solver)."""
    pool = puzzles(rules, goal)
    return pool, {puzzle.key: puzzle.to_json() for puzzle in pool}


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    return puzzle.to_json()


def puzzle_answers(puzzle: Puzzle) -> tuple[Advice, dict[str, Phrase]]:
    """Every answer of ``puzzle`` ranked, and for each (by its label) why the best is best against it."""
    advice = puzzle.advice()
    return advice, {str(choice.action): explain(puzzle, choice.action) for choice in advice.choices}


def daily_optimal(challenge: Challenge, server_seed: bytes) -> Outcome:
    return optimal_outcome(challenge, server_seed)
