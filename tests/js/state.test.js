// The store and the page's pure updates: what a new state clears, the banner a turn's end holds,
// the question of a new game dropped with the game, and the store's listeners.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createStore } from "../../src/shutthebox/web/static/store.js";
import { handoverFor, initialState, roomOpened, settle, stateShown, tileToggled, withPresentation } from "../../src/shutthebox/web/static/state.js";
import { match, room } from "./rooms.js";

test("a store is replaced, not changed, and tells its listeners after each change", () => {
  const store = createStore({ n: 0 });
  /** @type {number[][]} */
  const heard = [];
  const stop = store.subscribe((state, previous) => heard.push([previous.n, state.n]));
  const first = store.get();
  store.update((state) => ({ n: state.n + 1 }));
  assert.equal(first.n, 0);
  store.update((state) => state); // no change: nobody is told
  stop();
  store.update((state) => ({ n: state.n + 1 }));
  assert.deepEqual(heard, [[0, 1]]);
  assert.equal(store.get().n, 2);
});

test("a new event clears the tiles picked and the hint; the same event keeps them", () => {
  let state = stateShown(initialState(), room({ events: 1 }), 0);
  state = tileToggled(tileToggled(state, 3), 5);
  state = withPresentation(state, { hintAsk: true });
  const same = stateShown(state, room({ events: 1, version: 2 }), 10);
  assert.deepEqual([...same.presentation.selected], [3, 5]);
  assert.equal(same.server.stateAt, 10);
  const next = stateShown(state, room({ events: 2, recent: [{ seq: 1, player: 0, kind: "roll", dice: [1, 1] }] }), 20);
  assert.deepEqual([...next.presentation.selected], []);
  assert.equal(next.presentation.hintAsk, false);
  assert.equal(next.server.seen.get(1)?.kind, "roll");
  assert.equal(state.server.seen.size, 0); // the older state is as it was
});

test("a room opened afresh has nothing shown or said", () => {
  const shown = stateShown(initialState(), room({ events: 4 }), 0);
  const opened = roomOpened(withPresentation(shown, { told: { ...shown.presentation.told, lastSeq: 3 } }), "FGHIJ", "t");
  assert.equal(opened.server.room, null);
  assert.equal(opened.presentation.told.lastSeq, -1);
  assert.deepEqual([opened.connection.code, opened.connection.token], ["FGHIJ", "t"]);
});

test("at one device the banner waits for the next player's tap; online this page may act at once", () => {
  const turn = { player: 0, round: 1, open: [2, 7], score: 9, grade: "B", last_roll: [4, 4] };
  const table = room({ you: [0, 1], seats: room().seats.map((seat) => ({ ...seat, kind: "here" })), match: match({ actor: 1, history: [turn] }) });
  assert.deepEqual(handoverFor(table, ["Ana: 9 — B"], false), { lines: ["Ana: 9 — B"], player: 0, mineNext: false, open: [2, 7], waitsForTap: true, shown: false });
  const online = room({ you: [1], match: match({ actor: 1, history: [turn] }) });
  assert.equal(handoverFor(online, [], false).mineNext, true);
  assert.equal(handoverFor(online, [], false).waitsForTap, false);
});

test("a new game asked for while one is in play is forgotten once the game is shown or over", () => {
  const start = () => {};
  let state = stateShown(roomOpened(initialState(), "ABCDE", "t"), room(), 0);
  state = settle(withPresentation(state, { view: "setup", starting: start }));
  assert.equal(state.presentation.starting, start);
  assert.equal(settle(withPresentation(state, { view: "game" })).presentation.starting, null);
  assert.equal(settle(stateShown(state, room({ status: "over" }), 1)).presentation.starting, null);
});
