// @ts-check
// Messaging with one table (docs/PROTOCOL.md 2-4): the socket, the actions sent with the
// table's seq and fresh entropy for the dice (DICE.md), and which answer belongs to which
// request. What the page shows is table.js's business.

import { confirmSent, dropSent, keepCommitment, keepSent } from "./fairdice.js";
import { FEATURES, wholeState } from "./state-deltas.js";
import { Live } from "./socket.js";
import { randomHex } from "./util.js";

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./protocol.js").ActionType} ActionType */

/** The actions that throw or answer the dice, and so carry entropy (DICE.md). */
const GAME_ACTIONS = new Set([
  "join", "roll", "double", "take", "drop", "beaver", "play", "choose_double", "resign",
  "accept_resignation", "reject_resignation", "forfeit",
]);

/**
 * What was sent and is waiting for its answer: its entropy counts for the dice check once
 * acknowledged.
 * @typedef {{type: string, hex: string | undefined, game: number | null, rollsBefore: number}} Request
 */

/**
 * The page's side of the connection.
 * @typedef {object} TableHandlers
 * @property {(state: State) => void} onState
 * @property {(message: ErrorMessage, request: Request | null) => void} onError
 * @property {(message: ServerMessage) => void} onMessage every other message (chat, hint, hello...)
 * @property {() => void} onOpen
 * @property {(code: number, reason: string) => void} onFatal
 */

/** @param {import("./protocol.js").GameEvent[] | undefined} log */
function rollsIn(log) {
  return (log || []).filter((e) => e.type === "opening" || e.type === "rolled").length;
}

export class TableConnection {
  /**
   * @param {number} id the table
   * @param {TableHandlers} handlers
   */
  constructor(id, handlers) {
    this.id = id;
    this.handlers = handlers;
    /** @type {State | null} */
    this.state = null;
    /** @type {Map<number, Request>} */
    this.requests = new Map();
    this.live = new Live(`/ws/tables/${id}`, {
      onMessage: (m) => this.receive(/** @type {ServerMessage} */ (m)),
      onOpen: () => {
        // Answers to what was sent before a drop will not come: the new state tells.
        this.requests.clear();
        // The states after this one's answer carry only what is new (the log, finished games).
        this.send({ type: "hello", features: FEATURES });
        handlers.onOpen();
      },
      onFatal: (code, reason) => handlers.onFatal(code, reason),
    });
  }

  close() {
    this.live.close();
  }

  /**
   * Send any message with a fresh id; the id, or null when not connected.
   * @param {Record<string, unknown>} message
   */
  send(message) {
    return this.live.sendNumbered(message);
  }

  /**
   * Send an action on the state the page shows: its seq, and fresh entropy with every game
   * action. The id, or null when not connected.
   * @param {ActionType} type
   * @param {Record<string, unknown>} [extra]
   */
  act(type, extra = {}) {
    const st = this.state;
    if (!st) return null;
    const g = st.game;
    /** @type {Record<string, unknown>} */
    const message = { type, seq: st.seq, ...extra };
    const hex = GAME_ACTIONS.has(type) ? randomHex(32) : undefined;
    if (hex) message.entropy = hex;
    const id = this.send(message);
    if (id === null) return null;
    const request = {
      type,
      hex,
      game: g && !g.result && type !== "join" ? g.number : null,
      rollsBefore: g ? rollsIn(g.log) : 0,
    };
    this.requests.set(id, request);
    if (request.hex && request.game) keepSent(this.id, request.game, request.hex, request.rollsBefore);
    return id;
  }

  /** @param {ServerMessage} m */
  receive(m) {
    switch (m.type) {
      case "state": {
        const whole = wholeState(this.state, m);
        if (!whole) {
          this.live.drop(); // parts missing here: a new connection starts with the whole state
          return;
        }
        this.state = m = whole;
        const g = m.game;
        if (g && !g.seed && !g.result) keepCommitment(this.id, g.number, g.commitment);
        this.handlers.onState(m);
        return;
      }
      case "ack": {
        const request = typeof m.id === "number" ? this.requests.get(m.id) : undefined;
        if (request) {
          this.requests.delete(/** @type {number} */ (m.id));
          if (request.hex && request.game && m.seq !== undefined) {
            confirmSent(this.id, request.game, request.hex, m.seq);
          }
        }
        this.handlers.onMessage(m);
        return;
      }
      case "error": {
        const request = typeof m.id === "number" ? this.requests.get(m.id) || null : null;
        if (request) {
          this.requests.delete(/** @type {number} */ (m.id));
          if (request.hex && request.game) dropSent(this.id, request.game, request.hex);
        }
        this.handlers.onError(m, request);
        return;
      }
      default:
        this.handlers.onMessage(m);
    }
  }
}
