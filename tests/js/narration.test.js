// The words said for each change of a room: pure functions of the states, read in English.
import { test } from "node:test";
import assert from "node:assert/strict";

import { handoverLines, newNotices, overStatus, rematchNews, rolloffLines, selectionText, tell, toldNothing, turnStatus } from "../../src/shutthebox/web/static/narration.js";
import { match, room } from "./rooms.js";

const said = (/** @type {import("../../src/shutthebox/web/static/narration.js").Story} */ story) => story.said.map((line) => line.text);

test("the first state tells nothing of what came before the page, and shows the last roll still", () => {
  const first = room({ events: 3, recent: [{ seq: 2, player: 0, kind: "roll", dice: [4, 2] }], match: match({ phase: "move", roll: [4, 2] }) });
  const story = tell(first, null, toldNothing());
  assert.deepEqual(story.said, []);
  assert.deepEqual(story.dice, { faces: [4, 2], animate: false, player: 0 });
  assert.equal(story.told.lastSeq, 2);
  assert.equal(story.result, null);
});

test("a finished room opened afresh shows its result at once", () => {
  const over = room({ status: "over", match: match({ phase: "over", actor: null, winner: 0, winner_name: "Ana" }) });
  assert.equal(tell(over, null, toldNothing()).result, "now");
});

test("a roll is said and logged, with its total, and its dice tumble", () => {
  const before = room();
  const after = room({ events: 1, recent: [{ seq: 0, player: 0, kind: "roll", dice: [6, 2] }], match: match({ phase: "move", roll: [6, 2] }) });
  const story = tell(after, before, { ...toldNothing(), lastSeq: -1 });
  assert.deepEqual(story.said, [{ text: "Ana: roll 6 + 2 = 8.", log: true }]);
  assert.deepEqual(story.dice, { faces: [6, 2], animate: true, player: 0 });
  assert.equal(story.told.lastSeq, 0);
});

test("an event told already is not told again", () => {
  const shown = room({ events: 1, recent: [{ seq: 0, player: 0, kind: "roll", dice: [6, 2] }] });
  const story = tell(shown, shown, { ...toldNothing(), lastSeq: 0 });
  assert.deepEqual(said(story), []);
  assert.equal(story.dice, null);
});

test("a move says the tiles shut, highest first; a bot's action for a player out of time says so", () => {
  const before = room({ match: match({ phase: "move" }) });
  const after = room({
    events: 2,
    recent: [{ seq: 1, player: 0, kind: "move", tiles: [2, 6], by: "clock" }],
    match: match({ board: { size: 9, open: [1, 3, 4, 5, 7, 8, 9] } }),
  });
  assert.deepEqual(said(tell(after, before, { ...toldNothing(), lastSeq: 0 })), ["Ana: shut 6 + 2. (played by a bot)"]);
});

test("in the long game, tiles put back are said opened", () => {
  const rules = { ...room().rules, mode: "long" };
  const after = room({ rules, events: 1, recent: [{ seq: 0, player: 1, kind: "move", tiles: [4] }], match: match({ board: { size: 9, open: [4] } }) });
  assert.deepEqual(said(tell(after, room({ rules }), toldNothing())), ["Luis: opened 4."]);
});

test("a turn's end is logged and held on screen with its banner; the next player's turn is not said over it", () => {
  const turn = { player: 0, round: 1, open: [1, 4, 9], score: 14, grade: "C", last_roll: [6, 6] };
  const before = room({ match: match({ phase: "move", roll: [3, 3] }) });
  const after = room({
    events: 5, recent: [{ seq: 4, player: 0, kind: "roll", dice: [6, 6] }],
    match: match({ actor: 1, actor_name: "Luis", history: [turn] }),
  });
  const story = tell(after, before, { ...toldNothing(), lastSeq: 3 });
  assert.deepEqual(said(story), ["Ana: roll 6 + 6 = 12.", "Ana: score 14, grade C."]);
  assert.deepEqual(story.banner, { lines: ["Ana: 14 — C", "Rolled 6 + 6 = 12: no open tiles make it.", "Next: Luis."], rolloff: false });
  assert.equal(story.told.historySeen, 1);
});

test("a shut box is said so in the banner", () => {
  const turn = { player: 1, round: 1, open: [], score: 0, grade: "S", last_roll: null };
  assert.deepEqual(handoverLines(room({ match: match({ history: [turn] }) }), turn), ["Luis shut the box!", "Next: Ana."]);
});

test("elimination's banner says the round and the running totals, and who is out", () => {
  const rules = { ...room().rules, mode: "elimination" };
  const turn = { player: 1, round: 2, open: [9], score: 9, grade: "B", last_roll: [5, 5] };
  const state = room({ rules, match: match({ round: 2, totals: [30, 40], alive: [true, false], round_scores: [{ player: 1, score: 9 }], actor: 0 }) });
  assert.deepEqual(handoverLines(state, turn), [
    "Luis: 9 — B", "Rolled 5 + 5 = 10: no open tiles make it.", "Round 2 · Totals: Ana 30 · Luis 49, out", "Next: Ana.",
  ]);
});

test("the roll-off's dice are gathered, then said with who starts", () => {
  const rolling = room({ match: match({ phase: "roll-off", actor: 0, rolloff: { contenders: [0, 1], faces: [] } }) });
  const first = room({ events: 1, recent: [{ seq: 0, player: 0, kind: "roll", dice: [3] }], match: match({ phase: "roll-off", actor: 1 }) });
  const gathered = tell(first, rolling, toldNothing());
  assert.deepEqual(gathered.told.rolloff, [{ seat: 0, face: 3 }]);
  assert.equal(gathered.banner, null);
  const decided = room({
    events: 2, recent: [{ seq: 1, player: 1, kind: "roll", dice: [5] }],
    match: match({ phase: "roll", actor: 1, actor_name: "Luis", rolloff: { contenders: [0, 1], faces: [3, 5] } }),
  });
  const story = tell(decided, first, gathered.told);
  assert.deepEqual(story.banner, { lines: ["Roll-off: Ana: 3 · Luis: 5.", "Luis starts."], rolloff: true });
  assert.deepEqual(story.told.rolloff, []);
});

test("without the dice seen, the roll-off's banner says the state's own", () => {
  const state = room({ match: match({ actor: 0, rolloff: { contenders: [0, 1], faces: [6, 2] } }) });
  assert.deepEqual(rolloffLines(state, []), ["Roll-off: Ana: 6 · Luis: 2.", "Ana starts."]);
});

test("a new player's turn is said to the screen reader, not logged", () => {
  const before = room({ match: match({ actor: 1, actor_name: "Luis" }) });
  const after = room({ match: match({ actor: 0, actor_name: "Ana" }) });
  assert.deepEqual(tell(after, before, toldNothing()).said, [{ text: "Your turn, Ana.", log: false }]);
  const solo = room({ seats: [room().seats[0]], match: match({ actor: 0 }) });
  assert.deepEqual(tell(solo, room({ seats: solo.seats, match: match({ actor: null }) }), toldNothing()).said, [{ text: "Your turn, Ana.", log: false }]);
});

test("the game's end names the winner once; its result waits for the dice", () => {
  const before = room();
  const over = room({ status: "over", match: match({ phase: "over", actor: null, winner: 1, winner_name: "Luis" }) });
  const story = tell(over, before, toldNothing());
  assert.deepEqual(said(story), ["Luis wins."]);
  assert.equal(story.result, "after-dice");
  assert.equal(tell(over, over, story.told).result, null);
});

test("the clock's notices are said once each, yours to you", () => {
  const notices = [
    { kind: /** @type {const} */ ("missed"), seat: 1, name: "Luis", event: 4 },
    { kind: /** @type {const} */ ("missed"), seat: 0, name: "Ana", event: 6 },
  ];
  const state = room({ notices });
  assert.deepEqual(newNotices(state, null, true), { said: [], noticeKey: "missed:0:6" });
  assert.deepEqual(newNotices(state, "missed:1:4", false).said, [{ text: "You ran out of time: a bot played for you.", log: true }]);
  assert.deepEqual(newNotices(state, null, false).said.map((line) => line.text), [
    "Luis ran out of time: a bot played for them.", "You ran out of time: a bot played for you.",
  ]);
});

test("another seat's rematch offer is said once", () => {
  const offer = { offered_by: 1, answers: [null, true], remaining: 30, code: null, commitment: "ab" };
  const over = room({ status: "over", rematch: offer });
  const news = rematchNews(over, null, false);
  assert.deepEqual(news, { said: [{ text: "Luis offers a rematch.", log: true }], rematchSeen: "ABCDE:1" });
  assert.deepEqual(rematchNews(over, news.rematchSeen, false).said, []);
  assert.deepEqual(rematchNews(room({ status: "over", rematch: { ...offer, offered_by: 0 } }), null, false).said, []);
});

test("the status line says what the player may do, and the total only once the dice land", () => {
  const moving = room({ match: match({ phase: "move", roll: [5, 3] }) });
  assert.equal(turnStatus(moving, false), "Ana: 5 + 3 = 8. Pick open tiles that make 8.");
  assert.equal(turnStatus(moving, true), "Ana rolls…");
  assert.equal(turnStatus(room({ match: match({ phase: "roll", dice_due: 1 }) }), false), "Ana: roll one die.");
  assert.equal(turnStatus(room({ match: match({ actor: 1, actor_name: "Luis" }) }), false), "Luis is playing…");
});

test("the selection's line says whether the tiles make the roll", () => {
  const moving = room({ match: match({ phase: "move", roll: [5, 3], legal_moves: [[8], [3, 5], [1, 7]] }) });
  assert.equal(selectionText(moving, new Set()), "Selected: nothing");
  assert.equal(selectionText(moving, new Set([5])), "Selected: 5 = 5 (need 8).");
  assert.equal(selectionText(moving, new Set([3, 5])), "Selected: 5 + 3 = 8. Press Shut.");
});

test("a finished game's status says the roll that ended it, not only the score", () => {
  // Regression: a solo game went from "Ana rolls…" to "Score 20 · Grade C", the reason unsaid.
  /** @type {Rules} */
  const solo = { ...room().rules, mode: "solo" };
  const failed = { player: 0, round: 1, open: [5, 6, 9], score: 20, grade: "C", last_roll: [1, 3] };
  /** @typedef {import("../../src/shutthebox/web/static/types.js").Turn} Turn */
  /** @typedef {import("../../src/shutthebox/web/static/types.js").Room["rules"]} Rules */
  /** @typedef {Partial<import("../../src/shutthebox/web/static/types.js").Match>} Changes */
  const over = (/** @type {Turn} */ turn, /** @type {Rules} */ rules, /** @type {Changes} */ changes = {}) => room({ status: "over", rules, match: match({ phase: "over", actor: null, history: [turn], ...changes }) });
  assert.deepEqual(overStatus(over(failed, solo)), ["Rolled 1 + 3 = 4: no open tiles make it.", "Score 20 · Grade C"]);
  const shut = { ...failed, open: [], score: 0, grade: "A+", last_roll: [4, 5] };
  assert.deepEqual(overStatus(over(shut, solo)), ["Score 0 · Grade A+"]);
  const round = over({ ...failed, player: 1 }, room().rules, { winner: 0, winner_name: "Ana" });
  assert.deepEqual(overStatus(round), ["Luis rolled 1 + 3 = 4: no open tiles make it.", "Ana wins."]);
});

test("passing the device is said as a turn begins at a shared device, not at every roll of it", () => {
  // Regression: "Luis's turn: pass the device." came back before each of Luis's rolls.
  const seats = room().seats.map((seat) => ({ ...seat, kind: /** @type {const} */ ("here"), bot: null }));
  const luis = match({ actor: 1, actor_name: "Luis" });
  const begins = room({ seats, you: [0, 1], match: luis, recent: [{ seq: 3, player: 0, kind: "move", tiles: [9] }] });
  assert.equal(turnStatus(begins, false), "Luis's turn: pass the device. Luis: roll the dice.");
  const underWay = room({ seats, you: [0, 1], match: luis, recent: [{ seq: 5, player: 1, kind: "move", tiles: [8] }] });
  assert.equal(turnStatus(underWay, false), "Luis: roll the dice.");
  const first = room({ seats, you: [0, 1], match: match(), recent: [] });
  assert.equal(turnStatus(first, false), "Ana's turn: pass the device. Ana: roll the dice.");
});
