// The timeline under a fake clock: states in order, another's roll read before what follows, a
// turn's end held until its time is up or the next player takes over.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createTimeline } from "../../src/shutthebox/web/static/timeline.js";
import { fakeClock } from "./fake-clock.js";

function setUp() {
  const clock = fakeClock();
  /** @type {string[]} */
  const shown = [];
  /** @type {Record<string, (timeline: import("../../src/shutthebox/web/static/timeline.js").Timeline<string>) => void>} */
  const effects = {};
  const timeline = createTimeline((/** @type {string} */ item) => {
    shown.push(item);
    effects[item]?.(timeline);
  }, clock);
  return { clock, shown, effects, timeline };
}

test("a state is shown at once when nothing holds it back", () => {
  const { shown, timeline } = setUp();
  timeline.push("a");
  timeline.push("b");
  assert.deepEqual(shown, ["a", "b"]);
  assert.equal(timeline.phase(), "open");
});

test("after another player's roll, the next state waits for the dice to land and be read", () => {
  const { clock, shown, effects, timeline } = setUp();
  effects.roll = (t) => t.hold(1100);
  timeline.push("roll");
  timeline.push("move");
  assert.deepEqual(shown, ["roll"]);
  assert.equal(timeline.phase(), "holding");
  clock.advance(1099);
  assert.deepEqual(shown, ["roll"]);
  clock.advance(1);
  assert.deepEqual(shown, ["roll", "move"]);
  assert.equal(timeline.phase(), "open");
});

test("a state that comes after the hold is over is shown at once", () => {
  const { clock, shown, effects, timeline } = setUp();
  effects.roll = (t) => t.hold(1100);
  timeline.push("roll");
  clock.advance(2000);
  timeline.push("move");
  assert.deepEqual(shown, ["roll", "move"]);
});

test("each held state holds the ones after it in turn", () => {
  const { clock, shown, effects, timeline } = setUp();
  effects.r1 = (t) => t.hold(1000);
  effects.r2 = (t) => t.hold(1000);
  for (const item of ["r1", "r2", "end"]) timeline.push(item);
  clock.advance(1000);
  assert.deepEqual(shown, ["r1", "r2"]);
  clock.advance(999);
  assert.deepEqual(shown, ["r1", "r2"]);
  clock.advance(1);
  assert.deepEqual(shown, ["r1", "r2", "end"]);
});

test("a turn's end: the dice land, the banner shows, its time runs out, the next state follows", () => {
  const { clock, shown, effects, timeline } = setUp();
  /** @type {string[]} */
  const banner = [];
  effects.ended = (t) => t.banner({ landingMs: 600, heldMs: 3000, onShow: () => banner.push("show"), onEnd: () => banner.push("end") });
  timeline.push("ended");
  timeline.push("next");
  assert.equal(timeline.phase(), "landing");
  clock.advance(599);
  assert.deepEqual(banner, []);
  clock.advance(1);
  assert.deepEqual(banner, ["show"]);
  assert.equal(timeline.phase(), "banner");
  clock.advance(2999);
  assert.deepEqual(shown, ["ended"]);
  clock.advance(1);
  assert.deepEqual(banner, ["show", "end"]);
  assert.deepEqual(shown, ["ended", "next"]);
});

test("at one device the banner waits for a tap, however long", () => {
  const { clock, shown, effects, timeline } = setUp();
  let ended = 0;
  effects.ended = (t) => t.banner({ landingMs: 600, heldMs: null, onShow: () => {}, onEnd: () => (ended += 1) });
  timeline.push("ended");
  timeline.push("next");
  clock.advance(60_000);
  assert.deepEqual(shown, ["ended"]);
  assert.equal(timeline.waiting(), 1);
  timeline.release();
  assert.equal(ended, 1);
  assert.deepEqual(shown, ["ended", "next"]);
  timeline.release(); // nothing held any more: nothing happens
  assert.equal(ended, 1);
});

test("taking over early ends the banner, and its timer no longer fires", () => {
  const { clock, effects, timeline } = setUp();
  let ended = 0;
  effects.ended = (t) => t.banner({ landingMs: 600, heldMs: 3000, onShow: () => {}, onEnd: () => (ended += 1) });
  timeline.push("ended");
  clock.advance(700);
  timeline.release();
  clock.advance(10_000);
  assert.equal(ended, 1);
  assert.equal(clock.pending(), 0);
});

test("a roll that ends a turn: after an early take-over the next state still waits for the reading", () => {
  const { clock, shown, effects, timeline } = setUp();
  effects.ended = (t) => {
    t.hold(1100);
    t.banner({ landingMs: 600, heldMs: 3000, onShow: () => {}, onEnd: () => {} });
  };
  timeline.push("ended");
  timeline.push("next");
  clock.advance(700);
  timeline.release();
  assert.deepEqual(shown, ["ended"]);
  clock.advance(400);
  assert.deepEqual(shown, ["ended", "next"]);
});

test("a state shown after a banner may hold back the rest again", () => {
  const { clock, shown, effects, timeline } = setUp();
  effects.ended = (t) => t.banner({ landingMs: 0, heldMs: 3000, onShow: () => {}, onEnd: () => {} });
  effects.again = (t) => t.banner({ landingMs: 0, heldMs: 3000, onShow: () => {}, onEnd: () => {} });
  for (const item of ["ended", "again", "last"]) timeline.push(item);
  clock.advance(3000);
  assert.deepEqual(shown, ["ended", "again"]);
  clock.advance(3000);
  assert.deepEqual(shown, ["ended", "again", "last"]);
});

test("with no landing time the banner still shows on the next tick, not inside the state", () => {
  const { clock, effects, timeline } = setUp();
  let shownAt = null;
  effects.ended = (t) => t.banner({ landingMs: 0, heldMs: null, onShow: () => (shownAt = clock.now()), onEnd: () => {} });
  timeline.push("ended");
  assert.equal(shownAt, null);
  clock.advance(0);
  assert.equal(shownAt, 0);
});

test("a moment after the dice land holds nothing back", () => {
  const { clock, shown, timeline } = setUp();
  let finished = false;
  timeline.after(600, () => (finished = true));
  timeline.push("rematch offered");
  assert.deepEqual(shown, ["rematch offered"]);
  clock.advance(600);
  assert.equal(finished, true);
});

test("clear forgets what waits and every timer: another room starts afresh", () => {
  const { clock, shown, effects, timeline } = setUp();
  let events = 0;
  effects.ended = (t) => t.banner({ landingMs: 600, heldMs: 3000, onShow: () => (events += 1), onEnd: () => (events += 1) });
  timeline.push("ended");
  timeline.push("stale");
  timeline.after(600, () => (events += 1));
  timeline.clear();
  clock.advance(10_000);
  assert.equal(events, 0);
  assert.equal(clock.pending(), 0);
  timeline.push("fresh");
  assert.deepEqual(shown, ["ended", "fresh"]);
});
