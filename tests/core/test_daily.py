"""The daily challenge's pure part: dice counted by roll, the same for every player whatever they
choose; records that verify; the leaderboard's order and the streak; the optimal player's game."""

from __future__ import annotations

import copy
import math
import random
import statistics
from datetime import UTC, date, datetime, timedelta

import pytest

from shutthebox import Game
from shutthebox.core.board import Move
from shutthebox.core.daily import DAILY_TILES, Challenge, Entry, ranked, streak, today
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.errors import ParseError
from shutthebox.core.fair import BY_ROLL, FairDice, Fairness, die
from shutthebox.core.match import Match, Phase
from shutthebox.core.record import GameRecord, replay_states
from shutthebox.core.rules import Mode, OneDie
from shutthebox.core.verify import verify
from shutthebox.strategy.advice import advise
from shutthebox.strategy.bots import make_bot
from shutthebox.strategy.daily import optimal_outcome, outcome_of
from shutthebox.strategy.solver import Objective, solve

DAY = Challenge(date(2026, 12, 1), 9)
SEED = bytes(range(32))


def play(challenge: Challenge, seed: bytes, bot: str, rng: int = 0) -> GameRecord:
    """A whole attempt at the challenge by ``bot``."""
    bots = {0: make_bot(bot, random.Random(rng))}
    game = Game(challenge.rules, ["Ana"], dice=challenge.dice(seed), bots=bots)
    game.step_bots()
    return game.record()


def rolls_of(record: GameRecord) -> list[tuple[int, ...]]:
    return [event.action.dice for event in record.events if isinstance(event.action, Roll)]


def test_roll_r_is_dice_2r_and_2r_plus_1_of_the_fair_scheme_whatever_came_before() -> None:
    seeds = [DAY.client_seed]
    one_first, two_first = DAY.dice(SEED), DAY.dice(SEED)
    assert one_first.roll(1).dice == (die(SEED, seeds, 0),)
    assert two_first.roll(2).dice == (die(SEED, seeds, 0), die(SEED, seeds, 1))
    for r in range(1, 6):  # one die or two before, the same roll r now
        expected = (die(SEED, seeds, 2 * r), die(SEED, seeds, 2 * r + 1))
        assert one_first.roll(2).dice == two_first.roll(2).dice == expected
    assert FairDice(SEED, seeds).roll(1).dice == (die(SEED, seeds, 0),)  # the usual scheme is unchanged


@pytest.mark.parametrize(
    ("first", "second"), [("optimal", "greedy"), ("random", "heuristic"), ("random", "random")]
)
def test_players_who_choose_differently_see_the_same_rolls_in_the_same_order(first: str, second: str) -> None:
    for seed in range(20):
        server_seed = random.Random(seed).randbytes(32)
        a = rolls_of(play(DAY, server_seed, first, rng=seed))
        b = rolls_of(play(DAY, server_seed, second, rng=seed + 1000))
        for roll_a, roll_b in zip(a, b, strict=False):
            assert roll_a[0] == roll_b[0]  # the first die of each roll, one die or two
            if len(roll_a) == len(roll_b) == 2:
                assert roll_a == roll_b


class DiceHabit:
    """The greedy bot's moves, with a habit for the dice: one die whenever allowed, or always two."""

    fallback = None
    patience = None

    def __init__(self, one: bool) -> None:
        self.one, self.greedy = one, make_bot("greedy")

    def think(self, state: Match) -> DiceChoice | Move:
        if state.phase is Phase.CHOOSE:
            return DiceChoice(1) if self.one and DiceChoice(1) in state.legal_actions() else DiceChoice(2)
        return self.greedy.think(state)


def test_a_roll_of_one_die_is_the_first_die_of_the_others_roll_of_two() -> None:
    met = 0
    for seed in range(30):
        server_seed = random.Random(seed).randbytes(32)
        games = []
        for one in (True, False):
            game = Game(DAY.rules, ["Ana"], dice=DAY.dice(server_seed), bots={0: DiceHabit(one)})
            game.step_bots()
            games.append(rolls_of(game.record()))
        for single, double in zip(*games, strict=False):
            assert single[0] == double[0]
            met += len(single) == 1
    assert met > 0  # the comparison above did meet rolls of one die and two


def test_an_attempt_verifies_from_the_revealed_seed_and_a_changed_die_does_not() -> None:
    record = play(DAY, SEED, "random")
    assert record.fairness is not None and record.fairness.algorithm == BY_ROLL
    assert verify(record).proven
    data = record.to_json()
    again = GameRecord.from_json(copy.deepcopy(data))
    assert again.fairness == record.fairness and verify(again).proven
    index = next(i for i, e in enumerate(data["events"]) if "roll" in e and len(e["roll"]) == 2)
    tampered = copy.deepcopy(data)
    tampered["events"][index]["roll"][1] = tampered["events"][index]["roll"][1] % 6 + 1
    verdict = verify(GameRecord.from_json(tampered))
    assert not verdict.proven and verdict.event == index
    counted_by_die = copy.deepcopy(data)  # the same events read under the usual scheme
    counted_by_die["fairness"]["algorithm"] = "hmac-sha256-v1"
    if any(len(e.get("roll", ())) == 1 for e in data["events"]):
        assert not verify(GameRecord.from_json(counted_by_die)).proven


def test_the_dice_a_store_keeps_draw_on_by_roll() -> None:
    dice = DAY.dice(SEED)
    kept = dice.kept()
    assert kept["by_roll"] is True
    again, fresh = FairDice.from_kept(kept), DAY.dice(SEED)
    assert [again.roll(1), again.roll(2), again.roll(2)] == [fresh.roll(1), fresh.roll(2), fresh.roll(2)]
    assert "by_roll" not in FairDice(SEED).kept()
    assert Fairness.from_json(dice.fairness(reveal=True).to_json()).dice().by_roll


def test_a_challenge_is_a_day_a_board_and_the_web_rules_played_solo() -> None:
    assert DAY.client_seed == "daily-2026-12-01-9"
    assert DAY.rules.mode is Mode.SOLO and DAY.rules.one_die is OneDie.SUM_LE_6 and DAY.rules.tiles == 9
    assert Challenge.parse("2026-12-01", 12) == Challenge(date(2026, 12, 1), 12)
    for tiles in (8, 11):
        with pytest.raises(ParseError, match="9, 10, 12 tiles, not"):
            Challenge(DAY.day, tiles)
    with pytest.raises(ParseError, match="YYYY-MM-DD, not '1/12/2026'"):
        Challenge.parse("1/12/2026", 9)
    assert DAILY_TILES == (9, 10, 12)


def test_days_begin_at_midnight_utc() -> None:
    midnight = datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    assert today(midnight - 1) == date(2026, 11, 30)
    assert today(midnight) == date(2026, 12, 1)


def test_the_leaderboard_ranks_the_score_then_fewer_rolls_then_the_earlier_finish() -> None:
    noon = datetime(2026, 12, 1, 12, tzinfo=UTC)
    entries = [
        Entry("late", 3, 6, noon + timedelta(hours=2)),
        Entry("more rolls", 3, 8, noon),
        Entry("early", 3, 6, noon),
        Entry("shut", 0, 9, noon + timedelta(hours=5)),
        Entry("high", 10, 2, noon - timedelta(hours=5)),
    ]
    assert [e.player for e in ranked(entries)] == ["shut", "early", "late", "more rolls", "high"]


def test_a_streak_counts_the_days_in_a_row_and_lives_until_a_whole_day_is_missed() -> None:
    day = date(2026, 12, 1)
    days = {day - timedelta(days=n) for n in (0, 1, 2, 4)}
    assert streak(days, day) == 3
    assert streak(days - {day}, day) == 2  # not played yet today: yesterday's streak still counts
    assert streak(days, day + timedelta(days=2)) == 0
    assert streak(set(), day) == 0


def test_the_optimal_player_on_the_days_dice_makes_the_solvers_choices_and_verifies() -> None:
    outcome = optimal_outcome(DAY, SEED)
    assert verify(outcome.record).proven
    assert outcome_of(outcome.record) == outcome
    assert outcome.rolls == len(rolls_of(outcome.record)) > 0
    before = None
    for event, state in replay_states(outcome.record):
        if event is not None and not isinstance(event.action, Roll):
            assert before is not None
            advice = advise(before, Objective.SCORE)
            assert advice.loss_of(event.action) <= 1e-12, (before.describe(), event.action)
        before = state
    assert before is not None and before.is_over


def test_over_many_days_the_optimal_players_mean_score_is_the_solvers_expected_score() -> None:
    """Monte Carlo against the solver: 600 days of 9-tile challenges, within a 99.9 % bound."""
    scores = [optimal_outcome(DAY, random.Random(s).randbytes(32)).score for s in range(600)]
    expected = solve(DAY.rules, "score").value
    bound = 3.29 * statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(statistics.mean(scores) - expected) < bound, (statistics.mean(scores), expected, bound)
