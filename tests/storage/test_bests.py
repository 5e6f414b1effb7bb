"""Bests, as the database computes them: per board size and rules, the earliest turn reaching the
best score is the one named (by moment, then by the order turns were kept), each group counts its
ranked turns, and a turn cut short by help counts, and is graded, at the score it stood at when
help came; on every engine alike."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from shutthebox import DiceChoice, Game, Move, Roll, Rules
from shutthebox.storage import GameRepository, ProfileRepository, rules_key
from shutthebox.storage.games import best_scores_on
from tests.support.drive import fair_dice_for
from tests.support.storage import LEFT_1, LEFT_3, SHUT, SOLO3, T0, scripted


def test_the_earliest_of_equal_bests_is_named_and_every_ranked_turn_counted(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    ana = profiles.create("Ana")[0]

    def save(script: str, moment: timedelta) -> int:
        record = scripted(SOLO3, ["Ana"], script)
        return games.save(record, source="web", finished_at=T0 + moment, profiles={0: ana.id})

    first = save(LEFT_1, timedelta(0))
    save(LEFT_1, timedelta(0))  # the same score at the same moment, kept after: not named
    save(LEFT_3, -timedelta(hours=1))  # earlier, but worse
    save(LEFT_1, timedelta(hours=1))
    best = games.best("Ana", SOLO3)
    assert best is not None and (best.score, best.game_id, best.turns) == (1, first, 4)
    assert best.finished_at == T0
    earliest = save(LEFT_1, -timedelta(hours=2))  # kept last, but finished first
    best = games.best("Ana", SOLO3)
    assert best is not None and (best.score, best.game_id, best.turns) == (1, earliest, 5)
    assert best.finished_at == T0 - timedelta(hours=2)


def test_groups_come_by_board_size_then_rules_each_with_its_own_count(games: GameRepository) -> None:
    digits, two = SOLO3.but(scoring="digits"), Rules(tiles=2, mode="solo")
    assert rules_key(digits) < rules_key(SOLO3)  # "scoring=digits" before "scoring=sum"
    for rules, script in [(SOLO3, LEFT_3), (digits, LEFT_3), (SOLO3, LEFT_1), (two, "d1 r2 m2 d1 r5"),
                          (digits, SHUT), (SOLO3, LEFT_3)]:
        games.save(scripted(rules, ["Eva"], script), source="web", finished_at=T0)
    assert [(b.tiles, b.rules_key, b.score, b.grade, b.turns) for b in games.bests("Eva")] == [
        (2, rules_key(two), 1, "A", 1),
        (3, rules_key(digits), 0, "S", 2),
        (3, rules_key(SOLO3), 1, "A", 3),
    ]
    assert [(b.tiles, b.turns) for b in games.bests("Eva", tiles=3)] == [(3, 2), (3, 3)]
    assert [b.score for b in games.bests("Eva", rules=digits)] == [0]


def test_a_turn_cut_short_by_help_is_a_best_at_the_score_it_stood_at_and_graded_by_it(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    """Help at the start of the turn: the turn counts as all three tiles open (6, grade B), though
    it went on to shut the box (0, grade S)."""
    rolls = [Roll.parse("3"), Roll.parse("3")]
    game = Game(SOLO3, ["Ana"], dice=fair_dice_for(rolls))
    assert game.assist(0)
    for action in (DiceChoice(1), "roll", Move.parse("3"), DiceChoice(1), "roll", Move.parse("2+1")):
        game.roll() if action == "roll" else game.act(action)  # type: ignore[arg-type]
    assert game.state.is_over and game.state.history[0].score == 0
    ana = profiles.create("Ana")[0]
    game_id = game.save(games, source="web", profiles={0: ana.id})
    best = games.best("Ana", SOLO3)
    assert best is not None and (best.score, best.grade, best.game_id, best.turns) == (6, "B", game_id, 1)
    assert [(t.score, t.grade, t.counted) for t in games.history("Ana")] == [(0, "S", 6)]


def test_a_players_best_is_found_without_reading_the_other_players_turns(tmp_path: Path) -> None:
    """What a finished game compares with (`GameRepository.best_scores`, asked as each game is kept)
    reads its players' turns under its rules, not every turn under those rules nor every game kept:
    the same work with 20 or 200 other players' games in the store (SQLite's steps, counted)."""
    from shutthebox.storage import Database

    with Database.open(f"sqlite:///{tmp_path / 'many.db'}") as database:
        games = GameRepository(database)
        for _ in range(3):
            games.save(scripted(SOLO3, ["Ana"], LEFT_1), source="web")

        def steps() -> int:
            with database.engine.connect() as connection:
                driver = connection.connection.driver_connection
                counted = [0]

                def step() -> int:
                    counted[0] += 1
                    return 0

                driver.set_progress_handler(step, 1)
                found = best_scores_on(connection, [("Ana", None)], rules=SOLO3, source="web")
                driver.set_progress_handler(None, 1)
            assert found == {"Ana": 1} and counted[0] > 0
            return counted[0]

        def others(count: int) -> None:
            for index in range(count):
                games.save(scripted(SOLO3, [f"Player {index}"], LEFT_3), source="web")

        others(20)
        with_few = steps()
        others(180)
        assert steps() == with_few
