"""The services of one server process, built together by the app factory and started and stopped
together: the routes and the sockets reach each through `Server`, and no service reaches another but
through what it was handed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from anyio import to_thread

from shutthebox.storage import Database, GameRepository
from shutthebox.storage.names import look_alike_keys
from shutthebox.web.advice import AdviceDesk
from shutthebox.web.archive import Archive
from shutthebox.web.copies import Copies
from shutthebox.web.daily import DailyDesk
from shutthebox.web.door import SolverDoor
from shutthebox.web.fanout import Fanout
from shutthebox.web.hub import Hub
from shutthebox.web.metrics import Metrics
from shutthebox.web.news import Cluster
from shutthebox.web.profiles import ProfileDesk
from shutthebox.web.rooms import RoomDesk
from shutthebox.web.settings import Settings
from shutthebox.web.trainer import TrainerDesk
from shutthebox.web.worker import Worker

__all__ = ["CHECK_SECONDS", "Server"]

log = logging.getLogger(__name__)
CHECK_SECONDS = 2.0
"""How long a readiness check waits for the database or Redis before it calls it down."""


@dataclass(frozen=True, eq=False)
class Server:
    """What one process serves with (see `web.app.create_app`, which builds it)."""

    settings: Settings
    database: Database
    games: GameRepository
    hub: Hub
    door: SolverDoor
    copies: Copies
    fanout: Fanout
    cluster: Cluster
    worker: Worker
    profiles: ProfileDesk
    rooms: RoomDesk
    advice: AdviceDesk
    daily: DailyDesk
    trainer: TrainerDesk
    archive: Archive
    metrics: Metrics
    clock: Callable[[], float]

    async def start(self) -> None:
        """Join the other processes (if any) and run the ticker (clocks, rematches, bots, closing)."""

        await to_thread.run_sync(look_alike_keys, "")  # its table is read once, now, not in a request
        await self.cluster.start()
        self.worker.start()

    async def checks(self) -> dict[str, str]:
        """Whether what the process serves with answers now: the database a trivial query, Redis
        (when the settings name one) a PING; each ``"ok"``, ``"down"``, or ``"off"`` (no Redis)."""
        database = await self._check("database", asyncio.to_thread(self.database.ping))
        redis = "off"
        if self.settings.redis_url:
            redis = await self._check("redis", self._answered())
        return {"database": database, "redis": redis}

    async def _answered(self) -> None:
        if not await self.hub.answers():
            raise ConnectionError("Redis does not answer a PING")

    @staticmethod
    async def _check(name: str, answered: Awaitable[None]) -> str:
        try:
            await asyncio.wait_for(answered, CHECK_SECONDS)
        except Exception as error:  # whatever it failed of, it is down
            log.warning("readiness: the %s does not answer: %r", name, error)
            return "down"
        return "ok"

    async def stop(self) -> None:
        await self.worker.stop()
        await self.copies.writes.drain()  # the last group on disk before the database closes
        await self.hub.stop()
        log.info(
            "stopped: every action acknowledged is on disk (rooms held here: %d, kept by the store); "
            "their sockets were closed with 1012, which the page answers by reconnecting", len(self.copies),
        )
