"""The JSON API: rooms and their actions, hints and reviews, stored games, bests, leaderboard.

Each handler translates JSON to one lobby or repository call. Refusals are JSON
``{"error": code, "detail": why}`` with a 4xx status; nothing changes.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Any

from anyio import from_thread
from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from shutthebox.core.daily import Challenge
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Mode, Rules
from shutthebox.i18n import SOURCE, language, languages
from shutthebox.i18n.export import language_list, page_catalog
from shutthebox.storage import GameRepository, SealedError, StorageError, StoredGame, rules_key
from shutthebox.strategy import jobs
from shutthebox.strategy.cheatsheet import Sheet
from shutthebox.strategy.cost import cost_of
from shutthebox.strategy.names import Objective
from shutthebox.strategy.review import Review
from shutthebox.strategy.trainer import GOALS, Goal
from shutthebox.web.cheatsheet import STYLE, sheet_html
from shutthebox.web.guard import client_address
from shutthebox.web.headers import policy
from shutthebox.web.lobby import Lobby
from shutthebox.web.rooms import TOKEN, RoomError
from shutthebox.web.schemas import (
    ActionIn,
    CreateRoom,
    JoinRoom,
    ProfileIn,
    RematchIn,
    RulesQuery,
    TrainAnswer,
)
from shutthebox.web.stats import LAST_GAMES, Reviews, collect
from shutthebox.web.trainer import pool_rules
from shutthebox.web.views import rules_catalog

__all__ = ["router"]

router = APIRouter(prefix="/api")
SERVER_ROLLED = "web"
"""The source of the games this server rolled: its bests and leaderboard count no other (a game
rolled by a program its player runs proves nothing to anyone else)."""
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {
        "description": text,
        "content": {"application/json": {"example": {"error": code, "detail": "…"}}},
    }
    for status, code, text in [
        (401, "no-profile", "no profile key, or one no profile has"),
        (403, "wrong-seat", "the token holds no seat, or not the seat named; or the room is sealed"),
        (404, "not-found", "no such room or game"),
        (409, "wrong-turn", "not your turn, an illegal action, a name taken, or a game not in that stage"),
        (422, "malformed", "a body or rule option that cannot be read"),
    ]
}


def lobby(request: Request) -> Lobby:
    result: Lobby = request.app.state.lobby
    return result


def games(request: Request) -> GameRepository:
    return lobby(request).games


def token_of(
    authorization: Annotated[str | None, Header(description="Bearer <seat token or profile key>")] = None,
) -> str | None:
    """The seat token (or, to create, join and name, the profile key) from ``Authorization: Bearer …``."""
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip() or None
        if token is not None and not TOKEN.fullmatch(token):
            raise RoomError(
                "malformed", "a bearer token is 1 to 64 of A-Z a-z 0-9 - _, as the server gave it"
            )
        return token
    return None


def no_store(response: Response) -> None:
    """An answer that carries a secret (a seat token, a profile key, a ticket): no cache, the
    browser's or a proxy's, may keep it."""
    response.headers["Cache-Control"] = "no-store"


SECRET = [Depends(no_store)]
"""The dependencies of a route whose answer carries a secret."""
MAX_ID = 2**63 - 1
"""The largest id or offset a database integer holds."""
LobbyDep = Annotated[Lobby, Depends(lobby)]
RoomCode = Annotated[str, Path(max_length=16, description="the room's code, 5 letters and digits")]
GameId = Annotated[int, Path(ge=1, le=MAX_ID)]
PlayerName = Annotated[str, Path(max_length=200)]
GamesDep = Annotated[GameRepository, Depends(games)]
TokenDep = Annotated[str | None, Depends(token_of)]


# -- words ---------------------------------------------------------------------
@router.get("/i18n", summary="The languages of the page, each named in itself")
def get_languages() -> dict[str, Any]:
    return {"source": SOURCE, "languages": language_list()}


@router.get("/i18n/{lang}", responses=ERRORS, summary="The page's messages in one language (gettext catalog)")
def get_catalog(lang: Annotated[str, Path(max_length=16)]) -> dict[str, Any]:
    if lang not in languages():
        raise RoomError("not-found", "there is no catalog for language {lang!r}", lang=lang)
    return page_catalog(lang)


# -- rules -------------------------------------------------------------------
@router.get("/rules", summary="Rule options, presets and bots for the setup panel")
def get_rules() -> dict[str, Any]:
    return rules_catalog()


# -- profiles ----------------------------------------------------------------
@router.post(
    "/profiles", status_code=201, responses=ERRORS, dependencies=SECRET,
    summary="Create a profile and its secret key",
)
async def create_profile(body: ProfileIn, lobby: LobbyDep) -> dict[str, Any]:
    profile, key = await lobby.create_profile(body.name)
    return {"profile": {"id": profile.id, "name": profile.name}, "key": key}


@router.get("/profiles/me", responses=ERRORS, summary="The profile of the key sent as the bearer token")
async def get_profile(lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    profile = await lobby.my_profile(key)
    return {"id": profile.id, "name": profile.name}


@router.patch("/profiles/me", responses=ERRORS, summary="Rename the profile of the bearer key")
async def rename_profile(body: ProfileIn, lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    profile = await lobby.rename_profile(key, body.name)
    return {"id": profile.id, "name": profile.name}


# -- rooms -------------------------------------------------------------------
@router.post(
    "/commitments", status_code=201, dependencies=SECRET,
    summary="Fair dice committed to, for the room you create next",
)
async def commit_dice(lobby: LobbyDep) -> dict[str, Any]:
    """The commitment (sha256 of a secret server seed) and a ticket: create the room with the
    ticket and your client seed, which so reaches the server only after it committed."""
    ticket, dice = await lobby.commit()
    return {"ticket": ticket, **dice.fairness(reveal=False).to_json()}


@router.post(
    "/rooms", status_code=201, responses=ERRORS, dependencies=SECRET,
    summary="Create a room and start its game",
)
async def create_room(body: CreateRoom, request: Request, lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    """With a profile key as the bearer token, the creator's profile plays the first seat played here."""
    room, token = await lobby.create(body, await lobby.profile(key), client_address(request.scope))
    return {"code": room.code, "token": token, "state": lobby.view(room, token)}


@router.get("/rooms/{code}", responses=ERRORS, summary="A room as the token's seats see it")
async def get_room(code: RoomCode, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    room = await lobby.fresh(code)
    lobby.check_sight(room, token)
    return lobby.view(room, token)


@router.post(
    "/rooms/{code}/join", responses=ERRORS, dependencies=SECRET, summary="Take an open seat of an online room"
)
async def join_room(code: RoomCode, body: JoinRoom, lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    """With a profile key as the bearer token, the joiner plays under the profile's name."""
    room, token, seat = await lobby.join(code, body, await lobby.profile(key))
    return {"code": room.code, "token": token, "seat": seat, "state": lobby.view(room, token)}


@router.post("/rooms/{code}/actions", responses=ERRORS, summary="Roll, choose dice or shut tiles")
async def post_action(code: RoomCode, body: ActionIn, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    room = await lobby.fresh(code)
    await lobby.act(room, token, body)
    return lobby.view(room, token)


@router.post("/rooms/{code}/rematch", responses=ERRORS, summary="Offer, accept or decline a rematch")
async def post_rematch(code: RoomCode, body: RematchIn, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    """After the game, the first accept offers a new game to every seat; each accepts or declines.
    When all have answered, the players who accepted play on in a new room (``rematch.code``)
    with the tokens they hold."""
    room = await lobby.fresh(code)
    await lobby.rematch(room, token, body.accept, body.client_seed)
    return lobby.view(room, token)


@router.get("/rooms/{code}/hint", responses=ERRORS, summary="The solver's ranked choices for your turn")
async def get_hint(code: RoomCode, request: Request, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    return await lobby.hint(await lobby.fresh(code), token, client_address(request.scope))


@router.get("/rooms/{code}/review", responses=ERRORS, summary="The review of the finished game")
async def get_review(code: RoomCode, request: Request, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    return await lobby.review(await lobby.fresh(code), token, client_address(request.scope))


@router.get("/rooms/{code}/record", responses=ERRORS, summary="The game record (the fair seed once over)")
async def get_record(code: RoomCode, lobby: LobbyDep) -> dict[str, Any]:
    return lobby.record(await lobby.fresh(code))


# -- stored games -----------------------------------------------------------------
@router.get("/games", summary="Stored games, newest first")
def list_games(
    games: GamesDep,
    player: Annotated[str | None, Query(max_length=200)] = None,
    source: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_ID)] = 0,
) -> dict[str, Any]:
    found = games.games(player=player, source=source, limit=limit, offset=offset)
    return {"games": [g.to_json() for g in found], "total": games.count()}


def stored_game(games: GameRepository, game_id: int, now: float) -> StoredGame:
    """A stored game as anyone may read it at ``now``: not one sealed (a daily challenge's while its day
    lasts)."""
    try:
        return games.game(game_id, now=datetime.fromtimestamp(now, UTC))
    except SealedError as error:
        raise RoomError("sealed", "{error}", error=error) from None
    except StorageError as error:
        raise RoomError("not-found", "{error}", error=error) from None


@router.get("/games/{game_id}", responses=ERRORS, summary="A stored game with its record")
def get_game(game_id: GameId, lobby: LobbyDep) -> dict[str, Any]:
    stored = stored_game(lobby.games, game_id, lobby.clock())
    return {**stored.summary.to_json(), "record": stored.record.to_json()}


@router.get("/games/{game_id}/review", responses=ERRORS, summary="The review of a stored game")
async def get_game_review(
    game_id: GameId, request: Request, games: GamesDep, lobby: LobbyDep
) -> dict[str, Any]:
    stored = await run_in_threadpool(stored_game, games, game_id, lobby.clock())
    found = await lobby.review_of(stored.record, ("stored", game_id), client_address(request.scope))
    answer: dict[str, Any] = found.to_json()
    return answer


@router.get("/players/{name:path}/history", summary="A player's turns, newest first")
def get_history(
    name: PlayerName, games: GamesDep, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> dict[str, Any]:
    return {"player": name, "turns": [t.to_json() for t in games.history(name, limit=limit)]}


@router.get("/players/{name:path}/bests", summary="A player's best ranked score per board size and rules")
def get_bests(
    name: PlayerName, games: GamesDep, tiles: Annotated[int | None, Query(ge=1, le=12)] = None
) -> dict[str, Any]:
    bests = games.bests(name, tiles=tiles, source=SERVER_ROLLED)
    return {"player": name, "bests": [b.to_json() for b in bests]}


def reviews(request: Request) -> Reviews:
    """The app's review marks of stored games (a stored game never changes: each is reviewed once)."""
    kept: Reviews = request.app.state.reviews
    return kept


@router.get("/players/{name:path}/stats", responses=ERRORS, summary="A player's statistics for the page")
def get_stats(
    name: PlayerName,
    request: Request,
    lobby: LobbyDep,
    kept: Annotated[Reviews, Depends(reviews)],
    last: Annotated[int, Query(ge=1, le=50)] = LAST_GAMES,
) -> dict[str, Any]:
    """Games per board size and rules with their score histogram, grades and best (ranked games
    of this server), the last games and the accuracy over the newest reviewed ones (see `web.stats`)."""
    requester = client_address(request.scope)

    def review_with(game_id: int, record: GameRecord) -> Review:  # in a worker thread of the server
        found: Review = from_thread.run(lobby.review_of, record, ("stored", game_id), requester)
        return found

    found = collect(lobby.games, lobby.profiles, name, kept, review_with, last=last, source=SERVER_ROLLED)
    if found is None:
        raise RoomError("not-found", "no profile is named {name!r} and no game was played under that name",
                        name=name)
    return found


def rules_query(query: Annotated[RulesQuery, Query()]) -> Rules:
    """Rules from query parameters: a preset and the options that change a turn's score."""
    given = query.model_dump(exclude={"preset"}, exclude_none=True)
    try:
        return Rules.preset(query.preset, **given)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None


# -- the daily challenge -----------------------------------------------------------
DailyTiles = Annotated[int, Path(ge=1, le=12, description="the board: 9, 10 or 12 tiles")]
Day = Annotated[date, Path(description="the day, YYYY-MM-DD (days begin at midnight UTC)")]


def _challenge(day: date, tiles: int) -> Challenge:
    try:
        return Challenge(day, tiles)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None


@router.get("/daily", responses=ERRORS, summary="A day's challenges (today's by default), and the days ahead")
async def get_daily(
    lobby: LobbyDep, day: Annotated[date | None, Query(description="YYYY-MM-DD, today by default")] = None
) -> dict[str, Any]:
    """Each challenge's commitment (the SHA-256 of its server seed), published a week before its
    day; its seed once the day is over, to verify every attempt's dice."""
    return await lobby.daily.calendar(day)


@router.post(
    "/daily/{tiles}", status_code=201, responses=ERRORS, dependencies=SECRET,
    summary="Play today's challenge (ranked)",
)
async def play_daily(tiles: DailyTiles, request: Request, lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    """With a profile key as the bearer token: one ranked attempt a day on each board, in a room
    like any other (hints off)."""
    _challenge(lobby.daily.today, tiles)
    profile = await lobby.my_profile(key)
    room, token, day = await lobby.daily.play(tiles, profile, client_address(request.scope))
    return {"code": room.code, "token": token, "state": lobby.view(room, token), "day": day.isoformat()}


@router.get("/daily/me", responses=ERRORS, summary="Your attempts day by day, and your streak")
async def get_my_daily(lobby: LobbyDep, key: TokenDep) -> dict[str, Any]:
    return await lobby.daily.mine(await lobby.my_profile(key))


@router.get("/daily/{day}/{tiles}", responses=ERRORS, summary="A challenge's leaderboard")
async def get_daily_board(day: Day, tiles: DailyTiles, lobby: LobbyDep) -> dict[str, Any]:
    """The finished attempts: the lower score first, then fewer rolls, then the earlier finish."""
    return await lobby.daily.board(_challenge(day, tiles))


@router.get("/daily/{day}/{tiles}/result", responses=ERRORS, summary="Your attempt beside optimal play")
async def get_daily_result(
    day: Day, tiles: DailyTiles, request: Request, lobby: LobbyDep, key: TokenDep
) -> dict[str, Any]:
    """Your score, rolls and rank, and the optimal player's score and rolls on the very same dice
    (its whole game once the day is over)."""
    profile = await lobby.my_profile(key)
    return await lobby.daily.result(_challenge(day, tiles), profile, client_address(request.scope))


# -- the trainer -------------------------------------------------------------------
@router.get("/train", responses=ERRORS, summary="The next trainer puzzle for your profile")
async def get_puzzle(
    request: Request,
    lobby: LobbyDep,
    key: TokenDep,
    *,
    preset: Annotated[str, Query(max_length=32, description="the rule set, see GET /api/rules")] = "web",
    tiles: Annotated[int, Query(ge=3, le=12)] = 9,
    goal: Annotated[str, Query(max_length=16, description="score, shut, beat-10 or long")] = "score",
) -> dict[str, Any]:
    """A position where a common habit errs: one you missed that is due again, else one you have not
    seen whose difficulty is nearest your rating."""
    try:
        aim = Goal.parse(goal)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None
    if aim not in GOALS:  # each goal is a pool to mine: only the trainer's own, never one a request makes up
        raise RoomError("malformed", "the trainer's goals here are {goals}, not {key!r}",
                        goals=", ".join(g.key for g in GOALS), key=goal)
    profile = await lobby.my_profile(key)
    rules = pool_rules(preset, tiles, aim)
    return await lobby.trainer.next(profile, rules, aim, client_address(request.scope))


@router.post("/train", responses=ERRORS, summary="Answer a trainer puzzle")
async def answer_puzzle(
    body: TrainAnswer, request: Request, lobby: LobbyDep, key: TokenDep
) -> dict[str, Any]:
    """Every answer ranked with its value, why the best is best, both ratings before and after, and
    when the puzzle comes back (the puzzle must be one dealt to you)."""
    profile = await lobby.my_profile(key)
    given = body.model_dump(include={"dice", "shut"})
    return await lobby.trainer.answer(profile, body.key, given, client_address(request.scope))


@router.get(
    "/cheatsheet", responses=ERRORS, response_class=HTMLResponse,
    summary="A page to print: the best move for every roll on the positions that matter most",
)
async def get_cheatsheet(
    request: Request,
    lobby: LobbyDep,
    preset: Annotated[str, Query(max_length=32, description="the rule set, see GET /api/rules")] = "web",
    tiles: Annotated[int, Query(ge=3, le=12)] = 9,
) -> HTMLResponse:
    """One rule set, played for the lowest expected score, in the reader's language (``?lang=``)."""
    try:
        rules = Rules.preset(preset, tiles=tiles).but(mode=Mode.SOLO)
    except ShutTheBoxError as error:
        raise RoomError("malformed", "{error}", error=error) from None
    price = 2 * cost_of(rules, Objective.SCORE).cells  # the solve, and the boards it meets
    sheet: Sheet = await lobby.door.run(
        client_address(request.scope), ("sheet", rules), price, jobs.cheatsheet, rules
    )
    own_style = {"Content-Security-Policy": policy(styles=[STYLE])}  # the page's style is inline
    return HTMLResponse(sheet_html(sheet, language()), headers=own_style)


@router.get("/leaderboard", responses=ERRORS, summary="Best scores by player for one board and rules")
def get_leaderboard(
    games: GamesDep,
    rules: Annotated[Rules, Depends(rules_query)],
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    entries = games.leaderboard(rules, limit=limit, source=SERVER_ROLLED)
    return {
        "tiles": rules.tiles,
        "rules_key": rules_key(rules),
        "entries": [e.to_json() for e in entries],
    }
