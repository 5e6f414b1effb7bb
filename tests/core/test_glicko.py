"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import pytest

from shutthebox.core.glicko import Rating, expected, update


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_expected_scores() -> None:
    """Step 3's E values of the example: 0.639, 0.432 and 0.303."""
    player = Rating(1500, 200, 0.06)
    example = [(Rating(1400, 30), 0.639), (Rating(1550, 100), 0.432), (Rating(1700, 300), 0.303)]
    for opponent, chance in example:
        assert expected(player, opponent) == pytest.approx(chance, abs=0.001)


def test_a_period_unplayed_only_widens_the_deviation() -> None:
    after = update(Rating(1500, 200, 0.06), [])
    widened = (200**2 + (0.06 * 173.7178) ** 2) ** 0.5  # step 6: the volatility added, in rating points
    assert after.rating == 1500 and after.deviation == pytest.approx(widened, abs=1e-9)
    assert update(Rating(1500, 349.99, 0.06), []).deviation == 350.0  # never past a newcomer's


def test_a_win_raises_and_a_loss_lowers_and_both_narrow_the_deviation() -> None:
    newcomer, position = Rating(), Rating(1600, 80)
    won, lost = update(newcomer, [(position, 1.0)]), update(newcomer, [(position, 0.0)])
    assert lost.rating < newcomer.rating < won.rating
    assert won.deviation < newcomer.deviation and lost.deviation < newcomer.deviation
