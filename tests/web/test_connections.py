"""The server's connections (`web.connections`, and uvicorn's keep-alive): none is held open by a
client that sends its request (its headers or its body) slowly, or nothing at all. A real server,
short timeouts, raw sockets."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from shutthebox.web.connections import MAX_HEAD_BYTES, MAX_TARGET_BYTES
from shutthebox.web.frames import BURST
from tests.support.serving import Server, running

pytestmark = pytest.mark.slow  # a real server, and deadlines of seconds waited out

PATIENCE = 30.0
"""How long a test waits for the server to close a connection (its timeouts are 1 s)."""
QUICK = ["--header-timeout", "1", "--idle-timeout", "1"]


@contextmanager
def quick_server(folder: Path) -> Iterator[Server]:
    with running(folder, log_level="info", options=QUICK) as server:
        yield server


def raw(server: Server) -> socket.socket:
    address = urlsplit(server.url)
    connection = socket.create_connection((address.hostname, address.port))
    connection.settimeout(PATIENCE)
    return connection


def closed_by_the_server(connection: socket.socket) -> bool:
    """Whether the server closes ``connection`` (whatever it sends first) before the test's patience ends."""
    try:
        while connection.recv(4096):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def sent_a_byte_at_a_time(connection: socket.socket, data: bytes) -> int:
    """How many bytes of ``data``, sent one every 50 ms, went before the server closed ``connection``."""
    sent = 0
    try:
        for byte in data:
            connection.sendall(bytes([byte]))
            sent += 1
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent


def test_connections_that_never_finish_their_headers_are_closed(tmp_path: Path) -> None:
    """Regression: 21 of 21 connections that never finished their headers were open after 60 s."""
    with quick_server(tmp_path) as server, ExitStack() as stack:
        silent = [stack.enter_context(raw(server)) for _ in range(7)]
        halfway = [stack.enter_context(raw(server)) for _ in range(14)]
        for connection in halfway[:7]:
            connection.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for connection in halfway[7:]:
            connection.sendall(b"GET /api/rul")
        assert [closed_by_the_server(c) for c in silent + halfway] == [True] * 21
        assert httpx.get(f"{server.url}/api/rules").status_code == 200  # everyone else is served
    assert "closed: no whole request headers within 1 s" in server.log.read_text()


def test_headers_sent_a_byte_at_a_time_are_cut_off(tmp_path: Path) -> None:
    request = b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 500 + b"\r\n\r\n"
    with quick_server(tmp_path) as server, raw(server) as connection:
        assert sent_a_byte_at_a_time(connection, request) < len(request)
        assert closed_by_the_server(connection)


def test_a_connection_idle_after_its_answer_is_closed(tmp_path: Path) -> None:
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert connection.recv(4096).startswith(b"HTTP/1.1 200")
        assert closed_by_the_server(connection)


def test_a_socket_outlives_the_header_deadline(tmp_path: Path) -> None:
    """The deadline is the request's headers': a WebSocket, once open, is not timed by it."""
    with quick_server(tmp_path) as server:
        created = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        url = f"{server.url.replace('http', 'ws')}/api/rooms/{created['code']}/ws?token={created['token']}"
        with ws_connect(url) as ws:
            ws.recv(timeout=10)
            time.sleep(2.5)  # over twice the deadline, quiet
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        with httpx.Client() as client:  # two requests on one kept-alive connection
            assert client.get(f"{server.url}/api/rules").status_code == 200
            assert client.get(f"{server.url}/api/i18n").status_code == 200


def ping(payload: bytes) -> bytes:
    """A client's PING frame (masked, as a client's must be)."""
    key = b"\x01\x02\x03\x04"
    return bytes([0x89, 0x80 | len(payload)]) + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def frames_until_closed(connection: socket.socket, patience: float) -> list[tuple[int, bytes]]:
    """The frames the server sends (opcode, payload) until it closes the connection, or ``patience``
    seconds pass without a byte."""
    connection.settimeout(patience)
    data = answer_of(connection)
    frames, at = [], 0
    while at + 2 <= len(data):
        opcode, length, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if length >= 126:
            size = 2 if length == 126 else 8
            length, at = int.from_bytes(data[at:at + size], "big"), at + size
        frames.append((opcode, data[at:at + length]))
        at += length
    return frames


def text(payload: bytes, *, opcode: int = 0x1, fin: bool = True) -> bytes:
    """A client's data frame (a text frame, or ``opcode`` 0 for a continuation), masked by zeros."""
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + b"\x00" * 4 + payload


def opened_socket(server: Server, path: str | None = None) -> socket.socket:
    """A raw connection holding a room's WebSocket (at ``path``, else a new room's), its handshake
    answered."""
    if path is None:
        room = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}]}).json()
        path = f"/api/rooms/{room['code']}/ws?token={room['token']}"
    connection = raw(server)
    connection.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    assert head.startswith(b"HTTP/1.1 101 "), head
    return connection


def test_a_flood_of_pings_closes_the_socket(tmp_path: Path) -> None:
    """Regression: control frames never reach the app, so no rate limit counted them; one socket sending
    pings and never reading the pongs grew the server by 16 MB a second, and held its event loop."""
    with quick_server(tmp_path) as server:
        with opened_socket(server) as connection:
            connection.sendall(ping(b"x" * 125) * 2000)
            frames = frames_until_closed(connection, patience=5)
        pongs = [payload for opcode, payload in frames if opcode == 0xA]
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        assert len(pongs) <= BURST
        assert closes and int.from_bytes(closes[0][:2], "big") == 1008, frames[-3:]
        assert closes[0][2:] == b"too many frames"
        assert httpx.get(f"{server.url}/api/rules").status_code == 200
    assert "WebSocket closed 1008: too many frames" in server.log.read_text()


def test_a_message_that_never_ends_closes_the_socket(tmp_path: Path) -> None:
    """Regression: empty fragments of a message never finished reached no budget (the app sees a
    message once it is whole) and uvicorn kept each: another client's request took 20 to 56 s."""
    with quick_server(tmp_path) as server:
        with opened_socket(server) as connection:
            connection.sendall(text(b"{", fin=False) + text(b"", opcode=0x0, fin=False) * 5000)
            frames = frames_until_closed(connection, patience=5)
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        assert closes and int.from_bytes(closes[0][:2], "big") == 1008, frames[-3:]
        assert httpx.get(f"{server.url}/api/rules").status_code == 200


def test_a_chunk_of_a_thousand_messages_closes_the_socket(tmp_path: Path) -> None:
    """Regression: uvicorn hands the app every message of a chunk read before the app reads one; 64 kB
    of small messages at once held the event loop for most of a second."""
    with quick_server(tmp_path) as server:
        with opened_socket(server) as connection:
            connection.sendall(text(b'{"type": "ping"}') * 1000)
            frames = frames_until_closed(connection, patience=5)
        assert not any(opcode == 0x1 and b'"pong"' in payload for opcode, payload in frames)  # none read
        closes = [payload for opcode, payload in frames if opcode == 0x8]
        assert closes and int.from_bytes(closes[0][:2], "big") == 1008, frames[-3:]


def test_a_message_in_a_few_fragments_is_read_as_one(tmp_path: Path) -> None:
    with quick_server(tmp_path) as server, opened_socket(server) as connection:
        connection.sendall(text(b'{"type"', fin=False) + text(b': "pi', opcode=0x0, fin=False)
                           + text(b'ng"}', opcode=0x0))
        frames = frames_until_closed(connection, patience=2)
    assert any(opcode == 0x1 and b'"pong"' in payload for opcode, payload in frames)
    assert 0x8 not in [opcode for opcode, _payload in frames]


def test_messages_sent_on_after_the_server_closed_the_socket_end_the_connection(tmp_path: Path) -> None:
    """Regression: once the server sent its close, uvicorn read and dropped whatever came for 10 s."""
    with quick_server(tmp_path) as server, opened_socket(server, "/api/rooms/ZZZZZ/ws") as connection:
        reply = b""
        while b"\x88" not in reply:  # its close (4404: no such room)
            reply += connection.recv(4096)
        start = time.monotonic()
        try:
            for _ in range(50):
                connection.sendall(text(b'{"type": "roll"}') * 200)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert frames_until_closed(connection, patience=5) is not None
        assert time.monotonic() - start < 5  # closed at once, not after the close's 10 s


def test_pings_within_the_budget_are_answered_and_the_socket_plays_on(tmp_path: Path) -> None:
    with quick_server(tmp_path) as server, opened_socket(server) as connection:
        connection.sendall(ping(b"keepalive") * BURST)
        connection.sendall(text(b'{"type": "ping"}'))
        frames = frames_until_closed(connection, patience=2)  # not closed: the patience runs out
    assert [payload for opcode, payload in frames if opcode == 0xA] == [b"keepalive"] * BURST
    assert 0x8 not in [opcode for opcode, _payload in frames]
    assert any(opcode == 0x1 and b'"pong"' in payload for opcode, payload in frames)


def test_creations_whose_body_never_comes_hold_up_no_other_room_nor_socket(tmp_path: Path) -> None:
    """Regression: new rooms and sockets go into the app two at a time (`web.arrivals`); two creations
    that sent their headers and never their body took both places, and no room could be created nor
    socket opened on the process while they stayed."""
    head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{\"seats\"")
    with quick_server(tmp_path) as server, ExitStack() as stack:
        stalled = [stack.enter_context(raw(server)) for _ in range(4)]
        for connection in stalled:
            connection.sendall(head)
        time.sleep(0.3)  # theirs came first
        created = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}]}, timeout=10)
        assert created.status_code == 201
        room = created.json()
        url = f"{server.url.replace('http', 'ws')}/api/rooms/{room['code']}/ws?token={room['token']}"
        with ws_connect(url, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert [closed_by_the_server(c) for c in stalled] == [True] * 4  # nor were they kept for good
    assert "closed: no whole request body within 1 s" in server.log.read_text()


def test_a_body_sent_a_byte_at_a_time_is_cut_off(tmp_path: Path) -> None:
    """Regression: a request's body had no deadline; its headers had one."""
    body = json.dumps({"seats": [{"name": "Ana"}], "pad": "a" * 200}).encode()
    head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(head)
        assert sent_a_byte_at_a_time(connection, body) < len(body)
        assert closed_by_the_server(connection)


def answer_of(connection: socket.socket) -> bytes:
    """All the server sends on ``connection`` until it closes it."""
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return received


def sent_until_closed(connection: socket.socket, head: bytes, more: bytes, most: int) -> int:
    """``head``, then ``more`` again and again until ``most`` bytes went or the server closed the
    connection; how many went."""
    sent = 0
    try:
        connection.sendall(head)
        while sent < most:
            connection.sendall(more)
            sent += len(more)
            time.sleep(0.001)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent


ENDLESS = {
    "a header": (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ", b"a" * 16384),
    "a trailer": (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Pad: ", b"a" * 16384),
    "a request line": (b"GET /healthz?pad=", b"a" * 16384),
    "headers": (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Pad: a\r\n" * 1600),
}


@pytest.mark.parametrize("shape", ENDLESS)
def test_a_request_head_that_never_ends_is_refused_with_431(tmp_path: Path, shape: str) -> None:
    """Regression: httptools gathers a header by concatenation, so one connection sending a header
    that never ends at 20 MB/s held every request of the process until its deadline closed it; a head
    past 32 KiB got no answer. A chunked body's trailers, sent after the headers, are bounded alike."""
    head, more = ENDLESS[shape]
    with quick_server(tmp_path) as server, raw(server) as connection:
        assert sent_until_closed(connection, head, more, most=8_000_000) < 8_000_000
        assert answer_of(connection).startswith(b"HTTP/1.1 431 ")
        assert httpx.get(f"{server.url}/healthz").status_code == 200
    said = "refused 431: a request's line, headers and trailers take at most 32768 bytes"
    assert said in server.log.read_text()


@pytest.mark.parametrize("head", [
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 40_000 + b"\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: a\r\n" * 4_000 + b"\r\n",
], ids=["one header", "many headers"])
def test_a_head_past_the_bound_sent_in_one_piece_is_refused_with_431(tmp_path: Path, head: bytes) -> None:
    """Regression (a hostile client, issue 29): the bound counted the chunks after the one a request
    began in, so a head of 40 kB (and up to the 256 kB a read takes) sent at once was answered."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(head)
        assert answer_of(connection).startswith(b"HTTP/1.1 431 ")
    said = "refused 431: a request's line, headers and trailers take at most 32768 bytes"
    assert said in server.log.read_text()


def test_many_requests_sent_at_once_are_each_answered(tmp_path: Path) -> None:
    """The bound is one request's head, not what a connection sends at once (pipelined requests)."""
    one = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 150 + b"\r\n\r\n"
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(one * 300)  # 60 kB at once
        received = b""
        while received.count(b"HTTP/1.1 200 ") < 300:
            chunk = connection.recv(65536)
            assert chunk, "the server closed the connection before its 300 answers"
            received += chunk


def test_a_client_gone_amid_its_pipelined_requests_leaves_no_error_in_the_log(tmp_path: Path) -> None:
    """Regression: 31 of 40 such connections each logged "Exception in ASGI application" (uvicorn marked
    the last request read as disconnected, not the one being answered, which then wrote to the closed
    connection: "the handler is closed")."""
    one = b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with quick_server(tmp_path) as server:
        for _ in range(40):
            with raw(server) as connection:
                connection.sendall(one * 300)
                time.sleep(0.01)  # a few answered, the rest pipelined, then gone
        assert httpx.get(f"{server.url}/api/rules").status_code == 200
    log = server.log.read_text()
    assert '"GET /api/rules HTTP/1.1" 200' in log
    assert "Traceback" not in log and "Exception in ASGI application" not in log


def handshake(server: Server, extra: bytes) -> bytes:
    """A room's WebSocket handshake, with ``extra`` header lines and what follows them."""
    room = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}]}).json()
    return (f"GET /api/rooms/{room['code']}/ws?token={room['token']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n").encode() + extra


@pytest.mark.parametrize("body", [b"Content-Length: 5\r\n\r\nhello", b"Content-Length: 1000\r\n\r\n",
                                  b"Transfer-Encoding: chunked\r\n\r\n"])
def test_a_socket_handshake_that_declares_a_body_is_refused_at_once(tmp_path: Path, body: bytes) -> None:
    """Regression: uvicorn waited for such a body before it upgraded, with no deadline (held open for
    good, a file handle each), and when it came left the handshake unanswered for good."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(handshake(server, body))  # the deadline closes silently: a 400 is the refusal
        assert answer_of(connection).startswith(b"HTTP/1.1 400 ")
    assert "refused 400: a WebSocket handshake has no body" in server.log.read_text()


def test_no_header_comes_from_a_chunked_bodys_trailers(tmp_path: Path) -> None:
    """Regression: uvicorn added a chunked body's trailers to the request's headers: a seat token sent
    after the body, where no proxy looks, played the seat's action."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        room = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        seat = {"Authorization": f"Bearer {room['token']}"}
        before = httpx.get(f"{server.url}/api/rooms/{room['code']}", headers=seat).json()["version"]
        body = b'{"type":"roll"}'
        connection.sendall(
            f"POST /api/rooms/{room['code']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
            + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + b"%x\r\n" % len(body) + body + b"\r\n0\r\n"
            + f"Authorization: Bearer {room['token']}\r\n\r\n".encode()
        )
        assert answer_of(connection).startswith(b"HTTP/1.1 403 ")
        after = httpx.get(f"{server.url}/api/rooms/{room['code']}", headers=seat).json()["version"]
        assert after == before


def test_an_address_past_the_bound_is_refused_with_414(tmp_path: Path) -> None:
    """Regression: each layer parses a request's query again; 30 kB of it (5,000 parameters, within the
    head's bound) took 38 ms, and four clients sending them held another's request at 100 ms."""
    with quick_server(tmp_path) as server:
        long = "/api/rules?" + "&".join(f"a{i}=1" for i in range(3000))
        assert MAX_TARGET_BYTES < len(long) < MAX_HEAD_BYTES
        refused = httpx.get(f"{server.url}{long}")
        assert refused.status_code == 414
        assert f"a request's address takes at most {MAX_TARGET_BYTES} bytes" in refused.text
        within = "/api/rules?" + "x" * (MAX_TARGET_BYTES - len("/api/rules?"))
        assert httpx.get(f"{server.url}{within}").status_code == 200
        # said as the API says a refusal, in the reader's language (it was English text before)
        spanish = httpx.get(f"{server.url}{long}", headers={"Accept-Language": "es"})
        assert spanish.headers["content-type"] == "application/json"
        said = f"la dirección de una petición ocupa como mucho {MAX_TARGET_BYTES} bytes"
        assert spanish.json() == {"error": "too-large", "detail": said}


@pytest.mark.parametrize("hosts", [(b"Host", b"host"), (b"Host", b"Host")])
def test_a_request_with_two_hosts_is_refused(tmp_path: Path, hosts: tuple[bytes, bytes]) -> None:
    """Regression: the guard judged a request by its first ``Host`` (the server's own name), while a
    proxy in front may route it by the other."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        ours = urlsplit(server.url).netloc.encode()
        connection.sendall(b"GET /api/rules HTTP/1.1\r\n%s: %s\r\n%s: evil.example\r\n\r\n" % (
            hosts[0], ours, hosts[1]))
        assert answer_of(connection).startswith(b"HTTP/1.1 400 ")
    assert "refused 400: a request has one Host header" in server.log.read_text()


def test_a_connection_that_sends_a_bare_line_after_its_answer_is_still_closed(tmp_path: Path) -> None:
    """Regression: an empty line after an answer stopped uvicorn's idle timer and started no request,
    so no deadline was left: 150 such connections were all open a minute later."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert connection.recv(4096).startswith(b"HTTP/1.1 200")
        connection.sendall(b"\r\n")
        assert closed_by_the_server(connection)


def test_a_request_sent_before_a_refused_one_is_answered_first(tmp_path: Path) -> None:
    """Regression: an action pipelined before a refused request was played, but the connection was
    closed with the refusal before its answer went: the player was told 400 for an action kept."""
    with quick_server(tmp_path) as server, raw(server) as connection:
        room = httpx.post(f"{server.url}/api/rooms", json={"seats": [{"name": "Ana"}], "seed": 3}).json()
        body = b'{"type":"roll"}'
        connection.sendall(
            f"POST /api/rooms/{room['code']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
            + f"Authorization: Bearer {room['token']}\r\nContent-Type: application/json\r\n".encode()
            + b"Content-Length: %d\r\n\r\n" % len(body) + body
            + b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
        )
        answers = answer_of(connection)
        assert answers.startswith(b"HTTP/1.1 200 "), answers[:200]
        assert b"HTTP/1.1 400 " in answers and answers.index(b"HTTP/1.1 400 ") > 0


def test_a_request_whose_whole_address_names_another_host_is_refused(tmp_path: Path) -> None:
    """Regression: ``GET http://evil.example/…`` with the server's own ``Host`` passed the guard, which
    reads the header, while the address's host is the one that counts (RFC 9112 3.2.2); one that names
    the server's own is answered."""
    with quick_server(tmp_path) as server:
        ours = urlsplit(server.url).netloc
        with raw(server) as connection:
            connection.sendall(
                f"GET http://evil.example/api/rules HTTP/1.1\r\nHost: {ours}\r\n\r\n".encode()
            )
            assert answer_of(connection).startswith(b"HTTP/1.1 400 ")
        with raw(server) as connection:
            connection.sendall(f"GET http://{ours}/healthz HTTP/1.1\r\nHost: {ours}\r\n"
                               "Connection: close\r\n\r\n".encode())
            assert answer_of(connection).startswith(b"HTTP/1.1 200 ")
    said = "refused 400: a request's whole address names the host its Host header names"
    assert said in server.log.read_text()
