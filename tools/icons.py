"""The page's PNG icons, drawn with Pillow from the motif of ``static/icon.svg``.

    python tools/icons.py    # writes icon-192.png, icon-512.png and icon-maskable-512.png

The wooden box, its green felt, three ivory tiles and two dice, in the SVG's 64-unit grid. Each icon
is drawn four times larger and scaled down, which smooths its edges. The maskable icon fills its
whole square with wood and keeps the felt inside the central circle of 80 % that every mask leaves.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "src" / "shutthebox" / "web" / "static"
GRID = 64  # the SVG's viewBox
OVERSAMPLE = 4
WOOD, FELT, IVORY, DIE, PIP = "#6b3d1c", "#1f5f3a", "#f3e3bb", "#ffffff", "#222222"
MASK_SAFE = 0.8  # the diameter of the circle a maskable icon's motif must keep to, in icon widths


def draw_motif(draw: ImageDraw.ImageDraw, scale: float, dx: float = 0, dy: float = 0) -> None:
    """The felt, the tiles and the dice (grid units 6 to 58), at ``scale`` pixels a unit."""

    def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return (dx + x * scale, dy + y * scale, dx + (x + w) * scale, dy + (y + h) * scale)

    def dot(cx: float, cy: float, r: float) -> None:
        draw.ellipse(box(cx - r, cy - r, 2 * r, 2 * r), fill=PIP)

    draw.rounded_rectangle(box(6, 6, 52, 52), radius=6 * scale, fill=FELT)
    line = max(1, round(scale))
    for x in (9, 25, 41):
        draw.rounded_rectangle(box(x, 10, 14, 18), radius=2 * scale, fill=IVORY, outline=WOOD, width=line)
    draw.rounded_rectangle(box(17, 34, 14, 14), radius=3 * scale, fill=DIE)
    draw.rounded_rectangle(box(35, 38, 14, 14), radius=3 * scale, fill=DIE)
    dot(24, 41, 2)
    for cx, cy in ((39, 42), (42, 45), (45, 48)):
        dot(cx, cy, 1.6)


def icon(size: int) -> Image.Image:
    """The icon as the SVG draws it: a rounded wooden box, transparent in its corners."""
    big = size * OVERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    scale = big / GRID
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=10 * scale, fill=WOOD)
    draw_motif(draw, scale)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def maskable(size: int) -> Image.Image:
    """Wood to every edge, the felt's corners within the safe circle (with a little margin)."""
    big = size * OVERSAMPLE
    image = Image.new("RGBA", (big, big), WOOD)
    draw = ImageDraw.Draw(image)
    felt = 0.95 * MASK_SAFE * big / 2**0.5  # the side of a square inscribed in the safe circle, less 5 %
    scale = felt / 52
    offset = (big - felt) / 2 - 6 * scale
    draw_motif(draw, scale, offset, offset)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for name, image in (
        ("icon-192.png", icon(192)),
        ("icon-512.png", icon(512)),
        ("icon-maskable-512.png", maskable(512)),
    ):
        image.save(STATIC / name, optimize=True)
        print(STATIC / name)


if __name__ == "__main__":
    main()
