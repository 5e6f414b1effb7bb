"""`web.turns`: a crowd of new rooms and sockets goes on a few to a turn of the event loop, so the
games in play are served between them; alone, a caller waits for nothing.

A turn is counted by a callback that schedules itself again (it runs once in each turn of the loop):
what the tests check is how many callers went on in the same turn, not how long anything took."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shutthebox.core.rules import Rules
from shutthebox.storage import Database
from shutthebox.storage.rooms import RoomRepository
from shutthebox.web.arrivals import ARRIVALS_AT_ONCE, ARRIVALS_PER_TURN, Arrivals
from shutthebox.web.copies import OPENED_PER_TURN, Copies
from shutthebox.web.grouped import GroupCommit
from shutthebox.web.hub import LocalHub
from shutthebox.web.room import Room
from shutthebox.web.seats import SeatSpec
from shutthebox.web.tables import new_room
from shutthebox.web.turns import PerTurn, waiting_for_disk

NEXT_PLACE = 2
"""Turns from one caller's going on to the next's, one to a turn: the next turn lets it go, and it
runs in the turn after (a woken task runs in the turn after the one that woke it)."""


class TurnCounter:
    """The number of the loop's current turn: a callback that counts and schedules itself again."""

    def __init__(self) -> None:
        self.turn = 0
        self._loop = asyncio.get_running_loop()
        self._handle = self._loop.call_soon(self._tick)

    def _tick(self) -> None:
        self.turn += 1
        self._handle = self._loop.call_soon(self._tick)

    def stop(self) -> None:
        self._handle.cancel()


@pytest.fixture
async def turns() -> Any:
    counter = TurnCounter()
    yield counter
    counter.stop()


async def test_a_crowd_goes_on_a_few_to_a_turn_in_the_order_it_came(turns: TurnCounter) -> None:
    gate = PerTurn(4)
    went: list[tuple[int, int]] = []

    async def caller(index: int) -> None:
        await gate.wait()
        went.append((index, turns.turn))

    await asyncio.gather(*(caller(index) for index in range(10)))
    assert [index for index, _turn in went] == list(range(10))
    per_turn = Counter(turn for _index, turn in went)
    assert sorted(per_turn.values()) == [2, 4, 4]  # three turns: four, four, then the last two


async def test_the_last_of_a_crowd_and_those_who_come_after_share_a_turn_within_its_count(
    turns: TurnCounter,
) -> None:
    """The crowd's tail goes on in the turn after it was let go, and is counted there: newcomers of
    that turn take only what is left of it (before, they took a whole count more: six in a turn)."""
    gate = PerTurn(4)
    went: list[int] = []

    async def caller() -> None:
        await gate.wait()
        went.append(turns.turn)

    crowd = [asyncio.create_task(caller()) for _ in range(6)]  # four go on, two wait
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    newcomers = [asyncio.create_task(caller()) for _ in range(4)]  # come as the two are let go
    await asyncio.gather(*crowd, *newcomers)
    assert len(went) == 10
    assert max(Counter(went).values()) == 4


async def test_alone_a_caller_goes_on_in_the_same_turn(turns: TurnCounter) -> None:
    gate = PerTurn(4)
    before = turns.turn
    await gate.wait()
    assert turns.turn == before  # no turn was waited for
    await asyncio.sleep(0.01)  # a later turn: its count starts again
    for _ in range(4):
        before = turns.turn
        await gate.wait()
        assert turns.turn == before


async def test_a_caller_that_stops_waiting_takes_no_place(turns: TurnCounter) -> None:
    gate = PerTurn(1)
    went: dict[str, int] = {}

    async def caller(name: str) -> None:
        await gate.wait()
        went[name] = turns.turn

    first, cancelled, after = (asyncio.create_task(caller(name)) for name in ("first", "cancelled", "after"))
    await asyncio.sleep(0)  # they ran: the first went on, the other two wait
    assert first.done() and not cancelled.done()
    cancelled.cancel()
    await asyncio.wait_for(after, 1)
    assert "cancelled" not in went
    assert went["after"] - went["first"] == NEXT_PLACE  # the next place went to the one still waiting


def test_a_gate_used_in_a_new_loop_starts_afresh() -> None:
    gate = PerTurn(1)

    async def crowd() -> None:
        await asyncio.gather(*(gate.wait() for _ in range(3)))

    asyncio.run(crowd())
    asyncio.run(asyncio.wait_for(crowd(), 1))  # a count left by the last loop holds nobody back


def test_a_gate_lets_at_least_one_through() -> None:
    with pytest.raises(ValueError, match="per_turn must be at least 1"):
        PerTurn(0)


async def _entered(app: Arrivals, scopes: list[dict[str, Any]], turns: TurnCounter) -> list[int]:
    """The turn in which each of ``scopes`` entered the app behind ``app``."""
    entered: list[int] = []

    async def inner(_scope: Any, _receive: Any, _send: Any) -> None:
        entered.append(turns.turn)

    app.app = inner

    async def nothing() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def ignore(_message: Any) -> None:
        return None

    await asyncio.gather(*(app(scope, nothing, ignore) for scope in scopes))
    return entered


async def test_new_rooms_and_sockets_enter_the_app_a_few_to_a_turn(turns: TurnCounter) -> None:
    app = Arrivals(lambda *_: None, at_once=40)  # type: ignore[arg-type, return-value]
    creations = [{"type": "http", "method": "POST", "path": "/api/rooms"}] * 20
    sockets = [{"type": "websocket", "path": "/api/rooms/ABCDE/ws"}] * 20
    entered = await _entered(app, creations + sockets, turns)
    assert max(Counter(entered).values()) == ARRIVALS_PER_TURN
    assert len(set(entered)) == 40 // ARRIVALS_PER_TURN


async def test_games_in_play_and_every_other_request_are_never_held_back(turns: TurnCounter) -> None:
    app = Arrivals(lambda *_: None)  # type: ignore[arg-type, return-value]
    others = [
        {"type": "http", "method": "POST", "path": "/api/rooms/ABCDE/actions"},
        {"type": "http", "method": "GET", "path": "/api/rooms"},
        {"type": "http", "method": "GET", "path": "/"},
        {"type": "lifespan"},
    ] * 10
    entered = await _entered(app, others, turns)
    assert len(set(entered)) == 1  # all forty in one turn


CREATION = {"type": "http", "method": "POST", "path": "/api/rooms"}
SOCKET = {"type": "websocket", "path": "/api/rooms/ABCDE/ws"}


class Inside:
    """An app behind `Arrivals` whose callers stay until let go, after ``first`` (an answer's first
    message, or nothing): who is in it now, and the most that were at once."""

    def __init__(self, first: str | None = None, *, disk: bool = False) -> None:
        self.first, self.disk = first, disk
        self.now = self.most = 0
        self.go = asyncio.Event()

    async def __call__(self, _scope: Any, _receive: Any, send: Any) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            if self.first is not None:
                await send({"type": self.first})
            if self.disk:
                waiting_for_disk()
            await self.go.wait()
        finally:
            self.now -= 1


async def _nothing() -> dict[str, Any]:
    """A request with no body (a socket's app here reads nothing)."""
    return {"type": "http.request", "body": b"", "more_body": False}


async def _ignore(_message: Any) -> None:
    return None


async def _crowd(inside: Inside, scopes: list[dict[str, Any]], **bounds: int) -> int:
    """How many of ``scopes`` were in ``inside`` at once before any was let go (all go in the end)."""
    app = Arrivals(inside, **bounds)
    calls = [asyncio.create_task(app(scope, _nothing, _ignore)) for scope in scopes]
    for _ in range(20):
        await asyncio.sleep(0)
    most = inside.most
    inside.go.set()
    await asyncio.wait_for(asyncio.gather(*calls), 1)
    return most


async def test_a_crowd_of_arrivals_waiting_on_others_is_in_the_app_two_at_a_time() -> None:
    """Two processes, a thousand games opened at once: every turn let eight more in, a thousand
    waited on Redis and PostgreSQL together, and the games in play waited behind their answers
    (p99 418 ms)."""
    assert await _crowd(Inside(), [CREATION, SOCKET] * 10) == ARRIVALS_AT_ONCE == 2


async def test_an_arrival_answered_lets_the_next_in() -> None:
    for answer in ("http.response.start", "websocket.accept", "websocket.close"):
        assert await _crowd(Inside(answer), [CREATION, SOCKET] * 10) == 20, answer


async def test_an_arrival_waiting_for_the_disk_lets_the_next_in() -> None:
    """So a crowd's new rooms go to disk in one group commit, not two by two."""
    assert await _crowd(Inside(disk=True), [CREATION] * 20) == 20


async def test_a_request_that_is_no_arrival_is_never_held_by_the_arrivals_inside() -> None:
    inside = Inside()
    app = Arrivals(inside, at_once=1)
    waiting = asyncio.create_task(app(CREATION, _nothing, _ignore))
    await asyncio.sleep(0)
    action = {"type": "http", "method": "POST", "path": "/api/rooms/ABCDE/actions"}
    acting = asyncio.create_task(app(action, _nothing, _ignore))
    for _ in range(5):
        await asyncio.sleep(0)
    assert inside.now == 2  # the action went in beside the creation that holds the only place
    inside.go.set()
    await asyncio.wait_for(asyncio.gather(waiting, acting), 1)


async def test_an_arrival_that_fails_lets_the_next_in() -> None:
    async def failing(_scope: Any, _receive: Any, _send: Any) -> None:
        raise RuntimeError("broken")

    app = Arrivals(failing, at_once=1)
    for _ in range(3):  # each would wait for good behind the last if its place were not given back
        with pytest.raises(RuntimeError, match="broken"):
            await asyncio.wait_for(app(CREATION, _nothing, _ignore), 1)


def _sending(*messages: dict[str, Any], then: asyncio.Event | None = None) -> Any:
    """A client's ``receive``: ``messages`` in order, then (with ``then``) a wait for it, then a
    disconnect."""
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        if then is not None:
            await then.wait()
        return {"type": "http.disconnect"}

    return receive


def _chunk(body: bytes, more: bool = True) -> dict[str, Any]:
    return {"type": "http.request", "body": body, "more_body": more}


async def test_a_creation_waiting_for_its_body_holds_no_place() -> None:
    """Regression: two creations whose body never came held both places, and no room nor socket of
    the process went in until they left."""
    entered: list[str] = []

    async def reading(scope: Any, receive: Any, _send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        entered.append(scope["name"])

    app = Arrivals(reading, at_once=1)
    never = asyncio.Event()
    slow = _sending(_chunk(b"{"), then=never)
    stalled = asyncio.create_task(app({**CREATION, "name": "slow"}, slow, _ignore))
    await asyncio.sleep(0)
    await asyncio.wait_for(app({**CREATION, "name": "quick"}, _sending(_chunk(b"{}", False)), _ignore), 1)
    await asyncio.wait_for(app({**SOCKET, "name": "socket"}, _nothing, _ignore), 1)
    assert entered == ["quick", "socket"]
    never.set()
    await asyncio.wait_for(stalled, 1)
    assert entered == ["quick", "socket", "slow"]


async def test_the_app_hears_the_body_read_ahead_as_it_was_sent() -> None:
    heard: list[dict[str, Any]] = []

    async def listening(_scope: Any, receive: Any, _send: Any) -> None:
        for _ in range(5):
            heard.append(await receive())

    sent = [_chunk(b"a" * 10), _chunk(b"b" * 10), _chunk(b"c" * 10), _chunk(b"d" * 10, False)]
    await Arrivals(listening, body_bytes=15)(CREATION, _sending(*sent), _ignore)
    assert heard == [*sent, {"type": "http.disconnect"}]  # past 15 bytes, the rest from the client


async def test_the_app_hears_a_client_that_left_before_its_body() -> None:
    heard: list[dict[str, Any]] = []

    async def listening(_scope: Any, receive: Any, _send: Any) -> None:
        heard.append(await receive())

    await Arrivals(listening)(CREATION, _sending(), _ignore)
    assert heard == [{"type": "http.disconnect"}]


async def test_arrivals_let_at_least_one_in() -> None:
    with pytest.raises(ValueError, match="at_once must be at least 1"):
        Arrivals(_ignore, at_once=0)  # type: ignore[arg-type]


async def test_waiting_for_the_disk_outside_an_arrival_does_nothing() -> None:
    waiting_for_disk()  # an action's write: no arrival to let go


@pytest.fixture
def copies(tmp_path: Path) -> Iterator[tuple[Copies, list[int]]]:
    """Copies over a SQLite store, and the size of each group its writes went in."""
    async def tell(_news: Any) -> None:
        return None

    with Database.open(f"sqlite:///{tmp_path / 'rooms.db'}") as database:
        kept = RoomRepository(database)
        groups: list[int] = []
        opened = Copies(
            kept, LocalHub(), clock=lambda: 0.0, idle_seconds=600, tell=tell,
            writes=GroupCommit(kept, grouped=groups.append),
        )
        yield opened, groups


async def test_a_crowd_of_new_rooms_kept_in_one_group_goes_on_a_few_to_a_turn(
    copies: tuple[Copies, list[int]], turns: TurnCounter,
) -> None:
    """A thousand rooms opened at once are one group commit: its answers, half a millisecond each,
    all in the turn it ended, held every game in play for half a second."""
    opened, groups = copies
    count = 3 * OPENED_PER_TURN
    rooms = [
        new_room(opened.new_code(), Rules.preset("classic"), [SeatSpec(kind="here", name="Ana")], now=0.0)[0]
        for _ in range(count)
    ]
    went: list[int] = []

    async def open_one(room: Room) -> None:
        await opened.add(room)
        went.append(turns.turn)

    await asyncio.gather(*(open_one(room) for room in rooms))
    assert groups == [count]  # one group for the lot
    assert max(Counter(went).values()) == OPENED_PER_TURN
    assert len(set(went)) == 3


async def test_new_rooms_waiting_for_their_group_commit_let_the_next_arrivals_in(
    copies: tuple[Copies, list[int]],
) -> None:
    """The room's write itself (`GroupCommit.keep`) lets the next arrival in: a crowd's new rooms
    go to disk in a few groups, not one by one behind a single place."""
    opened, groups = copies
    rooms = iter([
        new_room(opened.new_code(), Rules.preset("classic"), [SeatSpec(kind="here", name="Ana")], now=0.0)[0]
        for _ in range(12)
    ])
    inside = 0

    async def create(_scope: Any, _receive: Any, _send: Any) -> None:
        nonlocal inside
        inside += 1
        await opened.add(next(rooms))

    app = Arrivals(create, at_once=1)
    await asyncio.wait_for(asyncio.gather(*(app(CREATION, _nothing, _ignore) for _ in range(12))), 5)
    assert inside == 12 and sum(groups) == 12
    assert len(groups) <= 3  # one by one, it was twelve groups
