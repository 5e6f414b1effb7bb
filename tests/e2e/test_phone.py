"""The page on a 390 x 844 phone: nine to twelve tiles on two rows, wide enough to tap, nothing wider
than the screen, and the main action (roll, shut, play again) on screen without scrolling."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.support.play import click_once, make_profile, play_solo

PHONE = {"width": 390, "height": 844}
TAP = 44  # the smallest comfortable touch target, in CSS pixels
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(locale="en-US", viewport=PHONE, base_url=server, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def quick_solo(page: Page, tiles: int) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"#quick-{tiles}")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")


def on_screen(page: Page, locator: Locator) -> None:
    """The element is wholly inside the viewport as the page is scrolled now."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None
    inside = box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] and box["x"] >= 0 \
        and box["x"] + box["width"] <= PHONE["width"]
    assert inside, f"{box} at scrollY {page.evaluate('scrollY')}"


def scrolled(page: Page, where: str) -> None:
    page.evaluate(f"window.scrollTo(0, {where})")
    page.wait_for_function(f"() => Math.abs(window.scrollY - Math.min({where}, "
                           "document.documentElement.scrollHeight - innerHeight)) < 2")


@pytest.mark.parametrize("tiles", [9, 10, 12])
def test_the_tiles_are_two_rows_wide_enough_to_tap(phone: Page, tiles: int) -> None:
    quick_solo(phone, tiles)
    phone.click("#btn-roll")
    phone.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    boxes = [tile.bounding_box() for tile in phone.locator("#tiles .tile").all()]
    assert len(boxes) == tiles and all(box is not None for box in boxes)
    widths = [box["width"] for box in boxes if box]
    assert min(widths) >= TAP, widths
    tops = phone.eval_on_selector_all("#tiles .tile", "(tiles) => tiles.map((tile) => tile.offsetTop)")
    assert len(set(tops)) == 2, tops  # two rows (offsetTop: as laid out, before any tile's transform)
    assert phone.evaluate(FITS)


def test_the_main_action_stays_on_screen_through_the_game(phone: Page) -> None:
    quick_solo(phone, 12)
    for where in ("0", "document.documentElement.scrollHeight"):
        scrolled(phone, where)
        on_screen(phone, phone.locator("#btn-roll"))
    phone.click("#btn-roll")
    phone.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
    phone.click("#btn-hint")  # the hint makes the page longer than the screen
    phone.click("#hint-confirm")
    expect(phone.locator("#hint ol li").first).to_be_visible()
    for where in ("0", "document.documentElement.scrollHeight"):
        scrolled(phone, where)
        on_screen(phone, phone.locator("#btn-shut"))
    assert phone.evaluate(FITS)


def test_play_again_is_on_screen_when_the_game_ends(phone: Page) -> None:
    quick_solo(phone, 9)
    play_solo(phone, click_once)
    expect(phone.locator("#result")).to_be_visible()
    on_screen(phone, phone.locator("#btn-again"))  # where the game left the page
    for where in ("0", "document.documentElement.scrollHeight"):
        scrolled(phone, where)
        on_screen(phone, phone.locator("#btn-again"))
    assert phone.evaluate(FITS)


def test_the_review_reads_without_sideways_scrolling(phone: Page) -> None:
    quick_solo(phone, 12)
    play_solo(phone, click_once)
    phone.click("#btn-review")
    rows = phone.locator("#review tbody tr")
    expect(rows.first).to_be_visible()
    assert phone.evaluate(FITS)
    wrap = phone.locator("#review .table-wrap")
    assert wrap.evaluate("(node) => node.scrollWidth <= node.clientWidth")  # no scroller inside either
    for row in rows.all():
        box = row.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # each cell still says which column it is
    expect(rows.first.locator("td").nth(2)).to_have_attribute("data-label", "Open tiles")


def test_a_hints_use_buttons_keep_their_word_whole_in_spanish(browser: Browser, server: str) -> None:
    """Regression: the hint's list let its "Usar" buttons shrink to a letter's width on a phone
    ("U / s / ar"), the words beside them taking the room (the list allowed any word to break)."""
    context = browser.new_context(locale="es-ES", viewport=PHONE, base_url=server, has_touch=True)
    page = context.new_page()
    try:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#profile-cancel")
        page.click("#quick-9")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        page.click("#btn-roll")
        page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
        page.click("#btn-hint")
        page.click("#hint-confirm")  # a ranked game: the hint's cost is asked first
        expect(page.locator("#hint ol li").first).to_be_visible()
        first = page.locator("#hint ol li").first.locator("strong").inner_text()
        expect(page.locator("#hint-best")).to_have_text(f"Lo mejor: cierra {first}.")  # then the numbers
        buttons = page.evaluate("""() => [...document.querySelectorAll('#hint .choice button')].map((b) => {
            const words = document.createRange();
            words.selectNodeContents(b);
            const width = b.getBoundingClientRect().width;
            return { text: b.textContent, width, lines: words.getClientRects().length };
        })""")
        assert buttons, "no choice to use"
        assert all(button["lines"] == 1 and button["width"] >= 44 for button in buttons), buttons
        assert page.evaluate(FITS)
    finally:
        context.close()


def test_the_scores_read_on_a_phone_without_sideways_scrolling(browser: Browser, server: str) -> None:
    """Regression: in Spanish the leaderboard's last column ("Cajas cerradas") was cut off behind a
    sideways scroll nothing hinted at, and the third board's button sat alone on a second row."""
    context = browser.new_context(locale="es-ES", viewport=PHONE, base_url=server, has_touch=True)
    page = context.new_page()
    try:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        make_profile(page, "Marisol")  # on the leaderboard: a named player
        page.click("#quick-9")
        expect(page.locator("#box")).to_have_attribute("data-status", "playing")
        play_solo(page, click_once)
        page.goto("/#/scores")
        for width in (390, 360, 320):  # the phones people hold, the smallest too
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            page.wait_for_selector("#leaderboard table")
            wide = page.evaluate("""() => { const table = document.querySelector('#leaderboard table');
                return [table.scrollWidth, table.parentElement.clientWidth]; }""")
            assert wide[0] <= wide[1], (width, wide)
            tabs = page.evaluate("""[...document.querySelectorAll('#board-tiles button')].map((b) => ({
                top: b.offsetTop, spills: b.scrollWidth > b.clientWidth }))""")
            one_row = len({tab["top"] for tab in tabs}) == 1
            assert one_row and not any(tab["spills"] for tab in tabs), (width, tabs)
            assert page.evaluate(FITS), width
    finally:
        context.close()


def test_a_touch_screens_top_bar_buttons_are_a_fingers_size(browser: Browser, server: str) -> None:
    """Regression: on a touch screen the sound button kept its 34 px (its own rule outranked the
    touch rule's 44), and before that every button of the bar was 32-38 px tall."""
    for width in (390, 1280):
        screen = {"width": width, "height": 800}
        context = browser.new_context(locale="es-ES", viewport=screen, base_url=server, has_touch=True,
                                      is_mobile=width < 500)
        page = context.new_page()
        try:
            page.goto("/")
            page.wait_for_selector("body[data-ready=true]")
            heights = page.evaluate("""[...document.querySelectorAll('.top button')]
                .filter((b) => b.offsetParent)
                .map((b) => [b.id || b.textContent, b.getBoundingClientRect().height])""")
            assert heights and all(height >= TAP for _name, height in heights), (width, heights)
        finally:
            context.close()
