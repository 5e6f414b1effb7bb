"""Shut the Box (Cerrar la Caja, Canoga): rules, exact solver, bots and games.

The floors, top to bottom: ``cli`` (the command); ``web`` and ``term`` (the
browser and terminal games); ``i18n`` (the words, in every language);
``strategy`` (the exact solver, NumPy) and ``storage`` (finished games);
``core`` (the rules and the flow of a game, in the standard library only).
The names below are the core's, importable from here; each loads on first use,
so a command that needs none of them starts at once.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing would cost every command a tenth of its start

__all__ = [
    "PRESETS",
    "Board",
    "DiceChoice",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "Match",
    "Mode",
    "Move",
    "OneDie",
    "OutOfTurnError",
    "ParseError",
    "Phase",
    "RecordError",
    "Roll",
    "Rules",
    "RulesError",
    "Scoring",
    "ScriptedDice",
    "SeededDice",
    "ShutTheBoxError",
    "TurnResult",
    "grade",
    "legal_moves",
    "replay",
]
__version__ = "0.1.0"

_HOME = {
    "board": ("Board", "Move"),
    "chance": ("SeededDice",),
    "dice": ("Roll", "ScriptedDice"),
    "errors": (
        "IllegalActionError", "OutOfTurnError", "ParseError", "RecordError", "RulesError", "ShutTheBoxError",
    ),
    "game": ("Game",),
    "match": ("DiceChoice", "Match", "Phase", "TurnResult", "legal_moves"),
    "record": ("GameRecord", "replay"),
    "rules": ("PRESETS", "Mode", "OneDie", "Rules", "Scoring", "grade"),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}


def __getattr__(name: str) -> Any:
    """Load a public name of the core the first time it is asked for (PEP 562)."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'shutthebox' has no attribute {name!r}")
    value = getattr(import_module(f"shutthebox.core.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # for type checkers and readers: the same names, imported eagerly
    from typing import Any

    from shutthebox.core.board import Board, Move
    from shutthebox.core.chance import SeededDice
    from shutthebox.core.dice import Roll, ScriptedDice
    from shutthebox.core.errors import (
        IllegalActionError,
        OutOfTurnError,
        ParseError,
        RecordError,
        RulesError,
        ShutTheBoxError,
    )
    from shutthebox.core.game import Game
    from shutthebox.core.match import DiceChoice, Match, Phase, TurnResult, legal_moves
    from shutthebox.core.record import GameRecord, replay
    from shutthebox.core.rules import PRESETS, Mode, OneDie, Rules, Scoring, grade
