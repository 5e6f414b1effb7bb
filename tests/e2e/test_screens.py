"""Every screen of the page, on a desktop and on a phone: nothing wider than the screen, in English and
Spanish. With ``SHUTTHEBOX_SCREENSHOTS=docs`` it also refreshes the README's screenshots of each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import running_server, screenshot
from tests.support.play import (
    READY,
    click_once,
    handing_over,
    is_over,
    make_profile,
    more_options,
    play_solo,
    start_table,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: its 28 visits create rooms faster than one address's budget of
    the shared server allows the whole suite."""
    with running_server(tmp_path_factory.mktemp("screens")) as url:
        yield url


SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def setup(page: Page) -> None:
    more_options(page)


def game(page: Page) -> None:
    page.click("#quick-9")
    page.click("#btn-roll")
    page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")


def handover(page: Page) -> None:
    """A table of two, played until a turn's end is held on screen. A first player who shuts the
    box wins the round at once (no handover): then a new game, as CI once met."""
    for _game in range(5):
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        start_table(page)
        for _ in range(100):
            page.wait_for_function(READY)
            if is_over(page):
                break
            rolloff = ("Roll-off", "Tirada")  # who starts: not a turn's end
            if handing_over(page) and not page.locator("#handover strong").inner_text().startswith(rolloff):
                return
            click_once(page)
    raise AssertionError("no turn ended")


def result(page: Page) -> None:
    page.click("#quick-9")
    play_solo(page)
    page.click("#btn-review")
    expect(page.locator("#review table")).to_be_visible()


PLAYERS = (name for n in count() for name in [f"Marta {n}", f"Pablo {n}", f"Lucía {n}", f"Diego {n}"])
"""A profile name for each statistics page: the server keeps names unique."""


def stats(page: Page) -> None:
    make_profile(page, next(PLAYERS))
    page.click("#quick-9")
    play_solo(page)
    assert is_over(page)
    page.goto("/#/stats")
    expect(page.locator("#view-stats svg").first).to_be_visible()


SCREENS: dict[str, Callable[[Page], None]] = {
    "setup": setup, "game": game, "handover": handover, "result": result,
    "rules": lambda page: page.goto("/#/rules"), "scores": lambda page: page.goto("/#/scores"),
    "stats": stats,
}


@pytest.mark.parametrize("lang", ["en-US", "es-ES"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(SCREENS))
def test_each_screen_fits_the_screen(browser: Browser, server: str, name: str, size: str, lang: str) -> None:
    context = browser.new_context(locale=lang, viewport=SIZES[size], base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    if name != "stats":
        page.click("#profile-cancel")  # a guest: the first visit's name form would stand above everything
    SCREENS[name](page)
    assert page.evaluate(FITS), f"{name} is wider than the {size} screen"
    if lang == "en-US" and name != "stats":  # test_stats takes the statistics pictures
        screenshot(page, name if size == "desktop" else f"{name}-phone")
    context.close()
    assert errors == []
