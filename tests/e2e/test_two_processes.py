"""One online room played in two browsers, each on its own server process (one PostgreSQL, one
Redis between them): each page shows every move the other makes, to the end of the game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.play import click_once, handing_over, is_over, join_as, more_options, my_turn
from tests.support.remote import two_servers
from tests.support.serving import Server

SEEN = """() => ({
  status: document.querySelector('#box').dataset.status,
  phase: document.querySelector('#box').dataset.phase,
  shut: [...document.querySelectorAll('#tiles .tile.shut')].map((tile) => Number(tile.dataset.tile)),
  dice: document.querySelector('#dice').dataset.faces,
  actor: document.querySelector('#players li.active')?.dataset.seat ?? null,
  scores: [...document.querySelectorAll('#players li')]
    .map((li) => li.querySelector('.score')?.textContent ?? ''),
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
})"""
"""What a player sees of the game: the board, the dice, whose turn, the scores, what was said."""


@pytest.fixture
def servers(tmp_path: Path, postgres_database: str, redis_url: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(tmp_path, postgres_database, redis_url, bot_delay="0.05") as pair:
        yield pair


@pytest.fixture
def pages(browser: Browser, servers: tuple[Server, Server]) -> Iterator[tuple[Page, Page]]:
    """Ana's browser on process A, Luis's on process B; any script error of either fails the test."""
    errors: list[str] = []
    contexts = [browser.new_context(locale="en-US", base_url=server.url) for server in servers]
    opened = []
    for context in contexts:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        opened.append(page)
    yield opened[0], opened[1]
    for context in contexts:
        context.close()
    assert errors == []


def seen(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate(SEEN)
    return shown


def test_two_browsers_on_two_processes_play_one_room_to_the_end(pages: tuple[Page, Page]) -> None:
    host, guest = pages
    more_options(host)  # every rule is in the Rules panel
    host.click("[data-who=online]")
    host.uncheck("#opt-shut_wins")  # a starter who shuts the box ends no round: both play a turn
    host.fill("#seat-name-0", "Ana")
    host.click("#start")
    code = host.locator("#room-code").inner_text()
    guest.goto(f"/#/room/{code}")
    join_as(guest, host, code)
    start = {page: len(seen(page)["log"]) for page in pages}

    def now(page: Page) -> dict[str, Any]:
        """What ``page`` shows, and what it said since the game began."""
        shown = seen(page)
        return {**shown, "log": shown["log"][start[page]:]}

    moves = 0
    end = time.monotonic() + 60
    while not (is_over(host) and is_over(guest)):
        assert time.monotonic() < end, "the game did not end"
        mover = next((page for page in pages if my_turn(page)), None)
        if mover is None:
            host.wait_for_timeout(30)
            continue
        other = guest if mover is host else host
        if handing_over(mover):  # a turn's end held on one screen: taking over changes no game
            click_once(mover)
            continue
        before = now(mover)
        click_once(mover)
        moves += 1
        while (after := now(mover)) == before or after != now(other):  # the other page shows it too
            assert time.monotonic() < end, repr((after, now(other)))
            mover.wait_for_timeout(30)
    assert moves >= 4  # the rolls for who starts, and each player's turn
    for page in pages:
        expect(page.locator("#winner")).to_be_visible()
    winner = next(name for name in ("Ana", "Luis") if name in host.locator("#winner").inner_text())
    expect(guest.locator("#winner")).to_contain_text(winner)
    assert now(host) == now(guest)
    said = " ".join(now(host)["log"])
    assert all(f"{name}: {verb}" in said for name in ("Ana", "Luis") for verb in ("roll", "shut")), said
