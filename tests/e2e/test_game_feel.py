"""The feel of a real game (issue 28): the page's own typeface, shipped with the package and never
asked of another server; tiles that flip down as they are shut; a final score that counts up; and
none of that motion when the reader asks for reduced motion."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page
from tests.support.play import click_once, play_solo

SPY = """
window.__seen = { flips: 0, counts: [] };
new MutationObserver((changes) => {
  for (const change of changes) {
    const node = change.target;
    if (change.type === 'attributes' && node.classList?.contains('flip-down')) window.__seen.flips += 1;
    const count = node.classList?.contains('final-count') ? node : node.parentElement;
    if (count?.classList?.contains('final-count')) window.__seen.counts.push(count.textContent);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true,
                       characterData: true });
"""


@pytest.fixture
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    motion = getattr(request, "param", "no-preference")
    with fresh_page(browser, server, locale="en-US", viewport={"width": 390, "height": 844},
                    reduced_motion=motion) as opened:
        opened.add_init_script(SPY)
        yield opened


def test_the_typeface_comes_with_the_page_and_from_nowhere_else(page: Page, server: str) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate("[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family)")
    assert any("Alegreya" in family for family in loaded), loaded
    assert [url for url in asked if not url.startswith(server)] == []
    assert any(url.endswith(".woff2") for url in asked), asked
    family = page.locator(".brand h1").evaluate("(h) => getComputedStyle(h).fontFamily")
    assert family.startswith('"Alegreya"') or family.startswith("Alegreya"), family


def test_tiles_flip_down_and_the_score_counts_up(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#profile-cancel")
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    expect(page.locator("#final-score")).to_be_visible()
    seen = page.evaluate("window.__seen")
    assert seen["flips"] > 0, seen
    final = page.locator("#final-score").inner_text().split()[-1]  # "Score 22": where the count ends
    if final != "0":  # counted from 0 up to the score
        page.wait_for_function("(n) => document.querySelector('.final-count').textContent === n", arg=final)
        assert len(set(page.evaluate("window.__seen").get("counts"))) > 2, page.evaluate("window.__seen")


@pytest.mark.parametrize("page", ["reduce"], indirect=True)
def test_reduced_motion_flips_no_tile_and_shows_the_score_at_once(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#profile-cancel")
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    expect(page.locator("#final-score")).to_be_visible()
    seen = page.evaluate("window.__seen")
    assert seen["flips"] == 0, seen
    assert len(set(seen["counts"])) <= 2, seen  # "0" at most, then the score
    expect(page.locator("#demo-skip")).to_be_hidden()  # nor a lesson played by itself
