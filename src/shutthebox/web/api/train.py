"""The trainer's puzzles and answers (`web.trainer`), the cheat sheet to print, and the value tables
the page ranks its own hints by (`strategy.tables`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query
from fastapi.responses import HTMLResponse, Response

from shutthebox.core.rules import Rules
from shutthebox.i18n import language
from shutthebox.reports.cheatsheet import STYLE, sheet_html
from shutthebox.strategy.cheatsheet import sheet_rules
from shutthebox.strategy.tables import objective_of
from shutthebox.web import answers
from shutthebox.web.api.deps import ERRORS, AddressDep, ServerDep, TokenDep, answering
from shutthebox.web.headers import policy
from shutthebox.web.schemas import TrainAnswer
from shutthebox.web.trainer import pool_rules, trainer_goal

__all__ = ["router"]

router = answering()
Preset = Annotated[str, Query(max_length=32, description="the rule set, see GET /api/rules")]


@router.get(
    "/train", response_model=answers.PuzzleShown, responses=ERRORS,
    summary="The next trainer puzzle for your profile",
)
async def get_puzzle(
    server: ServerDep,
    key: TokenDep,
    address: AddressDep,
    *,
    preset: Preset = "web",
    tiles: Annotated[int, Query(ge=3, le=12)] = 9,
    goal: Annotated[str, Query(max_length=16, description="score, shut, beat-10 or long")] = "score",
) -> dict[str, Any]:
    """A position where a common habit errs: one you missed that is due again, else one you have not
    seen whose difficulty is nearest your rating."""
    aim = trainer_goal(goal)
    profile = await server.profiles.mine(key)
    return await server.trainer.next(profile, pool_rules(preset, tiles, aim), aim, address)


@router.post(
    "/train", response_model=answers.PuzzleRated, responses=ERRORS,
    summary="Answer a trainer puzzle",
)
async def answer_puzzle(
    body: TrainAnswer, server: ServerDep, key: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """Every answer ranked with its value, why the best is best, both ratings before and after, and
    when the puzzle comes back (the puzzle must be one dealt to you)."""
    profile = await server.profiles.mine(key)
    given = body.model_dump(include={"dice", "shut"})
    return await server.trainer.answer(profile, body.key, given, address)


@router.get(
    "/cheatsheet", responses=ERRORS, response_class=HTMLResponse,
    summary="A page to print: the best move for every roll on the positions that matter most",
)
async def get_cheatsheet(
    server: ServerDep, address: AddressDep, preset: Preset = "web",
    tiles: Annotated[int, Query(ge=3, le=12)] = 9,
) -> HTMLResponse:
    """One rule set, played for the lowest expected score, in the reader's language (``?lang=``); a
    preset whose turns a sheet cannot describe (the long game, elimination) is refused (422) in words."""
    sheet = await server.advice.sheet(sheet_rules(Rules.preset(preset, tiles=tiles)), address)
    own_style = {"Content-Security-Policy": policy(styles=[STYLE])}  # the page's style is inline
    return HTMLResponse(sheet_html(sheet, language()), headers=own_style)


@router.get(
    "/tables", response_model=answers.ValueTable, responses=ERRORS,
    summary="The value of every position of a solo turn, for the page to rank dice and moves offline",
)
async def get_table(
    server: ServerDep, address: AddressDep, preset: Preset = "web",
    tiles: Annotated[int, Query(ge=1, le=12)] = 9,
    objective: Annotated[str, Query(max_length=16, description="score or shut")] = "score",
) -> Response:
    """The preset's rules at ``tiles``, solved for the lowest expected score or the best chance to shut
    the box: the same bytes as the page's prebuilt tables (``/static/tables/``), and as lasting."""
    rules = Rules.preset(preset, tiles=tiles)
    text = await server.advice.table(rules, objective_of(objective), address)
    return Response(text, media_type="application/json", headers={"Cache-Control": "public, max-age=86400"})
