"""Exact ties told apart from float noise: two choices whose values differ only in their last bits
(equal in exact arithmetic, as the rational solver finds: 4+1 and 3+2 on 1 2 3 4 under the classic
rules, 3.1944444444444438 against ...446) are a tie, and the documented rule decides it everywhere
(the hints, the solver's policy, the bots, the cheat sheet, the page): two dice rather than one,
the highest move (by its tiles as a mask), the higher board first."""

from __future__ import annotations

__all__ = ["TIE_DIGITS", "TIE_RELATIVE", "tie_level"]

TIE_DIGITS = 12
"""Significant digits two values must share to tie (a float holds about 16: noise is the last 3)."""
TIE_RELATIVE = 1e-12
"""The same tolerance for arrays, as a share of the value (at least 1 unit apart from 0)."""


def tie_level(value: float) -> float:
    """``value`` to `TIE_DIGITS` significant digits: what a ranking sorts by before its tie rule."""
    return float(f"{value:.{TIE_DIGITS}g}")
