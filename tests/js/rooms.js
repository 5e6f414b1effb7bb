// Room states as the server sends them (web/views.py), small and made to measure for the tests.

/** @typedef {import("../../src/shutthebox/web/static/types.js").Room} Room */
/** @typedef {import("../../src/shutthebox/web/static/types.js").Match} Match */

/**
 * A match of `tiles` tiles, Ana (seat 0) to roll; `changes` over it.
 * @param {Partial<Match>} [changes]
 * @returns {Match}
 */
export function match(changes = {}) {
  return {
    phase: "roll", actor: 0, actor_name: "Ana", board: { size: 9, open: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, opening: false,
    dice_options: [2], dice_due: 2, is_chance: true, is_decision: false, roll: null, legal_moves: [], extra_turns: 0,
    round: 1, rounds: 1, tiebreak: 0, totals: [0, 0], alive: [true, true], ledger: [0, 0], pot: 0, round_winners: [],
    rolloff: { contenders: [], faces: [] }, round_scores: [], history: [], winner: null, winner_name: null,
    ...changes,
  };
}

/**
 * A room of Ana and Luis, this page playing `you`; `changes` over it.
 * @param {Partial<Room>} [changes]
 * @returns {Room}
 */
export function room(changes = {}) {
  return {
    code: "ABCDE", version: 1, status: "playing",
    rules: { tiles: 9, mode: "round", one_die: "sum-le-6", one_die_forced: false, max_tiles: null, scoring: "sum", shut_wins: true, stake: 0, limit: 45, doubles_extra_turn: null },
    rules_key: "k", hints: true, private: false, watchers: 0, kind: "ranked", ranked: true, seed: null, fairness: null, assisted: [], hint_cost: null,
    seats: [
      { index: 0, kind: "here", name: "Ana", bot: null, profile: null, joined: true, connected: true, missed: 0, stand_in: false },
      { index: 1, kind: "bot", name: "Luis", bot: "greedy", profile: null, joined: true, connected: true, missed: 0, stand_in: false },
    ],
    you: [0], events: 0, recent: [], turn_seconds: null, clock: null, adjourned: null, notices: [], rematch: null,
    rematch_commitment: null, stood_in: [], saved_game_id: null, results: null, match: match(),
    ...changes,
  };
}
