"""The cheat sheet served to print: HTML in the reader's language, refusals in one line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from shutthebox.core.rules import Rules
from shutthebox.strategy.cheatsheet import ROWS, cheatsheet


def test_the_page_holds_the_sheets_rows_in_the_readers_language(client: TestClient) -> None:
    page = client.get("/api/cheatsheet", params={"preset": "web", "tiles": 9})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "the best move for every roll" in page.text and page.text.count("<tr>") == ROWS + 1
    sheet = cheatsheet(Rules.preset("web"))
    assert f"{sheet.expected:.2f}" in page.text
    spanish = client.get("/api/cheatsheet", params={"lang": "es"})
    assert '<html lang="es">' in spanish.text and "la mejor jugada para cada tirada" in spanish.text
    wrong = client.get("/api/cheatsheet", params={"preset": "nope"})
    assert wrong.status_code == 422 and "nope" in wrong.json()["detail"]


def test_the_page_fits_a_phone_and_writes_decimals_as_its_language(client: TestClient) -> None:
    sheet = cheatsheet(Rules.preset("web"))
    spanish = client.get("/api/cheatsheet", params={"preset": "web", "tiles": 9, "lang": "es"}).text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in spanish
    assert "<main>" in spanish and 'role="region"' in spanish and 'tabindex="0"' in spanish
    assert f"{sheet.expected:.2f}".replace(".", ",") in spanish
    assert f"<td>{sheet.rows[0].expected:.1f}</td>".replace(".", ",") in spanish


def test_a_preset_a_sheet_cannot_describe_is_refused_in_words(client: TestClient) -> None:
    """The long game and elimination are not one turn played for the lowest score: refused (422) with
    the reason, as the command line refuses them, never served as the solo sheet."""
    for preset, mode in (("long", "long"), ("elimination", "elimination")):
        refused = client.get("/api/cheatsheet", params={"preset": preset, "tiles": 5})
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        assert "cheat sheet" in detail and f"the {mode} mode is not supported" in detail
