// Talking to the server: JSON requests and the room WebSocket. The server decides everything,
// and says its refusals in the language the page asks for.

import { _, lang } from "./i18n.js";
import { guestKey } from "./guest.js";

export class ApiError extends Error {
  /** @param {number} status @param {string} code the server's name of the refusal @param {string} detail */
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

// JSON text of a value; a BigInt (a dice seed beyond 2^53) is written as its exact digits.
/** @param {unknown} value */
export function toJSON(value) {
  /** @type {bigint[]} */
  const big = [];
  const mark = `\u0000big${Math.random().toString(36).slice(2)}:`;
  const text = JSON.stringify(value, (key, v) => (typeof v === "bigint" ? `${mark}${big.push(v) - 1}` : v));
  if (!big.length) return text;
  const quoted = JSON.stringify(mark).slice(1, -1).replace(/[\\$^.*+?()[\]{}|]/g, "\\$&");
  return text.replace(new RegExp(`"${quoted}(\\d+)"`, "g"), (_found, /** @type {string} */ i) => String(big[Number(i)]));
}

// A JSON text read; a "seed" too large for a JavaScript number stays exact, as a BigInt (where the
// browser gives the reviver the number's source text).
/** @param {string} text @returns {any} */
export function fromJSON(text) {
  // @ts-expect-error the reviver's third argument (its source text) is newer than TypeScript's lib
  return JSON.parse(text, (/** @type {string} */ key, /** @type {unknown} */ value, /** @type {{ source?: string } | undefined} */ context) =>
    key === "seed" && typeof value === "number" && !Number.isSafeInteger(value) && context?.source ? BigInt(context.source) : value,
  );
}

/**
 * A JSON request to the server: its answer, or an ApiError with the server's refusal.
 * @param {string} path
 * @param {{ method?: string, body?: unknown, token?: string | null }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body, token } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    headers["X-Guest-Key"] = guestKey(); // whose games in play these are (a profile's key wins)
  } catch {
    /* no storage: the address counts */
  }
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : toJSON(body),
  });
  const data = await response.text().then(fromJSON).catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail || _("The server answered with an error ({status}).", { status: response.status });
    throw new ApiError(response.status, data.error || "http", detail);
  }
  return data;
}

const FINAL_CLOSES = new Set([4403, 4404, 4422]); // refusals that another try cannot mend

// One room's socket: pushes states, errors and hints to the handlers; reconnects while wanted.
// The server keeps the language a socket connected with: `reopen` after the page changes language.

/** @typedef {Record<string, ((message: any) => void) | undefined> & { online?: (up: boolean) => void }} Handlers */

export class RoomSocket {
  /** @param {string} code @param {string} token @param {Handlers} handlers */
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.wanted = true;
    this.delay = 500;
    /** @type {unknown[]} */
    this.queue = [];
    /** @type {number | undefined} the newest state's version: a socket opened again asks for nothing older */
    this.version = undefined;
    /** @type {WebSocket} */
    this.socket = this.connect();
  }

  open() {
    this.socket = this.connect();
  }

  /** @returns {WebSocket} */
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ lang: lang() });
    if (this.token) query.set("token", this.token);
    if (this.version) query.set("since", String(this.version)); // another process may serve us: nothing older
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${this.code}/ws?${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.handlers.online?.(true);
      for (const message of this.queue.splice(0)) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      const message = fromJSON(event.data);
      if (message.type === "state") {
        this.delay = 500; // really in: a refused socket is accepted first
        this.version = Math.max(this.version || 0, message.state.version || 0);
      }
      const handler = this.handlers[message.type];
      if (handler) handler(message);
    });
    socket.addEventListener("close", (event) => {
      // 4404 no such room, 4403 a foreign page, 4422 a malformed token: trying again cannot help.
      if (!this.wanted || socket !== this.socket || FINAL_CLOSES.has(event.code)) return;
      this.handlers.online?.(false);
      if (event.code === 4429) this.delay = Math.max(this.delay, 8000); // too many sockets: wait longer
      setTimeout(() => this.wanted && this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 30000);
    });
    return socket;
  }

  /** @param {unknown} message */
  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else this.queue.push(message);
  }

  reopen() {
    const old = this.socket;
    this.open();
    old.close();
  }

  close() {
    this.wanted = false;
    this.socket.close();
  }
}
