// @ts-check
// Where the checkers of a play go on the board as drawn: a play (the `moves` of a `moved`
// event, [from, to, hit] in the mover's numbering) turned into flights, one checker at a
// time, from the spot it is drawn at to the spot it lands on (geometry.js), a hit checker's
// flight to the bar after the hitter lands. Pure (no DOM): the animation
// (board-animator.js) plays the flights, the unit tests (tests/js/) check them.
//
// A position here is what a board draws, from the viewer's side: `mine` the viewer's
// checkers on their points (index 24 the bar), `theirs` the opponent's on the opponent's
// points; `off` and `waiting` are [viewer's, opponent's].

import { barSlot, slot, traySlot } from "./geometry.js";
import { applyMove } from "./moves.js";
import { BAR, OFF } from "./protocol.js";

/** @typedef {import("./geometry.js").XY} XY */
/** @typedef {import("./protocol.js").Move} Move */
/** @typedef {import("./protocol.js").GameEvent} GameEvent */
/** @typedef {import("./moves.js").Stones} Stones */

/** @typedef {{mine: number[], theirs: number[], off: number[], waiting: number[]}} Position */

/**
 * One checker in the air: the board drawn under it (`under`, without it), where it starts
 * and lands, what the board is once it has landed (`landed`), whose it is (0 the viewer's,
 * 1 the opponent's), and how long it takes against a whole step (a hit checker's trip to
 * the bar is quicker than the hitter's).
 * @typedef {object} Flight
 * @property {Position} under
 * @property {Position} landed
 * @property {0 | 1} side
 * @property {XY} from
 * @property {XY} to
 * @property {"move" | "off" | "hit"} kind
 * @property {number} weight
 * @property {number} done how many of the play's moves are made on the board under it
 */

/** A hit checker's flight to the bar, against the hitter's step. */
export const HIT_WEIGHT = 0.6;

/**
 * @param {Position} p
 * @returns {Position}
 */
export function copyPosition(p) {
  return { mine: p.mine.slice(), theirs: p.theirs.slice(), off: p.off.slice(), waiting: p.waiting.slice() };
}

/**
 * The mover's stones (moves.js) of a position: the viewer's or the opponent's.
 * @param {Position} p
 * @param {boolean} viewerMoves
 * @returns {Stones}
 */
function stonesOf(p, viewerMoves) {
  const me = viewerMoves ? 0 : 1;
  return {
    mine: (viewerMoves ? p.mine : p.theirs).slice(),
    theirs: (viewerMoves ? p.theirs : p.mine).slice(),
    off: p.off[me],
    waiting: p.waiting[me],
  };
}

/**
 * The position back from the mover's stones.
 * @param {Stones} st
 * @param {Position} was the position the stones were taken from (the other side's off
 *   and waiting, which a play does not change)
 * @param {boolean} viewerMoves
 * @returns {Position}
 */
function positionOf(st, was, viewerMoves) {
  const off = was.off.slice();
  const waiting = was.waiting.slice();
  const me = viewerMoves ? 0 : 1;
  off[me] = st.off;
  waiting[me] = st.waiting;
  return viewerMoves
    ? { mine: st.mine.slice(), theirs: st.theirs.slice(), off, waiting }
    : { mine: st.theirs.slice(), theirs: st.mine.slice(), off, waiting };
}

/**
 * A point of the mover's numbering in the viewer's.
 * @param {number} point 1-24
 * @param {boolean} viewerMoves
 */
function viewerPoint(point, viewerMoves) {
  return viewerMoves ? point : 25 - point;
}

/**
 * How many checkers a bar shows: those on it and those waiting to enter (acey-deucey).
 * @param {Stones} st
 */
function onBar(st) {
  return st.mine[24] + st.waiting;
}

/**
 * The flights of a play, and the position after it.
 * @param {Position} before the position drawn before the play
 * @param {boolean} viewerMoves whether the viewer's checkers move (else the opponent's)
 * @param {Move[]} moves
 * @returns {{flights: Flight[], after: Position}}
 */
export function flightsOf(before, viewerMoves, moves) {
  /** @type {Flight[]} */
  const flights = [];
  const side = viewerMoves ? 0 : 1;
  let position = copyPosition(before);
  for (const [done, [from, to]] of moves.entries()) {
    const st = stonesOf(position, viewerMoves);
    // Where the checker leaves: the top of its stack, or of the bar.
    let start;
    const lifted = { ...st, mine: st.mine.slice() };
    if (from === BAR) {
      const n = onBar(st);
      start = barSlot(viewerMoves, n - 1, n);
      if (lifted.mine[24] > 0) lifted.mine[24] -= 1;
      else lifted.waiting -= 1;
    } else {
      const n = st.mine[from - 1];
      start = slot(viewerPoint(from, viewerMoves), n - 1, n);
      lifted.mine[from - 1] -= 1;
    }
    const under = positionOf(lifted, position, viewerMoves);
    const { board: after, hit } = applyMove(st, from, to);
    const afterPosition = positionOf(after, position, viewerMoves);
    if (to === OFF) {
      flights.push({ under, landed: afterPosition, side, from: start, to: traySlot(viewerMoves, st.off),
                     kind: "off", weight: 1, done });
    } else if (hit) {
      // The hitter lands on the lone checker, which then flies to its bar.
      const vp = viewerPoint(to, viewerMoves);
      const landedStones = { ...after, theirs: after.theirs.slice() };
      landedStones.theirs[24] -= 1;
      const landed = positionOf(landedStones, position, viewerMoves);
      const spot = slot(vp, 0, 1);
      flights.push({ under, landed, side, from: start, to: spot, kind: "move", weight: 1, done });
      const waitingThere = position.waiting[viewerMoves ? 1 : 0];
      const k = st.theirs[24] + waitingThere;
      flights.push({ under: landed, landed: afterPosition, side: viewerMoves ? 1 : 0, from: spot,
                     to: barSlot(!viewerMoves, k, k + 1), kind: "hit", weight: HIT_WEIGHT, done: done + 1 });
    } else {
      const m = st.mine[to - 1];
      flights.push({ under, landed: afterPosition, side, from: start,
                     to: slot(viewerPoint(to, viewerMoves), m, m + 1), kind: "move", weight: 1, done });
    }
    position = afterPosition;
  }
  return { flights, after: position };
}

/**
 * The position before a play, from the position after it: each move taken back, the
 * last first, a hit checker back from the bar onto the point. (A checker that entered
 * is put back on the bar, which draws the same as waiting to enter.)
 * @param {Position} after
 * @param {boolean} viewerMoves
 * @param {Move[]} moves
 * @returns {Position}
 */
export function positionBefore(after, viewerMoves, moves) {
  const st = stonesOf(after, viewerMoves);
  for (const [from, to, hit] of [...moves].reverse()) {
    if (to === OFF) st.off -= 1;
    else {
      st.mine[to - 1] -= 1;
      if (hit) {
        st.theirs[24] -= 1;
        st.theirs[24 - to] += 1;
      }
    }
    if (from === BAR) st.mine[24] += 1;
    else st.mine[from - 1] += 1;
  }
  return positionOf(st, after, viewerMoves);
}

/**
 * The play that made the board of a game's log, or null: its last `moved` event that no
 * later `taken_back` undid.
 * @param {GameEvent[]} log
 * @returns {GameEvent | null}
 */
export function lastPlay(log) {
  /** @type {GameEvent[]} */
  const plays = [];
  for (const e of log) {
    if (e.type === "moved") plays.push(e);
    else if (e.type === "taken_back") plays.pop();
  }
  return plays.length ? plays[plays.length - 1] : null;
}

/**
 * The dice last thrown and played (or passed), which stay on the board until the next
 * roll: their side and values, or null (a roll since, or none yet).
 * @param {GameEvent[]} log
 * @returns {{side: number, values: number[]} | null}
 */
export function spentDice(log) {
  /** @type {{side: number, values: number[]} | null} */
  let spent = null;
  /** @type {number[]} */
  let thrown = [];
  for (const e of log) {
    if (e.type === "rolled" || e.type === "opening") {
      spent = null;
      thrown = e.dice || [];
    } else if (e.type === "moved" && e.side !== undefined) {
      spent = { side: e.side, values: e.dice || thrown };
    } else if (e.type === "passed" && e.side !== undefined) {
      spent = { side: e.side, values: thrown };
    } else if (e.type === "taken_back") {
      spent = null;
    }
  }
  return spent;
}
