"""``HEAD`` answered wherever ``GET`` is (RFC 9110 9.3.2): uptime checkers, link previews and caches
ask with it, and FastAPI's routes take only the methods they name, so most paths answered it 405.

`HeadAsGet` hands the app a ``HEAD`` request as the ``GET`` it asks about; uvicorn, which still sees
the request as ``HEAD``, sends the answer's status and headers without its body.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HeadAsGet"]


class HeadAsGet:
    """ASGI middleware: a ``HEAD`` request reaches the app as a ``GET`` (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "HEAD":
            scope = {**scope, "method": "GET"}  # uvicorn keeps its own: the body is not sent
        await self.app(scope, receive, send)
