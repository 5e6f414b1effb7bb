"""Provably fair dice: the server commits to a secret seed before play, anyone checks every die after.

Before the first roll the server publishes ``commitment = sha256(server_seed)``
(a 32-byte seed from `secrets`); each player may add a client seed of their
own. Die number *k* of the game (counted from 0 over every die rolled, the
roll-off's included) is read from

    digest = HMAC-SHA256(key=server_seed, message="{client seeds joined by ','}:{k}")

taking its first byte below 252 as ``byte % 6 + 1`` (252 = 6 * 42, so each face
has probability exactly 1/6); in the (2⁻¹⁹²) case that all 32 bytes are 252 or
more, the next digest is HMAC-SHA256(server_seed, digest), and so on. The seed
is revealed when the game ends: with it, the commitment and the client seeds,
every die can be recomputed (`verify` in `core.record`).

The daily challenge counts its dice by roll instead (``hmac-sha256-rolls-v1``):
die *j* of roll *r* is die ``2r + j`` above, whether the roll has one die or two,
so everyone who plays the day sees the same roll *r* whatever they chose before.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError, quoted

__all__ = [
    "ALGORITHM",
    "BY_ROLL",
    "FairDice",
    "Fairness",
    "check_client_seed",
    "commitment_of",
    "die",
    "face_of",
]

ALGORITHM = "hmac-sha256-v1"
BY_ROLL = "hmac-sha256-rolls-v1"
"""The daily challenge's: die ``j`` of roll ``r`` is die ``2r + j``."""
ALGORITHMS = (ALGORITHM, BY_ROLL)
SEED_BYTES = 32
LIMIT = 252
"""The largest multiple of 6 not above 256: bytes below it give each face 42 times."""
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A client seed: 1 to 64 letters, digits, '-' or '_' (never ',' or ':', which join the message)."""


def check_client_seed(seed: str) -> str:
    """``seed`` if it is a valid client seed, else a `ParseError` saying what one is."""
    if not isinstance(seed, str) or not CLIENT_SEED.fullmatch(seed):
        raise ParseError(
            "client seed {seed!r} must be 1 to 64 letters, digits, '-' or '_'", seed=quoted(seed)
        )
    return seed


def commitment_of(server_seed: bytes) -> str:
    """The published promise: the SHA-256 of the server seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def face_of(digests: Iterator[bytes]) -> int:
    """The face given by the first byte below 252 of the digests, in order."""
    for digest in digests:
        for byte in digest:
            if byte < LIMIT:
                return byte % 6 + 1
    raise ParseError("the digests ran out before a byte below 252")  # never for an endless chain


def _digests(server_seed: bytes, message: bytes) -> Iterator[bytes]:
    digest = hmac.digest(server_seed, message, "sha256")
    while True:
        yield digest
        digest = hmac.digest(server_seed, digest, "sha256")


def die(server_seed: bytes, client_seeds: Sequence[str], k: int) -> int:
    """Die number ``k`` (from 0) of a game with these seeds."""
    message = f"{','.join(client_seeds)}:{k}".encode("ascii")
    return face_of(_digests(server_seed, message))


@dataclass(frozen=True, slots=True)
class Fairness:
    """What a fair game publishes: algorithm, commitment, client seeds, and at the end the seed."""

    commitment: str
    client_seeds: tuple[str, ...] = ()
    server_seed: str | None = None  # hex; null until the game ends
    algorithm: str = ALGORITHM

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "commitment": self.commitment,
            "client_seeds": list(self.client_seeds),
            "server_seed": self.server_seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> Fairness:
        """Read the ``fairness`` object of a record or a room, checking its shape."""
        if not isinstance(data, dict) or set(data) != {
            "algorithm", "commitment", "client_seeds", "server_seed"
        }:
            raise ParseError(
                "fairness must be an object with algorithm, commitment, client_seeds and server_seed, "
                "not {data!r}", data=quoted(data),
            )
        if data["algorithm"] not in ALGORITHMS:
            raise ParseError(
                "fairness algorithm {algorithm!r} is not known (only {known})",
                algorithm=quoted(data["algorithm"]), known=", ".join(ALGORITHMS),
            )
        commitment, seeds, seed = data["commitment"], data["client_seeds"], data["server_seed"]
        if not _is_hex(commitment, 32):
            raise ParseError(
                "fairness commitment must be 64 hex digits, not {value!r}", value=quoted(commitment)
            )
        if seed is not None and not _is_hex(seed, SEED_BYTES):
            raise ParseError(
                "fairness server_seed must be 64 hex digits or null, not {value!r}", value=quoted(seed)
            )
        if not isinstance(seeds, list):
            raise ParseError("fairness client_seeds must be a list, not {value!r}", value=quoted(seeds))
        return cls(commitment, tuple(check_client_seed(s) for s in seeds), seed, data["algorithm"])

    @property
    def revealed(self) -> bool:
        return self.server_seed is not None

    @property
    def honest(self) -> bool:
        """The revealed seed is the one committed to."""
        return self.server_seed is not None and hmac.compare_digest(
            commitment_of(bytes.fromhex(self.server_seed)), self.commitment
        )

    def hidden(self) -> Fairness:
        """The same facts with the seed kept back (while the game is played)."""
        return replace(self, server_seed=None)

    def dice(self) -> FairDice:
        """The dice this revealed seed gives, from the first die on."""
        if self.server_seed is None:
            raise ParseError("the server seed is not revealed yet: the dice cannot be recomputed")
        return FairDice(bytes.fromhex(self.server_seed), self.client_seeds, by_roll=self.algorithm == BY_ROLL)


def _is_hex(value: Any, size: int) -> bool:
    return isinstance(value, str) and re.fullmatch(f"[0-9a-f]{{{2 * size}}}", value) is not None


class FairDice:
    """A `DiceSource` under the fair scheme: die after die from the server seed and the client seeds."""

    def __init__(
        self, server_seed: bytes | None = None, client_seeds: Sequence[str] = (), *, by_roll: bool = False
    ) -> None:
        """``server_seed``: 32 bytes (fresh from `secrets` when not given); ``by_roll``: dice counted
        by roll, as the daily challenge's (see the module)."""
        self.server_seed = secrets.token_bytes(SEED_BYTES) if server_seed is None else server_seed
        if len(self.server_seed) != SEED_BYTES:
            raise ParseError("a server seed has {size} bytes, not {count}", size=SEED_BYTES,
                             count=len(self.server_seed))
        self.commitment = commitment_of(self.server_seed)
        """The published promise (made once: every state a server sends shows it)."""
        self.client_seeds = tuple(check_client_seed(seed) for seed in client_seeds)
        self.by_roll = by_roll
        self.rolled = 0
        """How many dice were drawn (by die, the number of the next one)."""
        self.rolls = 0
        """How many rolls were made."""

    def roll(self, count: int) -> Roll:
        first = 2 * self.rolls if self.by_roll else self.rolled
        self.rolled += count
        self.rolls += 1
        return Roll(tuple(die(self.server_seed, self.client_seeds, k) for k in range(first, first + count)))

    def add_client_seed(self, seed: str) -> None:
        """A player's own seed, taken before the first die is drawn."""
        if self.rolled:
            raise ParseError("client seeds are added before the first roll")
        self.client_seeds = (*self.client_seeds, check_client_seed(seed))

    def fairness(self, *, reveal: bool) -> Fairness:
        """The published facts; the seed itself only when ``reveal`` (the game is over)."""
        return Fairness(
            self.commitment,
            self.client_seeds,
            self.server_seed.hex() if reveal else None,
            BY_ROLL if self.by_roll else ALGORITHM,
        )

    def kept(self) -> dict[str, Any]:
        """What a store keeps to draw the same dice again (the seed is secret until revealed)."""
        kept: dict[str, Any] = {"server_seed": self.server_seed.hex(), "client_seeds": [*self.client_seeds]}
        return {**kept, "by_roll": True} if self.by_roll else kept

    @classmethod
    def from_kept(cls, kept: dict[str, Any]) -> FairDice:
        """The dice `kept` describes, from their first die."""
        seed = bytes.fromhex(kept["server_seed"])
        return cls(seed, kept["client_seeds"], by_roll=bool(kept.get("by_roll")))

    @property
    def bot_seed(self) -> str:
        """A seed for the bots' generators that tells nothing of the dice (one-way from the seed)."""
        return hmac.new(self.server_seed, b"bots", hashlib.sha256).hexdigest()
