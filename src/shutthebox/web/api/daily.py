"""The daily challenge: the days' commitments, today's ranked attempt, leaderboards, results (`web.daily`)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import Path, Query

from shutthebox.core.daily import Challenge
from shutthebox.web import answers
from shutthebox.web.api.deps import ERRORS, SECRET, AddressDep, ServerDep, TokenDep, answering

__all__ = ["router"]

router = answering()
DailyTiles = Annotated[int, Path(ge=1, le=12, description="the board: 9, 10 or 12 tiles")]
Day = Annotated[date, Path(description="the day, YYYY-MM-DD (days begin at midnight UTC)")]


@router.get(
    "/daily", response_model=answers.DailyCalendar, responses=ERRORS,
    summary="A day's challenges (today's by default), and the days ahead",
)
async def get_daily(
    server: ServerDep, day: Annotated[date | None, Query(description="YYYY-MM-DD, today by default")] = None
) -> dict[str, Any]:
    """Each challenge's commitment (the SHA-256 of its server seed), published a week before its
    day; its seed once the day is over, to verify every attempt's dice."""
    return await server.daily.calendar(day)


@router.post(
    "/daily/{tiles}", response_model=answers.DailyAttempt, status_code=201, responses=ERRORS,
    dependencies=SECRET,
    summary="Play today's challenge (ranked)",
)
async def play_daily(
    tiles: DailyTiles, server: ServerDep, key: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """With a profile key as the bearer token: one ranked attempt a day on each board, in a room
    like any other (hints off)."""
    Challenge(server.daily.today, tiles)  # a board with no challenge is refused first
    profile = await server.profiles.mine(key)
    held, token, day = await server.daily.play(tiles, profile, address)
    state = server.rooms.view(held, token)
    return {"code": held.code, "token": token, "state": state, "day": day.isoformat()}


@router.get(
    "/daily/me", response_model=answers.DailyMine, responses=ERRORS,
    summary="Your attempts day by day, and your streak",
)
async def get_my_daily(server: ServerDep, key: TokenDep) -> dict[str, Any]:
    return await server.daily.mine(await server.profiles.mine(key))


@router.get(
    "/daily/{day}/{tiles}", response_model=answers.DailyBoard, responses=ERRORS,
    summary="A challenge's leaderboard",
)
async def get_daily_board(day: Day, tiles: DailyTiles, server: ServerDep) -> dict[str, Any]:
    """The finished attempts: the lower score first, then fewer rolls, then the earlier finish."""
    return await server.daily.board(Challenge(day, tiles))


@router.get(
    "/daily/{day}/{tiles}/result", response_model=answers.DailyResult, responses=ERRORS,
    summary="Your attempt beside optimal play",
)
async def get_daily_result(
    day: Day, tiles: DailyTiles, server: ServerDep, key: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """Your score, rolls and rank, and the optimal player's score and rolls on the very same dice
    (its whole game once the day is over)."""
    profile = await server.profiles.mine(key)
    return await server.daily.result(Challenge(day, tiles), profile, address)
