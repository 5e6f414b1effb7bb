"""What a turn counts for in the rankings: help never improves a ranked score, and never takes a turn
that went badly out of the rankings (docs/fairness.md, "Which games count")."""

from __future__ import annotations

import hashlib
import random

import pytest

from shutthebox import Game, Mode, Move, Roll, Rules, ScriptedDice
from shutthebox.core.fair import FairDice
from shutthebox.core.ranking import Help, Result, cut_score, help_cost, turns_counted
from shutthebox.core.record import GameRecord, replay_states
from tests.support.drive import finish

SOLO = Rules(mode=Mode.SOLO)


def counted(game: Game) -> tuple[int | None, ...]:
    """The game's turns as they count, its dice taken as fair (scripted dice prove nothing): from its
    record replayed, every state at hand."""
    states = dict(enumerate(state for _event, state in replay_states(game.record())))
    return turns_counted(states[len(states) - 1], states, game.helped, ranked=True)


def scripted(rules: Rules, players: list[str], *rolls: tuple[int, ...]) -> Game:
    return Game(rules, players, dice=ScriptedDice([Roll(r) for r in rolls]))


def test_a_turn_helped_counts_as_its_open_tiles_when_help_came() -> None:
    """9 tiles: 6+3 shuts 9; a hint is asked before the next roll (36 open); the turn goes on to
    shut 8, 7 and 6+5+1 with 4+4, 5+2 and 6+6, then 6+6 fails with 2, 3 and 4 open (9). It counts
    36, not 9."""
    game = scripted(Rules(mode=Mode.SOLO, one_die="never"), ["Ana"], (6, 3), (4, 4), (5, 2), (6, 6), (6, 6))
    game.roll()
    game.act(Move.parse("9"))
    assert help_cost(game.state, 0) == 36
    assert game.assist(0) and not game.assist(0)  # noted once a turn
    for move in ("8", "7", "6+5+1"):
        game.roll()
        game.act(Move.parse(move))
    game.roll()
    assert game.state.is_over and game.state.history[0].score == 9
    assert counted(game) == (36,)
    assert game.helped == [Help(0, 2)] and game.assisted == {0}


def test_what_help_would_cost_is_said_once_a_turn_and_only_in_a_ranked_game() -> None:
    fair = Game(Rules(mode=Mode.SOLO), ["Ana"], dice=FairDice(hashlib.sha256(b"cost").digest()))
    fair.roll()
    assert fair.help_would_cost(0) == 45 and fair.help_would_cost(1) is None
    fair.assist(0)
    assert fair.help_would_cost(0) is None  # the price is paid: later hints of the turn cost nothing
    practice = Game(Rules(mode=Mode.SOLO), ["Ana"], seed=3)
    practice.roll()
    assert practice.help_would_cost(0) is None  # a practice game counts for nothing anyway


ROUND3 = Rules(tiles=3, shut_wins=False, one_die="never")
ROUND = ((5,), (2,), (2, 1), (1, 2), (1, 1), (3, 3))
"""A round of ROUND3: the roll-off (Ana 5, Luis 2); Ana shuts 3, then 2+1 (0); Luis shuts 2, then
6 fails with 1 and 3 open (4)."""


def play_round(game: Game, *, help_ana: bool = False, help_luis: bool = False) -> None:
    game.roll()
    game.roll()
    game.roll()
    if help_ana:
        assert game.assist(0)  # at her first decision: 1, 2 and 3 open
    if help_luis:
        assert game.assist(1)  # while Ana plays: his next turn counts whole
    game.act(Move.parse("3"))
    game.roll()
    game.act(Move.parse("2+1"))
    game.roll()
    game.act(Move.parse("2"))
    game.roll()


def test_a_turn_that_is_over_counts_as_played_whatever_help_comes_after_it() -> None:
    game = Game(ROUND3, ["Ana", "Luis"], rounds=2, dice=ScriptedDice([Roll(r) for r in ROUND * 2]))
    play_round(game)
    play_round(game, help_ana=True)
    assert game.state.is_over and [t.score for t in game.state.history] == [0, 4, 0, 4]
    assert counted(game) == (0, 4, 6, 4)  # round 1 as played; Ana's helped turn as it stood (6 open)


def test_help_outside_ones_turn_counts_from_the_next_turn_whole_and_the_roll_off_is_nobodys() -> None:
    game = Game(ROUND3, ["Ana", "Luis"], dice=ScriptedDice([Roll(r) for r in ROUND]))
    assert not game.assist(0)  # the roll-off is nobody's turn: nothing noted
    play_round(game, help_luis=True)
    assert [t.score for t in game.state.history] == [0, 4]
    assert counted(game) == (0, 6)  # Luis left while Ana played: his turn counts all three tiles open


@pytest.mark.parametrize(
    ("scoring", "open_tiles", "expected"),
    [
        ("sum", (1, 5), 6),
        ("digits", (1, 5), 15),
        ("count", (1, 5), 2),
        ("sum-plus-roll", (1, 5), 6 + 6),  # one die only on 1+5 (web rule): the worst roll adds 6
        ("sum-plus-roll", (4, 5), 9 + 12),  # two dice: the worst adds 12
    ],
)
def test_a_cut_scores_its_open_tiles_as_the_scoring_counts_them(
    scoring: str, open_tiles: tuple[int, ...], expected: int
) -> None:
    rules = Rules.preset("web", scoring=scoring, one_die_forced=True)
    mask = sum(1 << (tile - 1) for tile in open_tiles)
    assert cut_score(rules, mask) == expected


def test_a_cut_is_never_better_than_what_playing_on_gives() -> None:
    """Over many random games with help at a random decision: the turn counts at least as its score."""
    rng = random.Random(7)
    for index in range(200):
        rules = Rules(tiles=rng.choice((5, 9, 12)), mode=Mode.SOLO,
                      scoring=rng.choice(("sum", "digits", "count", "sum-plus-roll")))
        game = Game(rules, ["Ana"], seed=index)
        help_at = rng.randrange(6)
        decisions = 0
        while not game.state.is_over:
            state = game.state
            if state.is_decision:
                if decisions == help_at:
                    cost = help_cost(state, 0)
                    assert cost is not None and game.assist(0)
                decisions += 1
                game.act(rng.choice(state.legal_actions()))
            else:
                game.roll()
        (score,) = (t.score for t in game.state.history)
        (as_counted,) = counted(game)
        assert as_counted is not None and score is not None and as_counted >= score
        if help_at >= decisions:
            assert as_counted == score  # no help came


def test_a_game_counts_its_turns_as_played_as_its_record_replayed_counts_them() -> None:
    """A game saved where it was played counts its turns from where it stands and its states at each
    help (`GameRecord.played`), without a replay: the same counts as the record read back from its
    text and replayed, help at any moment of rounds, elimination and stand-ins included."""
    rng = random.Random(29)
    for index in range(150):
        mode = rng.choice(("solo", "round", "elimination"))
        rules = Rules(tiles=rng.choice((4, 6, 9)), mode=mode, one_die=rng.choice(("never", "sum-le-6")))
        players = ["Ana", "Luis", "Eva"][: 1 if mode == "solo" else rng.choice((2, 3))]
        game = Game(rules, players, dice=FairDice(hashlib.sha256(f"played {index}".encode()).digest()))
        while not game.state.is_over:
            if rng.random() < 0.15:
                game.assist(rng.randrange(len(players)))  # a hint, a stand-in, a player gone
            if game.state.is_decision:
                game.act(rng.choice(game.state.legal_actions()))
            else:
                game.roll()
        played = game.record()
        read_back = GameRecord.loads(played.dumps())
        assert played.played is not None and read_back.played is None
        assert played.counted() == read_back.counted(), index
        assert played.results(players, {}) == read_back.results(players, {})


def test_a_fair_records_turns_count_and_a_version_3_assisted_player_counts_for_none() -> None:
    dice = FairDice(hashlib.sha256(b"ranking").digest())
    game = Game(Rules(tiles=5, shut_wins=False), ["Ana", "Luis"], dice=dice)
    finish(game, random.Random(1))
    record = game.record()
    assert record.fair and record.kind == "ranked"
    assert record.counted() == tuple(t.score for t in game.state.history)
    legacy = GameRecord.from_json({**record.to_json(), "assisted": [0], "helped": []})
    assert legacy.kind == "assisted"
    assert legacy.counted() == tuple(None if t.player == 0 else t.score for t in game.state.history)
    hidden = GameRecord.from_json({**record.to_json(), "fairness": {**record.to_json()["fairness"],
                                                                     "server_seed": None}})
    assert not hidden.fair and set(hidden.counted()) == {None}


def test_the_long_game_scores_no_turn_so_help_costs_no_score() -> None:
    game = Game(Rules(mode=Mode.LONG), ["Ana", "Luis"], seed=3)
    while not game.state.is_decision:
        game.roll()
    actor = game.state.actor
    assert actor is not None and help_cost(game.state, actor) is None


def test_a_new_best_beats_the_one_before_or_is_a_first_best_played_without_help() -> None:
    """Regression: a first game with a hint, counted 45 as its tiles stood, was "New best!" on the page
    and "New personal best" in the terminal."""
    assert Result("Ana", 20, None, helped=False).new_best
    assert not Result("Ana", 45, None, helped=True).new_best  # a best only by default
    assert Result("Ana", 12, 20, helped=True).new_best  # under the best before, help or not
    assert not Result("Ana", 20, 20, helped=False).new_best
    assert not Result("Ana", None, None, helped=False).new_best
