"""The app factory: `create_app(settings)` builds the FastAPI app; its lifespan opens the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from shutthebox import __version__
from shutthebox.storage import Store, default_url
from shutthebox.web import api, sockets
from shutthebox.web.language import SpeakTheReadersLanguage
from shutthebox.web.lobby import Lobby
from shutthebox.web.rooms import RoomError
from shutthebox.web.settings import Settings
from shutthebox.web.sockets import describe_validation

__all__ = ["STATIC", "create_app"]

STATIC = Path(str(resources.files("shutthebox.web") / "static"))


def database_url(settings: Settings) -> str:
    """The settings' database: the URL given, else a file in the data folder, else the default."""
    if settings.database_url:
        return settings.database_url
    return default_url(settings.data_dir)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app: JSON API under ``/api``, the room WebSocket, and the page at ``/``."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store.open(database_url(settings))
        app.state.lobby = Lobby(settings, store)
        try:
            yield
        finally:
            for room in app.state.lobby.rooms:
                if room.bot_task is not None:
                    room.bot_task.cancel()
            store.close()

    app = FastAPI(
        title="Shut the Box",
        version=__version__,
        summary="Cerrar la Caja: solo, pass-and-play, bots and online rooms; the server rolls and judges.",
        lifespan=lifespan,
    )
    app.state.settings = settings

    app.add_middleware(SpeakTheReadersLanguage)

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, error: RoomError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> JSONResponse:
        detail = describe_validation(error)
        refusal = RoomError("malformed", "the request cannot be read: {detail}", detail=detail)
        errors = [{k: v for k, v in e.items() if k != "input"} for e in error.errors()]  # echo no input:
        body = {**refusal.to_json(), "errors": jsonable(errors)}  # it may not even encode (a lone surrogate)
        return JSONResponse(body, status_code=422)

    app.include_router(api.router)
    app.include_router(sockets.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        return FileResponse(STATIC / "sw.js", headers={"Service-Worker-Allowed": "/"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def jsonable(errors: object) -> object:
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder(errors, custom_encoder={Exception: str})
