"""The end of a game with others explains it (issue 28): rounds and their winners, the money, the
tie-breaks labelled; elimination's winner crowned and not struck through; the long game's opening
turns in their words and its winner told how; and a new game starts on an empty felt."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import fresh_page, screenshot
from tests.support.play import READY, click_once, is_over, new_room, play_solo

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    locale, viewport = getattr(request, "param", ("en-US", DESKTOP))
    with fresh_page(browser, server, locale=locale, viewport=viewport) as opened:
        opened.goto("/")
        opened.wait_for_selector("body[data-ready=true]")
        opened.click("#profile-cancel")
        yield opened


def table_room(page: Page, rules: dict[str, object], rounds: int = 1) -> None:
    """Ana and Luis at this device, on the rules given; the page shows their room."""
    seats = [{"kind": "here", "name": "Ana"}, {"kind": "here", "name": "Luis"}]
    code = new_room(page, {"preset": "web", "rules": rules, "rounds": rounds, "seats": seats})
    page.goto(f"/#/room/{code}")
    expect(page.locator("#box")).to_have_attribute("data-status", re.compile("playing|over"))


def play_to_the_end(page: Page, each: object = None, limit: int = 600) -> None:
    for _ in range(limit):
        page.wait_for_function(READY)
        if is_over(page):
            return
        if callable(each):
            each()
        click_once(page)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("page", [("en-US", DESKTOP), ("es-ES", PHONE)], indirect=True)
def test_a_game_of_rounds_with_a_stake_ends_with_its_rounds_their_winners_and_the_money(page: Page) -> None:
    table_room(page, {"mode": "round", "stake": 2, "shut_wins": False}, rounds=3)
    play_to_the_end(page)
    expect(page.locator("#standings")).to_be_visible()
    spanish = page.get_attribute("html", "lang") == "es"
    heads = page.locator("#standings thead th").all_inner_texts()
    assert heads[1:] == (["Rondas ganadas", "Dinero"] if spanish else ["Rounds won", "Money"]), heads
    money = [int(text.replace("\u2212", "-").replace("+", "")) for text in
             page.locator("#standings tbody td:last-child").all_inner_texts()]
    assert sum(money) == 0 and any(money), money  # what one wins the others paid
    rounds = page.locator("#rounds-played .round-played")
    titles = rounds.locator("h4").all_text_contents()  # folded when long
    plain = [title for title in titles if "·" not in title]
    assert plain == [("Ronda" if spanish else "Round") + f" {n}" for n in (1, 2, 3)], titles
    tiebreak = "desempate" if spanish else "tie-break"
    assert all(title.endswith(tiebreak) for title in titles if "·" in title), titles
    winners = page.locator("#rounds-played .round-winner").all_text_contents()
    assert len(winners) == 3, winners  # each round's winner said at its end
    said = page.locator("#result").inner_text() + page.locator("#room-info").inner_text()
    assert not re.search(r"(Pot|Pozo): 0\b", said), said
    assert "open box shut" not in said and "drawn" not in said
    page.evaluate("document.querySelector('#rounds-played').open = true")
    screenshot(page, "standings-phone" if spanish else "standings")


def test_elimination_crowns_its_winner_and_marks_the_others_out(page: Page) -> None:
    table_room(page, {"mode": "elimination", "limit": 15})
    compared: list[str] = []

    def same_totals() -> None:  # while a turn's end is held, the chips' totals are the banner's
        if not page.is_visible("#btn-next"):
            return
        banner = " ".join(page.locator("#handover > *").all_inner_texts())
        said = re.search(r"Totals: Ana (\d+) · Luis (\d+)", banner)
        if said:
            chips = page.locator("#players .total").all_inner_texts()
            assert chips == [f"Total: {said[1]}", f"Total: {said[2]}"], (banner, chips)
            compared.append(banner)

    play_to_the_end(page, same_totals)
    assert compared, "no turn's end was held to compare"
    won = page.locator("#players .player.won")
    expect(won).to_have_count(1)
    expect(won.locator(".crown")).to_be_visible()
    assert won.locator(".name").evaluate("(n) => getComputedStyle(n).textDecorationLine") == "none"
    out = page.locator("#players .player.out")
    expect(out).to_have_count(1)
    expect(out.locator(".out-mark")).to_have_text("out")
    row = page.locator("#standings tr.won")
    expect(row.locator(".crown")).to_be_visible()
    assert row.locator(".name").evaluate("(n) => getComputedStyle(n).textDecorationLine") == "none"
    expect(page.locator("#standings tr.out .out-mark")).to_contain_text("out")
    winner = won.locator(".name").inner_text()
    expect(page.locator("#winner")).to_have_text(f"♛ {winner} wins.")


@pytest.mark.parametrize("page", [("en-US", DESKTOP), ("es-ES", DESKTOP)], indirect=True)
def test_the_long_games_opening_turns_speak_of_opening_and_its_end_says_how(page: Page) -> None:
    spanish = page.get_attribute("html", "lang") == "es"
    seen: dict[str, bool] = {"opening": False, "press": False}

    def look() -> None:
        label = page.locator("#shut-label").inner_text()
        if label in ("Open", "Abrir"):
            seen["opening"] = True
            said = page.locator("#status").inner_text() + page.locator("#selection").inner_text()
            assert not re.search(r"Press Shut|Pulsa Cerrar|Cerrar / Shut|no open tiles", said), said
            if re.search(r"Press Open|Pulsa Abrir", page.locator("#selection").inner_text()):
                seen["press"] = True
        else:
            assert label == ("Cerrar" if spanish else "Shut"), label  # never "Cerrar / Shut"

    for _game in range(4):  # the dice are fair: a first turn that shuts every tile ends it unopened
        table_room(page, {"mode": "long"})
        play_to_the_end(page, look)
        if seen["opening"]:
            break
    assert seen["opening"], "no opening turn was seen in four games"
    ended = page.locator("#winner").inner_text()
    how = (r"Gana (Ana|Luis): (abrió|cerró) todas las fichas\." if spanish
           else r"(Ana|Luis) (opened|shut) every tile and wins\.")
    assert re.search(how, ended), ended


def test_play_again_starts_on_an_empty_felt(page: Page) -> None:
    page.click("#quick-9")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    play_solo(page, click_once)
    expect(page.locator("#dice .die")).not_to_have_count(0)  # the last roll lies on the felt
    page.click("#btn-again")
    expect(page.locator("#box")).to_have_attribute("data-status", "playing")
    expect(page.locator("#box")).to_have_attribute("data-phase", "roll")
    expect(page.locator("#dice .die")).to_have_count(0)
