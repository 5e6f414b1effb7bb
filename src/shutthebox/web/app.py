"""The app factory: `create_app(settings)` builds the FastAPI app; its lifespan opens the database and
builds the services of the process (`assemble`), each handed only what it uses."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from shutthebox import __version__
from shutthebox.i18n import using
from shutthebox.storage import (
    DailyRepository,
    Database,
    GameRepository,
    ProfileRepository,
    RoomRepository,
    TrainerRepository,
    default_url,
)
from shutthebox.web import api, probes, sockets
from shutthebox.web.advice import AdviceDesk
from shutthebox.web.advisor import Advisor
from shutthebox.web.api import shared
from shutthebox.web.api.deps import refusal_answer
from shutthebox.web.apidocs import serve_docs
from shutthebox.web.archive import Archive
from shutthebox.web.arrivals import Arrivals
from shutthebox.web.botplay import BotPlayer
from shutthebox.web.copies import Copies
from shutthebox.web.daily import DailyDesk
from shutthebox.web.door import SolverDoor, stop_pools
from shutthebox.web.fanout import Fanout
from shutthebox.web.grouped import GroupCommit
from shutthebox.web.guard import Guard, install_log_filter
from shutthebox.web.head import HeadAsGet
from shutthebox.web.headers import SecurityHeaders, add_security_headers
from shutthebox.web.hub import Hub, LocalHub
from shutthebox.web.lane import Lane
from shutthebox.web.language import SpeakTheReadersLanguage, language_of
from shutthebox.web.metrics import Metrics, Readings
from shutthebox.web.news import Cluster, Herald
from shutthebox.web.profiles import ProfileDesk
from shutthebox.web.rates import RateLimits
from shutthebox.web.refusals import REFUSED, Refusal, RefusedError
from shutthebox.web.rooms import RoomDesk
from shutthebox.web.runtime import log_beside_uvicorn, settle, tune_for_serving
from shutthebox.web.server import Server
from shutthebox.web.settings import Settings
from shutthebox.web.stats import Reviews
from shutthebox.web.strict import describe, plain_refusal, safe_errors
from shutthebox.web.trainer import TrainerDesk
from shutthebox.web.worker import Worker

__all__ = ["SETTINGS_VARIABLE", "STATIC", "app_from_environment", "assemble", "create_app", "hub_for"]

log = logging.getLogger(__name__)
STATIC = Path(str(resources.files("shutthebox.web") / "static"))
SETTINGS_VARIABLE = "SHUTTHEBOX_SERVE_SETTINGS"
"""Where `serve --workers` puts the settings (`Settings.to_json`) for each worker process it starts."""


def hub_for(redis_url: str | None) -> Hub:
    """The hub of a server: Redis when it runs as several processes, else its own memory."""
    if not redis_url:
        return LocalHub()
    from shutthebox.web.redishub import RedisHub  # the redis extra: only for a Redis URL

    return RedisHub(redis_url)


def database_url(settings: Settings) -> str:
    """The settings' database: the URL given, else a file in the data folder, else the default."""
    if settings.database_url:
        return settings.database_url
    return default_url(settings.data_dir)


def app_from_environment() -> FastAPI:
    """The app of one worker process of `serve --workers`: the settings the command was given."""

    return create_app(Settings.from_json(os.environ[SETTINGS_VARIABLE]), own_process=True)


def ahead_door(settings: Settings, door: SolverDoor) -> SolverDoor:
    """Where the rounds solved ahead are solved: a worker of their own, so the seconds a large round
    takes hold up no hint, bot or review (one room of eight on 12 tiles held every other solver job
    of the server for 14 s); the others read the round from the shelf. Without workers, or without a
    shelf to hand the round over by, the server's own door."""
    if settings.solver_processes == 0 or settings.solved_dir is None:
        return door
    return SolverDoor(
        processes=1, pool="ahead", cells_per_minute=settings.solver_cells_per_minute,
        waiting=settings.solver_queue, shelf=settings.solved_dir, shelf_bytes=settings.solved_max_bytes,
    )


def assemble(settings: Settings, database: Database, *, clock: Callable[[], float], hub: Hub) -> Server:
    """The services of one process over ``database``, each handed what it uses; the daily challenge and
    the trainer their narrow ports (the rooms service, the solver's door, the stored games, the
    reviewer), satisfied here by the services themselves."""
    kept = RoomRepository(database)
    games = GameRepository(database)
    herald = Herald(hub)
    door = SolverDoor(
        processes=settings.solver_processes, cells_per_minute=settings.solver_cells_per_minute,
        waiting=settings.solver_queue, shelf=settings.solved_dir, shelf_bytes=settings.solved_max_bytes,
    )
    advisor = Advisor(max_cells=settings.hint_max_cells, max_bytes=settings.hint_max_bytes, door=door)
    metrics = Metrics()
    copies = Copies(
        kept, hub, clock=clock, idle_seconds=settings.room_idle_seconds, tell=herald.tell,
        writes=GroupCommit(kept, grouped=metrics.grouped),
    )
    fanout = Fanout(copies, hub, clock=clock, tell=herald.tell)
    cluster = Cluster(hub, copies, fanout, clock=clock)
    bots = BotPlayer(copies, door, advisor, hub, delay=settings.bot_delay)
    worker = Worker(
        settings=settings, games=games, kept=kept, copies=copies, fanout=fanout, herald=herald,
        cluster=cluster, bots=bots, hub=hub, clock=clock,
    )
    copies.finish = worker.finish  # a game's last action keeps the game in its own transaction
    profile_repository = ProfileRepository(database)
    profiles = ProfileDesk(profile_repository)
    metrics.read(Readings(
        rooms=lambda: len(copies), sockets=fanout.sockets, solver_jobs=lambda: door.jobs,
        solver_queue=door.queued,
    ))
    advice = AdviceDesk(
        copies, advisor, door, ahead_door=ahead_door(settings, door), clock=clock,
        ahead_max_cells=settings.ahead_max_cells,
    )
    rooms = RoomDesk(
        settings=settings, kept=kept, copies=copies, fanout=fanout, worker=worker, profiles=profiles,
        clock=clock, metrics=metrics, ahead=advice.ahead,
    )
    daily = DailyDesk(DailyRepository(database), rooms, door, clock=clock)
    trainer = TrainerDesk(
        TrainerRepository(database), games, advice, door,
        max_cells=advisor.max_cells, max_bytes=advisor.max_bytes, clock=clock,
    )
    return Server(
        settings=settings, database=database, games=games, hub=hub, door=door, copies=copies,
        fanout=fanout, cluster=cluster, worker=worker, profiles=profiles, rooms=rooms, advice=advice,
        daily=daily, trainer=trainer,
        archive=Archive(games, profile_repository, advice, Reviews(), clock=clock), metrics=metrics,
        clock=clock,
    )


def create_app(
    settings: Settings | None = None, *, clock: Callable[[], float] = time.time, hub: Hub | None = None,
    own_process: bool = False,
) -> FastAPI:
    """The web app: JSON API under ``/api``, the room WebSocket, and the page at ``/``. ``clock`` is
    the server's wall clock; ``hub`` what its processes share (by default, as the settings say);
    ``own_process``, the app is its process's one server (`shutthebox serve`), whose stop ends the
    solver's worker processes too (`web.door.stop_pools`)."""
    settings = settings or Settings()
    if settings.redis_url and settings.rate_limit_storage == "memory://":  # every process counts alike
        settings = replace(settings, rate_limit_storage=settings.redis_url)
    limits = RateLimits(settings)  # a rate that cannot be read stops the server now, not at its first request

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_filter()  # whichever server runs the app: no token reaches its log
        database = await to_thread.run_sync(Database.open, database_url(settings))
        database.keep_reader()  # this thread reads a local file on a player's request (`web.reads`)
        shared = hub if hub is not None else hub_for(settings.redis_url)
        server = app.state.server = assemble(settings, database, clock=clock, hub=shared)
        await server.start()  # rooms in play are read back as asked for
        settle()
        if own_process:
            tune_for_serving()
            log_beside_uvicorn()
        pauses = server.metrics.pause_timer()
        pauses.start()
        try:
            yield
        finally:
            pauses.stop()
            await server.stop()
            await limits.close()
            database.close()
            if own_process:
                await to_thread.run_sync(stop_pools)

    app = FastAPI(
        title="Shut the Box",
        version=__version__,
        summary="Cerrar la Caja: solo, pass-and-play, bots and online rooms; the server rolls and judges.",
        lifespan=lifespan,
        docs_url=None,  # served below from the app's own copy of Swagger UI, not from a CDN
        redoc_url=None,  # no Redoc: it fetches its logo from its maker's site
        # FastAPI's own OpenTelemetry off: the server reports to Prometheus (/metrics), and asking
        # at every request and socket whether a tracer is configured was 1 % of its CPU
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.limits = limits  # the room WebSocket spends from the same budgets

    app.add_middleware(Lane, routes=[*api.QUICK, sockets.ROUTE])  # inside the edge: a game's own routes
    app.add_middleware(Guard, settings=settings, limits=limits)  # inside the language: it speaks it
    app.add_middleware(SpeakTheReadersLanguage)
    app.add_middleware(SecurityHeaders)  # outside the others: their refusals carry the headers too
    # outside all: a crowd of new requests enters a few to a turn
    app.add_middleware(Arrivals, body_bytes=settings.max_body_bytes)
    app.add_middleware(HeadAsGet)  # outside all: HEAD is answered wherever GET is
    handle_refusals(app)
    for part in api.routers:  # a route is found by trying each in turn: a game's first
        app.include_router(part, prefix=api.PREFIX)
    app.include_router(probes.router)
    app.include_router(shared.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        return FileResponse(STATIC / "sw.js", headers={"Service-Worker-Allowed": "/"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    serve_docs(app)
    return app


def handle_refusals(app: FastAPI) -> None:
    """The app's answers to what it refuses: one handler for every refusal (the engine's and the
    store's errors among them, `web.refusals`), the request validation's, and a fault's (500)."""

    async def refusal(_request: Request, error: Exception) -> JSONResponse:
        return refusal_answer(error)

    for kind in REFUSED:
        app.add_exception_handler(kind, refusal)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = safe_errors(error.errors())  # echo no input: it may be long, or not even encode
        refusal = plain_refusal(errors) or RefusedError(
            Refusal.MALFORMED, "the request cannot be read: {detail}", detail=describe(errors)
        )
        return JSONResponse({**refusal.to_json(), "errors": jsonable(errors)}, status_code=refusal.status)

    @app.exception_handler(StarletteHTTPException)
    async def no_such_route(request: Request, error: StarletteHTTPException) -> JSONResponse:
        """An address or a method no route answers: refused in the one shape and the reader's
        language, like every refusal (Starlette's own is an English ``{"detail": "Not Found"}``)."""
        if error.status_code == 404:
            refusal = RefusedError(Refusal.NOT_FOUND, "nothing is found at this address")
        elif error.status_code == 405:
            refusal = RefusedError(
                Refusal.MALFORMED, "this address takes no {method} request", method=request.method
            )
        else:
            refusal = RefusedError(
                Refusal.MALFORMED, "the request cannot be read: {detail}", detail=error.detail
            )
        return JSONResponse(refusal.to_json(), status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def internal(request: Request, _error: Exception) -> JSONResponse:
        """A bug: a 500 that tells nothing of the inside (Starlette raises the error on, to the log)."""
        with using(language_of(request.scope)):
            refusal = RefusedError(Refusal.INTERNAL, "the server failed to answer; its log says why")
            answer = JSONResponse(refusal.to_json(), status_code=500)
            add_security_headers(answer.headers)  # answered outside every middleware
            return answer


def jsonable(errors: object) -> object:

    return jsonable_encoder(errors, custom_encoder={Exception: str})
