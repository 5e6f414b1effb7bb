"""Security headers on every answer: what a browser may load and run for the server's pages.

- ``Content-Security-Policy``: scripts, styles, images and sockets of the server's own origin
  only; no inline script or style, no ``eval``, no plugin, no ``<base>``; forms post home. A
  page with an inline block of its own (the API docs' start script, the cheat sheet's style)
  names that block by its hash (`policy`), so nothing injected beside it runs.
- ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``: no site frames the page (to make a
  player click under a disguise); the second for browsers that read no policy.
- ``X-Content-Type-Options: nosniff``: an answer is read as the type it says, never guessed.
- ``Referrer-Policy: no-referrer``: a room's address is sent to no other site.

An answer that sets a header of its own keeps it (`SecurityHeaders` adds the others). Answers
that carry a secret (a seat token, a profile key) say ``Cache-Control: no-store``: see
`web.api.no_store`.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "PAGE_POLICY", "SECURITY_HEADERS", "SecurityHeaders", "add_security_headers", "inline_hash", "policy",
]


def inline_hash(block: str) -> str:
    """The policy's name of an inline ``<script>`` or ``<style>`` block: its SHA-256, in base64."""
    digest = hashlib.sha256(block.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(*, scripts: Iterable[str] = (), styles: Iterable[str] = ()) -> str:
    """The Content-Security-Policy of a page of this server, allowing the inline ``scripts`` and
    ``styles`` blocks it holds (their text, as between the tags) and nothing else inline."""
    script_src = " ".join(["'self'", *map(inline_hash, scripts)])
    style_src = " ".join(["'self'", *map(inline_hash, styles)])
    return "; ".join([
        "default-src 'self'",
        f"script-src {script_src}",
        f"style-src {style_src}",
        "img-src 'self' data:",  # the page's icons are data: URLs in its style sheets
        "connect-src 'self'",  # its API, and its room sockets (ws: and wss: of its own origin)
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


PAGE_POLICY = policy()
"""The policy of every answer that sets none: the page (`static/index.html`), its files, the API."""
SECURITY_HEADERS = (
    ("Content-Security-Policy", PAGE_POLICY),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)
"""What every answer carries, unless it says otherwise."""


def add_security_headers(headers: MutableHeaders) -> None:
    """Add `SECURITY_HEADERS` to ``headers`` where they set none of their own."""
    for name, value in SECURITY_HEADERS:
        headers.setdefault(name, value)


class SecurityHeaders:
    """ASGI middleware: `SECURITY_HEADERS` on every HTTP answer (a WebSocket's handshake needs none)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                add_security_headers(MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_with_headers)
