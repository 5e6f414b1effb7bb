"""The shared result page (issue 28, defect 9): Share gave a link to raw JSON; now ``/g/{id}`` is a page
in the reader's language with the board, the score and grade, a link to play the same dice, and an
Open Graph picture of the board drawn by the server. A sealed daily game stays sealed."""

from __future__ import annotations

from io import BytesIO

from fastapi.testclient import TestClient

from tests.support.web import SOLO, create, refused


def finished(client: TestClient) -> int:
    table, _ = create(client, **SOLO)
    game_id = table.play_while_mine()["saved_game_id"]
    assert isinstance(game_id, int)
    return game_id


def test_the_shared_page_shows_the_board_score_grade_and_the_same_dice(client: TestClient) -> None:
    game_id = finished(client)
    stored = client.get(f"/api/games/{game_id}").json()
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    score = stored["scores"][0]["score"]
    assert f"Ana scored {score} on 9 tiles" in text and "Grade " in text
    assert 'id="play-same-dice"' in text and "seed=7" in text
    assert f'property="og:image" content="http://testserver/g/{game_id}/board.png"' in text  # not SVG
    assert 'property="og:image:type" content="image/png"' in text
    assert text.count('class="tile') == 9


def test_the_shared_page_speaks_spanish_by_query_or_header(client: TestClient) -> None:
    game_id = finished(client)
    assert "Jugar los mismos dados" in client.get(f"/g/{game_id}?lang=es").text
    assert "Jugar los mismos dados" in client.get(f"/g/{game_id}", headers={"Accept-Language": "es"}).text


def test_the_board_picture_is_drawn_by_the_server(client: TestClient) -> None:
    game_id = finished(client)
    picture = client.get(f"/g/{game_id}/board.svg")
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.startswith("<svg") and picture.text.count("<rect") == 2 + 9


def test_the_preview_picture_is_a_png_of_the_board(client: TestClient) -> None:
    """Chat apps' link previews take no SVG: the Open Graph picture is a 1200x630 PNG of the box, each
    open tile up (light) and each shut one down (dark), where the SVG draws them."""
    from PIL import Image

    game_id = finished(client)
    still_open = set(client.get(f"/api/games/{game_id}").json()["record"]["result"]["turns"][-1]["open"])
    picture = client.get(f"/g/{game_id}/board.png")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    image = Image.open(BytesIO(picture.content)).convert("RGB")
    assert image.size == (1200, 630)
    left = (1200 - 9 * 80 - 8 * 10) // 2
    for tile in range(1, 10):
        x = left + (tile - 1) * 90 + 6  # inside the tile, beside its number
        up = tile in still_open
        colour = (0xF3, 0xE3, 0xC3) if up else (0x4A, 0x2C, 0x12)
        assert image.getpixel((x, (200 if up else 290) + 6)) == colour, tile


def test_an_unknown_game_has_no_page(client: TestClient) -> None:
    refused(client.get("/g/999"), 404, "not-found")
    assert client.get("/g/0").status_code == 422
