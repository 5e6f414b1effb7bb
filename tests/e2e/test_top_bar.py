"""The top bar (brand, sections, profile chip, languages, sound) at every width from a small phone to a
wide screen, in English, Spanish and a pseudo-language (every word longer, a third language button),
on the first screen and in a room: the page never scrolls sideways, the bar never overflows, and no
two of its buttons or links overlap.

Regression: the bar folded into its phone menu only below 761 px; between 761 px and about 1,024 px
in English, and up to about 1,440 px in Spanish, its items did not fit (the languages under the
sound button, the bar up to 1,177 px wide on a 780 px screen in Spanish, the page scrolling sideways).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page, running_server
from tests.support.play import make_profile
from tools.catalogs import PSEUDO, write_pseudo

WIDTHS = (320, 390, 600, 760, 761, 780, 820, 900, 1023, 1024, 1100, 1200, 1279, 1280, 1366, 1440, 1600, 1920)
"""Phones, iPads in portrait (768 to 834), small and large laptops, a wide screen: each edge of a layout."""
LANGUAGES = {"en": ("en-US", "Maximiliana Covadonga"), "es": ("es-ES", "Covadonga Maximiliana"),
             PSEUDO: ("en-US", "Maximiliano Covadongo")}
"""Each language with the browser's locale, and a profile's name: its chip takes its place in the bar
too, a long name the longest (each its own, as a name is one profile's)."""

BAR = """() => {
  const bar = document.querySelector('header.top');
  const shown = [...bar.querySelectorAll('a, button')].filter((node) => {
    const box = node.getBoundingClientRect();
    return node.checkVisibility() && box.width > 0 && box.height > 0;
  });
  const boxes = shown.map((node) => ({ name: node.id || node.dataset.lang || node.textContent.trim(),
                                       box: node.getBoundingClientRect() }));
  const overlaps = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const [p, q] = [a.box, b.box];
      const apart = p.right <= q.left + 0.5 || q.right <= p.left + 0.5
        || p.bottom <= q.top + 0.5 || q.bottom <= p.top + 0.5;
      if (!apart) overlaps.push(`${a.name} / ${b.name}`);
    }
  }
  const outside = boxes.filter(({ box }) => box.left < -0.5 || box.right > innerWidth + 0.5)
    .map(({ name }) => name);
  return { page: document.documentElement.scrollWidth, window: innerWidth, bar: bar.scrollWidth,
           inside: bar.clientWidth, overlaps, outside, shown: boxes.length };
}"""


@pytest.fixture(scope="module")
def pseudo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with three languages: English, Spanish and the pseudo-language."""
    folder = tmp_path_factory.mktemp("top-bar")
    with running_server(folder, {"SHUTTHEBOX_LOCALES": str(write_pseudo(folder / "locale"))}) as url:
        yield url


def faults(page: Page) -> list[str]:
    """What is wrong with the bar at each width, as the page is now; none when it fits."""
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        seen = page.evaluate(BAR)
        if seen["page"] > seen["window"]:
            found.append(f"{width} px: the page is {seen['page']} px wide")
        if seen["bar"] > seen["inside"]:
            found.append(f"{width} px: the bar is {seen['bar']} px wide")
        if seen["overlaps"]:
            found.append(f"{width} px: overlapping {seen['overlaps']}")
        if seen["outside"]:
            found.append(f"{width} px: off the screen {seen['outside']}")
        if seen["shown"] < 3:  # the brand, the sound and the menu's button at least
            found.append(f"{width} px: only {seen['shown']} buttons or links shown")
    return found


@pytest.mark.parametrize("code", list(LANGUAGES), ids=["en", "es", "pseudo"])
def test_the_top_bar_fits_every_width_on_the_first_screen_and_in_a_room(
    browser: Browser, pseudo_server: str, code: str,
) -> None:
    locale, name = LANGUAGES[code]
    with fresh_page(browser, pseudo_server, locale=locale, viewport={"width": 1920, "height": 800}) as page:
        page.add_init_script(f"localStorage.setItem('stb.lang', '{code}')")
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        make_profile(page, name)
        expect(page.locator("#profile-chip")).to_be_visible()
        home = faults(page)
        page.set_viewport_size({"width": 1920, "height": 800})
        page.click("#quick-9")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        room = faults(page)
        found = [*(f"first screen, {fault}" for fault in home), *(f"room, {fault}" for fault in room)]
        assert not found, "\n".join(found)


ROWS = """() => [...document.querySelectorAll('header.top a, header.top button')]
  .filter((node) => node.checkVisibility()).map((node) => Math.round(node.getBoundingClientRect().top))"""


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_from_1200_px_the_bar_is_one_row_with_every_section_in_it(
    browser: Browser, server: str, locale: str,
) -> None:
    """English and Spanish, a profile's chip with a long name: one row, no taller than before, each
    section a click away; the languages show their codes and are still named by their names."""
    with fresh_page(browser, server, locale=locale, viewport={"width": 1920, "height": 800}) as page:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        make_profile(page, "Filomena Covadonga Ruiz" if locale == "es-ES" else "Bartholomew Maximilian")
        for width in (1200, 1280, 1366, 1440, 1536, 1920):
            page.set_viewport_size({"width": width, "height": 800})
            tops = page.evaluate(ROWS)
            assert max(tops) - min(tops) < 20, (width, tops)
            seen = page.evaluate(BAR)
            assert seen["bar"] <= seen["inside"] and not seen["overlaps"], (width, seen)
            bar = page.locator("header.top").bounding_box()
            assert bar is not None and bar["height"] <= 60, (width, bar)
            for section in ("play", "companion", "daily", "train", "rules", "scores", "stats"):
                expect(page.locator(f"#nav-{section}")).to_be_visible()
            expect(page.locator("#menu-toggle")).to_be_hidden()
        page.set_viewport_size({"width": 1280, "height": 800})
        spanish = page.get_by_role("button", name="Español", exact=True)  # its name, read aloud
        expect(spanish).to_have_text("Español")
        shown = spanish.evaluate("(node) => getComputedStyle(node, '::before').content")
        assert shown.startswith('"ES"'), shown  # its code, on the screen
        spanish.click()
        expect(page.locator("html")).to_have_attribute("lang", "es")
        page.click("#nav-rules")
        expect(page.locator("#view-rules")).to_be_visible()


@pytest.mark.parametrize("width", [768, 820, 1024, 1199])
def test_on_a_tablet_the_sections_fold_into_a_panel_under_the_menu(
    browser: Browser, server: str, width: int,
) -> None:
    with fresh_page(browser, server, locale="es-ES", viewport={"width": width, "height": 800}) as page:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#profile-cancel")
        expect(page.locator("#nav-rules")).to_be_hidden()
        page.click("#menu-toggle")
        expect(page.locator("#menu-toggle")).to_have_attribute("aria-expanded", "true")
        panel = page.locator("#menu").bounding_box()
        toggle = page.locator("#menu-toggle").bounding_box()
        assert panel is not None and toggle is not None
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width, panel
        assert panel["x"] + panel["width"] >= toggle["x"] + toggle["width"] - 1, (panel, toggle)  # under it
        assert panel["width"] < width / 2, panel  # a panel, not a sheet across the screen
        expect(page.locator("#langs button")).to_have_text(["English", "Español"])
        page.click("#nav-rules")
        expect(page.locator("#view-rules")).to_be_visible()
        expect(page.locator("#menu-toggle")).to_have_attribute("aria-expanded", "false")
