"""What the edge reads strictly, and how it says what is wrong without repeating the input.

A JSON body is read once, strictly (`strict_json`): UTF-8, finite numbers, whole numbers within 64
bits, bounded nesting; a WebSocket message has a bounded size (`frame_too_large`). A validation error
is said naming the fields wrong (`safe_errors`, `describe`), a key the client made up quoted and cut
short, and never the value sent (docs/security.md, "Read secrets, or be misled, in what an error
repeats"); what a person's form could send is said as a sentence (`plain_refusal`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.schemas import MAX_ROUNDS, MIN_TURN_SECONDS
from shutthebox.web.settings import Settings

__all__ = ["INT64", "describe", "frame_too_large", "plain_refusal", "safe_errors", "strict_json"]

INT64 = (-(2**63), 2**63 - 1)
"""The whole numbers the edge lets through: what a database integer holds."""
_WORD = re.compile(r"[A-Za-z0-9_-]{1,20}")
_UNKNOWN_TAG = "Input tag found using {discriminator} does not match any of the expected tags: {tags}"


class _NotFiniteError(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFiniteError
    return value


def _no_constant(_text: str) -> float:
    raise _NotFiniteError


class _TooBig:
    """A whole number beyond 64 bits, kept unread until the walk finds where it stands."""


_TOO_BIG = _TooBig()


def _int64(text: str) -> int | _TooBig:
    if len(text.lstrip("+-")) > 19:  # checked before int(): a 5,000-digit number costs nothing
        return _TOO_BIG
    value = int(text)
    return value if INT64[0] <= value <= INT64[1] else _TOO_BIG


def _walk(value: object) -> tuple[int, tuple[object, ...] | None]:
    """How deep lists and objects nest in ``value`` (a scalar: 0), and where a number too big stands."""
    deepest, too_big = 0, None
    stack: list[tuple[object, int, tuple[object, ...]]] = [(value, 1, ())]
    while stack:
        item, level, where = stack.pop()
        children: Iterable[tuple[object, object]]
        if isinstance(item, dict):
            children = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            if item is _TOO_BIG and too_big is None:
                too_big = where
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1, (*where, key)) for key, child in children)
    return deepest, too_big


def strict_json(raw: bytes, *, max_depth: int) -> object:
    """``raw`` read as JSON the way the API accepts it, or `RefusedError` ``malformed`` saying why
    (never quoting it): UTF-8, no ``NaN`` or ``Infinity``, whole numbers within 64 bits, nested
    at most ``max_depth`` deep."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RefusedError(Refusal.MALFORMED, "the body is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_int64)
    except _NotFiniteError:
        raise RefusedError(
            Refusal.MALFORMED, "numbers in the body must be finite (no NaN or Infinity)",
        ) from None
    except RecursionError:  # nested deeper than Python's recursion limit: certainly too deep
        raise RefusedError(
            Refusal.MALFORMED, "the body nests deeper than {depth} levels", depth=max_depth,
        ) from None
    except json.JSONDecodeError as error:
        raise RefusedError(
            Refusal.MALFORMED, "the body is not valid JSON (line {line}, column {column})",
            line=error.lineno, column=error.colno,
        ) from None
    depth, too_big = _walk(value)
    if depth > max_depth:
        raise RefusedError(Refusal.MALFORMED, "the body nests deeper than {depth} levels", depth=max_depth)
    if too_big is not None:
        where = ".".join(str(_place(part)) for part in ("body", *too_big))
        raise RefusedError(
            Refusal.MALFORMED, "{where}: whole numbers must lie between {low} and {high}",
            where=where, low=INT64[0], high=INT64[1],
        )
    return value


def frame_too_large(raw: str | bytes | None, limit: int = Settings.max_frame_bytes) -> bool:
    """Whether a WebSocket message (text or bytes) is over ``limit`` bytes."""
    if raw is None:
        return False
    if isinstance(raw, bytes) or len(raw) > limit or 4 * len(raw) <= limit:
        return len(raw) > limit
    return len(raw.encode("utf-8", "surrogatepass")) > limit


def safe_errors(errors: Iterable[Any]) -> list[dict[str, Any]]:
    """Pydantic's errors without the input they repeat: no ``input``, a key the client made up
    quoted and cut short, and a ``type`` tag it sent quoted only if it is a short word (else the
    one message that repeats it is said without it)."""
    safe = []
    for error in errors:
        item = {k: v for k, v in error.items() if k not in ("input", "url")}
        item["loc"] = [_place(part) for part in error.get("loc", ())]
        context = dict(item.get("ctx") or {})
        if "tag" in context and _WORD.fullmatch(str(context["tag"])) is None:
            context.pop("tag")
            item["msg"] = _UNKNOWN_TAG.format(
                discriminator=context.get("discriminator", "the discriminator"),
                tags=context.get("expected_tags", ""),
            )
        if context:
            item["ctx"] = {k: v if isinstance(v, int | float) else _short(str(v)) for k, v in context.items()}
        else:
            item.pop("ctx", None)
        item["msg"] = _short(str(item.get("msg", "")), 200)  # a validator's own words may quote the input
        safe.append(item)
    return safe


def plain_refusal(errors: list[dict[str, Any]]) -> RefusedError | None:
    """The refusal of a body a person's form could send, said as a sentence in the reader's language
    (not Pydantic's words): too many players, rounds out of range, a turn clock too short, a name too
    long, a room code too long for any room (404, as one no room has). None for anything else."""
    for error in errors:
        loc = [part for part in error["loc"] if part != "body"]
        context = error.get("ctx") or {}
        field = loc[-1] if loc else None
        if loc == ["seats"] and error["type"] == "too_long":
            return RefusedError(
                Refusal.MALFORMED, "a game has at most {high} players, not {count}",
                high=context.get("max_length"), count=context.get("actual_length"),
            )
        if loc == ["rounds"] and error["type"] in ("less_than_equal", "greater_than_equal"):
            return RefusedError(Refusal.MALFORMED, "a game has from 1 to {high} rounds", high=MAX_ROUNDS)
        if loc == ["path", "code"]:  # longer than any code: as a room code that names no room (a miss)
            return RefusedError(Refusal.NOT_FOUND, "there is no room with this code")
        if loc == ["turn_seconds"] and error["type"] == "value_error":  # the schema's own check, in English
            return RefusedError(
                Refusal.MALFORMED, "a turn clock gives at least {low} seconds (or 0 for none)",
                low=MIN_TURN_SECONDS,
            )
        if field == "name" and error["type"] == "string_too_long":
            high = context.get("max_length")
            return RefusedError(Refusal.MALFORMED, "a name has at most {high} characters", high=high)
    return None


def describe(errors: Iterable[dict[str, Any]]) -> str:
    """One line naming each field that is wrong (of `safe_errors`)."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in errors)


def _place(part: object) -> object:
    """A part of where an error stands: a field's name as it is when it is a word (all of the
    API's are), else quoted as ``repr`` writes it (a key the client made up may hold any
    character) and cut short."""
    if isinstance(part, str) and _WORD.fullmatch(part) is None:
        return _short(repr(part))
    return part


def _short(part: object, limit: int = 40) -> object:
    if isinstance(part, str) and len(part) > limit:
        return part[: limit - 1] + "…"
    return part
