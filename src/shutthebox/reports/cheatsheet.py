"""The cheat sheet as a page to print: one table, its words in the reader's language, nothing to load.

Served at ``/cheatsheet`` and written by ``shutthebox cheatsheet``: the same
HTML, self-contained (its style inline), sized for one A4 or Letter page.
"""

from __future__ import annotations

from html import escape

from babel.core import UnknownLocaleError
from babel.numbers import format_decimal

from shutthebox.i18n import _, ngettext
from shutthebox.i18n.words import rules_line
from shutthebox.strategy.cheatsheet import Sheet

__all__ = ["STYLE", "sheet_html"]

STYLE = """
@page { size: auto; margin: 10mm; }
body { font-family: "DejaVu Sans", system-ui, sans-serif; color: #2b1a0c; margin: 0 auto; max-width: 190mm; }
h1 { font-family: Georgia, "DejaVu Serif", serif; font-size: 16pt; margin: 0 0 2mm; }
p { margin: 0 0 2mm; font-size: 9pt; }
table { border-collapse: collapse; width: 100%; font-size: 8.5pt; }
th, td { border: 0.3mm solid #8a6a3a; padding: 0.6mm 1mm; text-align: center; white-space: nowrap; }
thead th { background: #f6e8c3; }
th.open { text-align: left; font-family: "DejaVu Sans Mono", monospace; }
td.end { color: #b3362b; }
td.one { background: #eef7ef; }
.rows { overflow-x: auto; }
.rows:focus-visible { outline: 0.6mm solid #8a6a3a; }
@media screen and (max-width: 600px) {
  body { padding: 0 12px; }
  h1 { font-size: 14pt; }
  p { font-size: 10.5pt; line-height: 1.4; }
}
@media print { a { display: none; } .rows { overflow: visible; } }
"""


def sheet_html(sheet: Sheet, lang: str) -> str:
    """The whole page: a title, how to read it, and the table."""
    tiles = sheet.rules.tiles
    end = escape(_("end"))
    columns = "".join(f"<th>{escape(c)}</th>" for c in (_("open tiles"), _("dice"), _("expected")))
    head = "".join(f"<th>{t}</th>" for t in range(1, 13))
    rows = []
    for row in sheet.rows:
        board = " ".join(str(t) if row.open >> (t - 1) & 1 else "·" for t in range(1, tiles + 1))
        dice = ngettext("{n} die", "{n} dice", row.dice).format(n=row.dice) + (" *" if row.choice else "")
        cells = []
        for total in range(1, 13):
            if total not in row.moves:
                cells.append("<td></td>")
            elif row.moves[total] is None:
                cells.append(f'<td class="end">{end}</td>')
            else:
                shut = "+".join(map(str, row.moves[total] or ()))
                cells.append(f'<td class="{"one" if row.dice == 1 else ""}">{shut}</td>')
        rows.append(
            f'<tr><th class="open">{escape(board)}</th><td>{escape(dice)}</td>'
            f"<td>{decimal(row.expected, 1, lang)}</td>{''.join(cells)}</tr>"
        )
    title = _("Shut the Box: the best move for every roll")
    how = _(
        "Find the tiles still open in the first column: roll the dice shown there (* where the rules "
        "let you choose, and that is the better choice), then shut the tiles under the total you "
        "rolled. “end”: no move, the turn is over. Played for the lowest expected score: {expected} "
        "from the full board. The rows are the {rows} positions optimal play meets most often; "
        "the third column is the expected score from each."
    ).format(expected=decimal(sheet.expected, 2, lang), rows=len(sheet.rows))
    if sheet.rules.doubles_extra_turn:
        how += " " + _(
            "A double earns an extra roll after a miss: after a double with no move, roll again. The "
            "moves are for a roll that is not a double where the total allows one."
        )
    caption = escape(_("The best move for every roll"))
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body><main>"
        f"<h1>{escape(title)}</h1><p><strong>{escape(rules_line(sheet.rules))}</strong></p>"
        f'<p>{escape(how)}</p><div class="rows" role="region" aria-label="{caption}" tabindex="0">'
        f"<table><thead><tr>{columns}{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div></main></body></html>"
    )


def decimal(value: float, digits: int, lang: str) -> str:
    """``value`` with ``digits`` decimals as the language writes it: 4.23, 4,23."""
    pattern = f"0.{'0' * digits}"
    locale = lang.split("@", maxsplit=1)[0].replace("-", "_")
    try:
        return format_decimal(round(value, digits), format=pattern, locale=locale)
    except (ValueError, UnknownLocaleError):  # a language Babel does not know writes as English
        return format_decimal(round(value, digits), format=pattern, locale="en")
