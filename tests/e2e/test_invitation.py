"""An invite link (issue 28, defect 5): who invites, to what game, in a player's words, and a name
to join with, instead of the setup page; a room with no seat left offers to watch; a private room
says so."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page, screenshot
from tests.support.play import new_room

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK = {"viewport": {"width": 1280, "height": 800}}
SIZES = [pytest.param((PHONE, "es-ES"), id="phone-es"), pytest.param((DESK, "en-US"), id="desk-en")]
INVITES = {
    "es-ES": "Ana te invita: 9 fichas, una ronda: gana la puntuación más baja.",
    "en-US": "Ana invites you: 9 tiles, a round: the lowest score wins.",
}
ROOM: dict[str, object] = {
    "seats": [{"name": "Ana"}, {"kind": "remote"}], "rules": {"tiles": 9, "mode": "round"},
}
Size = tuple[dict[str, object], str]
_JOIN = """async ([code, name]) => (await fetch(`/api/rooms/${code}/join`, {
  method: "POST", headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ name }) })).status"""


@pytest.fixture
def host(browser: Browser, server: str) -> Iterator[Page]:
    with fresh_page(browser, server, locale="en-US") as page:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        yield page


@pytest.fixture(params=SIZES)
def size(request: pytest.FixtureRequest) -> Size:
    options, locale = request.param
    return options, locale


def open_link(browser: Browser, server: str, size: Size) -> AbstractContextManager[Page]:
    """A page of its own at this size and in this language, for one who got the link."""
    options, locale = size
    return fresh_page(browser, server, locale=locale, **options)


def test_an_invite_link_says_who_invites_to_what_and_joins(
    browser: Browser, server: str, host: Page, size: Size
) -> None:
    code = new_room(host, ROOM)
    with open_link(browser, server, size) as guest:
        guest.goto(f"/#/room/{code}")
        guest.wait_for_selector("body[data-ready=true]")
        expect(guest.locator("#invite-title")).to_have_text(INVITES[size[1]])
        expect(guest.locator("#view-setup")).to_be_hidden()  # not the generic setup page
        expect(guest.locator("#invite-rules")).not_to_be_empty()  # the rules, as the Rules panel says them
        expect(guest.locator("#invite-name")).to_be_in_viewport()
        expect(guest.locator("#invite-join")).to_be_in_viewport()
        screenshot(guest, "invitation-phone" if size[0] is PHONE else "invitation")
        guest.click("#invite-join")  # no name yet: asked for
        expect(guest.locator("#invite-error")).to_be_visible()
        guest.fill("#invite-name", "Luis")
        guest.click("#invite-join")
        expect(guest.locator("#box")).to_have_attribute("data-status", "playing")
        expect(guest.locator("#players .name")).to_have_text(["Ana", "Luis"])


def test_a_room_with_no_seat_left_offers_to_watch(
    browser: Browser, server: str, host: Page, size: Size
) -> None:
    code = new_room(host, ROOM)
    assert host.evaluate(_JOIN, [code, "Luis"]) == 200
    with open_link(browser, server, size) as watcher:
        watcher.goto(f"/#/room/{code}")
        watcher.wait_for_selector("body[data-ready=true]")
        expect(watcher.locator("#invite-title")).to_contain_text(code)
        watcher.click("#invite-watch")
        expect(watcher.locator("#view-game")).to_be_visible()
        expect(watcher.locator("#players .name")).to_have_text(["Ana", "Luis"])
        expect(watcher.locator("#btn-roll:enabled:visible")).to_have_count(0)  # no seat, no action


def test_a_private_room_says_so(browser: Browser, server: str, host: Page, size: Size) -> None:
    code = new_room(host, {**ROOM, "private": True, "seed": 3})
    with open_link(browser, server, size) as invited:
        invited.goto(f"/#/room/{code}")
        invited.wait_for_selector("body[data-ready=true]")
        expect(invited.locator("#invite-private")).to_be_visible()  # the invited still see who invites
    assert host.evaluate(_JOIN, [code, "Luis"]) == 200
    with open_link(browser, server, size) as stranger:
        stranger.goto(f"/#/room/{code}")
        stranger.wait_for_selector("body[data-ready=true]")
        words = "privada" if size[1] == "es-ES" else "private"
        expect(stranger.locator("#invite-refused")).to_contain_text(words)
        expect(stranger.locator("#invite-watch")).to_have_count(0)


_SHARED = """() => {
  window.__shared = [];
  navigator.share = async (data) => { window.__shared.push(data); };
}"""


def test_the_host_invites_with_the_phones_share_sheet_and_an_open_seat_reads_as_open(
    browser: Browser, server: str
) -> None:
    """Regression: the host's only way to invite was a raw link and a small "Copy link", and the seat
    kept for the friend read "… not connected" as if someone had dropped out."""
    with fresh_page(browser, server, locale="es-ES", **PHONE) as page:
        page.add_init_script(f"({_SHARED})()")  # a phone's share sheet, recorded
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        code = new_room(page, ROOM)
        page.goto(f"/#/room/{code}")
        expect(page.locator("#room-code")).to_have_text(code)
        expect(page.locator("#players [data-seat='1']")).to_contain_text("puesto libre")
        expect(page.locator("#players [data-seat='1']")).not_to_contain_text("sin conexión")
        share = page.locator("#invite-share")
        expect(share).to_have_text("Invitar")
        box = share.bounding_box()
        assert box is not None and box["height"] >= 44
        share.click()
        page.wait_for_function("() => window.__shared.length === 1")
        shared = page.evaluate("window.__shared[0]")
        assert shared["url"].endswith(f"/#/room/{code}") and code in shared["text"], shared
    with fresh_page(browser, server, locale="en-US", **DESK) as page:  # no share sheet: the link is copied
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        code = new_room(page, ROOM)
        page.goto(f"/#/room/{code}")
        expect(page.locator("#invite-share")).to_have_count(0)
        expect(page.locator("#invite-copy")).to_have_class("primary")
