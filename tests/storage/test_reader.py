"""The quick reader of ``shutthebox scores`` answers exactly as the `GameRepository` does, from the same
file, at the newest migration (`test_reader_schema`: at which older ones it reads a file)."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shutthebox import Game, Mode, Roll, Rules
from shutthebox.core.fair import FairDice
from shutthebox.core.options import CLASSIC
from shutthebox.core.record import Event
from shutthebox.storage import Database, GameRepository, ProfileRepository
from shutthebox.storage.location import data_folder, default_url, sqlite_file
from shutthebox.storage.reader import read_scores, stored_scores
from tests.support.services import fresh_database

T0 = datetime(2026, 3, 1, 9, 30, 15, tzinfo=UTC)


FAMILY = "👨\u200d👩\u200d👧\u200d👦 Fam"  # a joined emoji
PROFILES = ("Ana", "AC/DC", FAMILY, "Eva")  # Eva's is renamed "Eva M" once every game is stored


def play(
    rules: Rules, players: list[str], seed: int, *, fair: bool = False, helped: int | None = None
) -> Game:
    """A game of random choices; the seat ``helped`` asks for a hint at its second decision."""
    rng = random.Random(seed)
    dice = FairDice(hashlib.sha256(f"reader {seed}".encode()).digest()) if fair else None
    game = Game(rules, players, seed=None if fair else seed, dice=dice)
    decisions = 0
    while not game.state.is_over:
        state = game.state
        if state.is_decision and state.actor == helped:
            decisions += 1
            if decisions == 2:
                game.assist(helped)
        game.roll() if state.is_chance else game.act(rng.choice(state.legal_actions()))
    return game


def fill(url: str) -> None:
    """Solo games and rounds on three boards, some rolled by hand, some at the same second: practice
    games on a chosen seed, then ranked games on fair dice, most of them played by profiles (one of
    them renamed since), some by guests under the same names, some with a hint asked (and some of
    those as a version 3 record marked them, out of the rankings)."""
    with Database.open(url) as database:
        games, profiles = GameRepository(database), ProfileRepository(database)
        keys = {name: profiles.create(name) for name in PROFILES}
        for index in range(60, 120):
            rules = Rules(tiles=(9, 10, 12)[index % 3], mode=Mode.SOLO if index % 4 else Mode.ROUND,
                          scoring="digits" if index % 7 == 0 else "sum")
            if rules.mode is Mode.SOLO:
                players = [PROFILES[index % 4]]
            else:  # every fourth game: each profile in turn starts a round against Luis, and a third
                first = PROFILES[index // 4 % 4]
                players = [first, "Luis", "Ana" if first == "Eva" else "Eva"][: 2 + index % 2]
            game = play(rules, players, index, fair=True, helped=len(players) - 1 if index % 5 == 1 else None)
            record = game.record()
            if index % 10 == 1:  # the last seat asked for a hint, as a version 3 record says it
                record = replace(record, helped=(), assisted=(len(players) - 1,))
            seats = {} if index % 5 == 3 else {  # else guests took the names
                seat: keys[name][0].id for seat, name in enumerate(players) if name in keys
            }
            when = T0 + timedelta(seconds=index // 2)
            games.save(record, source="web", finished_at=when, profiles=seats)
        profiles.rename(keys["Eva"][1], "Eva M")
        for index in range(60):
            rules = Rules(tiles=(9, 10, 12)[index % 3], mode=Mode.SOLO if index % 4 else Mode.ROUND,
                          scoring="digits" if index % 7 == 0 else "sum")
            players = ["Ana"] if rules.mode is Mode.SOLO else ["Ana", "Luis", "Eva"][: 2 + index % 2]
            record = play(rules, players, index).record()
            if index % 5 == 0:  # typed in at a real box
                events = [Event(e.player, e.action, typed=isinstance(e.action, Roll)) for e in record.events]
                record = replace(record, events=events, seed=None)
            when = T0 + timedelta(seconds=index // 2)  # pairs of games finish in the same second
            games.save(record, source="companion" if index % 5 == 0 else "terminal", finished_at=when)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the games of `fill`."""
    path = tmp_path_factory.mktemp("reader") / "history.db"
    fill(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="module")
def postgres_history(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL database holding the same games (the same ids: saved in the same order)."""
    with fresh_database(postgres_url) as url:
        fill(url)
        yield url


@pytest.mark.parametrize(
    ("players", "limit"),
    [
        ((), 10), ((), 1), ((), 100), (("Ana",), 10), (("Luis", "Eva"), 25), (("Nobody",), 10), (("Eva",), 3),
        (("AC/DC",), 10), ((FAMILY,), 200), (("Eva M", "Luis"), 200), (("Ana", "AC/DC", FAMILY, "Eva M"), 5),
        ((" Eva  M ",), 10),  # typed with stray spaces: found as the name is kept, by both
    ],
)
def test_the_reader_answers_as_the_repository(history: Path, players: tuple[str, ...], limit: int) -> None:
    quick = read_scores(str(history), players, limit=limit)
    assert quick == stored_scores(f"sqlite:///{history}", players, limit=limit)
    if players in ((), ("Ana",)):  # she plays every game: something to compare
        assert quick is not None and quick["games"] and quick["bests"]
    if players == (" Eva  M ",):
        assert quick is not None and quick["bests"]


@pytest.mark.parametrize(
    ("players", "limit"), [((), 10), ((), 100), (("Ana", "AC/DC", FAMILY, "Eva M", "Luis"), 200)]
)
def test_the_store_on_postgresql_answers_as_the_reader_of_the_same_games_in_sqlite(
    history: Path, postgres_history: str, players: tuple[str, ...], limit: int
) -> None:
    """The engines agree to the last field: ids, order, moments (read back in another time zone),
    names that are not ASCII, kinds."""
    quick = read_scores(str(history), players, limit=limit)
    assert quick is not None and quick["bests"] and quick["games"]
    assert stored_scores(postgres_history, players, limit=limit) == quick


@pytest.mark.parametrize(
    ("players", "limit"), [(("Luis",), 3), (("Luis",), 12), (("Eva", "Luis"), 7), (("AC/DC",), 4)]
)
def test_the_games_of_the_players_asked_for_are_found_before_the_limit(
    history: Path, players: tuple[str, ...], limit: int
) -> None:
    """``scores Luis --limit 3`` lists Luis's newest three games, not those of the newest three games
    he sat in: the filter before the limit, in both readers (issue 30). The expected ids come from the
    raw rows, filtered and sorted here."""
    with sqlite3.connect(history) as raw:
        rows = raw.execute("SELECT id, finished_at, players FROM games").fetchall()
    theirs = [(datetime.fromisoformat(when), game_id) for game_id, when, seated in rows
              if set(players) & set(json.loads(seated))]
    expected = [game_id for _, game_id in sorted(theirs, reverse=True)][:limit]
    assert len(expected) == limit  # the history holds more of their games than the limit
    quick = read_scores(str(history), players, limit=limit)
    assert quick is not None
    assert [game["id"] for game in quick["games"]] == expected
    stored = stored_scores(f"sqlite:///{history}", players, limit=limit)
    assert [game["id"] for game in stored["games"]] == expected


@pytest.mark.parametrize("name", ["Ana", "AC/DC", FAMILY, "Eva M", "Eva", "Luis"])
def test_profiles_and_guests_have_bests_in_the_history(history: Path, name: str) -> None:
    """Each name the comparison above asks for has bests of its own: the comparison compares something."""
    quick = read_scores(str(history), [name])
    assert quick is not None and quick["bests"]
    assert {best["player"] for best in quick["bests"]} == {name}


def _best_turns(raw: sqlite3.Connection, best: dict[str, object]) -> set[tuple[object, ...]]:
    """(ranked, profile) of the turns a best may name: its game, board, rules and the score it counts for."""
    query = (
        "SELECT ranked, profile_id FROM turns"
        " WHERE game_id = ? AND tiles = ? AND rules_key = ? AND ranked_score = ?"
    )
    return set(raw.execute(query, (best["game_id"], best["tiles"], best["rules_key"], best["score"])))


def test_the_reader_takes_bests_from_ranked_turns_only_and_a_profiles_from_its_own(history: Path) -> None:
    quick = read_scores(str(history), ["Ana", "AC/DC", FAMILY, "Eva M", "Eva", "Luis"], limit=200)
    assert quick is not None
    assert {game["kind"] for game in quick["games"]} == {"ranked", "practice", "companion", "assisted"}
    assert all(game["ranked"] is (game["kind"] == "ranked") for game in quick["games"])
    with sqlite3.connect(history) as raw:
        typed_games = {row[0] for row in raw.execute("SELECT id FROM games WHERE typed")}
        profiles = dict(raw.execute("SELECT name, id FROM profiles"))
        for best in quick["bests"]:
            profile = profiles.get(str(best["player"]))
            assert (1, profile) in _best_turns(raw, best), best  # a ranked turn of that profile, or a guest's
    assert typed_games and not {best["game_id"] for best in quick["bests"]} & typed_games


def test_a_missing_file_has_no_scores_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none.db"
    assert read_scores(str(path)) == {"bests": [], "games": []}
    assert not path.exists()


def test_sqlite_urls_name_their_file() -> None:
    assert sqlite_file("sqlite:///games.db") == "games.db"
    assert sqlite_file("sqlite:////tmp/games.db") == "/tmp/games.db"
    for other in ("sqlite://", "sqlite:///:memory:", "sqlite:///g.db?mode=ro", "postgresql://h/db",
                  "sqlite+pysqlite:///g.db"):
        assert sqlite_file(other) is None, other


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG rule is Linux's")
@pytest.mark.parametrize("xdg", [None, "", "  ", "/srv/data"])
def test_the_data_folder_is_where_platformdirs_puts_it(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None
) -> None:
    import platformdirs

    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert data_folder() == platformdirs.user_data_dir("shutthebox")


def test_the_default_url_is_the_environment_or_a_file_in_the_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SHUTTHEBOX_DB", "postgresql://h/db")
    assert default_url() == "postgresql://h/db"
    assert default_url(tmp_path / "d") == f"sqlite:///{tmp_path / 'd' / 'shutthebox.db'}"
    assert (tmp_path / "d").is_dir()


def test_the_classic_options_are_the_rules_defaults() -> None:
    assert Rules().to_dict() == {**CLASSIC, "doubles_extra_turn": False}
    assert Rules(mode="long").to_dict() == {**CLASSIC, "mode": "long", "doubles_extra_turn": True}


@pytest.mark.parametrize("folder", ["c%41d", "a b", "x#y", "100%"])
def test_the_reader_reads_the_file_the_store_writes(tmp_path: Path, folder: str) -> None:
    """A ``%41`` in a URL is an ``A`` to SQLAlchemy; a ``#`` is part of a file name."""
    url = f"sqlite:///{tmp_path / folder / 'games.db'}"
    with Database.open(url) as database:
        games = GameRepository(database)
        games.save(play(Rules(mode="solo"), ["Ana"], 1).record(), source="terminal", finished_at=T0)
    path = sqlite_file(url)
    assert path is not None and Path(path).exists()
    quick = read_scores(path)
    assert quick is not None and len(quick["games"]) == 1
    assert quick == stored_scores(url)
