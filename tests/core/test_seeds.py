"""The worked examples of the rules (docs/rules.md, from the traditional Spanish texts), as named tests.

Every expected number here is read off the seeds or the spec, never produced
by the engine: 1, 5, 9 open after a 3+1 scores 15 / 19 / 159, the six ways to
shut 8, the grade table, the long game's extra turns, and so on.
"""

from __future__ import annotations

import dataclasses

import pytest

from shutthebox import (
    Board,
    DiceChoice,
    IllegalActionError,
    Match,
    Move,
    OutOfTurnError,
    Phase,
    Roll,
    Rules,
    grade,
    legal_moves,
)
from shutthebox.core.board import mask_of
from tests.support.drive import play

# Four turns on the classic board (one_die=never keeps every roll at two dice):
# the open tiles each leaves, hence its score, are plain arithmetic.
LEAVE_1_5_9 = "r4,4 m8 r3,4 m7 r3,3 m6 r2,2 m4 r2,3 m3+2"  # shuts 8, 7, 6, 4, 3, 2
T43 = "r1,1 m2 r1,1"  # open 1,3..9: 45 - 2 = 43
T40 = "r1,2 m3 r1,1 m2 r1,2"  # open 1,4..9: 45 - 5 = 40
T2 = "r6,3 m9 r6,2 m8 r4,3 m7 r3,3 m6 r4,1 m5 r3,1 m4 r2,2 m3+1 r6,6"  # open 2
T1 = "r6,3 m9 r6,2 m8 r4,3 m7 r3,3 m6 r4,1 m5 r3,1 m4 r4,1 m3+2 r6,6"  # open 1
T0 = "r6,3 m9 r6,2 m8 r4,3 m7 r3,3 m6 r4,1 m5 r3,1 m4 r2,1 m3 r2,1 m2+1"  # box shut


def solo(**options: object) -> Match:
    return Match.new(Rules(mode="solo", **options), ["Ana"])


def moves(*texts: str) -> set[Move]:
    return {Move.parse(text) for text in texts}


# -- rules §4: 1, 5 and 9 open, a roll of 4 (neither 4 nor 3 & 1 can be shut) ---------
@pytest.mark.parametrize(
    ("scoring", "expected"),
    [("sum", 15), ("sum-plus-roll", 19), ("digits", 159), ("count", 3)],
)
def test_1_5_9_open_and_a_roll_of_3_1_ends_the_turn(scoring: str, expected: int) -> None:
    state = play(solo(scoring=scoring), LEAVE_1_5_9)
    assert state.board.open_tiles == (1, 5, 9)
    assert state.phase is Phase.ROLL
    # 4 and 3 are shut, so neither "4" nor "3 & 1" can be used: the turn ends.
    assert legal_moves(state.rules, state.board.mask, 4) == ()
    state = state.apply(Roll.of(3, 1))
    assert state.is_over
    (turn,) = state.history
    assert turn.board.open_tiles == (1, 5, 9)
    assert turn.last_roll == Roll.of(3, 1)
    assert turn.score == expected


def test_the_options_for_4_on_a_full_board_are_4_and_3_1() -> None:
    assert set(legal_moves(Rules(), Board.full(9).mask, 4)) == moves("4", "3+1")


def test_score_1_5_9_by_every_scoring_directly() -> None:
    open_mask = mask_of([1, 5, 9])
    assert Rules(scoring="sum").score(open_mask, 4) == 1 + 5 + 9
    # a printed version says 14, but its own arithmetic (1 + 5 + 9) + 3 + 1 is 19 (rules §4).
    assert Rules(scoring="sum-plus-roll").score(open_mask, 4) == 19
    assert Rules(scoring="digits").score(open_mask, 4) == 159
    assert Rules(scoring="count").score(open_mask, 4) == 3


def test_digits_writes_tiles_10_to_12_with_both_digits() -> None:
    digits = Rules(tiles=12, scoring="digits")
    assert digits.score(mask_of([1, 5, 10]), 4) == 1510
    assert digits.score(mask_of([1, 5, 10, 11, 12]), 4) == 15101112
    assert digits.score(mask_of([12]), 4) == 12


@pytest.mark.parametrize("scoring", ["sum", "sum-plus-roll", "digits", "count"])
def test_a_shut_box_scores_0_under_every_scoring(scoring: str) -> None:
    state = play(solo(scoring=scoring, one_die="never"), T0)
    assert state.is_over
    assert state.history[-1].board.is_shut
    assert state.history[-1].score == 0


# -- rules §2: the six ways to shut 8 ---------------------------------------------------
SIX_WAYS_TO_SHUT_8 = ("8", "7+1", "6+2", "5+3", "5+2+1", "4+3+1")


def test_the_six_ways_to_shut_8_on_a_full_board() -> None:
    assert set(legal_moves(Rules(), Board.full(9).mask, 8)) == moves(*SIX_WAYS_TO_SHUT_8)
    assert len(legal_moves(Rules(), Board.full(9).mask, 8)) == 6


@pytest.mark.parametrize("way", SIX_WAYS_TO_SHUT_8)
def test_each_way_to_shut_8_is_offered_and_accepted_in_a_match(way: str) -> None:
    state = solo().apply(Roll.of(4, 4))
    assert set(state.legal_moves) == moves(*SIX_WAYS_TO_SHUT_8)
    after = state.apply(Move.parse(way))
    assert set(after.board.shut_tiles) == set(Move.parse(way).tiles)


def test_8_can_be_shut_as_1_3_4_too() -> None:
    assert Move.parse("1 + 3 + 4") in solo().apply(Roll.of(5, 3)).legal_moves


# -- rules §4: "leaving 2 and 5 open scores 7" ------------------------------------------
def test_leaving_2_and_5_open_scores_7() -> None:
    state = play(solo(), "r6,3 m9 r6,2 m8 r4,3 m7 d2 r3,3 m6 d2 r3,1 m4 d2 r2,2 m3+1")
    assert state.board.open_tiles == (2, 5)
    state = play(state, "d2 r6,6")  # 7, 8 and 9 are shut: one die or two (high-shut)
    assert state.history[-1].score == 7
    assert Rules().score(mask_of([2, 5]), 12) == 7


# -- rules §4: the grade table ----------------------------------------------------------
@pytest.mark.parametrize(
    ("open_sum", "expected"),
    [(0, "S"), (1, "A"), (5, "A"), (6, "B"), (12, "B"), (13, "C"), (25, "C"), (26, "F"), (78, "F")],
)
def test_grade_table_at_its_boundaries(open_sum: int, expected: str) -> None:
    assert grade(open_sum) == expected


# -- §3: the one-die rule under each option, on the rules -------------------------------
@pytest.mark.parametrize(
    ("one_die", "forced", "tiles", "open_", "expected"),
    [
        ("high-shut", False, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9], (2,)),
        ("high-shut", False, 9, [1, 2, 3, 4, 5, 6, 9], (2,)),
        ("high-shut", False, 9, [7], (2,)),
        ("high-shut", False, 9, [1, 2, 3, 4, 5, 6], (1, 2)),
        ("high-shut", False, 12, [1, 10], (2,)),
        ("high-shut", False, 12, [6], (1, 2)),
        ("sum-le-6", False, 9, [1, 5], (1, 2)),
        ("sum-le-6", False, 9, [6], (1, 2)),
        ("sum-le-6", False, 9, [1, 2, 4], (2,)),
        ("sum-le-6", False, 9, [7], (2,)),
        ("sum-lt-6", False, 9, [1, 5], (2,)),
        ("sum-lt-6", False, 9, [2, 3], (1, 2)),
        ("sum-lt-6", False, 9, [5], (1, 2)),
        ("never", False, 9, [1], (2,)),
        ("never", True, 9, [1], (2,)),
        ("high-shut", True, 9, [1, 2, 3], (1,)),
        ("high-shut", True, 9, [1, 9], (2,)),
        ("sum-le-6", True, 9, [1, 5], (1,)),
        ("sum-le-6", True, 9, [3, 4], (2,)),
        ("sum-lt-6", True, 9, [2, 3], (1,)),
        ("sum-lt-6", True, 9, [6], (2,)),
    ],
)
def test_one_die_rule_on_the_rules(
    one_die: str, forced: bool, tiles: int, open_: list[int], expected: tuple[int, ...]
) -> None:
    rules = Rules(tiles=tiles, one_die=one_die, one_die_forced=forced)
    assert rules.dice_options(mask_of(open_)) == expected
    assert rules.one_die_allowed(mask_of(open_)) == (1 in expected)


# -- §3 through a match: a refused DiceChoice(1) leaves the state as it was ---------------
def assert_one_die_refused(state: Match) -> None:
    before = dataclasses.replace(state)
    assert state.dice_options == (2,)
    with pytest.raises(IllegalActionError, match="1 die") as error:
        state.apply(DiceChoice(1))
    assert str(state.rules.one_die) in str(error.value)
    with pytest.raises(IllegalActionError):
        state.apply(Roll.of(4))  # one die rolled when two are due
    assert state.phase is Phase.ROLL and state.dice_count == 2
    assert state == before


def assert_one_die_allowed(state: Match) -> None:
    assert state.phase is Phase.CHOOSE
    assert state.dice_options == (1, 2)
    with pytest.raises(IllegalActionError):
        state.apply(Roll.of(1))  # the choice comes first
    one = state.apply(DiceChoice(1))
    assert one.phase is Phase.ROLL and one.dice_count == 1 and one.board == state.board
    two = state.apply(DiceChoice(2))
    assert two.phase is Phase.ROLL and two.dice_count == 2
    with pytest.raises(IllegalActionError):
        one.apply(Roll.of(1, 1))


def test_one_die_high_shut_through_a_match() -> None:
    state = solo(one_die="high-shut")
    assert_one_die_refused(state)
    state = play(state, "r6,3 m9 r6,2 m8")
    assert_one_die_refused(state)  # 7 is still open
    state = play(state, "r4,3 m7")
    assert state.board.open_tiles == (1, 2, 3, 4, 5, 6)
    assert_one_die_allowed(state)
    state = play(state, "d1 r6 m6 d1 r5 m5")
    assert state.board.open_tiles == (1, 2, 3, 4)


def test_one_die_sum_le_6_through_a_match() -> None:
    state = solo(one_die="sum-le-6", tiles=4)
    assert_one_die_refused(state)  # 1+2+3+4 = 10
    state = play(state, "r2,2 m4")
    assert state.board.open_sum == 6
    assert_one_die_allowed(state)


def test_one_die_sum_lt_6_through_a_match() -> None:
    state = solo(one_die="sum-lt-6", tiles=4)
    state = play(state, "r2,2 m4")
    assert state.board.open_sum == 6
    assert_one_die_refused(state)
    state = play(state, "r1,1 m2")
    assert state.board.open_sum == 4
    assert_one_die_allowed(state)


def test_one_die_never_through_a_match() -> None:
    state = solo(one_die="never", tiles=4)
    state = play(state, "r3,3 m4+2 r1,2 m3")
    assert state.board.open_tiles == (1,)
    assert_one_die_refused(state)


def test_one_die_forced_through_a_match() -> None:
    state = solo(one_die="sum-le-6", one_die_forced=True, tiles=4)
    assert_one_die_refused(state)
    state = play(state, "r2,2 m4")
    assert state.phase is Phase.ROLL
    assert state.dice_options == (1,)
    with pytest.raises(IllegalActionError) as error:
        state.apply(DiceChoice(2))
    assert "one die is forced" in str(error.value)
    assert "not allowed" not in str(error.value)
    with pytest.raises(IllegalActionError):
        state.apply(Roll.of(3, 3))
    assert play(state, "r3 m3").board.open_tiles == (1, 2)


# -- rules §5.4: the long game, and a double that saves a turn --------------------------
def test_long_game_doubles_save_turns() -> None:
    state = Match.new(Rules.preset("long"), ["A", "B"])
    assert state.rules.doubles_extra_turn
    state = play(state, "r5 r2")  # roll-off: A starts
    assert state.actor == 0 and not state.opening

    state = play(state, "r6,6 m9+3")  # a double earns an extra turn
    assert state.extra_turns == 1
    state = play(state, "r4,5 m8+1")
    assert state.board.open_tiles == (2, 4, 5, 6, 7)

    # 3 cannot be made from 2, 4, 5, 6, 7: A spends the double earned earlier and rolls again.
    state = state.apply(Roll.of(1, 2))
    assert (state.actor, state.opening, state.extra_turns) == (0, False, 0)
    assert state.phase is Phase.ROLL and state.history == ()
    assert state.board.open_tiles == (2, 4, 5, 6, 7)

    state = state.apply(Roll.of(2, 1))  # another miss, no extra turn left: B takes the board
    assert (state.actor, state.opening) == (1, True)
    assert state.board.shut_tiles == (1, 3, 8, 9)
    assert [(t.player, t.opening) for t in state.history] == [(0, False)]

    # B misses with the double 1+1 itself (no shut tiles make 2) and rolls again.
    state = state.apply(Roll.of(1, 1))
    assert (state.actor, state.opening, state.extra_turns) == (1, True, 0)
    assert state.phase is Phase.ROLL

    state = state.apply(Roll.of(3, 1))
    assert state.legal_moves == (Move.parse("3+1"),)  # 4 is open, so only 3+1 reopens 4
    state = play(state, "m3+1 r4,4 m8")
    assert state.board.shut_tiles == (9,)
    state = play(state, "r6,3 m9")  # every tile open again: B wins
    assert state.is_over and state.winner == 1
    assert state.history[-1].player == 1 and state.history[-1].opening


def test_long_game_without_doubles_rule_a_miss_passes_the_turn() -> None:
    state = Match.new(Rules.preset("long", doubles_extra_turn=False), ["A", "B"])
    state = play(state, "r5 r2 r6,6 m9+3 r4,5 m8+1")
    assert state.extra_turns == 0
    state = state.apply(Roll.of(1, 2))
    assert (state.actor, state.opening) == (1, True)


def test_long_game_first_to_shut_every_tile_wins() -> None:
    state = Match.new(Rules.preset("long", tiles=4), ["A", "B"])
    state = play(state, "r2 r3")  # B starts
    assert state.actor == 1
    state = play(state, "d2 r5,5 m4+3+2+1")  # 4 tiles, all below 7: one die or two
    assert state.is_over and state.winner == 1 and state.board.is_shut


def test_long_game_opener_one_die_rule_is_judged_on_shut_tiles() -> None:
    for one_die, opener_options in (("high-shut", (1, 2)), ("sum-le-6", (2,))):
        state = Match.new(Rules.preset("long", doubles_extra_turn=False, one_die=one_die), ["A", "B"])
        state = play(state, "r5 r2 r2,4 m6 r1,4 m5 r3,4 m4+3 r1,2 m2+1")
        assert state.board.open_tiles == (7, 8, 9)
        assert state.dice_options == (2,)  # A works on 7, 8, 9
        state = state.apply(Roll.of(1, 1))
        assert (state.actor, state.opening) == (1, True)
        assert state.board.open_tiles == (7, 8, 9)  # B takes the board as it is
        # B works on the shut tiles 1..6: all of them 6 or lower, summing to 21.
        assert state.dice_options == opener_options
        if opener_options == (1, 2):
            state = play(state, "d1 r6")
            assert set(state.legal_moves) == moves("6", "5+1", "4+2", "3+2+1")
        else:
            assert_one_die_refused(state)


# -- rules §5.2: the roll-off ----------------------------------------------------------------
def test_roll_off_re_rolls_among_tied_highest_only() -> None:
    state = Match.new(Rules(), ["A", "B", "C"])
    assert state.phase is Phase.ROLL_OFF and state.actor == 0
    with pytest.raises(IllegalActionError):
        state.apply(Roll.of(3, 4))  # the roll-off is one die
    state = play(state, "r4 r6 r6")
    assert state.phase is Phase.ROLL_OFF
    assert state.contenders == (1, 2) and state.actor == 1
    before = state
    with pytest.raises(OutOfTurnError):
        state.apply(Roll.of(6), 0)  # A is out of the re-roll
    assert state == before
    state = play(state, "r2 r2")  # tied again: B and C roll once more
    assert state.contenders == (1, 2) and state.actor == 1
    state = play(state, "r3 r5")
    assert state.order == (2, 0, 1)  # C starts, then seating order: A, B
    assert state.actor == 2 and state.phase is Phase.ROLL


def test_play_order_is_seating_order_from_the_starter() -> None:
    state = play(Match.new(Rules(), ["A", "B", "C", "D"]), "r1 r5 r3 r2")
    assert state.order == (1, 2, 3, 0)


# -- rules §5.2: a round with a tie-break among the tied players only ---------------------
def test_round_tie_break_among_the_tied_players_only() -> None:
    rules = Rules(tiles=4, one_die="never")
    state = play(Match.new(rules, ["A", "B", "C"]), "r6 r1 r2")
    state = play(state, "r3,1 m4 r6,6")  # A leaves 1, 2, 3: 6
    state = play(state, "r2,2 m3+1 r5,5")  # B leaves 2, 4: 6
    state = play(state, "r1,1 m2 r6,6")  # C leaves 1, 3, 4: 8
    assert [t.score for t in state.history] == [6, 6, 8]
    assert state.tiebreak == 1 and state.order == (0, 1)
    assert state.actor == 0 and state.board.is_full
    before = state
    with pytest.raises(OutOfTurnError):
        state.apply(Roll.of(1, 1), 2)  # C is out of the tie-break
    assert state == before
    state = play(state, "r6,6")  # A leaves 1..4: 10
    state = play(state, "r2,1 m3 r6,6")  # B leaves 1, 2, 4: 7
    assert state.is_over and state.winner == 1
    assert state.round_winners == (1,)
    assert [(t.player, t.tiebreak, t.score) for t in state.history] == [
        (0, 0, 6), (1, 0, 6), (2, 0, 8), (0, 1, 10), (1, 1, 7),
    ]


def test_shutting_the_box_wins_the_round_at_once() -> None:
    state = play(Match.new(Rules(tiles=4), ["A", "B", "C"]), "r6 r1 r2")
    state = play(state, "d2 r6,4 m4+3+2+1")
    assert state.is_over and state.winner == 0
    assert len(state.history) == 1  # B and C never play


# -- rules §5.2: stakes, and the double payment for a shut box ---------------------------
def test_stakes_ledger_a_shut_box_is_paid_double() -> None:
    rules = Rules(tiles=4, one_die="never", stake=2)
    state = play(Match.new(rules, ["A", "B", "C"]), "r6 r1 r2")
    assert state.ledger == (-2, -2, -2) and state.pot == 6
    state = play(state, "r6,4 m4+3+2+1")
    assert state.is_over and state.winner == 0
    # A takes the pot (6) and double the stake (4) from each of B and C.
    assert state.ledger == (-2 + 6 + 4 + 4, -2 - 4, -2 - 4)
    assert state.pot == 0


def test_stakes_two_shut_boxes_without_shut_wins_and_a_tie_break() -> None:
    rules = Rules(tiles=4, one_die="never", stake=2, shut_wins=False)
    state = play(Match.new(rules, ["A", "B", "C"]), "r6 r1 r2")
    state = play(state, "r6,4 m4+3+2+1")  # A shuts the box; the round goes on
    assert not state.is_over and state.actor == 1
    assert state.ledger == (-2 + 8, -2 - 4, -2 - 4)
    state = play(state, "r6,4 m4+3+2+1")  # B shuts the box too
    assert state.ledger == (6 - 4, -6 + 8, -6 - 4)
    state = play(state, "r6,6")  # C: 10
    assert state.tiebreak == 1 and state.order == (0, 1)
    assert state.pot == 6 and state.ledger == (2, 2, -10)  # no new stake for a tie-break
    state = play(state, "r6,6 r1,1 m2 r6,6")  # A 10, B 8
    assert state.winner == 1
    assert state.ledger == (2, 2 + 6, -10) and state.pot == 0


# -- rules §5.3: elimination to 45 ----------------------------------------------------------
ELIMINATION = Rules(mode="elimination", one_die="never")


def test_elimination_the_limit_retires_and_the_last_one_standing_wins() -> None:
    assert ELIMINATION.limit == 45
    state = play(Match.new(ELIMINATION, ["A", "B", "C"]), "r6 r2 r3")
    state = play(state, f"{T43} {T2} {T43}")
    assert state.totals == (43, 2, 43) and state.alive == (True, True, True)
    assert state.round == 2 and state.order == (0, 1, 2)
    state = play(state, f"{T2} {T2} {T1}")
    assert state.totals == (45, 4, 44)
    assert state.alive == (False, True, True)  # 45 retires; 44 stays
    assert state.order == (1, 2) and state.actor == 1
    with pytest.raises(OutOfTurnError):
        state.apply(Roll.of(3, 3), 0)
    state = play(state, T0)  # B shuts the box: 0 this round, no instant win
    assert not state.is_over and state.actor == 2 and state.totals[1] == 4
    state = play(state, T1)
    assert state.totals == (45, 4, 45)
    assert state.is_over and state.winner == 1


def test_elimination_everyone_over_in_the_same_round_lowest_total_wins() -> None:
    state = play(Match.new(ELIMINATION, ["A", "B"]), "r6 r1")
    state = play(state, f"{T43} {T40}")
    assert state.totals == (43, 40)
    state = play(state, f"{T43} {T43}")
    assert state.totals == (86, 83)
    assert state.is_over and state.winner == 1


def test_elimination_equal_totals_play_a_tie_break_round() -> None:
    state = play(Match.new(ELIMINATION, ["A", "B"]), "r6 r1")
    state = play(state, f"{T43} {T43} {T2} {T2}")
    assert state.totals == (45, 45) and state.alive == (False, False)
    assert not state.is_over and state.tiebreak == 1
    assert state.order == (0, 1) and state.board.is_full
    state = play(state, f"{T43} {T40}")
    assert state.is_over and state.winner == 1
    assert state.totals == (45, 45)  # the tie-break decides, it does not add up
