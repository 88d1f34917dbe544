// @ts-check
// Replaying a game log (docs/PROTOCOL.md 3, EVENT) from the variant's starting board as
// the server gives it (`/api/info`, VARIANT.board): one frame per event. Pure: no DOM,
// unit-tested with `node --test` (tests/js/).
//
// Every move in the log carries its [from, to, hit] in the mover's numbering, so the
// replay only moves checkers; the cube follows the doubling events.

import { BAR, OFF } from "./protocol.js";

/** @typedef {import("./protocol.js").Board} Board */
/** @typedef {import("./protocol.js").GameEvent} GameEvent */
/** @typedef {import("./protocol.js").Side} Side */

/**
 * The cube while replaying: `offer` is the value offered while `offered`.
 * @typedef {{value: number, owner: Side | null, offered: boolean, offer?: number, beaver?: boolean}} ReplayCube
 */

/** Both sides' checkers, each side in its own numbering (R1). */
export class Replay {
  /**
   * @param {Board} start the starting board, from side `start.side`
   */
  constructor(start) {
    const first = start.side === 1 ? 1 : 0;
    /** @type {number[][]} each side's 25 counts (index 24: its bar) */
    this.points = first === 0 ? [start.mine.slice(), start.theirs.slice()] : [start.theirs.slice(), start.mine.slice()];
    /** @type {number[]} */
    this.off = first === 0 ? start.off.slice() : [start.off[1], start.off[0]];
    /** @type {number[]} */
    this.waiting = first === 0 ? start.waiting.slice() : [start.waiting[1], start.waiting[0]];
    /** @type {ReplayCube} */
    this.cube = { value: 1, owner: null, offered: false };
    /** @type {number[] | null} */
    this.dice = null;
    /** @type {Side | null} */
    this.roller = null;
  }

  /** @returns {Replay} */
  clone() {
    const copy = Object.create(Replay.prototype);
    copy.points = this.points.map((p) => p.slice());
    copy.off = this.off.slice();
    copy.waiting = this.waiting.slice();
    copy.cube = { ...this.cube };
    copy.dice = this.dice ? this.dice.slice() : null;
    copy.roller = this.roller;
    return copy;
  }

  /**
   * Apply one game-log event.
   * @param {GameEvent} event
   */
  apply(event) {
    switch (event.type) {
      case "opening": {
        const [a, b] = event.dice || [0, 0];
        if (a !== b) {
          this.roller = a > b ? 0 : 1;
          this.dice = a > b ? [a, b] : [b, a];
        } else {
          this.dice = null;
        }
        break;
      }
      case "rolled":
        this.roller = event.side ?? null;
        this.dice = (event.dice || []).slice();
        break;
      case "moved":
        for (const [from, to, hit] of event.moves || []) this.move(event.side ?? 0, from, to, hit);
        break;
      case "passed":
        this.dice = null;
        break;
      case "taken_back":
        // Practice against the bot: the play is undone; the dice stay (gammon.server.practice).
        for (const [from, to, hit] of (event.moves || []).slice().reverse()) this.unmove(event.side ?? 0, from, to, hit);
        break;
      case "doubled":
        this.cube = { ...this.cube, offered: true, offer: event.value, beaver: false };
        this.dice = null;
        break;
      case "beavered":
        // The double is taken at once and the beaver's maker offers twice that (R11).
        this.cube = { value: (event.value || 2) / 2, owner: event.side ?? null, offered: true,
                      offer: event.value, beaver: true };
        break;
      case "took":
        this.cube = {
          value: this.cube.offer || this.cube.value * 2,
          owner: this.cube.beaver ? this.cube.owner : event.side ?? null,
          offered: false,
        };
        break;
      case "dropped":
        this.cube = { ...this.cube, offered: false };
        break;
      default:
        break;
    }
  }

  /**
   * @param {Side} side
   * @param {number} from
   * @param {number} to
   * @param {boolean} hit
   */
  move(side, from, to, hit) {
    const mine = this.points[side];
    const theirs = this.points[1 - side];
    if (from === BAR) {
      if (mine[24] > 0) mine[24] -= 1;
      else this.waiting[side] -= 1;
    } else {
      mine[from - 1] -= 1;
    }
    if (to === OFF) {
      this.off[side] += 1;
    } else {
      mine[to - 1] += 1;
      if (hit) {
        theirs[24 - to] -= 1;
        theirs[24] += 1;
      }
    }
  }

  /**
   * Undo `move(side, from, to, hit)` (a play taken back).
   * @param {Side} side
   * @param {number} from
   * @param {number} to
   * @param {boolean} hit
   */
  unmove(side, from, to, hit) {
    const mine = this.points[side];
    const theirs = this.points[1 - side];
    if (to === OFF) {
      this.off[side] -= 1;
    } else {
      mine[to - 1] -= 1;
      if (hit) {
        theirs[24] -= 1;
        theirs[24 - to] += 1;
      }
    }
    if (from === BAR) mine[24] += 1;
    else mine[from - 1] += 1;
  }

  /**
   * The board as the protocol shows it, from `side`.
   * @param {Side} side
   * @returns {Board}
   */
  boardFor(side) {
    const other = side === 0 ? 1 : 0;
    const pips = (/** @type {Side} */ s) =>
      this.points[s].reduce((n, c, i) => n + c * (i + 1), 0) + this.waiting[s] * 25;
    return {
      side,
      mine: this.points[side].slice(),
      theirs: this.points[other].slice(),
      off: [this.off[side], this.off[other]],
      waiting: [this.waiting[side], this.waiting[other]],
      pips: [pips(side), pips(other)],
    };
  }
}

/**
 * Every position of a game, one frame per log event, the start first.
 * @param {Board} start the variant's starting board
 * @param {GameEvent[]} log
 * @returns {{replay: Replay, event: GameEvent | null}[]}
 */
export function replayFrames(start, log) {
  const frames = [];
  const current = new Replay(start);
  frames.push({ replay: current.clone(), event: null });
  for (const event of log) {
    current.apply(event);
    frames.push({ replay: current.clone(), event });
  }
  return frames;
}

/**
 * The frame a replay's step goes to from ``frame`` (of frames 0 to ``last``): "first",
 * "prev", "next" or "last"; null for any other step (a page's own, such as a mistake).
 * @param {number} frame
 * @param {number} last
 * @param {string} action
 * @returns {number | null}
 */
export function steppedFrame(frame, last, action) {
  if (action === "first") return 0;
  if (action === "prev") return Math.max(0, frame - 1);
  if (action === "next") return Math.min(last, frame + 1);
  if (action === "last") return last;
  return null;
}
