// The end of a game with others, as pure functions of the room: the headline, each player's line,
// the turns grouped by round with the tie-breaks labelled and each round's winner.
import { test } from "node:test";
import assert from "node:assert/strict";

import { headline, roundsPlayed, standings, turnLine } from "../../src/shutthebox/web/static/standings.js";
import { match, room } from "./rooms.js";

/** @param {number} player @param {number} round @param {number[]} open @param {number} [tiebreak] */
const turn = (player, round, open, tiebreak = 0) => ({
  player, round, tiebreak, open, score: open.reduce((a, b) => a + b, 0), grade: "B", last_roll: null,
});

// Round 1: 10 each, a tie-break Luis wins 3 to 5; round 2: Ana shuts the box. One round each.
const history = [
  turn(0, 1, [1, 9]), turn(1, 1, [4, 6]), turn(0, 1, [5], 1), turn(1, 1, [3], 1), turn(0, 2, []), turn(1, 2, [7]),
];
const drawn = room({
  status: "over",
  rules: { ...room().rules, stake: 2 },
  match: match({ phase: "over", actor: null, rounds: 2, round: 2, history, round_winners: [1, 0], ledger: [2, -2], pot: 0 }),
});
const numbers = (/** @type {number} */ n) => String(n);

test("a game of rounds that ends one round each is a draw said with its rounds, not 'drawn' alone", () => {
  assert.equal(headline(drawn), "A draw: Ana and Luis won 1 round each.");
});

test("the turns are grouped by round, the tie-break labelled, each round with its winner", () => {
  const played = roundsPlayed(drawn);
  assert.deepEqual(played.map((group) => group.title), ["Round 1", "Round 1 · tie-break", "Round 2"]);
  assert.deepEqual(played.map((group) => group.winner), [null, "Luis", "Ana"]);
  assert.deepEqual(played[2].turns.map((t) => turnLine(t, numbers)), ["Ana shut the box → 0", "Luis: 7 open → 7"]);
});

test("each player's line has the rounds won and the money, the one who won money first", () => {
  const rows = standings(drawn);
  assert.deepEqual(rows.map((row) => [row.name, row.rounds, row.money, row.won]), [["Ana", 1, 2, false], ["Luis", 1, -2, false]]);
});

test("elimination's winner is crowned and never out; the others are out", () => {
  const elimination = room({
    status: "over",
    rules: { ...room().rules, mode: "elimination" },
    match: match({ phase: "over", actor: null, winner: 1, winner_name: "Luis", alive: [false, false], totals: [47, 30], history: [turn(0, 1, [9, 8]), turn(1, 1, [5])] }),
  });
  const rows = standings(elimination);
  assert.deepEqual(rows.map((row) => [row.name, row.won, row.out, row.total]), [["Luis", true, false, 30], ["Ana", false, true, 47]]);
  assert.equal(headline(elimination), "Luis wins.");
});

test("a seat that never played, its turn not come when a box was shut, is listed last and scoreless", () => {
  // Regression: it was listed with a score of 0, above a player who had played, as if it tied the winner.
  const seats = [...room().seats, { ...room().seats[1], index: 2, name: "Bea" }];
  const shut = room({
    status: "over", seats,
    match: match({ phase: "over", actor: null, winner: 2, winner_name: "Bea", history: [turn(0, 1, [2, 9]), turn(2, 1, [])] }),
  });
  assert.deepEqual(standings(shut).map((row) => [row.name, row.score]), [["Bea", 0], ["Ana", 11], ["Luis", null]]);
});
