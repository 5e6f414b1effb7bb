"""Playing through the page as a person would: read what it shows, click or press keys."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

READY = """() => {
  if (document.querySelector('#view-game').hidden) return false;
  const box = document.querySelector('#box');
  const on = (id) => { const b = document.querySelector(id); return b && !b.hidden && !b.disabled; };
  const shutShown = !document.querySelector('#btn-shut').hidden;
  const tileOn = [...document.querySelectorAll('#tiles .tile')].some((t) => !t.disabled);
  return box.dataset.status === 'over' || on('#btn-roll') || on('#btn-one') || on('#btn-two')
    || (shutShown && tileOn) || on('#btn-next');
}"""

KEYS = {10: "0", 11: "-", 12: "="}

_NEW_ROOM = """async (body) => {
  const response = await fetch("/api/rooms", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const room = await response.json();
  const rooms = JSON.parse(localStorage.getItem("stb.rooms") || "{}");
  rooms[room.code] = room.token;  // as the page keeps the rooms it created
  localStorage.setItem("stb.rooms", JSON.stringify(rooms));
  return room.code;
}"""


def new_room(page: Page, body: dict[str, object]) -> str:
    """A room made through the API from the page (already open on the app), its seat token kept
    where the page keeps the rooms it made; its code."""
    code: str = page.evaluate(_NEW_ROOM, body)
    return code


def phase(page: Page) -> str:
    return page.get_attribute("#box", "data-phase") or ""


def is_over(page: Page) -> bool:
    return page.get_attribute("#box", "data-status") == "over"


def legal_moves(page: Page) -> list[list[int]]:
    moves: list[list[int]] = json.loads(page.get_attribute("#tiles", "data-legal") or "[]")
    return moves


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(READY)) and not is_over(page)


def handing_over(page: Page) -> bool:
    """Whether the end of a turn is held on screen, waiting for the next player to take over."""
    return page.is_visible("#btn-next")


def _press(page: Page, button: str) -> None:
    """Click ``button`` if it comes to be shown soon; if not, the state moved on since the caller
    looked (a turn ended, a stand-in played, the banner came): the caller looks again."""
    try:
        page.click(button, timeout=5_000)
    except PlaywrightTimeout:
        return


def click_once(page: Page) -> None:
    """One action by mouse: take over after a turn's end, roll, choose two dice (or the one allowed),
    or shut the longest legal move."""
    current = phase(page)
    if handing_over(page):
        _press(page, "#btn-next")
    elif current == "choose":
        _press(page, "#btn-two" if page.is_enabled("#btn-two") else "#btn-one")
    elif current in ("roll", "roll-off"):
        _press(page, "#btn-roll")
    else:
        moves = legal_moves(page)
        if not moves:  # the state moved on since READY (a banner ended, a turn passed): look again
            return
        move = max(moves, key=len)
        for index, tile in enumerate(move):
            page.click(f"#tiles [data-tile='{tile}']")
            if index < len(move) - 1:
                assert page.is_disabled("#btn-shut")  # a part of a move cannot be confirmed
        assert page.is_enabled("#btn-shut")
        page.click("#btn-shut")


def press_once(page: Page) -> None:
    """One action by keyboard: Enter takes over after a turn's end, R rolls, 1/2 choose dice, digits
    (0 - = for 10-12) pick tiles, Enter shuts."""
    current = phase(page)
    if handing_over(page):
        page.keyboard.press("Enter")
    elif current == "choose":
        page.keyboard.press("1" if not page.is_enabled("#btn-two") else "2")
    elif current in ("roll", "roll-off"):
        page.keyboard.press("r")
    else:
        moves = legal_moves(page)
        if not moves:  # the state moved on since READY: look again
            return
        move = max(moves, key=max)  # the highest tiles, so 0, - and = get pressed
        for tile in move:
            page.keyboard.press(KEYS.get(tile, str(tile)))
        page.keyboard.press("Enter")


def play_solo(page: Page, act: object = click_once, limit: int = 60) -> None:
    """Act until the game is over."""
    for _ in range(limit):
        page.wait_for_function(READY)
        if is_over(page):
            return
        act(page)  # type: ignore[operator]
    raise AssertionError("the game did not end")


def more_options(page: Page) -> None:
    """Open the Rules panel (closed at first, every rule option in it) as a player would, unless open."""
    if page.get_attribute("#rules-panel", "open") is None:
        page.click("#rules-panel > summary")


def advanced(page: Page) -> None:
    """Open the Rules panel and its Advanced part (the practice seed), unless they are open."""
    more_options(page)
    if page.get_attribute("#advanced", "open") is None:
        page.click("#advanced > summary")


def room_details(page: Page) -> None:
    """Open the room's line (its rules in words and the fair dice's proof fold into it), unless it is open."""
    if page.get_attribute("#room-details", "open") is None:
        page.click("#room-details > summary")


def choose_way(page: Page, who: str) -> None:
    """Open the panel of a way to play (``table``: with friends, ``bots``, ``online``) unless it is open."""
    if page.get_attribute(f"[data-who={who}]", "aria-expanded") != "true":
        page.click(f"[data-who={who}]")


def start_table(page: Page, names: tuple[str, ...] = ("Ana", "Luis"), preset: str | None = None) -> None:
    """Start a game at one table (pass and play) from the setup: a seat per name, in order."""
    choose_way(page, "table")
    for _ in range(len(names) - 2):
        page.click("#add-seat")
    for index, name in enumerate(names):
        page.fill(f"#seat-name-{index}", name)
    if preset is not None:
        more_options(page)
        page.select_option("#opt-preset", preset)
    page.click("#start")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")


def make_profile(page: Page, name: str) -> None:
    """Create the player's profile with the form the first visit shows."""
    page.fill("#profile-input", name)
    page.click("#profile-save")
    expect(page.locator("#profile-show .profile-name")).to_have_text(name)


def join_as(guest: Page, host: Page, code: str, name: str = "Luis") -> None:
    """``guest``, on the room's link, takes its open seat as ``name`` from the invitation; both see
    the game start."""
    expect(guest).to_have_url(re.compile(f"#/room/{code}$"))
    expect(guest.locator("#invite-title")).to_be_visible()
    guest.fill("#invite-name", name)
    guest.click("#invite-join")
    for page in (host, guest):
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        expect(page.locator("#players .name")).to_have_text(["Ana", name])
