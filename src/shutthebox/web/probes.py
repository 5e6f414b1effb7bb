"""What a deployment asks of a process: is it alive (``/healthz``), may it be sent players
(``/readyz``), and what has it done (``/metrics``, for Prometheus). Answers for machines, never cached.

Each answers ``HEAD`` as ``GET`` (its headers alone), as uptime checkers probe. ``/healthz`` and
``/readyz`` pass the guard without the host check (a load balancer probes by the
address, with no name of the server) and spend no rate limit: they read nothing of the request and
tell nothing of a room or a player. ``/metrics`` keeps the host check, as every other route does.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel

from shutthebox.web.server import Server

__all__ = ["Alive", "Readiness", "router"]

NO_STORE = {"Cache-Control": "no-store"}

router = APIRouter(tags=["probes"])


class Alive(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready", "unready"]
    checks: dict[str, Literal["ok", "down", "off"]]
    """Each check, ``database`` and ``redis``: ``ok``, ``down``, or ``off`` (no Redis set)."""
    failing: list[str] = []


@router.get("/healthz", response_model=Alive, summary="Liveness: the process answers")
async def healthz() -> JSONResponse:
    """Touches nothing: 200 as long as the process serves requests at all."""
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


@router.get(
    "/readyz", response_model=Readiness, summary="Readiness: the database and Redis answer",
    responses={503: {"model": Readiness, "description": "a check failed: it is named in failing"}},
)
async def readyz(request: Request) -> JSONResponse:
    """200 ``ready`` when the database answers a trivial query and Redis (if set) a PING; else 503
    naming the checks that failed."""
    server: Server = request.app.state.server
    checks = await server.checks()
    failing = [name for name, result in checks.items() if result == "down"]
    body: dict[str, object] = {"status": "unready" if failing else "ready", "checks": checks}
    if failing:
        body["failing"] = failing
    return JSONResponse(body, status_code=503 if failing else 200, headers=NO_STORE)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """This process's counters in Prometheus's text format (`web.metrics`), read on the event loop
    (the services' own thread)."""
    server: Server = request.app.state.server
    return Response(server.metrics.exposition(), media_type=CONTENT_TYPE_LATEST, headers=NO_STORE)
