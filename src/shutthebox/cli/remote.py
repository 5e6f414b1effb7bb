"""A ranked daily attempt on a web app, from the terminal: the server rolls, this shows and sends.

What to ask is the server's word: the room's ``due`` (its step API, `core.game.Due`) says what the
game waits for and whose seat, and this asks only when it is a person's step at one of our seats
(the roll, one die or two, or the tiles, as the state offers them); else it waits for the server.
Only the standard library speaks to the server (``urllib``), so the terminal needs nothing of the
web extra. The server says its refusals in the language of the command line; each is printed and
the question asked again.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from shutthebox.cli.parser import CliError
from shutthebox.i18n import _, language
from shutthebox.storage.location import data_folder

__all__ = ["play_daily"]

KEYS = "servers.json"
"""In the data folder: this machine's profile key on each server ({url: key})."""
WAIT_SECONDS = 0.5
"""How long to wait before asking the room again while the server plays (a bot's step)."""


class RefusedError(Exception):
    """The server answered 4xx: its reason, in the reader's language."""

    def __init__(self, status: int, detail: str, code: str) -> None:
        super().__init__(detail)
        self.status, self.code = status, code


def _call(url: str, method: str = "GET", body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Accept": "application/json", "Accept-Language": language()}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        try:
            said = json.loads(error.read())
        except ValueError:
            said = {}
        detail = str(said.get("detail") or error.reason)
        raise RefusedError(error.code, detail, str(said.get("error", ""))) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise CliError(
            "the server at {url} cannot be reached: {reason}", url=url, reason=str(reason)
        ) from None


def _key_for(server: str, name: str | None) -> str:
    """This machine's profile key on ``server``: kept, or made there now."""
    path = Path(data_folder()) / KEYS
    try:
        keys = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        keys = {}
    if server in keys:
        return str(keys[server])
    try:
        made = _call(f"{server}/api/profiles", "POST", {"name": name or _("Player")})
    except RefusedError as refused:
        raise CliError("{reason}", reason=str(refused)) from None
    keys[server] = made["key"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(keys), encoding="utf-8")
    path.chmod(0o600)
    print(_("Your profile {name} was made on {server}; its key stays in your data folder.").format(
        name=made["profile"]["name"], server=server))
    return str(made["key"])


def play_daily(server: str, tiles: int, name: str | None) -> int:
    """Today's ranked attempt on ``server``, to the end (or to the end of input)."""
    server = server.rstrip("/")
    key = _key_for(server, name)
    try:
        started = _call(f"{server}/api/daily/{tiles}", "POST", token=key)
    except RefusedError as refused:
        raise CliError("{reason}", reason=str(refused)) from None
    code, token, state, day = started["code"], started["token"], started["state"], started["day"]
    print(_("Today's {tiles}-tile challenge, ranked, on {server} (room {code}).").format(
        tiles=tiles, server=server, code=code))
    while (due := state["due"]) is None or due["wait"] != "over":
        if due is None or due["wait"] != "person" or due["seat"] not in state["you"]:
            time.sleep(WAIT_SECONDS)  # the server's part (a bot's roll or choice), or another seat's
            state = _call(f"{server}/api/rooms/{code}", token=token)
            continue
        action = _ask(state["match"])
        if action is None:
            print(_("Left: the attempt waits in room {code}; the page can finish it.").format(code=code))
            return 0
        try:
            state = _call(f"{server}/api/rooms/{code}/actions", "POST", action, token)
        except RefusedError as refused:
            print(refused)
    result = _call(f"{server}/api/daily/{day}/{tiles}/result", token=key)
    if result.get("over"):
        print(_("You scored {score} in {rolls} rolls: rank {rank} of {of}.").format(**result))
        print(_("On the very same dice, the optimal player scored {score} in {rolls} rolls.").format(
            **result["optimal"]))
    return 0


def _ask(match: dict[str, Any]) -> dict[str, Any] | None:
    """The person's step at ``match``, from the keyboard (None at the end of input): the roll the
    state is waiting for, a choice among its dice options, or one of its legal moves."""
    print(_("Board: {tiles}").format(tiles=" ".join(map(str, match["board"]["open"]))))
    if match["is_chance"]:
        prompt = _("Press Enter to roll: ")
    elif match["legal_moves"]:
        roll = " + ".join(map(str, match["roll"]))
        prompt = _("You rolled {roll}. Tiles to shut (e.g. {example}): ").format(
            roll=roll, example=" ".join(map(str, match["legal_moves"][-1])))
    else:
        prompt = _("One die or two? (1 or 2): ")
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        print()
        return None
    text = line.strip()
    if match["is_chance"]:
        return {"type": "roll"}
    if not match["legal_moves"]:
        return {"type": "dice", "count": int(text) if text in ("1", "2") else 0}
    tiles = [int(part) for part in text.replace("+", " ").replace(",", " ").split() if part.isdigit()]
    return {"type": "move", "tiles": tiles}
