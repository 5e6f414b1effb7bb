"""The statistics page (#/stats): its charts are drawn from the server's history of the games just played."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import screenshot
from tests.support.play import click_once, make_profile, play_solo

NAME = "Estela"  # the server lives for the session: a name no other test takes
NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
BARS = "(bars) => bars.map((b) => [b.dataset.low, b.dataset.high, b.dataset.count].map(Number))"


@pytest.fixture
def wide(browser: Browser, server: str) -> Iterator[Page]:
    """A desktop page, 1280 by 800; any script error fails the test."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800}, base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def open_stats(page: Page) -> None:
    page.goto("/#/stats")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#stats-body[data-ready=true]")
    expect(page.locator("#nav-stats")).to_have_attribute("aria-current", "page")


def counts(page: Page, selector: str) -> list[int]:
    return [int(n) for n in page.locator(selector).evaluate_all("(bars) => bars.map((b) => b.dataset.count)")]


def test_the_statistics_page_draws_the_charts_from_the_servers_history(wide: Page, server: str) -> None:
    page = wide
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    make_profile(page, NAME)
    for tiles in (9, 9, 12):
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        page.click(f"#quick-{tiles}")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        play_solo(page, click_once)

    player = quote(NAME, safe="")
    turns = httpx.get(f"{server}/api/players/{player}/history").json()["turns"]
    assert len(turns) == 3
    reviews = {t["game_id"]: httpx.get(f"{server}/api/games/{t['game_id']}/review").json() for t in turns}
    open_stats(page)

    expect(page.locator("#stats-head")).to_contain_text(f"3 games of {NAME}")
    assert sum(counts(page, ".chart-scores rect.bar")) == 3  # one score a game, each in its bar
    assert sum(counts(page, ".chart-grades rect.bar")) == 3
    for tiles in (9, 12):
        board = [t for t in turns if t["tiles"] == tiles]
        scores = [t["score"] for t in board]
        group = page.locator(f".stats-group[data-tiles='{tiles}']")
        bars = group.locator(".chart-scores rect.bar").evaluate_all(BARS)
        assert [count for _, _, count in bars] == [sum(lo <= s <= hi for s in scores) for lo, hi, _ in bars]
        grades = counts(group, ".chart-grades rect.bar")
        assert grades == [sum(t["grade"] == g for t in board) for g in "SABCF"]
        best = min(board, key=lambda t: t["score"])  # every quick solo game is ranked
        cell = page.locator(f"#stats-bests tr[data-tiles='{tiles}'] td.best")
        expect(cell).to_have_text(f"{best['score']} ({best['grade']})")
    for svg in page.locator("#view-stats svg").all():
        assert svg.get_attribute("role") == "img" and (svg.get_attribute("aria-label") or "").strip()

    rows = page.locator("#stats-last tr.game-row")
    expect(rows).to_have_count(3)
    shown = rows.locator("td.score").evaluate_all("(cells) => cells.map((c) => c.textContent)")
    assert shown == [f"{t['score']} ({t['grade']})" for t in turns]  # newest first
    reviewed = [g for g, review in reviews.items() if NAME in review["accuracy"]]
    expect(page.locator(".chart-accuracy circle.point")).to_have_count(len(reviewed))
    newest = turns[0]["game_id"]
    rows.first.get_by_role("button", name="Review").click()
    expect(page.locator(f"#stats-review-{newest} .stats-review tbody tr")).to_have_count(
        len(reviews[newest]["decisions"])
    )

    assert page.evaluate(NO_OVERFLOW)
    screenshot(page, "stats")
    page.set_viewport_size({"width": 390, "height": 844})
    open_stats(page)
    assert page.evaluate(NO_OVERFLOW)  # nothing sticks out sideways on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "stats-phone")


def test_without_a_profile_the_page_offers_one_and_shows_this_browser(wide: Page) -> None:
    page = wide
    open_stats(page)
    expect(page.locator("#stats-local")).to_contain_text("No solo game finished yet.")
    page.click("#stats-profile")
    expect(page.locator("#profile-input")).to_be_visible()
    expect(page.locator("#profile-input")).to_be_focused()
