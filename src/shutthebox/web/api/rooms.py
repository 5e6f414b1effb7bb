"""Rooms: fair dice committed to, rooms created, seen, joined and played, hints, reviews, records.

Each handler translates JSON to one call of the rooms or advice service (`web.rooms`, `web.advice`)
and answers the room as the caller's token sees it."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from pydantic import TypeAdapter

from shutthebox.web import answers
from shutthebox.web.api.deps import (
    ERRORS,
    MAX_CODE,
    SECRET,
    AddressDep,
    Answer,
    GuestDep,
    Quick,
    RoomCode,
    ServerDep,
    TokenDep,
    address,
    answering,
    guest_of,
    server,
    token_of,
    valid,
)
from shutthebox.web.players import GUEST_HEADER, player_of
from shutthebox.web.schemas import ActionIn, CreateRoom, JoinRoom, PrivacyIn, RematchIn

__all__ = ["QUICK", "router"]

router = answering()
_CREATE: TypeAdapter[CreateRoom] = TypeAdapter(CreateRoom)
_ACTION: TypeAdapter[Any] = TypeAdapter(ActionIn)


@router.post(
    "/commitments", response_model=answers.Commitment, status_code=201, dependencies=SECRET,
    summary="Fair dice committed to, for the room you create next",
)
async def commit_dice(server: ServerDep) -> dict[str, Any]:
    """The commitment (sha256 of a secret server seed) and a ticket: create the room with the
    ticket and your client seed, which so reaches the server only after it committed."""
    ticket, dice = await server.rooms.commit()
    return {"ticket": ticket, **dice.fairness(reveal=False).to_json()}


@router.post(
    "/rooms", response_model=answers.NewRoom, status_code=201, responses=ERRORS,
    summary="Create a room and start its game",
)
async def create_room(
    body: CreateRoom, server: ServerDep, key: TokenDep, address: AddressDep, guest: GuestDep
) -> Answer:
    """With a profile key as the bearer token, the creator's profile plays the first seat played here.
    The games in play one player may hold are bounded (a profile, else the ``X-Guest-Key``, else the
    address), and those from one address far higher."""
    profile = await server.profiles.find(key)
    held, token = await server.rooms.create(body, profile, address, player_of(profile, guest, address))
    state = server.rooms.view(held, token)
    return Answer({"code": held.code, "token": token, "state": state}, 201, secret=True)


@router.get(
    "/me/rooms", response_model=answers.GamesInPlay, responses=ERRORS,
    summary="The games you have in play: resume or resign each",
)
async def games_in_play(
    server: ServerDep, key: TokenDep, address: AddressDep, guest: GuestDep
) -> dict[str, Any]:
    """You are your profile (its key as the bearer token), else your ``X-Guest-Key``, else your address.
    Each game names its room; the seat token that plays it stays with the page that holds it."""
    player = player_of(await server.profiles.find(key), guest, address)
    assert player is not None
    return {"games": await server.rooms.in_play(player), "limit": server.settings.max_rooms_per_player}


@router.post(
    "/rooms/{code}/resign", response_model=answers.Resigned, responses=ERRORS,
    summary="Leave a game: a bot plays your seats to the end",
)
async def resign(
    code: RoomCode, server: ServerDep, token: TokenDep, address: AddressDep, guest: GuestDep
) -> dict[str, Any]:
    """With the seat token as the bearer (or, as the room's creator, your profile key or
    ``X-Guest-Key``): your seats leave; a bot plays each to the end and the game counts as it stood
    (a ranked game counts as played to its end). Before the game begins, the creator's leaving closes
    the room and a joiner's opens their seat again. Seats already left change nothing."""
    profile = None if await server.rooms.holds_seat(code, token) else await server.profiles.holding(token)
    # a key, never the address alone: everyone behind one address (a pub, a school) shares it
    creator = player_of(profile, guest, None)
    held = await server.rooms.resign(code, token, creator)
    return {"code": code, "state": server.rooms.view(held, token) if held is not None else None}


@router.post(
    "/rooms/{code}/privacy", response_model=answers.Privacy, responses=ERRORS,
    summary="Make your room private (no watchers) or open to watchers",
)
async def post_privacy(code: RoomCode, body: PrivacyIn, server: ServerDep, token: TokenDep) -> dict[str, Any]:
    """The room's creator (its token as the bearer) decides; watchers of a room made private go."""
    held = await server.rooms.set_private(code, token, body.private)
    return {"code": held.code, "private": held.room.private}


@router.get(
    "/rooms/{code}", response_model=answers.RoomState, responses=ERRORS,
    summary="A room as the token's seats see it",
)
async def get_room(code: RoomCode, server: ServerDep, token: TokenDep) -> Answer:
    return Answer(server.rooms.view(await server.rooms.sighted(code, token), token))


@router.post(
    "/rooms/{code}/join", response_model=answers.Joined, responses=ERRORS, dependencies=SECRET,
    summary="Take an open seat of an online room",
)
async def join_room(
    code: RoomCode, body: JoinRoom, server: ServerDep, key: TokenDep, *, address: AddressDep, guest: GuestDep
) -> dict[str, Any]:
    """With a profile key as the bearer token, the joiner plays under the profile's name; a guest who
    names nobody plays under their own default name ("Player 4821")."""
    profile = await server.profiles.find(key)
    player = player_of(None, guest, address) if guest is not None else None  # a guest names themself
    held, token, seat = await server.rooms.join(code, body, profile, player)
    return {"code": held.code, "token": token, "seat": seat, "state": server.rooms.view(held, token)}


@router.post(
    "/rooms/{code}/actions", response_model=answers.RoomState, responses=ERRORS,
    summary="Roll, choose dice or shut tiles",
)
async def post_action(code: RoomCode, body: ActionIn, server: ServerDep, token: TokenDep) -> Answer:
    return Answer(server.rooms.view(await server.rooms.act(code, token, body), token))


@router.post(
    "/rooms/{code}/rematch", response_model=answers.RoomState, responses=ERRORS,
    summary="Offer, accept or decline a rematch",
)
async def post_rematch(code: RoomCode, body: RematchIn, server: ServerDep, token: TokenDep) -> dict[str, Any]:
    """After the game, the first accept offers a new game to every seat; each accepts or declines.
    When all have answered, the players who accepted play on in a new room (``rematch.code``)
    with the tokens they hold."""
    held = await server.rooms.rematch(code, token, body.accept, body.client_seed)
    return server.rooms.view(held, token)


@router.get(
    "/rooms/{code}/hint", response_model=answers.Advice, responses=ERRORS,
    summary="The solver's ranked choices for your turn",
)
async def get_hint(code: RoomCode, server: ServerDep, token: TokenDep, address: AddressDep) -> dict[str, Any]:
    return await server.advice.hint(code, token, address)


@router.get(
    "/rooms/{code}/review", response_model=answers.Review, responses=ERRORS,
    summary="The review of the finished game",
)
async def get_review(
    code: RoomCode, server: ServerDep, token: TokenDep, address: AddressDep
) -> dict[str, Any]:
    return await server.advice.review(code, token, address)


@router.get(
    "/rooms/{code}/record", response_model=answers.GameRecord, responses=ERRORS,
    summary="The game record (the fair seed once over)",
)
async def get_record(code: RoomCode, server: ServerDep, token: TokenDep) -> dict[str, Any]:
    return await server.rooms.record(code, token)


# -- the routes a game is played by, read off the request by `web.lane` ---------------------------
async def _creating(request: Request, data: Any) -> dict[str, Any] | None:
    body = valid(_CREATE, data)
    if body is None:
        return None
    return {
        "body": body, "server": await server(request), "address": await address(request),
        "key": await token_of(request.headers.get("authorization")),
        "guest": await guest_of(request.headers.get(GUEST_HEADER)),
    }


async def _seeing(request: Request, _data: Any) -> dict[str, Any] | None:
    code = request.path_params["code"]
    if len(code) > MAX_CODE:
        return None
    return {"code": code, "server": await server(request),
            "token": await token_of(request.headers.get("authorization"))}


async def _acting(request: Request, data: Any) -> dict[str, Any] | None:
    body, seeing = valid(_ACTION, data), await _seeing(request, data)
    return None if body is None or seeing is None else {**seeing, "body": body}


QUICK = (
    Quick("POST", "/rooms", create_room, _creating),
    Quick("GET", "/rooms/{code}", get_room, _seeing),
    Quick("POST", "/rooms/{code}/actions", post_action, _acting),
)
"""A room's creation, its state and an action: taken by `web.lane` (under the API's prefix)."""
