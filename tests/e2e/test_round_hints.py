"""A round of three for stakes at one table, in the browser: every seat's hint is the round's, in stakes."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.support.browser import PHONE, fresh_page
from tests.support.play import new_room

ROOM = {
    "rules": {"tiles": 9, "stake": 2}, "seed": 3,
    "seats": [{"kind": "here", "name": name} for name in ("Ana", "Ben", "Cy")],
}


def ask_hint(page: Page) -> None:
    page.click("#btn-hint")
    confirm = page.locator("#hint-confirm")
    if confirm.is_visible():
        confirm.click()
    expect(page.locator("#hint ol li").first).to_be_visible()


def until_decision(page: Page) -> None:
    """Roll (the roll-off, then the turn's dice) and hand over until the seat to play has a choice."""
    for _ in range(30):
        phase = page.locator("#box").get_attribute("data-phase")
        if phase in ("choose", "move") and not page.locator("#btn-next").is_visible():
            return
        for button in ("#btn-next", "#btn-roll"):  # the handover to the next player, or the dice
            if page.locator(button).is_visible():
                page.click(button)
                break
        page.wait_for_timeout(150)
    raise AssertionError("no decision came")


def test_each_seat_of_a_round_for_stakes_is_hinted_in_stakes(browser: Browser, server: str) -> None:
    with fresh_page(browser, server, locale="en-US") as page:
        page.goto("/")
        code = new_room(page, ROOM)
        page.goto(f"/#/room/{code}")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        until_decision(page)
        ask_hint(page)
        expect(page.locator("#hint h3")).to_have_text("Hint: stakes you can expect from the round")
        expect(page.locator("#hint-seat")).to_have_text("Seat 1 of 3: nobody has played yet.")
        stakes = re.compile(r"^[+-]?\d\.\d{3} stakes expected$")
        expect(page.locator("#hint ol li .value").first).to_have_text(stakes)
        for _ in range(40):  # the first seat follows its hints to the end of its turn
            page.locator("#hint ol li button").first.click()
            if page.locator("#btn-shut").is_enabled():
                page.click("#btn-shut")
            page.wait_for_timeout(200)
            until_decision(page)
            ask_hint(page)
            if page.locator("#hint-seat").inner_text().startswith("Seat 2"):
                break
        posted = re.compile(r"^Seat 2 of 3: the best score so far is \d+\.$")
        expect(page.locator("#hint-seat")).to_have_text(posted)


def test_a_spanish_phone_reads_the_stakes_hint(browser: Browser, server: str) -> None:
    with fresh_page(browser, server, locale="es-ES", **PHONE) as page:
        page.goto("/")
        code = new_room(page, ROOM)
        page.goto(f"/#/room/{code}")
        until_decision(page)
        ask_hint(page)
        expect(page.locator("#hint h3")).to_have_text("Pista: apuestas que puedes esperar de la ronda")
        expect(page.locator("#hint-seat")).to_have_text("Puesto 1 de 3: todavía no ha jugado nadie.")
        expect(page.locator("#hint ol li .value").first).to_contain_text("apuestas esperadas")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
