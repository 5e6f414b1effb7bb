"""Spanish and English text for everything a person reads in the terminal.

Messages are looked up by key; `text(lang, key, **values)` formats one. The
language comes from ``--lang`` or else from the locale (``LANG`` and friends).
"""

from __future__ import annotations

import os
from typing import Literal

__all__ = ["LANGUAGES", "Lang", "detect_language", "text"]

Lang = Literal["en", "es"]
LANGUAGES: tuple[Lang, ...] = ("en", "es")

_CATALOG: dict[str, dict[Lang, str]] = {
    "title": {"en": "Shut the Box", "es": "Cerrar la Caja"},
    "rules_line": {"en": "Rules: {rules}", "es": "Reglas: {rules}"},
    "board": {"en": "Board: {board}", "es": "Tablero: {board}"},
    "turn_of": {"en": "{player}'s turn", "es": "Turno de {player}"},
    "opening_turn_of": {
        "en": "{player}'s turn, opening shut tiles",
        "es": "Turno de {player}, abriendo fichas cerradas",
    },
    "rolloff": {
        "en": "{player} rolls one die to decide who starts: {roll}",
        "es": "{player} tira un dado para ver quién empieza: {roll}",
    },
    "starts": {"en": "{player} starts.", "es": "Empieza {player}."},
    "choose_dice": {
        "en": "One die or two? [1/2] ",
        "es": "¿Un dado o dos? [1/2] ",
    },
    "rolled": {"en": "{player} rolls {roll} = {total}", "es": "{player} tira {roll} = {total}"},
    "ask_move": {
        "en": "Tiles to shut for {total} (e.g. {example}), ? for options, h for a hint: ",
        "es": "Fichas a cerrar para {total} (p. ej. {example}), ? para opciones, h para pista: ",
    },
    "ask_open": {
        "en": "Tiles to open for {total} (e.g. {example}), ? for options, h for a hint: ",
        "es": "Fichas a abrir para {total} (p. ej. {example}), ? para opciones, h para pista: ",
    },
    "ask_roll": {
        "en": "Press Enter to roll ({dice}), or type the dice you rolled: ",
        "es": "Pulsa Intro para tirar ({dice}), o escribe los dados que sacaste: ",
    },
    "options": {"en": "Legal moves: {moves}", "es": "Jugadas legales: {moves}"},
    "no_move": {
        "en": "No open tiles make {total}: the turn is over.",
        "es": "Ninguna combinación suma {total}: se acabó el turno.",
    },
    "extra_turn": {
        "en": "{player} spends an extra turn and rolls again.",
        "es": "{player} usa un turno extra y vuelve a tirar.",
    },
    "turn_score": {
        "en": "{player} scores {score} (open: {open}), grade {grade}.",
        "es": "{player} anota {score} (abiertas: {open}), calificación {grade}.",
    },
    "shut_box": {
        "en": "{player} shuts the box! Score 0, grade S.",
        "es": "¡{player} cierra la caja! Puntuación 0, calificación S.",
    },
    "tiebreak": {
        "en": "Tie between {players}: a tie-break round.",
        "es": "Empate entre {players}: ronda de desempate.",
    },
    "round_won": {"en": "{player} wins round {round}.", "es": "{player} gana la ronda {round}."},
    "retired": {
        "en": "{player} reaches {total} and retires.",
        "es": "{player} llega a {total} y se retira.",
    },
    "totals": {"en": "Totals: {totals}", "es": "Totales: {totals}"},
    "winner": {"en": "{player} wins the game!", "es": "¡{player} gana la partida!"},
    "draw": {"en": "The game is drawn.", "es": "La partida termina en empate."},
    "ledger": {"en": "Ledger: {ledger}", "es": "Cuentas: {ledger}"},
    "long_won_shut": {
        "en": "{player} shuts every tile and wins!",
        "es": "¡{player} cierra todas las fichas y gana!",
    },
    "long_won_open": {
        "en": "{player} opens every tile and wins!",
        "es": "¡{player} abre todas las fichas y gana!",
    },
    "invalid": {"en": "Not allowed: {reason}", "es": "No permitido: {reason}"},
    "bye": {"en": "Game abandoned.", "es": "Partida abandonada."},
    "saved": {"en": "Game record saved to {path}", "es": "Registro guardado en {path}"},
    "hint": {"en": "Hint: {hint}", "es": "Pista: {hint}"},
    "no_hint": {"en": "No hint available here.", "es": "No hay pista disponible aquí."},
}


def detect_language(explicit: str | None = None) -> Lang:
    """``explicit`` if given, else Spanish when the locale says so, else English."""
    for lang in LANGUAGES:
        if explicit == lang:
            return lang
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def text(lang: Lang, key: str, **values: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``values``."""
    return _CATALOG[key][lang].format(**values)
