// @ts-check
// The board's geometry, always from the viewer's side (R1): the viewer's home board at the
// bottom right, their checkers moving 24 -> 1 and off into the tray on the right. Pure
// numbers in the SVG's coordinates (no DOM): rendering (board.js), pointer input
// (drag.js) and the unit tests (tests/js/) all place and find points here.
//
// A player who likes the home board on the left (a setting, settings.js) gets the whole
// drawing mirrored left to right: the layout below is worked out for the home board on the
// right, and every x goes through `sx` on its way to the screen (and back, in pointAt).

// Two layouts of the same board. "wide" (a desktop): the cube in a column left of the
// frame, checkers with a little felt between them. "compact" (a phone, set by board.js
// from the screen's width): no cube column (the cube sits in the tray column), checkers as
// wide as their points, narrow bar and tray and big point numbers, so that on a 390 px
// screen a checker is at least 28 px across and a number 12 px high (issue 16, item 8).
// The values are `let` bindings: `useLayout` changes them for every module that imports
// them (rendering, pointer input), which read them when they draw or look up a point.

/** The numbers each layout chooses; the rest follow from them. */
const LAYOUTS = {
  wide: { left: 68, pw: 48, barW: 48, trayGap: 16, trayW: 60, top: 16, zone: 232, r: 21, d: 44,
          barR: 21, barD: 44, cube: 40, label: 10, h: 560 },
  compact: { left: 4, pw: 48, barW: 32, trayGap: 2, trayW: 40, top: 26, zone: 240, r: 24, d: 48,
             barR: 15, barD: 31, cube: 36, label: 22, h: 588 },
};

/** Which layout is in use: "wide" or "compact". */
export let LAYOUT = "wide";
export let W = 780;
export let H = 560;
export let CUBE_X = 6; // the cube's left edge less 4 (wide: the column left of the frame)
export let LEFT = 68; // the left half's inner edge
export let PW = 48; // a point's width
export let HALF = 6 * PW;
export let BAR_X = LEFT + HALF;
export let BAR_W = 48;
export let RIGHT = BAR_X + BAR_W;
export let FRAME_R = RIGHT + HALF;
export let TRAY_X = FRAME_R + 16;
export let TRAY_W = 60;
export let TOP = 16;
export let ZONE = 232; // a point's zone height
export let BOTTOM = H - 16;
export let MID = H / 2;
export let R = 21; // checker radius
export let D = 44; // checker pitch
export let BAR_R = 21; // radius of a checker on the bar
export let BAR_D = 44; // their pitch
export let CUBE_SIZE = 40;
export let LABEL = 10; // the point numbers' font size

/**
 * Switch the layout (board.js, before it draws); whether it changed.
 * @param {"wide" | "compact"} name
 */
export function useLayout(name) {
  if (name === LAYOUT) return false;
  const l = LAYOUTS[name];
  LAYOUT = name;
  LEFT = l.left;
  PW = l.pw;
  HALF = 6 * PW;
  BAR_X = LEFT + HALF;
  BAR_W = l.barW;
  RIGHT = BAR_X + BAR_W;
  FRAME_R = RIGHT + HALF;
  TRAY_X = FRAME_R + l.trayGap;
  TRAY_W = l.trayW;
  W = TRAY_X + TRAY_W + (name === "compact" ? 2 : 12);
  H = l.h;
  TOP = l.top;
  ZONE = l.zone;
  BOTTOM = H - TOP;
  MID = H / 2;
  R = l.r;
  D = l.d;
  BAR_R = l.barR;
  BAR_D = l.barD;
  CUBE_SIZE = l.cube;
  CUBE_X = name === "compact" ? TRAY_X + (TRAY_W - CUBE_SIZE) / 2 - 4 : 6;
  LABEL = l.label;
  return true;
}

/** A spot in the SVG. @typedef {{x: number, y: number}} XY */

let homeLeft = false;

/**
 * Draw every board with the viewer's home board on the left (true) or the right.
 * @param {boolean} left
 */
export function setHomeLeft(left) {
  homeLeft = left;
}

export function isHomeLeft() {
  return homeLeft;
}

/**
 * The screen x of a layout x (and back: mirroring is its own inverse). With `width`, the
 * left edge of a box `width` wide whose layout left edge is `x`.
 * @param {number} x
 * @param {number} [width]
 */
export function sx(x, width = 0) {
  return homeLeft ? W - x - width : x;
}

/**
 * The column (0-11, left to right) and the row of a point in the viewer's numbering.
 * @param {number} point 1-24
 * @returns {{col: number, top: boolean}}
 */
export function place(point) {
  if (point <= 12) return { col: 12 - point, top: false };
  return { col: point - 13, top: true };
}

/**
 * The left edge of a column.
 * @param {number} col 0-11
 */
export function columnX(col) {
  return col < 6 ? LEFT + col * PW : RIGHT + (col - 6) * PW;
}

/**
 * Centre of the `i`-th checker (from the edge) of a stack of `n` on `point`.
 * @param {number} point
 * @param {number} i
 * @param {number} n
 * @returns {XY}
 */
export function slot(point, i, n) {
  const { col, top } = place(point);
  const pitch = n > 5 ? (ZONE - 2 * R - 4) / (n - 1) : D;
  const x = sx(columnX(col) + PW / 2);
  const y = top ? TOP + R + 1 + i * pitch : BOTTOM - R - 1 - i * pitch;
  return { x, y };
}

/**
 * Centre of the `i`-th of `n` checkers on a bar: the viewer's below the middle.
 * @param {boolean} mine
 * @param {number} i
 * @param {number} n
 * @returns {XY}
 */
export function barSlot(mine, i, n) {
  const pitch = n > 4 ? (ZONE - 60 - 2 * BAR_R) / (n - 1) : BAR_D;
  const x = sx(BAR_X + BAR_W / 2);
  const y = mine ? MID + 34 + BAR_R + i * pitch : MID - 34 - BAR_R - i * pitch;
  return { x, y };
}

/** A borne-off checker's slab in a tray: its height. */
export const SLAB_H = 12;
/** The slabs' pitch. */
export const SLAB_PITCH = 14;

/**
 * The top left corner of the `i`-th slab (from the edge) of a tray: the viewer's at the
 * bottom right, the opponent's at the top right (mirrored with the board).
 * @param {boolean} mine
 * @param {number} i
 * @returns {XY}
 */
export function traySlab(mine, i) {
  const y = mine ? BOTTOM - 4 - SLAB_H - i * SLAB_PITCH : TOP + 4 + i * SLAB_PITCH;
  return { x: sx(TRAY_X + 8, TRAY_W - 16), y };
}

/**
 * Centre of the `i`-th slab of a tray: where a checker borne off flies to.
 * @param {boolean} mine
 * @param {number} i
 * @returns {XY}
 */
export function traySlot(mine, i) {
  const { y } = traySlab(mine, i);
  return { x: sx(TRAY_X + TRAY_W / 2), y: y + SLAB_H / 2 };
}

/**
 * The point (1-24, 25 the viewer's bar, 0 the viewer's tray) under board coordinates,
 * or null outside them.
 * @param {number} screenX
 * @param {number} y
 * @returns {number | null}
 */
export function pointAt(screenX, y) {
  const x = sx(screenX);
  if (x >= TRAY_X && x <= TRAY_X + TRAY_W && y >= MID) return 0;
  if (x >= BAR_X && x < RIGHT) return y >= MID ? 25 : null;
  let col;
  if (x >= LEFT && x < BAR_X) col = Math.floor((x - LEFT) / PW);
  else if (x >= RIGHT && x < FRAME_R) col = 6 + Math.floor((x - RIGHT) / PW);
  else return null;
  return y < MID ? 13 + col : 12 - col;
}

/**
 * Where a person would press to grab the top checker of `point`.
 * @param {number} point
 * @returns {XY}
 */
export function pointCentre(point) {
  if (point === 0) return { x: sx(TRAY_X + TRAY_W / 2), y: BOTTOM - 40 };
  if (point === 25) return { x: sx(BAR_X + BAR_W / 2), y: MID + 80 };
  const { col, top } = place(point);
  return { x: sx(columnX(col) + PW / 2), y: top ? TOP + 80 : BOTTOM - 80 };
}

/**
 * The baseline of a point's number: in the frame above the top points, below the bottom ones.
 * @param {boolean} top
 */
export function labelY(top) {
  const compact = LAYOUT === "compact";
  return top ? TOP - (compact ? 5 : 4) : BOTTOM + LABEL + (compact ? -1 : 2);
}

/**
 * The cube's centre height: at its owner's side, in the middle while centred or offered.
 * @param {"mine" | "theirs" | null} owner
 * @param {boolean} offered
 */
export function cubeY(owner, offered) {
  if (offered || owner === null) return MID;
  // Compact: in the tray column, just past the middle on the owner's side.
  if (LAYOUT === "compact") return owner === "mine" ? MID + 8 + CUBE_SIZE / 2 : MID - 8 - CUBE_SIZE / 2;
  return owner === "mine" ? BOTTOM - CUBE_SIZE / 2 - 4 : TOP + CUBE_SIZE / 2 + 4;
}
