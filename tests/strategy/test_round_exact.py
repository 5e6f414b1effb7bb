"""Rounds of K players (`solve_round`) against `round_oracle`, an exact brute force written from the
rules alone (it shares no code with the solver), and against values worked out by hand.

Under ``stake`` the solver values a mover's turn by what is still to come: when the best posted
score is 0 (earlier players shut, ``shut_wins`` off) the 2 stakes the mover already owes each of
them are left out, where the oracle's `RoundOracle.mover` counts the whole round; the tests add
`RoundOracle.owed` back. The seats' values (from the start) have nothing owed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from shutthebox.core.dice import Roll
from shutthebox.core.rules import Rules
from shutthebox.strategy.solver import Round, solve_duel, solve_round
from tests.support.oracle import TurnRules, faces
from tests.support.round_oracle import RoundOracle, round_oracle, turn_scores

TOL = 1e-12
OBJECTIVES = ("win", "stake")


def rules_of(turn: TurnRules, shut_wins: bool) -> Rules:
    """The solver's rules for the oracle's turn rules."""
    assert not turn.doubles
    return Rules(
        tiles=turn.tiles,
        one_die=turn.one_die,  # type: ignore[arg-type]
        one_die_forced=turn.forced,
        max_tiles=turn.max_tiles,
        scoring=turn.scoring,  # type: ignore[arg-type]
        shut_wins=shut_wins,
    )


def both(turn: TurnRules, players: int, objective: str, shut_wins: bool) -> tuple[Round, RoundOracle]:
    solved = solve_round(rules_of(turn, shut_wins), players=players, objective=objective)
    return solved, round_oracle(turn, players, objective, shut_wins)


def states(oracle: RoundOracle) -> list[tuple[int, int | None, int]]:
    """Every state before a turn: (seat, best posted, ties), seat 0 with nothing posted; a best of
    0 only when shutting does not end the round."""
    scores = [s for s in turn_scores(oracle.rules) if s > 0 or not oracle.shut_wins]
    later = [(seat, b, k) for seat in range(1, oracle.players) for b in scores for k in range(1, seat + 1)]
    return [(0, None, 1), *later]


def check_seats(solved: Round, oracle: RoundOracle) -> None:
    assert len(solved.seats) == oracle.players
    for seat, value in enumerate(oracle.seats):
        assert solved.seats[seat] == pytest.approx(float(value), abs=TOL), seat
    total = 1 if oracle.objective == "win" else 0  # one winner; stakes are zero-sum
    assert sum(oracle.seats) == total  # exactly, in the oracle
    assert sum(solved.seats) == pytest.approx(total, abs=TOL)


def check_movers(solved: Round, oracle: RoundOracle, *, detail: bool) -> None:
    """The mover's value in every state; with ``detail``, before every dice choice and after every
    move of every roll too."""
    assert set(turn_scores(oracle.rules)) <= set(solved.posted)
    reached = oracle.reachable()
    assert reached <= set(states(oracle))
    for seat, best, ties in states(oracle):
        sol = solved.turn(seat, best, ties)
        owed = oracle.owed(best, ties)
        assert sol.value == pytest.approx(float(oracle.mover(seat, best, ties) + owed), abs=TOL), (
            seat, best, ties)
        for mask in range(1, oracle.rules.full + 1):
            expected = oracle.mover_at(seat, best, ties, mask) + owed
            assert sol.value_at(mask) == pytest.approx(float(expected), abs=TOL), (seat, best, ties, mask)
            if not detail:
                continue
            dice = oracle.mover_dice(seat, best, ties, mask)
            assert sol.dice_values(mask) == pytest.approx({c: float(v + owed) for c, v in dice.items()},
                                                          abs=TOL), (seat, best, ties, mask)
            for roll in faces(1) + faces(2):
                moves = oracle.mover_moves(seat, best, ties, mask, sum(roll))
                got = {move.mask: value for move, value in sol.move_values(mask, Roll(roll))}
                assert got == pytest.approx({m: float(v + owed) for m, v in moves.items()}, abs=TOL), (
                    seat, best, ties, mask, roll)


# -- the oracle by hand ---------------------------------------------------------------------
def test_oracle_one_tile_by_hand() -> None:
    # Tile 1 alone: only one die shuts it, with chance 1/6; a turn scores 0 or 1.
    # Shut wins: seat 0 wins at once 1/6, else seat 1 shuts (5/36), else a tie replays the round
    # (25/36): w0 = 1/6 + 25/36 w0 = 6/11. For the stakes (pot 2, a shut paid 2): a shut is worth
    # 1 + 2 = 3 to the shutter, -3 to the other: v0 = 3/6 - 3 * 5/36 + 25/36 v0 = 3/11.
    # Shut does not win: two shuts tie, and a round replays unless exactly one shuts:
    # w0 = 5/36 + (1/36 + 25/36) w0 = 1/2.
    one = TurnRules(1)
    assert round_oracle(one, 2, "win", True).seats == (Fraction(6, 11), Fraction(5, 11))
    assert round_oracle(one, 2, "stake", True).seats == (Fraction(3, 11), Fraction(-3, 11))
    assert round_oracle(one, 2, "win", False).seats == (Fraction(1, 2), Fraction(1, 2))
    for objective in OBJECTIVES:
        for shut_wins in (True, False):
            check_seats(*both(one, 2, objective, shut_wins))


def test_oracle_first_mover_is_first_seat() -> None:
    oracle = round_oracle(TurnRules(4), 3, "stake", False)
    assert oracle.mover(0, None) == oracle.seats[0]
    assert oracle.sweeps <= 5


# -- the seats from the start -----------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("tiles", [3, 4, 5])
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("shut_wins", [True, False])
def test_seats(players: int, tiles: int, objective: str, shut_wins: bool) -> None:
    check_seats(*both(TurnRules(tiles), players, objective, shut_wins))


@pytest.mark.parametrize("tiles", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("shut_wins", [True, False])
def test_two_players(tiles: int, objective: str, shut_wins: bool) -> None:
    turn = TurnRules(tiles)
    solved, oracle = both(turn, 2, objective, shut_wins)
    check_seats(solved, oracle)
    check_movers(solved, oracle, detail=False)
    if objective == "win":
        duel = solve_duel(rules_of(turn, shut_wins))
        assert duel.value == pytest.approx(float(oracle.seats[0]), abs=TOL)
        assert duel.value == pytest.approx(solved.seats[0], abs=TOL)


# -- every mover's values ----------------------------------------------------------------------
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("shut_wins", [True, False])
def test_movers_three_players_four_tiles(objective: str, shut_wins: bool) -> None:
    check_movers(*both(TurnRules(4), 3, objective, shut_wins), detail=True)


@pytest.mark.parametrize(("players", "tiles"), [(4, 4), (3, 5), (4, 3)])
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("shut_wins", [True, False])
def test_movers(players: int, tiles: int, objective: str, shut_wins: bool) -> None:
    check_movers(*both(TurnRules(tiles), players, objective, shut_wins), detail=False)


# -- other rules ----------------------------------------------------------------------------------
OTHER_RULES = [
    TurnRules(4, one_die="never"),
    TurnRules(4, one_die="sum-le-6"),
    TurnRules(3, one_die="sum-lt-6", forced=True),
    TurnRules(4, max_tiles=2),
    TurnRules(4, scoring="count"),
    TurnRules(4, scoring="sum-plus-roll"),
    TurnRules(3, scoring="digits"),
    TurnRules(4, one_die="sum-le-6", forced=True, max_tiles=2, scoring="sum-plus-roll"),
]


@pytest.mark.parametrize("turn", OTHER_RULES, ids=repr)
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("shut_wins", [True, False])
def test_other_rules(turn: TurnRules, objective: str, shut_wins: bool) -> None:
    solved, oracle = both(turn, 3, objective, shut_wins)
    check_seats(solved, oracle)
    check_movers(solved, oracle, detail=False)


@pytest.mark.slow
@pytest.mark.parametrize("shut_wins", [True, False])
def test_indifference_rule(shut_wins: bool) -> None:
    # Four players for the stakes on 4 tiles, sum-plus-roll: some mover values one die and two
    # exactly alike, and which it rolls moves the other seats' values (by 3e-5): the solver rolls
    # two, as the rules' indifference rule says.
    turn = TurnRules(4, scoring="sum-plus-roll")
    solved, oracle = both(turn, 4, "stake", shut_wins)
    check_seats(solved, oracle)
    check_movers(solved, oracle, detail=False)
    reversed_ = RoundOracle(turn, 4, "stake", shut_wins=shut_wins, reverse_ties=True)
    assert max(abs(a - b) for a, b in zip(reversed_.seats, oracle.seats, strict=True)) > 1e-6


@pytest.mark.parametrize("shut_wins", [True, False])
def test_larger_pot(shut_wins: bool) -> None:
    # A round of 3 playing for a pot of 5 (as a tie-break of a larger round does): the others'
    # stakes are in the pot, so the seats sum to pot - players.
    turn = TurnRules(4)
    solved = solve_round(rules_of(turn, shut_wins), players=3, objective="stake", pot=5)
    oracle = round_oracle(turn, 3, "stake", shut_wins, 5)
    assert sum(oracle.seats) == 5 - 3
    for seat, value in enumerate(oracle.seats):
        assert solved.seats[seat] == pytest.approx(float(value), abs=TOL), seat
    for seat, best, ties in states(oracle):
        expected = oracle.mover(seat, best, ties) + oracle.owed(best, ties)
        assert solved.turn(seat, best, ties).value == pytest.approx(float(expected), abs=TOL)
