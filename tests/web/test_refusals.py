"""One refusal language: every code with its status, the errors of the engine and the store mapped
to refusals once, by one handler, and the table of docs/security.md the same as the code's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from shutthebox.core.errors import (
    IllegalActionError,
    OutOfTurnError,
    ParseError,
    RecordError,
    RulesError,
    ShutTheBoxError,
    StaleActionError,
)
from shutthebox.storage import GameRepository, NameTakenError, SealedError, StorageError
from shutthebox.storage.rooms import ConflictError, StorageBusyError
from shutthebox.strategy.budget import OverBudgetError
from shutthebox.web import Settings, create_app
from shutthebox.web.refusals import Refusal, RefusedError, refused

SECURITY = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def test_every_refusal_carries_its_status() -> None:
    statuses = {refusal.code: refusal.status for refusal in Refusal}
    assert statuses["played"] == statuses["closed"] == 409  # once left to a fallback
    assert (statuses["sealed"], statuses["wrong-host"], statuses["shared-down"]) == (403, 400, 503)
    assert len(statuses) == len(Refusal)  # one code, one refusal


def test_the_table_of_the_security_page_is_the_codes() -> None:
    table = SECURITY.read_text(encoding="utf-8").split("## Refusals", 1)[1].split("\n## ", 1)[0]
    documented = {
        code: int(status)
        for status, codes in re.findall(r"^\| (\d{3}) \| (.+) \|$", table, re.MULTILINE)
        for code in re.findall(r"`([a-z-]+)`", codes)
    }
    assert documented == {refusal.code: refusal.status for refusal in Refusal}


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (OutOfTurnError("not yours"), "wrong-turn"),
        (StaleActionError("moved on"), "wrong-turn"),
        (IllegalActionError("no"), "illegal"),
        (ParseError("not a move"), "malformed"),
        (RulesError("no such rule"), "malformed"),
        (RecordError("does not replay"), "malformed"),
        (ShutTheBoxError("anything else"), "malformed"),
        (NameTakenError("taken"), "name-taken"),
        (SealedError("sealed"), "sealed"),
        (StorageError("no such game"), "not-found"),
        (OverBudgetError("too big"), "busy"),
        (StorageBusyError("locked"), "busy"),
        (ConflictError("another writer"), "busy"),
        (OperationalError("SELECT", {}, Exception("disk I/O error")), "busy"),
    ],
)
def test_the_errors_of_the_floors_below_are_refusals_as_they_stand(error: Exception, code: str) -> None:
    refusal = refused(error)
    assert refusal is not None and refusal.code == code
    if isinstance(error, ShutTheBoxError):
        assert refusal.to_json()["detail"] == str(error)  # its own words
    else:
        assert "nothing changed" in refusal.to_json()["detail"]  # never the database's


def test_a_refusal_is_itself_and_a_fault_is_none() -> None:
    refusal = RefusedError(Refusal.PLAYED, "played already")
    assert refused(refusal) is refusal and refusal.status == 409
    assert refused(RuntimeError("a bug")) is None


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'r.db'}"))) as client:
        yield client


def test_a_database_that_does_not_answer_a_read_is_busy_not_a_fault(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, only the writes of rooms said so: a read of the stored games failed with a 500."""

    def locked(*_args: object, **_kwargs: object) -> None:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(GameRepository, "games", locked)
    response = client.get("/api/games")
    assert response.status_code == 503, response.text
    assert response.json()["error"] == "busy" and "locked" not in response.text


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/players/a%0Ab/stats", 404, "not-found"),  # a name no route reads (Schemathesis)
        ("GET", "/api/nothing-here", 404, "not-found"),
        ("DELETE", "/api/games", 405, "malformed"),
    ],
)
def test_an_address_no_route_answers_is_a_refusal_in_the_readers_language(
    client: TestClient, method: str, path: str, status: int, code: str
) -> None:
    """Before, Starlette answered ``{"detail": "Not Found"}``, in English, outside the schema."""
    english = client.request(method, path)
    spanish = client.request(method, path, headers={"Accept-Language": "es"})
    assert english.status_code == spanish.status_code == status
    assert english.json()["error"] == spanish.json()["error"] == code
    assert english.json()["detail"] != spanish.json()["detail"]  # each in its reader's words
    assert "Not Found" not in english.text + spanish.text


@pytest.mark.parametrize(
    ("query", "header"),
    [("?lang=es", None), ("?lang=ES", None), ("?lang=es-MX", None), ("?lang=es_mx", None),
     ("", "ES"), ("", "es-419"), ("", "fr, ES;q=0.5")],
)
def test_a_language_is_named_in_any_case_and_with_a_region(
    client: TestClient, query: str, header: str | None
) -> None:
    """Regression (a hostile client, issue 29): ``?lang=ES``, ``?lang=es-MX`` and ``Accept-Language:
    ES`` were answered in English (a tag's case is no matter: RFC 5646)."""
    headers = {"Accept-Language": header} if header else {}
    assert client.get(f"/api/nothing-here{query}", headers=headers).json()["detail"] == (
        "no hay nada en esta dirección"
    )


def test_a_turn_clock_too_short_is_refused_in_the_readers_language(client: TestClient) -> None:
    """Regression (a hostile client, issue 29): the schema's own check said its English sentence to a
    Spanish reader ("Value error, a turn clock gives at least 5 seconds")."""
    body = {"seats": [{"name": "Ana"}, {"kind": "remote"}], "turn_seconds": 2}
    spanish = client.post("/api/rooms", json=body, headers={"Accept-Language": "es"}).json()
    assert spanish["detail"] == "un reloj de turno da al menos 5 segundos (o 0 para ninguno)"
    english = client.post("/api/rooms", json=body).json()
    assert english["error"] == "malformed"
    assert english["detail"] == "a turn clock gives at least 5 seconds (or 0 for none)"


def test_a_room_code_too_long_for_any_room_is_a_room_not_found(client: TestClient) -> None:
    """Regression (a hostile client, issue 29): a room link with a code of 17 characters or more was
    answered 422 with Pydantic's words ("path.code: String should have at most 16 characters"), which
    the page showed; it is a room no code names, as any unknown code is."""
    for path in ("/api/rooms/" + "A" * 17, "/api/rooms/" + "B" * 40 + "/record"):
        english = client.get(path)
        assert (english.status_code, english.json()["error"]) == (404, "not-found")
        assert english.json()["detail"] == "there is no room with this code"
        spanish = client.get(path, headers={"Accept-Language": "es"}).json()
        assert spanish["detail"] == "no hay ninguna sala con este código"
