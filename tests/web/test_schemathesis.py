"""Every operation of the API, fuzzed from its own OpenAPI (Schemathesis, in-process over ASGI):
valid and invalid requests alike get an answer the schema describes, and never a server error."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from shutthebox.web import Settings, create_app

pytestmark = pytest.mark.slow  # a fuzz: 100 requests for each operation

PLENTY = "100000/minute"
"""Rate limits no fuzzing reaches here, so each request reaches the handler it is for."""

# Loaded at import: Schemathesis makes one test per operation when the module is collected
# (its lazy `from_fixture` loader does not run on pytest 9); the app lives until the run ends.
FOLDER = Path(tempfile.mkdtemp(prefix="shutthebox-schemathesis-"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)  # after Schemathesis stops the app
app = create_app(
    Settings(
        database_url=f"sqlite:///{FOLDER / 'fuzz.db'}", bot_delay=0, rate_rooms=PLENTY, rate_joins=PLENTY,
        rate_profiles=PLENTY, rate_room_requests=PLENTY, rate_room_misses=PLENTY,
    )
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
CHECKS = [not_a_server_error, response_schema_conformance]
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def open_room() -> str:
    """A room in play, with open seats and a bot, for the operations that name one."""
    from schemathesis.python.asgi import get_client

    with get_client(app) as client:
        seats = [{"name": "Ana"}, {"kind": "bot", "name": "Robo", "bot": "easy"}, *[{"kind": "remote"}] * 6]
        response = client.post("/api/rooms", json={"seats": seats, "seed": 5})
        assert response.status_code == 201, response.text
        code: str = response.json()["code"]
        return code


ROOM = open_room()


@schema.parametrize()
@FUZZ
def test_no_request_is_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


@schema.include(path_regex=r"\{code\}").parametrize()
@FUZZ
def test_no_request_to_a_room_in_play_is_a_server_error(case: schemathesis.Case) -> None:
    """The same, with the code of a room in play: the bodies reach its game."""
    assert case.path_parameters is not None
    case.path_parameters["code"] = ROOM
    case.call_and_validate(checks=CHECKS)


def test_the_fuzzed_schema_is_the_apps_own() -> None:
    paths = {result.ok().path for result in schema.get_all_operations()}
    assert {"/api/rooms", "/api/rooms/{code}/actions", "/api/games/{game_id}"} <= paths
