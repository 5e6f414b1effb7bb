"""The stored games: lists, one game and its review, a player's turns, bests and statistics, and the
leaderboard (`web.archive`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query

from shutthebox.core.rules import Rules
from shutthebox.web import answers
from shutthebox.web.api.deps import ERRORS, MAX_ID, AddressDep, GameId, PlayerName, ServerDep, answering
from shutthebox.web.schemas import RulesQuery
from shutthebox.web.stats import LAST_GAMES

__all__ = ["router"]

router = answering()


@router.get("/games", response_model=answers.Games, summary="Stored games, newest first")
def list_games(
    server: ServerDep,
    player: Annotated[str | None, Query(max_length=200)] = None,
    source: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_ID)] = 0,
) -> dict[str, Any]:
    return server.archive.games(player=player, source=source, limit=limit, offset=offset)


@router.get(
    "/games/{game_id}", response_model=answers.StoredGame, responses=ERRORS,
    summary="A stored game with its record",
)
def get_game(game_id: GameId, server: ServerDep) -> dict[str, Any]:
    return server.archive.game(game_id)


@router.get(
    "/games/{game_id}/review", response_model=answers.Review, responses=ERRORS,
    summary="The review of a stored game",
)
async def get_game_review(game_id: GameId, server: ServerDep, address: AddressDep) -> dict[str, Any]:
    return await server.archive.review(game_id, address)


@router.get(
    "/players/{name:path}/history", response_model=answers.History,
    summary="A player's turns, newest first",
)
def get_history(
    name: PlayerName, server: ServerDep, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> dict[str, Any]:
    return server.archive.history(name, limit)


@router.get(
    "/players/{name:path}/bests", response_model=answers.PlayerBests,
    summary="A player's best ranked score per board size and rules",
)
def get_bests(
    name: PlayerName, server: ServerDep, tiles: Annotated[int | None, Query(ge=1, le=12)] = None
) -> dict[str, Any]:
    return server.archive.bests(name, tiles)


@router.get(
    "/players/{name:path}/stats", response_model=answers.PlayerStats, responses=ERRORS,
    summary="A player's statistics for the page",
)
def get_stats(
    name: PlayerName, server: ServerDep, address: AddressDep,
    last: Annotated[int, Query(ge=1, le=50)] = LAST_GAMES,
) -> dict[str, Any]:
    """Games per board size and rules with their score histogram, grades and best (ranked games
    of this server), the last games and the accuracy over the newest reviewed ones (see `web.stats`)."""
    return server.archive.stats(name, address, last)


async def rules_query(query: Annotated[RulesQuery, Query()]) -> Rules:
    """Rules from query parameters: a preset and the options that change a turn's score."""
    given = query.model_dump(exclude={"preset"}, exclude_none=True)
    return Rules.preset(query.preset, **given)


@router.get(
    "/leaderboard", response_model=answers.Leaderboard, responses=ERRORS,
    summary="Best scores by player for one board and rules",
)
def get_leaderboard(
    server: ServerDep,
    rules: Annotated[Rules, Depends(rules_query)],
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    return server.archive.leaderboard(rules, limit)
