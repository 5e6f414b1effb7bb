"""Storage of finished games, shared by the web app and the terminal game.

SQLAlchemy 2 over SQLite by default (a file in the user data folder, WAL
journal) or PostgreSQL (``postgresql://…`` URLs use psycopg 3, installed with
``pip install 'shutthebox[postgres]'``). One `Database` opens the engine and
migrates the schema (Alembic, ``storage/migrations``) each time it is opened;
a repository per aggregate reads and writes it: `GameRepository` (finished
games, histories, bests, the leaderboard), `ProfileRepository`,
`RoomRepository` (rooms in play), `DailyRepository` (the daily challenge) and
`TrainerRepository` (ratings and reviews). The core never imports this package.

Usage::

    from shutthebox.storage import Database, GameRepository, ProfileRepository

    with Database.open() as database:          # $SHUTTHEBOX_DB, or the default SQLite file
        games = GameRepository(database)
        ana, key = ProfileRepository(database).create("Ana")
        game_id = game.save(games, source="terminal", profiles={0: ana.id})  # committed at once
        games.games(player="Ana")              # newest first: list[GameSummary]
        games.history("Ana")                   # her turns, newest first: list[TurnEntry]
        games.bests("Ana")                     # best per board size and rules: list[Best]
        games.best("Ana", rules)               # one Best or None
        games.leaderboard(rules)               # list[LeaderboardEntry], best score first
        games.game(game_id).record             # the GameRecord, which replays

Bests and the leaderboard group turns by board size and `rules_key(rules)`:
the options that change a turn's score (mode, shut-wins, stake and limit left
out), so a solo turn and a round turn under the same rules compare. Only
finished games are stored, and each is replayed before it is saved. Only ranked
turns count for bests and the leaderboard: those of games whose every die was
rolled under the fair scheme (`GameRecord.kind` ``ranked``), by players who
asked for no hint; practice (chosen seed), companion (typed dice) and assisted
games are kept in the history, marked. The leaderboard lists profiles
(`ProfileRepository.create`: a name, unique among look-alikes, and a secret key
of which only the hash is kept), never guests or bots.

`scores` reads bests and recent games from a SQLite file with the standard
library alone (`storage.reader`), so it starts at once; anything else opens a
`Database`.

Errors: `StorageError` (a `ShutTheBoxError`, so a `ValueError`) for a record
that does not replay or is unfinished, an unknown game id, or a URL the
database cannot use; its `NameTakenError` (a profile name held, or one like it)
and `SealedError` (a daily challenge's game, while its day lasts).
`StorageBusyError`: the database stayed locked through every retry.
"""

from importlib import import_module

TYPE_CHECKING = False

_HOMES = {
    "ENV_VAR": "location", "default_url": "location",
    "Database": "database", "StorageBusyError": "database", "StorageError": "database",
    "engine_url": "database",
    "GameRepository": "games", "SCORE_NEUTRAL_OPTIONS": "games", "SealedError": "games",
    "rules_key": "games",
    "Best": "values", "GameSummary": "values", "LeaderboardEntry": "values", "StoredGame": "values",
    "TurnEntry": "values",
    "NameTakenError": "profiles", "Profile": "profiles", "ProfileRepository": "profiles",
    "ConflictError": "rooms", "KeptRoom": "rooms", "RoomRepository": "rooms",
    "AlreadyPlayedError": "daily", "DailyRepository": "daily",
    "NotDealtError": "trainer", "TrainerRepository": "trainer",
}
"""The module that holds each name (`location` imports no SQLAlchemy)."""

__all__ = [
    "ENV_VAR",
    "SCORE_NEUTRAL_OPTIONS",
    "AlreadyPlayedError",
    "Best",
    "ConflictError",
    "DailyRepository",
    "Database",
    "GameRepository",
    "GameSummary",
    "KeptRoom",
    "LeaderboardEntry",
    "NameTakenError",
    "NotDealtError",
    "Profile",
    "ProfileRepository",
    "RoomRepository",
    "SealedError",
    "StorageBusyError",
    "StorageError",
    "StoredGame",
    "TrainerRepository",
    "TurnEntry",
    "default_url",
    "engine_url",
    "rules_key",
]


def __getattr__(name: str) -> object:
    """Load SQLAlchemy only for the names that need it (PEP 562): reading bests starts without it."""
    if name not in __all__:
        raise AttributeError(f"module 'shutthebox.storage' has no attribute {name!r}")
    value = getattr(import_module(f"shutthebox.storage.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from shutthebox.storage.daily import AlreadyPlayedError, DailyRepository
    from shutthebox.storage.database import Database, StorageBusyError, StorageError, engine_url
    from shutthebox.storage.games import SCORE_NEUTRAL_OPTIONS, GameRepository, SealedError, rules_key
    from shutthebox.storage.location import ENV_VAR, default_url
    from shutthebox.storage.profiles import NameTakenError, Profile, ProfileRepository
    from shutthebox.storage.rooms import ConflictError, KeptRoom, RoomRepository
    from shutthebox.storage.trainer import NotDealtError, TrainerRepository
    from shutthebox.storage.values import Best, GameSummary, LeaderboardEntry, StoredGame, TurnEntry
