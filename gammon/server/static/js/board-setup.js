// @ts-check
// Editing an analysis board's setup (docs/PROTOCOL.md 9.1, SETUP) by hand: adding,
// removing and moving checkers, the starting position, an empty board, the sides swapped.
// Pure: every function returns a new setup (or null when the edit cannot be made), so
// the page keeps a history and the node tests (tests/js/board-setup.test.mjs) need no DOM.
// The server reads every setup again and says what is wrong with one (a game over, a
// bad score): this module keeps only what a hand can do on a board, 15 checkers a side
// and one side a point.

/**
 * @typedef {object} Setup
 * @property {number[]} mine 25 counts from the player on roll's side (points 1-24, bar)
 * @property {number[]} theirs 25 counts from the opponent's own side
 * @property {number[] | null} dice
 * @property {{value: number, owner: "mine" | "theirs" | null}} cube
 * @property {{length: number, score: number[], crawford: boolean}} match
 */

/** A side of the board: the player on roll's or the opponent's. @typedef {"mine" | "theirs"} Side */

export const CHECKERS = 15;
export const BAR = 25;
export const OFF = 0;

/** @param {Setup} setup @returns {Setup} */
export function copy(setup) {
  return {
    mine: setup.mine.slice(),
    theirs: setup.theirs.slice(),
    dice: setup.dice ? setup.dice.slice() : null,
    cube: { ...setup.cube },
    match: { ...setup.match, score: setup.match.score.slice() },
  };
}

/** The starting position, money play, nothing rolled. @returns {Setup} */
export function startSetup() {
  const side = Array(25).fill(0);
  side[5] = 5;
  side[7] = 3;
  side[12] = 5;
  side[23] = 2;
  return { mine: side.slice(), theirs: side.slice(), dice: null, cube: { value: 1, owner: null },
           match: { length: 0, score: [0, 0], crawford: false } };
}

/** Every checker off the board: the page's blank slate (the server refuses it as it is). @returns {Setup} */
export function emptySetup() {
  return { ...startSetup(), mine: Array(25).fill(0), theirs: Array(25).fill(0) };
}

/** @param {Setup} setup @param {Side} side */
export function onBoard(setup, side) {
  return setup[side].reduce((a, b) => a + b, 0);
}

/**
 * Where a viewer's point (1-24 from the player on roll's side, 25 a bar) is in `side`'s
 * own counts.
 * @param {Side} side
 * @param {number} point
 */
export function indexOf(side, point) {
  if (point === BAR) return 24;
  return side === "mine" ? point - 1 : 24 - point;
}

/**
 * Whose checkers are on the viewer's `point` (a bar: the player on roll's first).
 * @param {Setup} setup
 * @param {number} point
 * @returns {Side | null}
 */
export function ownerAt(setup, point) {
  if (setup.mine[indexOf("mine", point)]) return "mine";
  if (setup.theirs[indexOf("theirs", point)]) return "theirs";
  return null;
}

/**
 * One more of `side`'s checkers on `point` (from those off the board). Null when the
 * side has all 15 on the board or the point is the other side's.
 * @param {Setup} setup
 * @param {number} point 1-24 or the bar
 * @param {Side} side
 * @returns {Setup | null}
 */
export function addChecker(setup, point, side) {
  if (point < 1 || point > BAR || onBoard(setup, side) >= CHECKERS) return null;
  const other = side === "mine" ? "theirs" : "mine";
  if (point !== BAR && setup[other][indexOf(other, point)]) return null;
  const next = copy(setup);
  next[side][indexOf(side, point)] += 1;
  return next;
}

/**
 * One checker fewer on `point` (it goes off the board): `side`'s, or whoever's is there.
 * @param {Setup} setup
 * @param {number} point
 * @param {Side} [side]
 * @returns {Setup | null}
 */
export function removeChecker(setup, point, side) {
  const whose = side || ownerAt(setup, point);
  if (!whose || point < 1 || point > BAR || !setup[whose][indexOf(whose, point)]) return null;
  const next = copy(setup);
  next[whose][indexOf(whose, point)] -= 1;
  return next;
}

/**
 * The top checker of `from` moved to `to` (0: off the board). Null when there is none
 * or `to` is the other side's point.
 * @param {Setup} setup
 * @param {number} from
 * @param {number} to
 * @returns {Setup | null}
 */
export function moveChecker(setup, from, to) {
  if (from === to) return null;
  const whose = ownerAt(setup, from);
  if (from === OFF) return addChecker(setup, to, "mine");
  if (!whose) return null;
  const lifted = removeChecker(setup, from, whose);
  if (!lifted || to === OFF) return lifted;
  return addChecker(lifted, to, whose);
}

/**
 * The same position with the other player on roll: the board seen from the other side,
 * the cube's owner and the score turned, no dice.
 * @param {Setup} setup
 * @returns {Setup}
 */
export function swapSides(setup) {
  const owner = setup.cube.owner === "mine" ? "theirs" : setup.cube.owner === "theirs" ? "mine" : null;
  return {
    mine: setup.theirs.slice(),
    theirs: setup.mine.slice(),
    dice: null,
    cube: { value: setup.cube.value, owner },
    match: { ...setup.match, score: [setup.match.score[1], setup.match.score[0]] },
  };
}

/**
 * The board's address for a setup's XGID (the shared link).
 * @param {string} xgid
 */
export function boardLink(xgid) {
  return `#/board?xgid=${encodeURIComponent(xgid)}`;
}

/**
 * The board's address for any position text (a Position ID with its Match ID: a review's
 * decision).
 * @param {string} text
 */
export function positionLink(text) {
  return `#/board?position=${encodeURIComponent(text)}`;
}

/**
 * The board's address for a setup (a replay's step: the rules library reads it again).
 * @param {Setup} setup
 */
export function setupLink(setup) {
  return `#/board?setup=${encodeURIComponent(JSON.stringify(setup))}`;
}

/**
 * A replay's position as a setup, from the side `onRoll`: both sides' 25 counts in their
 * own numbering (replay.js's `points`), the dice to play (null: none), the cube.
 * @param {number[][]} points [side 0's, side 1's]
 * @param {0 | 1} onRoll
 * @param {number[] | null} dice
 * @param {{value: number, owner: number | null}} cube
 * @returns {Setup}
 */
export function setupFromReplay(points, onRoll, dice, cube) {
  const owner = cube.owner === null ? null : cube.owner === onRoll ? "mine" : "theirs";
  return {
    mine: points[onRoll].slice(),
    theirs: points[1 - onRoll].slice(),
    dice: dice && dice.length >= 2 ? [dice[0], dice[1]] : null,
    cube: { value: owner === null ? 1 : cube.value, owner },
    match: { length: 0, score: [0, 0], crawford: false },
  };
}
