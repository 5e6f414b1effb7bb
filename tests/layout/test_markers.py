"""The suite's markers select what they say: under ``-m "not e2e"`` no browser test is left."""

from __future__ import annotations

from pathlib import Path

import pytest

E2E = Path(__file__).resolve().parents[1] / "e2e"


def test_every_browser_test_collected_is_marked_e2e(request: pytest.FixtureRequest) -> None:
    """The e2e folder's conftest marks each of its tests, whether or not its module says so: in a
    run under ``-m "not e2e"`` none of them is among the tests collected, in a whole run each has
    the mark. (Nothing to see when this run collected no browser test: then none was left.)"""
    unmarked = [
        item.nodeid
        for item in request.session.items
        if item.path.is_relative_to(E2E) and item.get_closest_marker("e2e") is None
    ]
    assert unmarked == []
