// Spanish and English text of the page. t(key, values) formats one message.
// The rules, tips and FAQ come from the 003 seed page (Spanish original, English translation).

export const LANGS = ["es", "en"];

const TEXT = {
  en: {
    title: "Shut the Box",
    subtitle: "Cerrar la Caja · Canoga",
    skip: "Skip to the game",
    nav: "Sections",
    nav_play: "Play",
    nav_rules: "Rules & tips",
    nav_scores: "Scores",
    lang_label: "Language",
    // setup
    setup_title: "New game",
    who_label: "Who plays",
    who_solo: "Solo",
    who_table: "Pass and play",
    who_bots: "Against bots",
    who_online: "Online room",
    seats_label: "Players",
    seat_name: "Name of player {n}",
    seat_kind: "Player {n} plays",
    kind_here: "here",
    kind_bot: "bot",
    kind_remote: "online (joins with the code)",
    seat_strength: "Strength of bot {n}",
    strength_easy: "easy",
    strength_medium: "medium",
    strength_hard: "hard",
    strength_expert: "expert",
    seat_remove: "Remove player {n}",
    seat_add: "Add a player",
    player_n: "Player {n}",
    remote_name: "(named when they join)",
    rules_label: "Rules",
    preset: "Preset",
    opt_tiles: "Tiles",
    opt_one_die: "One die allowed when",
    opt_one_die_forced: "One die is compulsory when allowed",
    opt_max_tiles: "Most tiles per roll",
    opt_scoring: "Scoring",
    opt_mode: "Way to play",
    opt_shut_wins: "Shutting the box wins the round at once",
    opt_stake: "Stake per player",
    opt_limit: "Elimination limit",
    opt_doubles_extra_turn: "A double earns an extra turn",
    opt_rounds: "Rounds",
    opt_hints: "Hints allowed",
    opt_seed: "Dice seed (optional, to replay a game)",
    auto: "automatic (on in the long game)",
    on: "on",
    off: "off",
    no_limit: "no limit",
    tiles_9: "Nine (1–9)",
    tiles_10: "Ten (1–10)",
    tiles_12: "Twelve (1–12)",
    tiles_n: "{n} tiles",
    "one_die_high-shut": "7, 8 and 9 are shut (every tile of 7 or more)",
    "one_die_sum-le-6": "the open tiles sum to 6 or less",
    "one_die_sum-lt-6": "the open tiles sum to less than 6",
    one_die_never: "never",
    scoring_sum: "sum of the open tiles",
    "scoring_sum-plus-roll": "open tiles plus the roll that failed",
    scoring_digits: "open tiles read as a number (1, 5, 9 → 159)",
    scoring_count: "number of open tiles",
    mode_solo: "solo",
    mode_round: "round (lowest score wins)",
    mode_elimination: "elimination (retire at the limit)",
    mode_long: "long game (two players: shut, then open)",
    preset_classic: "classic",
    preset_web: "web (one die at 6 or less)",
    "preset_web-10": "web, ten tiles",
    "preset_web-12": "web, twelve tiles",
    "preset_two-dice": "two dice always",
    preset_digits: "digits scoring",
    preset_sailors: "sailors (open tiles + roll)",
    preset_elimination: "elimination to 45",
    preset_long: "long game",
    preset_pub: "pub (one die forced, two tiles at most)",
    start: "Play",
    quick_title: "Quick solo",
    quick_text: "Choose Nine, Ten or Twelve tiles: the longer the board, the harder it is to shut.",
    default_name: "Player",
    join_title: "Join a room",
    join_code: "Room code",
    join_name: "Your name",
    join: "Join",
    bests_title: "Your bests in this browser",
    bests_none: "No solo game finished yet.",
    best_line: "{tiles} tiles ({rules}): {score} · grade {grade}",
    // game
    room: "Room {code}",
    share: "Share this link or the code {code}:",
    copy: "Copy link",
    copied: "Link copied.",
    waiting_for: "Waiting for {n} more player(s) to join…",
    you: "you",
    bot: "bot",
    online: "online",
    connected: "connected",
    away: "not connected",
    tiles_group: "Tiles",
    tile_open: "{n}, open",
    tile_shut: "{n}, shut",
    tile_selected: "{n}, selected",
    dice_label: "Dice: {faces}",
    dice_none: "Dice not rolled yet",
    roll: "Roll",
    one_die: "1 die",
    two_dice: "2 dice",
    shut: "Cerrar / Shut",
    open_btn: "Abrir / Open",
    clear: "Clear",
    hint: "Hint",
    keys_help: "Keys: 1–9 select tiles, 0 = 10, - = 11, = = 12 · Enter shuts · R rolls · 1/2 choose dice · H hint · Esc clears",
    st_rolloff_me: "{name}: roll one die to decide who starts.",
    st_choose: "{name}: one die or two?",
    st_roll: "{name}: roll the dice.",
    st_roll_one: "{name}: roll one die.",
    st_move: "{name}: {roll} = {total}. Pick open tiles that make {total}.",
    st_move_open: "{name}: {roll} = {total}. Pick shut tiles that make {total} to open them.",
    st_other: "{name} is playing…",
    st_pass: "{name}'s turn: pass the device.",
    sel_none: "Selected: nothing",
    sel_ok: "Selected: {tiles} = {sum}. Press Cerrar / Shut.",
    sel_partial: "Selected: {tiles} = {sum} (need {total}).",
    extra_turns: "Extra turns: {n}",
    round_of: "Round {round} of {rounds}",
    tiebreak: "tie-break",
    totals: "Total",
    ledger: "Ledger",
    pot: "Pot: {pot}",
    // announcements
    an_roll: "{name}: roll {faces} = {total}.",
    an_shut: "{name}: shut {tiles}.",
    an_opened: "{name}: opened {tiles}.",
    an_turn: "{name}: score {score}, grade {grade}.",
    an_shutbox: "{name}: the box is shut!",
    // result
    result_title: "Game over",
    winner: "Winner: {name}",
    draw: "The game is drawn.",
    your_score: "Score {score}",
    grade: "Grade",
    best_local: "Your best for {tiles} tiles with these rules (this browser): {score}",
    best_new: "New best!",
    best_server: "Best of {name} on this server: {score}",
    turn_row: "{name}: open {open} → {score}",
    box_shut: "box shut",
    review_btn: "Review the game",
    again: "Play again",
    new_game: "New game",
    saved: "Saved as game {id}.",
    // hint
    hint_title: "Hint",
    obj_score: "expected score (lower is better)",
    obj_shut: "chance to shut the box",
    obj_beat: "chance to score under {target}",
    "obj_tie-or-beat": "chance to score {target} or less",
    obj_long: "chance to win",
    obj_win: "chance to win the round",
    hint_use: "Use",
    loss: "loss",
    // review
    review_title: "Review",
    accuracy: "Accuracy of {name}: {pct}%",
    col_n: "#",
    col_player: "Player",
    col_board: "Open tiles",
    col_roll: "Roll",
    col_chosen: "Chosen",
    col_best: "Best",
    col_loss: "Loss",
    col_verdict: "Verdict",
    verdict_best: "best",
    verdict_good: "good",
    verdict_inaccuracy: "inaccuracy",
    verdict_mistake: "mistake",
    verdict_blunder: "blunder",
    review_none: "No decision had a real choice.",
    loading: "Loading…",
    // scores
    scores_title: "Scores",
    board_title: "Leaderboard ({tiles} tiles, the rules chosen in the setup)",
    board_none: "Nobody has finished a game with these rules yet.",
    col_rank: "Rank",
    col_best_score: "Best",
    col_average: "Average",
    col_turns: "Turns",
    col_shut: "Boxes shut",
    server_bests: "Bests of {name} on this server",
    server_bests_none: "No game of {name} stored yet.",
    // errors
    error: "Error: {detail}",
    "err_not-found": "That room or game does not exist (any more).",
    "err_wrong-seat": "That seat is not yours.",
    "err_hints-off": "Hints are off in this room.",
    "err_wrong-turn": "It is not your turn.",
    err_illegal: "That move is not allowed.",
    err_waiting: "The room is still waiting for players to join.",
    err_over: "The game is over.",
    "err_not-over": "The game is not over yet.",
    "err_no-decision": "There is nothing to choose right now.",
    "err_room-full": "The room has no free seat left.",
    "err_name-taken": "That name is already taken in this room.",
    err_malformed: "Something in the request cannot be read: {detail}",
    err_busy: "The server is full; try again later.",
    offline: "The server cannot be reached; trying again…",
    log_title: "Game log",
  },
  es: {
    title: "Cerrar la Caja",
    subtitle: "Shut the Box · Canoga",
    skip: "Saltar al juego",
    nav: "Secciones",
    nav_play: "Jugar",
    nav_rules: "Reglas y consejos",
    nav_scores: "Puntuaciones",
    lang_label: "Idioma",
    setup_title: "Nueva partida",
    who_label: "Quién juega",
    who_solo: "Solitario",
    who_table: "En la misma mesa",
    who_bots: "Contra robots",
    who_online: "Sala en línea",
    seats_label: "Jugadores",
    seat_name: "Nombre del jugador {n}",
    seat_kind: "El jugador {n} juega",
    kind_here: "aquí",
    kind_bot: "robot",
    kind_remote: "en línea (entra con el código)",
    seat_strength: "Nivel del robot {n}",
    strength_easy: "fácil",
    strength_medium: "medio",
    strength_hard: "difícil",
    strength_expert: "experto",
    seat_remove: "Quitar al jugador {n}",
    seat_add: "Añadir jugador",
    player_n: "Jugador {n}",
    remote_name: "(se nombra al entrar)",
    rules_label: "Reglas",
    preset: "Reglas predefinidas",
    opt_tiles: "Fichas",
    opt_one_die: "Se puede tirar un dado cuando",
    opt_one_die_forced: "Un dado es obligatorio cuando se permite",
    opt_max_tiles: "Máximo de fichas por tirada",
    opt_scoring: "Puntuación",
    opt_mode: "Modo de juego",
    opt_shut_wins: "Cerrar la caja gana la ronda al instante",
    opt_stake: "Apuesta por jugador",
    opt_limit: "Límite de eliminación",
    opt_doubles_extra_turn: "Un doble da un turno extra",
    opt_rounds: "Rondas",
    opt_hints: "Pistas permitidas",
    opt_seed: "Semilla de los dados (opcional, para repetir una partida)",
    auto: "automático (sí en el juego largo)",
    on: "sí",
    off: "no",
    no_limit: "sin límite",
    tiles_9: "Nueve (1–9)",
    tiles_10: "Diez (1–10)",
    tiles_12: "Doce (1–12)",
    tiles_n: "{n} fichas",
    "one_die_high-shut": "el 7, el 8 y el 9 están cerrados (toda ficha de 7 o más)",
    "one_die_sum-le-6": "las fichas abiertas suman 6 o menos",
    "one_die_sum-lt-6": "las fichas abiertas suman menos de 6",
    one_die_never: "nunca",
    scoring_sum: "suma de las fichas abiertas",
    "scoring_sum-plus-roll": "fichas abiertas más la tirada fallida",
    scoring_digits: "fichas abiertas leídas como número (1, 5, 9 → 159)",
    scoring_count: "número de fichas abiertas",
    mode_solo: "solitario",
    mode_round: "ronda (gana la puntuación más baja)",
    mode_elimination: "eliminación (se retira al llegar al límite)",
    mode_long: "juego largo (dos jugadores: cerrar y luego abrir)",
    preset_classic: "clásicas",
    preset_web: "web (un dado con 6 o menos)",
    "preset_web-10": "web, diez fichas",
    "preset_web-12": "web, doce fichas",
    "preset_two-dice": "siempre dos dados",
    preset_digits: "puntuación por dígitos",
    preset_sailors: "marineros (fichas abiertas + tirada)",
    preset_elimination: "eliminación a 45",
    preset_long: "juego largo",
    preset_pub: "de bar (un dado obligatorio, dos fichas como máximo)",
    start: "Jugar",
    quick_title: "Solitario rápido",
    quick_text: "Elige Nueve, Diez o Doce fichas: cuanto más largo el tablero, más difícil es cerrarlo.",
    default_name: "Jugador",
    join_title: "Entrar en una sala",
    join_code: "Código de la sala",
    join_name: "Tu nombre",
    join: "Entrar",
    bests_title: "Tus mejores puntuaciones en este navegador",
    bests_none: "Aún no has terminado ningún solitario.",
    best_line: "{tiles} fichas ({rules}): {score} · calificación {grade}",
    room: "Sala {code}",
    share: "Comparte este enlace o el código {code}:",
    copy: "Copiar enlace",
    copied: "Enlace copiado.",
    waiting_for: "Esperando a que entren {n} jugador(es) más…",
    you: "tú",
    bot: "robot",
    online: "en línea",
    connected: "conectado",
    away: "sin conexión",
    tiles_group: "Fichas",
    tile_open: "{n}, abierta",
    tile_shut: "{n}, cerrada",
    tile_selected: "{n}, elegida",
    dice_label: "Dados: {faces}",
    dice_none: "Aún no se han lanzado los dados",
    roll: "Lanzar",
    one_die: "1 dado",
    two_dice: "2 dados",
    shut: "Cerrar",
    open_btn: "Abrir",
    clear: "Borrar",
    hint: "Pista",
    keys_help: "Teclas: 1–9 eligen fichas, 0 = 10, - = 11, = = 12 · Intro cierra · R lanza · 1/2 eligen dados · H pista · Esc borra",
    st_rolloff_me: "{name}: lanza un dado para ver quién empieza.",
    st_choose: "{name}: ¿un dado o dos?",
    st_roll: "{name}: lanza los dados.",
    st_roll_one: "{name}: lanza un dado.",
    st_move: "{name}: {roll} = {total}. Elige fichas abiertas que sumen {total}.",
    st_move_open: "{name}: {roll} = {total}. Elige fichas cerradas que sumen {total} para abrirlas.",
    st_other: "Turno de {name}…",
    st_pass: "Turno de {name}: pásale el dispositivo.",
    sel_none: "Elegidas: ninguna",
    sel_ok: "Elegidas: {tiles} = {sum}. Pulsa Cerrar.",
    sel_partial: "Elegidas: {tiles} = {sum} (necesitas {total}).",
    extra_turns: "Turnos extra: {n}",
    round_of: "Ronda {round} de {rounds}",
    tiebreak: "desempate",
    totals: "Total",
    ledger: "Cuentas",
    pot: "Pozo: {pot}",
    an_roll: "{name}: tirada {faces} = {total}.",
    an_shut: "{name}: cierra {tiles}.",
    an_opened: "{name}: abre {tiles}.",
    an_turn: "{name}: {score} puntos, calificación {grade}.",
    an_shutbox: "{name}: ¡caja cerrada!",
    result_title: "Fin de la partida",
    winner: "Ganador: {name}",
    draw: "La partida termina en empate.",
    your_score: "Puntuación {score}",
    grade: "Calificación",
    best_local: "Tu mejor puntuación con {tiles} fichas y estas reglas (este navegador): {score}",
    best_new: "¡Nuevo récord!",
    best_server: "Mejor puntuación de {name} en este servidor: {score}",
    turn_row: "{name}: abiertas {open} → {score}",
    box_shut: "caja cerrada",
    review_btn: "Repasar la partida",
    again: "Jugar otra vez",
    new_game: "Nueva partida",
    saved: "Guardada como partida {id}.",
    hint_title: "Pista",
    obj_score: "puntuación esperada (cuanto menos, mejor)",
    obj_shut: "probabilidad de cerrar la caja",
    obj_beat: "probabilidad de hacer menos de {target}",
    "obj_tie-or-beat": "probabilidad de hacer {target} o menos",
    obj_long: "probabilidad de ganar",
    obj_win: "probabilidad de ganar la ronda",
    hint_use: "Usar",
    loss: "pérdida",
    review_title: "Repaso",
    accuracy: "Precisión de {name}: {pct} %",
    col_n: "N.º",
    col_player: "Jugador",
    col_board: "Fichas abiertas",
    col_roll: "Tirada",
    col_chosen: "Elegida",
    col_best: "Mejor",
    col_loss: "Pérdida",
    col_verdict: "Valoración",
    verdict_best: "la mejor",
    verdict_good: "buena",
    verdict_inaccuracy: "imprecisión",
    verdict_mistake: "error",
    verdict_blunder: "error grave",
    review_none: "Ninguna decisión tenía una elección real.",
    loading: "Cargando…",
    scores_title: "Puntuaciones",
    board_title: "Clasificación ({tiles} fichas, las reglas elegidas en la preparación)",
    board_none: "Nadie ha terminado aún una partida con estas reglas.",
    col_rank: "Puesto",
    col_best_score: "Mejor",
    col_average: "Media",
    col_turns: "Turnos",
    col_shut: "Cajas cerradas",
    server_bests: "Mejores puntuaciones de {name} en este servidor",
    server_bests_none: "Aún no hay partidas de {name} guardadas.",
    error: "Error: {detail}",
    "err_not-found": "Esa sala o partida no existe (o ya no existe).",
    "err_wrong-seat": "Ese puesto no es tuyo.",
    "err_hints-off": "Las pistas están desactivadas en esta sala.",
    "err_wrong-turn": "No es tu turno.",
    err_illegal: "Esa jugada no está permitida.",
    err_waiting: "La sala todavía espera a que se unan jugadores.",
    err_over: "La partida ha terminado.",
    "err_not-over": "La partida todavía no ha terminado.",
    "err_no-decision": "Ahora no hay nada que elegir.",
    "err_room-full": "La sala no tiene ningún puesto libre.",
    "err_name-taken": "Ese nombre ya está en uso en esta sala.",
    err_malformed: "Hay algo en la petición que no se puede leer: {detail}",
    err_busy: "El servidor está lleno; inténtalo más tarde.",
    offline: "No se puede contactar con el servidor; reintentando…",
    log_title: "Registro de la partida",
  },
};

// The rules & tips page: 003's text (how to play, scoring, tips, FAQ), then the variants of SPEC.md.
export const RULES = {
  es: `
<h2>Cómo jugar</h2>
<p>Lanza los dados y baja las fichas numeradas que sumen tu total. Cierra todas las fichas para cerrar la caja y ganar.</p>
<ul>
<li>Empiezas con una fila de fichas abiertas: del 1 al 9 en el tablero clásico, hasta del 1 al 12 en el largo.</li>
<li>Cada turno, lanza los dados y toca las fichas abiertas que sumen exactamente tu tirada.</li>
<li>¿Sacaste un 8? Baja el 8, o 5 + 3, o 6 + 2, o 1 + 3 + 4: cualquier combinación que sume ocho.</li>
<li>Pulsa <strong>Cerrar</strong> para bajarlas y vuelve a lanzar.</li>
<li>Cuando las fichas abiertas suman 6 o menos, puedes lanzar un solo dado en lugar de dos, ideal para cazar las últimas fichas pequeñas.</li>
<li>La ronda termina en cuanto sacas un total que ninguna ficha abierta puede formar.</li>
</ul>
<p class="note">La regla del dado único de arriba es la de las reglas «web». En las reglas clásicas se puede tirar un dado cuando el 7, el 8 y el 9 están cerrados; cada opción se elige al preparar la partida.</p>
<h2>Puntuación</h2>
<p>Tu puntuación es la suma de las fichas que quedan abiertas: cuanto menos, mejor. Baja todas para hacer cero, una partida perfecta.</p>
<table class="grades">
<thead><tr><th scope="col">Fichas abiertas restantes (suma)</th><th scope="col">Calificación</th></tr></thead>
<tbody>
<tr><td>0 (caja cerrada)</td><td>S</td></tr>
<tr><td>1–5</td><td>A</td></tr>
<tr><td>6–12</td><td>B</td></tr>
<tr><td>13–25</td><td>C</td></tr>
<tr><td>26+</td><td>F</td></tr>
</tbody></table>
<p>Tu mejor puntuación se guarda por tamaño de tablero en tu navegador. Elige Nueve, Diez o Doce fichas al empezar: cuanto más largo el tablero, más difícil es cerrarlo.</p>
<h2>Consejos</h2>
<ul>
<li><strong>Elimina primero los números altos.</strong> Las fichas altas (9, 8, 7) son las más difíciles de alcanzar al final, así que bájalas pronto.</li>
<li><strong>Mantén tus opciones abiertas.</strong> Si una tirada se puede formar de varias maneras, elige la que deje abiertas las fichas más útiles.</li>
<li><strong>Usa la regla del dado único.</strong> Cuando tus fichas sumen 6 o menos, cambia a un solo dado para evitar una tirada alta inalcanzable.</li>
<li><strong>Vigila la paridad.</strong> Si solo quedan fichas impares, las tiradas pares pueden ser imposibles de repartir: planea una jugada por adelantado.</li>
</ul>
<h2>Otras formas de jugar</h2>
<ul>
<li><strong>Ronda</strong>: cada jugador juega un turno con todas las fichas abiertas; empieza quien saque más con un dado. Quien cierra la caja gana al instante (opción); si no, gana la puntuación más baja, y los empatados juegan otra ronda. Con apuesta, el ganador se lleva el pozo y quien cierra la caja cobra el doble de la apuesta a cada jugador.</li>
<li><strong>Eliminación a 45</strong>: los puntos de cada ronda se suman; quien llega a 45 se retira y gana el último que queda.</li>
<li><strong>Juego largo</strong> (dos jugadores): el primero intenta cerrar la caja; el otro toma el tablero como está e intenta abrir las fichas cerradas con las mismas reglas. Un doble da un turno extra. Gana quien cierre o abra todas las fichas primero.</li>
<li><strong>Puntuaciones</strong>: suma de las fichas abiertas; más la tirada fallida (marineros); las fichas leídas como número (1, 5, 9 → 159); o cuántas fichas quedan.</li>
<li><strong>Reglas de casa</strong>: un dado obligatorio cuando se permite; como máximo dos fichas por tirada.</li>
</ul>
<h2>Teclado</h2>
<p>1–9 eligen fichas; 0, - y = eligen el 10, el 11 y el 12. Intro cierra las fichas elegidas, R lanza los dados, 1 o 2 eligen cuántos dados cuando se puede, H pide una pista y Esc borra la selección.</p>
<h2>Preguntas frecuentes</h2>
<dl class="faq">
<dt>¿Cómo se gana en Shut the Box?</dt>
<dd>Lanza los dados y baja las fichas abiertas que sumen tu total. Cierra todas las fichas para cerrar la caja y marcar un cero perfecto.</dd>
<dt>¿Cómo se puntúa en Shut the Box?</dt>
<dd>Tu puntuación es la suma de las fichas que quedan abiertas, así que cuanto menos, mejor. Cerrar todas las fichas hace cero, el mejor resultado posible.</dd>
<dt>¿Qué tamaños de tablero puedo jugar?</dt>
<dd>De nueve, diez o doce fichas. Los tableros más largos son más difíciles de cerrar, y tu mejor puntuación se guarda por tamaño de tablero.</dd>
<dt>¿Cuándo puedo lanzar un solo dado?</dt>
<dd>Cuando tus fichas abiertas suman 6 o menos, puedes lanzar un dado en lugar de dos, ideal para cerrar las últimas fichas pequeñas.</dd>
</dl>`,
  en: `
<h2>How to play</h2>
<p>Roll the dice and shut the numbered tiles that add up to your total. Shut every tile to shut the box and win.</p>
<ul>
<li>You start with a row of open tiles: 1 to 9 on the classic board, up to 1 to 12 on the long one.</li>
<li>Each turn, roll the dice and tap the open tiles that add up exactly to your roll.</li>
<li>Rolled an 8? Shut the 8, or 5 + 3, or 6 + 2, or 1 + 3 + 4: any combination that adds up to eight.</li>
<li>Press <strong>Shut</strong> to put them down and roll again.</li>
<li>When the open tiles add up to 6 or less, you may roll a single die instead of two, ideal for hunting down the last small tiles.</li>
<li>The round ends as soon as you roll a total that no open tiles can make.</li>
</ul>
<p class="note">The one-die rule above is the “web” rules’ one. Under the classic rules you may roll one die once 7, 8 and 9 are shut; every option is chosen when you set up the game.</p>
<h2>Scoring</h2>
<p>Your score is the sum of the tiles left open: the lower, the better. Shut them all to score zero, a perfect game.</p>
<table class="grades">
<thead><tr><th scope="col">Tiles left open (sum)</th><th scope="col">Grade</th></tr></thead>
<tbody>
<tr><td>0 (box shut)</td><td>S</td></tr>
<tr><td>1–5</td><td>A</td></tr>
<tr><td>6–12</td><td>B</td></tr>
<tr><td>13–25</td><td>C</td></tr>
<tr><td>26+</td><td>F</td></tr>
</tbody></table>
<p>Your best score is kept per board size in your browser. Choose Nine, Ten or Twelve tiles when you start: the longer the board, the harder it is to shut.</p>
<h2>Tips</h2>
<ul>
<li><strong>Get rid of the high numbers first.</strong> The high tiles (9, 8, 7) are the hardest to reach at the end, so shut them early.</li>
<li><strong>Keep your options open.</strong> If a roll can be made in several ways, choose the one that leaves the most useful tiles open.</li>
<li><strong>Use the single-die rule.</strong> When your tiles add up to 6 or less, switch to a single die to avoid an unreachable high roll.</li>
<li><strong>Watch the parity.</strong> If only odd tiles are left, even rolls can be impossible to split: plan a move ahead.</li>
</ul>
<h2>Other ways to play</h2>
<ul>
<li><strong>Round</strong>: each player plays one turn with every tile open; whoever rolls highest on one die starts. Shutting the box wins at once (an option); otherwise the lowest score wins, and tied players play another round. With a stake, the winner takes the pot and whoever shuts the box is paid double the stake by every other player.</li>
<li><strong>Elimination to 45</strong>: each round’s points add up; a player reaching 45 retires, and the last one left wins.</li>
<li><strong>Long game</strong> (two players): the first tries to shut the box; the other takes the board as it is and tries to open the shut tiles with the same rules. A double earns an extra turn. Whoever shuts or opens every tile first wins.</li>
<li><strong>Scoring</strong>: sum of the open tiles; plus the roll that failed (sailors); the open tiles read as one number (1, 5, 9 → 159); or how many tiles are left.</li>
<li><strong>House rules</strong>: one die compulsory when it is allowed; at most two tiles per roll.</li>
</ul>
<h2>Keyboard</h2>
<p>1–9 select tiles; 0, - and = select 10, 11 and 12. Enter shuts the selected tiles, R rolls the dice, 1 or 2 choose how many dice when you may, H asks for a hint and Esc clears the selection.</p>
<h2>FAQ</h2>
<dl class="faq">
<dt>How do you win at Shut the Box?</dt>
<dd>Roll the dice and shut the open tiles that add up to your total. Shut every tile to shut the box and score a perfect zero.</dd>
<dt>How is Shut the Box scored?</dt>
<dd>Your score is the sum of the tiles left open, so the lower the better. Shutting every tile scores zero, the best result possible.</dd>
<dt>What board sizes can I play?</dt>
<dd>Nine, ten or twelve tiles. Longer boards are harder to shut, and your best score is kept per board size.</dd>
<dt>When can I roll a single die?</dt>
<dd>When your open tiles add up to 6 or less, you can roll one die instead of two, ideal for shutting the last small tiles.</dd>
</dl>`,
};

let current = "en";

export function detectLang() {
  const saved = localStorage.getItem("stb.lang");
  if (LANGS.includes(saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = String(tag || "").slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  document.documentElement.lang = current;
  return current;
}

export function lang() {
  return current;
}

export function t(key, values = {}) {
  const text = TEXT[current][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

export function has(key) {
  return key in TEXT[current] || key in TEXT.en;
}

// Fill every element marked data-i18n (text), data-i18n-label (aria-label) or data-i18n-ph (placeholder).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-ph]")) el.setAttribute("placeholder", t(el.dataset.i18nPh));
  document.title = `${t("title")} · ${t("subtitle")}`;
}
