"""The server's Content-Security-Policy in a real browser: the page, the API docs and the cheat
sheet load and work under it, and the browser reports no violation."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import running_server

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""Put in every page before its own scripts run: the violations the browser reports."""
RULES = [
    "(n != 1)", "(n > 1)", "0",
    "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)", "!(n == 1)",
]
"""Plural rules of gettext catalogs (English, French, Japanese, Russian, Arabic…)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: its games in play count against no other module's."""
    with running_server(tmp_path_factory.mktemp("policy")) as url:
        yield url


@contextmanager
def watched(browser: Browser, server: str, locale: str = "en-US") -> Iterator[Page]:
    """A fresh page that fails the test on any script error or policy violation, or a console
    message that names the policy."""
    context = browser.new_context(base_url=server, locale=locale)
    context.add_init_script(WATCH)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda line: problems.extend([line.text] if "Content Security" in line.text else []))
    yield page
    problems.extend(page.evaluate("window.__violations"))
    context.close()
    assert problems == []


def test_the_page_plays_under_its_policy_in_both_languages(browser: Browser, server: str) -> None:
    with watched(browser, server, locale="es-ES") as page:
        page.goto("/")
        expect(page.locator("#opt-tiles option[value='1']")).to_have_text("1 ficha")  # a plural form, read
        page.click("#quick-9")
        page.click("#btn-roll")
        page.wait_for_function("() => document.querySelector('#box').dataset.phase === 'move'")
        page.goto("/#/stats")
        page.goto("/#/daily")
        expect(page.locator("#daily-body")).to_have_attribute("data-ready", "true")


def test_the_plural_rules_are_read_as_gettext_reads_them(browser: Browser, server: str) -> None:
    """Read without eval (the policy forbids it): the same forms as Python's own reading."""
    with watched(browser, server) as page:
        page.goto("/")
        counts = [*range(0, 130), 1000, 1001, 1011, 1021]
        script = "async ([rules, counts]) => { const { pluralRule } = await import('/static/i18n.js');" \
                 " return rules.map((rule) => counts.map(pluralRule(rule))); }"
        forms = page.evaluate(script, [RULES, counts])
        assert forms == [[gettext.c2py(rule)(n) for n in counts] for rule in RULES]


def test_the_api_docs_and_the_cheat_sheet_work_under_their_own_policies(
    browser: Browser, server: str
) -> None:
    with watched(browser, server) as page:
        page.goto("/docs")
        expect(page.locator(".opblock").first).to_be_visible()  # Swagger UI started: its inline script ran
        page.goto("/api/cheatsheet?preset=web&tiles=9")
        header = page.locator("thead th").first
        expect(header).to_have_css("background-color", "rgb(246, 232, 195)")  # its inline style applies


def test_the_policy_is_in_force_and_its_violations_are_seen(browser: Browser, server: str) -> None:
    """What the other tests rely on: the browser enforces the policy, and `watched` would see a breach."""
    context = browser.new_context(base_url=server)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto("/")
    injected = "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';" \
               " document.body.append(s); }"
    page.evaluate(injected)  # what a stored name turned into markup would try
    page.wait_for_function("() => window.__violations.length > 0")
    assert page.evaluate("window.ran") is None
    assert page.evaluate("window.__violations")[0].startswith("script-src")
    context.close()
