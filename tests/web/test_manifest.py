"""The web manifest, its icons and the page's new static files, as the server serves them."""

from __future__ import annotations

import struct
import zlib

from fastapi.testclient import TestClient

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its header (the IHDR chunk comes first)."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    assert zlib.crc32(data[12:29]) == struct.unpack(">I", data[29:33])[0]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_page_installable(client: TestClient) -> None:
    response = client.get("/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"].startswith("Shut the Box") and manifest["short_name"] == "Shut the Box"
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    pngs = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs


def test_every_icon_of_the_manifest_has_the_size_it_claims(client: TestClient) -> None:
    icons = client.get("/static/manifest.webmanifest").json()["icons"]
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.content)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]


def test_the_page_links_its_manifest_and_the_new_files_are_served(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    for path, kind in (
        ("/static/feel.js", "text/javascript"),
        ("/static/share.js", "text/javascript"),
        ("/static/feel.css", "text/css"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith(kind), path


def test_the_service_worker_keeps_the_new_files_for_offline_play(client: TestClient) -> None:
    worker = client.get("/sw.js").text
    for name in ("feel.js", "feel.css", "share.js", "icon-192.png", "icon-512.png", "icon-maskable-512.png"):
        assert f'"/static/{name}"' in worker, name
