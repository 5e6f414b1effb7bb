"""Hypothesis strategies shared by the solver tests."""

from __future__ import annotations

from hypothesis import strategies as st

from shutthebox import Rules
from tests.support.oracle import ONE_DIE_RULES, SCORINGS, TurnRules


@st.composite
def rule_sets(draw: st.DrawFn, max_size: int = 8) -> tuple[Rules, TurnRules]:
    """Random turn rules up to ``max_size`` tiles, as the engine's `Rules` and the oracle's."""
    tiles = draw(st.integers(1, max_size))
    one_die = draw(st.sampled_from(ONE_DIE_RULES))
    forced = draw(st.booleans())
    max_tiles = draw(st.sampled_from([None, 1, 2, 3]))
    scoring = draw(st.sampled_from(SCORINGS))
    doubles = draw(st.booleans())
    rules = Rules(
        tiles=tiles, one_die=one_die, one_die_forced=forced, max_tiles=max_tiles,  # type: ignore[arg-type]
        scoring=scoring, doubles_extra_turn=doubles,  # type: ignore[arg-type]
    )
    return rules, TurnRules(tiles, one_die, forced, max_tiles, scoring, doubles)
