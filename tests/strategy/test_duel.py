"""Two-player rounds (objective ``win``), against a published value and a brute force."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

from shutthebox import Rules
from shutthebox.strategy.solver import Objective, TurnKey, solve, solve_duel, solve_duel_key
from shutthebox.strategy.solver.duel import Duel
from tests.support.oracle import TurnRules, faces, moves_of, one_die_ok, score_of
from tests.support.round_oracle import round_oracle


def test_ananian_first_player_loses_two_and_a_half_percent() -> None:
    # C. Scott Ananian, "More shut-the-box" (REFERENCES.md): two players, digital scoring,
    # one die forced when the open tiles sum to 6 or less, both ante 1, a shut box pays
    # double, ties push: the first player's expectation is -2.5 % of the stake.
    rules = Rules(scoring="digits", one_die="sum-le-6", one_die_forced=True)
    duel = solve_duel_key(TurnKey.of(rules), win=1, lose=-1, shut_bonus=1, tie=0)
    assert round(duel.value, 3) == -0.025


def brute_force_round(tiles: int, shut_wins: bool = True) -> float:
    """P(first player wins a two-player round), by plain recursion and a tie-break loop.

    Written from rules §2-§5.2 with the oracle's move lists: the second player,
    knowing the posted score, maximizes win + tie * (1 - W); the first maximizes
    1 - B(score); W is iterated to its fixed point.
    """
    full = (1 << tiles) - 1

    def turn_value(reward: Callable[[int, int], float], done: float) -> float:
        @cache
        def value(target: int) -> float:
            if target == 0:
                return done
            options = []
            counts = (1, 2) if one_die_ok("high-shut", target) else (2,)
            for count in counts:
                rolls = faces(count)
                total_value = 0.0
                for roll in rolls:
                    moves = moves_of(target, sum(roll), None)
                    if moves:
                        total_value += max(value(target ^ m) for m in moves)
                    else:
                        total_value += reward(target, sum(roll))
                options.append(total_value / len(rolls))
            return max(options)

        return value(full)

    scores = sorted({score_of("sum", m, 0) for m in range(full + 1)})
    win_first = 0.5
    for _ in range(60):
        tie_second = 1 - win_first

        def second(posted: int, tie: float = tie_second) -> float:
            def reward(target: int, total: int) -> float:
                score = score_of("sum", target, total)
                return 1.0 if score < posted else tie if score == posted else 0.0

            return turn_value(reward, 1.0 if posted > 0 else tie)

        answer = {s: second(s) for s in scores}
        first = turn_value(
            lambda target, total, answer=answer: 1 - answer[score_of("sum", target, total)],
            1.0 if shut_wins else 1 - answer[0],
        )
        if abs(first - win_first) < 1e-15:
            break
        win_first = first
    return first


@pytest.mark.parametrize("tiles", [2, 3, 4, 5])
@pytest.mark.parametrize("shut_wins", [True, False])
def test_two_player_round_against_brute_force(tiles: int, shut_wins: bool) -> None:
    duel = solve_duel(Rules(tiles=tiles, shut_wins=shut_wins))
    assert duel.value == pytest.approx(brute_force_round(tiles, shut_wins), abs=1e-12)


def test_the_tie_is_the_fixed_point() -> None:
    rules = Rules()
    duel = solve_duel(rules)
    again: Duel = solve_duel_key(TurnKey.of(rules), tie=duel.tie)  # a tie worth exactly that
    assert again.value == pytest.approx(duel.value, abs=1e-14)
    assert duel.tie == pytest.approx(1 - duel.value, abs=1e-14)


def test_win_objective_is_the_first_turn_of_the_duel() -> None:
    rules = Rules(tiles=6)
    first = solve(rules, Objective.WIN)
    assert first.value == solve_duel(rules).value
    assert not first.lower_is_better
    second = solve_duel(rules).second_for(10)
    # The second player against 10 does at least as well as playing to beat 10 outright.
    assert second.value >= solve(rules, "beat", 10).value - 1e-12


def test_one_tile_round_by_hand() -> None:
    # One tile, one die allowed (high-shut): the first player shuts it with a 1 (1/6) and wins;
    # otherwise scores 1, and the second shuts it (1/6, wins) or also scores 1 (5/6): a tie,
    # which replays the round. W = 1/6 + 5/6 * 5/6 * W, so W = 6/11.
    w = Fraction(1, 6) / (1 - Fraction(25, 36))
    assert solve_duel(Rules(tiles=1)).value == pytest.approx(float(w), abs=1e-14)


@pytest.mark.parametrize("tiles", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("scoring", ["sum", "count", "sum-plus-roll", "digits"])
@pytest.mark.parametrize("shut_wins", [True, False])
def test_the_secant_search_settles_the_tie_in_the_rounds_the_cost_model_allows(
    tiles: int, scoring: str, shut_wins: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain iteration took up to 200 rounds on small boards, where ties are common; the safeguarded
    secant takes a handful, stays within `duel_rounds` (what a hint's budget counts on), and lands
    on the fixed point: a tie fixed at the value found gives that value back."""
    from shutthebox.strategy import solver
    from shutthebox.strategy.cost import duel_rounds

    rules = Rules(tiles=tiles, scoring=scoring, shut_wins=shut_wins)  # type: ignore[arg-type]
    turns = [0]
    real = solver.solve_turn

    def counting(*args: object, **kwargs: object) -> object:
        turns[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve_turn", counting)
    duel = solve_duel_key(TurnKey.of(rules), shut_wins=shut_wins)
    assert turns[0] // 2 <= duel_rounds(rules)
    again = solve_duel_key(TurnKey.of(rules), shut_wins=shut_wins, tie=duel.tie)
    assert again.value == pytest.approx(duel.value, abs=1e-14)
    assert duel.tie == pytest.approx(1 - duel.value, abs=1e-14)


@pytest.mark.parametrize("tiles", [3, 4, 5])
def test_a_shut_box_that_does_not_end_the_round_is_still_paid_double(tiles: int) -> None:
    """Regression: with ``shut_wins`` off, a first player's shut box was not paid for by a second who
    then failed to shut (-0.56 stakes against 0.00 on 3 tiles). The brute force of rounds pays as the
    engine does; the duel agrees with it now."""
    oracle = round_oracle(TurnRules(tiles), 2, "stake", shut_wins=False, pot=2)
    duel = solve_duel_key(TurnKey.of(Rules(tiles=tiles, shut_wins=False)), shut_wins=False, win=1, lose=-1,
                          shut_bonus=2)
    assert duel.value == pytest.approx(float(oracle.seats[0]), abs=1e-12)
