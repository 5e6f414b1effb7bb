"""The value tables served for the page to rank its own hints: the prebuilt files' bytes, cacheable,
refusals in words."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from shutthebox.core.rules import Rules
from shutthebox.strategy.tables import prebuilt_name, table_text
from tools.tables import FOLDER


def test_a_table_is_the_prebuilt_files_bytes_and_lasts_a_day(client: TestClient) -> None:
    answer = client.get("/api/tables", params={"preset": "web", "tiles": 9, "objective": "shut"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "public, max-age=86400"
    assert answer.text == (FOLDER / prebuilt_name("web", 9, "shut")).read_text()
    table = json.loads(answer.text)
    assert table["objective"] == "shut" and table["extras"] == 1 and len(table["values"][0]) == 512


def test_a_table_off_the_shelf_is_solved_for_the_rules_asked(client: TestClient) -> None:
    answer = client.get("/api/tables", params={"preset": "sailors", "tiles": 5})
    assert answer.status_code == 200
    assert answer.text == table_text(Rules.preset("sailors", tiles=5), "score")
    doubles = client.get("/api/tables", params={"preset": "long", "tiles": 4}).json()
    assert doubles["rules"]["doubles_extra_turn"] is True and doubles["extras"] == 5


def test_what_is_not_a_table_is_refused_in_words(client: TestClient) -> None:
    preset = client.get("/api/tables", params={"preset": "nope"})
    assert preset.status_code == 422 and "nope" in preset.json()["detail"]
    objective = client.get("/api/tables", params={"objective": "win"})
    assert objective.status_code == 422 and "score or shut" in objective.json()["detail"]
    spanish = client.get("/api/tables", params={"objective": "win", "lang": "es"})
    assert "una tabla de valores es para el objetivo score o shut" in spanish.json()["detail"]
    unknown = client.get("/api/tables", params={"objective": "most"})
    assert unknown.status_code == 422 and "most" in unknown.json()["detail"]
    tiles = client.get("/api/tables", params={"tiles": 13})
    assert tiles.status_code == 422
