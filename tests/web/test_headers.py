"""Security headers (`web.headers`): on every answer of the app, refusals and failures included;
``no-store`` on the answers that carry a secret. (The page working under its policy in a browser:
``tests/e2e/test_security_policy.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from shutthebox.reports.cheatsheet import STYLE
from shutthebox.web import Settings, create_app
from shutthebox.web.headers import PAGE_POLICY, inline_hash
from tests.support.web import create

FRAMED = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def secured(response: object, policy: str = PAGE_POLICY) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    assert headers["content-security-policy"] == policy, headers
    for name, value in FRAMED.items():
        assert headers[name] == value, (name, headers)


def test_every_answer_says_what_the_browser_may_run_and_who_may_frame_it(client: TestClient) -> None:
    """Regression: no answer carried a Content-Security-Policy, X-Frame-Options, nosniff or a
    Referrer-Policy."""
    assert "frame-ancestors 'none'" in PAGE_POLICY and "script-src 'self';" in PAGE_POLICY
    assert "unsafe" not in PAGE_POLICY
    for path in ["/", "/sw.js", "/static/app.js", "/static/style.css", "/api/rules", "/openapi.json",
                 "/api/rooms/ZZZZZ", "/api/games?limit=0", "/nowhere"]:
        response = client.get(path)
        secured(response)
    refused = client.post("/api/profiles", content=b"{", headers={"Content-Type": "application/json"})
    assert refused.status_code == 422
    secured(refused)  # the guard's own refusal


def test_a_failure_carries_them_too(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'boom.db'}"))

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/boom")
        assert response.status_code == 500
        secured(response)


def test_pages_with_an_inline_block_name_it_by_its_hash(client: TestClient) -> None:
    docs = client.get("/docs")
    scripts = re.findall(r"<script>(.*?)</script>", docs.text, re.DOTALL)
    assert len(scripts) == 1 and "SwaggerUIBundle" in scripts[0]
    assert inline_hash(scripts[0]) in docs.headers["content-security-policy"]
    secured(docs, docs.headers["content-security-policy"])
    sheet = client.get("/api/cheatsheet", params={"preset": "web", "tiles": 5})
    assert sheet.status_code == 200 and f"<style>{STYLE}</style>" in sheet.text
    assert f"style-src 'self' {inline_hash(STYLE)};" in sheet.headers["content-security-policy"]
    assert "script-src 'self';" in sheet.headers["content-security-policy"]  # no script at all


def test_answers_that_carry_a_token_or_a_key_are_kept_by_no_cache(client: TestClient) -> None:
    """Regression: a seat token or a profile key could be kept by a browser's or a proxy's cache."""
    made = client.post("/api/profiles", json={"name": "Ana"})
    key = made.json()["key"]
    table, _ = create(client, seats=[{"name": "Luis"}, {"kind": "remote"}], seed=3)
    joined = client.post(f"/api/rooms/{table.code}/join", json={"name": "Eva"})
    created = client.post("/api/rooms", json={"seats": [{"name": "Luis"}]})
    daily = client.post("/api/daily/9", headers={"Authorization": f"Bearer {key}"})
    ticket = client.post("/api/commitments")
    for answer in (made, joined, created, daily, ticket):
        assert answer.status_code in (200, 201), answer.text
        assert answer.headers["cache-control"] == "no-store", answer.request.url
    assert "cache-control" not in client.get("/api/rules").headers
