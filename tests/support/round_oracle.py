"""Rounds of K players (rules §5.2), solved exactly by brute force: a reference for `solve_round`.

This module shares no code with the solver: it is written from the rules alone on top of
`oracle` (its own move lists, dice faces, one-die rule and scorings), in `Fraction`s.

The round: seats 0..K-1 each play one turn on a full board, in order. Under ``shut_wins`` a shut
box (score 0) wins at once; otherwise the lowest score wins, and k >= 2 players tied for it play a
fresh round of k among themselves (in their seat order), a tie of all K replaying the round.
Objective ``win`` pays 1 to the winner; ``stake`` pays the winner the pot (net ``pot - 1``), every
other player -1, and a player who shuts is paid 2 by every other player of its (sub)round.

Every player maximizes its own expected payoff, seeing all posted scores. A mover indifferent
between choices rolls two dice rather than one, and shuts the move with the highest mask.

Method. Before seat j plays, the round is in state (b, T): the best score posted so far and the
tied seats that posted it (seat 0: nothing posted). A turn's outcome is its final score, so a turn
is a recursion over the mover's open mask valued in the mover's own payoff for each final score;
its optimal policy gives a distribution of final scores, and the payoff vector (every seat's) of
the state is that distribution over the next states' vectors. Payoffs are affine forms
``c + sum_i a_i w_i`` in the round's own seat values ``w`` (an all-K tie replays the round). The
movers' choices are decided at a guess of ``w``; ``w = c + A w`` is then solved exactly, and the
guess replaced by the solution until the solution reproduces itself: then every choice was made
by exact comparisons at the exact values (policy iteration). A tie-break round of k < K players
uses the seats of a k-player round of the same rules, objective and pot.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from tests.support.oracle import TurnRules, faces, moves_of, score_of

Form = tuple[Fraction, ...]
"""An affine form ``(c, a_0, ..., a_{K-1})``: the value ``c + sum_i a_i w_i``."""
Vector = tuple[Form, ...]
"""One form per seat of the round."""
Tied = tuple[int, ...]
"""The seats tied for the best score, in seat order."""

OBJECTIVES = ("win", "stake")
SHUT_PAYMENT = 2
"""What every other player of a (sub)round pays a player who shuts the box (stake objective)."""


@cache
def total_odds(count: int) -> tuple[tuple[int, Fraction], ...]:
    """Each total of ``count`` dice with its probability, from the faces one by one."""
    rolls = faces(count)
    odds: dict[int, Fraction] = {}
    for roll in rolls:
        odds[sum(roll)] = odds.get(sum(roll), Fraction(0)) + Fraction(1, len(rolls))
    return tuple(sorted(odds.items()))


def turn_scores(rules: TurnRules) -> tuple[int, ...]:
    """Every score a turn can end on, ascending: 0 (shut), or a failed roll's score."""
    scores = {0}
    for mask in range(1, rules.full + 1):
        for count in rules.dice_counts(mask):
            for total, _p in total_odds(count):
                if not moves_of(mask, total, rules.max_tiles):
                    scores.add(score_of(rules.scoring, mask, total))
    return tuple(sorted(scores))


# -- one turn ---------------------------------------------------------------------------
NEAR = 1e-9
"""Float values closer than this are compared again exactly (floats here err by ~1e-14)."""


class Turn:
    """One mover's turn played at best for its own exact payoff ``reward(score)`` of each final score.

    Backward induction over the open masks (a move leads to a smaller mask) decides each choice
    in floats, and exactly (in `Fraction`s) whenever two choices come within `NEAR`: a tie goes
    to two dice, and among moves to the highest mask. ``choice[mask]`` is the dice count rolled,
    ``move[mask, total]`` the move made, ``odds`` the chance of each final score; `value` and
    `dice` give the exact values. ``reverse_ties`` turns the indifference rule round (one die,
    the lowest mask): only to show that the rule matters.
    """

    def __init__(self, rules: TurnRules, reward: Callable[[int], Fraction], *, reverse_ties: bool = False):
        self.rules = rules
        sign = -1 if reverse_ties else 1
        self._reward = cache(reward)
        self._value = cache(self._value_raw)
        self._option = cache(self._option_raw)
        self.choice: dict[int, int] = {}
        self.move: dict[tuple[int, int], int] = {}
        floats: dict[int, float] = {0: float(self._reward(0))}
        for mask in range(1, rules.full + 1):
            options: dict[int, float] = {}
            for count in rules.dice_counts(mask):
                value = 0.0
                for total, p in total_odds(count):
                    moves = moves_of(mask, total, rules.max_tiles)
                    if moves:
                        top = max(floats[mask ^ m] for m in moves)
                        near = [m for m in moves if floats[mask ^ m] >= top - NEAR]
                        if len(near) > 1:  # too close for floats: compared exactly
                            near.sort(key=lambda m, mask=mask: (self._value(mask ^ m), sign * m))
                        best = near[-1]
                        self.move[mask, total] = best
                        value += float(p) * floats[mask ^ best]
                    else:
                        value += float(p) * float(self._reward(score_of(rules.scoring, mask, total)))
                options[count] = value
            if len(options) == 1:
                (self.choice[mask],) = options
            elif abs(options[1] - options[2]) > NEAR:
                self.choice[mask] = 1 if options[1] > options[2] else 2
            else:
                one, two = self._option(mask, 1), self._option(mask, 2)
                self.choice[mask] = 1 if one > two or (one == two and reverse_ties) else 2
            floats[mask] = options[self.choice[mask]]
        self.odds = self._final_odds()

    def _option_raw(self, mask: int, count: int) -> Fraction:
        """The exact value of rolling ``count`` dice with ``mask`` open (the moves already chosen)."""
        value = Fraction(0)
        for total, p in total_odds(count):
            if (mask, total) in self.move:  # every usable total of every allowed count has its move
                value += p * self._value(mask ^ self.move[mask, total])
            else:
                value += p * self._reward(score_of(self.rules.scoring, mask, total))
        return value

    def _value_raw(self, mask: int) -> Fraction:
        return self._reward(0) if mask == 0 else self._option(mask, self.choice[mask])

    def value(self, mask: int) -> Fraction:
        """The mover's exact value before choosing the dice with ``mask`` open (mask 0: shut)."""
        return self._value(mask)

    def dice(self, mask: int) -> dict[int, Fraction]:
        """The exact value of each dice count allowed with ``mask`` open."""
        return {count: self._option(mask, count) for count in self.rules.dice_counts(mask)}

    def _final_odds(self) -> dict[int, Fraction]:
        """The chance of each final score, pushing the probabilities forward from the full board."""
        reach = {self.rules.full: Fraction(1)}
        odds: dict[int, Fraction] = {}
        for mask in range(self.rules.full, 0, -1):
            here = reach.pop(mask, None)
            if here is None:
                continue
            for total, p in total_odds(self.choice[mask]):
                if (mask, total) in self.move:
                    after = mask ^ self.move[mask, total]
                    reach[after] = reach.get(after, Fraction(0)) + here * p
                else:
                    score = score_of(self.rules.scoring, mask, total)
                    odds[score] = odds.get(score, Fraction(0)) + here * p
        if 0 in reach:
            odds[0] = odds.get(0, Fraction(0)) + reach[0]
        return odds


# -- affine forms ---------------------------------------------------------------------------
def constant(value: Fraction | int, players: int) -> Form:
    return (Fraction(value),) + (Fraction(0),) * players


def unknown(seat: int, players: int) -> Form:
    """The form ``w_seat``."""
    return (Fraction(0), *(Fraction(int(i == seat)) for i in range(players)))


def add_scaled(a: Form, p: Fraction, b: Form) -> Form:
    """``a + p * b``."""
    return tuple(x + p * y if y else x for x, y in zip(a, b, strict=True))


def evaluate(form: Form, w: tuple[Fraction, ...]) -> Fraction:
    return form[0] + sum((a * x for a, x in zip(form[1:], w, strict=True)), Fraction(0))


def solve_linear(forms: Vector) -> tuple[Fraction, ...]:
    """The exact solution of ``w_i = forms[i](w)`` (Gauss-Jordan elimination in Fractions)."""
    n = len(forms)
    rows = [[Fraction(int(i == j)) - forms[i][1 + j] for j in range(n)] + [forms[i][0]] for i in range(n)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            raise ValueError("singular: the round can never end (no turn ever beats another)")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return tuple(row[n] for row in rows)


# -- the round ----------------------------------------------------------------------------
@cache
def round_oracle(
    rules: TurnRules, players: int, objective: str = "win", shut_wins: bool = True, pot: int | None = None
) -> RoundOracle:
    """The solved round (cached: tie-break rounds are shared)."""
    return RoundOracle(rules, players, objective, shut_wins=shut_wins, pot=pot)


class Sweep:
    """Every state of the round valued with the movers' choices made at one guess ``w`` of the
    round's own seat values: each state's payoff vector is an affine form in ``w``."""

    def __init__(self, oracle: RoundOracle, w: tuple[Fraction, ...]):
        self.oracle = oracle
        self.w = w
        self._turns: dict[tuple[int, int | None, int], Turn] = {}
        self._vectors: dict[tuple[int, int | None, Tied], Vector] = {}

    def turn(self, seat: int, best: int | None, ties: int) -> Turn:
        """The mover's turn in state (best, ties); its payoff for a final score is its component
        of the next state's vector (any ``ties`` seats before it may be the tied ones)."""
        key = (seat, best, ties)
        if key not in self._turns:
            tied = tuple(range(ties)) if best is not None else ()

            def reward(score: int) -> Fraction:
                return evaluate(self.outcome(seat, best, tied, score)[seat], self.w)

            self._turns[key] = Turn(self.oracle.rules, reward, reverse_ties=self.oracle.reverse_ties)
        return self._turns[key]

    def vector(self, seat: int, best: int | None, tied: Tied) -> Vector:
        """Every seat's payoff, before ``seat`` plays in state (best, tied)."""
        key = (seat, best, tied)
        if key not in self._vectors:
            k = self.oracle.players
            total: Vector = tuple(constant(0, k) for _ in range(k))
            for score, p in self.turn(seat, best, len(tied)).odds.items():
                after = self.outcome(seat, best, tied, score)
                total = tuple(add_scaled(a, p, b) for a, b in zip(total, after, strict=True))
            self._vectors[key] = total
        return self._vectors[key]

    def outcome(self, seat: int, best: int | None, tied: Tied, score: int) -> Vector:
        """Every seat's payoff once ``seat`` has ended its turn on ``score``."""
        oracle = self.oracle
        if score == 0 and oracle.shut_wins:
            return oracle.payoffs(winner=seat, shutters=(seat,))
        if best is None or score < best:
            best, tied = score, (seat,)
        elif score == best:
            tied = (*tied, seat)
        if seat + 1 < oracle.players:
            return self.vector(seat + 1, best, tied)
        return oracle.final(best, tied)


class RoundOracle:
    """A round of ``players`` solved exactly; see the module's docstring."""

    def __init__(
        self,
        rules: TurnRules,
        players: int,
        objective: str = "win",
        *,
        shut_wins: bool = True,
        pot: int | None = None,
        max_sweeps: int = 30,
        reverse_ties: bool = False,
    ):
        assert not rules.doubles, "a round's turns have no extra turns on doubles"
        assert objective in OBJECTIVES
        assert players >= 2
        self.rules = rules
        self.players = players
        self.objective = objective
        self.shut_wins = shut_wins
        self.pot = players if pot is None else pot
        self.reverse_ties = reverse_ties  # the indifference rule turned round (this round's movers only)
        assert self.pot >= players
        self.tie_break = {
            k: round_oracle(rules, k, objective, shut_wins, self.pot if objective == "stake" else None).seats
            for k in range(2, players)
        }
        self.sweeps = 0
        guess = tuple(
            Fraction(1, players) if objective == "win" else Fraction(0) for _ in range(players)
        )
        for _ in range(max_sweeps):
            self.sweeps += 1
            sweep = Sweep(self, guess)
            seats = solve_linear(sweep.vector(0, None, ()))
            if seats == guess:  # the choices made at the exact values give them back
                break
            guess = seats
        else:
            raise AssertionError(f"no fixed point after {max_sweeps} sweeps")
        self.seats: tuple[Fraction, ...] = seats
        self._sweep = sweep

    # -- payoffs ----------------------------------------------------------------------------
    def payoffs(self, winner: int, shutters: Tied) -> Vector:
        """The round decided: ``winner`` takes it, each of ``shutters`` is paid by every other seat."""
        k = self.players
        if self.objective == "win":
            return tuple(constant(int(i == winner), k) for i in range(k))
        base = [self.pot - 1 if i == winner else -1 for i in range(k)]
        return tuple(constant(base[i] + self.shut_money(i, shutters), k) for i in range(k))

    def shut_money(self, seat: int, shutters: Tied) -> int:
        """``seat``'s shut payments in stake mode: 2 from every other seat if it shut, 2 to every
        other shutter."""
        if self.objective != "stake":
            return 0
        own = SHUT_PAYMENT * (self.players - 1) if seat in shutters else 0
        return own - SHUT_PAYMENT * sum(1 for s in shutters if s != seat)

    def final(self, best: int, tied: Tied) -> Vector:
        """Everyone has played: the lowest score wins; a tie plays a tie-break round (all K: this
        round again)."""
        k = self.players
        shutters = tied if best == 0 else ()
        if len(tied) == 1:
            return self.payoffs(winner=tied[0], shutters=shutters)
        out: list[Form] = []
        for i in range(k):
            if len(tied) == k:
                form = unknown(i, k)
            elif i in tied:
                form = constant(self.tie_break[len(tied)][tied.index(i)], k)
            else:
                form = constant(0 if self.objective == "win" else -1, k)
            out.append(add_scaled(form, Fraction(1), constant(self.shut_money(i, shutters), k)))
        return tuple(out)

    # -- the mover's values --------------------------------------------------------------------
    def turn(self, seat: int, best: int | None, ties: int) -> Turn:
        """The mover's turn (in exact values) before ``seat`` plays: ``ties`` seats posted ``best``."""
        assert (seat == 0) == (best is None)
        assert best is None or 1 <= ties <= seat
        return self._sweep.turn(seat, best, ties if best is not None else 0)

    def owed(self, best: int | None, ties: int) -> int:
        """What a mover already owes before it plays: 2 to each earlier shutter (stake, best 0).
        The `mover` values include this debt (its whole result of the round)."""
        return SHUT_PAYMENT * ties if self.objective == "stake" and best == 0 else 0

    def mover(self, seat: int, best: int | None, ties: int = 1) -> Fraction:
        """The mover's value at the start of its turn (its whole expected result of the round)."""
        return self.turn(seat, best, ties).value(self.rules.full)

    def mover_at(self, seat: int, best: int | None, ties: int, open_mask: int) -> Fraction:
        """The mover's value before choosing the dice with ``open_mask`` open."""
        return self.turn(seat, best, ties).value(open_mask)

    def mover_dice(self, seat: int, best: int | None, ties: int, open_mask: int) -> dict[int, Fraction]:
        """The mover's value of each dice count allowed with ``open_mask`` open."""
        return self.turn(seat, best, ties).dice(open_mask)

    def mover_moves(
        self, seat: int, best: int | None, ties: int, open_mask: int, total: int
    ) -> dict[int, Fraction]:
        """The mover's value after each legal move (by mask) for a roll of ``total``."""
        turn = self.turn(seat, best, ties)
        return {m: turn.value(open_mask ^ m) for m in moves_of(open_mask, total, self.rules.max_tiles)}

    def reachable(self) -> set[tuple[int, int, int]]:
        """Every state (seat >= 1, best, ties) reached with a positive chance under optimal play."""
        found: set[tuple[int, int, int]] = set()
        frontier: list[tuple[int, int | None, Tied]] = [(0, None, ())]
        while frontier:
            seat, best, tied = frontier.pop()
            for score in self._sweep.turn(seat, best, len(tied)).odds:
                if score == 0 and self.shut_wins:
                    continue
                if best is None or score < best:
                    nxt: tuple[int | None, Tied] = (score, (seat,))
                elif score == best:
                    nxt = (best, (*tied, seat))
                else:
                    nxt = (best, tied)
                if seat + 1 < self.players:
                    state = (seat + 1, nxt[0], len(nxt[1]))
                    if state not in found:
                        assert nxt[0] is not None
                        found.add((seat + 1, nxt[0], len(nxt[1])))
                        frontier.append((seat + 1, nxt[0], nxt[1]))
        return found
