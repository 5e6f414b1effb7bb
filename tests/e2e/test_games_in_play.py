"""The player's games in play on the first screen (issue 28, defect 1): each resumed with the seat
token this browser keeps, or resigned after being asked; shown where the server refuses one more."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page
from tests.support.serving import running

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK = {"viewport": {"width": 1280, "height": 800}}
SIZES = [pytest.param((PHONE, "es-ES"), id="phone-es"), pytest.param((DESK, "en-US"), id="desk-en")]
TITLE = {"es-ES": "Tus partidas en juego", "en-US": "Your games in play"}

_MANY = """async (count) => {
  const guest = localStorage.getItem("stb.guest");
  for (let i = 0; i < count; i += 1) {
    // one guest's games from many addresses (a phone on the move): only the guest's own cap counts
    const headers = {
      "Content-Type": "application/json", "X-Guest-Key": guest, "X-Forwarded-For": `10.0.${i}.1`,
    };
    const body = JSON.stringify({ seats: [{ name: "Ana" }], seed: i + 1 });
    const response = await fetch("/api/rooms", { method: "POST", headers, body });
    if (response.status !== 201) throw new Error(await response.text());
  }
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own that reads the address a request names (X-Forwarded-For), so
    one guest's twenty games come from twenty addresses, none of them over its rate of new rooms."""
    folder = tmp_path_factory.mktemp("in-play")
    trusting = ["--trust-proxy", "127.0.0.1"]
    with running(folder, database="e2e.db", bot_delay="0.05", options=trusting) as served:
        yield served.url


@pytest.fixture(params=SIZES)
def page(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Page]:
    options, locale = request.param
    with fresh_page(browser, server, locale=locale, **options) as new_page:
        new_page.goto("/")
        new_page.wait_for_selector("body[data-ready=true]")
        yield new_page


def locale_of(page: Page) -> str:
    return "es-ES" if page.evaluate("document.documentElement.lang").startswith("es") else "en-US"


def test_a_game_in_play_is_listed_resumed_and_resigned_after_asking(page: Page) -> None:
    expect(page.locator("#in-play")).to_be_hidden()  # none yet
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    page.goto("/#/")
    card = page.locator("#in-play")
    expect(card).to_be_visible()
    expect(card.locator("h2")).to_have_text(TITLE[locale_of(page)])
    game = card.locator(".in-play-game")
    expect(game).to_have_count(1)
    code = game.get_attribute("data-code")
    expect(game).to_contain_text("9")
    game.locator("[data-resume]").click()  # the seat token this browser keeps
    expect(page.locator("#view-game")).to_be_visible()
    expect(page.locator("#room-info strong")).to_contain_text(str(code))
    page.goto("/#/")
    card.locator(f'[data-resign="{code}"]').click()
    expect(card.locator(".in-play-ask")).to_be_visible()  # asked first
    card.locator(f'[data-resign-no="{code}"]').click()
    expect(game).to_have_count(1)
    card.locator(f'[data-resign="{code}"]').click()
    card.locator(f'[data-resign-yes="{code}"]').click()
    expect(card).to_be_hidden()
    listed = page.evaluate("""async () => (await (await fetch("/api/me/rooms",
        { headers: { "X-Guest-Key": localStorage.getItem("stb.guest") } })).json()).games.length""")
    assert listed == 0


def test_too_many_games_shows_them_to_resign_one(page: Page) -> None:
    page.evaluate(_MANY, 20)  # the server's cap per player
    page.click("#quick-9")
    expect(page.locator("#quick-error")).to_contain_text("20")
    games = page.locator("#in-play .in-play-game")
    expect(games).to_have_count(20)
    expect(page.locator("#in-play")).to_be_in_viewport()
    first = games.first
    assert first.locator("[data-resume]").count() == 0  # made elsewhere: no seat token here
    first.locator("[data-resign]").click()
    first.locator("[data-resign-yes]").click()
    expect(games).to_have_count(19)
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
