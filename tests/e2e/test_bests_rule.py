"""The page's best follows the server's one rule of what counts (`core.ranking`): it said "New best!"
for a practice game on a chosen seed, after telling the player it counted for no best, and kept a
hinted game's score as a best of this browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import fresh_page
from tests.support.play import click_once, new_room, play_solo


@pytest.fixture
def opened(page: Page) -> Page:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def test_a_practice_game_says_it_counts_for_no_best_and_is_no_best_of_this_browser(opened: Page) -> None:
    page = opened
    code = new_room(page, {"preset": "web", "seats": [{"name": "Pia"}], "seed": 7})
    page.goto(f"/#/room/{code}")
    play_solo(page, click_once)
    expect(page.locator("#best-local")).to_have_text(
        "A practice game: its dice came from a chosen seed, so it counts for no best."
    )
    expect(page.locator("#best-local .new-best")).to_have_count(0)
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#local-bests li.best")).to_have_count(0)  # this browser keeps no best of it


def test_a_hinted_game_counts_as_it_stood_when_the_hint_came(opened: Page) -> None:
    page = opened
    code = new_room(page, {"preset": "web", "seats": [{"name": "Hugo"}]})  # fair dice: ranked
    page.goto(f"/#/room/{code}")
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    page.click("#btn-hint")
    expect(page.locator("#hint-warning")).to_contain_text("counts 45 in the rankings")
    page.click("#hint-confirm")
    expect(page.locator("#hint ol li").first).to_be_visible()
    play_solo(page, click_once)
    expect(page.locator("#best-local")).to_contain_text(
        "with the hint, this game counts 45: the tiles as they stood when you asked"
    )
    expect(page.locator("#best-local")).to_contain_text("with these rules: 45")
    expect(page.locator("#best-local .new-best")).to_have_count(0)  # a first 45 with help: no "New best!"
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#local-bests li[data-tiles='9']")).to_contain_text(": 45 ")


def test_the_spanish_page_says_the_same_rule(browser: object, server: str) -> None:
    with fresh_page(browser, server, locale="es-ES") as page:  # type: ignore[arg-type]
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        code = new_room(page, {"preset": "web", "seats": [{"name": "Pia"}], "seed": 3})
        page.goto(f"/#/room/{code}")
        play_solo(page, click_once)
        expect(page.locator("#best-local")).to_contain_text("no cuenta para ninguna mejor marca")
