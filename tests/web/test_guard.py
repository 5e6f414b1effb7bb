"""The edge (`web.guard`): sizes, strict JSON, tokens, rate limits per address, origins, quiet logs."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket as socket_module
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from limits import RateLimitItem, parse
from limits.errors import StorageError
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

from shutthebox.ops.throwaway import free_port
from shutthebox.web import Settings, create_app
from shutthebox.web.guard import Guard, RedactTokens, redact
from shutthebox.web.hosts import host_allowed, same_origin
from shutthebox.web.rates import LEASE_SHARE, Leased, MovingWindows, RateLimits, SharedOrOwn, client_address
from shutthebox.web.refusals import RefusedError
from shutthebox.web.settings import LOOPBACK_HOSTS, default_hosts
from shutthebox.web.strict import frame_too_large, strict_json
from tests.support.serving import running
from tests.support.web import create

SMALL = 1024
JSON = {"Content-Type": "application/json"}
GUESSES = ["AAAAA", "BBBBB"] * 3


def addressed(app: ASGIApp) -> ASGIApp:
    """``app`` seen from the address an ``X-Client`` header names, as uvicorn would set it."""

    async def shim(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == b"x-client":
                    scope = {**scope, "client": (value.decode(), 40000)}
        await app(scope, receive, send)

    return shim


@contextmanager
def guarded(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """A test client of an app with these settings; ``X-Client`` picks the client's address."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'guard.db'}", bot_delay=0, **settings))
    with TestClient(addressed(app)) as client:
        yield client


def at(address: str) -> dict[str, str]:
    return {"X-Client": address}


def refused(response: Any, status: int, error: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == error and isinstance(body["detail"], str) and body["detail"]
    return body


# -- bodies -----------------------------------------------------------------------
def test_a_body_over_the_limit_is_413_and_not_echoed(tmp_path: Path) -> None:
    with guarded(tmp_path, max_body_bytes=SMALL) as client:
        name = "A" * (4 * SMALL)
        response = client.post("/api/profiles", json={"name": name})
        body = refused(response, 413, "too-large")
        assert str(SMALL) in body["detail"]
        assert len(response.content) < 200 and "AAAA" not in response.text
        assert client.post("/api/profiles", json={"name": "Ana"}).status_code == 201


async def test_a_streamed_body_is_read_no_further_than_the_limit() -> None:
    """No Content-Length: the guard counts the chunks and stops at the first one past the limit."""
    reached: list[Scope] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope)

    guard = Guard(app, Settings(max_body_bytes=SMALL))
    chunks = [{"type": "http.request", "body": b"x" * 300, "more_body": True} for _ in range(100)]
    read = 0

    async def receive() -> Message:
        nonlocal read
        read += 1
        return chunks[read - 1]

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http", "method": "POST", "path": "/api/profiles", "query_string": b"",
        "headers": [(b"content-type", b"application/json")], "client": ("10.0.0.1", 1),
    }
    await guard(scope, receive, send)
    assert read == 4  # 1,200 bytes: the first chunk over 1,024
    assert sent[0]["status"] == 413 and not reached
    assert json.loads(sent[1]["body"])["error"] == "too-large"


async def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("the app must not be reached")

    async def receive() -> Message:
        raise AssertionError("the body must not be read")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http", "method": "POST", "path": "/api/rooms", "query_string": b"",
        "headers": [(b"content-length", b"10000000")], "client": ("10.0.0.1", 1),
    }
    await Guard(app, Settings())(scope, receive, send)
    assert sent[0]["status"] == 413


@pytest.mark.parametrize(
    "text",
    [
        '{"name": NaN}', '{"name": Infinity}', '{"name": -Infinity}', '{"name": 1e999}',
        '{"seats": [{"name": "Ana"}], "rules": {"tiles": -1e400}}',
    ],
)
def test_numbers_that_are_not_finite_are_422(tmp_path: Path, text: str) -> None:
    with guarded(tmp_path) as client:
        path = "/api/rooms" if "seats" in text else "/api/profiles"
        response = client.post(path, content=text, headers=JSON)
        assert "finite" in refused(response, 422, "malformed")["detail"]


def test_whole_numbers_beyond_64_bits_are_422_where_they_stand(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        digits = "9" * 5000  # past Python's own limit of 4,300 digits: no 500 either
        for number in [str(2**63), str(-(2**63) - 1), digits]:
            text = f'{{"seats": [{{"name": "Ana"}}], "rules": {{"tiles": {number}}}}}'
            response = client.post("/api/rooms", content=text, headers=JSON)
            detail = refused(response, 422, "malformed")["detail"]
            assert "body.rules.tiles" in detail and "9223372036854775807" in detail
            assert digits not in response.text
        refused(client.get(f"/api/games?offset={2**63}"), 422, "malformed")
        refused(client.get(f"/api/games/{2**64}"), 422, "malformed")
        refused(client.get(f"/api/games/-{digits}/review"), 422, "malformed")
        assert client.get(f"/api/games?offset={2**63 - 1}").status_code == 200


def test_a_name_of_digits_is_words_and_numbers_are_bounded_where_they_are_read(tmp_path: Path) -> None:
    """Regression: the edge read every digit-only string in the address as a number, so a valid
    name of 20 digits (or a preset, a source) was refused 422 before any route saw it."""
    digits = "1" * 20
    with guarded(tmp_path) as client:
        assert client.post("/api/profiles", json={"name": digits}).status_code == 201
        for part in ("bests", "history", "stats"):
            answer = client.get(f"/api/players/{digits}/{part}")
            assert answer.status_code == 200, answer.text
        assert client.get("/api/players/" + "9" * 30 + "/bests").json()["player"] == "9" * 30
        assert client.get("/api/games", params={"player": digits, "source": digits}).json()["games"] == []
        for option in ("preset", "one_die"):  # refused for what they are: no such preset, no such rule
            answer = client.get("/api/leaderboard", params={option: digits})
            assert "whole numbers" not in refused(answer, 422, "malformed")["detail"]
        refused(client.get("/api/games", params={"limit": "9" * 30}), 422, "malformed")
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        for since in (str(2**63), "9" * 5000, "-1"):
            url = f"/api/rooms/{table.code}/ws?token={table.token}&since={since}"
            with client.websocket_connect(url) as ws:
                refusal, code = closed_with(ws)
                assert (refusal["error"], code) == ("malformed", 4422)
                assert "since" in refusal["detail"] and since not in refusal["detail"]
        with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={table.token}&since=1") as ws:
            assert ws.receive_json()["state"]["you"] == [0]


def test_nesting_deeper_than_the_bound_is_422(tmp_path: Path) -> None:
    with guarded(tmp_path, max_json_depth=8) as client:
        for depth in [9, 5000, 30000]:
            text = '{"name": ' + "[" * depth + "]" * depth + "}"
            response = client.post("/api/profiles", content=text, headers=JSON)
            assert "deeper than 8" in refused(response, 422, "malformed")["detail"]
        shallow = '{"seats": [{"name": "Ana"}]}'
        response = client.post("/api/rooms", content=shallow, headers=JSON)
        assert response.status_code == 201


def test_invalid_utf8_and_invalid_json_are_422_without_echo(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        response = client.post("/api/profiles", content=b'{"name": "\xff\xfe"}')
        assert "UTF-8" in refused(response, 422, "malformed")["detail"]
        secret = "zebra-" * 50
        response = client.post(
            "/api/profiles", content=f'{{"name": "{secret}" ', headers=JSON
        )
        assert "line 1" in refused(response, 422, "malformed")["detail"]
        assert "zebra" not in response.text


def test_validation_errors_do_not_echo_the_input(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        url = f"/api/rooms/{table.code}/actions"
        response = client.post(url, json={"type": "q" * 500}, headers=table.headers)
        refused(response, 422, "malformed")
        assert "qqqq" not in response.text and "'roll'" in response.text
        response = client.post(url, json={"type": "roll", "k" * 500: 1}, headers=table.headers)
        refused(response, 422, "malformed")
        assert "k" * 60 not in response.text
        response = client.post(url, json={"type": "jump"}, headers=table.headers)
        assert "'jump'" in refused(response, 422, "malformed")["detail"]  # a short word is named


def test_a_refusal_repeats_a_typed_name_quoted_and_cut_and_never_a_secret(tmp_path: Path) -> None:
    """Regression: the security page said refusals never repeat the input, but they repeat names
    (all 200 characters of one), the client's own keys unescaped, and a trainer puzzle's key, where
    a profile key sent by mistake came back whole."""
    with guarded(tmp_path) as client:
        long = refused(client.post("/api/profiles", json={"name": "A" * 200}), 422, "malformed")
        assert "'" + "A" * 47 + "…'" in long["detail"] and "A" * 48 not in long["detail"]
        key = client.post("/api/profiles", json={"name": "Ana"}).json()["key"]
        alike = refused(client.post("/api/profiles", json={"name": "ana"}), 409, "name-taken")
        assert "'ana'" in alike["detail"] and "'Ana'" in alike["detail"]  # what to mend: worth saying
        hidden = refused(client.post("/api/profiles", json={"name": "Ana\u202egnp.exe"}), 422, "malformed")
        assert "'Ana\\u202egnp.exe'" in hidden["detail"] and "\u202e" not in hidden["detail"]
        bearer = {"Authorization": f"Bearer {key}"}
        puzzle = client.post("/api/train", json={"key": key, "dice": 1}, headers=bearer)
        assert key not in refused(puzzle, 422, "malformed")["detail"] and key not in puzzle.text
        table, _ = create(client, seats=[{"name": "Luis"}], seed=1)
        made_up = client.post(f"/api/rooms/{table.code}/actions", json={"type": "roll", "\u202e": 1},
                              headers=table.headers)
        assert "'\\u202e'" in refused(made_up, 422, "malformed")["detail"] and "\u202e" not in made_up.text
        for secret in (key, table.token):
            for answer in (
                client.get("/api/profiles/me", headers={"Authorization": f"Bearer {secret}x"}),
                client.post("/api/rooms", json={"seats": [{"name": "Eva"}], "ticket": secret}),
                client.get(f"/api/rooms/{table.code}/hint", headers={"Authorization": f"Bearer {secret}x"}),
            ):
                assert answer.status_code >= 400 and secret not in answer.text, answer.text


@pytest.mark.parametrize("header", ["Bearer é".encode(), b"Bearer \x00abc", b"Bearer " + b"a" * 600])
def test_a_token_that_is_not_printable_ascii_is_422(tmp_path: Path, header: bytes) -> None:
    with guarded(tmp_path) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        for response in [
            client.get(f"/api/rooms/{table.code}", headers={"Authorization": header}),
            client.get("/api/profiles/me", headers={"Authorization": header}),
        ]:
            refused(response, 422, "malformed")
            assert "é" not in response.text and "aaaa" not in response.text


@pytest.mark.parametrize(
    ("body", "english", "spanish"),
    [
        ({"seats": [{"name": f"P{n}"} for n in range(9)]}, "a game has at most 8 players, not 9",
         "una partida tiene como mucho 8 jugadores, no 9"),
        ({"seats": [{"name": "Ana"}], "rounds": 21}, "a game has from 1 to 20 rounds",
         "una partida tiene de 1 a 20 rondas"),
        ({"seats": [{"name": "A" * 201}]}, "a name has at most 200 characters",
         "un nombre tiene como mucho 200 caracteres"),
    ],
)
def test_what_a_setup_form_could_send_wrong_is_refused_in_a_sentence(
    tmp_path: Path, body: dict[str, Any], english: str, spanish: str
) -> None:
    """Regression: these were Pydantic's words ("body.seats: List should have at most 8 items…")."""
    with guarded(tmp_path) as client:
        for lang, sentence in (("en", english), ("es", spanish)):
            response = client.post("/api/rooms", json=body, headers={"Accept-Language": lang})
            assert refused(response, 422, "malformed")["detail"] == sentence


def test_the_setup_ranges_the_catalog_gives_are_the_ones_the_server_takes(tmp_path: Path) -> None:
    """The form offers only what the server accepts: each range's ends are taken, one beyond is refused."""
    with guarded(tmp_path) as client:
        catalog = client.get("/api/rules").json()
        players, rounds = catalog["players"], catalog["rounds"]
        stake, limit = catalog["options"]["stake"], catalog["options"]["limit"]

        def status(n_seats: int = 2, n_rounds: int = 1, **rules: int) -> int:
            seats = [{"name": f"P{n}"} for n in range(n_seats)]
            body = {"seats": seats, "rounds": n_rounds, "rules": rules, "preset": "classic"}
            answer = client.post("/api/rooms", json=body, headers=at(f"10.1.{n_seats}.{n_rounds}"))
            code: int = answer.status_code
            return code

        assert status(players["max"]) == 201 and status(players["max"] + 1) == 422
        assert status(n_rounds=rounds["max"]) == 201 and status(n_rounds=rounds["max"] + 1) == 422
        assert status(stake=stake["max"]) == 201 and status(stake=stake["max"] + 1) == 422
        assert status(limit=limit["max"]) == 201 and status(limit=limit["max"] + 1) == 422
        assert players["min"] == rounds["min"] == limit["min"] == 1 and stake["min"] == 0


def test_strict_json_reads_what_the_api_takes() -> None:
    assert strict_json(b'{"a": [1, 2.5, "x", null, true]}', max_depth=2) == {"a": [1, 2.5, "x", None, True]}
    assert strict_json(str(2**63 - 1).encode(), max_depth=1) == 2**63 - 1
    with pytest.raises(RefusedError, match="deeper than 1"):
        strict_json(b"[[1]]", max_depth=1)
    with pytest.raises(RefusedError, match=r"body\.a\.1"):
        strict_json(b'{"a": [0, 99999999999999999999]}', max_depth=4)


def test_frame_too_large_counts_bytes() -> None:
    assert not frame_too_large(None, 4)
    assert not frame_too_large("abcd", 4) and frame_too_large("abcde", 4)
    assert frame_too_large("éé©", 4)  # 7 bytes in UTF-8
    assert frame_too_large(b"12345", 4) and not frame_too_large(b"1234", 4)


def test_the_app_still_takes_bodies_and_streams_after_the_guard(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        response = client.post("/api/profiles", json={"name": "Ana"})
        assert response.status_code == 201
        with client.stream("GET", "/api/rules") as streamed:
            assert streamed.status_code == 200 and json.loads(streamed.read())


# -- rate limits ------------------------------------------------------------------------
def test_over_a_rate_limit_is_429_with_retry_after_and_other_addresses_go_on(tmp_path: Path) -> None:
    with guarded(tmp_path, rate_profiles="3/minute") as client:
        for n in range(3):
            made = client.post("/api/profiles", json={"name": f"Ana{n}"}, headers=at("10.1.1.1"))
            assert made.status_code == 201
        response = client.post("/api/profiles", json={"name": "Ana9"}, headers=at("10.1.1.1"))
        refused(response, 429, "too-many")
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        assert response.headers["Retry-After"] in response.json()["detail"]
        assert client.post("/api/profiles", json={"name": "Luis"}, headers=at("10.1.1.2")).status_code == 201
        loopback = at("127.0.0.1")
        here = [client.post("/api/profiles", json={"name": f"L{n}"}, headers=loopback) for n in range(4)]
        assert [r.status_code for r in here] == [201, 201, 201, 429]  # loopback is no exception


def test_rooms_and_commitments_have_a_budget_each(tmp_path: Path) -> None:
    with guarded(tmp_path, rate_rooms="2/minute") as client:
        body = {"seats": [{"name": "Ana"}]}
        codes = [client.post("/api/rooms", json=body, headers=at("10.2.0.1")).status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        tickets = [client.post("/api/commitments", headers=at("10.2.0.1")).status_code for _ in range(3)]
        assert tickets == [201, 201, 429]
        assert client.post("/api/rooms", json=body, headers=at("10.2.0.2")).status_code == 201


def test_joining_has_its_budget(tmp_path: Path) -> None:
    with guarded(tmp_path, rate_joins="2/minute") as client:
        table, _ = create(client, seats=[{"name": "Ana"}] + [{"kind": "remote"}] * 4)
        join = f"/api/rooms/{table.code}/join"
        joins = [client.post(join, json={"name": f"P{n}"}, headers=at("10.3.0.1")) for n in range(3)]
        assert [r.status_code for r in joins] == [200, 200, 429]
        assert client.post(join, json={"name": "Q"}, headers=at("10.3.0.2")).status_code == 200


def test_guessing_room_codes_is_slow(tmp_path: Path) -> None:
    """Each code that names no room spends the misses budget; once spent, no room answers that address."""
    with guarded(tmp_path, rate_room_misses="5/minute") as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        guesses = [client.get(f"/api/rooms/{code}", headers=at("10.4.0.1")) for code in GUESSES]
        assert [r.status_code for r in guesses] == [404] * 5 + [429]
        refused(client.get(f"/api/rooms/{table.code}", headers=at("10.4.0.1")), 429, "too-many")
        with client.websocket_connect(f"/api/rooms/{table.code}/ws", headers=at("10.4.0.1")) as ws:
            assert ws.receive_json()["error"] == "too-many"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        assert client.get(f"/api/rooms/{table.code}", headers=at("10.4.0.2")).status_code == 200


def test_requests_naming_a_room_have_a_budget(tmp_path: Path) -> None:
    with guarded(tmp_path, rate_room_requests="4/minute") as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        codes = [client.get(f"/api/rooms/{table.code}", headers=at("10.5.0.1")).status_code for _ in range(5)]
        assert codes == [200] * 4 + [429]
        assert client.get("/api/rules", headers=at("10.5.0.1")).status_code == 200  # no room named


def test_the_budgets_are_counted_per_address_an_ipv6_one_by_its_network() -> None:
    def scope(host: str) -> Scope:
        return {"client": (host, 1)}

    assert client_address(scope("10.0.0.7")) == "10.0.0.7"
    assert client_address(scope("2001:db8:1:2:aaaa::1")) == client_address(scope("2001:db8:1:2:bbbb::9"))
    assert client_address(scope("2001:db8:1:2::1")) != client_address(scope("2001:db8:1:3::1"))
    assert client_address(scope("::ffff:10.0.0.7")) == "10.0.0.7"
    assert client_address({"client": None}) == "unknown"


def test_the_rate_limit_settings_are_checked_at_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", rate_joins="often"))


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 30), st.booleans()), max_size=60), st.integers(1, 4))
def test_moving_windows_count_as_the_definition_says(steps: list[tuple[float, bool]], amount: int) -> None:
    """A second method: keep every counted hit and count those inside the window at each step."""
    item = parse(f"{amount}/minute")
    clock = FakeClock()
    windows = MovingWindows(clock)
    counted: list[float] = []
    for pause, spend in steps:
        clock.now += pause
        inside = sorted(t for t in counted if t > clock.now - 60)
        expected = None if len(inside) < amount else inside[-amount] + 60 - clock.now
        assert windows.wait(item, "room", "10.0.0.1") == expected
        assert windows.wait(item, "room", "10.0.0.2") is None  # another address counts apart
        if spend:
            windows.hit(item, "room", "10.0.0.1")
            if len(inside) < amount:  # a hit over the budget is not counted, as in `limits`
                counted.append(clock.now)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 3), st.sampled_from(["10.0.0.1", "10.0.0.2"]), st.booleans(),
                       st.booleans()), max_size=80),
    st.integers(1, 4), st.integers(1, 6),
)
def test_a_take_of_several_windows_in_one_pass_answers_as_testing_each_then_spending(
    steps: list[tuple[float, str, bool, bool]], per_second: int, per_minute: int,
) -> None:
    """`MovingWindows.take_all` (a socket's every message) against the two-pass way it replaced:
    every window tested, the first full one's wait answered, else one hit on each spent budget."""
    items = [(parse(f"{per_second}/second"), "room"), (parse(f"{per_minute}/minute"), "room"),
             (parse("3/second"), "solver")]
    clock = FakeClock()
    one_pass, two_passes = MovingWindows(clock), MovingWindows(clock)
    for pause, address, spend_room, spend_solver in steps:
        clock.now += pause
        spent = [name for name, yes in (("room", spend_room), ("solver", spend_solver)) if yes]
        expected = next((s for item, name in items if (s := two_passes.wait(item, name, address))), None)
        if expected is None:
            for item, name in items:
                if name in spent:
                    two_passes.hit(item, name, address)
        assert one_pass.take_all(items, spent, address) == expected
        assert {k: list(v) for k, v in one_pass._hits.items() if v} == {
            k: list(v) for k, v in two_passes._hits.items() if v
        }


def test_moving_windows_forget_addresses_whose_hits_have_all_left_their_window() -> None:
    item = parse("5/second")
    clock = FakeClock()
    windows = MovingWindows(clock)
    for n in range(1000):
        windows.hit(item, "room", f"10.0.{n // 256}.{n % 256}")
    assert len(windows._hits) == 1000
    clock.now += MovingWindows.SWEEP_SECONDS
    windows.hit(item, "room", "10.9.9.9")
    assert len(windows._hits) == 1


def test_the_rate_limits_start_no_thread_whatever_the_number_of_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the `limits` memory storage started a thread every 10 ms rescanning every
    client's windows, a cost that grew with each client (a sixth of the server's time at 200)."""
    started: list[threading.Thread] = []
    start = threading.Thread.start

    def counted_start(thread: threading.Thread) -> None:
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted_start)
    limits = RateLimits(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}"))
    for n in range(300):
        asyncio.run(limits.spend(["room", "misses"], f"10.0.{n // 256}.{n % 256}"))
        time.sleep(0.0005)
    assert asyncio.run(limits.take(["room"], [], "10.0.0.1")) is None
    assert started == []


def test_the_rate_limits_count_in_this_process_while_their_shared_storage_is_away_and_say_it_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis is away (nobody listens on its port): the budgets still hold, counted here; no request
    fails for it, and the log says it once, not once a request."""
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with caplog.at_level(logging.WARNING, "shutthebox.web.guard"), \
            guarded(tmp_path, rate_limit_storage=nowhere, rate_room_requests="4/minute") as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        codes = [client.get(f"/api/rooms/{table.code}", headers=at("10.6.0.1")).status_code for _ in range(6)]
        assert codes == [200] * 4 + [429] * 2
        assert client.get(f"/api/rooms/{table.code}", headers=at("10.6.0.2")).status_code == 200
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1 and "in this process alone" in said[0], said


class Flaky:
    """Shared windows whose storage answers or not, as the test says; counting like memory's."""

    def __init__(self, clock: FakeClock) -> None:
        self.answers = True
        self.calls = 0
        self._windows = MovingWindows(clock)

    def _call(self) -> None:
        self.calls += 1
        if not self.answers:
            raise StorageError(ConnectionError("Redis is away"))

    async def wait(self, item: RateLimitItem, name: str, address: str) -> float | None:
        self._call()
        return self._windows.wait(item, name, address)

    async def hit(self, item: RateLimitItem, name: str, address: str) -> None:
        self._call()
        self._windows.hit(item, name, address)

    async def take(self, item: RateLimitItem, name: str, address: str, cost: int = 1) -> float | None:
        self._call()
        return self._windows.take(item, name, address, cost)

    async def close(self) -> None:
        pass


async def test_processes_lease_a_share_of_a_budget_and_together_never_spend_past_it() -> None:
    """Two processes over one shared storage (`Leased`): each takes a sixteenth of the budget at once
    and spends it itself, so the storage is asked once a share, not once a request; together they
    never spend past the budget, nearly all of it is spent, and once the window has passed the
    address may spend again."""
    item, clock = parse("160/minute"), FakeClock()
    shared = Flaky(clock)  # one storage, as Redis is to every process
    one, two = Leased(shared, clock), Leased(shared, clock)
    share = 160 // LEASE_SHARE
    granted = [await (one if n % 3 else two).take(item, "room", "10.0.0.1") is None for n in range(140)]
    assert all(granted) and shared.calls <= 140 // share + 2  # a round trip a lease
    granted += [await (one if n % 3 else two).take(item, "room", "10.0.0.1") is None for n in range(60)]
    assert 160 - 2 * (share - 1) <= sum(granted) <= 160
    assert await one.take(item, "room", "10.0.0.2") is None  # another address: its own budget
    clock.now += 60
    assert await two.take(item, "room", "10.0.0.1") is None  # the window has passed


def test_moving_windows_take_several_at_once_only_with_room_for_all() -> None:
    item, clock = parse("10/minute"), FakeClock()
    windows = MovingWindows(clock)
    assert windows.take(item, "room", "10.0.0.1", 7) is None
    clock.now += 10
    assert windows.take(item, "room", "10.0.0.1", 4) == pytest.approx(50)  # one of the seven must go
    assert windows.take(item, "room", "10.0.0.1", 3) is None and windows.wait(item, "room", "10.0.0.1") == 50
    clock.now += 50
    assert windows.take(item, "room", "10.0.0.1", 7) is None  # the first seven have gone


async def test_a_budget_too_small_to_share_out_is_counted_one_at_a_time() -> None:
    item, clock = parse("20/minute"), FakeClock()
    shared = Flaky(clock)
    one, two = Leased(shared, clock), Leased(shared, clock)
    granted = [await (one if n % 2 else two).take(item, "rooms", "10.0.0.1") is None for n in range(25)]
    assert granted == [True] * 20 + [False] * 5 and shared.calls == 25


async def test_the_rate_limits_go_back_to_the_shared_storage_once_it_answers_and_try_it_seldom_meanwhile(
    caplog: pytest.LogCaptureFixture,
) -> None:
    item, clock = parse("2/minute"), FakeClock()
    shared = Flaky(clock)
    windows = SharedOrOwn(shared, MovingWindows(clock), clock)
    await windows.hit(item, "room", "10.0.0.1")
    shared.answers = False
    with caplog.at_level(logging.WARNING, "shutthebox.web.guard"):
        for _ in range(50):  # the first call finds the storage away; the next ones count here
            await windows.hit(item, "room", "10.0.0.2")
        assert shared.calls == 2 and not windows.shared
        assert await windows.wait(item, "room", "10.0.0.2") is not None  # held to the budget here
        clock.now += SharedOrOwn.RETRY_SECONDS
        await windows.hit(item, "room", "10.0.0.3")  # tried again: still away
        assert shared.calls == 3 and not windows.shared
        shared.answers = True
        clock.now += SharedOrOwn.RETRY_SECONDS
        assert await windows.wait(item, "room", "10.0.0.1") is None  # back: what it counted before is there
        await windows.hit(item, "room", "10.0.0.1")
        assert windows.shared and shared.calls == 5
        assert await windows.wait(item, "room", "10.0.0.1") is not None
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 2 and "alone" in said[0] and "shared storage again" in said[1], said


@pytest.mark.slow
async def test_two_processes_spend_one_budget_in_redis_and_a_refusal_says_how_long_to_wait(
    tmp_path: Path, redis_url: str
) -> None:
    """The counts of every process go to one Redis (through the asyncio client, no thread): an
    address spends one budget whichever process it reaches, and others are not held by it."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'x.db'}", rate_limit_storage=redis_url,
        rate_room_requests="4/minute", rate_room_misses="3/minute",
    )
    one, two = RateLimits(settings), RateLimits(settings)
    taken = [await limits.take(["room"], ["room"], "10.7.0.1") for limits in (one, two, one, two)]
    assert taken == [None] * 4
    wait = await one.take(["room"], ["room"], "10.7.0.1")
    assert wait is not None and 1 <= wait <= 60
    assert await two.take(["room", "misses"], ["room"], "10.7.0.2") is None  # another address
    for _ in range(3):
        await two.spend(["misses"], "10.7.0.3")
    assert await one.take(["room", "misses"], ["room"], "10.7.0.3") is not None  # misses are checked
    assert await one.take(["room"], ["room"], "10.7.0.3") is None  # and nothing was spent meanwhile
    await one.close()
    await two.close()


@pytest.mark.slow
async def test_two_processes_lease_one_budget_from_redis_a_share_a_round_trip(
    redis_url: str, tmp_path: Path
) -> None:
    """Over a real Redis, two processes spending one address's budget of requests: one round trip a
    lease (a sixteenth of the budget), not one a request; together never past the budget."""
    import redis

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'x.db'}", rate_limit_storage=redis_url,
        rate_room_requests="320/minute",
    )
    one, two = RateLimits(settings), RateLimits(settings)

    def scripts_run() -> int:
        with redis.Redis.from_url(redis_url) as client:
            return sum(int(stats["calls"]) for name, stats in client.info("commandstats").items()
                       if name in ("cmdstat_evalsha", "cmdstat_eval"))

    before = scripts_run()
    granted = [await (one if n % 2 else two).take(["room"], ["room"], "10.8.0.1") is None for n in range(300)]
    assert all(granted) and scripts_run() - before <= 300 // (320 // LEASE_SHARE) + 2
    granted += [await (one if n % 2 else two).take(["room"], ["room"], "10.8.0.1") is None for n in range(60)]
    assert 320 - 2 * (320 // LEASE_SHARE - 1) <= sum(granted) <= 320
    await one.close()
    await two.close()


# -- WebSockets ------------------------------------------------------------------------
def closed_with(ws: Any) -> tuple[dict[str, Any], int]:
    """The refusal a socket was sent, and the code it was closed with."""
    refusal = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return refusal, closed.value.code


def test_sockets_per_address_are_capped(tmp_path: Path) -> None:
    with guarded(tmp_path, max_sockets_per_client=2) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        url = f"/api/rooms/{table.code}/ws"
        with client.websocket_connect(url, headers=at("10.6.0.1")) as one, \
                client.websocket_connect(url, headers=at("10.6.0.1")) as two:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "state"
            with client.websocket_connect(url, headers=at("10.6.0.1")) as three:
                refusal, code = closed_with(three)
                assert (refusal["type"], refusal["error"], code) == ("error", "too-many", 4429)
            with client.websocket_connect(url, headers=at("10.6.0.2")) as elsewhere:
                assert elsewhere.receive_json()["type"] == "state"
        with client.websocket_connect(url, headers=at("10.6.0.1")) as again:  # the two closed: room again
            assert again.receive_json()["type"] == "state"


@pytest.mark.parametrize(
    ("origin", "welcome"),
    [
        (None, True),
        ("http://testserver", True),
        ("http://testserver:80", True),
        ("https://games.example", True),  # in allowed_origins
        ("http://evil.example", False),
        ("http://testserver:8080", False),
        ("null", False),
    ],
)
def test_a_socket_from_another_origin_is_refused(tmp_path: Path, origin: str | None, welcome: bool) -> None:
    with guarded(tmp_path, allowed_origins=("https://games.example",)) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        headers = {"Origin": origin} if origin else {}
        url = f"/api/rooms/{table.code}/ws?token={table.token}"
        with client.websocket_connect(url, headers=headers) as ws:
            if welcome:
                assert ws.receive_json()["state"]["you"] == [0]
            else:
                refusal, code = closed_with(ws)
                assert (refusal["error"], code) == ("wrong-origin", 4403)
                assert table.token not in json.dumps(refusal)


FOREIGN = [
    {"Origin": "http://evil.example"},  # a form, or fetch(…, {mode: "no-cors"}): the browser says where from
    {"Origin": "null"},  # a sandboxed frame, a file
    {"Sec-Fetch-Site": "cross-site"},  # an image or a link's GET: no Origin, but the browser says so
    {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver:8080"},  # another port of the same host
]


@pytest.mark.parametrize("foreign", FOREIGN)
def test_another_sites_page_spends_none_of_the_players_budgets(
    tmp_path: Path, foreign: dict[str, str]
) -> None:
    """Regression (a hostile page, issue 29): requests another site made the player's browser send,
    which it could not read (a commitment, a room with a body the app refused), spent the player's
    budgets: 25 kept them from starting or joining a game for a minute, 200 for an hour."""
    ana = at("10.7.0.1")
    with guarded(tmp_path, rate_rooms="3/minute", rate_room_misses="3/minute") as client:
        for _ in range(5):
            sent = {**ana, **foreign}
            refused(client.post("/api/commitments", headers=sent), 403, "wrong-origin")
            as_text = {**sent, "Content-Type": "text/plain"}
            refused(client.post("/api/rooms", content=b"x", headers=as_text), 403, "wrong-origin")
            refused(client.get("/api/rooms/ZZZZZ", headers=sent), 403, "wrong-origin")
        own = {**ana, "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        solo = {"seats": [{"name": "Ana"}]}
        assert client.post("/api/commitments", headers=own).status_code == 201  # the budget is whole
        assert client.post("/api/rooms", json=solo, headers=own).status_code == 201
        assert client.post("/api/rooms", json=solo, headers=at("10.7.0.2")).status_code == 201  # a program
        assert client.get("/", headers={**ana, **foreign}).status_code == 200  # a link to the page


def test_same_origin_compares_host_and_port() -> None:
    assert same_origin("https://shut.example", "shut.example")
    assert same_origin("http://localhost:8000", "localhost:8000")
    assert same_origin("HTTP://LocalHost:8000", "localhost:8000")
    assert not same_origin("http://localhost:8001", "localhost:8000")
    assert not same_origin("https://shut.example:444", "shut.example")
    assert not same_origin("http://shut.example.evil", "shut.example")
    assert not same_origin("http://[::1", "localhost")
    assert same_origin("https://other.example", "shut.example", ["https://other.example/"])


def test_the_names_a_server_answers_to() -> None:
    assert default_hosts("127.0.0.1") == default_hosts("::1") == default_hosts("localhost") == LOOPBACK_HOSTS
    assert default_hosts("0.0.0.0") == ("0.0.0.0", "localhost")
    assert default_hosts("192.168.1.5") == ("192.168.1.5",)
    loopback = LOOPBACK_HOSTS
    for host in ["127.0.0.1:8000", "LOCALHOST", "localhost.:8000", "[::1]:8000", "[::1]"]:
        assert host_allowed(host, loopback), host
    for host in [None, "", "evil.example", "evil.example:8000", "127.0.0.2", "localhost:x", "[::1"]:
        assert not host_allowed(host, loopback), host
    anywhere = default_hosts("0.0.0.0")
    assert host_allowed("192.168.1.5:8080", anywhere) and host_allowed("[fe80::1]:8080", anywhere)
    assert host_allowed("localhost:8080", anywhere) and not host_allowed("evil.example:8080", anywhere)
    assert host_allowed("10.0.0.1", ["::"]) and host_allowed("Games.Example:443", ["games.example"])
    assert host_allowed("anything.example", ["*"]) and host_allowed("[::1]", ["::1"])


@pytest.mark.parametrize("host", ["evil.example@127.0.0.1:8000", "127.0.0.1/evil.example",
                                  "127.0.0.1?x.evil.example", "127.0.0.1#.evil.example", "127.0.0.1 evil"])
def test_a_host_that_holds_more_than_a_name_and_a_port_names_no_server(host: str) -> None:
    """Regression: urlsplit read past a user, a path, a query or a fragment to the server's name, so
    these passed the check, while a proxy in front may route them by the other name."""
    assert not host_allowed(host, LOOPBACK_HOSTS)
    assert not host_allowed(host, ["*"])  # no name at all


def test_a_request_to_a_name_not_allowed_is_refused_in_words(tmp_path: Path) -> None:
    with guarded(tmp_path, allowed_hosts=("testserver",)) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        elsewhere = {"Host": "rebound.example", "Accept-Language": "es"}
        body = refused(client.get("/api/rules", headers=elsewhere), 400, "wrong-host")
        assert "--allowed-host" in body["detail"] and "rebound" not in body["detail"]
        url = f"/api/rooms/{table.code}/ws"
        with client.websocket_connect(url, headers={"Host": "rebound.example"}) as ws:
            refusal, code = closed_with(ws)
            assert (refusal["error"], code) == ("wrong-host", 4400)
        assert client.get("/api/rules").status_code == 200


def test_a_socket_token_that_is_not_ascii_is_refused(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        for token in ["%C3%A9", "%FF", "a%00b"]:
            with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={token}") as ws:
                refusal, code = closed_with(ws)
                assert (refusal["error"], code) == ("malformed", 4422)
        assert table.state()["code"] == table.code


def test_a_frame_over_the_limit_closes_the_socket(tmp_path: Path) -> None:
    with guarded(tmp_path, max_frame_bytes=SMALL) as client:
        table, _ = create(client, seats=[{"name": "Ana"}], seed=1)
        with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={table.token}") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 2 * SMALL}))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
        with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={table.token}") as ws:
            ws.receive_json()
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}


# -- errors -----------------------------------------------------------------------------
def test_an_unexpected_error_is_a_500_that_tells_nothing(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'boom.db'}"))

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("the secret is swordfish at /srv/shutthebox/db.py line 12")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/boom")
        body = refused(response, 500, "internal")
        assert set(body) == {"error", "detail"}
        assert "swordfish" not in response.text and "RuntimeError" not in response.text


# -- the API docs ------------------------------------------------------------------------
def test_the_api_docs_are_served_by_the_app_itself(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        page = client.get("/docs")
        assert page.status_code == 200 and "SwaggerUIBundle" in page.text
        assert re.search(r"https?://", page.text) is None
        found = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert len(found) == 3  # the script, the style, the icon
        for asset in found:
            assert asset.startswith("/docs-static/"), asset
            assert client.get(asset).status_code == 200, asset
        assert "/openapi.json" in page.text and client.get("/openapi.json").status_code == 200
        assert client.get("/redoc").status_code == 404  # Redoc would fetch its logo from outside


def test_the_openapi_describes_refusals_as_they_are_sent(tmp_path: Path) -> None:
    with guarded(tmp_path) as client:
        schema = client.get("/openapi.json").json()
        refusal = schema["components"]["schemas"]["HTTPValidationError"]
        assert refusal["required"] == ["error", "detail"]
        create_room = schema["paths"]["/api/rooms"]["post"]["responses"]
        assert {"413", "422", "429"} <= set(create_room)


# -- the log -----------------------------------------------------------------------------
def test_the_log_filter_hides_tokens_and_keys() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/api/rooms/ABCDE/ws?lang=es&token=s3cr3t-_x&key=k3y", "1.1", 200), None,
    )
    assert RedactTokens().filter(record)
    line = record.getMessage()
    assert "s3cr3t" not in line and "k3y" not in line
    assert line == '127.0.0.1:5000 - "GET /api/rooms/ABCDE/ws?lang=es&token=…&key=… HTTP/1.1" 200'
    assert redact("?token=abc") == "?token=…"
    assert redact("?monkey=abc&turkey=1") == "?monkey=abc&turkey=1"
    assert redact("GET /x?a=1&token=t%C3%A9 HTTP/1.1") == "GET /x?a=1&token=… HTTP/1.1"
    escaped = "GET /x?%74oken=t&to%6Ben=u&k%65y=v HTTP/1.1"  # what the server reads as token and key
    assert redact(escaped) == "GET /x?%74oken=…&to%6Ben=…&k%65y=… HTTP/1.1"
    assert redact("GET /api/players/a=b/bests?token=t") == "GET /api/players/a=b/bests?token=…"


@contextmanager
def serving(folder: Path) -> Iterator[tuple[str, Path]]:
    """``shutthebox serve`` at log level info on a free port: its URL and its log file."""
    with running(folder, log_level="info") as server:
        yield server.url, server.log


@pytest.mark.slow
def test_a_real_server_logs_no_token_and_closes_big_frames(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, log_path):
        created = httpx.post(f"{url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        code, token = created["code"], created["token"]
        assert httpx.get(f"{url}/api/rooms/{code}?token={token}").status_code == 200
        socket_url = f"{url.replace('http', 'ws')}/api/rooms/{code}/ws?lang=en&token={token}"
        with ws_connect(socket_url) as ws:
            assert json.loads(ws.recv(timeout=10))["state"]["you"] == [0]
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        with ws_connect(socket_url, max_size=None) as ws:
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))  # over max_frame_bytes (16 KiB)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert httpx.get(f"{url}/api/rooms/{code}").status_code == 200
        time.sleep(0.3)  # let the last lines reach the file
    log = log_path.read_text()
    assert token not in log
    assert f'"WebSocket /api/rooms/{code}/ws?lang=en&token=…" [accepted]' in log, log
    assert f"GET /api/rooms/{code}?token=… HTTP/1.1" in log, log


@pytest.mark.slow
def test_a_token_named_in_percent_escapes_reaches_no_log_either(tmp_path: Path) -> None:
    """Regression: the socket reads ``?%74oken=`` as its seat token, and it was logged in clear."""
    with serving(tmp_path) as (url, log_path):
        created = httpx.post(f"{url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        code, token = created["code"], created["token"]
        assert httpx.get(f"{url}/api/rooms/{code}?%74oken={token}").status_code == 200
        socket_url = f"{url.replace('http', 'ws')}/api/rooms/{code}/ws?to%6Ben={token}"
        with ws_connect(socket_url) as ws:
            assert json.loads(ws.recv(timeout=10))["state"]["you"] == [0]
        assert httpx.get(f"{url}/api/rules").status_code == 200
        time.sleep(0.3)  # let the last lines reach the file
    log = log_path.read_text()
    assert f"GET /api/rooms/{code}?%74oken=… HTTP/1.1" in log, log
    assert f'"WebSocket /api/rooms/{code}/ws?to%6Ben=…" [accepted]' in log, log
    assert token not in log


@pytest.mark.slow
def test_a_frame_that_is_not_utf8_closes_its_socket_with_one_line_in_the_log(tmp_path: Path) -> None:
    """Regression: uvicorn logged the server's full traceback for a client's bad frame."""
    with serving(tmp_path) as (url, log_path):
        created = httpx.post(f"{url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        socket_url = f"{url.replace('http', 'ws')}/api/rooms/{created['code']}/ws?token={created['token']}"
        with ws_connect(socket_url) as ws:
            ws.recv(timeout=10)
            ws.send(b'{"type": "\xff"}', text=True)  # a text frame that is not UTF-8
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        with ws_connect(socket_url) as ws:  # the room goes on
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        time.sleep(0.3)  # let the last lines reach the file
    log = log_path.read_text()
    assert "WARNING:  Invalid UTF-8 sequence received from client." in log, log
    assert "Traceback" not in log and "UnicodeDecodeError" not in log, log


def socket_through(url: str, host: str, path: str) -> Any:
    """A WebSocket to the server at ``url`` as a browser would open it at ``host`` (the page's own
    origin): what a page whose name was rebound to this server's address sends."""
    address = urlsplit(url)
    connection = socket_module.create_connection((address.hostname, address.port))
    return ws_connect(f"ws://{host}{path}", sock=connection, origin=Origin(f"http://{host}"))


@pytest.mark.slow
def test_a_real_server_answers_only_to_its_own_names(tmp_path: Path) -> None:
    """Regression (DNS rebinding): no Host was checked, and a page at a name pointed at 127.0.0.1
    passed the socket's origin check, the Host and the Origin being the same name."""
    with running(tmp_path) as server:
        port = urlsplit(server.url).port
        created = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        path = f"/api/rooms/{created['code']}/ws?token={created['token']}"
        rebound = f"rebound.example:{port}"
        answer = httpx.get(f"{server.url}/api/rules", headers={"Host": rebound})
        assert answer.status_code == 400 and answer.json()["error"] == "wrong-host"
        with socket_through(server.url, rebound, path) as ws:
            assert json.loads(ws.recv(timeout=10))["error"] == "wrong-host"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
        for name in ("localhost", "127.0.0.1", "[::1]"):
            assert httpx.get(f"{server.url}/api/rules", headers={"Host": f"{name}:{port}"}).status_code == 200
        with socket_through(server.url, f"localhost:{port}", path) as ws:
            assert json.loads(ws.recv(timeout=10))["state"]["you"] == [0]


@pytest.mark.slow
def test_allowed_hosts_named_to_serve_replace_the_loopback_names(tmp_path: Path) -> None:
    named = ["--allowed-host", "games.example", "--allowed-host", "127.0.0.1"]
    with running(tmp_path, options=named) as server:
        port = urlsplit(server.url).port

        def status(name: str) -> int:
            code: int = httpx.get(f"{server.url}/api/rules", headers={"Host": f"{name}:{port}"}).status_code
            return code

        assert (status("games.example"), status("127.0.0.1"), status("localhost")) == (200, 200, 400)
