"""Each request in its reader's language: ``?lang=`` if the page names one, else ``Accept-Language``.

`SpeakTheReadersLanguage` is a plain ASGI middleware: every handler, error
handler and thread the request starts says its words (refusals, the state in
words) in that language. A WebSocket keeps the language it connected with.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from shutthebox.i18n import Lang, requested_language, using

__all__ = ["SpeakTheReadersLanguage", "language_of"]


def language_of(scope: Scope) -> Lang:
    """The language a request or a WebSocket asks for, read off its ASGI scope."""
    query: bytes = scope.get("query_string", b"")
    header: bytes = dict(scope.get("headers") or []).get(b"accept-language", b"")
    return requested_language(query.decode("latin-1"), header.decode("latin-1"))


class SpeakTheReadersLanguage:
    """ASGI middleware: the rest of the request runs in `using(language_of(scope))`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with using(language_of(scope)):
            await self.app(scope, receive, send)
