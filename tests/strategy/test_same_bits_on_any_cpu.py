"""The solver's values are the same to the last bit whichever kernel OpenBLAS picks for the CPU.

Regression: the roll sums were matrix products, which NumPy hands to OpenBLAS, and its kernels
(chosen at run time: Prescott, Haswell, SkylakeX…) order a sum each their own way. The same solve
then differed in its last bit from one machine to another, and the prebuilt tables written on one
machine were not what another machine wrote. ``OPENBLAS_CORETYPE=Prescott`` (SSE3: any x86-64 CPU
runs it) stands for another machine here, beside this one's own choice.

The long game is left out: it is iterated to a tolerance (1e-14), its least squares solved by LAPACK,
so its last bits are the iteration's, not the game's.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

SOLVES = """
import json
from shutthebox.core.rules import Rules
from shutthebox.strategy.solver import solve, solve_duel, solve_round
print(json.dumps([
    solve(Rules(tiles=12), "score").value.hex(),
    solve(Rules(tiles=10, one_die="never"), "shut").value.hex(),
    solve_duel(Rules(tiles=9)).value.hex(),
    [seat.hex() for seat in solve_round(Rules(tiles=8), 3).seats],
]))
"""


def solved(coretype: str | None) -> list[object]:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_CORETYPE"}
    if coretype is not None:
        env["OPENBLAS_CORETYPE"] = coretype
    run = subprocess.run([sys.executable, "-c", SOLVES], env=env, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS's x86-64 kernels")
def test_a_solve_gives_the_same_bits_with_the_oldest_kernel_as_with_this_cpus_own() -> None:
    assert solved("Prescott") == solved(None)
