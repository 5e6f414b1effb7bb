"""What a deployment asks of a process: liveness, readiness (the database, Redis), and its metrics."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shutthebox.ops.throwaway import free_port, missing_redis, temporary_redis
from shutthebox.web import create_app
from shutthebox.web.metrics import ACTION_KINDS
from tests.support.services import kill_redis
from tests.support.web import create, server_of, settings_at


def test_healthz_says_the_process_answers_and_is_never_cached(client: TestClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert answer.headers["cache-control"] == "no-store"


def test_readyz_is_ready_when_the_database_answers_and_no_redis_is_set(client: TestClient) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ready", "checks": {"database": "ok", "redis": "off"}}
    assert answer.headers["cache-control"] == "no-store"


def test_readyz_names_the_database_when_it_does_not_answer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable() -> None:
        raise ConnectionError("the database is unreachable")

    monkeypatch.setattr(server_of(client).database.engine, "connect", unreachable)
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "unready", "checks": {"database": "down", "redis": "off"}, "failing": ["database"],
    }
    assert client.get("/healthz").status_code == 200  # alive all the same: no restart for a database


def test_the_probes_answer_by_address_but_every_other_path_keeps_the_host_check(tmp_path: Path) -> None:
    settings = settings_at(tmp_path, allowed_hosts=("play.example",))
    with TestClient(create_app(settings), base_url="http://10.0.0.7:8000") as balancer:
        assert balancer.get("/healthz").status_code == 200
        assert balancer.get("/readyz").status_code == 200
        assert balancer.get("/metrics").status_code == 400
        assert balancer.get("/api/games").status_code == 400


@pytest.mark.slow
def test_readyz_names_redis_when_it_does_not_answer(tmp_path: Path) -> None:
    reason = missing_redis()
    if reason is not None:
        pytest.skip(reason)
    with temporary_redis(tmp_path / "redis", port=free_port()) as url:
        settings = settings_at(tmp_path, redis_url=url)
        with TestClient(create_app(settings)) as client:
            assert client.get("/readyz").json()["checks"] == {"database": "ok", "redis": "ok"}
            kill_redis(url)
            answer = client.get("/readyz")
            assert answer.status_code == 503
            assert answer.json()["failing"] == ["redis"]
            assert answer.json()["checks"] == {"database": "ok", "redis": "down"}


def sample(text: str, name: str, labels: str = "") -> float:
    """The value of one sample of a Prometheus exposition."""
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name}{labels} is not in\n{text}"
    return float(found.group(1))


def test_metrics_count_the_actions_of_a_solo_game_and_time_each(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    played: dict[str, int] = {}
    state = table.state()
    while state["status"] == "playing":
        kind = {"choose": "dice", "roll": "roll", "roll-off": "roll"}.get(state["match"]["phase"], "move")
        state = table.step()
        played[kind] = played.get(kind, 0) + 1
    table.post({"type": "roll"})  # refused: the game is over, nothing is counted

    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.headers["cache-control"] == "no-store"
    text = answer.text
    for kind in ACTION_KINDS:  # a kind not played yet is there, at 0
        assert sample(text, "shutthebox_actions_total", f'{{kind="{kind}"}}') == played.get(kind, 0)
    assert sample(text, "shutthebox_action_seconds_count") == sum(played.values())
    assert sample(text, "shutthebox_rooms_open") == 1
    assert sample(text, "shutthebox_sockets_connected") == 0
    assert sample(text, "shutthebox_solver_jobs_total") == 0
    assert sample(text, "shutthebox_solver_queue") == 0
    assert sample(text, "process_resident_memory_bytes") > 0  # the process's own, beside the game's
    assert "python_info{" in text
    assert "_created" not in text  # a counter's start is the process's


def test_each_app_counts_in_a_registry_of_its_own(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    with (
        TestClient(create_app(settings_at(first))) as one,
        TestClient(create_app(settings_at(second))) as two,
    ):
        table, _ = create(one, seats=[{"name": "Ana"}], seed=7)
        table.step()
        assert sample(one.get("/metrics").text, "shutthebox_action_seconds_count") == 1
        assert sample(two.get("/metrics").text, "shutthebox_action_seconds_count") == 0


def test_a_socket_is_counted_while_it_is_open(client: TestClient) -> None:
    table, _ = create(client, seats=[{"name": "Ana"}], seed=7)
    with client.websocket_connect(f"/api/rooms/{table.code}/ws?token={table.token}") as socket:
        assert socket.receive_json()["type"] == "state"
        assert sample(client.get("/metrics").text, "shutthebox_sockets_connected") == 1


@pytest.mark.parametrize(
    "path", ["/healthz", "/readyz", "/metrics", "/", "/api/rules", "/api/games", "/sw.js", "/docs"]
)
def test_an_uptime_check_by_head_gets_the_headers_of_a_get(client: TestClient, path: str) -> None:
    """Regression: HEAD, as uptime checkers and link previews ask, got 405 from every probe and the
    page, then from every path of the API (FastAPI's routes take only the methods they name)."""
    head, get = client.head(path), client.get(path)
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-type"] == get.headers["content-type"]
