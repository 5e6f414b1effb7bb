"""Hints: the objective that fits the moment, every choice ranked, and hand-checked values."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from shutthebox import DiceChoice, Game, Match, Mode, Move, Phase, Roll, Rules
from shutthebox.core.board import mask_of
from shutthebox.strategy.advice import Advice, Seat, advise, advise_position, objective_for
from shutthebox.strategy.solver import Objective, Solution, solve, solve_duel, solve_long, solve_round
from shutthebox.strategy.solver.exact import exact_value
from tests.support.drive import play, random_action

NEVER = Rules(one_die="never")  # type: ignore[arg-type]
T43 = "r1,1 m2 r1,1"  # shuts 2, then a 2 cannot be matched: 43 left (tiles 1, 3..9)
T40 = "r1,2 m3 r1,1 m2 r1,2"  # shuts 3 and 2, then a 3 cannot be matched: 40 left
T0 = "r6,3 m9 r6,2 m8 r4,3 m7 r3,3 m6 r4,1 m5 r3,1 m4 r2,1 m3 r2,1 m2+1"  # the box shut


def expected_objective(state: Match) -> tuple[Objective, int | None]:
    """rules §5 read directly: the long game is won or lost; every player of a round of two to eight
    plays to win it (for the stakes when there are stakes); a later player of a larger round must beat
    (or, against a shut box, tie) the best score posted; otherwise score low."""
    if state.rules.mode is Mode.LONG:
        return Objective.LONG, None
    if state.rules.mode is Mode.ROUND and 2 <= len(state.order) <= 8:
        return (Objective.STAKE if state.rules.stake else Objective.WIN), None
    if state.rules.mode is Mode.ROUND and state.round_scores:
        best = min(score for _, score in state.round_scores)
        return (Objective.TIE_OR_BEAT, 0) if best == 0 else (Objective.BEAT, best)
    return Objective.SCORE, None


def solution_of(state: Match, objective: Objective, target: int | None) -> Solution:
    if objective is Objective.LONG:
        return solve_long(state.rules).for_role(state.opening)
    if objective in (Objective.WIN, Objective.STAKE):
        posted = [score for _, score in state.round_scores]
        best = min(posted) if posted else None
        solved = solve_round(state.rules, len(state.order), objective, pot=len(state.players))
        return solved.turn(state.position, best, posted.count(best) if posted else 1)
    return solve(state.rules, objective, target)


def check_advice(state: Match, advice: Advice) -> None:
    """Choices are the legal ones, best first, with losses measured from the best."""
    objective, target = expected_objective(state)
    assert (advice.objective, advice.target) == (objective, target)
    solution = solution_of(state, objective, target)
    assert advice.value == pytest.approx(solution.value_at(state.target, state.extra_turns), abs=1e-12)
    actions = [c.action for c in advice.choices]
    if state.phase is Phase.MOVE:
        assert state.roll is not None
        assert set(actions) == set(state.legal_moves) and len(actions) == len(state.legal_moves)
        up = state.extra_turns + int(state.rules.doubles_extra_turn and state.roll.is_double)
        for choice in advice.choices:
            assert isinstance(choice.action, Move)
            child = solution.value_at(state.target ^ choice.action.mask, up)
            assert choice.value == pytest.approx(child, abs=1e-12)
    else:
        assert set(actions) == {DiceChoice(c) for c in state.rules.dice_options(state.target)}
    values = [c.value for c in advice.choices]
    lower = objective is Objective.SCORE
    assert values == sorted(values, reverse=not lower)
    assert advice.choices[0].loss == 0
    for choice in advice.choices:
        assert choice.loss >= 0
        assert choice.loss == pytest.approx(abs(choice.value - values[0]), abs=1e-12)


# -- the objective for the moment ------------------------------------------------------------
def test_solo_wants_a_low_score() -> None:
    solo = Match.new(Rules(mode=Mode.SOLO), ["Ana"])
    assert objective_for(solo) == (Objective.SCORE, None)
    assert advise(solo).value == pytest.approx(solve(Rules()).value)


def test_the_first_of_three_plays_to_win_the_round() -> None:
    first = play(Match.new(Rules(), ["Ana", "Ben", "Cy"]), "r6 r1 r2")
    assert first.actor == 0 and objective_for(first) == (Objective.WIN, None)
    advice = advise(first)
    assert advice.seat == Seat(players=3, seat=0, best=None, ties=1, pot=3)
    assert advice.value == solve_round(Rules(), 3).seats[0]


def test_the_first_of_two_plays_to_win_the_round() -> None:
    first = play(Match.new(Rules(), ["Ana", "Ben"]), "r6 r1")
    assert first.actor == 0 and objective_for(first) == (Objective.WIN, None)
    advice = advise(first)
    assert not advice.lower_is_better and 0.45 < advice.value < 0.55  # a nearly fair game
    assert advice.value == pytest.approx(solve_duel(Rules()).value, abs=1e-12)


def test_the_second_player_plays_to_win_ties_included() -> None:
    """The second of two wins below 43 and replays a tie as the second of a new round: the duel's
    second turn, solved by the other method, values the same."""
    state = play(Match.new(Rules(), ["Ana", "Ben"]), f"r6 r1 {T43}")
    assert state.actor == 1 and state.round_scores == ((0, 43),)
    advice = advise(state)
    assert (advice.objective, advice.target, advice.seat) == (Objective.WIN, None, Seat(2, 1, 43, 1, 2))
    assert advice.value == pytest.approx(solve_duel(Rules()).second_for(43).value, abs=1e-12)
    assert advice.value > float(exact_value(Rules(), "beat", 43))  # a tie is worth something


def test_third_player_plays_to_win_against_the_best_posted_score() -> None:
    state = play(Match.new(Rules(), ["Ana", "Ben", "Cy"]), f"r6 r1 r1 {T43} {T40}")
    assert state.actor == 2
    advice = advise(state)
    assert advice.objective is Objective.WIN and advice.seat == Seat(3, 2, 40, 1, 3)
    # the last to play: below 40 wins, 40 replays a tie-break of two as its second
    tie = solve_round(Rules(), 2).seats[1]
    below, at_most = (float(exact_value(Rules(), o, 40)) for o in ("beat", "tie-or-beat"))
    assert below < advice.value < below + tie * (at_most - below) + 1e-12


def test_after_a_shut_box_only_a_shut_box_ties() -> None:
    rules = Rules(shut_wins=False, one_die="never")  # type: ignore[arg-type]
    state = play(Match.new(rules, ["Ana", "Ben"]), f"r6 r1 {T0}")
    assert state.actor == 1 and state.round_scores == ((0, 0),)
    advice = advise(state)
    assert advice.objective is Objective.WIN
    # only a shut box ties, and the tie-break is a new round of two where this player is second
    tie = solve_round(rules, 2).seats[1]
    assert advice.value == pytest.approx(float(exact_value(rules, "shut")) * tie, abs=1e-12)


def test_a_round_of_more_than_eight_beats_the_best_posted_score() -> None:
    names = [f"P{i}" for i in range(9)]
    state = play(Match.new(Rules(), names), "r6 " + " ".join("r1" for _ in range(8)) + f" {T43}")
    assert state.position == 1 and objective_for(state) == (Objective.BEAT, 43)
    first = play(Match.new(Rules(), names), "r6 " + " ".join("r1" for _ in range(8)))
    assert objective_for(first) == (Objective.SCORE, None)


def test_a_round_for_stakes_plays_for_the_money() -> None:
    rules = Rules(stake=5)
    first = play(Match.new(rules, ["Ana", "Ben", "Cy"]), "r6 r1 r2")
    assert objective_for(first) == (Objective.STAKE, None)
    advice = advise(first)
    assert advice.value == solve_round(rules, 3, "stake").seats[0]
    assert advice.to_json()["seat"] == {"players": 3, "seat": 0, "best": None, "ties": 1, "pot": 3}


def test_elimination_and_long_game() -> None:
    elimination = play(Match.new(Rules(mode=Mode.ELIMINATION), ["Ana", "Ben"]), f"r6 r1 {T43}")
    assert elimination.actor == 1 and objective_for(elimination) == (Objective.SCORE, None)
    rules = Rules(mode=Mode.LONG, doubles_extra_turn=False)
    long = play(Match.new(rules, ["Ana", "Ben"]), f"r6 r1 {T43}")
    assert long.actor == 1 and long.opening
    advice = advise(long)
    assert advice.objective is Objective.LONG
    assert long.target == mask_of((2,))
    assert advice.value == solve_long(rules).opener.value_at(long.target)


# -- seeded games in every phase and mode -------------------------------------------------------
GAMES = [
    (Rules(mode=Mode.SOLO), ["Ana"]),
    (Rules(), ["Ana", "Ben"]),
    (Rules(shut_wins=False, tiles=6, one_die="sum-le-6"), ["Ana", "Ben", "Cy"]),  # type: ignore[arg-type]
    (Rules(mode=Mode.ELIMINATION, limit=20, tiles=7, scoring="sum-plus-roll"), ["Ana", "Ben"]),  # type: ignore[arg-type]
    (Rules(mode=Mode.LONG, tiles=6), ["Ana", "Ben"]),
    (Rules(mode=Mode.LONG, one_die="sum-lt-6", one_die_forced=True, max_tiles=2), ["Ana", "Ben"]),  # type: ignore[arg-type]
    (Rules(tiles=5, doubles_extra_turn=True, scoring="digits", max_tiles=2), ["Ana", "Ben"]),  # type: ignore[arg-type]
]


def game_id(value: object) -> str:
    return value.describe() if isinstance(value, Rules) else f"{len(value)}p"  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "players"), GAMES, ids=game_id)
def test_advice_in_every_phase(rules: Rules, players: list[str]) -> None:
    phases: set[Phase] = set()
    for seed in range(4):
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.state.is_over:
            state = game.state
            if state.phase is Phase.ROLL_OFF:
                with pytest.raises(ValueError, match="nothing to advise"):
                    advise(state)
            else:
                phases.add(state.phase)
                check_advice(state, advise(state))
            if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
                game.roll()
            else:
                game.act(random_action(state, rng))
        with pytest.raises(ValueError, match="nothing to advise"):
            advise(game.state)
    assert {Phase.ROLL, Phase.MOVE} <= phases


# -- bare positions, hand-checked ------------------------------------------------------------------
def test_bowen_1_4_5_8_with_4_and_5() -> None:
    # Ross Bowen: shut 4+5 (leaves {1,8}), not 8+1 (leaves {4,5}); two dice always.
    advice = advise_position(NEVER, mask_of((1, 4, 5, 8)), Roll.of(4, 5))
    assert [c.label for c in advice.choices] == ["5+4", "8+1"]
    assert advice.best is not None and advice.best.action == Move.parse("5+4")
    after_8_1 = exact_value(NEVER, "score", board=mask_of((4, 5)))
    loss = after_8_1 - exact_value(NEVER, "score", board=mask_of((1, 8)))
    assert loss == Fraction(5, 36)  # 7.0278 - 6.8889
    assert advice.loss_of(Move.parse("8+1")) == pytest.approx(float(loss), abs=1e-12)
    assert advice.describe().startswith("shut 5+4 (expected score 6.889")
    chance = advise_position(NEVER, mask_of((1, 4, 5, 8)), Roll.of(6, 3), objective=Objective.SHUT)
    assert chance.choices[0].label == "8+1"  # {4,5} is the likelier to be shut


def test_one_die_or_two_on_1_and_2() -> None:
    # {1, 2} open, one die allowed (high-shut). One die: a 1 or 2 leaves one tile that one die
    # then shuts with chance 1/6 (expected 5/3 and 5/6), a 3 shuts both, a 4-6 scores 3:
    # (5/3 + 5/6 + 0 + 9) / 6 = 23/12. Two dice: a 2 leaves tile 1 (5/6), a 3 shuts both,
    # the other 33 of 36 score 3: (5/6 + 99) / 36 = 599/216.
    advice = advise_position(Rules(), mask_of((1, 2)))
    assert [c.action for c in advice.choices] == [DiceChoice(1), DiceChoice(2)]
    assert advice.choices[0].value == pytest.approx(23 / 12, abs=1e-12)
    assert advice.choices[1].value == pytest.approx(599 / 216, abs=1e-12)
    assert advice.choices[1].loss == pytest.approx(599 / 216 - 23 / 12, abs=1e-12)
    assert advice.value == pytest.approx(23 / 12, abs=1e-12)


def test_no_move_for_the_roll() -> None:
    advice = advise_position(NEVER, mask_of((1,)), Roll.of(3, 4))
    assert advice.choices == () and advice.best is None
    assert advice.value == pytest.approx(1.0)  # tile 1 alone is never shut by two dice


def test_advice_as_json_and_refusals() -> None:
    advice = advise_position(NEVER, mask_of((1, 4, 5, 8)), Roll.of(4, 5))
    data = advice.to_json()
    assert data["objective"] == "score" and data["lower_is_better"] is True
    assert [c["shut"] for c in data["choices"]] == [[5, 4], [8, 1]]
    assert data["choices"][0]["loss"] == 0
    with pytest.raises(ValueError, match="not one of the choices"):
        advice.loss_of(Move.parse("9"))
