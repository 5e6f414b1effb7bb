"""Spanish and English text for everything a person reads in the terminal.

Messages are looked up by key; `text(lang, key, **values)` formats one. The
language comes from ``--lang`` or else from the locale (``LANG`` and friends).
An error of the core carries a ``key`` and ``values``: `error_text` says it
from the ``err_<key>`` template (the core itself writes only its English).
"""

from __future__ import annotations

import errno
import os
from typing import Literal

from shutthebox.core.errors import ShutTheBoxError

__all__ = ["LANGUAGES", "Lang", "detect_language", "error_text", "has_text", "text"]

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
    # -- narration shared by the plain game and the terminal app -------------
    "one_die": {"en": "one die", "es": "un dado"},
    "two_dice": {"en": "two dice", "es": "dos dados"},
    "chose_dice": {"en": "{player} chooses {dice}.", "es": "{player} elige {dice}."},
    "rolloff_tie": {
        "en": "Tie for the start: {players} roll again.",
        "es": "Empate para empezar: {players} vuelven a tirar.",
    },
    "no_open_move": {
        "en": "No shut tiles make {total}: the turn is over.",
        "es": "Ninguna combinación de fichas cerradas suma {total}: se acabó el turno.",
    },
    "shut_tiles": {"en": "{player} shuts {move}.", "es": "{player} cierra {move}."},
    "opened": {"en": "{player} opens {move}.", "es": "{player} abre {move}."},
    "solo_result": {
        "en": "Final score {score}, grade {grade}.",
        "es": "Puntuación final {score}, calificación {grade}.",
    },
    # -- the rules in a line ------------------------------------------------
    "rl_tiles": {"en": "{tiles} tiles", "es": "{tiles} fichas"},
    "mode_solo": {"en": "solo", "es": "solitario"},
    "mode_round": {"en": "round", "es": "ronda"},
    "mode_elimination": {"en": "elimination", "es": "eliminación"},
    "mode_long": {"en": "long game", "es": "juego largo"},
    "rl_one_die": {"en": "one die {when}", "es": "un dado {when}"},
    "one_die_high-shut": {"en": "once 7 and up are shut", "es": "con 7 y más cerradas"},
    "one_die_sum-le-6": {"en": "when open tiles sum ≤ 6", "es": "si las abiertas suman ≤ 6"},
    "one_die_sum-lt-6": {"en": "when open tiles sum < 6", "es": "si las abiertas suman < 6"},
    "one_die_never": {"en": "never", "es": "nunca"},
    "rl_forced": {"en": "one die forced", "es": "un dado obligatorio"},
    "rl_max_tiles": {"en": "at most {n} tiles a roll", "es": "como mucho {n} fichas por tirada"},
    "rl_scoring": {"en": "scoring: {scoring}", "es": "puntuación: {scoring}"},
    "scoring_sum": {"en": "sum", "es": "suma"},
    "scoring_sum-plus-roll": {"en": "sum plus last roll", "es": "suma más la última tirada"},
    "scoring_digits": {"en": "digits", "es": "dígitos"},
    "scoring_count": {"en": "tiles left", "es": "fichas abiertas"},
    "rl_no_shut_wins": {"en": "shutting does not win at once", "es": "cerrar no gana al instante"},
    "rl_stake": {"en": "stake {stake}", "es": "apuesta {stake}"},
    "rl_limit": {"en": "out at {limit}", "es": "fuera al llegar a {limit}"},
    "rl_doubles_on": {"en": "doubles earn a turn", "es": "los dobles dan turno extra"},
    "rl_doubles_off": {"en": "no extra turns", "es": "sin turnos extra"},
    # -- bots and advice ------------------------------------------------------
    "bot_name": {"en": "Bot ({bot})", "es": "Robot ({bot})"},
    "strength_easy": {"en": "easy", "es": "fácil"},
    "strength_medium": {"en": "medium", "es": "medio"},
    "strength_hard": {"en": "hard", "es": "difícil"},
    "strength_expert": {"en": "expert", "es": "experto"},
    "companion_intro": {
        "en": "Companion mode: roll the real dice, type the faces, see the best move.",
        "es": "Modo compañero: tira los dados de verdad, escribe lo que salió y mira la mejor jugada.",
    },
    # -- the terminal app ---------------------------------------------------------
    "status_rolloff": {
        "en": "{player}: roll one die to see who starts.",
        "es": "{player}: tira un dado para ver quién empieza.",
    },
    "status_rolloff_type": {
        "en": "{player}: roll one die to see who starts, and type it: {faces}",
        "es": "{player}: tira un dado para ver quién empieza, y escríbelo: {faces}",
    },
    "status_choose": {"en": "{player}: roll one die or two?", "es": "{player}: ¿un dado o dos?"},
    "status_roll": {"en": "{player}: roll {dice}.", "es": "{player}: tira {dice}."},
    "status_type": {
        "en": "{player}: roll {dice} and type the faces: {faces}",
        "es": "{player}: tira {dice} y escribe lo que salió: {faces}",
    },
    "status_move": {
        "en": "{player}: shut tiles that make {total}.",
        "es": "{player}: cierra fichas que sumen {total}.",
    },
    "status_open": {
        "en": "{player}: open shut tiles that make {total}.",
        "es": "{player}: abre fichas cerradas que sumen {total}.",
    },
    "status_bot": {"en": "{player} is thinking…", "es": "{player} está pensando…"},
    "status_over": {"en": "The game is over.", "es": "La partida ha terminado."},
    "pick_tiles": {"en": "Pick tiles that make {total}.", "es": "Elige fichas que sumen {total}."},
    "selection_ok": {
        "en": "{tiles} = {total}: Enter shuts them.",
        "es": "{tiles} = {total}: Intro las cierra.",
    },
    "selection_open_ok": {
        "en": "{tiles} = {total}: Enter opens them.",
        "es": "{tiles} = {total}: Intro las abre.",
    },
    "selection_sum": {"en": "{tiles} = {sum} (need {total})", "es": "{tiles} = {sum} (hace falta {total})"},
    "err_over": {
        "en": "The game is over: n for a new game, v for the review, q to quit.",
        "es": "La partida ha terminado: n para otra, v para el repaso, q para salir.",
    },
    "err_wait": {"en": "Wait: it is {player}'s turn.", "es": "Espera: es el turno de {player}."},
    "err_choose": {
        "en": "Press 1 for one die or 2 for two dice.",
        "es": "Pulsa 1 para un dado o 2 para dos dados.",
    },
    "err_press_roll": {"en": "Press Enter to roll.", "es": "Pulsa Intro para tirar."},
    "err_type_dice": {
        "en": "Type the faces of the dice you rolled (1 to 6).",
        "es": "Escribe lo que salió en los dados (1 a 6).",
    },
    "err_face": {"en": "A die shows 1 to 6, not {face}.", "es": "Un dado muestra de 1 a 6, no {face}."},
    "err_no_tile": {
        "en": "There is no tile {tile} on this board.",
        "es": "No hay ficha {tile} en este tablero.",
    },
    "err_tile_shut": {"en": "Tile {tile} is already shut.", "es": "La ficha {tile} ya está cerrada."},
    "err_tile_open": {
        "en": "Tile {tile} is open: pick shut tiles to open.",
        "es": "La ficha {tile} está abierta: elige fichas cerradas para abrir.",
    },
    "err_sum": {"en": "{tiles} make {sum}, not {total}.", "es": "{tiles} suman {sum}, no {total}."},
    "err_max_tiles": {"en": "At most {n} tiles a roll.", "es": "Como mucho {n} fichas por tirada."},
    "err_not_now": {"en": "Roll first, then pick tiles.", "es": "Primero tira, luego elige fichas."},
    "err_no_review": {
        "en": "The review comes once the game is over.",
        "es": "El repaso llega cuando termina la partida.",
    },
    "err_in_game": {
        "en": "Finish this game first (q quits).",
        "es": "Termina esta partida primero (q sale).",
    },
    "key_roll": {"en": "roll", "es": "tirar"},
    "key_faces": {"en": "type dice", "es": "escribir dados"},
    "key_tiles": {"en": "pick tiles", "es": "elegir fichas"},
    "key_shut": {"en": "shut", "es": "cerrar"},
    "key_open": {"en": "open", "es": "abrir"},
    "key_clear": {"en": "clear", "es": "borrar"},
    "key_hint": {"en": "hint", "es": "pista"},
    "key_review": {"en": "review", "es": "repaso"},
    "key_new": {"en": "new game", "es": "otra partida"},
    "key_setup": {"en": "setup", "es": "configurar"},
    "key_quit": {"en": "quit", "es": "salir"},
    "pot": {"en": "pot {pot}", "es": "bote {pot}"},
    "col_player": {"en": "Player", "es": "Jugador"},
    "col_score": {"en": "Score", "es": "Puntos"},
    "col_role": {"en": "Role", "es": "Papel"},
    "col_total": {"en": "Total", "es": "Total"},
    "col_wins": {"en": "Rounds", "es": "Rondas"},
    "col_ledger": {"en": "Purse", "es": "Saldo"},
    "role_shuts": {"en": "shuts", "es": "cierra"},
    "role_opens": {"en": "opens", "es": "abre"},
    "retired_mark": {"en": "(out)", "es": "(fuera)"},
    "hint_thinking": {"en": "Thinking…", "es": "Pensando…"},
    "reviewing": {"en": "Reviewing the game…", "es": "Repasando la partida…"},
    "hint_shut": {"en": "shut {move}", "es": "cerrar {move}"},
    "hint_open": {"en": "open {move}", "es": "abrir {move}"},
    "hint_best": {"en": "Best: {choice} ({worth})", "es": "Mejor: {choice} ({worth})"},
    "hint_other": {
        "en": "  then {choice} ({worth}, gives away {loss})",
        "es": "  luego {choice} ({worth}, pierde {loss})",
    },
    "hint_more": {"en": "  and {n} more", "es": "  y {n} más"},
    "value_expected": {"en": "{what} {value}", "es": "{what} {value}"},
    "value_chance": {"en": "{what} {value}%", "es": "{what} {value}%"},
    # -- setup and review screens ----------------------------------------------
    "default_player": {"en": "Player", "es": "Jugador"},
    "setup_title": {"en": "Shut the Box: a new game", "es": "Cerrar la Caja: nueva partida"},
    "setup_players": {"en": "Players (comma between)", "es": "Jugadores (con comas)"},
    "setup_bots": {"en": "Bots (strength or name)", "es": "Robots (nivel o nombre)"},
    "setup_bots_hint": {"en": "none; e.g. {names}", "es": "ninguno; p. ej. {names}"},
    "setup_mode": {"en": "Way to play", "es": "Modo de juego"},
    "setup_tiles": {"en": "Tiles", "es": "Fichas"},
    "setup_one_die": {"en": "One die allowed", "es": "Un dado permitido"},
    "setup_forced": {"en": "One die forced", "es": "Un dado obligatorio"},
    "setup_max_tiles": {"en": "Tiles per roll at most", "es": "Fichas por tirada, máximo"},
    "setup_scoring": {"en": "Scoring", "es": "Puntuación"},
    "setup_shut_wins": {"en": "Shutting wins at once", "es": "Cerrar gana al instante"},
    "setup_stake": {"en": "Stake (0: none)", "es": "Apuesta (0: ninguna)"},
    "setup_limit": {"en": "Elimination limit", "es": "Límite de eliminación"},
    "setup_doubles": {"en": "Doubles earn a turn", "es": "Dobles dan turno extra"},
    "setup_rounds": {"en": "Rounds", "es": "Rondas"},
    "setup_companion": {"en": "Companion (real box)", "es": "Compañero (caja real)"},
    "setup_seed": {"en": "Seed (blank: random)", "es": "Semilla (vacía: al azar)"},
    "setup_lang": {"en": "Language", "es": "Idioma"},
    "setup_start": {"en": "Start", "es": "Empezar"},
    "setup_cancel": {"en": "Cancel", "es": "Cancelar"},
    "setup_err_players": {
        "en": "name at least one player or bot",
        "es": "nombra al menos un jugador o robot",
    },
    "setup_err_number": {"en": "{field}: at least {least}", "es": "{field}: como mínimo {least}"},
    "setup_err_twins": {
        "en": "every player needs a different name",
        "es": "cada jugador necesita un nombre distinto",
    },
    "setup_err_solo": {
        "en": "solo is for one player, without bots",
        "es": "el solitario es para un solo jugador, sin robots",
    },
    "setup_err_long": {
        "en": "the long game is for two (people or bots)",
        "es": "el juego largo es para dos (personas o robots)",
    },
    "setup_err_elimination": {
        "en": "elimination needs two or more (people or bots)",
        "es": "la eliminación necesita dos o más (personas o robots)",
    },
    "opt_on": {"en": "yes", "es": "sí"},
    "opt_off": {"en": "no", "es": "no"},
    "opt_auto_mode": {"en": "solo for one, round for more", "es": "solitario para uno, ronda para más"},
    "opt_auto_doubles": {"en": "as the way to play says", "es": "según el modo de juego"},
    "opt_no_limit": {"en": "no limit", "es": "sin límite"},
    "review_title": {"en": "Review of the game", "es": "Repaso de la partida"},
    "review_accuracy": {"en": "Accuracy: {accuracy}", "es": "Precisión: {accuracy}"},
    "review_close": {"en": "Esc closes", "es": "Esc cierra"},
    "rv_player": {"en": "Player", "es": "Jugador"},
    "rv_board": {"en": "Board", "es": "Tablero"},
    "rv_roll": {"en": "Roll", "es": "Tirada"},
    "rv_chosen": {"en": "Chosen", "es": "Elegida"},
    "rv_best": {"en": "Best", "es": "Mejor"},
    "objective_score": {"en": "expected score", "es": "puntuación esperada"},
    "objective_shut": {"en": "chance to shut", "es": "probabilidad de cerrar"},
    "objective_beat": {"en": "chance to score under {target}", "es": "probabilidad de bajar de {target}"},
    "objective_tie-or-beat": {
        "en": "chance to score {target} or less",
        "es": "probabilidad de hacer {target} o menos",
    },
    "objective_long": {"en": "chance to win", "es": "probabilidad de ganar"},
    "objective_win": {"en": "chance to win the round", "es": "probabilidad de ganar la ronda"},
    "rv_verdict": {"en": "Verdict", "es": "Juicio"},
    "verdict_best": {"en": "best", "es": "la mejor"},
    "verdict_good": {"en": "good", "es": "buena"},
    "verdict_inaccuracy": {"en": "inaccuracy", "es": "imprecisión"},
    "verdict_mistake": {"en": "mistake", "es": "error"},
    "verdict_blunder": {"en": "blunder", "es": "pifia"},
    # -- plain game prompts ----------------------------------------------------
    "ask_rolloff": {
        "en": "{player} rolls one die to see who starts: press Enter, or type the die you rolled: ",
        "es": "{player} tira un dado para ver quién empieza: pulsa Intro, o escribe el dado que sacaste: ",
    },
    "ask_roll_typed": {
        "en": "Type what {player} rolled with {dice} (e.g. 3 5): ",
        "es": "Escribe lo que sacó {player} con {dice} (p. ej. 3 5): ",
    },
    "ask_rolloff_typed": {
        "en": "{player} rolls one die to see who starts; type it: ",
        "es": "{player} tira un dado para ver quién empieza; escríbelo: ",
    },
    "err_bad_dice": {
        "en": "{answer!r} is not {dice} showing 1 to 6; nothing changed.",
        "es": "{answer!r} no es {dice} de 1 a 6; no ha cambiado nada.",
    },
    "err_bad_move": {
        "en": "{answer!r} is not a move for {total} here; legal moves: {moves}",
        "es": "{answer!r} no es una jugada para {total} aquí; jugadas legales: {moves}",
    },
    # -- history and personal bests -------------------------------------------
    "store_saved": {
        "en": "Saved to your history (game {id}).",
        "es": "Guardada en tu historial (partida {id}).",
    },
    "store_typed": {
        "en": "The dice were typed in, so this game counts for no best.",
        "es": "Los dados se escribieron a mano, así que esta partida no cuenta para las mejores marcas.",
    },
    "store_failed": {
        "en": "The game could not be saved to the history: {reason}",
        "es": "No se pudo guardar la partida en el historial: {reason}",
    },
    "store_new_best": {
        "en": "New personal best for {player} on {tiles} tiles: {score}!",
        "es": "¡Nueva mejor marca de {player} con {tiles} fichas: {score}!",
    },
    "store_best": {
        "en": "{player}'s best on {tiles} tiles with these rules: {best}.",
        "es": "Mejor marca de {player} con {tiles} fichas y estas reglas: {best}.",
    },
    "scores_bests": {
        "en": "Personal bests (per board size and rules):",
        "es": "Mejores marcas (por tamaño de tablero y reglas):",
    },
    "scores_best_line": {
        "en": "{player}: {score} (grade {grade}) · {rules} · turns: {turns} · {date}",
        "es": "{player}: {score} (calificación {grade}) · {rules} · turnos: {turns} · {date}",
    },
    "scores_games": {"en": "Recent games:", "es": "Partidas recientes:"},
    "scores_game_line": {
        "en": "#{id} {date} · {mode}, {tiles} tiles · {scores}{winner}",
        "es": "#{id} {date} · {mode}, {tiles} fichas · {scores}{winner}",
    },
    "scores_winner": {"en": " · won by {player}", "es": " · ganó {player}"},
    "scores_none": {"en": "none yet", "es": "todavía ninguna"},
    "invalid": {"en": "Not allowed: {reason}", "es": "No permitido: {reason}"},
    "bye": {"en": "Game abandoned.", "es": "Partida abandonada."},
    "saved": {"en": "Game record saved to {path}", "es": "Registro guardado en {path}"},
    "hint": {"en": "Hint: {hint}", "es": "Pista: {hint}"},
    "no_hint": {"en": "No hint available here.", "es": "No hay pista disponible aquí."},
    # -- the study commands: solve, hint, simulate, review, replay -------------
    "cs_long": {
        "en": "Long game, {rules}: the starter wins with probability {value}",
        "es": "Juego largo, {rules}: quien empieza gana con probabilidad {value}",
    },
    "cs_value": {"en": "{rules}: optimal {what} = {value}", "es": "{rules}: {what} óptima = {value}"},
    "cs_what_score": {"en": "expected score", "es": "puntuación esperada"},
    "cs_what_shut": {"en": "probability of shutting the box", "es": "probabilidad de cerrar la caja"},
    "cs_what_beat": {"en": "probability of scoring under {k}", "es": "probabilidad de anotar menos de {k}"},
    "cs_what_tie-or-beat": {
        "en": "probability of scoring {k} or less",
        "es": "probabilidad de anotar {k} o menos",
    },
    "cs_what_win": {
        "en": "probability of winning a two-player round, playing first",
        "es": "probabilidad de ganar una ronda a dos, jugando primero",
    },
    "cs_exactly": {"en": "exactly {value}", "es": "exactamente {value}"},
    "cs_table": {"en": "Policy table written to {path}", "es": "Tabla de la estrategia escrita en {path}"},
    "cs_position": {
        "en": "Board [{board}], {rules}; objective {objective}",
        "es": "Tablero [{board}], {rules}; objetivo {objective}",
    },
    "cs_roll": {"en": "; roll {roll} = {total}", "es": "; tirada {roll} = {total}"},
    "cs_before_roll": {"en": "Before rolling:", "es": "Antes de tirar:"},
    "cs_choice": {"en": "{label} {value}  (loss {loss})", "es": "{label} {value}  (pérdida {loss})"},
    "cs_shut": {"en": "shut {move}", "es": "cerrar {move}"},
    "cs_open": {"en": "open {move}", "es": "abrir {move}"},
    "cs_turn_over": {
        "en": "No move: the turn is over with score {score} (grade {grade}).",
        "es": "Sin jugada: el turno acaba con {score} puntos (calificación {grade}).",
    },
    "cs_sim_head": {
        "en": "{games} games of {strategy}, {rules}, seed {seed}",
        "es": "{games} partidas de {strategy}, {rules}, semilla {seed}",
    },
    "cs_mean": {
        "en": "  mean score  {mean}  (95% CI {lo} .. {hi})",
        "es": "  puntuación media  {mean}  (IC 95 % {lo} .. {hi})",
    },
    "cs_shut_rate": {
        "en": "  shut rate   {rate}  (95% CI {lo} .. {hi})",
        "es": "  caja cerrada      {rate}  (IC 95 % {lo} .. {hi})",
    },
    "cs_under": {"en": "  under {k}    {rate}", "es": "  por debajo de {k}  {rate}"},
    "cs_speed": {"en": "  speed       {speed} games/s", "es": "  velocidad         {speed} partidas/s"},
    "cs_plotted": {
        "en": "Score distribution plotted to {path}",
        "es": "Distribución de puntuaciones dibujada en {path}",
    },
    "cs_plot_x": {"en": "final score", "es": "puntuación final"},
    "cs_plot_y": {"en": "share of games", "es": "proporción de partidas"},
    "cs_plot_title": {
        "en": "{strategy}: {games} games, {tiles} tiles, mean {mean}, shut {shut} %",
        "es": "{strategy}: {games} partidas, {tiles} fichas, media {mean}, caja cerrada {shut} %",
    },
    "cs_matches": {
        "en": "{games} matches, {rules}, seed {seed}",
        "es": "{games} partidas, {rules}, semilla {seed}",
    },
    "cs_wins": {"en": "  {name} {wins} wins  ({rate})", "es": "  {name} {wins} victorias  ({rate})"},
    "cs_draws": {"en": "  draws {draws}", "es": "  empates {draws}"},
    "cs_review": {"en": "Review of {file}: {rules}", "es": "Revisión de {file}: {rules}"},
    "cs_rolled": {"en": " roll {roll}", "es": " tirada {roll}"},
    "cs_better": {
        "en": "; best {best} ({value}), loss {loss}",
        "es": "; mejor {best} ({value}), pérdida {loss}",
    },
    "cs_accuracy": {"en": "Accuracy of {player}: {accuracy} %", "es": "Precisión de {player}: {accuracy} %"},
    "rp_rules": {"en": "Rules: {rules}", "es": "Reglas: {rules}"},
    "rp_players": {
        "en": "Players: {players}; seed {seed}; {actions} actions",
        "es": "Jugadores: {players}; semilla {seed}; {actions} acciones",
    },
    "rp_box_shut": {"en": "box shut", "es": "caja cerrada"},
    "rp_tiebreak": {"en": " (tie-break {n})", "es": " (desempate {n})"},
    "rp_turn": {
        "en": "  round {round}{tiebreak}: {player}: {open}{score}",
        "es": "  ronda {round}{tiebreak}: {player}: {open}{score}",
    },
    "rp_over": {"en": "Game over; winner: {winner}", "es": "Partida terminada; gana: {winner}"},
    "rp_unfinished": {"en": "Game not finished", "es": "Partida sin terminar"},
    "rp_ledger": {"en": "Ledger: {ledger}", "es": "Cuentas: {ledger}"},
    "rp_ok": {"en": "Replay matches the record.", "es": "La repetición coincide con el registro."},
    # -- errors a command-line user can meet: err_<key> of `ShutTheBoxError.key` ------
    # rules (rules.py)
    "err_unknown_onedie": {
        "en": "unknown OneDie {value!r}: choose one of {names}",
        "es": "regla de un dado desconocida {value!r}: elige una de {names}",
    },
    "err_unknown_scoring": {
        "en": "unknown Scoring {value!r}: choose one of {names}",
        "es": "puntuación desconocida {value!r}: elige una de {names}",
    },
    "err_unknown_mode": {
        "en": "unknown Mode {value!r}: choose one of {names}",
        "es": "modo de juego desconocido {value!r}: elige uno de {names}",
    },
    "err_negative_sum": {
        "en": "an open sum is never negative, got {sum}",
        "es": "la suma de las fichas abiertas nunca es negativa: {sum}",
    },
    "err_not_bool": {
        "en": "{name} is true or false, not {value!r}",
        "es": "{name} solo puede ser true o false, no {value!r}",
    },
    "err_not_whole": {
        "en": "{name} must be a whole number, not {value!r}",
        "es": "{name} debe ser un número entero, no {value!r}",
    },
    "err_tiles_range": {
        "en": "tiles must be between 1 and {high}, not {tiles}",
        "es": "el número de fichas debe estar entre 1 y {high}, no {tiles}",
    },
    "err_max_tiles_low": {
        "en": "max_tiles must be a whole number of 1 or more, not {value!r}",
        "es": "el máximo de fichas por tirada debe ser un número entero de 1 o más, no {value!r}",
    },
    "err_stake_low": {
        "en": "stake must be 0 or more, not {stake}",
        "es": "la apuesta debe ser 0 o más, no {stake}",
    },
    "err_limit_low": {
        "en": "limit must be 1 or more, not {limit}",
        "es": "el límite de eliminación debe ser 1 o más, no {limit}",
    },
    "err_long_never_ends": {
        "en": "a long game on one tile can never end when one die is never allowed",
        "es": "un juego largo con una sola ficha no puede terminar si nunca se permite tirar un solo dado",
    },
    "err_unknown_preset": {
        "en": "unknown preset {name!r}: choose one of {names}",
        "es": "conjunto de reglas desconocido {name!r}: elige uno de {names}",
    },
    "err_unknown_rule_option": {
        "en": "unknown rule option {name!r}: the options are {options}",
        "es": "opción de regla desconocida {name!r}: las opciones son {options}",
    },
    "err_rules_not_object": {
        "en": "rules must be an object of options, not {data!r}",
        "es": "las reglas deben ser un objeto de opciones, no {data!r}",
    },
    # match setup (match.py)
    "err_no_players": {
        "en": "a game needs at least one player",
        "es": "una partida necesita al menos un jugador",
    },
    "err_names_differ": {
        "en": "player names must differ: {players}",
        "es": "los nombres de los jugadores deben ser distintos: {players}",
    },
    "err_solo_players": {
        "en": "solo is played by one player, not {count}",
        "es": "el solitario es para un solo jugador, no para {count}",
    },
    "err_long_players": {
        "en": "the long game is played by two players, not {count}",
        "es": "el juego largo es para dos jugadores, no para {count}",
    },
    "err_elimination_players": {
        "en": "elimination needs two or more players, not {count}",
        "es": "la eliminación necesita dos jugadores o más, no {count}",
    },
    "err_rounds_low": {
        "en": "rounds must be 1 or more, not {rounds!r}",
        "es": "el número de rondas debe ser 1 o más, no {rounds!r}",
    },
    "err_round_never_ends": {
        "en": "a round for {count} players on one tile can never end when one die is never allowed",
        "es": "una ronda de {count} jugadores con una sola ficha no puede terminar si nunca se "
              "permite tirar un solo dado",
    },
    "err_elimination_never_ends": {
        "en": "a elimination for {count} players on one tile can never end when one die is never allowed",
        "es": "una eliminación de {count} jugadores con una sola ficha no puede terminar si nunca se "
              "permite tirar un solo dado",
    },
    # boards, moves and rolls (board.py, dice.py)
    "err_board_no_tiles": {
        "en": "board {text!r} names no tiles",
        "es": "el tablero {text!r} no indica ninguna ficha",
    },
    "err_move_no_tiles": {
        "en": "move {text!r} names no tiles",
        "es": "la jugada {text!r} no indica ninguna ficha",
    },
    "err_board_not_tiles": {
        "en": "board {text!r} is not a list of tile numbers",
        "es": "el tablero {text!r} no es una lista de números de ficha",
    },
    "err_move_not_tiles": {
        "en": "move {text!r} is not a list of tile numbers",
        "es": "la jugada {text!r} no es una lista de números de ficha",
    },
    "err_board_tile_range": {
        "en": "board {text!r}: tile {tile} is not between 1 and {high}",
        "es": "tablero {text!r}: la ficha {tile} no está entre 1 y {high}",
    },
    "err_move_tile_range": {
        "en": "move {text!r}: tile {tile} is not between 1 and {high}",
        "es": "jugada {text!r}: la ficha {tile} no está entre 1 y {high}",
    },
    "err_board_twice": {
        "en": "board {text!r} names a tile twice",
        "es": "el tablero {text!r} repite una ficha",
    },
    "err_move_twice": {
        "en": "move {text!r} names a tile twice",
        "es": "la jugada {text!r} repite una ficha",
    },
    "err_move_mask": {
        "en": "a move needs 1 to {high} tiles, got mask {mask}",
        "es": "una jugada necesita de 1 a {high} fichas, y la máscara es {mask}",
    },
    "err_tile_range": {
        "en": "tile {tile} is not between 1 and {high}",
        "es": "la ficha {tile} no está entre 1 y {high}",
    },
    "err_move_of_twice": {
        "en": "move {tiles} names a tile twice",
        "es": "la jugada {tiles} repite una ficha",
    },
    "err_board_size": {
        "en": "a board has 1 to {high} tiles, not {size}",
        "es": "un tablero tiene de 1 a {high} fichas, no {size}",
    },
    "err_board_mask": {
        "en": "mask {mask} names tiles beyond the {size} of the board",
        "es": "la máscara {mask} incluye fichas más allá de las {size} del tablero",
    },
    "err_tile_off_board": {
        "en": "tile {tile} is not on a board of {size} tiles",
        "es": "la ficha {tile} no está en un tablero de {size} fichas",
    },
    "err_board_tile_off": {
        "en": "board {text!r}: tile {tile} is not on a board of {size} tiles",
        "es": "tablero {text!r}: la ficha {tile} no está en un tablero de {size} fichas",
    },
    "err_roll_count": {
        "en": "a roll has one or two dice, not {count}: {dice}",
        "es": "una tirada es de uno o dos dados, no de {count}: {dice}",
    },
    "err_roll_face": {
        "en": "roll {dice}: a die shows 1 to 6, not {face!r}",
        "es": "tirada {dice}: un dado muestra de 1 a 6, no {face!r}",
    },
    "err_roll_not_faces": {
        "en": "roll {text!r} is not one or two die faces",
        "es": "{text!r} no es una tirada de uno o dos dados",
    },
    "err_dice_count": {
        "en": "one or two dice are rolled, not {count}",
        "es": "se tiran uno o dos dados, no {count}",
    },
    # game records (record.py): replay and review
    "err_event_no_player": {
        "en": "event {index}: {data!r} is not an object with a player number",
        "es": "acción {index}: {data!r} no es un objeto con un número de jugador",
    },
    "err_event_shape": {
        "en": "event {index}: {data!r} needs a player and one of roll, dice, move (a roll may be typed)",
        "es": "acción {index}: {data!r} necesita un jugador y solo una de roll, dice, move (una tirada "
              "puede ser typed)",
    },
    "err_event_dice": {
        "en": "event {index}: dice is 1 or 2, not {value!r}",
        "es": "acción {index}: dice es 1 o 2, no {value!r}",
    },
    "err_event_error": {"en": "event {index}: {error}", "es": "acción {index}: {error}"},
    "err_not_int_list": {
        "en": "{value!r} is not a list of whole numbers",
        "es": "{value!r} no es una lista de números enteros",
    },
    "err_record_not_object": {
        "en": "a record is a JSON object, not {type}",
        "es": "un registro es un objeto JSON, no {type}",
    },
    "err_record_format": {
        "en": "not a game record: format is {format!r}, not {expected!r}",
        "es": "no es un registro de partida: el formato es {format!r}, no {expected!r}",
    },
    "err_record_version": {
        "en": "record version {version!r} is not supported ({supported})",
        "es": "la versión {version!r} del registro no está admitida ({supported})",
    },
    "err_record_lacks": {
        "en": "record lacks {keys}",
        "es": "al registro le faltan claves: {keys}",
    },
    "err_record_players": {
        "en": "players must be a list of names, not {players!r}",
        "es": "los jugadores (players) deben ser una lista de nombres, no {players!r}",
    },
    "err_record_seed": {
        "en": "seed must be a whole number or null, not {seed!r}",
        "es": "la semilla (seed) debe ser un número entero o null, no {seed!r}",
    },
    "err_record_rounds": {
        "en": "rounds must be a whole number, not {rounds!r}",
        "es": "las rondas (rounds) deben ser un número entero, no {rounds!r}",
    },
    "err_record_events": {
        "en": "events must be a list, not {type}",
        "es": "las acciones (events) deben ser una lista, no {type}",
    },
    "err_record_result": {
        "en": "result must be an object or null, not {result!r}",
        "es": "el resultado (result) debe ser un objeto o null, no {result!r}",
    },
    "err_record_rules": {"en": "record rules: {error}", "es": "reglas del registro: {error}"},
    "err_record_json": {
        "en": "record is not valid JSON: {detail}: line {line} column {column} (char {char})",
        "es": "el registro no es JSON válido: línea {line}, columna {column}",
    },
    "err_record_unreadable": {
        "en": "cannot read record {path!r}: {error}",
        "es": "no se puede leer el registro {path!r}: {error}",
    },
    "err_record_start": {
        "en": "record cannot start: {error}",
        "es": "la partida del registro no puede empezar: {error}",
    },
    "err_event_not_seed": {
        "en": "event {index}: roll {roll} is not what seed {seed} gives ({expected})",
        "es": "acción {index}: la tirada {roll} no es la que da la semilla {seed} ({expected})",
    },
    "err_result_differs": {
        "en": "the record's result differs from the result of replaying its events",
        "es": "el resultado del registro no coincide con el de repetir sus acciones",
    },
    # the study commands (cli_solver.py, solver, bots, simulate)
    "err_objective_needs_target": {
        "en": "objective {objective} needs --target K",
        "es": "el objetivo {objective} necesita --target K",
    },
    "err_exact_not_long": {
        "en": "--exact covers the single-turn objectives; the long game is solved to 1e-12",
        "es": "--exact sirve para los objetivos de un solo turno; el juego largo se resuelve "
              "con precisión 1e-12",
    },
    "err_exact_not_win": {
        "en": "--exact covers the single-turn objectives, not a two-player round",
        "es": "--exact sirve para los objetivos de un solo turno, no para una ronda a dos jugadores",
    },
    "err_roll_one_die": {
        "en": "--roll {roll}: one die shows 1 to 6",
        "es": "--roll {roll}: un dado muestra de 1 a 6",
    },
    "err_roll_two_dice": {
        "en": "--roll {roll}: two dice total 2 to 12",
        "es": "--roll {roll}: dos dados suman de 2 a 12",
    },
    "err_plot_suffix": {
        "en": "--plot {path!r}: the file must end in .png or .svg",
        "es": "--plot {path!r}: el archivo debe terminar en .png o .svg",
    },
    "err_vs_mode": {
        "en": "--vs plays matches: choose --mode round, elimination or long",
        "es": "--vs juega partidas: elige --mode round, elimination o long",
    },
    "err_unknown_objective": {
        "en": "unknown objective {value!r}: choose one of {names}",
        "es": "objetivo desconocido {value!r}: elige uno de {names}",
    },
    "err_unknown_bot": {
        "en": "unknown bot {name!r}: choose one of {names}",
        "es": "robot desconocido {name!r}: elige uno de {names}",
    },
    "err_unknown_strategy": {
        "en": "unknown strategy {name!r}: choose one of {names}",
        "es": "estrategia desconocida {name!r}: elige una de {names}",
    },
    "err_beat_needs_target": {
        "en": "strategy optimal-beat needs a target score (--target K)",
        "es": "la estrategia optimal-beat necesita una puntuación objetivo (--target K)",
    },
    "err_games_low": {
        "en": "games must be 1 or more, not {games}",
        "es": "el número de partidas debe ser 1 o más, no {games}",
    },
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


def has_text(key: str) -> bool:
    """Whether the catalog holds ``key`` (for words that come from other layers)."""
    return key in _CATALOG


_OS_REASONS_ES: dict[int, str] = {
    errno.ENOENT: "no existe",
    errno.EACCES: "no hay permiso para leerlo",
    errno.EISDIR: "es una carpeta",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
}
"""Why a file could not be read, in Spanish (the system's own words are English)."""


def error_text(lang: Lang, error: BaseException) -> str:
    """``error`` as a person reads it in ``lang``: its ``err_<key>`` template in Spanish, else ``str(error)``.

    Values that are errors themselves (a record wrapping a rules error, a file that
    cannot be read) are said in ``lang`` too.
    """
    if lang == "en" or not isinstance(error, ShutTheBoxError) or not has_text(f"err_{error.key}"):
        return str(error)
    values = {name: _value_text(lang, value) for name, value in error.values.items()}
    return text(lang, f"err_{error.key}", **values)


def _value_text(lang: Lang, value: object) -> object:
    if isinstance(value, ShutTheBoxError):
        return error_text(lang, value)
    if isinstance(value, OSError):
        reason = _OS_REASONS_ES.get(value.errno or 0) if lang == "es" else None
        return reason or value.strerror or str(value)
    return value
