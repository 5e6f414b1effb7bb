"""The web app: FastAPI server (authoritative: it rolls and judges) and the page it serves.

`create_app(Settings(...))` builds the ASGI app and, as it starts, the services of the process
(`web.server.Server`); ``shutthebox serve`` runs it with uvicorn. The HTTP floor (``api``, ``sockets``,
``guard``) translates requests to the services (``rooms``, ``advice``, ``daily``, ``trainer``,
``archive``, ``profiles``), which stand on the room copies and their unit of work (``copies``), the
fan-out to sockets (``fanout``), the news of other processes (``news``) and the background work
(``worker``, ``botplay``); a room (``room``, ``seats``, ``roomlog``, ``keeping``) holds the game.
"""

from shutthebox.web.app import create_app
from shutthebox.web.settings import Settings

__all__ = ["Settings", "create_app"]
