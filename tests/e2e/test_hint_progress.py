"""A slow hint told honestly (issue 28, defect 13): a round's hint of many players on many tiles takes
the solver seconds; meanwhile the card says what is worked out and for how long so far, the game stays
playable, and the player may stop waiting. The hint is held back on its way to the page (the socket
routed), so the wait is as long as the test says, whatever the machine's speed."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.support.browser import fresh_page
from tests.support.play import new_room

PHONE: dict[str, object] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
SIZES = [pytest.param((PHONE, "es-ES"), id="phone-es"), pytest.param((DESK, "en-US"), id="desk-en")]
WORK = {
    "es-ES": "frente a las puntuaciones de los otros 2 jugadores",
    "en-US": "against the 2 other players' scores",
}
ROOM: dict[str, object] = {
    "rules": {"tiles": 9, "mode": "round"}, "seed": 3,
    "seats": [{"kind": "here", "name": name} for name in ("Ana", "Ben", "Cy")],
}


class HeldHints:
    """The room's socket, routed: every message passes but the hints, held until released."""

    def __init__(self) -> None:
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None

    def route(self, ws: WebSocketRoute) -> None:
        self.page_side = ws
        server = ws.connect_to_server()
        server.on_message(self.passing)

    def passing(self, message: str | bytes) -> None:
        if '"hint"' in str(message):
            self.held.append(message)
        else:
            assert self.page_side is not None
            self.page_side.send(message)

    def release(self) -> None:
        assert self.page_side is not None and self.held, "no hint came from the server"
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


@pytest.fixture(params=SIZES)
def hinted(
    request: pytest.FixtureRequest, browser: Browser, server: str
) -> Iterator[tuple[Page, HeldHints, str]]:
    options, locale = request.param
    with fresh_page(browser, server, locale=locale, **options) as page:
        hints = HeldHints()
        page.route_web_socket(lambda url: "/ws?" in url, hints.route)  # the room's socket
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        code = new_room(page, ROOM)
        page.goto(f"/#/room/{code}")
        until_decision(page)
        yield page, hints, locale


def until_decision(page: Page) -> None:
    """Roll and hand over until the seat to play has a choice."""
    for _ in range(40):
        phase = page.locator("#box").get_attribute("data-phase")
        if phase in ("choose", "move") and not page.locator("#btn-next").is_visible():
            return
        for button in ("#btn-next", "#btn-roll"):
            if page.locator(button).is_visible():
                page.click(button)
                break
        page.wait_for_timeout(150)
    raise AssertionError("no decision came")


def playable(page: Page) -> None:
    if page.locator("#box").get_attribute("data-phase") == "move":
        expect(page.locator("#tiles .tile:enabled").first).to_be_visible()
    else:
        expect(page.locator("#btn-two")).to_be_enabled()


def test_a_slow_hint_says_what_it_works_out_and_for_how_long(hinted: tuple[Page, HeldHints, str]) -> None:
    page, hints, locale = hinted
    page.click("#btn-hint")
    expect(page.locator("#hint-progress")).to_contain_text(WORK[locale])
    expect(page.locator("#hint-elapsed")).to_have_text(re.compile(r"^[2-9] s"), timeout=5000)  # it counts
    playable(page)  # the game goes on meanwhile
    expect(page.locator("#hint-stop")).to_be_visible()
    hints.release()
    expect(page.locator("#hint ol li").first).to_be_visible()
    expect(page.locator("#hint-progress")).to_have_count(0)


def test_the_player_may_stop_waiting_for_a_hint(hinted: tuple[Page, HeldHints, str]) -> None:
    page, hints, _ = hinted
    page.click("#btn-hint")
    expect(page.locator("#hint-progress")).to_be_visible()
    page.click("#hint-stop")
    expect(page.locator("#hint")).to_be_hidden()
    page.wait_for_timeout(300)
    hints.release()
    page.wait_for_timeout(500)
    expect(page.locator("#hint")).to_be_hidden()  # the hint given up is not shown when it comes
    page.click("#btn-hint")
    page.wait_for_timeout(300)
    hints.release()
    expect(page.locator("#hint ol li").first).to_be_visible()
