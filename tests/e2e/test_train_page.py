"""The trainer in the page (#/train): a session of ten puzzles answered, each with its feedback (the
answers ranked, the best one the solver's, the why, the rating), then the session's summary."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Route, expect

from shutthebox.strategy.trainer import Puzzle
from tests.support.browser import PHONE, fresh_page, screenshot
from tests.support.play import make_profile

NAME = "Tomasa"  # the server lives for the session: a name no other test takes


def test_a_session_of_ten_puzzles_with_feedback(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    make_profile(page, NAME)
    page.goto("/#/train")
    expect(page.locator("#nav-train")).to_have_attribute("aria-current", "page")
    ratings = []
    for n in range(1, 11):
        page.wait_for_selector("#train-body[data-ready=true] .train-answer:not([disabled])")
        expect(page.locator(".train-count")).to_contain_text(f"Puzzle {n} of 10")
        key = page.get_attribute("#train-puzzle", "data-key")
        assert key
        advice = Puzzle.from_key(key).advice()
        assert advice.best is not None
        answers = page.locator(".train-answer")
        assert answers.count() == len(advice.choices)
        answers.nth(n % answers.count()).click()  # some right, some wrong
        feedback = page.locator("#train-feedback")
        expect(feedback).to_be_visible()
        expect(page.locator(".train-ranking tr")).to_have_count(len(advice.choices))
        expect(page.locator(".train-ranking tr.best th").first).to_contain_text(
            advice.best.label if advice.best.label[0].isdigit() else advice.best.label.split()[0]
        )
        assert page.locator(".train-why").inner_text().strip()
        ratings.append(page.locator(".train-rating").inner_text())
        if n == 3:
            screenshot(page, "train")
        if n < 10:
            page.click("#train-next")
    expect(page.locator(".train-summary")).to_contain_text("Session over:")
    assert len(set(ratings)) > 1  # the rating moved


def test_the_cheat_sheet_prints_on_one_page(page: Page, server: str) -> None:
    """The link of the trainer opens the sheet of its rules; printed, it is one page."""
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    make_profile(page, "Cheat")
    page.goto("/#/train")
    page.wait_for_selector("#train-body[data-ready=true]")
    page.select_option("#train-tiles", "12")
    href = page.get_attribute("#train-sheet", "href")
    assert href is not None and "tiles=12" in href
    page.goto(f"{server}{href}")
    expect(page.locator("table tbody tr")).to_have_count(24)
    pdf = page.pdf(format="A4")  # Chromium's print: one page object per page
    pages = [part for part in pdf.split(b"/Type")[1:] if part.lstrip().startswith(b"/Page")]
    assert len([part for part in pages if not part.lstrip().startswith(b"/Pages")]) == 1


def test_a_phone_trains_in_spanish_without_sideways_scrolling(browser: Browser, server: str) -> None:
    with fresh_page(browser, server, locale="es-ES", **PHONE) as page:
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        make_profile(page, "Telmo")
        page.goto("/#/train")
        page.select_option("#train-tiles", "12")
        expect(page.locator("#train-puzzle .train-tile")).to_have_count(12, timeout=60_000)
        page.wait_for_selector("#train-body[data-ready=true] .train-answer:not([disabled])")
        expect(page.locator("#train-title")).to_have_text("Entrenar")
        page.locator(".train-answer").first.tap()
        expect(page.locator("#train-feedback")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        screenshot(page, "train-phone")


def test_a_slow_answer_to_old_rules_never_replaces_the_puzzle_of_the_rules_chosen(page: Page) -> None:
    """Regression (CI met it): the first puzzle (nine tiles) was still being mined when the player
    chose twelve; the twelve came first, then the late nine replaced it on screen."""
    held: list[Route] = []

    def hold_the_nine(route: Route) -> None:
        if "tiles=9" in route.request.url:
            held.append(route)
        else:
            route.continue_()

    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    make_profile(page, "Lenta")
    page.route(lambda url: "/api/train?" in url, hold_the_nine)
    with page.expect_request(lambda request: "/api/train?" in request.url and "tiles=9" in request.url):
        page.goto("/#/train")
    page.select_option("#train-tiles", "12")
    expect(page.locator("#train-puzzle .train-tile")).to_have_count(12, timeout=60_000)
    with page.expect_response(lambda response: "tiles=9" in response.url) as late:
        held[0].continue_()
    late.value.finished()
    page.evaluate("new Promise((done) => setTimeout(done, 100))")  # the page reads the late answer
    expect(page.locator("#train-puzzle .train-tile")).to_have_count(12)
    expect(page.locator("#train-body")).to_have_attribute("data-ready", "true")
