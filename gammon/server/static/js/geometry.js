// @ts-check
// The board's geometry, always from the viewer's side (R1): the viewer's home board at the
// bottom right, their checkers moving 24 -> 1 and off into the tray on the right. Pure
// numbers in the SVG's coordinates (no DOM): rendering (board.js), pointer input
// (drag.js) and the unit tests (tests/js/) all place and find points here.
//
// A player who likes the home board on the left (a setting, settings.js) gets the whole
// drawing mirrored left to right: the layout below is worked out for the home board on the
// right, and every x goes through `sx` on its way to the screen (and back, in pointAt).

export const W = 780;
export const H = 560;
export const CUBE_X = 6; // the cube column, left of the frame
export const LEFT = 68; // the left half's inner edge
export const PW = 48; // a point's width
export const HALF = 6 * PW;
export const BAR_X = LEFT + HALF;
export const BAR_W = 48;
export const RIGHT = BAR_X + BAR_W;
export const FRAME_R = RIGHT + HALF;
export const TRAY_X = FRAME_R + 16;
export const TRAY_W = 60;
export const TOP = 16;
export const ZONE = 232; // a point's zone height
export const BOTTOM = H - 16;
export const MID = H / 2;
export const R = 21; // checker radius
export const D = 44; // checker pitch
export const CUBE_SIZE = 40;

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
  const pitch = n > 4 ? (ZONE - 60 - 2 * R) / (n - 1) : D;
  const x = sx(BAR_X + BAR_W / 2);
  const y = mine ? MID + 34 + R + i * pitch : MID - 34 - R - i * pitch;
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
 * The cube's centre height: at its owner's side, in the middle while centred or offered.
 * @param {"mine" | "theirs" | null} owner
 * @param {boolean} offered
 */
export function cubeY(owner, offered) {
  if (offered || owner === null) return MID;
  return owner === "mine" ? BOTTOM - CUBE_SIZE / 2 - 4 : TOP + CUBE_SIZE / 2 + 4;
}
