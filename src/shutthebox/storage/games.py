"""The games repository: finished games and their turns, each player's history, bests and leaderboard.

A game is saved whole or not at all, once it is over and has replayed (`GameRepository.save`):
checked, made into rows (the game, one per turn, denormalised for the rankings), then written in
one retried transaction. Bests and the leaderboard group turns by board size and `rules_key`: the
options that change a turn's score, so a solo turn and a round turn under the same rules compare.
Only the score a turn counts for in the rankings counts (``turns.ranked_score``, see `core.ranking`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Connection, bindparam, case, exists, func, insert, select, true
from sqlalchemy.exc import IntegrityError

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.match import Match
from shutthebox.core.record import GameRecord, outcome_of, replay
from shutthebox.core.rules import Rules
from shutthebox.core.tiles import counted_grade, grade
from shutthebox.storage.database import Database, StorageError
from shutthebox.storage.models import KEY_LENGTH, NAME_LENGTH, GameRow, ProfileRow, TurnRow
from shutthebox.storage.prepared import Prepared
from shutthebox.storage.profiles import Profile, ProfileRepository, as_kept
from shutthebox.storage.values import Best, GameSummary, LeaderboardEntry, StoredGame, TurnEntry

__all__ = [
    "SCORE_NEUTRAL_OPTIONS", "FinishedGame", "GameRepository", "SealedError", "best_scores_on", "rules_key",
    "write_game",
]

Result = TypeVar("Result")
SCORE_NEUTRAL_OPTIONS = frozenset({"mode", "shut_wins", "stake", "limit"})
"""Rule options that never change the score of one turn, left out of `rules_key`."""


class SealedError(StorageError):
    """A stored game whose record nobody may read yet (a daily challenge's, while its day lasts)."""


@lru_cache(maxsize=1024)  # drawn in every state a server sends: a rule set's key is made once
def rules_key(rules: Rules) -> str:
    """A stable text naming the options that decide a turn's score, e.g. ``tiles=9,…``.

    It is `Rules.to_dict` without the mode and stake options (`SCORE_NEUTRAL_OPTIONS`),
    sorted by option name, so a round turn and a solo turn under the same rules compare.
    """
    options = {k: v for k, v in rules.to_dict().items() if k not in SCORE_NEUTRAL_OPTIONS}
    return ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items())).replace('"', "")


class GameRepository:
    """The finished games of a `Database`. Each method is its own short transaction, so one
    repository serves every thread of a server; a saved game is committed before `save` returns."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._profiles = ProfileRepository(database)

    # -- saving ----------------------------------------------------------------
    def save(
        self,
        record: GameRecord,
        *,
        source: str,
        finished_at: datetime | None = None,
        profiles: Mapping[int, int] | None = None,
        origin: str | None = None,
        sealed_until: datetime | None = None,
        ended: Match | None = None,
    ) -> int:
        """Store a finished game (replayed first, so only real games get in, every fair die
        recomputed, unless the engine that played it gives where it ``ended``); its id. ``profiles``
        links seats to the profiles who played them. A game saved again under the same ``origin`` (a
        room's, after a crash or a failed write) is not stored twice: the id of the one kept is
        answered. A game ``sealed_until`` a moment (a daily
        challenge's, whose dice everyone of that day shares) gives its record to nobody until then."""
        game = self.finished(
            record, source=source, finished_at=finished_at, profiles=profiles, origin=origin,
            sealed_until=sealed_until, ended=ended,
        )
        try:  # a locked database delays a save
            return self._database.write(lambda session: write_game(session.connection(), game))
        except IntegrityError:
            if origin is None:
                raise
            # another process saved it meanwhile: its id
            return self._database.write(lambda session: write_game(session.connection(), game))

    def within(self, work: Callable[[Connection], Result]) -> Result:
        """``work`` in one write transaction of the games' database, committed on return (a save
        with what goes with it: `finished`, `write_game`, `best_scores_on`)."""
        return self._database.write_core(work)

    def finished(
        self,
        record: GameRecord,
        *,
        source: str,
        finished_at: datetime | None = None,
        profiles: Mapping[int, int] | None = None,
        origin: str | None = None,
        sealed_until: datetime | None = None,
        ended: Match | None = None,
    ) -> FinishedGame:
        """A finished game checked and made ready to write (`save`'s checks), for `write_game` to
        write in whichever transaction keeps it (a room's last action's); `StorageError` if it
        cannot be kept."""
        seats = dict(profiles or {})
        state = _checked(record, source, seats, ended)
        return FinishedGame(
            record=record if record.result is not None else replace(record, result=outcome_of(state)),
            state=state, source=source, finished_at=finished_at or datetime.now(UTC), seats=seats,
            origin=origin, sealed_until=sealed_until,
        )

    # -- reading ---------------------------------------------------------------
    def game(self, game_id: int, *, now: datetime | None = None) -> StoredGame:
        """The stored game ``game_id`` with its record; `StorageError` if there is none, `SealedError`
        if it is sealed at ``now`` (a daily challenge's while its day lasts; unchecked without ``now``,
        for the server's own reading)."""
        with self._database.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise StorageError("there is no stored game {game_id}", game_id=game_id)
            summary = _summary(row)
            if now is not None and summary.sealed_until is not None and now < summary.sealed_until:
                raise SealedError(
                    "game {game_id} is a daily challenge's: its record shows the day's dice, so it is"
                    " sealed until {moment} UTC", game_id=game_id,
                    moment=summary.sealed_until.strftime("%Y-%m-%d %H:%M"),
                )
            return StoredGame(summary, GameRecord.loads(row.record))

    def games(
        self, *, player: str | None = None, source: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        """Stored games, newest first, optionally those of one player or from one source."""
        query = select(GameRow).where(*self._chosen(player, source))
        with self._database.session() as session:
            rows = session.scalars(
                query.order_by(GameRow.finished_at.desc(), GameRow.id.desc()).limit(limit).offset(offset)
            ).all()
            return [_summary(row) for row in rows]

    def count(self, *, player: str | None = None, source: str | None = None) -> int:
        """How many games are stored (those `games` lists, of one player or from one source)."""
        with self._database.session() as session:
            query = select(func.count()).select_from(GameRow).where(*self._chosen(player, source))
            return session.scalar(query) or 0

    def _chosen(self, player: str | None, source: str | None) -> list[ColumnElement[bool]]:
        """What a stored game of ``player`` (when given) from ``source`` (when given) is."""
        chosen: list[ColumnElement[bool]] = []
        if player is not None:
            theirs = _turns_of(player, self._profiles.named(player))
            chosen.append(GameRow.id.in_(select(TurnRow.game_id).where(theirs)))
        if source is not None:
            chosen.append(GameRow.source == source)
        return chosen

    def history(self, player: str, *, limit: int = 100) -> list[TurnEntry]:
        """The turns ``player`` (a profile, else a guest: see `bests`) played, newest first."""
        query = (
            select(TurnRow, GameRow.source, GameRow.mode)
            .join(GameRow)
            .where(_turns_of(player, self._profiles.named(player)))
            .order_by(TurnRow.finished_at.desc(), TurnRow.game_id.desc(), TurnRow.seq.desc())
            .limit(limit)
        )
        with self._database.session() as session:
            return [
                TurnEntry(
                    game_id=turn.game_id,
                    finished_at=turn.finished_at,
                    source=source,
                    mode=mode,
                    tiles=turn.tiles,
                    rules_key=turn.rules_key,
                    round=turn.round,
                    score=turn.score,
                    open_tiles=tuple(turn.open_tiles),
                    grade=grade(turn.open_sum),
                    player=turn.player,
                    counted=turn.ranked_score,
                )
                for turn, source, mode in session.execute(query).all()
            ]

    def best_scores(
        self, people: Sequence[tuple[str, int | None]], *, rules: Rules, source: str
    ) -> dict[str, int | None]:
        """Each person's best ranked score under ``rules`` in the games of ``source`` (None: none
        yet), by name: a profile's (``(name, profile id)``) or a guest's (``(name, None)``). What a
        finished game compares with (`bests` tells more, and costs a window over every turn)."""
        with self._database.session() as session:
            return best_scores_on(session.connection(), people, rules=rules, source=source)

    def bests(
        self,
        player: str,
        *,
        tiles: int | None = None,
        rules: Rules | None = None,
        guest: bool = False,
        source: str | None = None,
    ) -> list[Best]:
        """``player``'s best turn per board size and rule set, from their ranked turns only.

        ``player`` names a profile (its turns, whatever seat name they played under) or else, or
        when ``guest``, a guest (the turns played under that name by no profile). The earliest turn
        reaching the best score is the one named, with the count of the group's ranked turns: one
        query, a window over each group, however many turns there are. Narrow with ``tiles``,
        ``rules`` (which also fixes the board size) or the ``source`` of the games (``web``: the
        server rolled them).
        """
        profile = None if guest else self._profiles.named(player)
        group = (TurnRow.tiles, TurnRow.rules_key)
        earliest_first = (TurnRow.ranked_score, TurnRow.finished_at, TurnRow.id)
        query = select(
            TurnRow.tiles, TurnRow.rules_key, TurnRow.ranked_score, TurnRow.score, TurnRow.open_sum,
            TurnRow.game_id, TurnRow.finished_at,
            func.row_number().over(partition_by=group, order_by=earliest_first).label("place"),
            func.count().over(partition_by=group).label("turns"),
        ).where(_turns_of(player, profile), TurnRow.ranked_score.is_not(None))
        if source is not None:
            query = query.where(exists().where(GameRow.id == TurnRow.game_id, GameRow.source == source))
        if rules is not None:
            query = query.where(TurnRow.rules_key == rules_key(rules))
        if tiles is not None:
            query = query.where(TurnRow.tiles == tiles)
        ranked = query.subquery()
        firsts = (
            select(ranked)
            .where(ranked.c.place == 1)
            .order_by(ranked.c.tiles, self._database.by_code_point(ranked.c.rules_key))
        )
        shown = profile.name if profile is not None else player
        with self._database.session() as session:
            return [
                Best(
                    player=shown, tiles=row.tiles, rules_key=row.rules_key, score=row.ranked_score,
                    grade=counted_grade(row.open_sum, row.score, row.ranked_score), game_id=row.game_id,
                    finished_at=row.finished_at, turns=row.turns,
                )
                for row in session.execute(firsts)
            ]

    def best(self, player: str, rules: Rules, *, guest: bool = False) -> Best | None:
        """``player``'s best turn under ``rules`` (mode and stakes aside), or None."""
        found = self.bests(player, rules=rules, guest=guest)
        return found[0] if found else None

    def leaderboard(
        self, rules: Rules | None = None, *, limit: int = 20, source: str | None = None
    ) -> list[LeaderboardEntry]:
        """Profiles ranked by best turn score under ``rules`` (classic by default), from the score each
        turn counts for (fair dice; a turn helped as it stood when help came, see `core.ranking`); of
        the games from ``source`` only, when named (``web``: the server rolled them). Guests and
        bots, who have no profile, are never on it.

        Ties on the best score go to the lower average, then to the name.
        """
        key = rules_key(rules if rules is not None else Rules())
        best = func.min(TurnRow.ranked_score)
        average = func.avg(TurnRow.ranked_score)
        query = (
            select(
                ProfileRow.name,
                ProfileRow.id,
                best,
                average,
                func.count(),
                func.sum(case((TurnRow.ranked_score == 0, 1), else_=0)),
            )
            .join(ProfileRow, ProfileRow.id == TurnRow.profile_id)
            .join(GameRow, GameRow.id == TurnRow.game_id)
            .where(TurnRow.rules_key == key, TurnRow.ranked_score.is_not(None))
            .where(GameRow.source == source if source is not None else true())
            .group_by(ProfileRow.id, ProfileRow.name)
            .order_by(best, average, self._database.by_code_point(ProfileRow.name))
            .limit(limit)
        )
        with self._database.session() as session:
            rows = session.execute(query).all()
        return [
            LeaderboardEntry(
                rank=rank,
                player=player,
                profile=int(profile),
                best=int(low),
                average=float(mean),
                turns=int(count),
                shut_boxes=int(shut or 0),
            )
            for rank, (player, profile, low, mean, count, shut) in enumerate(rows, start=1)
        ]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A checked game as it is to be kept: what its rows are made of (`GameRepository.finished`)."""

    record: GameRecord  # with its result
    state: Match  # where it ended
    source: str
    finished_at: datetime
    seats: dict[int, int]  # seat → profile id
    origin: str | None
    sealed_until: datetime | None


def _checked(record: GameRecord, source: str, seats: Mapping[int, int], ended: Match | None = None) -> Match:
    """The finished state of a game fit to keep (``ended``, else the record replayed); else
    `StorageError`, saying what is wrong."""
    try:
        state = ended if ended is not None else replay(record)
    except ShutTheBoxError as error:
        raise StorageError("the record does not replay: {error}", error=error) from None
    if not state.is_over:
        raise StorageError("only finished games are stored; this one is still being played")
    if not source or len(source) > 32:
        raise StorageError(
            "source is a short name such as 'web' or 'terminal', not {source!r}", source=source
        )
    for name in record.players:
        if not name or len(name) > NAME_LENGTH:
            raise StorageError(
                "player name {name!r} must have 1 to {most} characters", name=name, most=NAME_LENGTH
            )
    key = rules_key(record.rules)
    if len(key) > KEY_LENGTH:
        raise StorageError("rules key {key!r} is longer than {most} characters", key=key, most=KEY_LENGTH)
    if not set(seats) <= set(range(len(record.players))):
        raise StorageError(
            "profiles link seats {seats}, but the game has {count}", seats=sorted(seats),
            count=len(record.players),
        )
    return state


def best_scores_on(
    connection: Connection, people: Sequence[tuple[str, int | None]], *, rules: Rules, source: str
) -> dict[str, int | None]:
    """`GameRepository.best_scores`, read in ``connection``'s transaction."""
    key = rules_key(rules)
    return {
        name: (_BEST_OF_PROFILE if profile is not None else _BEST_OF_GUEST).scalar(
            connection, {"profile": profile, "player": as_kept(name), "key": key, "source": source}
        )
        for name, profile in people
    }


def write_game(connection: Connection, game: FinishedGame) -> int:
    """Add the game's rows in ``connection``'s transaction (unless a game of its origin is kept
    already: that one's id); its id. Core statements, not the ORM's unit of work: a game and its
    turns are two inserts."""
    if game.origin is not None:
        kept_id: int | None = _OF_ORIGIN.scalar(connection, {"origin": game.origin})
        if kept_id is not None:
            return kept_id
    wanted = set(game.seats.values())
    if wanted:
        known = set(connection.scalars(select(ProfileRow.id).where(ProfileRow.id.in_(wanted))))
        if known != wanted:
            raise StorageError("there is no profile {ids}", ids=sorted(wanted - known))
    record, state, key = game.record, game.state, rules_key(game.record.rules)
    game_id: int = _INSERT_GAME.scalar(connection, {
        "finished_at": game.finished_at, "source": game.source, "mode": str(record.rules.mode),
        "tiles": record.rules.tiles, "rules_key": key, "players": list(record.players),
        "winner": record.players[state.winner] if state.winner is not None else None,
        "record": record.dumps(compact=True), "typed": record.typed, "kind": record.kind,
        "origin": game.origin, "sealed_until": game.sealed_until,
    })
    counted = record.counted()
    turns = [
        {
            "game_id": game_id, "seq": seq, "player": record.players[turn.player], "round": turn.round,
            "tiebreak": turn.tiebreak, "open_tiles": list(turn.board.open_tiles),
            "open_sum": turn.board.open_sum, "score": turn.score, "tiles": record.rules.tiles,
            "rules_key": key, "finished_at": game.finished_at, "typed": record.typed,
            "ranked": counted[seq] is not None, "ranked_score": counted[seq],
            "profile_id": game.seats.get(turn.player),
        }
        for seq, turn in enumerate(state.history)
    ]
    if turns:
        _INSERT_TURNS.run_many(connection, turns)
    return game_id


_OF_SOURCE = exists().where(GameRow.id == TurnRow.game_id, GameRow.source == bindparam("source"))
"""A turn of a game from ``source``: its game looked up by its key (a list of every game from the source,
``IN (SELECT …)``, is read whole at each ask)."""
_RANKED_UNDER = (TurnRow.rules_key == bindparam("key"), TurnRow.ranked_score.is_not(None), _OF_SOURCE)
_BEST_OF_PROFILE = Prepared(select(func.min(TurnRow.ranked_score)).where(
    TurnRow.profile_id == bindparam("profile"), *_RANKED_UNDER
))
_BEST_OF_GUEST = Prepared(select(func.min(TurnRow.ranked_score)).where(
    TurnRow.player == bindparam("player"), TurnRow.profile_id.is_(None), *_RANKED_UNDER
))
_OF_ORIGIN = Prepared(select(GameRow.id).where(GameRow.origin == bindparam("origin")))
_INSERT_GAME = Prepared(insert(GameRow).returning(GameRow.id))
_INSERT_TURNS = Prepared(insert(TurnRow))
"""Built once: each save binds its values (a game is saved in its last action's transaction)."""


def _summary(row: GameRow) -> GameSummary:
    return GameSummary(
        id=row.id, finished_at=row.finished_at, source=row.source, mode=row.mode, tiles=row.tiles,
        rules_key=row.rules_key, players=tuple(row.players), winner=row.winner,
        scores=tuple((t.player, t.score) for t in row.turns), typed=row.typed, kind=row.kind,
        sealed_until=row.sealed_until,
    )


def _turns_of(player: str, profile: Profile | None) -> Any:
    """Which turns are ``player``'s: the ``profile``'s, else a guest's (played under that name,
    as names are kept, by no profile)."""
    if profile is not None:
        return TurnRow.profile_id == profile.id
    return (TurnRow.player == as_kept(player)) & TurnRow.profile_id.is_(None)
