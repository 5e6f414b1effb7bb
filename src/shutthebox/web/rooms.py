"""The rooms service: fair dice committed to, rooms created, joined, played and rematched.

Each change is made through the unit of work (`web.copies`): kept before anyone is told, then
followed by what follows every change (`web.worker.Worker.changed`: the game saved, every listener
told, the bots woken). The dice of a room are fair (`core.fair`): the server commits to its secret
seed first (a ticket the creator then claims the room with, so the creator's client seed reaches it
only after the commitment), each joiner's client seed joins it, and the seed is revealed when the
game ends; such a game is ranked. A room created with a chosen seed is a practice room, unranked.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from anyio import to_thread

from shutthebox.core.board import Move
from shutthebox.core.errors import N_
from shutthebox.core.fair import FairDice
from shutthebox.core.match import DiceChoice
from shutthebox.core.rules import Mode, Rules
from shutthebox.storage import Profile
from shutthebox.storage.rooms import KeptRoom, RoomRepository, token_hash
from shutthebox.web.copies import Copies, Held
from shutthebox.web.fanout import Fanout
from shutthebox.web.metrics import Metrics
from shutthebox.web.players import guest_name, player_of
from shutthebox.web.profiles import ProfileDesk
from shutthebox.web.reads import read
from shutthebox.web.refusals import REFUSED, Refusal, RefusedError, within
from shutthebox.web.room import ClientAction, OnLeave, Room
from shutthebox.web.schemas import ActionIn, CreateRoom, DiceIn, JoinRoom, MoveIn
from shutthebox.web.seats import SeatSpec, check_client_seed
from shutthebox.web.settings import Settings
from shutthebox.web.tables import new_room
from shutthebox.web.worker import TICKET_SECONDS, Worker

__all__ = ["RoomDesk", "client_action", "in_play_json", "rules_of"]

log = logging.getLogger(__name__)
GUEST_NAME_CHOICES = 8
"""How many of a guest's own names are tried for one no profile holds."""


def rules_of(body: CreateRoom) -> Rules:
    """The rules a create request asks for: the preset with each option over it."""
    options = dict(body.rules)
    try:
        rules = Rules.preset(body.preset, **options)
    except TypeError:  # an option named as the preset's own argument: no rule option either
        raise RefusedError(
            Refusal.MALFORMED,
            "rules: unknown option; the options are {names}", names=", ".join(Rules().to_dict()),
        ) from None
    if "mode" not in options and len(body.seats) == 1 and rules.mode is Mode.ROUND:
        rules = rules.but(mode=Mode.SOLO)  # one player alone plays solo (rules §5.1)
    return rules


def client_action(action: ActionIn) -> ClientAction:
    """The engine action for a request body; tiles outside 1-12 or repeated are malformed."""
    if isinstance(action, DiceIn):
        return DiceChoice(action.count)
    if isinstance(action, MoveIn):
        with within(N_("tiles {tiles}: {error}"), tiles=action.tiles):
            return Move.of(action.tiles)
    return "roll"


def in_play_json(row: KeptRoom) -> dict[str, Any]:
    """A game in play as its player's list shows it: the room's code, its board and mode, who plays."""
    rules = row.setup["rules"]
    return {
        "code": row.code,
        "status": row.status,
        "kind": "practice" if row.dice is None else "ranked",
        "tiles": rules.get("tiles", 9),
        "mode": rules.get("mode", "solo"),
        "players": [seat["name"] for seat in row.seats if seat.get("name") is not None],
        "open_seats": sum(1 for seat in row.seats if seat.get("name") is None),
        "created_at": row.created_at.isoformat(),
        "touched_at": row.touched_at.isoformat(),
    }


def unnamed(body: CreateRoom) -> int | None:
    """The first seat played here, when it has no name (it takes the guest's own)."""
    first = next((i for i, s in enumerate(body.seats) if s.kind == "here"), None)
    return first if first is not None and body.seats[first].name is None else None


class RoomDesk:
    """The rooms of one server process (one of several, sharing the store)."""

    def __init__(
        self, *, settings: Settings, kept: RoomRepository, copies: Copies, fanout: Fanout, worker: Worker,
        profiles: ProfileDesk, clock: Callable[[], float], metrics: Metrics | None = None,
        ahead: Callable[[Room], None] = lambda _room: None,
    ) -> None:
        self.settings = settings
        self.ahead = ahead
        """Told of each room opened: its solver work may start before anyone asks (`AdviceDesk.ahead`)."""
        self.metrics = metrics if metrics is not None else Metrics()
        self.kept = kept
        self.copies = copies
        self.fanout = fanout
        self.worker = worker
        self.profiles = profiles
        self.clock = clock

    # -- seeing ---------------------------------------------------------------
    async def sighted(self, code: str, token: str | None, version: int = 0) -> Held:
        """The room as ``token`` may see it (a sealed room is its player's alone), at least at
        ``version``."""
        held = await self.copies.fresh(code, version)
        held.room.check_sight(token, self.clock())
        return held

    def view(self, held: Held, token: str | None) -> dict[str, Any]:
        """The room as ``token``'s seats see it now."""
        return self.fanout.view(held, token)

    async def record(self, code: str, token: str | None) -> dict[str, Any]:
        """The room's game record (the fair seed once the game is over); nobody's while sealed, a
        private room's its players' alone."""
        room, now = (await self.copies.fresh(code)).room, self.clock()
        room.check_sight(token, now)
        return room.record_json(now)

    # -- creating ---------------------------------------------------------------
    async def commit(self) -> tuple[str, FairDice]:
        """Fair dice committed to before anyone's client seed is known, kept under the ticket that
        claims them for a new room (once, within `TICKET_SECONDS`)."""
        ticket, dice = secrets.token_urlsafe(18), FairDice()
        now = datetime.fromtimestamp(self.clock(), UTC)
        await to_thread.run_sync(self.kept.commit, ticket, dice.server_seed, now)
        return ticket, dice

    async def create(
        self, body: CreateRoom, profile: Profile | None = None, owner: str | None = None,
        player: str | None = None,
    ) -> tuple[Held, str]:
        """A room for ``body``, kept before it is told; the creator's ``profile`` plays its first
        seat played here; ``owner`` is the creator's address, ``player`` whom the creator plays as
        (`web.players`; by default the address): a cap on rooms in play each."""
        player = player if player is not None else player_of(profile, None, owner)
        self.copies.check_in_touch()  # before a commitment is spent: a room nobody could play yet
        rules = rules_of(body)
        mine = next((i for i, s in enumerate(body.seats) if s.kind == "here"), None) if profile else None
        guest = unnamed(body)
        if guest is not None:
            named = list(body.seats)
            named[guest] = named[guest].model_copy(update={"name": await self._guest_name(player)})
            body = body.model_copy(update={"seats": named})
        for index, seat in enumerate(body.seats):
            if index not in (mine, guest) and seat.kind != "remote":  # a guest's own: checked as chosen
                await self.profiles.check_free(seat.name)
        seats = [
            SeatSpec(kind=s.kind, name=s.name, bot=s.bot, profile=profile if i == mine else None)
            for i, s in enumerate(body.seats)
        ]
        room, token = new_room(  # every refusal of the setup comes before a ticket is spent
            self.copies.new_code(), rules, seats, now=self.clock(), rounds=body.rounds, seed=body.seed,
            hints=body.hints, turn_seconds=self._turn_seconds(body), on_leave=body.on_leave, owner=owner,
            player=player, private=body.private,
        )
        await self.check_space(owner, player)
        room.dice = await self._dice_for(body)
        return await self._open(room), token

    async def open(
        self, rules: Rules, seats: Sequence[SeatSpec], *, owner: str | None, hints: bool = True,
        dice: FairDice | None = None, closes_at: float | None = None, on_leave: OnLeave = "bot",
        player: str | None = None,
    ) -> tuple[Held, str]:
        """A room of the server's own making (a daily challenge's), kept and told; and its token."""
        self.copies.check_in_touch()
        room, token = new_room(
            self.copies.new_code(), rules, seats, now=self.clock(), hints=hints, dice=dice,
            closes_at=closes_at, on_leave=on_leave, owner=owner, player=player,
        )
        return await self._open(room), token

    async def _open(self, room: Room) -> Held:
        """Start a room that is built, keep it, then tell of it."""
        self.copies.check_in_touch()
        room.start_if_ready()
        held = await self.copies.add(room)
        self.ahead(held.room)
        return await self.worker.changed(held)

    async def discard(self, held: Held) -> None:
        """Drop a room just opened whose reason to be fell through (nothing was played in it)."""
        await self.copies.forget([held.code])

    def _turn_seconds(self, body: CreateRoom) -> int | None:
        """The room's clock: as asked (0: none), else the server's default for online rooms."""
        if body.turn_seconds is not None:
            return body.turn_seconds or None
        online = any(seat.kind == "remote" for seat in body.seats)
        return self.settings.turn_seconds if online and self.settings.turn_seconds else None

    async def check_space(self, owner: str | None, player: str | None = None) -> None:
        """Refuse a new room to a player who holds `Settings.max_rooms_per_player` games in play, or
        from an address that holds `Settings.max_rooms_per_client` (in every process: the store counts
        them); a player with no key is their address."""
        player = player if player is not None else player_of(None, None, owner)
        by_player, by_owner = await read(
            self.kept, self.kept.held, token_hash(player) if player is not None else None,
            token_hash(owner) if owner is not None else None,
        )
        if by_player >= self.settings.max_rooms_per_player:
            raise RefusedError(
                Refusal.TOO_MANY,
                "you have {count} games in play on this server already: finish or resign one first",
                count=self.settings.max_rooms_per_player,
            )
        if by_owner >= self.settings.max_rooms_per_client:
            raise RefusedError(
                Refusal.TOO_MANY,
                "your address holds {count} games in play on this server already: finish one first",
                count=self.settings.max_rooms_per_client,
            )

    # -- a player's games in play ----------------------------------------------------
    async def in_play(self, player: str) -> list[dict[str, Any]]:
        """The games ``player`` created that are not over, newest first: enough to find each again
        (its code; the seat token stays with the page that holds it)."""
        rows = await to_thread.run_sync(self.kept.in_play_of, token_hash(player))
        return [in_play_json(row) for row in rows]

    async def holds_seat(self, code: str, token: str | None) -> bool:
        """``token`` acts for some seat of room ``code``."""
        return bool((await self.copies.fresh(code)).room.seats_of(token))

    async def set_private(self, code: str, token: str | None, private: bool) -> Held:
        """The room's creator makes it private (its watchers go) or open to watchers again."""
        held = await self.copies.fresh(code)
        held, _ = await self.copies.change(held, lambda room: room.make_private(token, private))
        return await self.worker.changed(held)

    async def resign(self, code: str, token: str | None, player: str | None) -> Held | None:
        """The seats of ``token`` (or, for the room's creator, ``player``: the seats played at their
        device) leave the game: a bot plays each to the end and the game counts as it stood (`Room.
        resign`). Before the game begins, the creator's seats close the room (None: nothing was played
        in it) and a joiner's seat opens again for another. Seats already left change nothing: the
        room as it stands, nothing written or told."""
        held = await self.copies.fresh(code)
        room = held.room
        seats = room.seats_of(token)
        if not seats and player is not None and room.player == token_hash(player):
            seats = tuple(s.index for s in room.seats if s.kind == "here")
        if not seats:
            raise RefusedError(Refusal.WRONG_SEAT, "this token holds no seat in room {code}", code=code)
        if room.game is None and any(room.seats[seat].kind == "here" for seat in seats):
            await self.copies.forget([held.code])
            return None
        game = room.game
        if game is not None and not game.state.is_over and all(room.seats[seat].stand_in for seat in seats):
            return held
        held, _ = await self.copies.change(held, lambda room: room.leave(seats))
        return await self.worker.changed(held)

    async def _guest_name(self, player: str | None) -> str:
        """The guest's own name (`web.players.guest_name`): their first that no profile holds (a profile
        may be made under any), the same each time."""
        for choice in range(GUEST_NAME_CHOICES - 1):
            name = guest_name(player, choice)
            if await self.profiles.is_free(name):
                return name
        name = guest_name(player, GUEST_NAME_CHOICES - 1)
        await self.profiles.check_free(name)  # the last: refused if a profile holds it, as a name given is
        return name

    async def _dice_for(self, body: CreateRoom) -> FairDice | None:
        """The room's dice: committed under the ticket with the creator's client seed added now,
        fresh ones, or none for a practice room (a chosen seed)."""
        client_seed = check_client_seed(body.client_seed)
        if body.seed is not None:
            if body.ticket is not None or client_seed is not None:
                raise RefusedError(
                    Refusal.MALFORMED, "a practice room rolls from its chosen seed: no ticket, no client seed"
                )
            return None
        if body.ticket is None:
            if client_seed is not None:
                raise RefusedError(
                    Refusal.MALFORMED,
                    "a client seed comes after the server commits: first ask POST /api/commitments",
                )
            return FairDice()
        since = datetime.fromtimestamp(self.clock() - TICKET_SECONDS, UTC)
        server_seed = await to_thread.run_sync(self.kept.claim, body.ticket, since)
        if server_seed is None:
            raise RefusedError(
                Refusal.MALFORMED, "the commitment ticket is unknown or expired: ask for a new one"
            )
        return FairDice(server_seed, [client_seed] if client_seed is not None else [])

    # -- playing ---------------------------------------------------------------
    async def join(
        self, code: str, body: JoinRoom, profile: Profile | None = None, player: str | None = None
    ) -> tuple[Held, str, int]:
        """Take an open seat of room ``code``; the room, the joiner's token and seat. A guest who gives
        no name plays under their own (`web.players.guest_name`) when it says who it is (``player``)."""
        held = await self.copies.fresh(code)
        if profile is None and body.name is None and player is not None:
            body = body.model_copy(update={"name": await self._guest_name(player)})
        elif profile is None:
            await self.profiles.check_free(body.name)
        held, (token, seat) = await self.copies.change(
            held, lambda room: room.join(body.name, client_seed=body.client_seed, profile=profile)
        )
        return await self.worker.changed(held), token, seat

    async def act(self, code: str, token: str | None, action: ActionIn) -> Held:
        """Do a client's action, kept before it is told; a refusal leaves the room as it was. Counted,
        with the time from its receipt to its acknowledgement, once acknowledged (`web.metrics`)."""
        received = time.perf_counter()
        held = await self.copies.fresh(code)
        engine_action = client_action(action)
        held, _ = await self.copies.change(
            held, lambda room: room.act(token, engine_action, action.seat, now=self.clock())
        )
        held = await self.worker.changed(held)
        self.metrics.acted(action.type, time.perf_counter() - received)
        return held

    async def rematch(self, code: str, token: str | None, accept: bool, client_seed: str | None) -> Held:
        """Offer a rematch, or answer one, for the token's seats."""
        held = await self.copies.fresh(code)
        held, _ = await self.copies.change(held, lambda room: room.answer_rematch(
            token, accept, client_seed, now=self.clock(), seconds=self.settings.rematch_seconds
        ))
        if held.room.rematch_due(self.clock()):
            try:
                held = await self.worker.settle_rematch(held)
            except REFUSED:  # the answer is kept (a write failed since): the ticker settles it later
                log.warning("room %s: the rematch waits to be settled", held.code)
                held = self.copies.find(held.code) or held
        self.fanout.broadcast(held)
        return held
