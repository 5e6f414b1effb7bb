"""Strategy: the exact solver and what stands on it.

`solver` (backward induction over boards, NumPy), `advice` (hints: every
choice ranked), `bots` (players of several strengths), `review` (each decision
of a game graded) and `simulate` (many games at once, as table look-ups);
`names` lists the objectives, bots and strategies without importing NumPy.
"""
