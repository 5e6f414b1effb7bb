"""Hypothesis properties over random rules and random games played by a seeded random chooser.

The references here are brute force: every subset of the tiles, enumerated once.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shutthebox import (
    DiceChoice,
    Game,
    GameRecord,
    Match,
    Mode,
    Move,
    OneDie,
    Phase,
    Roll,
    Rules,
    RulesError,
    Scoring,
    ShutTheBoxError,
    legal_moves,
    replay,
)
from shutthebox.core.match import Action
from tests.support.drive import random_action

CAP = 200_000  # actions: far beyond any real game, so reaching it means a game that does not end
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every subset of tiles 1..12, by sum: (mask, number of tiles), counted bit by bit.
SUBSETS_BY_SUM: dict[int, list[tuple[int, int]]] = {}
for _mask in range(1, 1 << 12):
    _tiles = [t for t in range(1, 13) if _mask & (1 << (t - 1))]
    SUBSETS_BY_SUM.setdefault(sum(_tiles), []).append((_mask, len(_tiles)))


def brute_force_moves(rules: Rules, target: int, total: int) -> set[int]:
    """Masks of every set of target tiles on the board summing to ``total`` (§2, §7 max_tiles)."""
    limit = 12 if rules.max_tiles is None else rules.max_tiles
    board = (1 << rules.tiles) - 1
    return {
        mask
        for mask, count in SUBSETS_BY_SUM.get(total, [])
        if mask & ~(target & board) == 0 and count <= limit
    }


@dataclass(frozen=True)
class Setup:
    rules: Rules
    players: tuple[str, ...]
    rounds: int
    seed: int


def never_ends(rules: Rules, players: int) -> bool:
    """One tile that two dice can never shut: every player scores the same, tie-breaks forever."""
    return (
        players > 1
        and rules.mode in (Mode.ROUND, Mode.ELIMINATION)
        and rules.tiles == 1
        and rules.one_die is OneDie.NEVER
        and rules.scoring is not Scoring.SUM_PLUS_ROLL
    )


@st.composite
def setups(draw: st.DrawFn, endless: bool = False) -> Setup:
    """Random rules of every option, players to match, a seed; ``endless`` keeps refused games."""
    mode = draw(st.sampled_from(list(Mode)))
    tiles = draw(st.integers(1, 12))
    one_die = draw(st.sampled_from(list(OneDie)))
    if mode is Mode.LONG and tiles == 1 and one_die is OneDie.NEVER:
        one_die = OneDie.HIGH_SHUT  # refused by Rules: that long game cannot end
    rules = Rules(
        tiles=tiles,
        one_die=one_die,
        one_die_forced=draw(st.booleans()),
        max_tiles=draw(st.one_of(st.none(), st.integers(1, 4))),
        scoring=draw(st.sampled_from(list(Scoring))),
        mode=mode,
        shut_wins=draw(st.booleans()),
        stake=draw(st.integers(0, 3)),
        limit=draw(st.sampled_from([1, 10, 45])),
        doubles_extra_turn=draw(st.sampled_from([None, False, True])),  # type: ignore[arg-type]
    )
    count = {
        Mode.SOLO: st.just(1),
        Mode.LONG: st.just(2),
        Mode.ROUND: st.integers(1, 4),
        Mode.ELIMINATION: st.integers(2, 4),
    }[mode]
    players = draw(count)
    if never_ends(rules, players) and not endless:
        rules = rules.but(scoring=Scoring.SUM_PLUS_ROLL)
    rounds = draw(st.integers(1, 3)) if mode is Mode.ROUND else 1
    names = ("Ana", "Luis", "Eva", "Iker")[:players]
    return Setup(rules, names, rounds, draw(st.integers(0, 2**32 - 1)))


def walk(setup: Setup) -> Iterator[tuple[Match, Action, Match]]:
    """Every step of a random game: (state before, action, state after), to the end."""
    rng = random.Random(setup.seed)
    state = Match.new(setup.rules, setup.players, rounds=setup.rounds)
    for _ in range(CAP):
        if state.is_over:
            return
        action = random_action(state, rng)
        after = state.apply(action, state.actor)
        yield state, action, after
        state = after
    raise AssertionError(f"the game did not end in {CAP} actions: {setup}")


@FAST
@given(setups(endless=True))
def test_only_games_that_cannot_end_are_refused(setup: Setup) -> None:
    try:
        Match.new(setup.rules, setup.players, rounds=setup.rounds)
    except RulesError as error:
        assert never_ends(setup.rules, len(setup.players)), error
        assert "never end" in str(error)
    else:
        assert not never_ends(setup.rules, len(setup.players))


# -- shut tiles move one way within a turn -----------------------------------------------------
@FAST
@given(setups())
def test_within_a_turn_tiles_change_only_in_the_allowed_direction(setup: Setup) -> None:
    for before, action, after in walk(setup):
        if before.phase is Phase.ROLL_OFF:
            continue
        turn_over = len(after.history) > len(before.history)
        board = after.history[-1].board if turn_over else after.board
        if before.opening:
            assert board.mask & before.board.mask == before.board.mask  # open tiles only grow
        else:
            assert board.mask & ~before.board.mask == 0  # open tiles only shrink
        if isinstance(action, Move):
            assert action.mask & ~before.target == 0
            flipped = before.board.mask ^ board.mask
            assert flipped == action.mask
        else:
            assert board == before.board  # only a move changes the board
        if turn_over and not after.is_over and after.phase is not Phase.ROLL_OFF:
            if setup.rules.mode is Mode.LONG:
                assert after.board == board and after.opening is not before.opening
            else:
                assert after.board.is_full and not after.opening


# -- every move offered is legal, every legal move is offered ----------------------------------
@FAST
@given(setups())
def test_moves_offered_are_exactly_the_legal_moves(setup: Setup) -> None:
    rules = setup.rules
    for before, action, after in walk(setup):
        if isinstance(action, Roll) and before.phase is Phase.ROLL:
            expected = brute_force_moves(rules, before.target, action.total)
            assert (after.phase is Phase.MOVE) == bool(expected)
            if after.phase is Phase.MOVE:
                assert after.actor == before.actor and after.board == before.board
                assert {m.mask for m in after.legal_moves} == expected
                assert len(after.legal_moves) == len(expected)
                assert {m.mask for m in legal_moves(rules, after.target, action.total)} == expected
                for move in after.legal_moves:
                    after.apply(move, after.actor)  # each one is accepted
        else:
            assert after.legal_moves == () or after.phase is Phase.MOVE
        for total in range(1, 13):
            offered = {m.mask for m in legal_moves(rules, before.target, total)}
            assert offered == brute_force_moves(rules, before.target, total)


# -- games end ----------------------------------------------------------------------------------
@FAST
@given(setups())
def test_every_state_answers_who_acts_whether_dice_are_due_and_what_is_legal(setup: Setup) -> None:
    """Chance node or decision node, never both; each offered action and each roll applies."""
    rng = random.Random(setup.seed ^ 1)
    for state, _, _ in walk(setup):
        assert state.actor is not None
        assert state.is_chance != state.is_decision
        if state.is_chance:
            assert state.dice_due in (1, 2) and state.legal_actions() == ()
            chances = state.chance_outcomes()
            assert sum(p for _, p in chances) == 1
            assert {len(roll.dice) for roll, _ in chances} == {state.dice_due}
            assert len(chances) == 6 ** state.dice_due
            roll, _ = rng.choice(chances)
            state.apply(roll, state.actor)  # every outcome can happen
            other = 3 - state.dice_due
            assert not any(isinstance(a, Roll) for a in state.legal_actions())
            try:
                state.apply(Roll((1,) * other), state.actor)
            except ShutTheBoxError:
                pass
            else:
                raise AssertionError(f"a roll of {other} dice accepted where {state.dice_due} are due")
        else:
            assert state.dice_due == 0 and state.chance_outcomes() == ()
            actions = state.legal_actions()
            assert actions, state.describe()
            if state.phase is Phase.CHOOSE:
                assert actions == tuple(DiceChoice(c) for c in state.rules.dice_options(state.target))
            else:
                assert actions == state.legal_moves
            state.apply(rng.choice(actions), state.actor)


@FAST
@given(setups())
def test_every_game_ends(setup: Setup) -> None:
    steps = 0
    final: Match | None = None
    for _, _, after in walk(setup):
        steps += 1
        final = after
    assert steps < CAP
    assert final is not None and final.is_over and final.phase is Phase.OVER
    assert final.actor is None and final.dice_options == () and final.legal_moves == ()
    if setup.rules.mode is not Mode.ROUND or setup.rounds == 1:
        assert final.winner is not None
    if setup.rules.mode is Mode.LONG:
        assert final.board.is_shut or final.board.is_full
        assert (final.board.is_shut) == (not final.history[-1].opening)


# -- the ledger balances -----------------------------------------------------------------------
@FAST
@given(setups())
def test_ledger_and_pot_always_balance(setup: Setup) -> None:
    for _, _, after in walk(setup):
        assert sum(after.ledger) + after.pot == 0
        assert after.pot >= 0
        if setup.rules.stake == 0 or len(setup.players) == 1:
            assert after.ledger == (0,) * len(setup.players) and after.pot == 0
        if after.is_over:
            assert after.pot == 0


# -- illegal actions change nothing ---------------------------------------------------------------
def illegal_actions(state: Match, rng: random.Random) -> Iterator[tuple[Action, int | None]]:
    """Some actions ``state`` must refuse, each with the player said to take it."""
    if state.is_over:
        yield random_action(Match.new(Rules(mode=Mode.SOLO), ["X"]), rng), None
        yield Move(rng.randrange(1, 1 << 12)), rng.choice([None, 0])
        yield DiceChoice(rng.choice([1, 2])), None
        return
    actor = state.actor
    assert actor is not None
    others = [p for p in range(len(state.players)) if p != actor] + [len(state.players), -1]
    yield random_action(state, rng), rng.choice(others)  # a legal action, out of turn
    if state.phase is Phase.MOVE:
        legal = {m.mask for m in state.legal_moves}
        for _ in range(3):
            mask = rng.randrange(1, 1 << 12)
            if mask not in legal:
                yield Move(mask), actor
        assert state.roll is not None
        near = [mask for mask, _ in SUBSETS_BY_SUM[state.roll.total] if mask not in legal]
        for mask in rng.sample(near, min(3, len(near))):  # the right sum, but shut, off-board or too many
            yield Move(mask), actor
        yield Roll.of(rng.randint(1, 6), rng.randint(1, 6)), actor
        yield DiceChoice(rng.choice([1, 2])), actor
    else:
        yield Move(rng.randrange(1, 1 << 12)), actor
    if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
        due = state.dice_count or 1
        yield Roll(tuple(rng.randint(1, 6) for _ in range(3 - due))), actor  # the wrong number of dice
    if state.phase is Phase.CHOOSE:
        yield Roll.of(rng.randint(1, 6)), actor
        yield DiceChoice(rng.choice([0, 3])), actor
    elif state.phase is not Phase.MOVE:
        wrong = [k for k in (1, 2) if not (state.phase is Phase.ROLL and k == state.dice_count)]
        yield DiceChoice(rng.choice(wrong)), actor


@FAST
@given(setups())
def test_illegal_actions_raise_and_change_nothing(setup: Setup) -> None:
    rng = random.Random(setup.seed + 1)
    last: Match | None = None
    for before, _, after in walk(setup):
        for action, player in illegal_actions(before, rng):
            snapshot = dataclasses.replace(before)
            try:
                before.apply(action, player)
            except ShutTheBoxError as error:
                assert isinstance(error, ValueError) and str(error)
            else:
                raise AssertionError(f"{action!r} by {player} accepted in: {before.describe()}")
            assert before == snapshot
        last = after
    assert last is not None and last.is_over
    for action, player in illegal_actions(last, rng):
        try:
            last.apply(action, player)
        except ShutTheBoxError as error:
            assert "over" in str(error)
        else:
            raise AssertionError(f"{action!r} accepted after the end")


# -- records replay exactly ---------------------------------------------------------------------
def play_game(setup: Setup, *, typed: bool) -> Game:
    """A Game played with seeded dice (or, at a real box, rolls typed in), checking illegal actions
    on the way."""
    rng = random.Random(setup.seed)
    game = Game(setup.rules, setup.players, seed=setup.seed, rounds=setup.rounds, by_hand=typed)
    for _ in range(CAP):
        state = game.state
        if state.is_over:
            break
        if rng.random() < 0.2:
            events = list(game.events)
            for action, player in illegal_actions(state, rng):
                try:
                    game.act(action, player)
                except ShutTheBoxError as error:
                    assert str(error)
                else:
                    raise AssertionError(f"{action!r} by {player} accepted")
                assert game.state is state and game.events == events
        if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
            if typed:
                game.act(random_action(state, rng), state.actor)
            else:
                game.roll(state.actor)
        else:
            game.act(random_action(state, rng), state.actor)
    assert game.state.is_over
    return game


@pytest.mark.slow
@FAST
@given(setups(), st.booleans())
def test_a_record_replays_to_the_same_final_state(setup: Setup, typed: bool) -> None:
    game = play_game(setup, typed=typed)
    record = game.record()
    assert record.seed == (None if typed else setup.seed)
    assert record.typed == typed  # typed rolls are marked
    text = record.dumps()
    loaded = GameRecord.loads(text)
    assert loaded == record
    assert replay(loaded) == game.state
    assert loaded.dumps() == text


@settings(max_examples=60, deadline=None)
@given(setups())
def test_same_seed_same_decisions_same_game(setup: Setup) -> None:
    first, second = play_game(setup, typed=False), play_game(setup, typed=False)
    assert first.state == second.state
    assert first.events == second.events
    assert first.record().dumps() == second.record().dumps()
