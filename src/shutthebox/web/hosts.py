"""Whose requests the server answers: those that name it in their ``Host`` (DNS rebinding reaches
nothing), and WebSockets from its own page's origin."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.settings import ANY_HOST

__all__ = ["PROBES", "host_allowed", "same_origin", "wrong_host"]

PROBES = frozenset({"/healthz", "/readyz"})
"""The probes a load balancer or an orchestrator sends by the server's address, with no name of it:
answered whatever their ``Host`` (they tell nothing of a room or a player, change nothing, and read
nothing of the request; `web.probes`). Every other path, ``/metrics`` too, must name the server."""


def host_allowed(host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request whose ``Host`` is ``host`` names this server: one of the ``allowed`` names
    (ports aside, case aside), any name for ``*``, any address for a wildcard address."""
    name = _host_name(host or "")
    if name is None:
        return False
    for entry in allowed:
        if entry.strip() == ANY_HOST:
            return True
        wanted = _host_name(entry)
        if wanted in ("0.0.0.0", "::") and _is_address(name):
            return True
        if name == wanted:
            return True
    return False


def _host_name(host: str) -> str | None:
    """The name of a ``Host`` (or of an allowed host): lower case, no port, no brackets, no final
    dot; None if it cannot be read."""
    host = host.strip().lower()
    if not host or any(mark in host for mark in _NOT_IN_A_HOST):  # urlsplit read "evil@ours" as ours
        return None
    if host.count(":") > 1 and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address written bare, as an allowed host may be
    try:
        parts = urlsplit(f"//{host}")
        parts.port  # noqa: B018 - a port that is no number is no host
    except ValueError:
        return None
    return parts.hostname.rstrip(".") if parts.hostname else None


_NOT_IN_A_HOST = frozenset("@/?#\\ \t")
"""What a ``Host`` never holds (RFC 9110 7.2: a name or an address, and a port), and `urlsplit`
would read past: a user before ``@``, a path, a query, a fragment."""


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def wrong_host() -> RefusedError:
    return RefusedError(
        Refusal.WRONG_HOST,
        "this server does not answer to the name this request was sent to (its Host header); "
        "its operator may add the name with serve --allowed-host",
    )


# -- origins -------------------------------------------------------------------------
_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def same_origin(origin: str, host: str, allowed: Iterable[str] = ()) -> bool:
    """Whether a page at ``origin`` may open a socket on the server reached as ``host``: the same
    host and port, or an origin in ``allowed``."""
    origin = origin.strip().lower()
    if origin in (o.strip().lower().rstrip("/") for o in allowed):
        return True
    try:
        page = urlsplit(origin)
        server = urlsplit(f"//{host.strip().lower()}")
        page_port = page.port or _DEFAULT_PORTS.get(page.scheme)
        server_port = server.port
    except ValueError:
        return False
    if not page.hostname or page.hostname != server.hostname:
        return False
    if server_port is None:  # the Host of a default port names none
        return page_port == _DEFAULT_PORTS.get(page.scheme)
    return page_port == server_port
