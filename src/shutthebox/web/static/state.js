// The page's one store and its slices: the setup form, the connection to a room, the server's last
// state shown, and the presentation (what the screen shows of it, and what was said). Every change is
// a pure function of the state; the modules of each view call them through `store.update`.

import { createStore } from "./store.js";
import { inPlay, mine } from "./room-facts.js";
import { toldNothing } from "./narration.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Advice} Advice */
/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./narration.js").Told} Told */

/**
 * How the page names a seat until the player types a name: named again in each new language.
 * @typedef {{ word: "me" } | { word: "player", n: number } | { word: "robot", n: number | null }} AutoName
 */

/**
 * A seat of the setup.
 * @typedef {object} FormSeat
 * @property {"here" | "bot" | "remote"} kind
 * @property {string} [name]
 * @property {string} [bot] a bot's strength
 * @property {AutoName | null} [auto] the page names it (until a name is typed)
 */

/**
 * The rule options of the setup: the catalog's, `doubles_extra_turn` null for "automatic".
 * @typedef {Record<string, any>} Options
 */

/**
 * @typedef {object} Form
 * @property {Catalog | null} catalog what the server accepts (null: not loaded, offline)
 * @property {"solo" | "table" | "bots" | "online"} who
 * @property {FormSeat[]} seats
 * @property {string} preset
 * @property {Options} options
 * @property {number} rounds NaN while the field holds no number
 * @property {boolean} hints
 * @property {string} seed a practice game's dice seed, as typed
 * @property {number | null} turnSeconds null: the server's default
 * @property {"bot" | "adjourn"} onLeave
 */

/**
 * @typedef {object} Connection
 * @property {string | null} code the room open on this page
 * @property {string | null} token its seat token
 * @property {boolean} busy an action sent, its answer not come yet
 * @property {boolean} autoRoll the roll follows once the server has taken the choice of dice
 */

/**
 * @typedef {object} ServerSnapshot
 * @property {Room | null} room the last state shown
 * @property {number} stateAt when it came (performance.now()): clocks count down from there
 * @property {Map<number, GameEvent>} seen every event this page received, compared with the record by "Verify"
 * @property {Advice | null} hint the solver's advice for the state shown
 */

/**
 * The end of a turn held on screen.
 * @typedef {object} Handover
 * @property {string[]} lines the banner
 * @property {number | null} player the seat whose turn ended (shown as active meanwhile)
 * @property {number[]} open the ending board's open tiles
 * @property {boolean} waitsForTap the next player shares this device: the banner waits for them
 * @property {boolean} mineNext this page's seat is next online: it may act at once
 * @property {boolean} shown false while the dice still land
 */

/**
 * @typedef {object} Presentation
 * @property {string | null} view the screen shown: setup, game, rules, scores, stats, daily, train
 * @property {string | null} dailyDay the day the daily screen shows (null: today)
 * @property {number} boardTiles the scores page's board
 * @property {ReadonlySet<number>} selected the tiles picked
 * @property {Handover | null} handover
 * @property {boolean} finishing the game is over, its last dice still rolling: the result waits for them
 * @property {boolean} hintAsk a ranked game's hint waits for the player's confirmation
 * @property {boolean} hintPending a hint asked, not come yet
 * @property {boolean} hintDropped the player stopped waiting for the hint asked: it is not shown when it comes
 * @property {(() => void) | null} starting a new game asked for while one is in play: it starts once the player says so
 * @property {boolean} renaming the profile form is open
 * @property {string | null} focusKey the moment focus was last placed: a new moment moves it
 * @property {boolean} focusRematch the rematch panel takes the focus at its next drawing
 * @property {string | null} switched the rematch room this page moved to
 * @property {{ urgent: number | null, seat: number | null }} spoken what the turn clock said
 * @property {Told} told what was said of the room
 * @property {string | null} bestFor the room whose result was kept among the browser's bests
 */

/**
 * @typedef {object} AppState
 * @property {Form} form
 * @property {Connection} connection
 * @property {ServerSnapshot} server
 * @property {Presentation} presentation
 */

/** @returns {AppState} */
export function initialState() {
  return {
    form: {
      catalog: null, who: "solo", seats: [], options: {}, rounds: 1, hints: true, seed: "", turnSeconds: null, onLeave: "bot",
      preset: "web", // the web game's rule (one die when the open tiles sum to 6 or less) unless the setup says other
    },
    connection: { code: null, token: null, busy: false, autoRoll: false },
    server: { room: null, stateAt: 0, seen: new Map(), hint: null },
    presentation: {
      view: null, dailyDay: null, boardTiles: 9, selected: new Set(), handover: null, finishing: false, hintAsk: false,
      hintPending: false, hintDropped: false, starting: null, renaming: false, focusKey: null, focusRematch: false, switched: null,
      spoken: { urgent: null, seat: null }, told: toldNothing(), bestFor: null,
    },
  };
}

// -- changing one slice ------------------------------------------------------------------------
/** @param {AppState} state @param {Partial<Form>} patch @returns {AppState} */
export const withForm = (state, patch) => ({ ...state, form: { ...state.form, ...patch } });
/** @param {AppState} state @param {Partial<Connection>} patch @returns {AppState} */
export const withConnection = (state, patch) => ({ ...state, connection: { ...state.connection, ...patch } });
/** @param {AppState} state @param {Partial<ServerSnapshot>} patch @returns {AppState} */
export const withServer = (state, patch) => ({ ...state, server: { ...state.server, ...patch } });
/** @param {AppState} state @param {Partial<Presentation>} patch @returns {AppState} */
export const withPresentation = (state, patch) => ({ ...state, presentation: { ...state.presentation, ...patch } });

// -- the room's moments ------------------------------------------------------------------------
/**
 * A room opened on this page: nothing of it shown or said yet.
 * @param {AppState} state @param {string} code @param {string | null} token none: watching @returns {AppState}
 */
export function roomOpened(state, code, token) {
  const opened = withServer(withConnection(state, { code, token }), { room: null, seen: new Map(), hint: null });
  return withPresentation(opened, {
    hintAsk: false, hintDropped: false, handover: null, finishing: false, selected: new Set(), told: toldNothing(), spoken: { urgent: null, seat: null },
  });
}

/** @param {AppState} state @returns {AppState} */
export function roomLeft(state) {
  return withServer(withConnection(state, { code: null }), { room: null });
}

/**
 * A state of the room shown: what was picked and the hint go with a new event.
 * @param {AppState} state @param {Room} room @param {number} now @returns {AppState}
 */
export function stateShown(state, room, now) {
  const previous = state.server.room;
  const seen = new Map(state.server.seen);
  for (const event of room.recent) seen.set(event.seq, event);
  let next = withServer(withConnection(state, { busy: false }), { room, stateAt: now, seen });
  if (!previous || previous.events !== room.events) {
    next = withServer(next, { hint: null });
    next = withPresentation(next, { selected: new Set(), hintPending: false, hintAsk: false });
  }
  return next;
}

/**
 * The server refused an action: nothing waits for its answer any more.
 * @param {AppState} state @returns {AppState}
 */
export function refused(state) {
  return withPresentation(withConnection(state, { busy: false, autoRoll: false }), { hintPending: false });
}

/**
 * The solver's advice came; the server marked the asker's seat as helped as it answered.
 * @param {AppState} state @param {Advice} advice @returns {AppState}
 */
export function hintCame(state, advice) {
  const room = state.server.room;
  const actor = room?.match?.actor;
  const marked = room && actor !== null && actor !== undefined && room.assisted && !room.assisted.includes(actor)
    ? { ...room, assisted: [...room.assisted, actor] }
    : room;
  return withServer(state, { hint: advice, room: marked });
}

/** @param {AppState} state @param {number} tile @returns {AppState} */
export function tileToggled(state, tile) {
  const selected = new Set(state.presentation.selected);
  if (selected.has(tile)) selected.delete(tile);
  else selected.add(tile);
  return withPresentation(state, { selected });
}

/**
 * The banner of a turn's end, for the state just shown.
 * @param {Room} room @param {string[]} lines @param {boolean} rolloff @returns {Handover}
 */
export function handoverFor(room, lines, rolloff) {
  const match = /** @type {import("./types.js").Match} */ (room.match);
  const next = match.actor;
  const waitsForTap = room.you.length > 1 && next !== null && room.you.includes(next) && !rolloff;
  const ended = rolloff ? null : match.history.at(-1) ?? null;
  // Online, the next player's clock runs from now: when that is this page, it may act at once.
  const mineNext = !waitsForTap && mine(room) && room.you.length === 1;
  return { lines, player: ended ? ended.player : null, mineNext, open: ended ? ended.open : match.board.open, waitsForTap, shown: false };
}

/**
 * The state's own rule: a new game asked for while one is in play is asked on the card that offers
 * the game back; once that card is gone (the game is shown, or over), so is the question.
 * @param {AppState} state @returns {AppState}
 */
export function settle(state) {
  const { starting, view } = state.presentation;
  if (!starting) return state;
  if (view !== "game" && inPlay(state.server.room, state.connection.code)) return state;
  return withPresentation(state, { starting: null });
}

/** The page's store. */
export const store = createStore(initialState(), settle);

/** The state now (a shorthand for views). */
export const now = () => store.get();
