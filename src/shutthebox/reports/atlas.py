"""The strategy atlas as a static report: ``index.html`` with its tables, and a picture per plot.

Every number is the atlas's (`shutthebox.strategy.atlas`); the plots draw the
same numbers as the tables beside them (matplotlib, the ``sim`` extra: without
it the report has its tables only). Words in the reader's language.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from shutthebox.i18n import _, language
from shutthebox.strategy.atlas import Atlas

__all__ = ["write_atlas"]

STYLE = """
body { font-family: "DejaVu Sans", system-ui, sans-serif; color: #2b1a0c; max-width: 960px; margin: 2em auto;
       padding: 0 1em; line-height: 1.4; }
h1, h2 { font-family: Georgia, "DejaVu Serif", serif; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #c9a86a; padding: 2px 8px; text-align: right; }
th { background: #f6e8c3; }
img { max-width: 100%; }
"""


def _tag(name: str, text: str) -> str:
    return f"<{name}>{escape(text)}</{name}>"


def _table(head: list[str], rows: list[list[Any]]) -> str:
    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.6f}"
        if isinstance(value, list):
            return "+".join(map(str, value)) or "—"
        return escape(str(value if value is not None else "—"))

    header = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def _plots(atlas: Atlas, folder: Path) -> list[str]:
    """The pictures drawn, by file name (none without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    drawn = []
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for rule in sorted({b["one_die"] for b in atlas.boards}):
        rows = [b for b in atlas.boards if b["one_die"] == rule]
        left.plot([b["tiles"] for b in rows], [b["expected_score"] for b in rows], marker="o", label=rule)
        right.plot([b["tiles"] for b in rows], [b["shut"] for b in rows], marker="o", label=rule)
    left.set(xlabel=_("tiles"), ylabel=_("expected score"))
    right.set(xlabel=_("tiles"), ylabel=_("chance to shut the box"))
    left.legend(title=_("one die when"))
    figure.tight_layout()
    figure.savefig(folder / "boards.png", dpi=100)
    drawn.append("boards.png")
    figure, axes = plt.subplots(figsize=(6, 4))
    sizes = [e["tiles"] for e in atlas.edges]
    axes.plot(sizes, [e["round"] for e in atlas.edges], marker="o", label=_("round"))
    axes.plot(sizes, [e["long"] for e in atlas.edges], marker="o", label=_("long game"))
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.set(xlabel=_("tiles"), ylabel=_("first player's chance to win"))
    axes.legend()
    figure.tight_layout()
    figure.savefig(folder / "edges.png", dpi=100)
    drawn.append("edges.png")
    figure, axes = plt.subplots(figsize=(8, 4))
    for bot in atlas.bots:
        scores = sorted((int(k), v) for k, v in bot["scores"].items())
        shares = [v / bot["games"] for _score, v in scores]
        axes.step([score for score, _count in scores], shares, where="mid", label=bot["bot"])
    axes.set(xlabel=_("score"), ylabel=_("share of games"))
    axes.legend()
    figure.tight_layout()
    figure.savefig(folder / "bots.png", dpi=100)
    drawn.append("bots.png")
    plt.close("all")
    return drawn


def write_atlas(atlas: Atlas, folder: Path) -> Path:
    """Write the report into ``folder`` (made if missing); the path of its ``index.html``."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn = set(_plots(atlas, folder))

    def picture(name: str) -> str:
        return f'<p><img src="{name}" alt=""></p>' if name in drawn else ""

    title = _("Shut the Box: a strategy atlas")
    parts = [
        _tag("h1", title),
        _tag("p", _("Every number is computed by the exact solver, but the bots, which are simulated.")),
        _tag("h2", _("Boards and one-die rules")), picture("boards.png"),
        _table([_("tiles"), _("one die when"), _("expected score"), _("chance to shut the box")],
               [[b["tiles"], b["one_die"], b["expected_score"], b["shut"]] for b in atlas.boards]),
        _tag("h2", _("Every opening move")),
        _table([_("roll"), _("shut"), _("expected score")],
               [[o["total"], o["shut"], o["expected_score"]] for o in atlas.openings]),
        _tag("h2", _("Where the objective changes the first move")),
        _table([_("roll"), _("lowest score"), _("shut the box"), _("score under 10")],
               [[o["total"], o["score"], o["shut"], o["beat-10"]] for o in atlas.objectives]),
        _tag("h2", _("The first player")), picture("edges.png"),
        _table([_("tiles"), _("round"), _("long game")],
               [[e["tiles"], e["round"], e["long"]] for e in atlas.edges]),
        _tag("h2", _("Stakes")),
        _tag("p", _("The first player of a two-player round played for the money, on {tiles} tiles: each"
                    " puts one stake in the pot, the winner takes it, a shut box is paid double the stake"
                    " by the other player, a tie is played again (the money of the rounds below)."
                    ).format(tiles=atlas.tiles)),
        _table([_("rules"), _("tiles"), _("first player's expected result in stakes")],
               [[s["preset"], s["tiles"], s["first_player"]] for s in atlas.stakes]),
        _tag("h2", _("Rounds of two to eight")),
        _tag("p", _("Each seat in the order of play, on {tiles} tiles: its chance to win when every seat"
                    " plays to win, and its expected result in stakes when every seat plays for the money"
                    " (each puts one stake in the pot, a shut box is paid double, a tie is played again)."
                    ).format(tiles=atlas.tiles)),
        _table([_("players"), _("seat"), _("chance to win"), _("expected result in stakes")],
               [[r["players"], seat, win, stake] for r in atlas.rounds
                for seat, (win, stake) in enumerate(zip(r["win"], r["stake"], strict=True), start=1)]),
        _tag("h2", _("The bots")), picture("bots.png"),
        _table([_("bot"), _("games"), _("mean score"), _("95 % interval"), _("chance to shut the box")],
               [[b["bot"], b["games"], b["mean_score"], "{:.4f} to {:.4f}".format(*b["mean_ci95"]), b["shut"]]
                for b in atlas.bots]),
    ]
    page = (f'<!doctype html><html lang="{escape(language())}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(parts)}</body></html>")
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
