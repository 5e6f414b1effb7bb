"""The page's tests: every one is marked ``e2e`` here, once; a real server (``shutthebox serve`` on
a free port, temporary SQLite) and Debian's Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, fresh_page, running_server

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder drives the browser: marked ``e2e`` before ``-m`` reads the marks, so
    ``-m "not e2e"`` deselects each of them, whether or not its module says so."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a running ``shutthebox serve`` with its own database."""
    with running_server(tmp_path_factory.mktemp("server")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one test module: Playwright's sync API holds an event loop while it runs,
    so it must stop before the asyncio tests of other modules start."""
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """A fresh English page on the server; any script error fails the test."""
    with fresh_page(browser, server, locale="en-US", viewport={"width": 1200, "height": 900}) as new_page:
        yield new_page
