"""Game: the mutable shell around a Match, with its dice and its record."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from shutthebox import (
    DiceChoice,
    Game,
    GameRecord,
    IllegalActionError,
    Match,
    Mode,
    Move,
    OutOfTurnError,
    ParseError,
    Phase,
    RecordError,
    Roll,
    Rules,
    ScriptedDice,
    SeededDice,
    ShutTheBoxError,
    replay,
)
from shutthebox.core.errors import StaleActionError
from shutthebox.core.game import ROLL, Wait
from tests.support.drive import finish, random_action

SOLO = Rules(mode=Mode.SOLO)


def test_rolls_come_from_the_seeded_dice() -> None:
    game = Game(SOLO, ["Ana"], seed=11)
    dice = SeededDice(11)
    assert game.seed == 11
    first = game.roll()
    assert first == dice.roll(2)
    assert game.state.roll == first
    assert game.events[-1].action == first and game.events[-1].player == 0


def test_a_game_without_a_seed_rolls_fair_dice_and_reveals_the_seed_at_the_end() -> None:
    game = Game(SOLO, ["Ana"], client_seeds=["mine"])
    assert game.seed is None and game.ranked
    during = game.fairness
    assert during is not None and during.server_seed is None and during.client_seeds == ("mine",)
    finish(game, random.Random(0))
    record = game.record()
    assert record.seed is None and record.fairness is not None
    assert record.fairness.commitment == during.commitment  # the promise made before play is kept
    assert record.fairness.honest and record.kind == "ranked"
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
    game.act(Move.parse("8"))
    game.roll()
    assert game.state.phase is Phase.MOVE
    game.act(Move.parse("2"))
    before = (game.state, list(game.events))
    with pytest.raises(ParseError, match="no rolls left"):
        game.roll()
    assert (game.state, game.events) == before
    assert game.record().seed is None  # scripted dice have no seed


@pytest.mark.parametrize("seed", [5, None])
def test_typed_dice_are_refused_when_the_game_rolls_and_change_nothing(seed: int | None) -> None:
    game = Game(SOLO, ["Ana"], seed=seed)
    before = (game.state, list(game.events))
    with pytest.raises(IllegalActionError, match="typed dice are only for a game at a real box"):
        game.act(Roll.of(6, 6))
    assert (game.state, game.events) == before


def test_a_practice_roll_that_is_not_its_seed_s_fails_to_replay() -> None:
    game = Game(SOLO, ["Ana"], seed=5)
    finish(game, random.Random(1))
    record = game.record()
    assert record.seed == 5 and record.fairness is None and record.kind == "practice"
    assert replay(record) == game.state
    rolled = next(i for i, e in enumerate(record.events) if isinstance(e.action, Roll))
    forged = record.to_json()
    forged["events"][rolled]["roll"] = [7 - f for f in forged["events"][rolled]["roll"]]
    with pytest.raises(RecordError, match=rf"event {rolled}: roll .* is not what seed 5 gives"):
        replay(GameRecord.from_json(forged))


def test_a_game_rolled_by_hand_refuses_to_roll_and_records_no_seed() -> None:
    game = Game(Rules(), ["Ana", "Bot"], by_hand=True, bots={1: _Greedy()})
    assert game.seed is None and game.due().wait is Wait.PERSON  # a person rolls for the bot too
    before = (game.state, list(game.events))
    with pytest.raises(IllegalActionError, match="rolled by hand"):
        game.roll()
    assert (game.state, game.events) == before
    game.act(Roll.of(2))
    game.act(Roll.of(5))  # Bot starts
    assert game.due().wait is Wait.PERSON  # its dice are rolled by hand
    game.act(Roll.of(6, 3))
    due = game.due()
    assert (due.wait, due.seat) == (Wait.BOT, 1)
    assert game.step_bots() == [Move.parse("9")]
    record = game.record()
    assert record.seed is None and record.typed
    assert all(e.typed for e in record.events if isinstance(e.action, Roll))


class _Greedy:
    """A bot that shuts the highest tiles and rolls two dice (enough to seat one here)."""

    fallback = None
    patience = None

    def think(self, state: Match) -> DiceChoice | Move:
        if state.phase is Phase.CHOOSE:
            return DiceChoice(2)
        return max(state.legal_moves, key=lambda move: move.tiles)


def test_bots_take_their_turns_through_the_game() -> None:
    game = Game(Rules(mode=Mode.ROUND), ["Ana", "Bot"], seed=8, bots={1: _Greedy()})
    taken: list[object] = []
    while (due := game.due()).wait is not Wait.OVER:
        if due.wait is Wait.PERSON:
            assert due.seat == 0
            with pytest.raises(IllegalActionError, match="no bot is to choose"):
                game.think(due)
            game.play(due, ROLL if due.state.is_chance else due.state.legal_actions()[0])
        else:
            taken.extend(game.step_bots())
    assert any(isinstance(a, Move) for a in taken) and any(isinstance(a, Roll) for a in taken)
    assert replay(game.record()) == game.state  # the bot's rolls came from the seed like everyone's


def test_a_finished_game_is_kept_once() -> None:
    kept: list[GameRecord] = []

    class Keeper:
        def save(self, record: GameRecord, *, source: str, profiles: Mapping[int, int] | None = None) -> int:
            kept.append(record)
            return 40 + len(kept)

    game = Game(SOLO, ["Ana"], seed=3)
    with pytest.raises(IllegalActionError, match="only a finished game"):
        game.save(Keeper(), source="test")
    finish(game, random.Random(0))
    assert game.save(Keeper(), source="test") == 41
    assert game.save(Keeper(), source="test") == 41
    assert len(kept) == 1 and kept[0].result is not None


def test_choose_dice_and_act() -> None:
    game = Game(SOLO, ["Ana"], dice=ScriptedDice([Roll.of(6, 3), Roll.of(6, 2), Roll.of(4, 3), Roll.of(5)]))
    for move in ("9", "8", "7"):
        game.roll()
        game.act(Move.parse(move))
    assert game.state.phase is Phase.CHOOSE
    game.act(DiceChoice(1))
    assert game.state.dice_count == 1
    assert game.roll() == Roll.of(5)
    state = game.act(Move.parse("5"))
    assert state is game.state and 5 not in state.board
    assert [type(e.action).__name__ for e in game.events] == ["Roll", "Move"] * 3 + [
        "DiceChoice", "Roll", "Move",
    ]


def test_illegal_actions_leave_the_game_unchanged() -> None:
    game = Game(Rules(tiles=4, one_die="never"), ["A", "B"], by_hand=True)  # type: ignore[arg-type]
    game.act(Roll.of(4))  # roll-off: A
    snapshot = (game.state, list(game.events))

    def check(call: object, error: type[ShutTheBoxError] = IllegalActionError) -> None:
        with pytest.raises(error) as raised:
            call()  # type: ignore[operator]
        assert str(raised.value)
        assert (game.state, game.events) == snapshot

    check(lambda: game.act(Roll.of(3), 0), OutOfTurnError)  # B rolls off now
    check(lambda: game.act(Roll.of(3, 3)))  # the roll-off is one die
    check(lambda: game.act(DiceChoice(1)))
    check(lambda: game.act(Move.parse("1")))
    game.act(Roll.of(2))  # A starts
    game.act(Roll.of(1, 1))  # makes 2: the player must now move
    snapshot = (game.state, list(game.events))
    actor = game.state.actor
    assert actor is not None
    check(game.roll)
    check(lambda: game.act(Roll.of(2, 2)))
    check(lambda: game.act(Move.parse("3")))
    check(lambda: game.act(Move.parse("2"), 1 - actor), OutOfTurnError)
    check(lambda: game.act(DiceChoice(2)))
    game.act(Move.parse("2"))
    finish(game, random.Random(4))
    snapshot = (game.state, list(game.events))
    check(game.roll)
    check(lambda: game.act(Roll.of(1, 1)))
    check(lambda: game.act(Move.parse("1")))
    check(lambda: game.act(DiceChoice(2)))


def test_the_record_has_a_result_once_the_game_is_over() -> None:
    game = Game(SOLO, ["Ana"], seed=8)
    game.roll()
    assert game.record().result is None
    game.act(random_action(game.state, random.Random(0)))
    finish(game, random.Random(0))
    result = game.record().result
    assert result is not None and result.over is True and result.winner == "Ana"
    assert result.turns[0].open == game.state.history[0].board.open_tiles


def test_game_rules_and_rounds_are_those_of_the_match() -> None:
    game = Game(Rules(stake=1), ["A", "B"], seed=1, rounds=3)
    assert game.rules == Rules(stake=1)
    assert game.state.rounds == 3
    finish(game, random.Random(2))
    assert len(game.state.round_winners) == 3
    assert game.record().rounds == 3


def test_check_raises_what_play_would_and_changes_nothing() -> None:
    """A shell that notes something before a step (help, in a web room) checks it first: every
    refusal of `play` is `check`'s too, and a step `check` lets through plays."""
    game = Game(Rules(tiles=9), ["Ana", "Luis"], seed=3)
    refused = 0
    while (due := game.due()).wait is not Wait.OVER:
        right = ROLL if due.state.is_chance else due.state.legal_actions()[0]
        for wrong in (Move.parse("9+8+7"), ROLL, DiceChoice(2), Roll((3, 4))):
            if wrong == right:
                continue
            with pytest.raises(ShutTheBoxError) as checked:
                game.check(due, wrong)
            with pytest.raises(type(checked.value)):
                game.play(due, wrong)
            assert game.due().state is due.state
            refused += 1
        events = len(game.events)
        game.check(due, right)
        assert len(game.events) == events
        game.play(due, right)
        with pytest.raises(StaleActionError):
            game.check(due, right)  # chosen for a state the game has left
    assert refused > 20
