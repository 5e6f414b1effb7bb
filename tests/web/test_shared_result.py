"""The shared result page (issue 28, defect 9): Share gave a link to raw JSON; now ``/g/{id}`` is a page
in the reader's language with the board, the score and grade, a link to play the same dice, and an
Open Graph picture of the board drawn by the server. A sealed daily game stays sealed."""

from __future__ import annotations

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
    assert f'property="og:image" content="http://testserver/g/{game_id}/board.svg"' in text
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


def test_an_unknown_game_has_no_page(client: TestClient) -> None:
    refused(client.get("/g/999"), 404, "not-found")
    assert client.get("/g/0").status_code == 422
