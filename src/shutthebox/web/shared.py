"""A shared result: the page a friend opens from a Share link (``/g/{id}``), drawn by the server in the
reader's language, and the picture of its board that link previews show (Open Graph): a PNG drawn
with Pillow (the previewers of chat apps take no SVG), and the same board as SVG, exact and small.

Pure drawing from a stored game's JSON (`web.archive.Archive.game`): no request, no store.
"""

from __future__ import annotations

from html import escape
from io import BytesIO
from typing import Any

from shutthebox.core.tiles import grade
from shutthebox.i18n import _, language, ngettext

__all__ = ["board_png", "board_svg", "result_html"]


def _last_turn(game: dict[str, Any]) -> dict[str, Any]:
    turns: list[dict[str, Any]] = game["record"]["result"]["turns"]
    return turns[-1] if turns else {"player": "", "open": list(range(1, game["tiles"] + 1)), "score": None}


def board_svg(game: dict[str, Any]) -> str:
    """The box at the end of the game's last turn: each tile up (open) or down (shut), its score."""
    tiles: int = game["tiles"]
    turn = _last_turn(game)
    still_open = set(turn["open"])
    width, size, gap = 1200, 80, 10
    left = (width - tiles * size - (tiles - 1) * gap) // 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="630" viewBox="0 0 {width} 630">',
        '<rect width="100%" height="100%" fill="#0b5d3b"/>',
        '<rect x="40" y="170" width="1120" height="220" rx="24" fill="#7a4a21"/>',
    ]
    for tile in range(1, tiles + 1):
        x = left + (tile - 1) * (size + gap)
        up = tile in still_open
        fill, y = ("#f3e3c3", 200) if up else ("#4a2c12", 290)
        ink = "#3b2410" if up else "#8a6a4a"
        parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="8" fill="{fill}"/>')
        parts.append(
            f'<text x="{x + size // 2}" y="{y + 56}" font-size="44" text-anchor="middle" '
            f'font-family="sans-serif" fill="{ink}">{tile}</text>'
        )
    score = turn["score"]
    caption = escape(_("{name}: {score} · grade {grade}").format(
        name=turn["player"], score="-" if score is None else score, grade=grade(sum(still_open)),
    ))
    parts.append(
        f'<text x="600" y="500" font-size="56" text-anchor="middle" font-family="sans-serif" '
        f'fill="#ffffff">{caption}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def board_png(game: dict[str, Any]) -> bytes:
    """The board of `board_svg` as a 1200x630 PNG, the size link previews show."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as error:  # pragma: no cover - Pillow is among the web's dependencies
        raise ImportError('the board as PNG needs Pillow: pip install "shutthebox[web]"') from error
    tiles: int = game["tiles"]
    turn = _last_turn(game)
    still_open = set(turn["open"])
    width, size, gap = 1200, 80, 10
    left = (width - tiles * size - (tiles - 1) * gap) // 2
    image = Image.new("RGB", (width, 630), "#0b5d3b")
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((40, 170, 1160, 390), radius=24, fill="#7a4a21")
    digits, words = ImageFont.load_default(size=44), ImageFont.load_default(size=56)
    for tile in range(1, tiles + 1):
        x = left + (tile - 1) * (size + gap)
        up = tile in still_open
        fill, y = ("#f3e3c3", 200) if up else ("#4a2c12", 290)
        draw.rounded_rectangle((x, y, x + size, y + size), radius=8, fill=fill)
        ink = "#3b2410" if up else "#8a6a4a"
        draw.text((x + size // 2, y + size // 2), str(tile), font=digits, anchor="mm", fill=ink)
    score = turn["score"]
    caption = _("{name}: {score} · grade {grade}").format(
        name=turn["player"], score="-" if score is None else score, grade=grade(sum(still_open)),
    )
    draw.text((600, 490), caption, font=words, anchor="mm", fill="#ffffff")
    out = BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _tile_words(tile: int, up: bool) -> str:
    return (_("tile {tile} open") if up else _("tile {tile} shut")).format(tile=tile)


def result_html(game: dict[str, Any], *, base: str) -> str:
    """The result page of a stored game: its board, each score and grade, a link to play the same
    dice (a practice room's seed, when the game had one), and its Open Graph preview; ``base`` is the
    server's own address (``https://example.com``)."""
    game_id, tiles = game["id"], game["tiles"]
    turn = _last_turn(game)
    title = ngettext(
        "Shut the Box: {name} scored {score} on {tiles} tile",
        "Shut the Box: {name} scored {score} on {tiles} tiles", tiles,
    ).format(
        name=turn["player"], score=turn["score"], tiles=tiles,
    )
    rows = "".join(
        f"<li>{escape(str(s['player']))}: {escape(str(s['score']))}</li>" for s in game["scores"]
    )
    still_open = set(turn["open"])
    board = "".join(
        f'<span class="tile {"up" if t in still_open else "down"}" '
        f'aria-label="{escape(_tile_words(t, t in still_open))}">{t}</span>'
        for t in range(1, tiles + 1)
    )
    seed = game["record"].get("seed")
    again = f"/?seed={seed}&tiles={tiles}" if seed is not None else f"/?tiles={tiles}"
    image = f"{base}/g/{game_id}/board.png"
    grade_line = _("Grade {grade}").format(grade=grade(sum(still_open)))
    words = {
        "box": _("The box at the end"), "again": _("Play the same dice"),
        "picture": _("The board as a picture"),
    }
    return f"""<!doctype html>
<html lang="{escape(language())}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<meta property="og:title" content="{escape(title)}">
<meta property="og:type" content="website">
<meta property="og:url" content="{escape(f"{base}/g/{game_id}")}">
<meta property="og:image" content="{escape(image)}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:description" content="{escape(grade_line)}">
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<main id="shared-result">
<h1>{escape(title)}</h1>
<div class="board" role="img" aria-label="{escape(words["box"])}">{board}</div>
<p class="grade">{escape(grade_line)}</p>
<ul class="scores">{rows}</ul>
<p><a id="play-same-dice" href="{escape(again)}">{escape(words["again"])}</a></p>
<p><a href="/g/{game_id}/board.svg">{escape(words["picture"])}</a></p>
</main>
</body>
</html>
"""
