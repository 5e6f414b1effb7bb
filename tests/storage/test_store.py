"""The store keeps finished games, histories, bests and a leaderboard, and loses nothing."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from shutthebox import Rules
from shutthebox.core.record import GameRecord, replay
from shutthebox.storage import (
    ENV_VAR,
    Database,
    GameRepository,
    ProfileRepository,
    StorageError,
    default_url,
    engine_url,
    rules_key,
)
from tests.support.storage import (
    LEFT_1,
    LEFT_3,
    SHUT,
    SOLO3,
    T0,
    fair_game,
    newest_revision,
    profiles_of,
    scripted,
    seeded_game,
    seeded_shut,
    typed_copy,
)

NEWEST = newest_revision()


def test_open_migrates_to_head_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.db"
    with Database.open(f"sqlite:///{path}") as database:
        games = GameRepository(database)
        assert database.schema_version() == NEWEST
        assert games.count() == 0
    with Database.open(f"sqlite:///{path}") as database, database.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "turns", "profiles", "profile_names", "alembic_version"} <= tables


def test_a_saved_game_survives_closing_and_reopening(database_url: str) -> None:
    url = database_url
    record = scripted(SOLO3, ["Ana"], LEFT_3)
    with Database.open(url) as database:
        games = GameRepository(database)
        game_id = games.save(record, source="web", finished_at=T0)
    with Database.open(url) as again:
        stored = GameRepository(again).game(game_id)
    assert stored.summary.players == ("Ana",)
    assert stored.summary.scores == (("Ana", 3),)
    assert stored.summary.source == "web"
    assert stored.summary.finished_at == T0
    assert stored.record.to_json() == record.to_json()
    assert stored.record.fairness is not None and stored.record.fairness.revealed
    assert stored.summary.kind == "ranked"


def test_reopening_an_existing_database_keeps_its_games(database_url: str) -> None:
    with Database.open(database_url) as database:
        games = GameRepository(database)
        games.save(scripted(SOLO3, ["Ana"], SHUT), source="terminal")
    with Database.open(database_url) as database:
        games = GameRepository(database)
        assert games.count() == 1
        assert database.schema_version() == NEWEST


def test_in_memory_database_works() -> None:
    with Database.open("sqlite://") as database:
        games = GameRepository(database)
        games.save(scripted(SOLO3, ["Ana"], SHUT), source="web")
        assert games.count() == 1


def test_unfinished_games_are_refused_and_nothing_is_stored(games: GameRepository) -> None:
    record = scripted(SOLO3, ["Ana"], "d1 r3 m3")
    with pytest.raises(StorageError, match="still being played"):
        games.save(record, source="web")
    assert games.count() == 0


def test_a_record_that_does_not_replay_is_refused(games: GameRepository) -> None:
    record = scripted(SOLO3, ["Ana"], LEFT_3)
    assert record.result is not None
    record = replace(record, result=replace(record.result, winner="Luis"))
    with pytest.raises(StorageError, match="does not replay"):
        games.save(record, source="web")
    assert games.count() == 0


def test_a_record_without_result_is_stored_with_its_replayed_result(games: GameRepository) -> None:
    record = scripted(SOLO3, ["Ana"], LEFT_1)
    record = replace(record, result=None)
    game_id = games.save(record, source="web")
    assert games.game(game_id).record.result is not None
    assert games.game(game_id).summary.scores == (("Ana", 1),)


@pytest.mark.parametrize("source", ["", "x" * 33])
def test_source_must_be_a_short_name(games: GameRepository, source: str) -> None:
    with pytest.raises(StorageError, match="source"):
        games.save(scripted(SOLO3, ["Ana"], SHUT), source=source)


def test_unknown_game_id_is_an_error(games: GameRepository) -> None:
    with pytest.raises(StorageError, match="no stored game 42"):
        games.game(42)


def test_games_are_listed_newest_first_and_filtered(games: GameRepository) -> None:
    first = games.save(scripted(SOLO3, ["Ana"], SHUT), source="web", finished_at=T0)
    second = games.save(
        scripted(SOLO3, ["Luis"], LEFT_3), source="terminal", finished_at=T0 + timedelta(minutes=1)
    )
    assert [g.id for g in games.games()] == [second, first]
    assert [g.id for g in games.games(player="Ana")] == [first]
    assert [g.id for g in games.games(source="terminal")] == [second]
    assert [g.id for g in games.games(limit=1, offset=1)] == [first]
    assert games.games(player="Nadie") == []


def test_round_game_stores_every_turn_and_the_winner(games: GameRepository) -> None:
    rules = Rules(tiles=3, shut_wins=False)
    # Roll-off: Ana 5, Luis 2, so Ana starts; Ana leaves 1 open, Luis leaves 3 open.
    record = scripted(rules, ["Ana", "Luis"], "r5 r2 " + LEFT_1 + " " + LEFT_3)
    game_id = games.save(record, source="web")
    summary = games.game(game_id).summary
    assert summary.winner == "Ana"
    assert summary.scores == (("Ana", 1), ("Luis", 3))
    assert summary.mode == "round"


def test_history_lists_a_players_turns_newest_first(games: GameRepository) -> None:
    games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web", finished_at=T0)
    games.save(scripted(SOLO3, ["Ana"], SHUT), source="terminal", finished_at=T0 + timedelta(hours=1))
    history = games.history("Ana")
    assert [(t.score, t.grade, t.source) for t in history] == [(0, "S", "terminal"), (3, "A", "web")]
    assert history[1].open_tiles == (1, 2)
    assert games.history("Luis") == []


def test_bests_are_kept_per_board_size_and_rules(games: GameRepository) -> None:
    games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web", finished_at=T0)
    games.save(scripted(SOLO3, ["Ana"], LEFT_1), source="web", finished_at=T0 + timedelta(1))
    games.save(scripted(SOLO3, ["Ana"], LEFT_1), source="web", finished_at=T0 + timedelta(2))
    digits = SOLO3.but(scoring="digits")
    games.save(scripted(digits, ["Ana"], LEFT_3), source="web")
    two = Rules(tiles=2, mode="solo")
    games.save(scripted(two, ["Ana"], "d1 r2 m2 d1 r5"), source="web")

    bests = {(b.tiles, b.rules_key): b for b in games.bests("Ana")}
    assert len(bests) == 3
    sum3 = bests[(3, rules_key(SOLO3))]
    assert (sum3.score, sum3.grade, sum3.turns) == (1, "A", 3)
    assert sum3.finished_at == T0 + timedelta(1)  # the first time the best was reached
    assert bests[(3, rules_key(digits))].score == 12  # tiles 1 and 2 read as 12
    assert bests[(2, rules_key(two))].score == 1
    assert [b.tiles for b in games.bests("Ana", tiles=2)] == [2]
    best = games.best("Ana", SOLO3)
    assert best is not None and best.score == 1
    assert games.best("Luis", SOLO3) is None


def test_a_round_turn_counts_for_the_best_under_the_same_rules(games: GameRepository) -> None:
    rules = Rules(tiles=3, shut_wins=False, stake=2)
    games.save(scripted(rules, ["Ana", "Luis"], "r5 r2 " + LEFT_1 + " " + LEFT_3), source="web")
    best = games.best("Luis", SOLO3)
    assert best is not None and best.score == 3


def test_long_game_turns_have_no_score_and_no_best(games: GameRepository) -> None:
    rules = Rules(tiles=3, mode="long")
    # Ana starts (5 beats 2), shuts all three tiles and wins at once.
    games.save(scripted(rules, ["Ana", "Luis"], "r5 r2 " + SHUT), source="web")
    assert games.games()[0].kind == "ranked"  # fair dice: no best only because no score
    assert games.bests("Ana") == []
    assert games.games()[0].winner == "Ana"
    assert games.history("Ana")[0].score is None


def test_leaderboard_ranks_by_best_then_average(games: GameRepository, profiles: ProfileRepository) -> None:
    made = profiles_of(profiles, "Ana", "Luis", "Eva", "Zoe")
    for name, script in [("Ana", LEFT_1), ("Ana", LEFT_3), ("Luis", LEFT_1), ("Eva", SHUT), ("Luis", LEFT_1)]:
        games.save(scripted(SOLO3, [name], script), source="web", profiles={0: made[name].id})
    games.save(
        scripted(SOLO3.but(scoring="count"), ["Zoe"], SHUT), source="web", profiles={0: made["Zoe"].id}
    )
    board = games.leaderboard(SOLO3)
    assert [(e.rank, e.player, e.best, e.turns, e.shut_boxes) for e in board] == [
        (1, "Eva", 0, 1, 1),
        (2, "Luis", 1, 2, 0),
        (3, "Ana", 1, 2, 0),
    ]
    assert [e.profile for e in board] == [made[name].id for name in ("Eva", "Luis", "Ana")]
    assert board[2].average == 2.0
    assert board[0].to_json() == {
        "rank": 1, "player": "Eva", "profile": made["Eva"].id, "best": 0, "average": 0.0, "turns": 1,
        "shut_boxes": 1,
    }
    assert [e.player for e in games.leaderboard(SOLO3, limit=1)] == ["Eva"]
    assert games.leaderboard() == []  # nobody played the classic 9-tile game


def test_leaderboard_ties_go_to_the_name_by_code_point_on_every_engine(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    """Equal best and average: the name decides, character by character by code point (capitals
    first), as SQLite compares, even on a PostgreSQL database sorting text by a language's rules
    (which would put "a-c", "ana" and "Émile" before "Zoe")."""
    names = ["ana", "Zoe", "a-c", "Émile", "Bob", "ab", "b"]
    made = profiles_of(profiles, *names)
    for name in names:
        games.save(scripted(SOLO3, [name], LEFT_1), source="web", profiles={0: made[name].id})
    board = games.leaderboard(SOLO3)
    assert [e.player for e in board] == sorted(names) == ["Bob", "Zoe", "a-c", "ab", "ana", "b", "Émile"]
    assert [e.rank for e in board] == list(range(1, len(names) + 1))
    assert [e.player for e in games.leaderboard(SOLO3, limit=2)] == ["Bob", "Zoe"]  # cut after the sort


def test_a_digits_score_past_32_bit_integers_is_kept(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    """Scored by its digits, a 12-tile board left open reads up to 123456789101112: past 2**31, which
    a PostgreSQL INTEGER cannot hold (SQLite's integers all have 64 bits)."""
    rules = Rules(tiles=12, mode="solo", scoring="digits")
    game = fair_game(rules, ["Ana"], "digits")
    score = game.state.history[0].score
    assert score is not None and score > 2**31
    ana = profiles.create("Ana")[0]
    game_id = games.save(game.record(), source="web", profiles={0: ana.id})
    assert games.game(game_id).summary.scores == (("Ana", score),)
    assert [(b.score, b.game_id) for b in games.bests("Ana")] == [(score, game_id)]
    assert [(e.best, e.average) for e in games.leaderboard(rules)] == [(score, float(score))]


def test_rules_key_leaves_out_mode_and_stakes_only() -> None:
    classic = Rules()
    assert rules_key(classic) == rules_key(Rules(mode="solo", stake=5, shut_wins=False, limit=30))
    assert rules_key(classic) != rules_key(Rules(scoring="digits"))
    assert rules_key(classic) != rules_key(Rules(max_tiles=2))
    assert rules_key(classic) != rules_key(Rules(doubles_extra_turn=True))
    assert rules_key(classic) == (
        "doubles_extra_turn=false,max_tiles=null,one_die=high-shut,one_die_forced=false,scoring=sum,tiles=9"
    )


def test_default_url_uses_the_environment_or_a_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, "sqlite:///elsewhere.db")
    assert default_url() == "sqlite:///elsewhere.db"
    assert default_url(tmp_path / "data") == f"sqlite:///{tmp_path / 'data' / 'shutthebox.db'}"
    assert (tmp_path / "data").is_dir()
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_url().endswith("shutthebox.db")
    assert default_url().startswith("sqlite:///")


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("postgresql://u:p@db/games", "postgresql+psycopg"),
        ("postgres://u:p@db/games", "postgresql+psycopg"),
        ("postgresql+psycopg://u:p@db/games", "postgresql+psycopg"),
        ("sqlite:///games.db", "sqlite"),
    ],
)
def test_engine_url_uses_psycopg_for_postgresql(url: str, driver: str) -> None:
    parsed = engine_url(url)
    assert parsed.drivername == driver
    if driver.startswith("postgresql"):
        assert (parsed.host, parsed.database, parsed.username) == ("db", "games", "u")


@pytest.mark.parametrize("url", ["not a url", "mysql://db/games"])
def test_unusable_urls_are_refused(url: str) -> None:
    with pytest.raises(StorageError, match="database URL"):
        engine_url(url)


def test_postgresql_without_psycopg_names_the_missing_driver() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        with pytest.raises(StorageError, match="psycopg"):
            Database.open("postgresql://u:p@localhost:1/none")
    else:
        pytest.skip("psycopg is installed; this checks the message when it is not")


# -- games whose dice were typed in by hand ---------------------------------------------------------
def test_a_game_with_typed_dice_is_kept_but_counts_for_no_best(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    ana = profiles.create("Ana")[0]
    rolled = scripted(SOLO3, ["Ana"], LEFT_3)
    games.save(
        typed_copy(scripted(SOLO3, ["Ana"], SHUT)), source="companion", finished_at=T0, profiles={0: ana.id}
    )
    games.save(rolled, source="terminal", finished_at=T0, profiles={0: ana.id})
    assert [g.typed for g in games.games()] == [False, True]
    assert games.games()[1].to_json()["typed"] is True
    assert [g.kind for g in games.games()] == ["ranked", "companion"]
    assert [(b.score, b.turns) for b in games.bests("Ana")] == [(3, 1)]  # the typed 0 is not a best
    assert [(e.player, e.best, e.shut_boxes) for e in games.leaderboard(SOLO3)] == [("Ana", 3, 0)]
    assert [t.score for t in games.history("Ana")] == [3, 0]  # both are in the history


def test_the_migration_marks_the_old_games_whose_dice_were_typed(database_url: str) -> None:
    """Databases written before revision 0002 knew typed games by their null seed."""
    from alembic import command

    from shutthebox.storage.database import alembic_config

    url = database_url
    engine = create_engine(engine_url(url))
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        for number, (record, source) in enumerate([
            (scripted(SOLO3, ["Ana"], SHUT, practice=True).to_json() | {"seed": None}, "terminal"),  # typed
            (scripted(SOLO3, ["Ana"], SHUT, practice=True).to_json() | {"seed": 7}, "companion"),
            (scripted(SOLO3, ["Ana"], LEFT_3, practice=True).to_json() | {"seed": 7}, "web"),
        ], start=1):
            connection.execute(text(
                "INSERT INTO games (id, finished_at, source, mode, tiles, rules_key, players, record)"
                " VALUES (:id, '2026-01-01', :source, 'solo', 3, 'k', '[\"Ana\"]', :record)"
            ), {"id": number, "source": source, "record": json.dumps(record, indent=1)})
            connection.execute(text(
                "INSERT INTO turns (game_id, seq, player, round, tiebreak, open_tiles, open_sum, score,"
                " tiles, rules_key, finished_at)"
                " VALUES (:id, 0, 'Ana', 1, 0, '[]', 0, 0, 3, 'k', '2026-01-01')"
            ), {"id": number})
    engine.dispose()
    with Database.open(url) as database, database.engine.connect() as connection:
        assert database.schema_version() == NEWEST  # through 0002 to the newest
        games = connection.execute(text("SELECT id, typed FROM games ORDER BY id")).all()
        turns = connection.execute(text("SELECT game_id, typed FROM turns ORDER BY game_id")).all()
    assert games == turns == [(1, True), (2, True), (3, False)]


# -- revision 0003: profiles, ranked turns --------------------------------------------------------
# No id: the database numbers the games, as for the store of 0002 (on PostgreSQL an id written by
# hand would leave the sequence behind, and the next game saved would take it again).
_OLD_GAME = (
    "INSERT INTO games (finished_at, source, mode, tiles, rules_key, players, winner, record, typed)"
    " VALUES (:at, :source, :mode, :tiles, :key, :players, :winner, :record, :typed) RETURNING id"
)
_OLD_TURN = (
    "INSERT INTO turns (game_id, seq, player, round, tiebreak, open_tiles, open_sum, score, tiles,"
    " rules_key, finished_at, typed)"
    " VALUES (:id, :seq, :player, :round, :tiebreak, :open, :sum, :score, :tiles, :key, :at, :typed)"
)
_OLD_GAME_COLUMNS = "id, finished_at, source, mode, tiles, rules_key, players, winner, record, typed"
_OLD_TURN_COLUMNS = (
    "id, game_id, seq, player, round, tiebreak, open_tiles, open_sum, score, tiles, rules_key, finished_at,"
    " typed"
)


def _save_at_0002(connection: Any, game_id: int, record: GameRecord, source: str) -> None:
    """Write a game as the store of revision 0002 did: a row per game and per turn, no kind, no rank."""
    state = replay(record)
    key, when = rules_key(record.rules), (T0 + timedelta(minutes=game_id)).isoformat()
    numbered = connection.scalar(text(_OLD_GAME), {
        "at": when, "source": source, "mode": str(record.rules.mode),
        "tiles": record.rules.tiles, "key": key, "players": json.dumps(list(record.players)),
        "winner": record.players[state.winner] if state.winner is not None else None,
        "record": record.dumps(), "typed": record.typed,
    })
    assert numbered == game_id
    for seq, turn in enumerate(state.history):
        connection.execute(text(_OLD_TURN), {
            "id": game_id, "seq": seq, "player": record.players[turn.player], "round": turn.round,
            "tiebreak": turn.tiebreak, "open": json.dumps(list(turn.board.open_tiles)),
            "sum": turn.board.open_sum, "score": turn.score, "tiles": record.rules.tiles, "key": key,
            "at": when, "typed": record.typed,
        })


def test_the_migration_to_0003_keeps_every_game_and_ranks_none(database_url: str) -> None:
    """Games before 0003 rolled from a secret seed nothing committed to: kept, but practice (or companion)."""
    from alembic import command

    from shutthebox.storage.database import alembic_config
    from shutthebox.storage.location import sqlite_file
    from shutthebox.storage.reader import read_scores, stored_scores

    url = database_url
    engine = create_engine(engine_url(url))
    old_games = [
        (seeded_shut(SOLO3, "Ana"), "web"),  # Ana shut the box: her best before 0003
        (seeded_game(Rules(tiles=3), ["Ana", "Luis"], 11), "web"),
        (typed_copy(scripted(SOLO3, ["Ana"], LEFT_1, practice=True)), "companion"),
        (scripted(Rules(tiles=3), ["Luis", "Eva"], f"r5 r2 {LEFT_1} {LEFT_3}", practice=True), "terminal"),
    ]
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0002")
        for game_id, (record, source) in enumerate(old_games, start=1):
            _save_at_0002(connection, game_id, record, source)
        games_before = connection.execute(text(f"SELECT {_OLD_GAME_COLUMNS} FROM games ORDER BY id")).all()
        turns_before = connection.execute(text(f"SELECT {_OLD_TURN_COLUMNS} FROM turns ORDER BY id")).all()
    engine.dispose()
    assert len(games_before) == 4 and len(turns_before) >= 6

    with Database.open(url) as database:

        games, profiles = GameRepository(database), ProfileRepository(database)
        assert database.schema_version() == NEWEST
        with database.engine.connect() as connection:
            games_after = connection.execute(text(f"SELECT {_OLD_GAME_COLUMNS} FROM games ORDER BY id")).all()
            turns_after = connection.execute(text(f"SELECT {_OLD_TURN_COLUMNS} FROM turns ORDER BY id")).all()
            kinds = connection.execute(text("SELECT id, kind FROM games ORDER BY id")).all()
            marks = connection.execute(text("SELECT DISTINCT ranked, profile_id FROM turns")).all()
        assert games_after == games_before and turns_after == turns_before  # not a row lost or changed
        assert kinds == [(1, "practice"), (2, "practice"), (3, "companion"), (4, "practice")]
        assert marks == [(False, None)]  # no turn ranked, none a profile's
        summaries = {g.id: g.to_json() for g in games.games()}
        assert {i: (s["kind"], s["ranked"]) for i, s in summaries.items()} == {
            1: ("practice", False), 2: ("practice", False), 3: ("companion", False), 4: ("practice", False)
        }
        assert [games.game(i).record.to_json() for i in range(1, 5)] == [r.to_json() for r, _ in old_games]
        history = games.history("Ana")
        assert len(history) == sum(1 for turn in turns_before if turn.player == "Ana")
        assert (1, 0) in {(t.game_id, t.score) for t in history}  # her shut box is kept, in the history
        assert games.bests("Ana") == games.bests("Luis") == games.bests("Eva") == []
        assert games.leaderboard(SOLO3) == games.leaderboard(Rules(tiles=3)) == []
        answer = stored_scores(url, ["Ana", "Luis", "Eva"])
        assert answer["bests"] == [] and len(answer["games"]) == 4
        path = sqlite_file(url)
        if path is not None:  # the quick reader of a SQLite file answers the same
            assert read_scores(path, ["Ana", "Luis", "Eva"]) == answer

        ana = profiles.create("Ana")[0]  # the new tables work on the migrated file
        new = games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web", profiles={0: ana.id})
        assert [(b.score, b.game_id, b.turns) for b in games.bests("Ana")] == [(3, new, 1)]
        assert [(e.player, e.best) for e in games.leaderboard(SOLO3)] == [("Ana", 3)]


def test_a_game_the_engine_ended_is_kept_as_its_replay_would_be(games: GameRepository) -> None:
    """The server hands over where its engine ended the game (no second replay): the rows are the
    ones the replay of its record gives, turn by turn."""
    rules = Rules(tiles=3, shut_wins=False)
    record = scripted(rules, ["Ana", "Luis"], "r5 r2 " + LEFT_1 + " " + LEFT_3)
    replayed = games.game(games.save(record, source="web"))
    handed = games.game(games.save(record, source="web", origin="room:ABCDE", ended=replay(record)))
    assert handed.summary.scores == replayed.summary.scores == (("Ana", 1), ("Luis", 3))
    assert handed.summary.winner == replayed.summary.winner == "Ana"
    assert games.history("Luis")[0].score == 3 and len(games.history("Ana")) == 2


def test_the_best_a_finished_game_compares_with_is_the_best_bests_finds(
    games: GameRepository, profiles: ProfileRepository
) -> None:
    """`best_scores` (one lean query a person, at the end of each web game) agrees with `bests`,
    for a guest and for a profile, and counts only the games of its source."""
    ana = profiles_of(profiles, "Ana")["Ana"]
    games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web", profiles={0: ana.id})
    games.save(scripted(SOLO3, ["Ana"], LEFT_1), source="terminal", profiles={0: ana.id})
    games.save(scripted(SOLO3, ["Luis"], LEFT_3), source="web")
    games.save(scripted(SOLO3, ["Luis"], LEFT_1), source="web")
    people = [("Ana", ana.id), ("Luis", None), ("Eva", None)]
    found = games.best_scores(people, rules=SOLO3, source="web")
    assert found == {"Ana": 3, "Luis": 1, "Eva": None}
    for name, profile in people:
        bests = games.bests(name, rules=SOLO3, guest=profile is None, source="web")
        assert found[name] == (bests[0].score if bests else None)
    digits = SOLO3.but(scoring="digits")
    assert games.best_scores([("Ana", ana.id)], rules=digits, source="web") == {"Ana": None}
