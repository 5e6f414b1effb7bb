"""The app factory: `create_app(settings)` builds the FastAPI app; its lifespan opens the store."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError, WebSocketRequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from shutthebox import __version__
from shutthebox.i18n import using
from shutthebox.storage import Database, default_url
from shutthebox.web import api, sockets
from shutthebox.web.guard import Guard, RateLimits, describe, install_log_filter, plain_refusal, safe_errors
from shutthebox.web.headers import SecurityHeaders, add_security_headers, policy
from shutthebox.web.language import SpeakTheReadersLanguage, language_of
from shutthebox.web.lobby import Lobby
from shutthebox.web.rooms import RoomError
from shutthebox.web.settings import Settings
from shutthebox.web.stats import Reviews

__all__ = ["SETTINGS_VARIABLE", "STATIC", "app_from_environment", "create_app"]

STATIC = Path(str(resources.files("shutthebox.web") / "static"))
DOCS_STATIC = Path(str(resources.files("fastapi_offline") / "static"))
"""Swagger UI's script and style (as the fastapi-offline package ships them, Swagger UI 5: it reads
OpenAPI 3.1), served by the app itself: the API docs work offline."""
REFUSAL: dict[str, Any] = {
    "title": "Refusal",
    "type": "object",
    "required": ["error", "detail"],
    "properties": {
        "error": {"type": "string", "description": "what kind of refusal: malformed, not-found, too-many…"},
        "detail": {"type": "string", "description": "why, in the reader's language"},
        "errors": {"type": "array", "items": {"$ref": "#/components/schemas/ValidationError"}},
    },
}
"""Every refusal of the API: ``{"error": code, "detail": why}`` (a 422 of a bad request adds ``errors``)."""


def database_url(settings: Settings) -> str:
    """The settings' database: the URL given, else a file in the data folder, else the default."""
    if settings.database_url:
        return settings.database_url
    return default_url(settings.data_dir)


SETTINGS_VARIABLE = "SHUTTHEBOX_SERVE_SETTINGS"
"""Where `serve --workers` puts the settings (`Settings.to_json`) for each worker process it starts."""


def app_from_environment() -> FastAPI:
    """The app of one worker process of `serve --workers`: the settings the command was given."""
    import os

    return create_app(Settings.from_json(os.environ[SETTINGS_VARIABLE]))


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app: JSON API under ``/api``, the room WebSocket, and the page at ``/``."""
    settings = settings or Settings()
    if settings.redis_url and settings.rate_limit_storage == "memory://":  # every process counts alike
        settings = replace(settings, rate_limit_storage=settings.redis_url)
    limits = RateLimits(settings)  # a rate that cannot be read stops the server now, not at its first request

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_filter()  # whichever server runs the app: no token reaches its log
        database = await run_in_threadpool(Database.open, database_url(settings))
        lobby = app.state.lobby = Lobby(settings, database)  # rooms in play are read back as asked for
        await lobby.start()
        try:
            yield
        finally:
            await lobby.stop()
            database.close()

    app = FastAPI(
        title="Shut the Box",
        version=__version__,
        summary="Cerrar la Caja: solo, pass-and-play, bots and online rooms; the server rolls and judges.",
        lifespan=lifespan,
        docs_url=None,  # served below from the app's own copy of Swagger UI, not from a CDN
        redoc_url=None,  # no Redoc: it fetches its logo from its maker's site
    )
    app.state.settings = settings
    app.state.limits = limits  # the room WebSocket spends from the same budgets
    app.state.reviews = Reviews()  # the statistics' accuracy of stored games

    app.add_middleware(Guard, settings=settings, limits=limits)  # inside the language: it speaks it
    app.add_middleware(SpeakTheReadersLanguage)
    app.add_middleware(SecurityHeaders)  # outside the others: their refusals carry the headers too

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, error: RoomError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = safe_errors(error.errors())  # echo no input: it may be long, or not even encode
        refusal = plain_refusal(errors) or RoomError(
            "malformed", "the request cannot be read: {detail}", detail=describe(errors)
        )
        return JSONResponse({**refusal.to_json(), "errors": jsonable(errors)}, status_code=422)

    @app.exception_handler(WebSocketRequestValidationError)
    async def malformed_socket(socket: WebSocket, error: WebSocketRequestValidationError) -> None:
        """A socket whose address cannot be read (``since`` out of range): refused as the guard
        refuses one, so a browser learns why (FastAPI's own close would echo the input)."""
        detail = describe(safe_errors(error.errors()))
        refusal = RoomError("malformed", "the request cannot be read: {detail}", detail=detail)
        await socket.accept()
        await socket.send_json({"type": "error", **refusal.to_json()})
        await socket.close(code=4422, reason=refusal.code)

    @app.exception_handler(Exception)
    async def internal(request: Request, _error: Exception) -> JSONResponse:
        """A bug: a 500 that tells nothing of the inside (Starlette raises the error on, to the log)."""
        with using(language_of(request.scope)):
            refusal = RoomError("internal", "the server failed to answer; its log says why")
            answer = JSONResponse(refusal.to_json(), status_code=500)
            add_security_headers(answer.headers)  # answered outside every middleware
            return answer

    app.include_router(api.router)
    app.include_router(sockets.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        return FileResponse(STATIC / "sw.js", headers={"Service-Worker-Allowed": "/"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    serve_docs(app)
    return app


def serve_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from ``/docs-static`` (no CDN), over an OpenAPI whose refusals are
    described as the API sends them."""

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            swagger_js_url=f"{root}/docs-static/swagger-ui-bundle.js",
            swagger_css_url=f"{root}/docs-static/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs-static/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from the validator's site
        )
        page.headers["Content-Security-Policy"] = policy(scripts=inline_scripts(bytes(page.body).decode()))
        return page

    app.mount("/docs-static", StaticFiles(directory=DOCS_STATIC), name="docs-static")
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            with_refusals(generate())
        assert app.openapi_schema is not None
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def inline_scripts(html: str) -> list[str]:
    """The inline ``<script>`` blocks of a page (Swagger UI's starts it): the policy names them."""
    return _INLINE_SCRIPT.findall(html)


def with_refusals(schema: dict[str, Any]) -> None:
    """Describe the refusals as sent: a 422 is a `REFUSAL` (not FastAPI's list of errors), and any
    request may be refused as too large (413) or too many (429)."""
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    if "HTTPValidationError" in schemas:
        schemas["HTTPValidationError"] = {**REFUSAL, "title": "HTTPValidationError"}
    schemas["Refusal"] = REFUSAL
    refused = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}}
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                responses.setdefault("413", {"description": "the body is too large", **refused})
            responses.setdefault("429", {"description": "too many requests from this address", **refused})


def jsonable(errors: object) -> object:
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder(errors, custom_encoder={Exception: str})
