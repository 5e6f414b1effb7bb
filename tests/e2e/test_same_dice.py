"""A shared result's "Play the same dice" (issue 28, defect 9): /?seed=N&tiles=T starts that practice
game at once, says it counts for no best, and leaves no best behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page
from tests.support.play import click_once, play_solo

PHONE: dict[str, object] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
SIZES = [pytest.param((PHONE, "es-ES"), id="phone-es"), pytest.param((DESK, "en-US"), id="desk-en")]
NO_BEST = {"es-ES": "ni para tu récord", "en-US": "no best"}


@pytest.fixture(params=SIZES)
def sized(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[tuple[Page, str]]:
    options, locale = request.param
    with fresh_page(browser, server, locale=locale, **options) as page:
        yield page, locale


def test_the_same_dice_link_starts_that_practice_game_and_counts_for_no_best(sized: tuple[Page, str]) -> None:
    page, locale = sized
    page.goto("/?seed=42&tiles=10")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    expect(page.locator("#tiles .tile")).to_have_count(10)
    expect(page.locator("#practice")).to_contain_text("42")
    expect(page.locator("#practice")).to_contain_text(NO_BEST[locale])
    assert page.evaluate("location.search") == ""  # a reload starts no second game
    code = page.locator("#room-info strong").inner_text().split()[-1]
    seed = page.evaluate("async (code) => (await (await fetch(`/api/rooms/${code}`)).json()).seed", code)
    assert seed == 42
    play_solo(page, click_once)
    page.goto("/#/")
    expect(page.locator("#local-bests .best")).to_have_count(0)


def test_a_link_with_no_seed_it_can_read_starts_nothing(sized: tuple[Page, str]) -> None:
    page, _ = sized
    page.goto("/?seed=x1&tiles=99")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#view-setup")).to_be_visible()
