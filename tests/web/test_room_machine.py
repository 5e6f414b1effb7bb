"""Online rooms as a state machine, through the real app in-process: rooms are created (2-3 seats,
small boards, any rules), joined, played, refused, watched over WebSockets, timed out on a fake
clock, rematched, and the server restarted on its database, in any order Hypothesis picks.

After every step each viewer of a room (the seats' tokens and a spectator, over REST and over an
open WebSocket) sees the same room; a refused request (4xx) changes nothing for anyone and pushes
nothing; the event count never goes down; a finished game is saved, stored, reviewed and its fair
dice verify; the bots never hold a game up; the turn clock runs for the seat to act; the server
answers no request with a 5xx and logs no warning. A restart brings every room back as it was (but
its clock), its tokens still good. Server seeds are drawn from a counter, so a run repeats.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from shutthebox.core import fair
from shutthebox.core.record import GameRecord
from shutthebox.core.verify import verify
from shutthebox.web import Settings, create_app
from shutthebox.web.server import Server
from tests.support.web import Table, create

State = dict[str, Any]
PLENTY = "1000000/minute"
START = 1_800_000_000.0
"""The fake clock's first reading (epoch seconds): every deadline of a run is the same."""
MAX_ROOMS = 3
"""Rooms the machine creates while it watches fewer; rematches are offered in up to two more."""
MAX_SOCKETS = 6
MAX_CLIENTS = 6
"""Clients of one room: its seats' tokens, a spectator, a player's second device."""
PLAY_OUT_ACTIONS = 300
HOST, HERE, BOTS = "Ana", "Bea", ["Robo", "Zeta"]
GUESTS, PROFILES = ["Luis", "Mia", "Noor", "Olek", "Pia", "Quim"], ["Sol", "Teo"]
STATUS = {"no-profile": 401, "wrong-seat": 403, "hints-off": 403, "malformed": 422}
LEFT = {"bot": "stand-in", "adjourn": "adjourned"}
"""The notice of a seat's second miss in a row, by the room's ``on_leave``."""
MALFORMED: list[State] = [
    {"type": "fly"},
    {"type": "move"},
    {"type": "move", "tiles": [0]},
    {"type": "move", "tiles": [4, 4]},
    {"type": "move", "tiles": [13]},
    {"type": "dice"},
    {"type": "dice", "count": 100},
    {"type": "roll", "dice": [6, 6]},
    {"type": "roll", "seat": 8},
    {"type": "roll", "seat": -1},
]
REFUSALS = [
    "spectator", "stranger", "bad-token", "after-hours", "malformed", "not-your-turn", "not-your-seat",
    "out-of-phase", "bad-dice", "bad-move", "join-nameless", "join-unknown-profile", "join-as-a-profile",
    "join-full", "join-taken", "join-profile-again", "hint-off", "hint-after-hours", "hint-at-a-roll",
    "hint-not-yours", "rematch-early", "rematch-stranger", "rematch-decline-first", "rematch-again",
    "rematch-settled",
]


def settings_at(folder: Path) -> Settings:
    """Bots answer within the request, the ticker never runs by itself, no limit ever bites."""
    return Settings(
        database_url=f"sqlite:///{folder / 'm.db'}", bot_delay=0, tick_seconds=3600,
        room_idle_seconds=1e12, rate_rooms=PLENTY, rate_joins=PLENTY, rate_profiles=PLENTY,
        rate_room_requests=PLENTY, rate_room_misses=PLENTY, max_sockets_per_client=1000,
        max_rooms_per_client=1000,
    )


class Answer(Protocol):
    """An HTTP response as the tests read it (the test client's, whichever httpx it runs on)."""

    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


class FakeClock:
    """The server's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class Seeds:
    """The fair dice's server seeds drawn from a counter, so a run rolls the same dice again."""

    def __init__(self) -> None:
        self.drawn = 0

    def token_bytes(self, size: int) -> bytes:
        self.drawn += 1
        return hashlib.sha256(f"server seed {self.drawn}".encode()).digest()[:size]


class Errors(logging.Handler):
    """What the server logged at WARNING or above."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass(eq=False)
class Client:
    """Someone looking at one room: a token (None: a spectator), maybe with an open WebSocket."""

    token: str | None
    seats: list[int] = field(default_factory=list)
    socket: Any = None
    pushed: State | None = None  # the last state the socket was sent

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


@dataclass(eq=False)
class Watched:
    """A room under test: who looks at it, and what was last seen of it."""

    code: str
    clients: list[Client]
    last: State
    events: int = 0
    followed: bool = False  # its rematch's room is watched too
    stored: bool = False  # its finished game was found in the store

    @property
    def spectator(self) -> Client:
        return next(c for c in self.clients if c.token is None)

    @property
    def seated(self) -> list[Client]:
        return [c for c in self.clients if c.seats]

    def unanswered(self) -> list[Client]:
        """The seated clients a rematch waits for (all of them before one is offered)."""
        rematch = self.last["rematch"]
        return [c for c in self.seated if rematch is None or None in [rematch["answers"][s] for s in c.seats]]

    def holder(self, seat: int) -> Client:
        return next(c for c in self.clients if seat in c.seats)


@dataclass(frozen=True)
class Ask:
    """A request the room must refuse, and the refusal expected."""

    client: Client
    path: str  # "actions", "join", "rematch" or "hint"
    body: State
    error: str
    headers: dict[str, str] | None = None  # instead of the client's own

    @property
    def status(self) -> int:
        return STATUS.get(self.error, 409)

    @property
    def by_socket(self) -> bool:
        return self.path != "join" and self.headers is None and self.client.socket is not None

    @property
    def message(self) -> State:
        """The request as a socket message."""
        return {"type": self.path, **self.body} if self.path in ("rematch", "hint") else self.body


def shared(state: State) -> State:
    """What every viewer of a room sees alike: all but `you`, the seconds left, who is connected and
    how many watch (a socket closing tells the others only if it gets to before it is gone)."""
    seen = {key: value for key, value in state.items() if key not in ("you", "watchers")}
    seen["seats"] = [{k: v for k, v in seat.items() if k != "connected"} for seat in state["seats"]]
    for part in ("clock", "rematch"):
        if state[part] is not None:
            seen[part] = {k: v for k, v in state[part].items() if k != "remaining"}
    return seen


def resumed(state: State) -> State:
    """A state but the times a restart changes: the seat to act has its full time again, a rematch
    offer has had the time the server was down."""
    clock, rematch = state["clock"], state["rematch"]
    return {
        **state,
        "clock": None if clock is None else clock["seat"],
        "rematch": None if rematch is None else {**rematch, "remaining": None},
    }


def settled(rematch: State | None) -> bool:
    return rematch is not None and (rematch["code"] is not None or None not in rematch["answers"])


@st.composite
def room_setups(draw: st.DrawFn) -> State:
    """An online room: Ana here, one or two more seats (one remote at least, maybe a bot or Bea on
    Ana's device), small boards, any preset and options, a practice seed or fair dice, a clock, what
    a leaver leaves, hints on or off."""
    kinds = draw(st.sampled_from([["remote"], ["remote", "remote"], ["remote", "bot"], ["remote", "here"]]))
    seats: list[State] = [{"name": HOST}]
    for i, kind in enumerate(kinds):
        if kind == "bot":
            seats.append({"kind": "bot", "name": BOTS[i], "bot": draw(st.sampled_from(["easy", "medium"]))})
        else:
            seats.append({"kind": kind} if kind == "remote" else {"name": HERE})
    seats = draw(st.permutations(seats), label="seating")
    modes = ["round", "elimination", "long"] if len(seats) == 2 else ["round", "elimination"]
    mode = draw(st.sampled_from(modes))
    rules: State = {"mode": mode, "tiles": draw(st.integers(2 if mode == "long" else 1, 6))}
    preset = draw(st.sampled_from(["classic", "web", "two-dice", "digits", "sailors", "pub"]))
    if draw(st.booleans(), label="more options"):
        rules["one_die"] = draw(st.sampled_from(["high-shut", "sum-le-6", "sum-lt-6", "never"]))
        rules["one_die_forced"] = draw(st.booleans())
        rules["max_tiles"] = draw(st.sampled_from([None, 1, 2, 3]))
        rules["scoring"] = draw(st.sampled_from(["sum", "sum-plus-roll", "digits", "count"]))
        rules["shut_wins"] = draw(st.booleans())
        rules["stake"] = draw(st.integers(0, 3))
        rules["doubles_extra_turn"] = draw(st.booleans())
    if rules.get("one_die", "never" if preset == "two-dice" else None) == "never":
        rules["tiles"] = max(rules["tiles"], 2)  # one tile, never one die: every turn ties (refused)
    if mode == "elimination":
        rules["limit"] = draw(st.integers(1, 12))
    setup: State = {
        "preset": preset,
        "rules": rules,
        "seats": seats,
        "rounds": draw(st.integers(1, 2)),
        "on_leave": draw(st.sampled_from(["bot", "adjourn"])),
        "hints": draw(st.sampled_from([True, True, False])),
    }
    seed = draw(st.none() | st.integers(0, 2**16), label="seed (none: fair dice)")
    if seed is not None:
        setup["seed"] = seed
    turn_seconds = draw(st.sampled_from([None, 0, 5, 30]))  # None: the server's 60, 0: no clock
    if turn_seconds is not None:
        setup["turn_seconds"] = turn_seconds
    return setup


def legal_body(match: State, data: st.DataObject) -> State:
    """One action the state allows, as a client sends it."""
    phase = match["phase"]
    if phase == "choose":
        return {"type": "dice", "count": data.draw(st.sampled_from(match["dice_options"]), label="dice")}
    if phase in ("roll", "roll-off"):
        return {"type": "roll"}
    assert phase == "move", match
    tiles = data.draw(st.sampled_from(match["legal_moves"]), label="move")
    return {"type": "move", "tiles": data.draw(st.permutations(tiles), label="tiles in order")}


def first_legal(match: State) -> State:
    """The simple player's action: one die when allowed, the first legal move. (Two dice every time
    would never shut a one-tile board: every turn would tie, the game go on for ever.)"""
    if match["phase"] == "choose":
        return {"type": "dice", "count": match["dice_options"][0]}
    if match["phase"] in ("roll", "roll-off"):
        return {"type": "roll"}
    return {"type": "move", "tiles": match["legal_moves"][0]}


OUT_OF_PHASE: dict[str, list[State]] = {
    "choose": [{"type": "roll"}, {"type": "move", "tiles": [1]}],
    "roll": [{"type": "dice", "count": 1}, {"type": "dice", "count": 2}, {"type": "move", "tiles": [1]}],
    "roll-off": [{"type": "dice", "count": 1}, {"type": "dice", "count": 2}, {"type": "move", "tiles": [1]}],
    "move": [{"type": "roll"}, {"type": "dice", "count": 1}, {"type": "dice", "count": 2}],
}


class RoomMachine(RuleBasedStateMachine):
    """The server and the rooms it holds, seen by the clients of each."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="rooms-"))
        self.clock = FakeClock()
        self.rooms: list[Watched] = []
        self.client = self.start()
        self.keys: dict[str, str] = {}  # profile keys by name
        for name in PROFILES:
            response = self.request("POST", "/api/profiles", {}, {"name": name})
            assert response.status_code == 201, response.text
            self.keys[name] = response.json()["key"]
        self.seeds = mock.patch.object(fair, "secrets", SimpleNamespace(token_bytes=Seeds().token_bytes))
        self.seeds.start()  # from here on, undone by `teardown`
        self.errors = Errors()
        logging.getLogger("shutthebox").addHandler(self.errors)

    def start(self) -> TestClient:
        """The app on the machine's database, on the fake clock from the start (the
        resumed rooms' clocks are armed by it)."""
        client = TestClient(create_app(settings_at(self.folder), clock=self.clock))
        client.__enter__()
        return client

    def teardown(self) -> None:
        for room in self.rooms:
            for client in room.clients:
                if client.socket is not None:
                    self.disconnect_client(client)
        self.client.__exit__(None, None, None)
        self.seeds.stop()
        logging.getLogger("shutthebox").removeHandler(self.errors)
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- talking to the server ------------------------------------------------------------------
    def request(
        self, method: str, path: str, headers: dict[str, str], body: State | None = None
    ) -> Answer:
        response: Answer = self.client.request(method, path, headers=headers, json=body)
        assert response.status_code < 500, response.text
        return response

    def view(self, room: Watched, client: Client) -> State:
        response = self.request("GET", f"/api/rooms/{room.code}", client.headers)
        assert response.status_code == 200, response.text
        state: State = response.json()
        return state

    def send(self, room: Watched, ask: Ask) -> Answer:
        headers = ask.client.headers if ask.headers is None else ask.headers
        if ask.path == "hint":
            return self.request("GET", f"/api/rooms/{room.code}/hint", headers)
        return self.request("POST", f"/api/rooms/{room.code}/{ask.path}", headers, ask.body)

    def drain(self, client: Client) -> list[State]:
        """Every message the socket was sent since last asked: a ping is answered after them."""
        client.socket.send_json({"type": "ping"})
        messages = []
        while (message := client.socket.receive_json())["type"] != "pong":
            messages.append(message)
            if message["type"] == "state":
                client.pushed = message["state"]
        return messages

    def tell(self, client: Client, body: State) -> list[State]:
        """Send ``body`` over the client's socket; what came back (states and errors)."""
        client.socket.send_json(body)
        return self.drain(client)

    def quiet(self, room: Watched, but: Client | None = None) -> None:
        """No socket of the room was sent anything (but ``but``'s, read by the caller)."""
        for client in room.clients:
            if client.socket is not None and client is not but:
                assert self.drain(client) == []

    def disconnect_client(self, client: Client) -> None:
        client.socket.__exit__(None, None, None)
        client.socket = client.pushed = None

    def look(self, room: Watched) -> list[State]:
        """The room through every client's token, the seats each holds noted; the first kept."""
        views = [self.view(room, client) for client in room.clients]
        for client, state in zip(room.clients, views, strict=True):
            client.seats = state["you"]
        room.last = views[0]
        return views

    def tick(self) -> None:
        """What the server's ticker does every `Settings.tick_seconds`, once."""
        server: Server = self.client.app.state.server  # type: ignore[attr-defined]
        assert self.client.portal is not None
        self.client.portal.call(server.worker.tick)

    def rooms_where(self, test: Any) -> list[Watched]:
        return [room for room in self.rooms if test(room.last)]

    def playing(self) -> list[Watched]:
        return self.rooms_where(lambda s: s["status"] == "playing")

    def act(self, room: Watched, body: State, data: st.DataObject | None = None) -> None:
        """The seat to act does ``body``, over REST or its socket; accepted, and the game moved."""
        match = room.last["match"]
        client = room.holder(match["actor"])
        before = room.last["events"]
        if client.socket is not None and data is not None and data.draw(st.booleans(), label="by socket"):
            messages = self.tell(client, body)
            assert messages and all(m["type"] == "state" for m in messages), messages
            assert messages[-1]["state"]["events"] > before
        else:
            response = self.request("POST", f"/api/rooms/{room.code}/actions", client.headers, body)
            assert response.status_code == 200, response.text
            assert response.json()["events"] > before
        room.last = self.view(room, room.clients[0])

    def follow_rematches(self) -> None:
        """Watch the room of every settled rematch: the seats that accepted, with their tokens."""
        for room in list(self.rooms):
            rematch = room.last["rematch"]
            if room.followed or rematch is None or rematch["code"] is None:
                continue
            room.followed = True
            pairs = [(old, Client(old.token)) for old in room.clients if old.token is not None]
            new = Watched(rematch["code"], [client for _, client in pairs] + [Client(None)], {})
            self.look(new)
            accepted = [i for i, answer in enumerate(rematch["answers"]) if answer]
            old_seats = room.last["seats"]
            assert [s["name"] for s in new.last["seats"]] == [old_seats[i]["name"] for i in accepted]
            for old, client in pairs:  # a token that declined holds no seat of the new room
                assert bool(client.seats) == any(seat in accepted for seat in old.seats)
            assert new.last["kind"] == "ranked"
            assert new.last["fairness"]["commitment"] == rematch["commitment"]  # committed at the offer
            event(f"rematch room of {len(accepted)} seats")
            self.rooms.append(new)

    # -- rules ------------------------------------------------------------------------------------
    @initialize(setup=room_setups(), data=st.data())
    def first_room(self, setup: State, data: st.DataObject) -> None:
        self.new_room(setup, data)

    @precondition(lambda self: len(self.rooms) < MAX_ROOMS)
    @rule(setup=room_setups(), data=st.data())
    def create(self, setup: State, data: st.DataObject) -> None:
        self.new_room(setup, data)

    def new_room(self, setup: State, data: st.DataObject) -> None:
        """Create a room, maybe under Sol's profile and with the dice committed to first; mostly its
        guests join at once (else the `join` rule seats them)."""
        headers = {}
        if data.draw(st.booleans(), label="the creator plays under a profile"):
            headers = {"Authorization": f"Bearer {self.keys[PROFILES[0]]}"}
        committed = None
        if "seed" not in setup and data.draw(st.booleans(), label="dice committed first"):
            response = self.request("POST", "/api/commitments", {})
            assert response.status_code == 201, response.text
            committed = response.json()
            setup = {**setup, "ticket": committed["ticket"], "client_seed": "host-seed"}
        response = self.request("POST", "/api/rooms", headers, setup)
        assert response.status_code == 201, response.text
        created = response.json()
        state = created["state"]
        assert state["status"] == "waiting" and state["events"] == 0
        if committed is not None:
            assert state["fairness"]["commitment"] == committed["commitment"]
            assert state["fairness"]["client_seeds"] == ["host-seed"]
        if headers:
            assert state["seats"][state["you"][0]]["name"] == PROFILES[0]
        host = Client(created["token"], state["you"])
        room = Watched(created["code"], [host, Client(None)], state)
        self.rooms.append(room)
        if data.draw(st.integers(0, 3), label="guests join at once") > 0:
            while room.last["status"] == "waiting":
                self.seat_guest(room, data)

    @precondition(lambda self: self.rooms_where(lambda s: s["status"] == "waiting"))
    @rule(data=st.data())
    def join(self, data: st.DataObject) -> None:
        room = data.draw(st.sampled_from(self.rooms_where(lambda s: s["status"] == "waiting")), label="room")
        self.seat_guest(room, data)

    def seat_guest(self, room: Watched, data: st.DataObject) -> None:
        """A guest takes the room's next open seat with the code and a name of their own, or plays
        under a profile."""
        taken = {seat["name"] for seat in room.last["seats"]}
        name = data.draw(st.sampled_from([n for n in GUESTS + PROFILES if n not in taken]), label="name")
        body: State = {"name": name} if name in GUESTS else {}
        headers = {"Authorization": f"Bearer {self.keys[name]}"} if name in PROFILES else {}
        if data.draw(st.booleans(), label="client seed"):
            body["client_seed"] = f"seed-of-{name}"
        response = self.request("POST", f"/api/rooms/{room.code}/join", headers, body)
        assert response.status_code == 200, response.text
        joined = response.json()
        assert joined["state"]["you"] == [joined["seat"]]
        seat = joined["state"]["seats"][joined["seat"]]
        assert (seat["name"], seat["profile"] is not None) == (name, name in PROFILES)
        room.clients.append(Client(joined["token"], [joined["seat"]]))
        room.last = self.view(room, room.clients[0])

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """The seat to act does something the state allows."""
        room = data.draw(st.sampled_from(self.playing()), label="room")
        body = legal_body(room.last["match"], data)
        if data.draw(st.booleans(), label="name the seat"):
            body["seat"] = room.last["match"]["actor"]
        self.act(room, body, data)

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def play_out(self, data: st.DataObject) -> None:
        """Simple players play the game to its end."""
        room = data.draw(st.sampled_from(self.playing()), label="room")
        for _ in range(PLAY_OUT_ACTIONS):
            if room.last["status"] != "playing":
                break
            self.act(room, first_legal(room.last["match"]))

    @precondition(lambda self: self.rooms)
    @rule(data=st.data())
    def refused(self, data: st.DataObject) -> None:
        """A mistaken, out-of-turn or malformed request: refused (4xx), and nobody sees a change."""
        room = data.draw(st.sampled_from(self.rooms), label="room")
        kinds = list(REFUSALS)  # some mistakes cannot be made in every room: another is drawn then
        while True:
            kind = data.draw(st.sampled_from(kinds), label="kind")
            ask = self.mistake(room, kind, data)
            if ask is not None:
                break
            kinds.remove(kind)
        event(f"refused: {kind}")
        self.quiet(room)
        before = [self.view(room, client) for client in room.clients]
        if ask.by_socket and data.draw(st.booleans(), label="by socket"):
            messages = self.tell(ask.client, ask.message)
            assert [(m["type"], m.get("error")) for m in messages] == [("error", ask.error)], messages
            self.quiet(room, but=ask.client)
        else:
            response = self.send(room, ask)
            assert (response.status_code, response.json()["error"]) == (ask.status, ask.error), response.text
            self.quiet(room)
        assert [self.view(room, client) for client in room.clients] == before

    def mistake(self, room: Watched, kind: str, data: st.DataObject) -> Ask | None:
        """A request of ``kind`` the room must refuse now, or None when there is none to make."""
        status = room.last["status"]
        unplayable = {"waiting": "waiting", "over": "over"}.get(status)
        anyone = data.draw(st.sampled_from(room.clients), label="client")
        if kind in ("spectator", "stranger"):
            headers = {"Authorization": "Bearer not-a-seat-token"} if kind == "stranger" else None
            return Ask(room.spectator, "actions", {"type": "roll"}, unplayable or "wrong-seat", headers)
        if kind == "bad-token":
            headers = {"Authorization": "Bearer not a token!"}
            return Ask(anyone, "actions", {"type": "roll"}, "malformed", headers)
        if kind == "malformed":
            return Ask(anyone, "actions", data.draw(st.sampled_from(MALFORMED), label="body"), "malformed")
        if kind == "after-hours":
            if unplayable is None or not room.seated:
                return None
            return Ask(data.draw(st.sampled_from(room.seated)), "actions", {"type": "roll"}, unplayable)
        if kind.startswith("join"):
            return self.join_mistake(room, kind, data)
        if kind.startswith("rematch"):
            return self.rematch_mistake(room, kind, data)
        if kind.startswith("hint"):
            return self.hint_mistake(room, kind, data)
        return self.move_mistake(room, kind, data)

    def move_mistake(self, room: Watched, kind: str, data: st.DataObject) -> Ask | None:
        """An action out of turn, for a seat not held, out of phase, or not allowed by the roll."""
        if room.last["status"] != "playing":
            return None
        match = room.last["match"]
        mover = room.holder(match["actor"])
        if kind == "not-your-turn":
            others = [c for c in room.seated if match["actor"] not in c.seats]
            if not others:
                return None
            return Ask(data.draw(st.sampled_from(others)), "actions", legal_body(match, data), "wrong-turn")
        if kind == "not-your-seat":
            seat = data.draw(st.sampled_from([s for s in range(8) if s not in mover.seats]), label="seat")
            return Ask(mover, "actions", {**legal_body(match, data), "seat": seat}, "wrong-seat")
        if kind == "out-of-phase":
            return Ask(mover, "actions", data.draw(st.sampled_from(OUT_OF_PHASE[match["phase"]])), "illegal")
        if kind == "bad-dice" and match["phase"] == "choose":
            count = data.draw(st.integers(-99, 99).filter(lambda n: n not in match["dice_options"]))
            return Ask(mover, "actions", {"type": "dice", "count": count}, "illegal")
        if kind == "bad-move" and match["phase"] == "move":
            tiles = sorted(data.draw(st.sets(st.integers(1, 12), min_size=1), label="tiles"))
            if tiles in [sorted(move) for move in match["legal_moves"]]:
                return None
            return Ask(mover, "actions", {"type": "move", "tiles": tiles}, "illegal")
        return None

    def join_mistake(self, room: Watched, kind: str, data: st.DataObject) -> Ask | None:
        """A join without a name, to a full room, under a name or profile taken, with no profile."""
        seats, waiting, anyone = room.last["seats"], room.last["status"] == "waiting", room.clients[0]
        if kind == "join-nameless":
            return Ask(anyone, "join", {}, "malformed", {})
        if kind == "join-unknown-profile":
            return Ask(anyone, "join", {}, "no-profile", {"Authorization": "Bearer no-such-profile-key"})
        if kind == "join-as-a-profile":  # a guest may not pass for a player with a profile
            name = data.draw(st.sampled_from(PROFILES), label="name")
            return Ask(anyone, "join", {"name": name}, "name-taken", {})
        if kind == "join-full" and not waiting:
            return Ask(anyone, "join", {"name": "Xavi"}, "room-full", {})
        if kind == "join-taken" and waiting:
            name = data.draw(st.sampled_from([s["name"] for s in seats if s["name"]]), label="name")
            return Ask(anyone, "join", {"name": name}, "name-taken", {})
        profiles = [s["name"] for s in seats if s["profile"] is not None]
        if kind == "join-profile-again" and waiting and profiles:
            key = self.keys[data.draw(st.sampled_from(profiles), label="profile")]
            return Ask(anyone, "join", {}, "name-taken", {"Authorization": f"Bearer {key}"})
        return None

    def hint_mistake(self, room: Watched, kind: str, data: st.DataObject) -> Ask | None:
        """A hint where hints are off, before or after the game, for another's turn, or at a roll."""
        state = room.last
        if kind == "hint-off":
            if state["hints"]:
                return None
            return Ask(data.draw(st.sampled_from(room.clients), label="client"), "hint", {}, "hints-off")
        if not state["hints"] or not room.seated:
            return None
        if kind == "hint-after-hours" and state["status"] != "playing":
            return Ask(data.draw(st.sampled_from(room.seated), label="client"), "hint", {}, state["status"])
        if state["status"] != "playing":
            return None
        match = state["match"]
        if kind == "hint-at-a-roll" and not match["is_decision"]:
            return Ask(room.holder(match["actor"]), "hint", {}, "no-decision")
        others = [c for c in room.seated if match["actor"] not in c.seats]
        if kind == "hint-not-yours" and others:
            return Ask(data.draw(st.sampled_from(others), label="client"), "hint", {}, "wrong-turn")
        return None

    def rematch_mistake(self, room: Watched, kind: str, data: st.DataObject) -> Ask | None:
        """A rematch before the end, by a spectator, declined before it is offered, or once settled."""
        state, seated = room.last, room.seated
        if kind == "rematch-early":
            if state["status"] == "over":
                return None
            return Ask(data.draw(st.sampled_from(room.clients)), "rematch", {"accept": True}, "not-over")
        if state["status"] != "over":
            return None
        if kind == "rematch-stranger":
            return Ask(room.spectator, "rematch", {"accept": True}, "wrong-seat")
        if not seated:
            return None
        client = data.draw(st.sampled_from(seated), label="client")
        if kind == "rematch-decline-first" and state["rematch"] is None:
            return Ask(client, "rematch", {"accept": False}, "malformed")
        if kind == "rematch-again" and state["rematch"] is not None and not settled(state["rematch"]):
            answered = [c for c in seated if c not in room.unanswered()]
            if not answered:
                return None
            accept = data.draw(st.booleans(), label="accept")
            client = data.draw(st.sampled_from(answered), label="client")
            return Ask(client, "rematch", {"accept": accept}, "over")
        if kind == "rematch-settled" and settled(state["rematch"]):
            accept = data.draw(st.booleans(), label="accept")
            return Ask(client, "rematch", {"accept": accept}, "over")
        return None

    def unsettled(self) -> list[Watched]:
        """The finished rooms whose rematch is not settled (nor offered, maybe)."""
        return self.rooms_where(lambda s: s["status"] == "over" and not settled(s["rematch"]))

    @precondition(lambda self: self.unsettled() and len(self.rooms) < MAX_ROOMS + 2)
    @rule(data=st.data())
    def rematch(self, data: st.DataObject) -> None:
        """A seat of a finished game offers a rematch, or answers one."""
        rooms = self.unsettled()
        room = data.draw(st.sampled_from(rooms), label="room")
        client = data.draw(st.sampled_from(room.unanswered()), label="client")  # each seat answers once
        accept = room.last["rematch"] is None or data.draw(st.booleans(), label="accept")
        body: State = {"accept": accept}
        if data.draw(st.booleans(), label="client seed"):
            body["client_seed"] = "rematch-seed"
        if client.socket is not None and data.draw(st.booleans(), label="by socket"):
            messages = self.tell(client, {"type": "rematch", **body})
            assert messages and all(m["type"] == "state" for m in messages), messages
        else:
            response = self.request("POST", f"/api/rooms/{room.code}/rematch", client.headers, body)
            assert response.status_code == 200, response.text
        rematch = self.view(room, room.clients[0])["rematch"]
        assert rematch is not None
        assert all(rematch["answers"][seat] == accept for seat in client.seats)
        self.look(room)
        self.follow_rematches()

    def hintable(self) -> list[Watched]:
        """The rooms in play with hints on whose seat to act chooses now."""
        return self.rooms_where(
            lambda s: s["status"] == "playing" and s["hints"] and s["match"]["is_decision"]
        )

    @precondition(lambda self: self.hintable())
    @rule(data=st.data())
    def hint(self, data: st.DataObject) -> None:
        """The seat to act asks for a hint: advice comes back, and its turns count for no best."""
        room = data.draw(st.sampled_from(self.hintable()), label="room")
        client = room.holder(room.last["match"]["actor"])
        if client.socket is not None and data.draw(st.booleans(), label="by socket"):
            messages = self.tell(client, {"type": "hint"})
            assert [m["type"] for m in messages] == ["hint"], messages
        else:
            response = self.request("GET", f"/api/rooms/{room.code}/hint", client.headers)
            assert response.status_code == 200, response.text
        state = self.view(room, room.clients[0])
        assert room.last["match"]["actor"] in state["assisted"]
        unmarked = {"assisted": None, "hint_cost": None, "version": None}  # the hint is paid for now
        assert {**state, **unmarked} == {**room.last, **unmarked}
        assert state["version"] == room.last["version"] + 1  # the hint is kept before it is given
        room.last = state

    @precondition(lambda self: any(c.socket is None for room in self.rooms for c in room.clients)
                  and sum(c.socket is not None for room in self.rooms for c in room.clients) < MAX_SOCKETS)
    @rule(data=st.data())
    def connect(self, data: st.DataObject) -> None:
        """A client opens the room's WebSocket: the state arrives at once."""
        closed = [(room, c) for room in self.rooms for c in room.clients if c.socket is None]
        room, client = data.draw(st.sampled_from(closed), label="client")
        query = f"?token={client.token}" if client.token else ""
        client.socket = self.client.websocket_connect(f"/api/rooms/{room.code}/ws{query}").__enter__()
        messages = self.drain(client)  # first its own: the others are told before its ping is read
        assert messages and all(m["type"] == "state" for m in messages), messages

    @precondition(lambda self: any(len(room.clients) < MAX_CLIENTS and room.seated for room in self.rooms))
    @rule(data=st.data())
    def second_device(self, data: st.DataObject) -> None:
        """A player opens the room on another device with the same token: a seat stays connected
        while any of its sockets is open."""
        rooms = [room for room in self.rooms if len(room.clients) < MAX_CLIENTS and room.seated]
        room = data.draw(st.sampled_from(rooms), label="room")
        player = data.draw(st.sampled_from(room.seated), label="player")
        room.clients.append(Client(player.token, player.seats))

    @precondition(lambda self: any(c.socket is not None for room in self.rooms for c in room.clients))
    @rule(data=st.data())
    def disconnect(self, data: st.DataObject) -> None:
        opened = [c for room in self.rooms for c in room.clients if c.socket is not None]
        self.disconnect_client(data.draw(st.sampled_from(opened), label="client"))

    @precondition(lambda self: self.rooms)
    @rule(seconds=st.sampled_from([2, 6, 31, 61, 125]))
    def wait(self, seconds: int) -> None:
        """Time passes and the ticker runs once: a seat out of time misses (a stand-in plays its
        turn; a second miss leaves the seat to a bot or adjourns the game), a rematch due is settled;
        nothing else changes."""
        before = [room.last for room in self.rooms]
        self.clock.now += seconds
        self.tick()
        now = self.clock.now
        for room, prior in zip(list(self.rooms), before, strict=True):
            after = self.view(room, room.clients[0])
            clock, rematch = prior["clock"], prior["rematch"]
            if clock is not None and clock["deadline"] <= now:
                seat = clock["seat"]
                missed = after["seats"][seat]["missed"]
                assert missed == prior["seats"][seat]["missed"] + 1, (prior["seats"], after["seats"])
                kind = "missed" if missed == 1 else LEFT[after["on_leave"]]
                assert {k: after["notices"][-1][k] for k in ("kind", "seat")} == {"kind": kind, "seat": seat}
                assert after["seats"][seat]["stand_in"] == (kind == "stand-in")
                assert (after["adjourned"] is not None) == (kind == "adjourned")
                assert after["events"] > prior["events"] or kind != "missed"
                if kind != "adjourned" and prior["match"]["phase"] != "roll-off":
                    assert seat in after["assisted"]  # a bot played the seat's turn: it counts as it stood
                played = [e for e in after["recent"] if e["seq"] >= prior["events"]]
                gone = {seat} | {s["index"] for s in after["seats"] if s["stand_in"]}
                marks = [(e["seq"], e["player"], e.get("by")) for e in played]
                assert all((by == "clock") == (player in gone) for _, player, by in marks), (gone, marks)
                event(f"clock: {kind}")
            elif rematch is not None and not settled(rematch) and rematch["remaining"] <= seconds:
                assert settled(after["rematch"]), after["rematch"]
            else:
                assert shared(after) == shared(prior)  # the clock runs on, nothing else
            room.last = after
        self.follow_rematches()

    @precondition(lambda self: self.rooms_where(lambda s: s["status"] != "waiting"))
    @rule(down=st.sampled_from([0, 0, 61, 125]))
    def restart(self, down: int) -> None:
        """The server stops, stays down ``down`` seconds and starts again on the same database: every
        room as it was, the seat to act with its full time again; its first tick settles the rematches
        that came due meanwhile."""
        for room in self.rooms:
            for client in room.clients:
                if client.socket is not None:
                    self.disconnect_client(client)
        before = [[self.view(room, client) for client in room.clients] for room in self.rooms]
        self.client.__exit__(None, None, None)
        self.clock.now += down
        self.client = self.start()
        playing = sum(room.last["status"] == "playing" for room in self.rooms)
        event(f"restart with {len(self.rooms)} rooms, {playing} in play")
        for room, seen in zip(self.rooms, before, strict=True):
            after = [self.view(room, client) for client in room.clients]
            assert [resumed(s) for s in after] == [resumed(s) for s in seen]
            for state in after:
                clock = state["clock"]
                assert clock is None or clock["remaining"] == state["turn_seconds"]
        if down:
            self.tick()
            for room in self.rooms:
                rematch = self.view(room, room.clients[0])["rematch"]
                assert rematch is None or settled(rematch) or rematch["remaining"] > 0
            self.follow_rematches()

    # -- invariants -------------------------------------------------------------------------------
    @invariant()
    def every_viewer_sees_the_same_room(self) -> None:
        for room in self.rooms:
            for client in room.clients:
                if client.socket is not None:
                    messages = self.drain(client)
                    assert all(m["type"] == "state" for m in messages), messages
            views = self.look(room)
            first = shared(views[0])
            for client, state in zip(room.clients, views, strict=True):
                assert shared(state) == first
                if client.pushed is not None:  # a hint (kept: a version) is told with the next change
                    told = {"assisted": None, "hint_cost": None, "version": None}
                    assert {**shared(client.pushed), **told} == {**first, **told}
                    assert set(client.pushed["assisted"]) <= set(state["assisted"])
                    assert client.pushed["version"] <= state["version"]
                    assert client.pushed["you"] == state["you"]
            self.check(room, views[0])

    def check(self, room: Watched, state: State) -> None:
        """What holds of any room at rest."""
        assert state["events"] >= room.events, (state["events"], room.events)
        room.events = state["events"]
        connected = {seat for c in room.clients if c.socket is not None for seat in c.seats}
        assert [s["connected"] for s in state["seats"]] == [s["index"] in connected for s in state["seats"]]
        match = state["match"]
        if state["status"] == "over":
            assert match["over"] and state["saved_game_id"] is not None
            assert state["rematch_commitment"] is not None  # published as the game ends
            assert state["rematch"] is None or state["rematch"]["commitment"] == state["rematch_commitment"]
            if not room.stored:
                self.check_record(room, state)
        if state["status"] == "playing":
            actor = match["actor"]
            seat = state["seats"][actor]
            assert seat["kind"] != "bot" and not seat["stand_in"], seat  # the bots never hold a game up
            assert any(actor in c.seats for c in room.clients)
            clock = state["clock"]
            if state["adjourned"] is not None:
                assert state["adjourned"]["seat"] == actor and clock is None
            elif state["turn_seconds"] is None:
                assert clock is None
            else:
                assert clock is not None and clock["seat"] == actor and clock["deadline"] > self.clock.now
        rematch = state["rematch"]
        assert rematch is None or settled(rematch) or rematch["remaining"] > 0

    def check_record(self, room: Watched, state: State) -> None:
        """A finished game's record is the one stored, it can be reviewed, and fair dice verify."""
        room.stored = True
        record = self.request("GET", f"/api/rooms/{room.code}/record", {})
        stored = self.request("GET", f"/api/games/{state['saved_game_id']}", {})
        review = self.request("GET", f"/api/rooms/{room.code}/review", {})
        assert (record.status_code, stored.status_code, review.status_code) == (200, 200, 200)
        assert stored.json()["record"]["events"] == record.json()["events"]
        if state["kind"] == "ranked":
            verdict = verify(GameRecord.from_json(record.json()))
            assert verdict.proven, verdict.reason

    @invariant()
    def the_server_logs_no_trouble(self) -> None:
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]


RoomMachine.TestCase.settings = settings(
    max_examples=20, stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestRooms = pytest.mark.slow(RoomMachine.TestCase)


# -- found by the machine ----------------------------------------------------------------------
def finished_with_a_leaver(client: TestClient, clock: FakeClock) -> tuple[Table, Table]:
    """A finished online game whose first seat (Ana) missed twice in a row: a bot played her out."""
    ana, _ = create(client, seats=[{"name": HOST}, {"kind": "remote"}], seed=5, on_leave="bot")
    joined = client.post(f"/api/rooms/{ana.code}/join", json={"name": "Luis"})
    luis = Table(client, ana.code, joined.json()["token"])
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    assert client.portal is not None
    while not ana.state()["seats"][0]["stand_in"]:
        clock.now += 61
        client.portal.call(server.worker.tick)
        luis.play_while_mine()
    assert luis.play_while_mine()["status"] == "over"
    return ana, luis


def test_a_player_who_left_is_asked_to_the_rematch_like_anyone(tmp_path: Path) -> None:
    """Ana, played out by a stand-in after two misses, may offer the rematch, or accept Luis's.
    (The machine found her counted as declined when Luis offered: his offer settled the rematch
    without her at once, while her own offer let her in.)"""
    clock = FakeClock()
    with TestClient(create_app(settings_at(tmp_path), clock=clock)) as client:
        ana, _luis = finished_with_a_leaver(client, clock)
        offered = client.post(f"/api/rooms/{ana.code}/rematch", json={"accept": True}, headers=ana.headers)
        assert offered.status_code == 200, offered.text
        assert offered.json()["rematch"]["answers"] == [True, None]

        ana, luis = finished_with_a_leaver(client, clock)
        response = client.post(f"/api/rooms/{ana.code}/rematch", json={"accept": True}, headers=luis.headers)
        assert response.json()["rematch"]["answers"] == [None, True]  # she is waited for
        answered = client.post(f"/api/rooms/{ana.code}/rematch", json={"accept": True}, headers=ana.headers)
        assert answered.status_code == 200, answered.text
        code = answered.json()["rematch"]["code"]
        assert code is not None and Table(client, code, ana.token).state()["you"] == [0]
