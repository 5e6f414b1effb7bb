// Talking to the server: JSON requests and the room WebSocket. The server decides everything,
// and says its refusals in the language the page asks for.

import { _, lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail || _("The server answered with an error ({status}).", { status: response.status });
    throw new ApiError(response.status, data.error || "http", detail);
  }
  return data;
}

// One room's socket: pushes states, errors and hints to the handlers; reconnects while wanted.
// The server keeps the language a socket connected with: `reopen` after the page changes language.
export class RoomSocket {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.wanted = true;
    this.delay = 500;
    this.queue = [];
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ lang: lang() });
    if (this.token) query.set("token", this.token);
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${this.code}/ws?${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.handlers.online?.(true);
      for (const message of this.queue.splice(0)) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      const handler = this.handlers[message.type];
      if (handler) handler(message);
    });
    socket.addEventListener("close", (event) => {
      if (!this.wanted || socket !== this.socket || event.code === 4404) return;
      this.handlers.online?.(false);
      setTimeout(() => this.wanted && this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

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
