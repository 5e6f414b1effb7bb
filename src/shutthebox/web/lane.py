"""The lane of a game's own requests: a room's creation, its state, an action and its socket, answered
without FastAPI's handling of a request.

FastAPI's routing, its dependencies and its reading of a body cost more than the rest of a room's
creation, and nearly as much again for each action played over HTTP (docs/performance.md: a route of
the creation's shape answered in 256 µs of CPU through FastAPI, 31 through the lane). So these few
routes are taken inside the edge (`web.guard` has checked them) and before FastAPI's router: each is
a FastAPI route all the same (documented by it, its endpoint the one function that answers), called
here with its arguments read off the request by the same dependencies and models (`Quick.reads`).

A request the lane does not read as the common case (a body that is not JSON of the route's model, a
code too long, a method or path of no quick route) goes on to FastAPI unchanged, its body with it,
and is answered as it always was, with FastAPI's words for what is wrong. A refusal met on the lane
is answered as the app's handler answers one (`web.api.deps.refusal_answer`).
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.requests import Request
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from shutthebox.web.api.deps import Quick, json_body, refusal_answer
from shutthebox.web.guard import replaying
from shutthebox.web.refusals import REFUSED

__all__ = ["Lane"]


class Lane:
    """ASGI middleware: the `Quick` routes answered here, everything else passed on (see the module)."""

    def __init__(self, app: ASGIApp, routes: Sequence[Quick | BaseRoute]) -> None:
        self.app = app
        self.routes: list[tuple[BaseRoute, str | None]] = [
            (Route(route.path, _Answering(route, app), methods=[route.method]), route.method)
            if isinstance(route, Quick) else (route, None)
            for route in routes
        ]
        """Each route and its one method (Starlette's own answers HEAD for GET too; FastAPI's not)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for route, method in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL and (method is None or scope["method"] == method):
                    await route.handle({**scope, **child}, receive, send)
                    return
        await self.app(scope, receive, send)


class _Answering:
    """The ASGI app of one `Quick` route: its endpoint called with what `Quick.reads` read, or the
    request passed on to FastAPI (``fallback``) with its body."""

    def __init__(self, quick: Quick, fallback: ASGIApp) -> None:
        self.quick = quick
        self.fallback = fallback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        body = await request.body()
        try:
            arguments = await self.quick.reads(request, json_body(request, body))
            response = None if arguments is None else await self.quick.endpoint(**arguments)
        except REFUSED as error:
            response = refusal_answer(error)
        if response is None:
            await self.fallback(scope, replaying(body, receive), send)
            return
        await response(scope, receive, send)
