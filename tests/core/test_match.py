"""The match: a frozen game state, its one gatekeeper for legality, and every way to play."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from shutthebox import (
    Board,
    DiceChoice,
    IllegalActionError,
    Match,
    Mode,
    Move,
    OutOfTurnError,
    Phase,
    Roll,
    Rules,
    RulesError,
    ShutTheBoxError,
    legal_moves,
)
from shutthebox.core.board import mask_of
from shutthebox.i18n import say, using
from tests.support.drive import play

SOLO = Rules(mode=Mode.SOLO)
SMALL = Rules(tiles=4, one_die="never")  # type: ignore[arg-type]


def refused(state: Match, action: object, *needles: str, player: int | None = None) -> str:
    """Apply an illegal action: it raises, names what is wrong, and the state is unchanged."""
    before = dataclasses.replace(state)
    with pytest.raises(ShutTheBoxError) as error:
        state.apply(action, player)  # type: ignore[arg-type]
    message = str(error.value)
    for needle in needles:
        assert needle in message, (needle, message)
    assert state == before
    return message


# -- creation ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "players", "needle"),
    [
        (Rules(), [], "at least one player"),
        (Rules(), ["A", "A"], "differ"),
        (SOLO, ["A", "B"], "solo is played by one player, not 2"),
        (Rules(mode=Mode.LONG), ["A", "B", "C"], "two players, not 3"),
        (Rules(mode=Mode.LONG), ["A"], "two players, not 1"),
        (Rules(mode=Mode.ELIMINATION), ["A"], "two or more"),
    ],
)
def test_impossible_matches_are_refused(rules: Rules, players: list[str], needle: str) -> None:
    with pytest.raises(RulesError, match=needle):
        Match.new(rules, players)


def test_rounds_must_be_positive() -> None:
    with pytest.raises(RulesError, match="rounds"):
        Match.new(Rules(), ["A", "B"], rounds=0)


def test_a_solo_game_starts_without_roll_off() -> None:
    state = Match.new(SOLO, ["Ana"])
    assert state.phase is Phase.ROLL and state.actor == 0
    assert state.board == Board.full(9) and state.order == (0,)
    assert state.dice_options == (2,) and state.legal_moves == ()
    assert Match.new(Rules(tiles=12, mode=Mode.SOLO), ["Ana"]).board == Board.full(12)


def test_a_round_starts_with_the_roll_off() -> None:
    state = Match.new(Rules(), ["A", "B"])
    assert state.phase is Phase.ROLL_OFF and state.actor == 0
    assert state.dice_options == (1,)
    state = state.apply(Roll.of(3), 0)
    assert state.actor == 1 and state.rolloff_faces == (3,)


def test_a_round_for_one_player_is_one_turn() -> None:
    state = Match.new(SMALL, ["A"])
    state = play(state, "r2,2 m4 r6,6")
    assert state.is_over and state.winner == 0
    assert [t.score for t in state.history] == [6]


def test_match_is_a_frozen_value() -> None:
    state = Match.new(SOLO, ["Ana"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.phase = Phase.OVER  # type: ignore[misc]
    assert Match.new(SOLO, ["Ana"]) == state
    after = state.apply(Roll.of(4, 4))
    assert after != state and state.phase is Phase.ROLL and state.roll is None


# -- moves --------------------------------------------------------------------------------
def test_legal_moves_respect_max_tiles() -> None:
    two = Rules(max_tiles=2)
    assert set(legal_moves(two, Board.full().mask, 8)) == {Move.parse(m) for m in ("8", "7+1", "6+2", "5+3")}
    one = Rules(max_tiles=1)
    assert legal_moves(one, Board.full().mask, 10) == ()
    assert legal_moves(one, Board.full().mask, 7) == (Move.parse("7"),)
    state = Match.new(SOLO.but(max_tiles=2), ["Ana"]).apply(Roll.of(4, 4))
    refused(state, Move.parse("5+2+1"), "uses 3 tiles", "at most 2")


def test_legal_moves_only_use_target_tiles() -> None:
    target = mask_of([1, 3, 4, 5])
    assert set(legal_moves(Rules(), target, 8)) == {Move.parse("5+3"), Move.parse("4+3+1")}
    assert legal_moves(Rules(), 0, 8) == ()


def test_a_move_shuts_exactly_its_tiles_and_the_turn_goes_on() -> None:
    state = play(Match.new(SOLO, ["Ana"]), "r4,4 m5+2+1")
    assert state.board.open_tiles == (3, 4, 6, 7, 8, 9)
    assert state.phase is Phase.ROLL and state.history == ()


def test_illegal_moves_name_the_move_and_the_state() -> None:
    start = Match.new(SOLO, ["Ana"])
    state = play(start, "r4,4 m8 r3,4")
    refused(state, Move.parse("8"), "move 8", "tile 8 is already shut", "Ana")
    refused(state, Move.parse("6"), "move 6 adds up to 6", "the roll 3+4 is 7")
    refused(state, Move.parse("10"), "tiles 1 to 9")
    refused(state, Move.parse("7+8"), "move 8+7", "8")
    refused(state, DiceChoice(1), "no choice of dice")
    refused(state, Roll.of(1, 1), "must be used first")
    refused(start, Move.parse("8"), "no roll to match")


def test_illegal_rolls_are_refused() -> None:
    state = Match.new(SOLO, ["Ana"])
    refused(state, Roll.of(4), "roll 4 shows 1 die, 2 dice were to be rolled")
    chooser = play(Match.new(SOLO, ["Ana"]), "r6,3 m9 r6,2 m8 r4,3 m7")
    assert chooser.phase is Phase.CHOOSE
    refused(chooser, Roll.of(4, 2), "choose one die or two first")
    refused(chooser, DiceChoice(3), "3 dice: choose one die or two")
    refused(Match.new(Rules(), ["A", "B"]), Roll.of(6, 6), "roll-off uses one die")


def test_nothing_but_an_action_is_accepted() -> None:
    refused(Match.new(SOLO, ["Ana"]), "8", "not an action")


def test_out_of_turn_and_after_the_end() -> None:
    state = play(Match.new(SMALL, ["A", "B"]), "r6 r1")
    message = refused(state, Roll.of(3, 3), "by B", "not their turn", player=1)
    assert "A rolls 2 dice" in message
    refused(state, Roll.of(3, 3), "#7", player=7)
    with pytest.raises(OutOfTurnError):
        state.apply(Roll.of(3, 3), 1)
    over = play(Match.new(SMALL.but(mode=Mode.SOLO), ["A"]), "r6,6")
    assert over.is_over and over.actor is None and over.dice_options == ()
    for action in (Roll.of(1, 1), Move.parse("1"), DiceChoice(2)):
        refused(over, action, "the game is over")
        with pytest.raises(IllegalActionError):
            over.apply(action, 0)


def test_a_choice_that_changes_nothing_is_refused() -> None:
    """Issue 10: `{"type":"dice","count":2}` while two dice are due was accepted and recorded, so
    20,000 of them made a game's review spend seconds; it is refused now, and the state stays."""
    state = Match.new(SOLO, ["Ana"])
    with pytest.raises(IllegalActionError, match="already chosen"):
        state.apply(DiceChoice(2))
    assert state == Match.new(SOLO, ["Ana"])


def test_describe_says_who_does_what() -> None:
    state = Match.new(SOLO, ["Ana"])
    assert str(state.describe()) == "Ana rolls 2 dice; board [1 2 3 4 5 6 7 8 9]"
    matched = state.apply(Roll.of(3, 1)).describe()
    assert str(matched) == "Ana matches the roll 3+1 = 4; board [1 2 3 4 5 6 7 8 9]"
    assert str(Match.new(Rules(), ["A", "B"]).describe()).startswith("A rolls one die")
    assert str(play(state, "r6,6 m9+3 r1,2 m2+1 r1,1").describe()) == "the game is over"
    with using("es"):
        assert say(state.describe()) == "Ana tira 2 dados; tablero [1 2 3 4 5 6 7 8 9]"


# -- turns and rounds -----------------------------------------------------------------------
def test_each_player_gets_a_fresh_full_board() -> None:
    state = play(Match.new(SMALL, ["A", "B"]), "r6 r1 r3,1 m4 r6,6")
    assert state.actor == 1 and state.board.is_full
    (turn,) = state.history
    assert turn.player == 0 and turn.board.open_tiles == (1, 2, 3) and turn.score == 6
    assert turn.last_roll == Roll.of(6, 6) and turn.round == 1 and turn.tiebreak == 0


def test_without_shut_wins_the_others_still_play() -> None:
    rules = SMALL.but(shut_wins=False)
    state = play(Match.new(rules, ["A", "B"]), "r6 r1 r6,4 m4+3+2+1")
    assert not state.is_over and state.actor == 1
    state = play(state, "r3,1 m4 r6,6")
    assert state.is_over and state.winner == 0
    assert [t.score for t in state.history] == [0, 6]


def test_rounds_carry_the_ledger_and_a_split_match_is_drawn() -> None:
    rules = SMALL.but(stake=1)
    state = play(Match.new(rules, ["A", "B"], rounds=2), "r6 r1")
    assert state.ledger == (-1, -1) and state.pot == 2
    state = play(state, "r6,4 m4+3+2+1")  # A shuts the box: pot 2 and double stake from B
    assert state.round_winners == (0,) and state.ledger == (3, -3) and state.pot == 0
    assert state.phase is Phase.ROLL_OFF and state.round == 2 and state.contenders == (0, 1)
    state = play(state, "r1 r6")  # B starts round 2; a fresh stake from each
    assert state.order == (1, 0) and state.ledger == (2, -4) and state.pot == 2
    state = play(state, "r6,6 r6,6")  # 10 each: tie-break, B first again
    assert state.tiebreak == 1 and state.order == (1, 0) and state.pot == 2
    state = play(state, "r1,1 m2 r6,6 r6,6")  # B 8, A 10
    assert state.round_winners == (0, 1)
    assert state.is_over and state.winner is None  # one round each: drawn
    assert state.ledger == (2, -2) and state.pot == 0


def test_most_rounds_won_wins_the_match() -> None:
    state = play(Match.new(SMALL, ["A", "B"], rounds=3), "r6 r1 r6,4 m4+3+2+1")
    state = play(state, "r6 r1 r6,4 m4+3+2+1")
    assert not state.is_over and state.round == 3  # every round is played
    state = play(state, "r1 r6 r6,4 m4+3+2+1")
    assert state.is_over and state.round_winners == (0, 0, 1) and state.winner == 0


def test_doubles_extra_turn_as_an_option_in_a_round() -> None:
    rules = SMALL.but(doubles_extra_turn=True)
    state = play(Match.new(rules, ["A", "B"]), "r6 r1")
    state = state.apply(Roll.of(6, 6))  # a double that cannot be used: roll again
    assert state.actor == 0 and state.history == () and state.extra_turns == 0
    state = state.apply(Roll.of(6, 5))
    assert state.actor == 1 and len(state.history) == 1


def test_long_game_opener_with_nothing_shut_passes_back() -> None:
    rules = Rules(mode=Mode.LONG, max_tiles=1, doubles_extra_turn=False)
    state = play(Match.new(rules, ["A", "B"]), "r6 r1")
    state = state.apply(Roll.of(6, 5))  # 11: no single tile makes it on a full board
    assert (state.actor, state.opening) == (1, True)
    assert state.target == 0 and state.board.is_full
    state = play(state, "d2 r3,3")  # nothing to open
    assert (state.actor, state.opening) == (0, False) and not state.is_over


def test_long_game_turns_alternate_on_one_board() -> None:
    rules = Rules(mode=Mode.LONG, max_tiles=1)
    state = play(Match.new(rules, ["A", "B"]), "r6 r1 r5,4 m9 r6,5")
    assert state.actor == 1 and state.opening and state.board.shut_tiles == (9,)
    assert state.target == mask_of([9])
    state = play(state, "r6,5")  # no shut tiles make 11
    assert state.actor == 0 and not state.opening and state.board.shut_tiles == (9,)
    assert [(t.player, t.opening, t.score) for t in state.history] == [(0, False, None), (1, True, None)]


@pytest.mark.parametrize("mode", [Mode.ROUND, Mode.ELIMINATION])
@pytest.mark.parametrize("scoring", ["sum", "digits", "count"])
def test_games_that_could_never_end_are_refused(mode: Mode, scoring: str) -> None:
    # Two dice never shut tile 1 (the least they show is 2): every turn scores the same,
    # so the tie-break rounds among the tied would go on for ever.
    rules = Rules(tiles=1, one_die="never", mode=mode, scoring=scoring)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="never end"):
        Match.new(rules, ["A", "B"])
    # With the failed roll in the score, or one player, or one die allowed, it ends.
    state = play(Match.new(rules.but(scoring="sum-plus-roll", limit=4), ["A", "B"]), "r1 r2 r1,1 r2,1")
    assert [(t.player, t.score) for t in state.history] == [(1, 1 + 2), (0, 1 + 3)]
    assert state.is_over and state.winner == 1
    if mode is Mode.ROUND:
        assert play(Match.new(rules, ["A"]), "r3,3").history[0].score == 1
    one_die = play(Match.new(rules.but(one_die="high-shut"), ["A", "B"]), "r1 r2 d1 r1 m1")
    assert one_die.history[0].score == 0


# -- the state answers for itself: who acts, chance or choice, what is legal ------------------------
def test_a_round_opens_on_a_chance_node_of_one_die() -> None:
    state = Match.new(Rules(), ["Ana", "Luis"])
    assert (state.actor, state.is_chance, state.dice_due) == (0, True, 1)  # the roll-off
    one_die = [((face,), Fraction(1, 6)) for face in range(1, 7)]
    assert [(roll.dice, p) for roll, p in state.chance_outcomes()] == one_die
    assert state.legal_actions() == ()


def test_a_turn_alternates_chance_and_choice() -> None:
    state = Match.new(Rules(mode="solo", tiles=3), ["Ana"])  # high-shut: tiles 1-3 allow one die at once
    assert state.is_decision and not state.is_chance and state.dice_due == 0
    assert state.legal_actions() == (DiceChoice(1), DiceChoice(2))
    state = state.apply(DiceChoice(2))
    assert state.is_chance and state.dice_due == 2
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == 1
    state = state.apply(Roll.of(2, 1))
    assert state.is_decision and set(state.legal_actions()) == {Move.parse("3"), Move.parse("2+1")}


def test_a_finished_match_offers_nothing() -> None:
    state = play(Match.new(Rules(mode="solo", tiles=1), ["Ana"]), "d1 r1 m1")
    assert state.is_over and state.actor is None
    assert not state.is_chance and not state.is_decision
    assert (state.dice_due, state.legal_actions(), state.chance_outcomes()) == (0, (), ())


def test_forced_one_die_is_a_chance_node_at_once() -> None:
    state = Match.new(Rules(mode="solo", tiles=3, one_die_forced=True), ["Ana"])
    assert state.is_chance and state.dice_due == 1 and state.dice_options == (1,)
