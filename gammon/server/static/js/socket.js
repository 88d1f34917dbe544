// @ts-check
// A WebSocket that reconnects by itself (docs/PROTOCOL.md 2: back off 0.5 s, 1 s, 2 s... 10 s).
// The server sends the whole state on every connect, so a reconnect resyncs with no more work.

import { N_, t } from "./i18n.js";

/** Why a connection closed for good, when the server gives no reason (translated where shown). */
const FATAL = new Map([
  [4401, N_("You were signed out.")],
  [4403, N_("An operator removed you from here.")],
  [4404, N_("There is no such table.")],
]);

/** @type {Set<Live>} */
const connections = new Set();
/** @type {(on: boolean) => void} */
let noticeHook = () => {};

/**
 * Called with true/false whenever some connection is (no longer) reconnecting.
 * @param {(on: boolean) => void} hook
 */
export function onReconnectingChange(hook) {
  noticeHook = hook;
}

function updateNotice() {
  noticeHook([...connections].some((c) => c.reconnecting));
}

/**
 * @typedef {object} LiveHandlers
 * @property {(message: any) => void} [onMessage] each message, parsed (the protocol's ServerMessage)
 * @property {() => void} [onOpen] on every (re)connect
 * @property {(code: number, reason: string) => void} [onFatal] closed for good (4401, 4403, 4404)
 */

export class Live {
  /**
   * @param {string} path
   * @param {LiveHandlers} [handlers]
   */
  constructor(path, { onMessage, onOpen, onFatal } = {}) {
    this.path = path;
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onFatal = onFatal || (() => {});
    this.attempt = 0;
    this.closed = false;
    this.reconnecting = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.lastHeard = Date.now();
    /** The id the next numbered message gets (docs/PROTOCOL.md 2: an answer names its id). */
    this.nextId = 1;
    connections.add(this);
    this.connect();
    this.keepAlive = setInterval(() => this.ping(), 25000);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.reconnecting = false;
      this.lastHeard = Date.now();
      updateNotice();
      this.onOpen();
    };
    ws.onmessage = (event) => {
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws || this.closed) return;
      if (FATAL.has(event.code)) {
        this.shutdown();
        const known = FATAL.get(event.code);
        this.onFatal(event.code, event.reason || (known ? t(known) : ""));
        return;
      }
      this.reconnecting = true;
      updateNotice();
      const delay = Math.min(10000, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Try again at once, not after the back-off (the browser says the network is back). */
  retryNow() {
    if (this.closed || !this.reconnecting) return;
    clearTimeout(this.timer);
    this.connect();
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Send one message; false when not connected.
   * @param {Record<string, unknown>} message
   */
  send(message) {
    if (!this.ws || !this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Send one message with a fresh id; the id, or null when not connected.
   * @param {Record<string, unknown>} message
   */
  sendNumbered(message) {
    const id = this.nextId++;
    return this.send({ ...message, id }) ? id : null;
  }

  ping() {
    if (!this.ws || !this.open) return;
    if (Date.now() - this.lastHeard > 70000) {
      this.ws.close(); // silent for too long: start over
      return;
    }
    this.send({ type: "ping" });
  }

  /** Close as if the network had dropped (the client reconnects): for tests and debugging. */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped by the client");
  }

  shutdown() {
    this.closed = true;
    this.reconnecting = false;
    clearTimeout(this.timer);
    clearInterval(this.keepAlive);
    connections.delete(this);
    updateNotice();
  }

  close() {
    this.shutdown();
    if (this.ws) this.ws.close(1000);
  }
}
