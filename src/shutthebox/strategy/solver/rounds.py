"""Rounds of two to eight players (rules §5.2) solved exactly: each seat plays to win, or for money.

A round of ``K`` players is a chain of turns on fresh boards. Before the turn of
seat ``j`` (0-based, in the order of play) what matters of the turns before is
the best score posted, ``b``, and how many posted it, ``k``; ``K - 1 - j``
players are still to come. The mover's turn ends on a score ``s``: below ``b``
it leads alone, equal to it it joins the tie, above it it is out; a shut box
under ``shut_wins`` wins at once. After the last turn a lone leader wins, and
``k`` tied leaders play a tie-break round among themselves, in their order:
a round of ``k`` players, solved before (``k = K`` is the round itself, below).

Every player maximizes their own payoff, so the turn of seat ``j`` in state
``(b, k)`` is solved for the mover's own column and, along the mover's choices,
a column for every other *role*: each leader by place in the tie, the players
already out (all alike), and each player still to come (but one: a round pays
its seats the same in all whatever happens, so the last role's value is that
sum less the others'). A role's payoff for each score the mover can post is a
value of the next seat's states, solved before it: backward induction over the
seats. At the first seat the roles are
the seats themselves, which gives every seat's value from the start. A mover
who values two choices the same takes two dice and the highest move, as
`shutthebox.strategy.solver.solution.Solution.best_move` does.

Payoffs: the winner gets ``win``, the others ``lose`` (1 and 0: the chance to
win, objective ``win``). For the money (objective ``stake``, in stakes) every
player put one stake in the pot of ``pot`` stakes, so the winner's result is
``pot - 1`` and the others' ``-1``, and a shut box is paid ``bonus = 2`` stakes by
every other player of the round, whether it ends the round or not; in a
tie-break the pot is still the whole pot, and only the tied pay.

When every player ties the round is played again: their values are the round's
own. Given the choices, a seat's value is then ``c + q * w``, with ``q`` the
chance of a tie of all and ``w`` the seat's value fed in; only the states where
every player so far has tied depend on ``w``. Those are solved again, a
secant step at a time (as `shutthebox.strategy.solver.duel` does for two), until
no seat's value moves by more than 1e-15.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from shutthebox.core.errors import RulesError
from shutthebox.strategy.names import ROUND_PLAYERS
from shutthebox.strategy.solver.solution import Objective, Solution
from shutthebox.strategy.solver.turn import FloatArray, IntArray, Payoffs, TurnValues

__all__ = ["Payout", "Round", "solve_round_turns"]

COLUMNS = 1024
"""The most columns one turn solve takes at once: a seat's states are solved in chunks of them."""

TurnSolver = Callable[[Payoffs, FloatArray, int], TurnValues]
"""``solve(fail, done, group)``: one turn of the round's rules (see `shutthebox.strategy.solver.turn`)."""


@dataclass(frozen=True)
class Round:
    """A solved round: every seat's value from the start, and the turn of every seat in every state."""

    players: int
    objective: Objective
    posted: tuple[int, ...]  # the scores a turn can end on, ascending
    seats: tuple[float, ...]  # each seat's value from the start, in the order of play
    turns: tuple[TurnValues, ...] = field(repr=False)  # each seat's turn, a column per state (see `column`)
    sweeps: int  # solves of the states where every player has tied
    residual: float  # the last sweep's largest change of a seat's value

    @property
    def value(self) -> float:
        """The first seat's value."""
        return self.seats[0]

    def column(self, seat: int, best: int | None = None, ties: int = 1) -> int:
        """The column of seat ``seat``'s turn when ``ties`` players posted the best score ``best``."""
        if not 0 <= seat < self.players:
            raise RulesError(
                "seat {seat} is not a seat of a round of {players} (0 to {last})",
                seat=seat, players=self.players, last=self.players - 1,
            )
        if seat == 0:
            if best is not None:
                raise RulesError("the first seat plays before any score is posted")
            return 0
        if best is None:
            raise RulesError("seat {seat} plays after a score is posted: give the best one", seat=seat)
        if best not in self.posted:
            raise RulesError("{posted} is not a score a turn can end on", posted=best)
        if not 1 <= ties <= seat:
            raise RulesError(
                "{ties} players cannot have posted the best score before seat {seat}", ties=ties, seat=seat
            )
        return self.posted.index(best) * seat + ties - 1

    def turn(self, seat: int, best: int | None = None, ties: int = 1) -> Solution:
        """The solved turn of the player in ``seat`` when ``ties`` players posted ``best``, valued in
        what is still to come: a shut box posted before was paid for when it was shut."""
        column = self.column(seat, best, ties)
        return Solution(self.turns[seat], self.objective, best, column)


@dataclass(frozen=True)
class Payout:
    """What a round pays: ``win`` to its winner and ``lose`` to the others, and ``bonus`` to a shut box
    from every other player of the round; under ``shut_wins`` a shut box wins at once."""

    win: float
    lose: float
    bonus: float
    shut_wins: bool


def solve_round_turns(
    solve_turn: TurnSolver,
    posted: FloatArray,
    rank: IntArray,
    *,
    players: int,
    payout: Payout,
    tie_break: Callable[[int], tuple[float, ...]],
    objective: Objective,
    tolerance: float = 1e-15,
) -> Round:
    """Solve a round of ``players`` whose turns ``solve_turn`` solves, ending on the scores ``posted``
    (ascending; ``rank[x, t]`` the one of target ``x`` failing total ``t``); ``tie_break(k)`` gives
    the seats' values of a tie-break round of ``k < players`` players under the same payout."""
    if players not in ROUND_PLAYERS:
        raise RulesError(
            "a round is solved for {fewest} to {most} players, not {players}",
            fewest=ROUND_PLAYERS.start, most=ROUND_PLAYERS.stop - 1, players=players,
        )
    breaks = {k: np.array(tie_break(k)) for k in range(2, players)}
    round_ = _RoundSolver(solve_turn, rank, posted.size, players=players, payout=payout, breaks=breaks)
    guess: FloatArray = np.full(players, (payout.win + (players - 1) * payout.lose) / players)  # even shares
    values = round_.solve_all(guess)
    points: list[tuple[FloatArray, FloatArray]] = []
    sweeps = 1
    while True:
        residual = float(np.abs(values - guess).max())
        if residual < tolerance or sweeps >= 200:
            break
        points.append((guess, values))
        guess = _next_guess(points)
        values = round_.solve_tied(guess)
        sweeps += 1
    return Round(
        players, objective, tuple(int(s) for s in posted), tuple(float(v) for v in values),
        tuple(round_.kept), sweeps, residual,
    )


def _next_guess(points: list[tuple[FloatArray, FloatArray]]) -> FloatArray:
    """The next point of the search for ``w = T(w)``: a secant step through the last two points while
    it keeps bringing the gap down, else ``T`` of the best point so far (a plain iteration)."""
    gaps = [float(np.abs(t - w).max()) for w, t in points]
    best = int(np.argmin(gaps))
    if len(points) < 2 or best != len(points) - 1:
        return points[best][1]
    (w0, t0), (w1, t1) = points[-2], points[-1]
    moved = w1 - w0
    slope = np.divide(t1 - t0, moved, out=np.zeros_like(moved), where=moved != 0)
    slope = np.clip(slope, 0.0, 0.99)  # T rises with the tie's value, by less than the chance of a tie
    step: FloatArray = w1 + (t1 - w1) / (1 - slope)
    return step


class _RoundSolver:
    """The backward induction of one round; ``kept`` holds each seat's turn, the mover's columns."""

    def __init__(
        self, solve_turn: TurnSolver, rank: IntArray, scores: int, *,
        players: int, payout: Payout, breaks: dict[int, FloatArray],
    ) -> None:
        self.solve_turn = solve_turn
        self.rank = rank
        self.scores = scores
        self.players = players
        self.payout = payout
        self.breaks = breaks  # the seats' values of each smaller round, for its tie-breaks
        self.width = max(players - 1, 1)  # the columns a state solves (see the roles, below)
        self.total = payout.win + (players - 1) * payout.lose  # every outcome pays the seats this in all
        self.full = rank.shape[0] - 1
        # starts[j][b, k, role]: each role's value at the start of seat j's turn in state (b, k).
        self.starts: list[FloatArray] = [np.zeros(0)] * (players + 1)
        self.kept: list[TurnValues] = []

    # -- the roles ---------------------------------------------------------------------------------
    # The values of a state, `starts[j][b, k]`, have a column per role: 0 the mover, 1 the players out,
    # 2 + p the leader in place p of the tie, 1 + j + d the player d seats after the mover. Seat
    # `players` is the end of the round: only the leaders and the players out.
    #
    # A turn solves one column fewer per state than it has roles besides the players out: whatever
    # happens, the round pays its seats `total` in all (a shut box's payments go from seat to seat),
    # so one role's value is the total less the others'. The turn's columns for seat j > 0 are the
    # mover, the leaders in places 0 to j - 2, the players to come; the players out (j - k of them),
    # or when none is out the leader in place j - 1, are what is left. For the first seat: the mover
    # and the players to come but the last.

    def _end(self, tied_all: FloatArray) -> FloatArray:
        """The values at the end of the round: a lone leader wins, ``k`` tied play a tie-break."""
        k_players = self.players
        end = np.zeros((self.scores, k_players + 1, k_players + 2))
        end[:, :, 1] = self.payout.lose
        end[:, 1, 2] = self.payout.win
        for k in range(2, k_players + 1):
            end[:, k, 2 : 2 + k] = tied_all if k == k_players else self.breaks[k]
        return end

    def _roles(self, j: int, k: int) -> list[int]:
        """The roles seat ``j``'s turn solves in a state of ``k`` tied, in the order of its columns
        (-1 for a place of the tie nobody holds in this state)."""
        later = [1 + j + d for d in range(1, self.players - j)]
        if j == 0:
            return [0, *later[:-1]]
        return [0, *(2 + p if p < k else -1 for p in range(j - 1)), *later]

    def _payoffs(self, j: int, ties: range, bests: range) -> FloatArray:
        """What seat ``j``'s turn pays each role it solves for each score, ``(scores, groups *
        width)``, for its states of a best score in ``bests`` (by index) and ``ties`` tied at it."""
        nxt = self.starts[j + 1]
        n, width = self.scores, self.width
        table = np.zeros((n, len(bests), len(ties), width))  # [score, best, ties, column]
        scores, best = np.arange(n)[:, None], np.arange(bests.start, bests.stop)[None, :]
        lead = np.ones((n, 1), dtype=np.bool_) if j == 0 else scores < best  # the first to play leads
        tie = np.zeros((n, 1), dtype=np.bool_) if j == 0 else scores == best
        for i, k in enumerate(ties):
            tied, worse = nxt[bests, min(k + 1, j + 1)], nxt[bests, k]  # (the first seat never ties)
            for column, role in enumerate(self._roles(j, k)):
                if role == 0:  # the mover leads alone, joins the tie, or is out
                    led, tie_role, worse_role = 2, 2 + k, 1
                elif role == 1 + j + 1:  # the next player is the next seat's mover
                    led = tie_role = worse_role = 0
                elif role > 1 + j:  # a player to come moves up a seat
                    led = tie_role = worse_role = role
                elif role >= 2:  # a leader is out when beaten
                    led, tie_role, worse_role = 1, role, role
                else:
                    continue
                later = np.where(tie, tied[:, tie_role], worse[:, worse_role])
                table[:, :, i, column] = np.where(lead, nxt[:, 1, led][:, None], later)
        groups = len(bests) * len(ties)
        return self._shut(table.reshape(n, groups * width), groups)

    def _shut(self, table: FloatArray, groups: int) -> FloatArray:
        """The shut box's row: it wins at once under ``shut_wins``, and is paid ``bonus`` by each
        other player of the round either way."""
        pay = self.payout
        row = table[0].reshape(groups, self.width)
        if pay.shut_wins:
            row[:, 0] = pay.win
            row[:, 1:] = pay.lose
        row[:, 0] += pay.bonus * (self.players - 1)
        row[:, 1:] -= pay.bonus
        return table

    def _expand(self, j: int, ties: range, solved: FloatArray) -> FloatArray:
        """Every role's values ``(scores, len(ties), roles)`` from the turn's columns, the role left
        out being the total less the others."""
        full = np.zeros((*solved.shape[:2], self.players + 2))
        for i, k in enumerate(ties):
            roles = self._roles(j, k)
            for column, role in enumerate(roles):
                if role >= 0:
                    full[:, i, role] = solved[:, i, column]
            rest = self.total - full[:, i, [r for r in roles if r >= 0]].sum(axis=1)
            if j == 0:
                full[:, i, self.players] = rest  # the last to play
            elif k < j:
                full[:, i, 1] = rest / (j - k)  # the players out, alike
            else:
                full[:, i, 1 + j] = rest  # the last to join the tie
        return full

    def _solve_seat(self, j: int, ties: range) -> tuple[FloatArray, TurnValues]:
        """Seat ``j``'s turn for its states with ``ties`` tied at the best, in chunks of best scores:
        each role's value at the start of the turn ``(scores, len(ties), roles)`` (one state for the
        first seat), and the turn kept for the mover's columns, a column per state."""
        width = self.width
        bests = range(1) if j == 0 else range(self.scores)
        step = max(1, COLUMNS // (width * len(ties)))
        starts, turns = [], []
        for first in range(0, len(bests), step):
            chunk = bests[first : first + step]
            table = self._payoffs(j, ties, chunk)
            turn = self.solve_turn(Payoffs(self.rank, table), table[0], width)
            starts.append(turn.values[0, self.full].reshape(len(chunk), len(ties), width))
            turns.append(_mover(turn, width))
            del turn, table
        return self._expand(j, ties, np.concatenate(starts)), _joined(turns)

    def solve_all(self, tied_all: FloatArray) -> FloatArray:
        """Every state of every seat, with ``tied_all`` the seats' values when all tie."""
        self.starts[self.players] = self._end(tied_all)
        self.kept = [None] * self.players  # type: ignore[list-item]
        for j in range(self.players - 1, 0, -1):
            self.starts[j] = np.zeros((self.scores, j + 1, self.players + 2))
            self.starts[j][:, 1:], self.kept[j] = self._solve_seat(j, range(1, j + 1))
        first, self.kept[0] = self._solve_seat(0, range(1))
        return self._seats(first[0, 0])

    def solve_tied(self, tied_all: FloatArray) -> FloatArray:
        """Solve again the states where every player so far has tied (the others do not change)."""
        self.starts[self.players] = self._end(tied_all)
        for j in range(self.players - 1, 0, -1):
            self.starts[j][:, j : j + 1], turn = self._solve_seat(j, range(j, j + 1))
            # the seat's kept columns: state (b, k) is column b * j + k - 1; these are k = j
            old = self.kept[j]
            old.values[..., j - 1 :: j] = turn.values
            old.one_die[..., j - 1 :: j] = turn.one_die
            old.fail.table[:, j - 1 :: j] = turn.fail.table
        first, self.kept[0] = self._solve_seat(0, range(1))
        return self._seats(first[0, 0])

    def _seats(self, first: FloatArray) -> FloatArray:
        """Each seat's value from the start: the mover, then the players to come."""
        return np.concatenate([first[:1], first[2 : 1 + self.players]])


def _mover(turn: TurnValues, width: int) -> TurnValues:
    """The turn's mover columns alone (the other roles' were needed only for the seats before)."""
    fail = Payoffs(turn.fail.index, np.ascontiguousarray(turn.fail.table[:, ::width]))
    return TurnValues(
        turn.topology, np.ascontiguousarray(turn.values[..., ::width]),
        np.ascontiguousarray(turn.one_die[..., ::width]), turn.allow_one, turn.forced, turn.doubles, fail,
    )


def _joined(turns: list[TurnValues]) -> TurnValues:
    if len(turns) == 1:
        return turns[0]
    first = turns[0]
    fail = Payoffs(first.fail.index, np.concatenate([t.fail.table for t in turns], axis=1))
    values = np.concatenate([t.values for t in turns], axis=-1)
    one_die = np.concatenate([t.one_die for t in turns], axis=-1)
    return TurnValues(first.topology, values, one_die, first.allow_one, first.forced, first.doubles, fail)
