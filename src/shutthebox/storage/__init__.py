"""Storage of finished games, shared by the web app and the terminal game.

SQLAlchemy 2 over SQLite by default (a file in the user data folder, WAL
journal) or PostgreSQL (``postgresql://…`` URLs use psycopg 3, installed with
``pip install 'shutthebox[postgres]'``). The schema is migrated by Alembic
(``storage/migrations``) each time a store is opened. The core never imports
this package.

Usage::

    from shutthebox.storage import Store, default_url

    store = Store.open()                 # $SHUTTHEBOX_DB, or the default SQLite file
    game_id = game.save(store, source="terminal")   # a finished core.Game, committed at once
    store.games(player="Ana")            # newest first: list[GameSummary]
    store.history("Ana")                 # her turns, newest first: list[TurnEntry]
    store.bests("Ana")                   # best per board size and rules: list[Best]
    store.best("Ana", rules)             # one Best or None
    store.leaderboard(rules)             # list[LeaderboardEntry], best score first
    store.game(game_id).record           # the GameRecord, which replays
    store.close()

Bests and the leaderboard group turns by board size and `rules_key(rules)`:
the options that change a turn's score (mode, shut-wins, stake and limit left
out), so a solo turn and a round turn under the same rules compare. Only
finished games are stored, and each is replayed before it is saved. Only ranked
turns count for bests and the leaderboard: those of games whose every die was
rolled under the fair scheme (`GameRecord.kind` ``ranked``), by players who
asked for no hint; practice (chosen seed), companion (typed dice) and assisted
games are kept in the history, marked. The leaderboard lists profiles
(`create_profile`: a name, unique among look-alikes, and a secret key of which
only the hash is kept), never guests or bots.

`scores` reads bests and recent games from a SQLite file with the standard
library alone (`storage.reader`), so it starts at once; anything else opens a
`Store`.

Errors: `StorageError` (a `ShutTheBoxError`, so a `ValueError`) for a record
that does not replay or is unfinished, an unknown game id, or a URL the store
cannot use.
"""

from importlib import import_module

TYPE_CHECKING = False

__all__ = [
    "ENV_VAR",
    "SCORE_NEUTRAL_OPTIONS",
    "Best",
    "Database",
    "GameSummary",
    "LeaderboardEntry",
    "NameTakenError",
    "Profile",
    "ProfileRepository",
    "SealedError",
    "StorageBusyError",
    "StorageError",
    "Store",
    "StoredGame",
    "TurnEntry",
    "default_url",
    "engine_url",
    "rules_key",
]

_HOMES = {
    "ENV_VAR": "location", "default_url": "location",
    "Database": "database", "StorageBusyError": "database", "StorageError": "database",
    "engine_url": "database", "NameTakenError": "profiles", "Profile": "profiles",
    "ProfileRepository": "profiles",
}
"""The module of each name other than `storage.store`'s (`location` imports no SQLAlchemy)."""


def __getattr__(name: str) -> object:
    """Load SQLAlchemy only for the names that need it (PEP 562): reading bests starts without it."""
    if name not in __all__:
        raise AttributeError(f"module 'shutthebox.storage' has no attribute {name!r}")
    value = getattr(import_module(f"shutthebox.storage.{_HOMES.get(name, 'store')}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from shutthebox.storage.database import Database, StorageBusyError, StorageError, engine_url
    from shutthebox.storage.location import ENV_VAR, default_url
    from shutthebox.storage.profiles import NameTakenError, Profile, ProfileRepository
    from shutthebox.storage.store import (
        SCORE_NEUTRAL_OPTIONS,
        Best,
        GameSummary,
        LeaderboardEntry,
        SealedError,
        Store,
        StoredGame,
        TurnEntry,
        rules_key,
    )
