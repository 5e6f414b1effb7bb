"""Game: the mutable shell around a Match, with its dice and its record."""

from __future__ import annotations

import random

import pytest

from drive import finish, random_action
from shutthebox import (
    DiceChoice,
    Game,
    IllegalActionError,
    Mode,
    Move,
    OutOfTurnError,
    ParseError,
    Phase,
    Roll,
    Rules,
    ScriptedDice,
    SeededDice,
    ShutTheBoxError,
    replay,
)

SOLO = Rules(mode=Mode.SOLO)


def test_rolls_come_from_the_seeded_dice() -> None:
    game = Game(SOLO, ["Ana"], seed=11)
    dice = SeededDice(11)
    assert game.seed == 11
    first = game.roll()
    assert first == dice.roll(2)
    assert game.state.roll == first
    assert game.events[-1].action == first and game.events[-1].player == 0


def test_a_game_without_a_seed_picks_one_and_records_it() -> None:
    game = Game(SOLO, ["Ana"])
    assert isinstance(game.seed, int)
    finish(game, random.Random(0))
    record = game.record()
    assert record.seed == game.seed
    assert replay(record) == game.state


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (SOLO, ["Ana"]),
        (Rules(stake=1), ["A", "B", "C"]),
        (Rules(mode=Mode.ELIMINATION, tiles=12), ["A", "B", "C", "D"]),
        (Rules(mode=Mode.LONG), ["A", "B"]),
        (Rules.preset("pub", stake=2), ["A", "B"]),
    ],
)
def test_same_seed_same_decisions_same_game(rules: Rules, players: list[str]) -> None:
    games = [Game(rules, players, seed=2024) for _ in range(2)]
    steps = [finish(game, random.Random(99)) for game in games]
    assert steps[0] == steps[1]
    assert games[0].state == games[1].state
    assert games[0].events == games[1].events
    assert games[0].record() == games[1].record()
    assert games[0].record().dumps() == games[1].record().dumps()
    other = Game(rules, players, seed=2025)
    finish(other, random.Random(99))
    assert other.events != games[0].events


def test_scripted_dice_drive_a_game() -> None:
    game = Game(SOLO, ["Ana"], dice=ScriptedDice([Roll.of(4, 4), Roll.of(1, 1)]))
    assert game.roll() == Roll.of(4, 4)
    game.move(Move.parse("8"))
    game.roll()
    assert game.state.phase is Phase.MOVE
    game.move(Move.parse("2"))
    before = (game.state, list(game.events))
    with pytest.raises(ParseError, match="no rolls left"):
        game.roll()
    assert (game.state, game.events) == before
    assert game.record().seed is None  # scripted dice have no seed


def test_typed_rolls_drop_the_seed_and_still_replay() -> None:
    game = Game(SOLO, ["Ana"], seed=5)
    game.roll(faces=Roll.of(6, 6))
    game.move(Move.parse("9+3"))
    assert game.typed
    finish(game, random.Random(1))
    record = game.record()
    assert record.seed is None
    assert replay(record) == game.state


def test_choose_dice_and_act() -> None:
    game = Game(SOLO, ["Ana"], dice=ScriptedDice([Roll.of(6, 3), Roll.of(6, 2), Roll.of(4, 3), Roll.of(5)]))
    for move in ("9", "8", "7"):
        game.roll()
        game.move(Move.parse(move))
    assert game.state.phase is Phase.CHOOSE
    game.choose_dice(1)
    assert game.state.dice_count == 1
    assert game.roll() == Roll.of(5)
    state = game.act(Move.parse("5"))
    assert state is game.state and 5 not in state.board
    assert [type(e.action).__name__ for e in game.events] == ["Roll", "Move"] * 3 + [
        "DiceChoice", "Roll", "Move",
    ]


def test_illegal_actions_leave_the_game_unchanged() -> None:
    game = Game(Rules(tiles=4, one_die="never"), ["A", "B"], seed=3)  # type: ignore[arg-type]
    game.roll()  # roll-off: A
    snapshot = (game.state, list(game.events), game.typed)

    def check(call: object, error: type[ShutTheBoxError] = IllegalActionError) -> None:
        with pytest.raises(error) as raised:
            call()  # type: ignore[operator]
        assert str(raised.value)
        assert (game.state, game.events, game.typed) == snapshot

    check(lambda: game.roll(0), OutOfTurnError)  # B rolls off now
    check(lambda: game.roll(faces=Roll.of(3, 3)))  # the roll-off is one die
    check(lambda: game.choose_dice(1))
    check(lambda: game.move(Move.parse("1")))
    while game.state.phase is Phase.ROLL_OFF:
        game.roll()
    game.roll(faces=Roll.of(1, 1))  # makes 2: the player must now move
    snapshot = (game.state, list(game.events), game.typed)
    actor = game.state.actor
    assert actor is not None
    check(game.roll)
    check(lambda: game.roll(faces=Roll.of(2, 2)))
    check(lambda: game.move(Move.parse("3")))
    check(lambda: game.move(Move.parse("2"), 1 - actor), OutOfTurnError)
    check(lambda: game.act(DiceChoice(2)))
    game.move(Move.parse("2"))
    finish(game, random.Random(4))
    snapshot = (game.state, list(game.events), game.typed)
    check(game.roll)
    check(lambda: game.roll(faces=Roll.of(1, 1)))
    check(lambda: game.move(Move.parse("1")))
    check(lambda: game.choose_dice(2))


def test_the_record_has_a_result_once_the_game_is_over() -> None:
    game = Game(SOLO, ["Ana"], seed=8)
    game.roll()
    assert game.record().result is None
    game.act(random_action(game.state, random.Random(0)))
    finish(game, random.Random(0))
    result = game.record().result
    assert result is not None and result["over"] is True and result["winner"] == "Ana"
    assert result["turns"][0]["open"] == list(game.state.history[0].board.open_tiles)


def test_game_rules_and_rounds_are_those_of_the_match() -> None:
    game = Game(Rules(stake=1), ["A", "B"], seed=1, rounds=3)
    assert game.rules == Rules(stake=1)
    assert game.state.rounds == 3
    finish(game, random.Random(2))
    assert len(game.state.round_winners) == 3
    assert game.record().rounds == 3
