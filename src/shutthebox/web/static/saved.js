// What this browser keeps (localStorage, keys "stb.…"): the profile, the rooms' seat tokens, the
// fair dice's facts of each room, the solo bests, the last setup, the room to resume.

import { _ } from "./i18n.js";
import { guestNumber } from "./guest.js";

/** @typedef {{ id: string, name: string, key: string }} Profile */

export const saved = {
  /**
   * @param {string} key
   * @param {any} fallback
   * @returns {any}
   */
  get(key, fallback) {
    try {
      const raw = localStorage.getItem(`stb.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  /** @param {string} key @param {unknown} value */
  set(key, value) {
    localStorage.setItem(`stb.${key}`, JSON.stringify(value));
  },
};

/**
 * The player's profile in this browser; its key is its secret, sent as a bearer.
 * @returns {Profile | null}
 */
export function profile() {
  return saved.get("profile", null);
}

export function playerName() {
  return profile()?.name || saved.get("name", "") || _("Player {number}", { number: guestNumber() });
}

/** A client seed for the fair dice: 16 random bytes, base64url without padding. */
export function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * What this browser knows of a room's fair dice: its own client seed and the commitment it saw first
 * (and, for its rematch, the seed sent with the answer and the commitment seen before it).
 * @typedef {{ seed?: string, commitment?: string, rematchSeed?: string, rematchCommitment?: string }} FairFacts
 */

/** @param {string} code @returns {FairFacts} */
export function fairFacts(code) {
  return saved.get("fair", {})[code] ?? {};
}

/** @param {string} code @param {FairFacts} facts */
export function rememberFair(code, facts) {
  const all = saved.get("fair", {});
  all[code] = { ...all[code], ...facts };
  const codes = Object.keys(all);
  for (const old of codes.slice(0, Math.max(0, codes.length - 30))) delete all[old];
  saved.set("fair", all);
}

/** The seat token of each room this browser plays (the last 30). @param {string} code @param {string} token */
export function rememberRoom(code, token) {
  const rooms = saved.get("rooms", {});
  rooms[code] = token;
  const codes = Object.keys(rooms);
  for (const old of codes.slice(0, Math.max(0, codes.length - 30))) delete rooms[old];
  saved.set("rooms", rooms);
}

/** @param {string} code @returns {string | undefined} */
export function roomToken(code) {
  return saved.get("rooms", {})[code];
}

/** @param {string} code */
export function forgetRoom(code) {
  const rooms = saved.get("rooms", {});
  delete rooms[code];
  saved.set("rooms", rooms);
}
