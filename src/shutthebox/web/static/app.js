// The page: renders what the server sends and sends what the player asks. No rule is decided here:
// the legal moves and the dice options come from the server, which rolls and checks every action.

import { _, detectLang, htmlLang, lang, languages, loadLanguages, ngettext, saveLang, setLang, translatePage } from "./i18n.js";
import { api, ApiError, RoomSocket } from "./net.js";
import { el, wide } from "./dom.js";
import { failure, keyOptions, optionLabel, refusal, rulesSummary, tilesCount } from "./words.js";
import { seenDiffers, verifyRecord } from "./verify.js";
import { diceLanded, gameOver, sound } from "./feel.js";
import { shareButton } from "./share.js";
import { renderStats } from "./stats.js";
import { renderDaily } from "./daily.js";
import { renderTrain } from "./train.js";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
const KEY_TILES = { 0: 10, "-": 11, "=": 12 };
const STRENGTH_NAMES = ["easy", "medium", "hard", "expert"];
const MAX_SEED = 2n ** 63n - 1n; // the largest dice seed the server keeps
const TURN_CLOCKS = [0, 30, 60, 120]; // the setup's turn clocks, in seconds (0: off)
const DEFAULT_TURN_SECONDS = 60; // the server's clock for a room with a remote seat, unless told
const URGENT_SECONDS = 10;
const HANDOVER_SECONDS = 3; // online or against bots, a turn's end stays this long (a tap goes on at once)
const DICE_LANDING_MS = 600; // the dice tumble this long before they land
const READING_MS = 500; // after another player's dice land, their total stays this long before what follows

const S = {
  catalog: null,
  who: "solo",
  seats: [],
  preset: "web", // the web game's rule (one die when the open tiles sum to 6 or less) unless the setup says other
  options: {},
  rounds: 1,
  hints: true,
  seed: "",
  code: null,
  token: null,
  socket: null,
  room: null,
  selected: new Set(),
  busy: false,
  lastSeq: -1,
  historySeen: 0,
  overSeen: false,
  hint: null,
  log: [],
  boardTiles: 9,
  rolling: null,
  bestFor: null,
  hintPending: false,
  autoRoll: false,
  bestInfo: null,
  hintAsk: false,
  renaming: false,
  seen: new Map(),
  turnSeconds: null, // the turn clock chosen in the setup; null: the server's default
  onLeave: "bot",
  stateAt: 0, // when the last state came (performance.now()): clocks count down from there
  ticker: null,
  spoken: { urgent: null, seat: null },
  noticeKey: null,
  rematchSeen: null,
  switched: null,
  focusRematch: false,
  handover: null, // the end of a turn held on screen: {turn, text, lines, waitsForTap, timer}
  pending: [], // states that came while a turn's end was on screen, shown after it in order
  draining: false,
  holdUntil: 0, // performance.now() until which another player's roll is on screen: later states wait
  finishing: false, // the game is over, its last dice still rolling: the result waits for them
  starting: null, // a new game asked for while one is in play: it starts once the player says so
  rolloff: [], // the roll-off's dice so far, each {seat, face}, for the banner that says who starts
  focusKey: null, // the moment focus was last placed (events, handover): a new moment moves it
};

// -- storage in the browser -------------------------------------------------------
const store = {
  get(key, fallback) {
    try {
      const raw = localStorage.getItem(`stb.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    localStorage.setItem(`stb.${key}`, JSON.stringify(value));
  },
};

function playerName() {
  return profile()?.name || store.get("name", "") || _("Player");
}

// The player's profile in this browser: {id, name, key}; the key is its secret, sent as a bearer.
function profile() {
  return store.get("profile", null);
}

// A client seed for the fair dice: 16 random bytes, base64url without padding.
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// What this browser knows of a room's fair dice: its own client seed and the commitment it saw first.
function fairFacts(code) {
  return store.get("fair", {})[code] ?? {};
}

function rememberFair(code, facts) {
  const all = store.get("fair", {});
  all[code] = { ...all[code], ...facts };
  const codes = Object.keys(all);
  for (const old of codes.slice(0, Math.max(0, codes.length - 30))) delete all[old];
  store.set("fair", all);
}

// Said to screen readers only: what the screen shows now (whose turn, a turn's end), not the game log.
function speak(text) {
  const region = $("#announce");
  region.textContent = "";
  setTimeout(() => (region.textContent = text), 30);
}

// Said to screen readers and written in the game log.
function announce(text) {
  speak(text);
  S.log.push(text);
  const list = $("#log");
  list.append(el("li", { text }));
  while (list.children.length > 200) list.firstChild.remove();
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 5000);
}

function showMessage(where, text) {
  const node = $(where);
  node.textContent = text;
  node.hidden = false;
}

function showError(where, error) {
  showMessage(where, failure(error));
}

function tilesText(tiles) {
  return [...tiles].sort((a, b) => b - a).join(" + ");
}

function sum(numbers) {
  return numbers.reduce((a, b) => a + b, 0);
}

function sameSet(a, b) {
  return a.length === b.size && a.every((x) => b.has(x));
}

function diceCount(n) {
  return n === 1 ? _("1 die") : _("2 dice");
}

// The strength each of the server's bots plays at: a bot offered under no strength (made through
// the API) is named by the one it plays closest to, so a player never reads a bot's code name.
const BOT_STRENGTHS = {
  random: "easy", greedy: "medium", fewest: "medium", heuristic: "hard",
  optimal: "expert", "optimal-score": "expert", "optimal-shut": "expert",
};

// A seat's bot by its strength (the server names the bot behind it).
function botLabel(bot) {
  const strength = Object.entries(S.catalog?.strengths ?? {}).find(([, name]) => name === bot)?.[0] ?? BOT_STRENGTHS[bot];
  return strength ? optionLabel("strength", strength) : _("unknown strength");
}

// -- views and routing ------------------------------------------------------------
function showView(name) {
  for (const view of $$(".view")) view.hidden = view.id !== `view-${name}`;
  S.view = name;
  renderContinue();
  for (const link of $$("nav a")) link.removeAttribute("aria-current");
  const nav = { setup: "#nav-play", game: "#nav-play", daily: "#nav-daily", train: "#nav-train", rules: "#nav-rules", scores: "#nav-scores", stats: "#nav-stats" }[name];
  $(nav)?.setAttribute("aria-current", "page");
}

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const params = new URLSearchParams(location.search);
  if (params.get("room") && !hash) {
    location.replace(`#/room/${params.get("room").toUpperCase()}`);
    return;
  }
  if (hash.startsWith("room/")) {
    openRoom(hash.slice(5).toUpperCase());
    return;
  }
  if (hash === "rules") {
    showView("rules");
  } else if (hash === "scores") {
    showView("scores");
    renderScores();
  } else if (hash === "stats") {
    showView("stats");
    renderStats($("#view-stats"));
  } else if (hash === "train") {
    showView("train");
    showTrain();
  } else if (hash === "daily" || hash.startsWith("daily/")) {
    showView("daily");
    S.dailyDay = hash.slice(6) || null;
    showDaily();
  } else {
    showView("setup");
    renderLocalBests();
  }
}

// The daily challenge (daily.js draws it): a ranked attempt is a room like any other.
function showDaily() {
  renderDaily($("#view-daily"), S.dailyDay, { profile, play: playDaily, askProfile: openProfileForm });
}

function showTrain() {
  renderTrain($("#view-train"), { profile, askProfile: openProfileForm });
}

async function playDaily(tiles) {
  try {
    const created = await api(`/api/daily/${tiles}`, { method: "POST", token: profile()?.key });
    rememberRoom(created.code, created.token);
    goToRoom(created.code);
  } catch (error) {
    profileRefused(error);
    throw error;
  }
}

// A game in play is never lost by reading the rules or the scores: every other screen offers it back.
function gameInPlay() {
  const room = S.room;
  return Boolean(room && S.code === room.code && room.status !== "over" && room.you.length);
}

function renderContinue() {
  const card = $("#continue");
  const room = S.room;
  card.hidden = S.view === "game" || !gameInPlay();
  if (card.hidden) S.starting = null;
  $("#start-anyway").hidden = !S.starting;
  if (card.hidden) return;
  $("#continue-link").href = `#/room/${room.code}`;
  const yours = mine(room) ? _("your turn") : _("{name} is playing", { name: room.match?.actor_name ?? "…" });
  const where = `${_("Room {code}", { code: room.code })} · ${tilesCount(room.rules.tiles)} · ${yours}`;
  $("#continue-text").textContent = S.starting ? `${where}. ${_("It is not over: start a new game anyway?")}` : where;
}

// A new game while one is in play: asked first, on the card that offers the game back.
function startNew(start) {
  if (!gameInPlay()) {
    start();
    return;
  }
  S.starting = start;
  renderContinue();
  $("#start-anyway").focus();
  $("#continue").scrollIntoView({ block: "nearest" });
}

function startAnyway() {
  const start = S.starting;
  S.starting = null;
  renderContinue();
  start?.();
}

// After a reload: the room this browser last played, reopened if its game is still on.
async function resumeCurrent() {
  const code = store.get("current", null);
  const token = code && store.get("rooms", {})[code];
  if (!token || S.code) return;
  try {
    const room = await api(`/api/rooms/${encodeURIComponent(code)}`, { token });
    if (room.status !== "over" && !S.code) openRoom(code, { quiet: true });
  } catch {
    /* gone or unreachable: nothing to continue */
  }
}

// -- setup --------------------------------------------------------------------------
// A seat the page names (until the player types a name) is named again in each new language.
function named(seat, name) {
  seat.name = name();
  seat.defaultName = name;
  return seat;
}

function defaultSeats(who) {
  const me = named({ kind: "here" }, playerName);
  if (who === "solo") return [me];
  if (who === "table") return [me, named({ kind: "here" }, () => _("Player {n}", { n: 2 }))];
  if (who === "bots") return [me, named({ kind: "bot", bot: "medium" }, () => _("Robot"))];
  return [me, { kind: "remote" }];
}

function chooseWho(who) {
  S.who = who;
  S.seats = defaultSeats(who);
  fitModeToSeats();
  renderSetup();
}

// The ways to play the server accepts for this many players (a long game is for two).
function modesFor(players) {
  if (players === 1) return ["solo"];
  return S.catalog.options.mode.values.filter((mode) => mode !== "solo" && (mode !== "long" || players === 2));
}

function presetFits(name) {
  const mode = S.catalog.presets[name].mode;
  return S.seats.length === 1 ? mode !== "elimination" && mode !== "long" : mode !== "long" || S.seats.length === 2;
}

// After the players change, a way to play that no longer fits becomes the plain one (solo or round).
function fitModeToSeats() {
  if (!presetFits(S.preset)) applyPreset("web");
  if (!modesFor(S.seats.length).includes(S.options.mode)) S.options.mode = S.seats.length === 1 ? "solo" : "round";
}

function applyPreset(name) {
  const preset = S.catalog.presets[name];
  S.preset = name;
  S.options = { ...preset };
  if (S.options.doubles_extra_turn === (S.options.mode === "long")) S.options.doubles_extra_turn = null;
  if (S.seats.length <= 1 && S.options.mode === "round") S.options.mode = "solo";
  if (S.seats.length > 1 && S.options.mode === "solo") S.options.mode = "round";
}

// The last setup is remembered in this browser, and the next visit starts from it.
function saveSetup() {
  const seats = S.seats.map((seat) => ({ kind: seat.kind, bot: seat.bot, name: seat.defaultName ? null : seat.name }));
  const { who, preset, options, rounds, hints, turnSeconds, onLeave } = S;
  store.set("setup", { who, preset, options, rounds, hints, turnSeconds, onLeave, seats });
}

function restoreSetup() {
  const saved = store.get("setup", null);
  const known = saved && S.catalog.presets[saved.preset] && Array.isArray(saved.seats) && saved.seats.length;
  S.seats = known ? saved.seats.slice(0, S.catalog.players.max).map(savedSeat) : defaultSeats("solo");
  applyPreset(known ? saved.preset : "web");
  if (!known) return;
  for (const [key, value] of Object.entries(saved.options ?? {})) if (key in S.catalog.options) S.options[key] = value;
  S.who = ["solo", "table", "bots", "online"].includes(saved.who) ? saved.who : "solo";
  S.rounds = saved.rounds ?? 1;
  S.hints = saved.hints ?? true;
  S.turnSeconds = saved.turnSeconds ?? null;
  S.onLeave = saved.onLeave === "adjourn" ? "adjourn" : "bot";
  fitModeToSeats();
}

// A remembered seat; one the page named is named again, in the language of the day.
function savedSeat(seat, index) {
  const kind = ["here", "bot", "remote"].includes(seat.kind) ? seat.kind : "here";
  if (kind === "remote") return { kind };
  const fresh = { kind, bot: kind === "bot" ? seat.bot || "medium" : undefined };
  if (seat.name) return { ...fresh, name: seat.name };
  if (kind === "bot") return named(fresh, () => _("Robot {n}", { n: index + 1 }));
  return named(fresh, index === 0 ? playerName : () => _("Player {n}", { n: index + 1 }));
}

// The rule in force, in a player's words: when one die may be rolled, and what the score counts.
function ruleInWords(options) {
  const dice = options.one_die === "never"
    ? _("You always roll two dice.")
    : _("You may roll one die when {when}.", { when: optionLabel("one_die", options.one_die) });
  return `${dice} ${_("Your score: the {scoring}.", { scoring: optionLabel("scoring", options.scoring) })}`;
}

function renderRuleInForce() {
  $("#rule-in-force").textContent = `${_("Rules: {preset}.", { preset: optionLabel("preset", S.preset) })} ${ruleInWords(S.options)}`;
}

// The seat a profile plays in: the first one played here (the server names it after the profile).
function profileSeat() {
  return profile() ? S.seats.findIndex((seat) => seat.kind === "here") : -1;
}

function renderSeats() {
  const list = $("#seats");
  list.replaceChildren();
  const mine = profileSeat();
  S.seats.forEach((seat, index) => {
    const n = index + 1;
    const item = el("li", { class: "seat" });
    if (seat.kind === "remote") {
      item.append(el("span", { class: "muted remote-name", text: _("(named when they join)") }));
    } else {
      item.append(
        el("input", {
          id: `seat-name-${index}`,
          value: index === mine ? profile().name : seat.name || "",
          readonly: index === mine,
          title: index === mine ? _("Your player name: rename it at the top of the page.") : null,
          maxlength: "64",
          "aria-label": _("Name of player {n}", { n }),
          oninput: (event) => {
            seat.name = event.target.value;
            seat.defaultName = null;
            if (index === 0 && seat.kind === "here") store.set("name", seat.name.trim());
          },
        }),
      );
    }
    const kind = el("select", {
      id: `seat-kind-${index}`,
      "aria-label": _("Player {n} plays", { n }),
      onchange: (event) => {
        seat.kind = event.target.value;
        if (seat.kind === "bot") {
          seat.bot = seat.bot || "medium";
          if (!seat.name || seat.defaultName) named(seat, () => _("Robot {n}", { n }));
        } else if (seat.kind === "here" && seat.defaultName) named(seat, index === 0 ? playerName : () => _("Player {n}", { n }));
        renderSeats();
      },
    });
    for (const value of ["here", "bot", "remote"]) {
      kind.append(el("option", { value, selected: seat.kind === value, text: optionLabel("kind", value) }));
    }
    item.append(kind);
    if (seat.kind === "bot") {
      const strength = el("select", {
        id: `seat-bot-${index}`,
        "aria-label": _("Strength of bot {n}", { n }),
        onchange: (event) => (seat.bot = event.target.value),
      });
      for (const value of STRENGTH_NAMES) {
        strength.append(el("option", { value, selected: seat.bot === value, text: optionLabel("strength", value) }));
      }
      item.append(strength);
    }
    if (S.seats.length > 1) {
      item.append(
        el("button", {
          type: "button",
          class: "small",
          "aria-label": _("Remove player {n}", { n }),
          text: "✕",
          onclick: () => {
            S.seats.splice(index, 1);
            fitModeToSeats();
            renderSetup();
            $(`#seat-name-${Math.min(index, S.seats.length - 1)}`)?.focus();
          },
        }),
      );
    }
    list.append(item);
  });
  const full = S.seats.length >= S.catalog.players.max;
  $("#add-seat").disabled = full;
  $("#seats-note").hidden = !full;
  $("#seats-note").textContent = _("A game has at most {n} players.", { n: S.catalog.players.max });
  renderOnlineFields();
}

function clockLabel(seconds) {
  if (!seconds) return _("off");
  // Translators: a number of seconds, short (a turn clock: "30 s").
  return seconds % 60 || seconds === 60 ? _("{n} s", { n: seconds }) : _("{n} min", { n: seconds / 60 });
}

// The options of a room with remote seats: each action's clock, and what a player who leaves becomes.
function renderOnlineFields() {
  const box = $("#online");
  box.hidden = !S.seats.some((seat) => seat.kind === "remote");
  if (box.hidden) return;
  const leave = select("opt-on_leave", ["bot", "adjourn"], S.onLeave, (v) => (v === "bot" ? _("a bot plays for them") : _("pause the game")), (v) => (S.onLeave = v));
  leave.disabled = S.turnSeconds === 0;
  $("#online-fields").replaceChildren(
    field(_("Turn clock"), select("opt-turn_seconds", TURN_CLOCKS, S.turnSeconds ?? DEFAULT_TURN_SECONDS, clockLabel, (v) => {
      S.turnSeconds = Number(v);
      $("#opt-on_leave").disabled = S.turnSeconds === 0;
    })),
    field(_("If a player leaves"), leave),
    el("p", { class: "muted online-note", text: _("Each roll and each move has this time; when it runs out, a bot finishes the turn. A player who misses two turns in a row has left.") }),
  );
}

function field(label, control) {
  return el("label", { class: "field" }, el("span", { text: label }), control);
}

function select(id, values, current, labelOf, onchange) {
  const node = el("select", { id, onchange: (event) => onchange(event.target.value) });
  for (const value of values) {
    node.append(el("option", { value: String(value), selected: String(current) === String(value), text: labelOf(value) }));
  }
  return node;
}

function checkbox(id, checked, onchange) {
  return el("input", { id, type: "checkbox", checked, onchange: (event) => onchange(event.target.checked) });
}

// A whole number within the server's range ({min, max}); what is typed is checked at "Play".
function number(id, value, range, onchange) {
  return el("input", {
    id, type: "number", min: String(range.min), max: range.max === undefined ? null : String(range.max), step: "1", value: String(value), inputmode: "numeric",
    "aria-describedby": "setup-error",
    oninput: (event) => {
      event.target.removeAttribute("aria-invalid");
      onchange(event.target.value === "" ? NaN : Number(event.target.value));
    },
  });
}

function renderRuleFields() {
  const o = S.options;
  const opts = S.catalog.options;
  const box = $("#rule-fields");
  const tileValues = Array.from({ length: opts.tiles.max }, (unused, i) => i + 1);
  const named = { 9: _("Nine (1–9)"), 10: _("Ten (1–10)"), 12: _("Twelve (1–12)") };
  const tilesLabel = (n) => named[n] ?? tilesCount(n);
  box.replaceChildren(
    field(_("Preset"), select("opt-preset", Object.keys(S.catalog.presets).filter(presetFits), S.preset, (v) => optionLabel("preset", v), (v) => {
      applyPreset(v);
      renderRuleFields();
      renderRuleInForce();
    })),
    field(_("Tiles"), select("opt-tiles", tileValues, o.tiles, tilesLabel, (v) => (o.tiles = Number(v)))),
    field(_("Way to play"), select("opt-mode", modesFor(S.seats.length), o.mode, (v) => optionLabel("mode", v), (v) => {
      o.mode = v;
    })),
    field(_("One die allowed when"), select("opt-one_die", opts.one_die.values, o.one_die, (v) => optionLabel("one_die", v), (v) => {
      o.one_die = v;
      renderRuleInForce();
    })),
    field(_("Scoring"), select("opt-scoring", opts.scoring.values, o.scoring, (v) => optionLabel("scoring", v), (v) => {
      o.scoring = v;
      renderRuleInForce();
    })),
    field(_("Most tiles per roll"), select("opt-max_tiles", ["", 1, 2, 3, 4, 5, 6], o.max_tiles ?? "", (v) => (v === "" ? _("no limit") : String(v)), (v) => (o.max_tiles = v === "" ? null : Number(v)))),
    field(_("A double earns an extra turn"), select("opt-doubles_extra_turn", ["", "true", "false"], o.doubles_extra_turn ?? "", (v) => (v === "" ? _("automatic (on in the long game)") : v === "true" ? _("on") : _("off")), (v) => (o.doubles_extra_turn = v === "" ? null : v === "true"))),
    field(_("Stake per player"), number("opt-stake", o.stake, opts.stake, (v) => (o.stake = v))),
    field(_("Elimination limit"), number("opt-limit", o.limit, opts.limit, (v) => (o.limit = v))),
    field(_("Rounds"), number("opt-rounds", S.rounds, S.catalog.rounds, (v) => (S.rounds = v))),
    el("label", { class: "check" }, checkbox("opt-one_die_forced", o.one_die_forced, (v) => (o.one_die_forced = v)), el("span", { text: _("One die is compulsory when allowed") })),
    el("label", { class: "check" }, checkbox("opt-shut_wins", o.shut_wins, (v) => (o.shut_wins = v)), el("span", { text: _("Shutting the box wins the round at once") })),
    el("label", { class: "check" }, checkbox("opt-hints", S.hints, (v) => (S.hints = v)), el("span", { text: _("Hints allowed") })),
    field(_("Dice seed (optional, to replay a game)"), el("input", {
      id: "opt-seed",
      inputmode: "numeric",
      value: S.seed,
      "aria-invalid": practiceSeed(S.seed) === undefined ? "true" : null,
      "aria-describedby": "setup-error",
      oninput: (event) => {
        S.seed = event.target.value.trim();
        event.target.removeAttribute("aria-invalid");
      },
    })),
  );
}

function renderSetup() {
  if (!S.catalog) return;
  for (const button of $$("#who button")) button.setAttribute("aria-pressed", String(button.dataset.who === S.who));
  renderSeats();
  renderRuleFields();
  renderRuleInForce();
  renderContinue();
  renderLocalBests();
  $("#join-name").value ||= store.get("name", "");
}

function createBody(overrides = {}) {
  const rules = {};
  for (const [key, value] of Object.entries({ ...S.options, ...overrides })) {
    if (value !== null && value !== undefined) rules[key] = value;
  }
  if (rules.max_tiles === undefined) rules.max_tiles = null;
  const mine = profileSeat();
  const seats = S.seats.map((seat, index) =>
    seat.kind === "remote" ? { kind: "remote" } : seat.kind === "bot" ? { kind: "bot", name: (seat.name || "").trim(), bot: seat.bot } : { kind: "here", name: index === mine ? profile().name : (seat.name || "").trim() },
  );
  const body = { preset: S.preset, rules, seats, rounds: S.rounds, hints: S.hints };
  if (seats.some((seat) => seat.kind === "remote")) {
    if (S.turnSeconds !== null) body.turn_seconds = S.turnSeconds;
    if (S.onLeave !== "bot") body.on_leave = S.onLeave;
  }
  const seed = practiceSeed(S.seed);
  if (seed !== null && seed !== undefined) body.seed = seed;
  return body;
}

// The practice seed typed in the setup: null when there is none (fair dice), a whole number from 0
// to 2^63 - 1 (a BigInt beyond what a JavaScript number holds exactly), or undefined when the text
// is no such number.
function practiceSeed(text) {
  if (!text) return null;
  if (!/^[0-9]+$/.test(text)) return undefined;
  const seed = BigInt(text);
  if (seed > MAX_SEED) return undefined;
  return seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed;
}

// What in the setup the server would refuse, as a sentence and the field to mend; null when nothing.
function setupProblem() {
  const opts = S.catalog.options;
  const within = (value, range) => Number.isInteger(value) && value >= range.min && (range.max === undefined || value <= range.max);
  const mine = profileSeat();
  const names = S.seats.map((seat, index) => (index === mine ? profile().name : (seat.name || "").trim()));
  for (const [index, seat] of S.seats.entries()) {
    if (seat.kind !== "remote" && !names[index]) return { field: `#seat-name-${index}`, text: _("Player {n} needs a name.", { n: index + 1 }) };
  }
  const taken = names.filter((name, index) => S.seats[index].kind !== "remote" && name);
  const twice = taken.find((name, index) => taken.findIndex((other) => other.toLowerCase() === name.toLowerCase()) !== index);
  if (twice) return { field: `#seat-name-${names.lastIndexOf(twice)}`, text: _("Two players are called {name}: give each a name of their own.", { name: twice }) };
  if (!S.seats.some((seat) => seat.kind === "here")) return { field: "#seat-kind-0", text: _("At least one player plays on this device.") };
  if (!within(S.options.stake, opts.stake)) return { field: "#opt-stake", text: _("The stake is a whole number from {min} to {max}.", opts.stake) };
  if (!within(S.options.limit, opts.limit)) return { field: "#opt-limit", text: _("The elimination limit is a whole number from {min} to {max}.", opts.limit) };
  if (!within(S.rounds, S.catalog.rounds)) return { field: "#opt-rounds", text: _("A game has from {min} to {max} rounds.", S.catalog.rounds) };
  if (practiceSeed(S.seed) === undefined) return { field: "#opt-seed", text: _("The dice seed must be a whole number from 0 to {max}; leave it empty for fair dice.", { max: String(MAX_SEED) }) };
  return null;
}

// The setup's own game, unless the server would refuse it: then the page says why, at the field.
function submitSetup(event) {
  event.preventDefault();
  const problem = setupProblem();
  if (problem) {
    showMessage("#setup-error", problem.text);
    $(problem.field)?.setAttribute("aria-invalid", "true");
    $(problem.field)?.focus();
    return;
  }
  $("#setup-error").hidden = true;
  saveSetup();
  startNew(() => startGame(createBody()));
}

// Create a room, as the profile when there is one. A ranked room's dice are committed to first
// (POST /api/commitments): this browser's fresh client seed goes with the room, after the
// commitment, which is kept to be compared with the room's. A practice room takes neither.
async function startGame(body, errorBox = "#setup-error") {
  $(errorBox).hidden = true;
  const practice = body.seed !== undefined && body.seed !== null;
  try {
    let fair = null;
    let claim = {};
    if (!practice) {
      const committed = await api("/api/commitments", { method: "POST" });
      fair = { seed: clientSeed(), commitment: committed.commitment };
      claim = { ticket: committed.ticket, client_seed: fair.seed };
    }
    const created = await api("/api/rooms", { method: "POST", body: { ...body, ...claim }, token: profile()?.key });
    rememberRoom(created.code, created.token);
    if (fair) rememberFair(created.code, fair);
    goToRoom(created.code);
  } catch (error) {
    profileRefused(error);
    showError(errorBox, error);
  }
}

// One tap: a solo game on the board chosen, under the rules of the setup (the web rule at first).
function quickSolo(tiles) {
  S.options.tiles = tiles;
  saveSetup();
  renderRuleFields();
  const body = createBody({ tiles, mode: "solo" });
  startGame({ ...body, seats: [{ kind: "here", name: playerName() }], rounds: 1, seed: undefined }, "#quick-error");
}

// One tap: a game against a medium bot, or an online room whose link the page shows to share.
function quickWithOthers(other) {
  const mode = S.options.mode === "solo" ? "round" : S.options.mode;
  const body = createBody({ mode });
  const rival = other === "bot" ? { kind: "bot", name: _("Robot"), bot: "medium" } : { kind: "remote" };
  const rest = { rounds: 1, seed: undefined, turn_seconds: undefined, on_leave: undefined };
  saveSetup();
  startGame({ ...body, ...rest, seats: [{ kind: "here", name: playerName() }, rival] }, "#quick-error");
}

// With friends at one device: the players are named first, in the setup.
function quickFriends() {
  if (S.who !== "table") chooseWho("table");
  $("#more-options").open = true;
  $("#seat-name-1")?.focus();
}

function goToRoom(code) {
  const target = `#/room/${code}`;
  if (location.hash === target) route(); // joining from the room's own link: no hashchange
  else location.hash = target;
}

function rememberRoom(code, token) {
  const rooms = store.get("rooms", {});
  rooms[code] = token;
  const codes = Object.keys(rooms);
  for (const old of codes.slice(0, Math.max(0, codes.length - 30))) delete rooms[old];
  store.set("rooms", rooms);
}

async function joinRoom(event) {
  event.preventDefault();
  const code = $("#join-code").value.trim().toUpperCase();
  const me = profile();
  const name = me ? me.name : $("#join-name").value.trim();
  const seed = clientSeed();
  $("#join-error").hidden = true;
  if (!name) {
    showMessage("#join-error", _("Your name is needed to join: type it above."));
    $("#join-name").focus();
    return;
  }
  try {
    const joined = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { method: "POST", body: { name, client_seed: seed }, token: me?.key });
    if (!me) store.set("name", name);
    rememberRoom(joined.code, joined.token);
    const commitment = joined.state?.fairness?.commitment;
    rememberFair(joined.code, commitment ? { seed, commitment } : { seed });
    goToRoom(joined.code);
  } catch (error) {
    profileRefused(error);
    showError("#join-error", error);
  }
}

// -- the player profile ------------------------------------------------------------
// Asked once, on the first visit: a name the server keeps unique (look-alikes refused) and a secret
// key this browser keeps. "Not now" plays as a guest, whose games count for no ranking.

// A translated message with the name in bold, wherever the language puts {name}.
function withName(text, name) {
  const [before, after = ""] = text.split("{name}");
  return el("span", {}, before, el("strong", { class: "profile-name", text: name }), after);
}

function renderProfile() {
  const me = profile();
  const asking = S.renaming || (!me && !store.get("profileLater", false));
  $("#profile-form").hidden = !asking;
  $("#profile-show").hidden = asking;
  $("#profile-title").textContent = me ? _("Rename yourself") : _("Choose your player name");
  $("#profile-cancel").textContent = me ? _("Cancel") : _("Not now");
  const show = me
    ? [withName(_("Playing as {name}"), me.name), el("button", { type: "button", class: "small", id: "profile-rename", text: _("Rename"), onclick: openProfileForm })]
    : [el("span", { text: _("Playing as a guest: your games count for no ranking.") }), el("button", { type: "button", class: "small", id: "profile-create", text: _("Choose a name"), onclick: openProfileForm })];
  $("#profile-show").replaceChildren(...show);
  const chip = $("#profile-chip");
  chip.hidden = !me;
  chip.textContent = me ? me.name : "";
  chip.setAttribute("aria-label", me ? _("Your player name: {name}. Rename", { name: me.name }) : "");
  $("#join-name-field").hidden = Boolean(me);
  $("#join-as").hidden = !me;
  if (me) $("#join-as").replaceChildren(withName(_("You join as {name}."), me.name));
}

function openProfileForm() {
  S.renaming = true;
  if (S.view !== "setup") {
    location.hash = "#/";
    showView("setup");
  }
  renderProfile();
  $("#profile-error").hidden = true;
  const input = $("#profile-input");
  input.value = profile()?.name ?? (store.get("name", "") || "");
  input.focus();
  input.select();
}

function closeProfileForm() {
  if (!profile()) store.set("profileLater", true);
  S.renaming = false;
  renderProfile();
}

// The seats the page names show the new name; the setup shows the profile's seat.
function profileChanged() {
  S.renaming = false;
  for (const seat of S.seats) if (seat.defaultName) seat.name = seat.defaultName();
  renderProfile();
  renderSetup();
}

async function saveProfile(event) {
  event.preventDefault();
  const name = $("#profile-input").value.trim();
  const me = profile();
  $("#profile-error").hidden = true;
  if (!name) {
    showMessage("#profile-error", _("Type a name first."));
    return;
  }
  try {
    if (me) {
      const renamed = await api("/api/profiles/me", { method: "PATCH", body: { name }, token: me.key });
      store.set("profile", { ...me, name: renamed.name });
    } else {
      const made = await api("/api/profiles", { method: "POST", body: { name } });
      store.set("profile", { id: made.profile.id, name: made.profile.name, key: made.key });
    }
    profileChanged();
  } catch (error) {
    profileRefused(error);
    showError("#profile-error", error); // a name taken (or a look-alike of one): the server says which
    $("#profile-input").select();
  }
}

// The server no longer knows this browser's profile (its database was reset): forget it, ask again.
function profileRefused(error) {
  if (!(error instanceof ApiError) || error.code !== "no-profile") return;
  store.set("profile", null);
  store.set("profileLater", false);
  profileChanged();
}

// At the start: is the profile still known, under which name (renamed in another tab)?
async function checkProfile() {
  const me = profile();
  if (!me) return;
  try {
    const known = await api("/api/profiles/me", { token: me.key });
    if (known.name !== me.name) {
      store.set("profile", { ...me, name: known.name });
      profileChanged();
    }
  } catch (error) {
    profileRefused(error); // offline: the profile is kept as it is
  }
}

// -- bests ---------------------------------------------------------------------------
function renderLocalBests() {
  const list = $("#local-bests");
  const bests = Object.values(store.get("bests", {})).sort((a, b) => a.tiles - b.tiles || a.score - b.score);
  list.replaceChildren();
  if (!bests.length) list.append(el("li", { class: "muted", text: _("No solo game finished yet.") }));
  for (const best of bests) {
    list.append(el("li", { class: "best", "data-tiles": String(best.tiles), text: bestLine(best) }));
  }
}

function bestLine(best) {
  const values = { rules: rulesSummary(best.rules), score: best.score, grade: best.grade };
  return ngettext("{n} tile ({rules}): {score} · grade {grade}", "{n} tiles ({rules}): {score} · grade {grade}", best.tiles, values);
}

// What the server says of the player's game against their best: the one rule of what counts (a hint
// makes the turn count as it stood; a practice game counts for nothing); the browser keeps its own
// list of bests by the same rule, from what the server counted.
function bestWords(room) {
  const result = room.results?.find((r) => r.player === room.seats[0].name);
  if (!result) return [];
  if (result.unranked) return [unrankedWords(result.unranked)];
  if (result.counted === null) return [];
  if (S.bestFor !== room.code) {
    S.bestFor = room.code;
    recordLocalBest(room, { score: result.counted, grade: result.grade });
  }
  const best = result.best_before === null ? result.counted : Math.min(result.counted, result.best_before);
  const words = [ngettext("Your best for {n} tile with these rules: {score}", "Your best for {n} tiles with these rules: {score}", room.rules.tiles, { score: best })];
  if (result.helped) words.push(" " + _("(a hint came: this game counts {score}, as it stood then)", { score: result.counted }));
  if (result.new_best) words.push(el("strong", { class: "new-best", text: " " + _("New best!") }));
  return words;
}

function unrankedWords(reason) {
  if (reason === "typed") return _("The dice were typed in, so this game counts for no best.");
  if (reason === "practice") return _("A practice game: its dice came from a chosen seed, so it counts for no best.");
  return _("The dice were not rolled under the fair scheme, so this game counts for no best.");
}

function recordLocalBest(room, turn) {
  const bests = store.get("bests", {});
  const old = bests[room.rules_key];
  const isNew = !old || turn.score < old.score;
  if (isNew) {
    bests[room.rules_key] = { tiles: room.rules.tiles, rules: room.rules, score: turn.score, grade: turn.grade, when: new Date().toISOString() };
    store.set("bests", bests);
  }
  return { best: bests[room.rules_key], isNew };
}

// -- the room --------------------------------------------------------------------------
function openRoom(code, { quiet = false } = {}) {
  if (S.code === code && S.socket) {
    showView("game");
    focusNext();
    return;
  }
  leaveRoom();
  const token = store.get("rooms", {})[code];
  if (!token) {
    showView("setup");
    renderSetup();
    $("#join-code").value = code;
    $("#join-name").focus();
    return;
  }
  S.code = code;
  S.token = token;
  S.room = null;
  S.lastSeq = -1;
  S.historySeen = 0;
  S.overSeen = false;
  S.hint = null;
  S.hintAsk = false;
  S.seen = new Map();
  S.spoken = { urgent: null, seat: null };
  S.noticeKey = null;
  S.rematchSeen = null;
  clearTimeout(S.handover?.timer);
  S.handover = null;
  S.pending = [];
  S.draining = false;
  S.holdUntil = 0;
  S.rolloff = [];
  S.finishing = false;
  S.selected.clear();
  $("#log").replaceChildren();
  for (const id of ["#hint", "#result", "#rematch", "#review", "#verify", "#notice", "#adjourned", "#my-clock"]) $(id).hidden = true;
  store.set("current", code);
  delete $("#box").dataset.phase; // nothing to act on before the room's first state
  delete $("#box").dataset.status;
  renderControls();
  if (!quiet) showView("game");
  S.socket = new RoomSocket(code, token, {
    state: (message) => receiveState(message.state),
    error: (message) => receiveError(message),
    hint: (message) => receiveHint(message.advice),
    online: (up) => {
      if (!up) toast(_("The server cannot be reached; trying again…"));
    },
  });
}

function leaveRoom() {
  if (S.socket) S.socket.close();
  S.socket = null;
  S.code = null;
  S.room = null;
  clearInterval(S.ticker);
  S.ticker = null;
}

function send(message) {
  if (!S.socket) return;
  S.busy = true;
  S.socket.send(message);
  renderControls();
}

function receiveError(message) {
  S.busy = false;
  S.autoRoll = false;
  if (S.hintPending) {
    S.hintPending = false;
    $("#hint").hidden = true;
  }
  toast(refusal(message.detail));
  if (message.error === "not-found") {
    const rooms = store.get("rooms", {});
    delete rooms[S.code];
    store.set("rooms", rooms);
    location.hash = "#/"; // the room is gone (the server restarted): back to the setup
    return;
  }
  renderControls();
}

function receiveHint(advice) {
  S.hint = advice;
  const room = S.room;
  if (room?.match && room.assisted && !room.assisted.includes(room.match.actor)) {
    room.assisted = [...room.assisted, room.match.actor]; // the server marked the asker as it answered
    renderPlayers(room);
  }
  renderHint();
}

function nameOf(room, seat) {
  return room.seats[seat]?.name ?? `#${seat}`;
}

// States are shown in order; while a turn's end is held on screen, the next ones wait for it.
function receiveState(room) {
  if (S.handover || S.draining || performance.now() < S.holdUntil) {
    S.pending.push(room);
    if (!S.handover && !S.draining) drain();
    return;
  }
  applyState(room);
}

// The states that waited, shown one by one: each roll of another player lands and is read first.
async function drain() {
  S.draining = true;
  while (S.pending.length && !S.handover) {
    const wait = S.holdUntil - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (S.handover) break;
    applyState(S.pending.shift());
  }
  S.draining = false;
}

function applyState(room) {
  const first = S.room === null;
  const previous = S.room;
  S.room = room;
  S.busy = false;
  S.stateAt = performance.now();
  for (const event of room.recent) S.seen.set(event.seq, event); // compared with the record by "Verify"
  if (!previous || previous.events !== room.events) {
    S.selected.clear();
    S.hint = null;
    S.hintPending = false;
    S.hintAsk = false;
  }
  narrate(room, first, previous);
  narrateNotices(room, first);
  narrateRematch(room, first);
  if (S.autoRoll) {
    S.autoRoll = false;
    if (room.match?.phase === "roll" && mine(room)) {
      send({ type: "roll" });
    }
  }
  renderGame();
  focusNext();
  tickWhileCounting(room);
  if (S.view !== "game") renderContinue();
  if (room.status === "over" && store.get("current", null) === room.code) store.set("current", null);
  if (room.rematch?.code && acceptedRematch(room)) switchToRematch(room);
}

// -- the end of a turn, held on screen ----------------------------------------------------------------
// The dice land, then the ending board and the score stay with a banner ("Ana: 14 — C") until the next
// player takes over: a tap or a key when the next player shares this device, a short pause otherwise.
function beginHandover(room, lines, { rolloff = false } = {}) {
  const match = room.match;
  const next = match.actor;
  const waitsForTap = room.you.length > 1 && room.you.includes(next) && !rolloff;
  const ended = rolloff ? null : match.history.at(-1);
  const player = ended ? ended.player : null;
  // Online, the next player's clock runs from now: when that is this page, it may act at once.
  const mineNext = !waitsForTap && mine(room) && room.you.length === 1;
  S.handover = { lines, player, mineNext, open: ended ? ended.open : match.board.open, waitsForTap, shown: false, timer: null };
  const landed = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : DICE_LANDING_MS;
  setTimeout(() => {
    if (!S.handover) return;
    S.handover.shown = true;
    speak(lines.join(" "));
    renderGame();
    focusNext();
    $("#handover").scrollIntoView({ block: "nearest" }); // above a phone's bottom bar, where Next is
    if (!waitsForTap) S.handover.timer = setTimeout(endHandover, HANDOVER_SECONDS * 1000);
  }, landed);
}

function endHandover() {
  if (!S.handover) return;
  clearTimeout(S.handover.timer);
  S.handover = null;
  renderGame();
  focusNext();
  if (S.pending.length && !S.draining) drain();
}

// The banner of a finished turn: the player's score and grade, the roll that failed, and in elimination
// the round and the running totals.
function handoverLines(room, turn) {
  const match = room.match;
  const name = nameOf(room, turn.player);
  const lines = [];
  if (turn.open.length === 0) lines.push(_("{name} shut the box!", { name }));
  else if (turn.score === null) lines.push(_("{name}: the turn is over, {tiles} open.", { name, tiles: turn.open.join(", ") }));
  else lines.push(`${name}: ${turn.score} — ${turn.grade}`);
  if (turn.last_roll && turn.open.length) {
    lines.push(_("Rolled {roll} = {total}: no open tiles make it.", { roll: turn.last_roll.join(" + "), total: sum(turn.last_roll) }));
  }
  if (room.rules.mode === "elimination") {
    const running = (seat) => match.totals[seat] + (match.round === turn.round ? sum(match.round_scores.filter((s) => s.player === seat).map((s) => s.score)) : 0);
    const totals = room.seats.map((seat) => {
      const total = `${nameOf(room, seat.index)} ${running(seat.index)}`;
      // Translators: a player's running total in elimination, once they reached the limit.
      return match.alive[seat.index] ? total : _("{total}, out", { total });
    }).join(" · ");
    lines.push(`${_("Round {round}", { round: turn.round })} · ${_("Totals: {totals}", { totals })}`);
  }
  const next = match.actor === null ? null : nameOf(room, match.actor);
  if (next) lines.push(_("Next: {name}.", { name: next }));
  return lines;
}

// Who rolled what to decide who starts (a tie rolls again: every die is listed), and who starts.
function rolloffLines(room) {
  const { contenders, faces } = room.match.rolloff;
  const dice = S.rolloff.length ? S.rolloff : contenders.map((seat, i) => ({ seat, face: faces[i] }));
  // Translators: one die of the roll-off, "Ana: 5".
  const rolled = dice.map(({ seat, face }) => _("{name}: {face}", { name: nameOf(room, seat), face })).join(" · ");
  S.rolloff = [];
  return [_("Roll-off: {rolled}.", { rolled }), _("{name} starts.", { name: nameOf(room, room.match.actor) })];
}

// -- focus: after every change, the keyboard is where the next action is -----------------------------
function nextControl(room) {
  const match = room.match;
  if (S.handover) return S.handover.shown ? (S.handover.mineNext ? $("#btn-roll") : $("#btn-next")) : null;
  if (room.status === "over") return [$("#btn-again"), $("#btn-review")].find((button) => button && !button.hidden) ?? null;
  if (!match || !mine(room) || room.status !== "playing") return $("#status");
  if (match.phase === "choose") return match.dice_options.includes(2) ? $("#btn-two") : $("#btn-one");
  if (match.is_chance) return $("#btn-roll");
  if (selectionIsLegal(room)) return $("#btn-shut");
  return $$("#tiles .tile").find((tile) => !tile.disabled) ?? null;
}

// Focus moves at a new moment of the game (an action, a turn's end), or when it was lost: never while
// the player is choosing tiles, and never away from a panel they opened (a hint, the log).
function focusNext() {
  const room = S.room;
  if (S.view !== "game" || !room) return;
  const key = `${room.events}:${S.handover ? (S.handover.shown ? "held" : "landing") : ""}:${room.status}`;
  const active = document.activeElement;
  const lost = !active || active === document.body || active === $("#main") || active.disabled || !active.isConnected || active.closest("[hidden]");
  const inGame = active && (active.closest("#controls") || active.closest("#tiles") || active.id === "status");
  if (!lost && !(inGame && key !== S.focusKey)) return;
  const target = nextControl(room);
  if (!target || target.hidden || target.disabled) return;
  S.focusKey = key;
  target.focus({ preventScroll: false });
}


// Announce what happened since the last state: rolls (and animate the dice), moves, turn ends.
function narrate(room, first, previous) {
  const match = room.match;
  const previousPhase = previous?.match?.phase ?? null;
  const previousActor = previous?.match?.actor ?? null;
  const fresh = room.recent.filter((event) => event.seq > S.lastSeq);
  if (first) {
    S.lastSeq = room.events - 1;
    S.historySeen = match ? match.history.length : 0;
    S.overSeen = room.status === "over";
    const lastRoll = [...room.recent].reverse().find((e) => e.kind === "roll");
    if (lastRoll) showDice(lastRoll.dice);
    if (room.status === "over") finish(room);
    return;
  }
  let lastRoll = null;
  for (const event of fresh) {
    const name = nameOf(room, event.player);
    // Translators: after an action a bot played for a player whose time ran out.
    const by = event.by === "clock" ? ` ${_("(played by a bot)")}` : "";
    if (event.kind === "roll") {
      lastRoll = event;
      if (previousPhase === "roll-off") S.rolloff.push({ seat: event.player, face: event.dice[0] });
      announce(_("{name}: roll {faces} = {total}.", { name, faces: event.dice.join(" + "), total: sum(event.dice) }) + by);
    } else if (event.kind === "move" && match) {
      const opened = room.rules.mode === "long" && event.tiles.every((tile) => match.board.open.includes(tile));
      const tiles = tilesText(event.tiles);
      announce((opened ? _("{name}: opened {tiles}.", { name, tiles }) : _("{name}: shut {tiles}.", { name, tiles })) + by);
    } else if (event.kind === "dice" && by) {
      announce(_("{name}: {dice}.", { name, dice: diceCount(event.count) }) + by);
    }
  }
  S.lastSeq = room.events - 1;
  if (lastRoll) {
    animateDice(lastRoll.dice);
    const landing = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : DICE_LANDING_MS;
    if (!room.you.includes(lastRoll.player)) S.holdUntil = performance.now() + landing + READING_MS;
  }
  if (match) {
    const ended = match.history.slice(S.historySeen);
    for (const turn of ended) {
      const name = nameOf(room, turn.player);
      if (turn.score === null) continue;
      announce(turn.open.length === 0 ? _("{name}: the box is shut!", { name }) : _("{name}: score {score}, grade {grade}.", { name, score: turn.score, grade: turn.grade }));
    }
    S.historySeen = match.history.length;
    const several = room.seats.length > 1;
    if (several && room.status === "playing" && ended.length) beginHandover(room, handoverLines(room, ended.at(-1)));
    else if (several && room.status === "playing" && previousPhase === "roll-off" && match.phase !== "roll-off") beginHandover(room, rolloffLines(room), { rolloff: true });
    else if (room.status === "playing" && match.actor !== previousActor && match.actor !== null) {
      speak(mine(room) ? _("Your turn, {name}.", { name: match.actor_name }) : _("{name}'s turn.", { name: match.actor_name }));
    }
  }
  if (room.status === "over" && !S.overSeen) {
    S.overSeen = true;
    announce(match.winner_name ? _("Winner: {name}", { name: match.winner_name }) : _("The game is drawn."));
    const landing = lastRoll && !window.matchMedia("(prefers-reduced-motion: reduce)").matches ? DICE_LANDING_MS : 0;
    S.finishing = true;
    setTimeout(() => {
      S.finishing = false;
      if (S.room?.code !== room.code) return;
      finish(room);
      renderGame();
      focusNext();
    }, landing);
  }
}

// -- dice ----------------------------------------------------------------------------------
function dieFace(face, extra = "") {
  const die = el("span", { class: `die ${extra}`, "data-face": String(face) });
  for (let i = 0; i < 9; i += 1) die.append(el("span", { class: "pip" }));
  return die;
}

function labelDice(faces) {
  const tray = $("#dice");
  tray.setAttribute("aria-label", faces.length ? _("Dice: {faces}", { faces: faces.join(" + ") }) : _("Dice not rolled yet"));
  tray.dataset.faces = faces.join(",");
}

function shownFaces() {
  return ($("#dice").dataset.faces || "").split(",").filter(Boolean).map(Number);
}

function showDice(faces) {
  $("#dice").replaceChildren(...faces.map((face) => dieFace(face)));
  labelDice(faces);
}

function animateDice(faces) {
  const tray = $("#dice");
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    showDice(faces);
    diceLanded(faces);
    return;
  }
  clearInterval(S.rolling);
  let step = 0;
  const spin = faces.map((face) => face);
  tray.classList.add("rolling");
  S.rolling = setInterval(() => {
    step += 1;
    for (let i = 0; i < spin.length; i += 1) spin[i] = (spin[i] % 6) + 1 + (i % 2); // a tumbling cycle, not chance
    for (let i = 0; i < spin.length; i += 1) if (spin[i] > 6) spin[i] -= 6;
    tray.replaceChildren(...spin.map((face) => dieFace(face, "tumble")));
    if (step >= 8) {
      clearInterval(S.rolling);
      S.rolling = null;
      tray.classList.remove("rolling");
      showDice(faces);
      diceLanded(faces);
      if (S.room) renderStatus(S.room); // the total, now that the dice show it
    }
  }, 70);
  labelDice(faces);
}

// -- rendering the game ------------------------------------------------------------------------
function mine(room) {
  const match = room.match;
  return Boolean(match && match.actor !== null && room.you.includes(match.actor) && !room.seats[match.actor]?.stand_in);
}

// A room played from more than one place: its seats may connect and leave.
function isOnline(room) {
  return room.seats.some((seat) => seat.kind === "remote");
}

// A seat whose player is away: a person's seat, taken, online, with no page connected to it.
function isAway(room, seat) {
  return isOnline(room) && seat.kind !== "bot" && seat.joined && !seat.connected && !seat.stand_in;
}

function renderGame() {
  const room = S.room;
  if (!room) return;
  const match = room.match;
  const remote = room.seats.some((seat) => seat.kind === "remote");
  const info = $("#room-info");
  info.replaceChildren(el("strong", { text: _("Room {code}", { code: room.code }) }));
  if (match && match.rounds > 1) info.append(" · ", _("Round {round} of {rounds}", { round: match.round, rounds: match.rounds }));
  if (match && match.tiebreak) info.append(" · ", _("tie-break"));
  if (match && room.rules.stake) info.append(" · ", _("Pot: {pot}", { pot: match.pot }));
  // Translators: a room's kind: its games count for the rankings, or not (practice).
  if (room.kind) info.append(" · ", room.ranked ? _("ranked") : _("unranked"));
  $("#rules-info").textContent = `${tilesCount(room.rules.tiles)} · ${optionLabel("mode", room.rules.mode)} · ${rulesSummary(room.rules)}`;
  labelDice(shownFaces());

  const waiting = $("#waiting");
  waiting.hidden = room.status !== "waiting" && !(remote && room.status === "playing" && room.events === 0);
  if (!waiting.hidden) renderWaiting(room);

  renderPractice(room);
  renderFairWarning(room);
  renderFairness(room);
  renderAdjourned(room);
  renderNotice(room);
  renderPlayers(room);
  renderTiles(room);
  renderStatus(room);
  renderControls();
  renderHint();
  $("#result").hidden = room.status !== "over" || Boolean(S.finishing);
  renderRematch(room);
  if (room.status !== "over") {
    $("#review").hidden = true;
    $("#verify").hidden = true;
  }
}

// A practice room tells every seat: its dice come from a seed chosen in advance, it ranks nobody.
function renderPractice(room) {
  const banner = $("#practice");
  banner.hidden = room.kind !== "practice";
  if (banner.hidden) return;
  const text = room.seed === null || room.seed === undefined
    ? _("Practice game: the dice come from a chosen seed. This game counts for no ranking.")
    : _("Practice game: the dice come from the chosen seed {seed}. This game counts for no ranking.", { seed: room.seed });
  banner.textContent = text;
}

// The room's commitment must stay the one this page got first (for the creator, before its client
// seed was sent): if the server shows another, its dice prove nothing, and the page says so.
function renderFairWarning(room) {
  const banner = $("#fair-warning");
  const first = room.fairness ? fairFacts(room.code).commitment : null;
  banner.hidden = !first || first === room.fairness.commitment;
  if (banner.hidden) return;
  const text = _("This page first got the commitment {first}, but the room shows {room}: these dice prove nothing, do not trust this game.");
  const parts = text.split(/(\{first\}|\{room\})/).map((part) =>
    part === "{first}" ? shortHex(first) : part === "{room}" ? shortHex(room.fairness.commitment) : part,
  );
  banner.replaceChildren(el("strong", { text: _("Warning: the server changed this room's commitment.") }), " ", ...parts);
}

// A hex digest cut short for reading; the whole of it on hover and when the details are open.
function shortHex(hex) {
  return el("code", { class: "hex", title: hex, text: `${hex.slice(0, 12)}…` });
}

// A client seed, marked when it is this browser's own.
function seedNode(seed, mine) {
  // Translators: after a client seed: the one this browser sent.
  const yours = seed === mine ? ` (${_("yours")})` : null;
  return el("span", {}, el("code", { class: "seed", text: seed }), yours);
}

function fact(term, ...details) {
  return [el("dt", { text: term }), el("dd", {}, ...details)];
}

// The fair dice of the room: the commitment from the start, the server seed once the game is over.
function renderFairness(room) {
  const box = $("#fairness");
  const fair = room.fairness;
  box.hidden = !fair;
  if (!fair) return;
  if (!fairFacts(room.code).commitment) rememberFair(room.code, { commitment: fair.commitment });
  const open = box.open;
  const mine = fairFacts(room.code).seed;
  const seeds = fair.client_seeds.length
    ? fair.client_seeds.map((seed) => seedNode(seed, mine))
    : [el("span", { class: "muted", text: _("none: the server's seed alone") })];
  const revealed = fair.server_seed
    ? el("code", { class: "hex full", id: "server-seed", text: fair.server_seed })
    : el("span", { class: "muted", text: _("kept secret until the game is over") });
  box.replaceChildren(
    // Translators: followed by the first digits of the commitment (a SHA-256 in hex).
    el("summary", {}, el("span", { text: _("Fair dice · commitment") }), " ", shortHex(fair.commitment), fair.server_seed ? el("span", { class: "revealed", text: ` · ${_("seed revealed")}` }) : null),
    el("dl", { class: "facts" },
      ...fact(_("Commitment (SHA-256 of the server seed)"), el("code", { class: "hex full", id: "commitment", text: fair.commitment })),
      ...fact(_("Client seeds"), ...seeds.flatMap((node) => [node, " "])),
      ...fact(_("Server seed"), revealed),
    ),
    el("p", { class: "muted", text: _("The server published this commitment before the first roll and reveals its seed when the game is over: every die can then be recomputed from the seed and the client seeds.") }),
  );
  box.open = open;
}

function renderWaiting(room) {
  const link = `${location.origin}/#/room/${room.code}`;
  const missing = room.seats.filter((seat) => !seat.joined).length;
  const box = $("#waiting");
  box.replaceChildren(
    el("p", { text: _("Share this link or the code {code}:", { code: room.code }) }),
    el("p", {}, el("a", { href: link, id: "share-link", text: link }), " ", el("button", { type: "button", class: "small", text: _("Copy link"), onclick: () => navigator.clipboard?.writeText(link).then(() => toast(_("Link copied."))) })),
    el("p", { class: "code", id: "room-code", text: room.code }),
  );
  if (missing) box.append(el("p", { class: "muted", text: waitingFor(missing) }));
}

function waitingFor(n) {
  return ngettext("Waiting for {n} more player to join…", "Waiting for {n} more players to join…", n);
}

// -- the turn clock and the players who leave ---------------------------------------------------
// The server runs the clock: each state says how many seconds were left when it was sent, and the
// page counts down from there with its own clock (never against the server's deadline).
function secondsLeft(remaining) {
  return Math.max(0, Math.ceil(remaining - (performance.now() - S.stateAt) / 1000));
}

function tickWhileCounting(room) {
  const counting = Boolean(room.clock || (room.rematch && !room.rematch.code));
  if (counting && !S.ticker) S.ticker = setInterval(tick, 250);
  if (!counting && S.ticker) {
    clearInterval(S.ticker);
    S.ticker = null;
  }
}

function tick() {
  if (!S.room) return;
  renderClock(S.room);
  updateRematchLeft(S.room);
}

// The countdown on the seat whose time runs, a discreet one for yourself, and for a screen reader
// a word when your turn's clock starts and when ten seconds are left (not one every second).
function renderClock(room) {
  const clock = room.status === "playing" ? room.clock : null;
  const left = clock ? secondsLeft(clock.remaining) : 0;
  const urgent = Boolean(clock) && left <= URGENT_SECONDS;
  for (const node of $$("#players .clock")) {
    node.textContent = `◷ ${_("{n} s", { n: left })}`;
    node.classList.toggle("urgent", urgent);
  }
  const yours = Boolean(clock) && room.you.includes(clock.seat) && !room.seats[clock.seat]?.stand_in;
  const mineNode = $("#my-clock");
  mineNode.hidden = !yours;
  if (yours) {
    mineNode.textContent = _("Your move: {n} s", { n: left });
    mineNode.classList.toggle("urgent", urgent);
  }
  speakClock(room, clock, yours, left);
}

function speakClock(room, clock, yours, left) {
  const spoken = S.spoken;
  if (!yours) {
    spoken.seat = clock ? clock.seat : null;
    return;
  }
  const say = (text) => {
    const region = $("#clock-live");
    region.textContent = "";
    setTimeout(() => (region.textContent = text), 30);
  };
  if (spoken.seat !== clock.seat) { // your turn's first clock: once per turn, not per action
    spoken.seat = clock.seat;
    const each = room.turn_seconds ?? Math.round(clock.remaining);
    say(ngettext("Your turn: {n} second for each action.", "Your turn: {n} seconds for each action.", each));
    if (left <= URGENT_SECONDS) spoken.urgent = clock.deadline; // said already
  }
  if (left > 0 && left <= URGENT_SECONDS && spoken.urgent !== clock.deadline) {
    spoken.urgent = clock.deadline;
    say(ngettext("{n} second left to play.", "{n} seconds left to play.", left));
  }
}

function noticeKey(notice) {
  return `${notice.kind}:${notice.seat}:${notice.event}`;
}

// A clock's outcome in words; for your own seat, said to you.
function noticeText(room, notice) {
  const name = notice.name ?? nameOf(room, notice.seat);
  const yours = room.you.includes(notice.seat);
  if (notice.kind === "missed") return yours ? _("You ran out of time: a bot played for you.") : _("{name} ran out of time: a bot played for them.", { name });
  if (notice.kind === "stand-in") return yours ? _("You left: a bot plays for you until the end of this game.") : _("{name} left: a bot plays for them from now on.", { name });
  if (notice.kind === "adjourned") return yours ? _("Game adjourned until you play again.") : _("Game adjourned until {name} comes back.", { name });
  if (notice.kind === "resumed") return yours ? _("You are back: the game goes on.") : _("{name} is back.", { name });
  return "";
}

// Say the notices that are new since the last state (none of those there were before the page came).
function narrateNotices(room, first) {
  const notices = room.notices ?? [];
  const keys = notices.map(noticeKey);
  const seen = keys.lastIndexOf(S.noticeKey);
  if (!first) for (const notice of notices.slice(seen + 1)) announce(noticeText(room, notice));
  if (keys.length) S.noticeKey = keys.at(-1);
}

// The newest notice, while it still holds: a seat's missed action until its player acts again,
// a stand-in for the rest of the game, a return for a couple of actions.
function currentNotice(room) {
  const notice = room.notices?.at(-1);
  if (!notice || room.status !== "playing" || room.adjourned) return null;
  const seat = room.seats[notice.seat];
  if (notice.kind === "missed") return seat?.missed > 0 || seat?.stand_in ? notice : null;
  if (notice.kind === "stand-in") return seat?.stand_in ? notice : null;
  if (notice.kind === "resumed") return room.events - notice.event <= 2 ? notice : null;
  return null;
}

function renderNotice(room) {
  const banner = $("#notice");
  const notice = currentNotice(room);
  banner.hidden = !notice;
  if (notice) {
    banner.dataset.kind = notice.kind;
    banner.textContent = noticeText(room, notice);
  }
}

// An adjourned game waits for one seat: its player resumes it by playing, the others are told.
function renderAdjourned(room) {
  const banner = $("#adjourned");
  const adjourned = room.status === "playing" ? room.adjourned : null;
  banner.hidden = !adjourned;
  if (!adjourned) return;
  banner.textContent = room.you.includes(adjourned.seat)
    ? _("Game adjourned until you play again: your next move resumes it.")
    : _("Game adjourned until {name} comes back.", { name: adjourned.name });
}

function renderPlayers(room) {
  const match = room.match;
  const list = $("#players");
  list.replaceChildren();
  for (const seat of room.seats) {
    const active = match && (S.handover?.player ?? match.actor) === seat.index;
    const scores = match ? match.history.filter((turn) => turn.player === seat.index && turn.round === match.round) : [];
    const last = scores.at(-1);
    const badges = [];
    if (room.you.includes(seat.index)) badges.push(_("you"));
    if (seat.kind === "bot") badges.push([_("bot"), botLabel(seat.bot)].join(" · "));
    if (seat.kind === "remote") badges.push([_("online"), seat.connected ? _("connected") : _("not connected")].join(" · "));
    else if (seat.kind === "here" && isAway(room, seat)) badges.push(_("not connected"));
    // Translators: a badge of a player who had help: the turn it came in counts as it stood then.
    if (room.ranked && room.stood_in?.includes(seat.index)) badges.push(_("a bot played for them: counts as it stood"));
    else if (room.ranked && room.assisted?.includes(seat.index)) badges.push(_("hint asked: counts as it stood"));
    // A human seat without a profile: its name is held by nobody, so it may be anyone's.
    const guest = seat.kind !== "bot" && seat.name !== null && seat.name !== undefined && seat.profile === null;
    const away = room.status === "playing" && isAway(room, seat);
    const classes = ["player", active && "active", away && "away", match && match.winner === seat.index && "won", match && !match.alive[seat.index] && "out"];
    const item = el(
      "li",
      { class: classes.filter(Boolean).join(" "), "data-seat": String(seat.index), "aria-current": active ? "true" : null },
      el("span", { class: "name", text: seat.name ?? "…" }),
      // Translators: a badge of a seat played without a player profile.
      guest ? el("span", { class: "guest", title: _("Played without a player profile: anyone may take this name, and this seat ranks nobody."), text: _("guest") }) : null,
      // Translators: a badge of a player who left: a bot plays their seat until the end of the game.
      seat.stand_in ? el("span", { class: "stand-in", title: _("This player left: a bot plays for them until the end of the game."), text: _("bot stands in") }) : null,
      badges.length ? el("span", { class: "badges", text: badges.join(" · ") }) : null,
      // Translators: a mark on the seat whose turn it is while its player is not connected.
      away && active ? el("span", { class: "away-mark", text: `⚠ ${_("away")}` }) : null,
      room.status === "playing" && room.clock?.seat === seat.index ? el("span", { class: "clock", "aria-hidden": "true" }) : null,
    );
    if (last && last.score !== null) item.append(el("span", { class: "score", text: `${last.score} (${last.grade})` }));
    if (match && room.rules.mode === "elimination") item.append(el("span", { class: "total", text: _("Total: {total}", { total: match.totals[seat.index] }) }));
    if (match && room.rules.stake) item.append(el("span", { class: "ledger", text: _("Ledger: {amount}", { amount: `${match.ledger[seat.index] > 0 ? "+" : ""}${match.ledger[seat.index]}` }) }));
    if (match && match.winner === seat.index && room.seats.length > 1) item.append(el("span", { class: "crown", "aria-hidden": "true", text: "♛" }));
    list.append(item);
  }
  renderClock(room);
}

function selectableTiles(room) {
  const match = room.match;
  if (!match || match.phase !== "move" || !mine(room) || S.busy || S.handover) return new Set();
  return new Set(match.legal_moves.flat());
}

function renderTiles(room) {
  const box = $("#tiles");
  const size = room.match ? room.match.board.size : room.rules.tiles;
  const open = new Set(S.handover ? S.handover.open : room.match ? room.match.board.open : Array.from({ length: size }, (_, i) => i + 1));
  if (box.children.length !== size) {
    box.replaceChildren();
    for (let n = 1; n <= size; n += 1) {
      box.append(el("button", { type: "button", class: "tile", "data-tile": String(n), onclick: () => toggleTile(n) }, el("span", { class: "num", text: String(n) })));
    }
  }
  box.dataset.n = String(size);
  box.dataset.legal = JSON.stringify(room.match ? room.match.legal_moves : []);
  const selectable = selectableTiles(room);
  const hinted = new Set(S.hint?.choices?.[0]?.shut ?? []);
  for (const button of box.children) {
    const n = Number(button.dataset.tile);
    const isOpen = open.has(n);
    const selected = S.selected.has(n);
    button.classList.toggle("shut", !isOpen);
    button.classList.toggle("selected", selected);
    button.classList.toggle("hinted", hinted.has(n));
    button.disabled = !selectable.has(n);
    button.setAttribute("aria-pressed", String(selected));
    button.setAttribute("aria-label", selected ? _("{n}, selected", { n }) : isOpen ? _("{n}, open", { n }) : _("{n}, shut", { n }));
  }
}

function currentTotal(room) {
  const roll = room.match?.roll;
  return roll ? sum(roll) : 0;
}

function selectionIsLegal(room) {
  const match = room.match;
  return Boolean(match && match.phase === "move" && match.legal_moves.some((move) => sameSet(move, S.selected)));
}

function renderStatus(room) {
  const match = room.match;
  const status = $("#status");
  const selection = $("#selection");
  const box = $("#box");
  box.dataset.phase = match ? match.phase : room.status;
  box.dataset.status = room.status;
  selection.textContent = "";
  if (!match) {
    status.textContent = waitingFor(room.seats.filter((seat) => !seat.joined).length);
    return;
  }
  if (room.status === "over" && (S.rolling || S.finishing)) {
    status.textContent = _("{name} rolls…", { name: match.history.at(-1) ? nameOf(room, match.history.at(-1).player) : "" });
    return;
  }
  if (room.status === "over") {
    const turn = match.history[0];
    if (room.rules.mode === "solo" && turn) status.textContent = [_("Score {score}", { score: turn.score }), _("Grade {grade}", { grade: turn.grade })].join(" · ");
    else status.textContent = match.winner_name ? _("Winner: {name}", { name: match.winner_name }) : _("The game is drawn.");
    return;
  }
  const handover = $("#handover");
  handover.hidden = !S.handover?.shown;
  if (S.handover) {
    status.hidden = S.handover.shown;
    handover.replaceChildren(...S.handover.lines.map((line, i) => el(i ? "p" : "strong", { text: line })));
    return;
  }
  status.hidden = false;
  const name = match.actor_name;
  const me = mine(room);
  const total = currentTotal(room);
  const seat = room.seats[match.actor];
  let text;
  if (!me && room.adjourned) text = _("The game waits for {name}…", { name: room.adjourned.name });
  else if (!me && seat?.stand_in) text = _("A bot plays for {name}…", { name });
  else if (!me && seat && isAway(room, seat)) {
    text = room.clock
      ? _("{name} is not connected: when their time runs out, a bot plays for them.", { name })
      : _("{name} is not connected: the game waits for them.", { name });
  } else if (!me) text = _("{name} is playing…", { name });
  else if (match.phase === "roll-off") text = _("{name}: roll one die to decide who starts.", { name });
  else if (match.phase === "choose") text = _("{name}: one die or two?", { name });
  else if (match.phase === "roll") text = match.dice_due === 1 ? _("{name}: roll one die.", { name }) : _("{name}: roll the dice.", { name });
  else if (S.rolling) text = _("{name} rolls…", { name }); // the total once the dice land
  else {
    const values = { name, roll: match.roll.join(" + "), total };
    text = match.opening
      ? _("{name}: {roll} = {total}. Pick shut tiles that make {total} to open them.", values)
      : _("{name}: {roll} = {total}. Pick open tiles that make {total}.", values);
  }
  if (me && room.you.length > 1 && room.seats.filter((s) => s.kind === "here").length > 1) text = _("{name}'s turn: pass the device.", { name }) + " " + text;
  if (match.extra_turns) text += " " + _("Extra turns: {n}", { n: match.extra_turns });
  status.textContent = text;
  if (me && match.phase === "move" && !S.rolling) {
    const values = { tiles: tilesText(S.selected), sum: sum([...S.selected]), total };
    if (S.selected.size === 0) selection.textContent = _("Selected: nothing");
    else if (selectionIsLegal(room)) selection.textContent = _("Selected: {tiles} = {sum}. Press Cerrar / Shut.", values);
    else selection.textContent = _("Selected: {tiles} = {sum} (need {total}).", values);
  }
}

function renderControls() {
  const room = S.room;
  const match = room?.match;
  const me = room ? mine(room) : false;
  const acting = !S.handover || (S.handover.shown && S.handover.mineNext);
  const phase = match && room.status === "playing" && acting ? match.phase : null;
  const show = (id, visible, enabled) => {
    const button = $(id);
    button.hidden = !visible;
    button.disabled = !enabled || S.busy;
  };
  show("#btn-roll", Boolean(phase && match.is_chance), me);
  show("#btn-one", phase === "choose", me && match.dice_options.includes(1));
  show("#btn-two", phase === "choose", me && match.dice_options.includes(2));
  show("#btn-shut", phase === "move", me && selectionIsLegal(room));
  show("#btn-clear", phase === "move", me && S.selected.size > 0);
  show("#btn-hint", Boolean(room?.hints && phase && match.is_decision), me);
  $("#btn-next").hidden = !S.handover?.shown;
  $("#btn-next").disabled = false;
  if (S.handover?.shown) {
    const next = match.actor === null ? null : nameOf(room, match.actor);
    $("#next-label").textContent = S.handover.waitsForTap && next ? _("Pass to {name}", { name: next }) : _("Continue");
  }
  $("#shut-label").textContent = match?.opening ? _("Abrir / Open") : _("Cerrar / Shut");
  if (room) renderTiles(room);
}

function toggleTile(n) {
  const room = S.room;
  if (!room || !selectableTiles(room).has(n)) return;
  if (S.selected.has(n)) S.selected.delete(n);
  else S.selected.add(n);
  renderStatus(room);
  renderControls();
  // A selection that makes the roll: the keyboard goes to Shut, so Enter puts the tiles down.
  const active = document.activeElement;
  if (selectionIsLegal(room) && (!active || active === document.body || active.closest("#tiles"))) $("#btn-shut").focus();
  sound.tile();
}

function roll() {
  const match = S.room?.match;
  if (!match || !mine(S.room) || S.busy) return;
  if (S.handover?.mineNext) endHandover(); // rolling takes over from the turn's end shown
  if (match.phase === "choose") chooseDice(Math.max(...match.dice_options));
  else if (match.is_chance) send({ type: "roll" });
}

function chooseDice(count) {
  const match = S.room?.match;
  if (!match || match.phase !== "choose" || !mine(S.room) || S.busy || !match.dice_options.includes(count)) return;
  if (S.handover?.mineNext) endHandover();
  S.autoRoll = true; // the roll follows once the server has taken the choice
  send({ type: "dice", count });
}

function shut() {
  const room = S.room;
  if (!room || !mine(room) || S.busy || !selectionIsLegal(room)) return;
  send({ type: "move", tiles: [...S.selected].sort((a, b) => a - b) });
  sound.tiles(S.selected.size);
}

function clearSelection() {
  S.selected.clear();
  if (S.room) {
    renderStatus(S.room);
    renderControls();
  }
}

// In a ranked game the first hint of a turn makes the turn count as it stands (the server says for
// how much: hint_cost): the player confirms first.
function needsHintConfirm(room) {
  return room.hint_cost !== null && room.hint_cost !== undefined;
}

function askHint() {
  const room = S.room;
  if (!room || !room.hints || !mine(room)) return;
  if (needsHintConfirm(room) && !S.hintAsk) {
    S.hintAsk = true;
    renderHint();
    $("#hint-confirm").focus();
    return;
  }
  S.hintAsk = false;
  $("#hint").hidden = false;
  $("#hint").replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  S.hintPending = true;
  S.socket.send({ type: "hint" });
}

// A number with `digits` decimals, written as the reader's language writes it (0,7 in Spanish).
function decimal(value, digits) {
  return value.toLocaleString(htmlLang(lang()), { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// A value of the solver's objective in the player's terms, its unit named: points of expected score,
// or the percentage chance of what the objective wants. `what`: {objective, target, opening}.
function formatValue(what, value) {
  const pct = decimal(100 * value, 1);
  const target = what.target;
  switch (what.objective) {
    case "score": return _("{points} points of expected score", { points: decimal(value, 2) });
    case "shut": return what.opening ? _("{pct}% chance to clear your tiles this turn", { pct }) : _("{pct}% chance to shut the box", { pct });
    case "beat": return _("{pct}% chance to score under {target}", { pct, target });
    case "tie-or-beat": return _("{pct}% chance to score {target} or less", { pct, target });
    case "long": return _("{pct}% chance of winning the game", { pct });
    case "win": return _("{pct}% chance of winning the round", { pct });
    case "stake": return _("{stakes} stakes expected", { stakes: (value > 0 ? "+" : "") + decimal(value, 3) });
    default: return decimal(value, 3);
  }
}

// What a choice gives up against the best one: points of expected score, or percentage points of a
// chance (45% where 50% was possible loses 5 percentage points).
function formatLoss(objective, loss) {
  if (objective === "score") return _("{points} points lost", { points: decimal(loss, 2) });
  if (objective === "stake") return _("{stakes} stakes lost", { stakes: decimal(loss, 3) });
  return _("{pct} percentage points lost", { pct: decimal(100 * loss, 1) });
}

// Where the player stands in the round the hint plays: the seat, and the score to beat.
function seatText(seat) {
  const place = _("Seat {seat} of {players}", { seat: seat.seat + 1, players: seat.players });
  if (seat.best === null) return _("{place}: nobody has played yet.", { place });
  return ngettext(
    "{place}: the best score so far is {best}.",
    "{place}: the best score so far is {best}, posted by {n} players.",
    seat.ties, { place, best: seat.best },
  );
}

function renderHintConfirm(box) {
  box.hidden = false;
  box.replaceChildren(
    el("p", { id: "hint-warning", text: _("A hint now makes this turn count {score} in the rankings, as it stands. Ask anyway?", { score: S.room?.hint_cost ?? "" }) }),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "hint-confirm", class: "primary", text: _("Ask for a hint"), onclick: askHint }),
      el("button", { type: "button", id: "hint-cancel", text: _("Cancel"), onclick: () => { S.hintAsk = false; renderHint(); } }),
    ),
  );
}

function renderHint() {
  const box = $("#hint");
  const advice = S.hint;
  if (S.hintAsk && !advice && !S.hintPending) {
    renderHintConfirm(box);
    return;
  }
  if (!advice) {
    if (!S.hintPending) box.hidden = true;
    return;
  }
  S.hintPending = false;
  box.hidden = false;
  const target = advice.target;
  const opening = Boolean(S.room?.match?.opening);
  const what = { objective: advice.objective, target, opening };
  const objective = {
    score: _("expected score (lower is better)"),
    shut: opening ? _("chance to clear your tiles this turn") : _("chance to shut the box"),
    beat: _("chance to score under {target}", { target }),
    "tie-or-beat": _("chance to score {target} or less", { target }),
    long: _("chance to win"),
    win: _("chance to win the round"),
    stake: _("stakes you can expect from the round"),
  }[advice.objective] ?? advice.objective;
  const list = el("ol", { class: "choices" });
  for (const choice of advice.choices) {
    const label = choice.shut ? tilesText(choice.shut) : diceCount(choice.dice);
    const use = el("button", {
      type: "button",
      class: "small",
      text: _("Use"),
      "aria-label": _("Use {choice}", { choice: label }),
      onclick: () => {
        if (choice.shut) {
          S.selected = new Set(choice.shut);
          renderStatus(S.room);
          renderControls();
        } else chooseDice(choice.dice);
      },
    });
    const lost = choice.loss > 0 ? el("span", { class: "muted loss", text: ` (${formatLoss(advice.objective, choice.loss)})` }) : null;
    const text = el("span", {}, el("strong", { text: label }), " · ", el("span", { class: "value", text: formatValue(what, choice.value) }), lost);
    list.append(el("li", {}, el("div", { class: "choice" }, text, use)));
  }
  // Over the server's budget the choices are ranked by a cheaper objective: it says so, in words.
  const bounded = advice.bounded ? el("p", { class: "muted", id: "hint-bounded", text: advice.bounded.reason }) : null;
  const seat = advice.seat ? el("p", { class: "muted", id: "hint-seat", text: seatText(advice.seat) }) : null;
  box.replaceChildren(el("h3", { text: _("Hint: {objective}", { objective }) }), ...(seat ? [seat] : []), ...(bounded ? [bounded] : []), list);
  renderTiles(S.room);
}

// -- the end: score, grade, bests, review ------------------------------------------------------------
async function finish(room) {
  gameOver(room); // a shut box is celebrated, once
  const match = room.match;
  const box = $("#result");
  box.hidden = false;
  const parts = [el("h3", { text: _("Game over") })];
  const solo = room.rules.mode === "solo";
  if (solo) {
    const turn = match.history[0];
    parts.push(
      el("p", { class: "final" }, el("span", { class: `grade grade-${turn.grade}`, id: "final-grade", "aria-label": _("Grade {grade}", { grade: turn.grade }), text: turn.grade }), el("span", { class: "final-score", id: "final-score", text: _("Score {score}", { score: turn.score }) })),
    );
    if (room.you.includes(0)) parts.push(el("p", { id: "best-local" }, ...bestWords(room)));
    parts.push(el("p", { id: "best-server", class: "muted" }));
  } else {
    parts.push(el("p", { class: "winner", id: "winner", text: match.winner_name ? _("Winner: {name}", { name: match.winner_name }) : _("The game is drawn.") }));
    const turns = el("ul", { class: "turns" });
    for (const turn of match.history) {
      if (turn.score === null) continue;
      turns.append(el("li", { text: _("{name}: open {open} → {score}", { name: nameOf(room, turn.player), open: turn.open.length ? turn.open.join(", ") : _("box shut"), score: turn.score }) }));
    }
    parts.push(turns);
  }
  if (room.saved_game_id) parts.push(el("p", { class: "muted", text: _("Saved as game {id}.", { id: room.saved_game_id }) }));
  parts.push(
    el("div", { class: "actions" },
      el("button", { type: "button", id: "btn-review", onclick: showReview, text: _("Review the game") }),
      room.kind ? el("button", { type: "button", id: "btn-verify", onclick: showVerify, text: _("Verify this game") }) : null,
      shareButton(room),
      el("button", { type: "button", id: "btn-again", class: "primary", onclick: playAgain, text: _("Play again"), hidden: Boolean(room.rematch) || !room.you.length }),
      el("button", { type: "button", id: "btn-new", onclick: () => (location.hash = "#/"), text: _("New game") }),
    ),
  );
  box.replaceChildren(...parts);
  if (solo) {
    const name = room.seats[0].name;
    try {
      const data = await api(`/api/players/${encodeURIComponent(name)}/bests?tiles=${room.rules.tiles}`);
      const best = data.bests.find((entry) => entry.rules_key === room.rules_key);
      if (best) $("#best-server").textContent = _("Best of {name} on this server: {score}", { name, score: best.score });
    } catch {
      /* the server best is a bonus; the local one is shown */
    }
  }
}

// -- the rematch: every seat of the finished room answers; those who accept play on together ------
// "Play again" offers it (or accepts the offer), with a fresh client seed for the new room's fair
// dice, committed to at the offer. The new room keeps each accepting seat's token, so the page just
// moves there, with its client seed and the commitment it saw first.
function playAgain() {
  S.focusRematch = true; // the button goes: the keyboard's place is the rematch's panel
  answerRematch(true);
}

function answerRematch(accept) {
  const room = S.room;
  if (!room || !room.you.length || room.status !== "over" || S.busy) return;
  const message = { type: "rematch", accept };
  if (accept) {
    const seed = clientSeed();
    // The rematch's dice were committed to as the game ended, before this seed was made.
    const committed = !room.rematch && room.rematch_commitment ? { rematchCommitment: room.rematch_commitment } : {};
    rememberFair(room.code, { rematchSeed: seed, ...committed });
    message.client_seed = seed;
  }
  send(message);
}

function acceptedRematch(room) {
  return room.you.some((seat) => room.rematch.answers[seat] === true);
}

function undecidedRematch(room) {
  return room.you.some((seat) => room.rematch.answers[seat] === null);
}

// The new room, with the token and the client seed this page played the old one with.
function switchToRematch(room) {
  const code = room.rematch.code;
  if (S.switched === code) return;
  S.switched = code;
  rememberRoom(code, S.token);
  const { rematchSeed: seed, rematchCommitment: commitment } = fairFacts(room.code);
  rememberFair(code, { ...(seed ? { seed } : {}), ...(commitment ? { commitment } : {}) });
  announce(_("A new game starts in room {code}.", { code }));
  goToRoom(code);
}

// A rematch offered by another seat is said once; the panel asks this page's seats to answer.
function narrateRematch(room, first) {
  const offer = room.status === "over" ? room.rematch : null;
  if (offer?.commitment && !fairFacts(room.code).rematchCommitment) rememberFair(room.code, { rematchCommitment: offer.commitment });
  const key = offer ? `${room.code}:${offer.offered_by}` : null;
  if (!offer || S.rematchSeen === key) return;
  S.rematchSeen = key;
  if (!first && !room.you.includes(offer.offered_by)) announce(_("{name} offers a rematch.", { name: nameOf(room, offer.offered_by) }));
}

function rematchClosed(room) {
  const offer = room.rematch;
  return offer.code !== null || offer.answers.every((answer) => answer !== null) || secondsLeft(offer.remaining) <= 0;
}

function answerText(answer) {
  if (answer === true) return `✓ ${_("plays again")}`;
  if (answer === false) return `✗ ${_("declined")}`;
  return `… ${_("deciding")}`;
}

function renderRematch(room) {
  const box = $("#rematch");
  const offer = room.status === "over" ? room.rematch : null;
  const again = $("#btn-again");
  if (again) again.hidden = Boolean(offer) || !room.you.length;
  box.hidden = !offer;
  if (!offer) return;
  const offerer = nameOf(room, offer.offered_by);
  const answers = el("ul", { class: "rematch-answers" }, ...room.seats.map((seat) =>
    el("li", { class: `answer-${String(offer.answers[seat.index])}`, "data-seat": String(seat.index) },
      el("span", { class: "name", text: seat.name ?? "…" }), " ", el("span", { class: "answer", text: answerText(offer.answers[seat.index]) })),
  ));
  const parts = [
    el("h3", { id: "rematch-title", text: _("Play again?") }),
    el("p", { text: room.you.includes(offer.offered_by) ? _("You offered a rematch: the same rules, with everyone who accepts.") : _("{name} offers a rematch: the same rules, with everyone who accepts.", { name: offerer }) }),
    answers,
  ];
  if (offer.commitment) parts.push(el("p", { class: "muted fair-line" }, el("span", { text: _("Fair dice · commitment") }), " ", shortHex(offer.commitment)));
  const closed = rematchClosed(room);
  if (!closed) parts.push(el("p", { id: "rematch-left", class: "muted" }));
  if (!closed && undecidedRematch(room)) {
    parts.push(el("div", { class: "actions" },
      el("button", { type: "button", id: "rematch-accept", class: "primary", text: _("Play again"), onclick: () => answerRematch(true), disabled: S.busy }),
      el("button", { type: "button", id: "rematch-decline", text: _("No thanks"), onclick: () => answerRematch(false), disabled: S.busy }),
    ));
  } else if (offer.code && acceptedRematch(room)) {
    parts.push(el("p", { id: "rematch-outcome", text: _("A new game starts in room {code}.", { code: offer.code }) }));
  } else if (offer.code) {
    parts.push(el("p", { id: "rematch-outcome", text: _("The others play again in room {code}.", { code: offer.code }) }));
  } else if (closed) {
    parts.push(el("p", { id: "rematch-outcome", text: _("No rematch this time.") }));
  } else if (acceptedRematch(room)) {
    parts.push(el("p", { id: "rematch-outcome", class: "muted", text: _("Waiting for the others to answer…") }));
  }
  const focused = document.activeElement?.id;
  box.replaceChildren(...parts);
  const kept = focused ? $(`#${focused}`) : null;
  if (kept && box.contains(kept) && !kept.disabled) kept.focus(); // kept across redraws
  else if (S.focusRematch) box.focus();
  S.focusRematch = false;
  updateRematchLeft(room);
}

function updateRematchLeft(room) {
  const node = $("#rematch-left");
  if (!node || !room.rematch) return;
  const left = secondsLeft(room.rematch.remaining);
  node.textContent = _("Time left to answer: {n} s", { n: left });
  node.classList.toggle("urgent", left <= URGENT_SECONDS);
}

function actionText(action) {
  if (!action) return "—";
  if (action.dice) return diceCount(action.dice);
  return tilesText(action.shut);
}

// The review names the unit of every number: a score objective's loss is in points of expected score,
// a chance's in percentage points; the column says which, each cell too when a game mixes them.
async function showReview() {
  const box = $("#review");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  try {
    const review = await api(`/api/rooms/${S.code}/review`, { token: S.token }); // a daily room's is its player's
    const parts = [el("h3", { text: _("Review") })];
    for (const [name, pct] of Object.entries(review.accuracy)) parts.push(el("p", { class: "accuracy", text: _("Accuracy of {name}: {pct}%", { name, pct }) }));
    if (!review.decisions.length) parts.push(el("p", { text: _("No decision had a real choice.") }));
    const points = review.decisions.some((d) => d.objective === "score");
    const stakes = review.decisions.some((d) => d.objective === "stake");
    const chances = review.decisions.some((d) => d.objective !== "score" && d.objective !== "stake");
    const notes = [_("Accuracy: the share of the best choice's value kept, on average over the decisions that had a choice.")];
    if (points) notes.push(_("Points lost: the points of expected final score a choice gives up against the best one (lower scores are better)."));
    if (chances) notes.push(_("Percentage points lost: the chance a choice gives up against the best one (45% where 50% was possible loses 5 percentage points)."));
    if (stakes) notes.push(_("Stakes lost: what a choice gives up against the best one in the round's expected winnings, in stakes."));
    if (review.decisions.length) parts.push(el("ul", { class: "muted review-notes" }, ...notes.map((text) => el("li", { text }))));
    const mixed = Number(points) + Number(stakes) + Number(chances) > 1;
    const lossColumn = mixed ? _("Loss") : points ? _("Points lost") : stakes ? _("Stakes lost") : _("Percentage points lost");
    // Translators: the column of the decision's number in the review.
    const columns = [_("#"), _("Player"), _("Open tiles"), _("Roll"), _("Chosen"), _("Best"), lossColumn, _("Verdict")];
    const lossText = (d) => {
      if (d.loss <= 0) return "0";
      if (mixed) return formatLoss(d.objective, d.loss);
      if (d.objective === "stake") return decimal(d.loss, 3);
      return d.objective === "score" ? decimal(d.loss, 2) : decimal(100 * d.loss, 1);
    };
    const table = el("table", { class: "review-table" });
    table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
    const body = el("tbody");
    review.decisions.forEach((d, i) => {
      const cells = [
        [String(i + 1), "col-number"],
        [d.player, "col-player"],
        [d.open.join(" ") || "—", "col-open"],
        [d.roll ? d.roll.join(" + ") : "—", "col-roll"],
        [actionText(d.chosen), "col-chosen"],
        [actionText(d.best), "col-best"],
        [lossText(d), "col-loss"],
        [optionLabel("verdict", d.verdict), "col-verdict verdict"],
      ];
      // data-label: a phone shows each row as a block, every cell headed by its column's name
      body.append(el("tr", { class: `verdict-${d.verdict}` },
        ...cells.map(([text, kind], k) => el("td", { class: kind, "data-label": columns[k], text }))));
    });
    table.append(body);
    parts.push(wide(table, _("Review")));
    box.replaceChildren(...parts);
    box.scrollIntoView({ block: "nearest" });
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: failure(error) }));
  }
}

// -- verifying the game: every die recomputed here, in the browser -----------------------------------
// Besides the record itself: the commitment must be the one this page saw before the first roll,
// and this browser's client seed must be among the seeds every die was drawn from.
function browserChecks(record) {
  const fair = record.fairness;
  if (!fair) return [];
  const known = fairFacts(S.code);
  const checks = [];
  if (known.commitment) {
    checks.push(known.commitment === fair.commitment
      ? { ok: true, text: _("The commitment is the one this page showed before the first roll.") }
      : { ok: false, text: _("The record's commitment is not the one this page showed before the first roll.") });
  }
  if (known.seed) {
    checks.push(fair.client_seeds.includes(known.seed)
      ? { ok: true, text: _("Your client seed {seed} is in every die.", { seed: known.seed }) }
      : { ok: false, text: _("Your client seed {seed} is missing from the record.", { seed: known.seed }) });
  }
  return checks;
}

// The events this page received while the game was played, against the record's.
function seenCheck(record) {
  if (!S.seen.size) return [];
  const differs = seenDiffers(record, S.seen);
  if (differs) return [{ ok: false, id: "verdict-seen", text: _("Event {index} of the record is not what this page saw during the game.", differs) }];
  return [{ ok: true, id: "verdict-seen", text: ngettext("The {n} event this page saw during the game is in the record as it was seen.", "The {n} events this page saw during the game are in the record as they were seen.", S.seen.size) }];
}

function verdictText(verdict) {
  if (!verdict.proven) return _(verdict.reason, verdict.values);
  return ngettext(
    "Every die comes from the revealed seed ({n} die recomputed); every move adds up to its roll on tiles of the board.",
    "Every die comes from the revealed seed ({n} dice recomputed); every move adds up to its roll on tiles of the board.",
    verdict.dice,
  );
}

// The record as a file, for `shutthebox verify` or anyone's own check.
function recordLink(record) {
  const href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(record, null, 1))}`;
  return el("a", { href, download: `shutthebox-${S.code}.json`, text: _("Download the record (JSON)") });
}

async function showVerify() {
  const box = $("#verify");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  let record;
  try {
    record = await api(`/api/rooms/${S.code}/record`);
  } catch (error) {
    box.replaceChildren(el("p", { class: "error", text: failure(error) }));
    return;
  }
  const title = el("h3", { text: _("Verify this game") });
  const download = el("p", {}, recordLink(record));
  if (!globalThis.crypto?.subtle) { // Web Crypto is only given to secure pages
    box.replaceChildren(title, el("p", { class: "error", text: _("This browser verifies on secure pages only (https, or this computer): download the record and check it with shutthebox verify.") }), download);
    return;
  }
  const verdict = await verifyRecord(record);
  const checks = [{ ok: verdict.proven, text: verdictText(verdict), id: "verdict-dice" }, ...browserChecks(record), ...seenCheck(record)];
  const proven = checks.every((check) => check.ok);
  box.dataset.proven = String(proven);
  box.dataset.event = verdict.event ?? "";
  box.replaceChildren(
    title,
    // Translators: the verdict of the page's check: the dice (not every rule of the game).
    el("p", { id: "verdict", class: `verdict ${proven ? "proven" : "failed"}`, text: proven ? `✓ ${_("Dice proven")}` : `✗ ${_("Dice not proven")}` }),
    el("ul", { class: "checks" }, ...checks.map((check) => el("li", { id: check.id, class: check.ok ? "proven" : "failed", text: `${check.ok ? "✓" : "✗"} ${check.text}` }))),
    el("p", { class: "muted", id: "verify-scope", text: _("This page recomputes every die with your browser's own cryptography and checks each move's sum and tiles; it does not replay the rules (whose turn it was, which tiles were open, the scores). shutthebox verify replays every rule.") }),
    download,
  );
  box.scrollIntoView({ block: "nearest" });
}

// -- the scores page -------------------------------------------------------------------------------------
async function renderScores() {
  for (const button of $$("#board-tiles button")) button.setAttribute("aria-pressed", String(Number(button.dataset.tiles) === S.boardTiles));
  const board = $("#leaderboard");
  const o = S.options;
  const query = new URLSearchParams({ preset: S.preset, tiles: String(S.boardTiles) });
  for (const key of ["one_die", "scoring"]) if (o[key]) query.set(key, o[key]);
  query.set("one_die_forced", String(Boolean(o.one_die_forced)));
  if (o.max_tiles) query.set("max_tiles", String(o.max_tiles));
  if (o.doubles_extra_turn !== null && o.doubles_extra_turn !== undefined) query.set("doubles_extra_turn", String(o.doubles_extra_turn));
  board.replaceChildren(el("p", { class: "muted", text: _("Loading…") }));
  try {
    const data = await api(`/api/leaderboard?${query}`);
    const title = ngettext("Leaderboard ({n} tile, the rules chosen in the setup)", "Leaderboard ({n} tiles, the rules chosen in the setup)", data.tiles);
    const parts = [el("h3", { text: title })];
    if (!data.entries.length) parts.push(el("p", { text: _("Nobody has finished a game with these rules yet.") }));
    else {
      const table = el("table", { class: "board-table" });
      const columns = [_("Rank"), _("Player"), _("Best"), _("Average"), _("Turns"), _("Boxes shut")];
      table.append(el("thead", {}, el("tr", {}, ...columns.map((text) => el("th", { scope: "col", text })))));
      const body = el("tbody");
      for (const e of data.entries) body.append(el("tr", {}, ...[e.rank, e.player, e.best, e.average, e.turns, e.shut_boxes].map((v) => el("td", { text: String(v) }))));
      table.append(body);
      parts.push(wide(table, title));
    }
    board.replaceChildren(...parts);
  } catch (error) {
    board.replaceChildren(el("p", { class: "error", text: failure(error) }));
  }
  const name = playerName();
  const mineBox = $("#server-bests");
  mineBox.replaceChildren();
  try {
    const data = await api(`/api/players/${encodeURIComponent(name)}/bests`);
    const list = el("ul", { class: "best-list" });
    for (const b of data.bests) list.append(el("li", { text: `${tilesCount(b.tiles)} · ${rulesSummary(keyOptions(b.rules_key))}: ${b.score} (${b.grade})` }));
    mineBox.replaceChildren(el("h3", { text: _("Bests of {name} on this server", { name }) }), data.bests.length ? list : el("p", { text: _("No game of {name} stored yet.", { name }) }));
  } catch {
    /* nothing to show */
  }
}

// -- keyboard -------------------------------------------------------------------------------------------------
function onKey(event) {
  if (S.view !== "game" || !S.room) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const key = event.key;
  const match = S.room.match;
  if (!match) return;
  if (S.handover?.mineNext && S.handover.shown && ["r", "R", "1", "2"].includes(key)) {
    if (key === "r" || key === "R") roll();
    else if (match.phase === "choose") chooseDice(Number(key));
    event.preventDefault();
    return;
  }
  if (S.handover) {
    if (S.handover.shown && [" ", "Enter", "r", "R", "Escape"].includes(key)) {
      if (target !== $("#btn-next")) endHandover(); // the button's own Enter or Space takes it on
      if (target !== $("#btn-next") || key !== "Enter" && key !== " ") event.preventDefault();
    }
    return;
  }
  if (/^[1-9]$/.test(key) || key in KEY_TILES) {
    if (match.phase === "choose" && (key === "1" || key === "2")) chooseDice(Number(key));
    else toggleTile(/^[1-9]$/.test(key) ? Number(key) : KEY_TILES[key]);
    event.preventDefault();
  } else if (key === "Enter") {
    if (target.tagName === "BUTTON") return; // the button's own action: a focused tile is picked
    shut();
    event.preventDefault();
  } else if (key === "r" || key === "R") {
    roll();
    event.preventDefault();
  } else if (key === "h" || key === "H") {
    askHint();
    event.preventDefault();
  } else if (key === "Escape" || key === "Backspace") {
    clearSelection();
    event.preventDefault();
  }
}

// -- language ---------------------------------------------------------------------------------------------------
// One button per language there is a catalog for, each named in itself.
function renderLanguages() {
  const buttons = languages().map(({ code, name }) =>
    el("button", { type: "button", class: "lang", "data-lang": code, lang: htmlLang(code), "aria-pressed": String(code === lang()), text: name, onclick: () => switchLang(code) }),
  );
  $("#langs").replaceChildren(...buttons);
}

async function switchLang(code) {
  if (await setLang(code) === code) saveLang(code);
  for (const button of $$(".lang")) button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  translatePage();
  for (const seat of S.seats) if (seat.defaultName) seat.name = seat.defaultName();
  renderProfile();
  renderSetup();
  if (S.view === "scores") renderScores();
  if (S.view === "stats") renderStats($("#view-stats"));
  if (S.view === "daily") showDaily();
  if (S.view === "train") showTrain();
  if (S.socket) S.socket.reopen(); // the server says its refusals in the language the socket connected with
  if (S.room) {
    renderGame();
    if (S.room.status === "over" && !$("#result").hidden) finish(S.room).then(() => ($("#review").hidden ? null : showReview()));
    if (!$("#verify").hidden) showVerify();
  }
}

// -- start ----------------------------------------------------------------------------------------------------------
async function main() {
  await loadLanguages();
  await setLang(detectLang());
  renderLanguages();
  translatePage();
  for (const button of $$("#who button")) button.addEventListener("click", () => chooseWho(button.dataset.who));
  for (const button of $$("[data-quick]")) button.addEventListener("click", () => startNew(() => quickSolo(Number(button.dataset.quick))));
  for (const button of $$("#board-tiles button")) {
    button.addEventListener("click", () => {
      S.boardTiles = Number(button.dataset.tiles);
      renderScores();
    });
  }
  $("#add-seat").addEventListener("click", () => {
    const n = S.seats.length + 1;
    S.seats.push(named({ kind: "here" }, () => _("Player {n}", { n })));
    fitModeToSeats();
    renderSetup();
    $(`#seat-name-${S.seats.length - 1}`)?.focus();
  });
  $("#setup").addEventListener("submit", submitSetup);
  $("#join").addEventListener("submit", joinRoom);
  $("#profile-form").addEventListener("submit", saveProfile);
  $("#profile-cancel").addEventListener("click", closeProfileForm);
  $("#profile-chip").addEventListener("click", openProfileForm);
  renderProfile();
  checkProfile();
  $("#btn-roll").addEventListener("click", roll);
  $("#btn-one").addEventListener("click", () => chooseDice(1));
  $("#btn-two").addEventListener("click", () => chooseDice(2));
  $("#btn-shut").addEventListener("click", shut);
  $("#btn-clear").addEventListener("click", clearSelection);
  $("#btn-hint").addEventListener("click", askHint);
  $("#btn-next").addEventListener("click", endHandover);
  $("#box").addEventListener("click", () => S.handover?.shown && endHandover()); // a tap on the board goes on
  $("#quick-friends").addEventListener("click", quickFriends);
  $("#quick-bots").addEventListener("click", () => startNew(() => quickWithOthers("bot")));
  $("#quick-online").addEventListener("click", () => startNew(() => quickWithOthers("remote")));
  $("#start-anyway").addEventListener("click", startAnyway);
  window.addEventListener("beforeunload", (event) => {
    if (gameInPlay()) event.preventDefault(); // the game waits on the server, but leaving is asked first
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  try {
    S.catalog = await api("/api/rules");
    restoreSetup();
  } catch (error) {
    showError("#setup-error", error); // offline: the rules page still reads
  }
  renderSetup();
  route();
  await resumeCurrent();
  document.body.dataset.ready = "true";
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
}

main();

