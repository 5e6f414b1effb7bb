"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012), for the trainer.

Each answer is a game between the player and the position: the player wins when
the answer is the best move. Both are rated, so a position that fools strong
players climbs and a player who solves hard positions climbs faster. The steps
below follow the paper's numbering; its worked example is a test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SCALE", "Rating", "expected", "update"]

SCALE = 173.7178
"""Glicko-2's internal scale: one unit is this many rating points."""
TAU = 0.5
"""How much the volatility may change (the paper suggests 0.3 to 1.2)."""
EPSILON = 1e-6
"""The convergence tolerance of the volatility iteration (step 5)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating, its deviation (the uncertainty: 350 for a newcomer) and its volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def to_json(self) -> dict[str, float]:
        return {"rating": self.rating, "deviation": self.deviation, "volatility": self.volatility}


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent``, as the system sees it."""
    mu, mu_j = (player.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE
    return _e(mu, mu_j, opponent.deviation / SCALE)


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period of ``results`` (opponent, score 1, 0.5 or 0)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.deviation / SCALE, player.volatility
    if not results:  # step 6 alone: the deviation grows with time unplayed
        return Rating(player.rating, min(350.0, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    games = [((o.rating - 1500) / SCALE, o.deviation / SCALE, score) for o, score in results]
    # Step 3: the estimated variance; step 4: the estimated improvement.
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j)) for mu_j, phi_j, _ in games)
    delta = v * sum(_g(phi_j) * (score - _e(mu, mu_j, phi_j)) for mu_j, phi_j, score in games)
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    sigma = math.exp(low / 2)
    # Steps 6 and 7: the new deviation and rating; step 8: back to the rating scale.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu = mu + phi * phi * sum(_g(phi_j) * (score - _e(mu, mu_j, phi_j)) for mu_j, phi_j, score in games)
    return Rating(1500 + SCALE * mu, SCALE * phi, sigma)
