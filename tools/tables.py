"""Write the value tables that ship with the page (`shutthebox.strategy.tables`), or check them.

    python tools/tables.py          # write src/shutthebox/web/static/tables/*.json
    python tools/tables.py check    # exit 1 when a file is missing, stale or not made here

Every preset at its own board, and the web preset at 10 and 12 tiles, for the objectives score and
shut. tests/strategy/test_tables.py regenerates them and compares byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

from shutthebox.core.rules import Rules
from shutthebox.strategy.tables import OBJECTIVES, PREBUILT, prebuilt_name, table_text

FOLDER = Path(__file__).resolve().parents[1] / "src" / "shutthebox" / "web" / "static" / "tables"


def expected() -> dict[str, str]:
    """Every prebuilt table's file name and text."""
    return {
        prebuilt_name(preset, tiles, objective): table_text(Rules.preset(preset, tiles=tiles), objective)
        for preset, tiles in PREBUILT
        for objective in OBJECTIVES
    }


def stale(folder: Path = FOLDER) -> list[str]:
    """The files that differ from what `expected` writes (missing ones, and strays, included)."""
    wanted = expected()
    found = {path.name for path in folder.glob("*.json")} if folder.is_dir() else set()
    wrong = [
        name for name, text in wanted.items() if name not in found or (folder / name).read_text() != text
    ]
    return sorted([*wrong, *(found - set(wanted))])


def main(argv: list[str]) -> int:
    if argv[1:] == ["check"]:
        wrong = stale()
        for name in wrong:
            print(f"stale value table: {name} (run python tools/tables.py)", file=sys.stderr)
        return 1 if wrong else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    wanted = expected()
    for path in FOLDER.glob("*.json"):
        if path.name not in wanted:
            path.unlink()
    for name, text in wanted.items():
        (FOLDER / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
