"""What a web server is started with: where it listens, where it keeps games, how bots pace."""

from __future__ import annotations

import ipaddress
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

__all__ = ["ANY_HOST", "LOOPBACK_HOSTS", "Settings", "default_hosts"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names a server on loopback is reached by."""
ANY_HOST = "*"
"""An allowed host that stands for any name."""
WILDCARDS = ("0.0.0.0", "::", "[::]")
"""Addresses that bind every address of the machine: as an allowed host, any address (never a name)."""


def default_hosts(host: str) -> tuple[str, ...]:
    """The names (``Host``) a server bound to ``host`` answers to unless told others: the loopback
    names on loopback; any address of this machine, and localhost, on every address (0.0.0.0, ::);
    else the bound host itself. A name that could point anywhere (DNS rebinding) must be named."""
    if host.strip().lower() == "localhost" or _is_loopback(host):
        return LOOPBACK_HOSTS
    if host.strip() in WILDCARDS:
        return (host.strip(), "localhost")
    return (host.strip(),)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, kw_only=True)
class Settings:
    """The settings of `create_app`.

    ``database_url`` wins over ``data_dir``; with neither, the store uses
    ``$SHUTTHEBOX_DB`` or the SQLite file in the user data folder.
    ``bot_delay`` is the pause in seconds before each bot action, so people can
    follow the bots' dice; 0 makes bots answer within the request that woke them.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    data_dir: Path | None = None
    bot_delay: float = 0.6
    redis_url: str | None = None
    """Redis, shared by several processes of one server (rooms' news, leases, rate limits); None:
    one process alone, which needs no Redis."""
    max_rooms_per_player: int = 20
    """Games in play at once created by one player (a profile, a guest key, else an address: see
    `web.players`); a further one is refused (429) until one is finished or resigned."""
    max_rooms_per_client: int = 200
    """Games in play at once created from one client address, whoever plays them: a ceiling against
    abuse, far above one player's, so everyone behind one address (a pub, a school) can play."""
    room_idle_seconds: float = 2 * 3600.0
    """A room nobody acted in nor watched for this long is closed (its finished game stays stored)."""
    room_memory_seconds: float = 600.0
    """A room nobody acted in for this long leaves the process's memory (polled or not: it is read
    back from the store when asked for); a finished one leaves at once once nobody watches it."""
    turn_seconds: int | None = 60
    """The turn clock of online rooms, unless the creator sets one: seconds for each action."""
    rematch_seconds: float = 60.0
    """How long the players of a finished room have to answer a rematch."""
    hint_max_cells: int = 3_000_000_000
    """The work one hint, bot move or review decision may ask of the solver (cells of its tables,
    about 5 ns each); beyond it the answer comes from a cheaper objective (see `web.advisor`)."""
    hint_max_bytes: int = 1_000_000_000
    """The memory one such solve may take."""
    ahead_max_cells: int = 30_000_000_000
    """The work a round of three players or more may ask of the solver when it is solved ahead, as its
    room opens or at its first hint (`web.advice`): more than one hint's, since it is done once per rule
    set, out of the way, then kept in `solved_dir` for every room of those rules. It covers a round of
    eight on 12 tiles under ``sum`` or ``sum-plus-roll`` (13 s of CPU measured); the memory is
    `hint_max_bytes`'s."""
    solver_processes: int = 1
    """Worker processes for the solver's work (hints, bots, reviews, the trainer, cheat sheets), so it
    never holds the server's own interpreter; 0 runs it in a thread of the server (see `web.door`)."""
    solved_dir: Path | None = None
    """Where the solver keeps the large rounds it solves, to read them back after a restart instead
    of solving them again (`strategy.solver.shelf`); None: kept in memory only. `serve` keeps them
    in the data folder."""
    solved_max_bytes: int = 2_000_000_000
    """The most `solved_dir` holds: a round kept past it makes room by dropping the rounds read least
    recently (about 250 MB a rule set on 12 tiles; a client can make rooms of a new rule set a minute)."""
    solver_cells_per_minute: int = 12_000_000_000
    """The solver's work one client address may ask for in any minute, in cells (about 5 ns each)."""
    solver_queue: int = 8
    """Solver jobs one client address may have waiting at once."""
    tick_seconds: float = 0.5
    """How often clocks, rematches and interrupted bots are looked at."""

    # -- the edge (web.guard, web.rates): sizes, rate limits per client address, origins --
    max_body_bytes: int = 64 * 1024
    """A request body over this is refused (413) before more of it is read."""
    max_frame_bytes: int = 16 * 1024
    """A WebSocket message over this closes the socket (1009, as uvicorn does)."""
    max_json_depth: int = 16
    """JSON bodies nested deeper than this are refused (422)."""
    rate_limit_storage: str = "memory://"
    """Where the rate limits count (a `limits` storage URI: ``memory://``, ``redis://host:6379``)."""
    rate_rooms: str = "20/minute;200/hour"
    """Rooms created (POST /api/rooms), and fair dice committed to (POST /api/commitments), each, per
    client address (the rates are `limits` strings: ``N/minute``, several joined by ``;``)."""
    rate_joins: str = "20/minute;200/hour"
    """Seats taken in online rooms (POST /api/rooms/{code}/join)."""
    rate_profiles: str = "10/minute;50/hour"
    """Profiles created (POST /api/profiles)."""
    rate_room_requests: str = "1200/minute"
    """Requests and WebSockets naming a room code: a player makes a few per action."""
    rate_room_misses: str = "30/minute;300/hour"
    """Room codes asked for that name no room (404): what guessing codes spends."""
    rate_solver_requests: str = "60/minute;600/hour"
    """Requests outside a room that ask the solver for work: cheat sheets, the trainer, reviews of stored
    games, statistics (each also priced by the solver's door, see `web.door`)."""
    socket_queue: int = 64
    """Messages waiting for one WebSocket: a client that lets more pile up is dropped (code 1013,
    free to reconnect) rather than waited for, so it slows nobody else."""
    max_sockets_per_client: int = 16
    """WebSockets open at once from one client address (a further one is closed with 4429)."""
    allowed_origins: tuple[str, ...] = ()
    """Page origins (``https://example.com``) whose WebSockets are welcome besides the server's own."""
    allowed_hosts: tuple[str, ...] | None = None
    """The names this server answers to, as a request's ``Host`` gives them (its port aside):
    ``example.com``, ``127.0.0.1``, ``[::1]``; ``*`` for any; a wildcard address (``0.0.0.0``,
    ``::``) for any address of this machine. A request to another name is refused (400, a socket
    4400), so a page whose name was rebound to this server (DNS rebinding) reaches nothing. None:
    no check, for an app mounted behind a server that checks itself; `serve` always names them
    (``--allowed-host``, else `default_hosts` of its ``--host``)."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's whole headers, from when it opens or its
    request begins, and then its whole body (`web.connections`): a slower one is closed, so a few
    bytes cannot hold it."""
    idle_timeout: float = 5.0
    """Seconds a connection may sit idle after an answer before it is closed (uvicorn's keep-alive)."""

    def to_json(self) -> str:
        """The settings as JSON: how `serve --workers` hands them to each worker process."""
        return json.dumps({k: str(v) if isinstance(v, Path) else v for k, v in asdict(self).items()})

    @classmethod
    def from_json(cls, text: str) -> Settings:
        values = json.loads(text)
        kinds = {f.name: f.type for f in fields(cls)}
        for name, value in values.items():
            if value is not None and "Path" in str(kinds.get(name)):
                values[name] = Path(value)
            elif isinstance(value, list):
                values[name] = tuple(value)
        return cls(**values)
