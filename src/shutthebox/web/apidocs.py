"""The API's own documentation: Swagger UI at ``/docs``, served from the app (no CDN), over an OpenAPI
whose refusals are described as the API sends them (`web.refusals`)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from shutthebox.web.headers import policy

__all__ = ["DOCS_STATIC", "REFUSAL", "inline_scripts", "serve_docs", "with_refusals"]

DOCS_STATIC = Path(str(resources.files("fastapi_offline") / "static"))
"""Swagger UI's script and style (as the fastapi-offline package ships them, Swagger UI 5: it reads
OpenAPI 3.1), served by the app itself: the API docs work offline."""
REFUSAL: dict[str, Any] = {
    "title": "Refusal",
    "type": "object",
    "required": ["error", "detail"],
    "properties": {
        "error": {"type": "string", "description": "what kind of refusal: malformed, not-found, too-many…"},
        "detail": {"type": "string", "description": "why, in the reader's language"},
        "errors": {"type": "array", "items": {"$ref": "#/components/schemas/ValidationError"}},
    },
}
"""Every refusal of the API: ``{"error": code, "detail": why}`` (a 422 of a bad request adds ``errors``)."""

def serve_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from ``/docs-static`` (no CDN), over an OpenAPI whose refusals are
    described as the API sends them."""

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            swagger_js_url=f"{root}/docs-static/swagger-ui-bundle.js",
            swagger_css_url=f"{root}/docs-static/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs-static/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from the validator's site
        )
        page.headers["Content-Security-Policy"] = policy(scripts=inline_scripts(bytes(page.body).decode()))
        return page

    app.mount("/docs-static", StaticFiles(directory=DOCS_STATIC), name="docs-static")
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            with_refusals(generate())
        assert app.openapi_schema is not None
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def inline_scripts(html: str) -> list[str]:
    """The inline ``<script>`` blocks of a page (Swagger UI's starts it): the policy names them."""
    return _INLINE_SCRIPT.findall(html)


def with_refusals(schema: dict[str, Any]) -> None:
    """Describe the refusals as sent: a 422 is a `REFUSAL` (not FastAPI's list of errors), and any
    request may be refused as too large (413) or too many (429)."""
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    if "HTTPValidationError" in schemas:
        schemas["HTTPValidationError"] = {**REFUSAL, "title": "HTTPValidationError"}
    schemas["Refusal"] = REFUSAL
    refused = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}}
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                responses.setdefault("413", {"description": "the body is too large", **refused})
            responses.setdefault("429", {"description": "too many requests from this address", **refused})
