"""Bests and recent games read straight from a SQLite file, with the standard library alone.

``shutthebox scores`` only reads, and SQLAlchemy and Alembic take longer to
import than the whole answer takes to give; so on the default engine it opens
the file read-only with `sqlite3` and asks the same questions as
`GameRepository.bests` and `GameRepository.games`, answering in the same JSON (a test compares
the two on the same games, at the newest migration). It reads a file that has every column it
reads (`READS`); a file that lacks one (an older schema), or any other database, is left to the
`Database`, which migrates it first. A test walks the migrations: none after the first revision
the reader takes may change a column it reads (unless the reader follows), so a file it takes
answers as it would migrated. `scores_json` is the answer of ``shutthebox scores``: this reader's
when it can, else `stored_scores`', through the repositories.
"""

from __future__ import annotations

import os
import sqlite3
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime

from shutthebox.core.tiles import counted_grade
from shutthebox.storage.location import default_url, sqlite_file

TYPE_CHECKING = False  # typing costs more to import than this whole answer takes
if TYPE_CHECKING:
    from typing import Any

__all__ = ["READS", "read_scores", "readable", "scores_json", "stored_scores"]

READS = {
    "games": ("id", "finished_at", "source", "mode", "tiles", "rules_key", "players", "winner", "typed",
              "kind"),
    "turns": ("id", "game_id", "seq", "player", "score", "open_sum", "tiles", "rules_key", "finished_at",
              "ranked_score", "profile_id"),
    "profiles": ("id", "name"),
}
"""The columns the queries below read, by table: the reader takes a file only if it has them all."""

_GAMES = """
    SELECT id, finished_at, source, mode, tiles, rules_key, winner, typed, kind
    FROM games {whose} ORDER BY finished_at DESC, id DESC LIMIT ?
"""
_SEATED = "WHERE EXISTS (SELECT 1 FROM json_each(games.players) AS seat WHERE seat.value IN ({marks}))"
"""Only the games one of the players asked for sat in: filtered before the limit, not after it."""
_TURNS = "SELECT game_id, player, score FROM turns WHERE game_id IN ({marks}) ORDER BY game_id, seq"
_PLAYERS = """
    SELECT games.id, seat.value FROM games, json_each(games.players) AS seat
    WHERE games.id IN ({marks}) ORDER BY games.id, seat.key
"""
_RECENT_PLAYERS = """
    SELECT seat.value
    FROM (SELECT id, players, finished_at FROM games ORDER BY finished_at DESC, id DESC LIMIT ?) AS recent,
         json_each(recent.players) AS seat
    ORDER BY recent.finished_at DESC, recent.id DESC, seat.key
"""
_PROFILE = "SELECT id, name FROM profiles WHERE name = ? LIMIT 1"
_BESTS = """
    SELECT tiles, rules_key, ranked_score, score, open_sum, game_id, finished_at, turns FROM (
        SELECT tiles, rules_key, ranked_score, score, open_sum, game_id, finished_at,
               row_number() OVER (
                   PARTITION BY tiles, rules_key ORDER BY ranked_score, finished_at, id
               ) AS place,
               count(*) OVER (PARTITION BY tiles, rules_key) AS turns
        FROM turns WHERE {whose} AND ranked_score IS NOT NULL
    ) WHERE place = 1 ORDER BY tiles, rules_key
"""
"""Each group's best ranked turn, the earliest of equals, with the group's count (`GameRepository.bests`)."""
_OF_PROFILE = _BESTS.format(whose="profile_id = ?")
_OF_GUEST = _BESTS.format(whose="player = ? AND profile_id IS NULL")


def scores_json(players: Sequence[str] = (), *, limit: int = 10) -> dict[str, Any]:
    """Personal bests and recent games as JSON (``shutthebox scores --json``)."""
    url = default_url()
    path = sqlite_file(url)
    if path is not None:
        found = read_scores(path, players, limit=limit)
        if found is not None:
            return found
    return stored_scores(url, players, limit=limit)


def _players(games: Any, players: Sequence[str], limit: int) -> list[str]:
    if players:
        return list(players)
    seen: list[str] = []
    for game in games.games(limit=limit):
        for name in game.players:
            if name not in seen:
                seen.append(name)
    return seen


def stored_scores(url: str, players: Sequence[str] = (), *, limit: int = 10) -> dict[str, Any]:
    """The same answer through the `GameRepository` (any engine; the database migrates an older schema
    first)."""
    from shutthebox.storage import Database, GameRepository  # SQLAlchemy, Alembic: only here

    with Database.open(url) as database:
        games = GameRepository(database)
        names = _players(games, players, 50)
        bests = [b.to_json() for name in names for b in games.bests(name)]
        recent = _recent_games(games, players, limit)
    return {"bests": bests, "games": recent}


_PAGE = 200
"""Games read at a time by `_recent_games` while it looks for the players' own."""


def _recent_games(games: Any, players: Sequence[str], limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` games ``players`` sat in (any game when none is named): filtered before the
    limit, a page at a time, as the reader's query does."""
    if not players:
        return [g.to_json() for g in games.games(limit=limit)]
    asked = {_as_kept(name) for name in players}
    found: list[dict[str, Any]] = []
    offset = 0
    while len(found) < limit:
        page = games.games(limit=_PAGE, offset=offset)
        found.extend(g.to_json() for g in page if asked & set(g.players))
        if len(page) < _PAGE:
            break
        offset += _PAGE
    return found[:limit]


def read_scores(path: str, players: Sequence[str] = (), *, limit: int = 10) -> dict[str, Any] | None:
    """``{"bests": […], "games": […]}`` as `GameRepository` would answer for ``shutthebox scores``; None
    when the file lacks a column the reader reads (the `Database` must open, and migrate, it)."""
    if not os.path.exists(path):
        return {"bests": [], "games": []}
    escaped = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")  # SQLite's URI rules
    connection = sqlite3.connect(f"file:{escaped}?mode=ro", uri=True)
    try:
        if not readable(connection):
            return None
        names = list(players) or _recent_players(connection, 50)
        bests = [best for name in names for best in _bests(connection, name)]
        games = _games(connection, limit, players)
    finally:
        connection.close()
    return {"bests": bests, "games": games}


def readable(connection: sqlite3.Connection) -> bool:
    """Whether the database has every column of `READS` (``PRAGMA table_info``: a missing table has none)."""
    for table, columns in READS.items():
        held = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not held.issuperset(columns):
            return False
    return True


def _moment(stored: str) -> str:
    """A stored time as `GameRepository` shows it: UTC, ISO 8601."""
    moment = datetime.fromisoformat(stored)
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment.isoformat()


def _games(connection: sqlite3.Connection, limit: int, players: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The newest ``limit`` games (of those ``players`` sat in, when named)."""
    names = list(dict.fromkeys(_as_kept(name) for name in players))
    whose = _SEATED.format(marks=",".join("?" * len(names))) if names else ""
    rows = connection.execute(_GAMES.format(whose=whose), (*names, limit)).fetchall()
    scores: dict[int, list[dict[str, Any]]] = {row[0]: [] for row in rows}
    seated: dict[int, list[str]] = {row[0]: [] for row in rows}
    if rows:  # the players' JSON read by SQLite itself (json_each): Python's json costs a start-up
        marks = ",".join("?" * len(rows))
        for game_id, player, score in connection.execute(_TURNS.format(marks=marks), list(scores)):
            scores[game_id].append({"player": player, "score": score})
        for game_id, player in connection.execute(_PLAYERS.format(marks=marks), list(seated)):
            seated[game_id].append(player)
    return [
        {
            "id": game_id,
            "finished_at": _moment(finished_at),
            "source": source,
            "mode": mode,
            "tiles": tiles,
            "rules_key": rules_key,
            "players": seated[game_id],
            "winner": winner,
            "scores": scores[game_id],
            "typed": bool(typed),
            "kind": kind,
            "ranked": kind == "ranked",
        }
        for game_id, finished_at, source, mode, tiles, rules_key, winner, typed, kind in rows
    ]


def _recent_players(connection: sqlite3.Connection, games: int) -> list[str]:
    """Everyone who played in the newest ``games`` games, in order of first appearance."""
    seen: list[str] = []
    for (name,) in connection.execute(_RECENT_PLAYERS, (games,)):
        if name not in seen:
            seen.append(name)
    return seen


def _as_kept(name: str) -> str:
    """A name as names are kept (`profiles.as_kept`): NFC, spaces collapsed."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def _bests(connection: sqlite3.Connection, player: str) -> list[dict[str, Any]]:
    """The player's (a profile's, else a guest's) best ranked turn per board size and rules key, the
    earliest of equals; with the count."""
    player = _as_kept(player)
    profile = connection.execute(_PROFILE, (player,)).fetchone()
    turns = connection.execute(*((_OF_PROFILE, (profile[0],)) if profile else (_OF_GUEST, (player,))))
    return [
        {
            "player": profile[1] if profile else player,
            "tiles": tiles,
            "rules_key": rules_key,
            "score": counted,
            "grade": counted_grade(open_sum, score, counted),
            "game_id": game_id,
            "finished_at": _moment(finished_at),
            "turns": count,
        }
        for tiles, rules_key, counted, score, open_sum, game_id, finished_at, count in turns
    ]
