"""The floors under a game's requests: what a bare server costs, with none of the game in it.

Each server below answers the way the game's do, and nothing more: a room socket (open, eight
messages each answered by a state of 3 kB, close) and a room's creation (a POST of a small JSON body
on a new connection, answered by 3 kB of JSON). Their CPU per socket and per creation, from /proc,
is the part of the game's cost (`bench_server.py`) that serving with that stack cannot go under.

- ``starlette``: uvicorn (httptools, websockets' sans-I/O protocol, uvloop) and a Starlette route;
- ``fastapi``: the same with a FastAPI route, its body a pydantic model and four dependencies, as
  the room's creation has;
- ``picows`` and ``granian-rsgi``, when installed (``pip install picows granian`` in a throwaway
  virtual environment, then run this script with its Python): the sockets only.

Run: ``python benchmarks/bench_floors.py [--rounds N]``. Compare the lines of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from measuring import cpu_seconds, free_port

STATE = json.dumps({"type": "state", "state": {"room": "x" * 3000}})
MESSAGES = 8
SOCKETS = 400
CREATIONS = 3000

SERVERS = {
    "starlette": """
        import sys, uvicorn
        from starlette.applications import Starlette
        from starlette.responses import Response
        from starlette.routing import Route, WebSocketRoute
        STATE = sys.argv[2]

        async def socket(ws):
            await ws.accept()
            while (await ws.receive())["type"] != "websocket.disconnect":
                await ws.send_text(STATE)

        async def create(request):
            await request.body()
            return Response(STATE, 201, media_type="application/json")

        app = Starlette(routes=[WebSocketRoute("/ws", socket), Route("/api/rooms", create, methods=["POST"])])
        uvicorn.run(app, port=int(sys.argv[1]), log_level="warning", loop="uvloop", http="httptools",
                    ws="websockets-sansio", ws_per_message_deflate=False)
    """,
    "fastapi": """
        import sys, uvicorn
        from typing import Annotated
        from fastapi import Depends, FastAPI, Header, Request
        from fastapi.responses import Response
        from pydantic import BaseModel
        STATE = sys.argv[2]

        class Seat(BaseModel):
            name: str | None = None
            kind: str = "here"

        class Body(BaseModel):
            seats: list[Seat]
            seed: int | None = None

        Text = str | None

        async def server(request: Request) -> int: return 1
        async def token(authorization: Annotated[Text, Header()] = None) -> Text: return authorization
        async def address(request: Request) -> str: return "127.0.0.1"
        async def guest(key: Annotated[Text, Header(alias="X-Guest-Key")] = None) -> Text: return key

        app = FastAPI()

        @app.post("/api/rooms", status_code=201)
        async def create(body: Body, s: Annotated[int, Depends(server)], t: Annotated[Text, Depends(token)],
                         a: Annotated[str, Depends(address)], g: Annotated[Text, Depends(guest)]) -> Response:
            return Response(STATE, 201, media_type="application/json")

        uvicorn.run(app, port=int(sys.argv[1]), log_level="warning", loop="uvloop", http="httptools")
    """,
    "picows": """
        import sys, uvloop
        from picows import WSListener, WSMsgType, ws_create_server
        STATE = sys.argv[2].encode()

        class Room(WSListener):
            def on_ws_frame(self, transport, frame):
                if frame.msg_type == WSMsgType.CLOSE:
                    transport.send_close(frame.get_close_code())
                    transport.disconnect()
                elif frame.msg_type == WSMsgType.TEXT:
                    transport.send(WSMsgType.TEXT, STATE)

        async def main():
            server = await ws_create_server(lambda request: Room(), "127.0.0.1", int(sys.argv[1]))
            await server.serve_forever()

        uvloop.run(main())
    """,
    "granian-rsgi": """
        import os, sys
        from granian import Granian
        from granian.constants import Interfaces, Loops
        from pathlib import Path
        Granian("rsgi_app:app", address="127.0.0.1", port=int(sys.argv[1]), interface=Interfaces.RSGI,
                loop=Loops.uvloop, workers=1, runtime_threads=1, websockets=True, log_enabled=False,
                working_dir=Path.cwd()).serve()
    """,
}
RSGI_APP = """
import os
from granian.rsgi import WebsocketMessageType
STATE = os.environ["STATE"]

async def app(scope, protocol):
    transport = await protocol.accept()
    while (await transport.receive()).kind != WebsocketMessageType.close:
        await transport.send_str(STATE)
"""
NEEDS = {"picows": "picows", "granian-rsgi": "granian"}
WITH_SOCKETS = {"starlette", "picows", "granian-rsgi"}
WITH_CREATIONS = {"starlette", "fastapi"}



async def sockets(port: int, count: int) -> None:
    """``count`` games' sockets, 20 at once: each opens, sends eight moves, reads each state, closes."""
    from websockets.asyncio.client import connect

    async def game() -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
            for _ in range(MESSAGES):
                await ws.send('{"type":"move","tiles":[3,4]}')
                await ws.recv()

    for start in range(0, count, 20):
        await asyncio.gather(*[game() for _ in range(min(20, count - start))])


async def creations(port: int, count: int) -> None:
    """``count`` creations, 20 at once, each on its own connection (a new player's)."""
    body = b'{"seats":[{"name":"Ana"}],"seed":1}'
    request = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    async def create() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 201"), answer[:80]
        writer.close()

    for start in range(0, count, 20):
        await asyncio.gather(*[create() for _ in range(min(20, count - start))])


def measure(name: str, folder: str) -> dict[str, float]:
    """The server ``name``'s CPU per game socket and per creation (µs), after a warm-up."""
    script = Path(folder, f"serve_{name.replace('-', '_')}.py")
    script.write_text(textwrap.dedent(SERVERS[name]))
    Path(folder, "rsgi_app.py").write_text(RSGI_APP)
    port = free_port()
    server = subprocess.Popen([sys.executable, str(script), str(port), STATE], cwd=folder,
                              env={**os.environ, "STATE": STATE}, stderr=subprocess.DEVNULL)
    try:
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise SystemExit(f"{name} did not start")
        figures: dict[str, float] = {}

        def spent() -> float:  # Granian serves from a child process
            return cpu_seconds(server.pid, children=True)

        if name in WITH_SOCKETS:
            asyncio.run(sockets(port, 40))
            before = spent()
            asyncio.run(sockets(port, SOCKETS))
            figures["us_per_socket"] = round(1e6 * (spent() - before) / SOCKETS, 1)
        if name in WITH_CREATIONS:
            asyncio.run(creations(port, 200))
            before = spent()
            asyncio.run(creations(port, CREATIONS))
            figures["us_per_creation"] = round(1e6 * (spent() - before) / CREATIONS, 1)
        return figures
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    names = [name for name in SERVERS if name not in NEEDS or importlib.util.find_spec(NEEDS[name])]
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            for name in names:
                print(json.dumps({"server": name, **measure(name, folder)}), flush=True)


if __name__ == "__main__":
    main()
