"""An online room's words to its seats (issue 28, defects 5 and 6): a declined rematch told by name
("Luis no quiere la revancha") with nobody thrown into a game alone; how many watch ("2 mirando");
the creator's switch that makes the room private and sends its watchers away."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page
from tests.support.play import click_once, is_over, my_turn, new_room, room_details

PHONE: dict[str, object] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
ROOM: dict[str, object] = {
    "seats": [{"name": "Ana"}, {"kind": "remote"}], "rules": {"tiles": 9}, "seed": 5,
}
_WATCH = """(code) => new Promise((resolve) => {
  const url = `${location.origin.replace("http", "ws")}/api/rooms/${code}/ws`;
  window.watching = [new WebSocket(url), new WebSocket(url)];
  let open = 0;
  for (const socket of window.watching) {
    socket.addEventListener("message", () => { open += 1; if (open === 2) resolve(); }, { once: true });
  }
})"""


@pytest.fixture
def table(browser: Browser, server: str) -> Iterator[tuple[Page, Page]]:
    """Ana on a phone, in Spanish, made the room; Luis, at a desk in English, joined it by its link."""
    with (
        fresh_page(browser, server, locale="es-ES", **PHONE) as host,
        fresh_page(browser, server, locale="en-US", **DESK) as guest,
    ):
        host.goto("/")
        host.wait_for_selector("body[data-ready=true]")
        code = new_room(host, ROOM)
        host.goto(f"/#/room/{code}")
        guest.goto(f"/#/room/{code}")
        guest.fill("#invite-name", "Luis")
        guest.click("#invite-join")
        for page in (host, guest):
            expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        yield host, guest


def play_both(pages: tuple[Page, Page], limit: int = 300) -> None:
    """Whoever's turn it is plays, until both pages show the game over."""
    for _ in range(limit):
        if all(is_over(page) for page in pages):
            return
        mover = next((page for page in pages if my_turn(page)), None)
        if mover is None:
            pages[0].wait_for_timeout(50)
        else:
            click_once(mover)
    raise AssertionError("the game did not end")


def test_a_declined_rematch_is_told_by_name_and_the_offerer_stays(table: tuple[Page, Page]) -> None:
    host, guest = table
    play_both(table)
    where = host.url
    host.click("#btn-again")
    guest.click("#rematch-decline")
    expect(host.locator("#rematch-declined")).to_have_text("Luis no quiere la revancha")
    expect(host.locator("#rematch-outcome")).to_have_text("Esta vez no hay revancha.")
    host.wait_for_timeout(500)
    assert host.url == where  # no game alone forced on her
    expect(host.locator("#box")).to_have_attribute("data-status", "over")
    expect(guest.locator("#rematch-declined")).to_have_count(0)  # his own answer is his list's


def move_once(table: tuple[Page, Page]) -> None:
    """Whoever's turn it is plays one step (waiting for one of them to have it)."""
    for _ in range(200):
        mover = next((page for page in table if my_turn(page)), None)
        if mover is not None:
            click_once(mover)
            return
        table[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn came")


def test_the_seats_see_how_many_watch_and_the_creator_makes_the_room_private(
    browser: Browser, server: str, table: tuple[Page, Page]
) -> None:
    host, guest = table
    code = host.url.rsplit("/", 1)[-1]
    with fresh_page(browser, server) as watcher:
        watcher.goto("/")
        watcher.evaluate(_WATCH, code)
        move_once(table)  # the seats hear of the watchers with the next state
        expect(host.locator("#watchers")).to_have_text("2 mirando")
        expect(guest.locator("#watchers")).to_have_text("2 watching")
        expect(guest.locator("#privacy")).to_be_hidden()  # only the creator decides
        room_details(host)
        host.check("#room-private")
        closed = "() => window.watching.every((socket) => socket.readyState === WebSocket.CLOSED)"
        watcher.wait_for_function(closed)  # a function, not a string to eval: the CSP allows no eval
        expect(guest.locator("#players .name")).to_have_text(["Ana", "Luis"])
        move_once(table)
        expect(host.locator("#watchers")).to_have_count(0)
        expect(host.locator("#room-private")).to_be_checked()
