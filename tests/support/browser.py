"""The page's tests: a real server (``shutthebox serve`` on a free port, temporary SQLite), Debian's
Chromium, a fresh page that fails on any script error, and the README's screenshots."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.support.serving import running

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SCREENSHOTS = os.environ.get("SHUTTHEBOX_SCREENSHOTS")  # a folder: save the README's screenshots there


@contextmanager
def running_server(folder: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``shutthebox serve`` on a free port with its database in ``folder``; its URL while it runs."""
    with running(folder, database="e2e.db", bot_delay="0.05", env=env) as server:
        yield server.url


@contextmanager
def fresh_page(browser: Browser, server: str, **options: object) -> Iterator[Page]:
    """A page in a context of its own (``options``: locale, viewport…); any script error fails, and
    anything the server's Content-Security-Policy blocks."""
    context = browser.new_context(base_url=server, **options)  # type: ignore[arg-type]
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append(str(error)))
    new_page.on("console", lambda line: errors.extend([line.text] if "Content Security" in line.text else []))
    yield new_page
    context.close()
    assert errors == []


PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
"""A small phone's screen, as the page must fit it."""


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot for the README when ``SHUTTHEBOX_SCREENSHOTS`` names a folder.

    Each name has one test that takes it, so the pictures do not hang on the order the tests ran
    in (nor on which xdist worker ran them); each is written whole beside its place, then moved
    there, so nobody ever reads half a picture."""
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(800)  # let the dice settle
        partial = folder / f".screenshot-{name}.{os.getpid()}.png"
        page.screenshot(path=str(partial), full_page=True)
        partial.replace(folder / f"screenshot-{name}.png")
