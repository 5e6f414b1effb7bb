// The setup form's rules: the seats the page names, the ways to play that fit, the room asked for,
// and what the server would refuse, said before anything is sent.
import { test } from "node:test";
import assert from "node:assert/strict";

import { applyPreset, createBody, defaultSeats, fitModeToSeats, practiceSeed, renameAuto, restoreSetup, seatKindChanged, seatNamed, setupProblem, setupToSave } from "../../src/shutthebox/web/static/setup-model.js";
import { initialState } from "../../src/shutthebox/web/static/state.js";

const RULES = { tiles: 9, mode: "solo", one_die: "sum-le-6", one_die_forced: false, max_tiles: null, scoring: "sum", shut_wins: true, stake: 0, limit: 45, doubles_extra_turn: null };
/** @type {import("../../src/shutthebox/web/static/types.js").Catalog} */
const CATALOG = {
  defaults: RULES,
  presets: {
    web: RULES,
    classic: { ...RULES, one_die: "high-shut" },
    elimination: { ...RULES, mode: "elimination" },
    long: { ...RULES, mode: "long", doubles_extra_turn: true },
  },
  options: {
    tiles: { min: 1, max: 12 }, one_die: { values: ["high-shut", "sum-le-6"] }, scoring: { values: ["sum"] },
    mode: { values: ["solo", "round", "elimination", "long"] }, stake: { min: 0, max: 1000000 }, limit: { min: 1, max: 1000 },
  },
  players: { min: 1, max: 8 }, rounds: { min: 1, max: 20 }, strengths: {},
};

const form = (/** @type {import("../../src/shutthebox/web/static/state.js").Form["who"]} */ who = "solo") =>
  fitModeToSeats(applyPreset({ ...initialState().form, catalog: CATALOG, who, seats: defaultSeats(who, "Ana") }, "web"));

test("each way to play has its seats, named by the page until a name is typed", () => {
  assert.deepEqual(form("bots").seats.map((seat) => [seat.kind, seat.name]), [["here", "Ana"], ["bot", "Robot"]]);
  const named = seatNamed(form("table"), 1, "Eva");
  assert.deepEqual(renameAuto(named, "Ana María").seats.map((seat) => seat.name), ["Ana María", "Eva"]);
  assert.equal(seatKindChanged(form("table"), 1, "bot", "Ana").seats[1].name, "Robot 2");
});

test("two players play a round, not solo; the long game is only for two", () => {
  assert.equal(form("solo").options.mode, "solo");
  assert.equal(form("table").options.mode, "round");
  const long = applyPreset(form("table"), "long");
  assert.equal(long.options.mode, "long");
  assert.equal(long.options.doubles_extra_turn, null); // automatic: on in the long game
  const three = fitModeToSeats({ ...long, seats: [...long.seats, { kind: "here", name: "Eva" }] });
  assert.deepEqual([three.preset, three.options.mode], ["web", "round"]);
});

test("the room asked for: the profile's name on its seat, a practice seed as a number", () => {
  const body = createBody({ ...form("online"), seed: "42" }, "Ana P.");
  assert.deepEqual(body.seats, [{ kind: "here", name: "Ana P." }, { kind: "remote" }]);
  assert.equal(body.seed, 42);
  assert.equal(body.rules.max_tiles, null);
  assert.equal(practiceSeed("9223372036854775807"), 9223372036854775807n);
  assert.equal(practiceSeed("9223372036854775808"), undefined);
  assert.equal(practiceSeed(""), null);
});

test("what the server would refuse is said at its field", () => {
  assert.equal(setupProblem(form("table"), null), null);
  assert.deepEqual(setupProblem(seatNamed(form("table"), 1, " "), null), { field: "#seat-name-1", text: "Player 2 needs a name." });
  assert.equal(setupProblem(seatNamed(form("table"), 1, "ana"), null)?.text, "Two players are called ana: give each a name of their own.");
  assert.equal(setupProblem({ ...form("table"), rounds: 21 }, null)?.field, "#opt-rounds");
  assert.equal(setupProblem({ ...form(), options: { ...form().options, stake: -5 } }, null)?.text, "The stake is a whole number from 0 to 1000000.");
});

test("the setup remembered comes back, its page-given names in the language of the day", () => {
  const saved = setupToSave(applyPreset(seatNamed(form("table"), 1, "Eva"), "classic"));
  assert.deepEqual(saved.seats, [{ kind: "here", bot: undefined, name: null }, { kind: "here", bot: undefined, name: "Eva" }]);
  const restored = restoreSetup({ ...initialState().form, catalog: CATALOG }, JSON.parse(JSON.stringify(saved)), "Ana");
  assert.deepEqual(restored.seats.map((seat) => seat.name), ["Ana", "Eva"]);
  assert.deepEqual([restored.who, restored.preset, restored.options.one_die], ["table", "classic", "high-shut"]);
  assert.equal(restoreSetup({ ...initialState().form, catalog: CATALOG }, { preset: "gone", seats: [] }, "Ana").preset, "web");
});

test("one player plays one round: the rounds asked for apply to two players or more", () => {
  // Regression: a solo game of several rounds had its one player roll, alone, for the start of each.
  assert.equal(createBody({ ...form("solo"), rounds: 5 }, null).rounds, 1);
  assert.equal(setupProblem({ ...form("solo"), rounds: 21 }, null), null);
  assert.equal(createBody({ ...form("table"), rounds: 5 }, null).rounds, 5);
});
