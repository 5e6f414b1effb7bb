"""Shut the Box (Cerrar la Caja, Canoga): rules, exact solver, bots and games.

The core (``board``, ``dice``, ``rules``, ``match``, ``record``, ``game``)
imports only the standard library; the solver adds NumPy; the web app, the
terminal game and storage are optional extras that import the core.
"""

from shutthebox.core.board import Board, Move
from shutthebox.core.dice import Roll, ScriptedDice, SeededDice
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
