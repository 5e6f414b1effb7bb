"""Typed answers: every route's answer is documented in `/openapi.json` by a model, and an answer is
byte for byte the JSON its service gives (the same keys, in the same order, none added)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from shutthebox.web import answers
from shutthebox.web.server import Server
from tests.support.remote import action_for
from tests.support.web import create


def test_every_answer_the_page_reads_has_its_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answered = {code: r for code, r in operation["responses"].items() if code in ("200", "201")}
            assert answered, (method, path)
            for response in answered.values():
                content = response["content"]
                if path == "/api/cheatsheet":
                    assert "text/html" in content
                    continue
                documented = content["application/json"]["schema"]
                assert "$ref" in documented, (method, path, documented)  # a model, not any object
    models = schema["components"]["schemas"]
    assert {"RoomState", "Advice", "Review", "DailyCalendar", "PuzzleShown", "PlayerStats"} <= set(models)
    assert models["RoomState"]["additionalProperties"] is False


def test_an_answer_is_the_services_json_byte_for_byte(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}, {"kind": "bot", "bot": "easy"}], seed=9)
    state = table.state()
    while state["status"] == "playing" and state["events"] < 12:
        state = table.step()
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    held = server.copies.get(table.code)
    answered = client.get(f"/api/rooms/{table.code}", headers=table.headers)
    assert answered.content == json.dumps(
        server.rooms.view(held, table.token), ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode()


def test_a_key_given_only_at_times_is_left_out_when_it_is_not(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=3)
    table.act({"type": "roll"})
    recent = table.state()["recent"]
    assert [list(event) for event in recent] == [["seq", "player", "kind", "dice"]]  # no "by" of a stand-in
    assert list(client.get("/api/rules").json()["options"]["one_die"]) == ["type", "values"]


def test_the_answers_sent_as_written_are_what_their_models_would_write(client: TestClient) -> None:
    """A room's creation, its state and an action are answered without FastAPI's pass through the
    model (`web.api.deps.Answer`): each still is what that pass would have written, to the byte."""
    seats = [{"name": "Ana"}, {"kind": "bot", "bot": "easy"}]
    created = client.post("/api/rooms", json={"seats": seats, "seed": 4})
    assert created.status_code == 201, created.text
    code, token = created.json()["code"], created.json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    answered = [(answers.NewRoom, created)]
    for _ in range(10):
        state = client.get(f"/api/rooms/{code}", headers=bearer)
        answered.append((answers.RoomState, state))
        if state.json()["status"] != "playing":
            break
        action = action_for(state.json()["match"])
        acted = client.post(f"/api/rooms/{code}/actions", json=action, headers=bearer)
        answered.append((answers.RoomState, acted))
    for model, answer in answered:
        assert answer.headers["content-type"] == "application/json"
        written = model.model_validate_json(answer.content).model_dump_json(exclude_unset=True)
        assert answer.content == written.encode(), answer.request.url
