"""The web app: FastAPI server (authoritative: it rolls and judges) and the page it serves.

`create_app(Settings(...))` builds the ASGI app and, as it starts, the services of the process
(`web.server.Server`); ``shutthebox serve`` runs it with uvicorn. The HTTP floor (``api``, ``sockets``,
``guard``) translates requests to the services (``rooms``, ``advice``, ``daily``, ``trainer``,
``archive``, ``profiles``), which stand on the room copies and their unit of work (``copies``), the
fan-out to sockets (``fanout``), the news of other processes (``news``) and the background work
(``worker``, ``botplay``); a room (``room``, ``seats``, ``roomlog``, ``keeping``) holds the game.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__all__ = ["Settings", "create_app"]

_HOMES = {"Settings": "settings", "create_app": "app"}


def __getattr__(name: str) -> object:
    """Load FastAPI only when the app is asked for (PEP 562): a command that merely passes through
    this package, or runs without the ``web`` extra, never imports it."""
    if name not in _HOMES:
        raise AttributeError(f"module 'shutthebox.web' has no attribute {name!r}")
    value = getattr(import_module(f"shutthebox.web.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from shutthebox.web.app import create_app
    from shutthebox.web.settings import Settings
