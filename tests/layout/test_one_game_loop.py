"""Every interface advances a game through the core's one step API (`Game.due`, `play`, `think`,
`thought`, `rescue`, `check`, `step_bots`): no module outside the core, and no test helper, rolls a
game's dice, applies a choice to a game, or asks a bot to choose by itself.

Read from the source (the syntax tree), so an interface that drives a game by hand fails here
whether or not a test happens to run that path.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import shutthebox

PACKAGE = Path(shutthebox.__file__).parent
SUPPORT = Path(__file__).parents[1] / "support"

GAME_MACHINERY = {"act", "roll", "check_roll"}
"""`Game`'s own acting and rolling, which `Game.play` and `Game.check` wrap."""
STATE_MACHINERY = {"apply"}
"""`Match.apply`: the rules applied to a state, which a game's step does for its shell."""
BOT_MACHINERY = {"think", "choose", "step_bot", "bot_choice"}
"""A bot's own choosing: `Game.think` (or `thought`, `rescue`) asks it, with its fallback."""


def receiver(node: ast.expr) -> str:
    """The last name of what a method is called on: ``held.room.game.act`` → ``game``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return receiver(node.func)
    return ""


def hand_driven(path: Path, *, states_allowed: bool = False) -> list[str]:
    """The calls in ``path`` that drive a game's machinery by hand, as ``line: call``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, on = node.func.attr, receiver(node.func.value)
        by_hand = (
            (method in GAME_MACHINERY and on.endswith("game"))
            or (method in STATE_MACHINERY and on in {"state", "match"} and not states_allowed)
            or (method in BOT_MACHINERY and on != "game" and on.endswith(("bot", "fallback", "chooser")))
        )
        if by_hand:
            found.append(f"{node.lineno}: {on}.{method}(…)")
    return found


SHELLS = sorted(p for p in PACKAGE.rglob("*.py") if "core" not in p.relative_to(PACKAGE).parts)


@pytest.mark.parametrize("path", SHELLS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_shell_drives_a_game_by_hand(path: Path) -> None:
    assert hand_driven(path) == []


@pytest.mark.parametrize("path", sorted(SUPPORT.glob("*.py")), ids=lambda p: p.name)
def test_the_test_drivers_use_the_step_api_too(path: Path) -> None:
    """The drivers the tests share play games as every interface does (an oracle may still walk
    the rules over bare states)."""
    assert hand_driven(path, states_allowed=True) == []


def test_the_scan_finds_a_game_driven_by_hand(tmp_path: Path) -> None:
    """The check itself bites: each way of driving a game by hand is found."""
    shell = tmp_path / "shell.py"
    shell.write_text(
        "def drive(room, due, bot):\n"
        "    room.game.roll()\n"
        "    room.game.act(choice)\n"
        "    due.state.apply(move, 0)\n"
        "    bot.think(due.state)\n"
        "    room.game.play(due, room.game.think(due))\n",  # the step API: not found
        encoding="utf-8",
    )
    assert hand_driven(shell) == [
        "2: game.roll(…)", "3: game.act(…)", "4: state.apply(…)", "5: bot.think(…)",
    ]
