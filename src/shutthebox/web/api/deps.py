"""What the routes share: the server's services, the bearer token, the typed parts of an address,
and the refusals each route may answer (`web.refusals`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import APIRouter, Depends, Header, Path, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError

from shutthebox.web.players import GUEST_HEADER
from shutthebox.web.rates import client_address
from shutthebox.web.refusals import DATABASE_ERRORS, Refusal, RefusedError, refused
from shutthebox.web.seats import TOKEN
from shutthebox.web.server import Server

__all__ = [
    "ERRORS",
    "MAX_CODE",
    "MAX_ID",
    "SECRET",
    "AddressDep",
    "Answer",
    "Answered",
    "GameId",
    "GuestDep",
    "PlayerName",
    "Quick",
    "Reads",
    "RoomCode",
    "ServerDep",
    "TokenDep",
    "answering",
    "json_body",
    "refusal_answer",
    "valid",
]

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1
"""The largest id or offset a database integer holds."""
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {
        "description": ", ".join(codes),
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}},
    }
    for status, codes in {
        status: [r.code for r in Refusal if r.status == status]
        for status in sorted({r.status for r in Refusal} - {413, 429, 500})
    }.items()
}
"""The refusals a route may answer, by status (413 and 429 are every route's: `web.apidocs`)."""


# The dependencies are coroutines though they wait for nothing: FastAPI runs a plain function in its
# thread pool, a hop there and back for each dependency of each request.
async def server(request: Request) -> Server:
    found: Server = request.app.state.server
    return found


async def token_of(
    authorization: Annotated[str | None, Header(description="Bearer <seat token or profile key>")] = None,
) -> str | None:
    """The seat token (or, to create, join and name, the profile key) from ``Authorization: Bearer …``."""
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip() or None
        if token is not None and not TOKEN.fullmatch(token):
            raise RefusedError(
                Refusal.MALFORMED, "a bearer token is 1 to 64 of A-Z a-z 0-9 - _, as the server gave it"
            )
        return token
    return None


async def guest_of(
    key: Annotated[str | None, Header(alias=GUEST_HEADER, description="a guest's key (web.players)")] = None,
) -> str | None:
    """The guest key a page without a profile sends, so its games in play are its own (`web.players`)."""
    if key is not None and not TOKEN.fullmatch(key):
        raise RefusedError(Refusal.MALFORMED, "a guest key is 1 to 64 of A-Z a-z 0-9 - _")
    return key


async def address(request: Request) -> str:
    """Whom the request's solver work and rooms are counted against: its client's address."""
    return client_address(request.scope)


async def no_store(response: Response) -> None:
    """An answer that carries a secret (a seat token, a profile key, a ticket): no cache, the
    browser's or a proxy's, may keep it."""
    response.headers["Cache-Control"] = "no-store"


SECRET = [Depends(no_store)]
"""The dependencies of a route whose answer carries a secret."""
ServerDep = Annotated[Server, Depends(server)]
TokenDep = Annotated[str | None, Depends(token_of)]
AddressDep = Annotated[str, Depends(address)]
GuestDep = Annotated[str | None, Depends(guest_of)]
MAX_CODE = 16
"""The longest room code a route reads."""
RoomCode = Annotated[str, Path(max_length=MAX_CODE, description="the room's code, 5 letters and digits")]
GameId = Annotated[int, Path(ge=1, le=MAX_ID)]
PlayerName = Annotated[str, Path(max_length=200)]


def refusal_answer(error: Exception) -> JSONResponse:
    """The answer to a refusal (one of `web.refusals.REFUSED`): ``{"error": code, "detail": why}``
    with its status; a database that did not answer is logged too."""
    found = refused(error)
    assert found is not None  # a refusal, not a fault
    if isinstance(error, DATABASE_ERRORS):
        log.warning("the database did not answer: %s", error, exc_info=error)
    return JSONResponse(found.to_json(), status_code=found.status)


class Answer(Response):
    """A service's answer sent as its JSON (orjson), not through its route's model a second time.

    FastAPI validates every answer against its model and writes it again; on the routes a game is
    played by (a room's creation, its state, an action) that pass took 2-3 % of an action's CPU. The
    model still documents the route, and `tests/web/test_answers.py` holds the answer to what the
    model would have written. ``secret``: the answer carries a token (`no_store`)."""

    media_type = "application/json"

    def __init__(self, content: dict[str, Any], status_code: int = 200, *, secret: bool = False) -> None:
        super().__init__(content, status_code, headers={"Cache-Control": "no-store"} if secret else None)

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


class Answered(APIRoute):
    """A route whose answer is its model's (`web.answers`), with the keys the service gave and no
    other: a key a model names as optional is left out when it was not given."""

    def __init__(self, path: str, endpoint: Any, **options: Any) -> None:
        super().__init__(path, endpoint, **{**options, "response_model_exclude_unset": True})


def answering() -> APIRouter:
    """A router of `Answered` routes."""
    return APIRouter(route_class=Answered)


Reads = Callable[[Request, Any], Awaitable[dict[str, Any] | None]]
"""An endpoint's arguments from its request and the request's body as JSON (None: no JSON body);
None when the request is not the route's common case (then FastAPI answers it)."""
Valid = TypeVar("Valid")


@dataclass(frozen=True)
class Quick:
    """A route of a game's own, answered by `web.lane` without FastAPI's handling of a request: its
    method and path (FastAPI's route's, which documents it), its endpoint, and how the endpoint's
    arguments are read off a request (`Reads`: by the route's own dependencies and models)."""

    method: str
    path: str
    endpoint: Callable[..., Awaitable[Response]]
    reads: Reads


def json_body(request: Request, body: bytes) -> Any:
    """The body as FastAPI reads a JSON one (``application/json`` or ``application/…+json``); None
    when there is none or it is not JSON."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    json = kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))
    if not body or not json:
        return None
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def valid(shape: TypeAdapter[Valid], data: Any) -> Valid | None:
    """``data`` as ``shape`` takes it (as FastAPI validates a body), or None if it does not."""
    try:
        return shape.validate_python(data)
    except ValidationError:
        return None
