"""A shared result a friend opens (``/g/{id}``): a page in the reader's language (``?lang=`` or
``Accept-Language``) and the picture of its board for link previews (`web.shared`). A sealed daily
game stays sealed (403), as its JSON does."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from shutthebox.web.api.deps import GameId, ServerDep
from shutthebox.web.shared import board_png, board_svg, result_html

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/g/{game_id}", response_class=HTMLResponse)
def shared_result(game_id: GameId, server: ServerDep, request: Request) -> HTMLResponse:
    base = str(request.base_url).rstrip("/")
    page = result_html(server.archive.game(game_id), base=base)
    return HTMLResponse(page, headers={"Vary": "Accept-Language"})


@router.get("/g/{game_id}/board.png")
def shared_board_png(game_id: GameId, server: ServerDep) -> Response:
    """The board as the picture of link previews (Open Graph)."""
    return Response(board_png(server.archive.game(game_id)), media_type="image/png")


@router.get("/g/{game_id}/board.svg")
def shared_board(game_id: GameId, server: ServerDep) -> Response:
    return Response(board_svg(server.archive.game(game_id)), media_type="image/svg+xml")
