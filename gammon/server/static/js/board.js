// @ts-check
// Drawing a board model as SVG (the positions come from geometry.js). Every point, the
// viewer's bar and the viewer's tray carry data-point (1-24, 25 bar, 0 off) so that a
// click, a drag (drag.js) and a test can all name them. Drawing only: what the model
// holds is the table page's business (table.js), pointer input is drag.js's, a play
// shown moving is board-animator.js's. Every x goes through geometry's `sx`, which
// mirrors the board for a player who wants the home board on the left.

import {
  BAR_R, BAR_W, BAR_X, BOTTOM, CUBE_SIZE, CUBE_X, H, HALF, LAYOUT, LEFT, MID, PW, R, RIGHT, TOP,
  TRAY_W, TRAY_X, W, ZONE, SLAB_H, barSlot, columnX, cubeY, labelY, place, slot, sx, traySlab,
  useLayout,
} from "./geometry.js";
import { t, tn } from "./i18n.js";
import { s } from "./util.js";

/**
 * What a board shows, from the viewer's side: checkers as in a protocol BOARD, the colours
 * (0 light, 1 dark) of [viewer, opponent], the dice, the cube (null: none shown), the
 * selected checker and where it may go, which checkers may move, the points of the
 * opponent's last play, and the dice last thrown and played (`spent`, until the next roll).
 * `chosen` marks the die a one-click move uses (fast entry, settings.js).
 * @typedef {object} BoardModel
 * @property {number[]} mine
 * @property {number[]} theirs
 * @property {number[]} off [viewer's, opponent's]
 * @property {number[]} [waiting] [viewer's, opponent's]
 * @property {number[]} [colors]
 * @property {{value: number, used: boolean, chosen?: boolean}[] | null} [dice]
 * @property {boolean} [diceMine]
 * @property {{values: number[], mine: boolean} | null} [spent]
 * @property {boolean} [diceClickable] whether the viewer's dice answer a click (data-die)
 * @property {{value: number, owner: "mine" | "theirs" | null, offered: boolean, offer?: number} | null} [cube]
 * @property {number | null} [selected]
 * @property {Set<number>} [dests]
 * @property {Set<number>} [movable]
 * @property {boolean} [canRoll]
 * @property {Set<number>} [last]
 */

/** A screen this narrow (a phone) gets the compact board (geometry.js). */
const PHONE = "(max-width: 600px)";

/** The boards on the page: redrawn in the other layout when the screen crosses PHONE. */
const shown = new Set();
window.matchMedia(PHONE).addEventListener("change", () => {
  for (const view of shown) {
    if (!view.svg.isConnected) shown.delete(view);
    else if (view.model) view.render(view.model);
  }
});

/** A checker's colours. @typedef {{fill: string, stroke: string, text: string}} Colour */

/** @type {Colour[]} */
const COLORS = [
  { fill: "#f5f0e6", stroke: "#6f6253", text: "#333" },
  { fill: "#2c2c2e", stroke: "#0a0a0a", text: "#eee" },
];

/**
 * @param {number} x
 * @param {number} y
 * @param {Colour} color
 * @param {Record<string, string | number>} [extra]
 */
export function checker(x, y, color, extra = {}) {
  return s("circle", { cx: x, cy: y, r: R, fill: color.fill, stroke: color.stroke,
                       "stroke-width": 1.5, class: "checker", ...extra });
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} n
 * @param {Colour} color
 */
function countLabel(x, y, n, color) {
  return s("text", { x, y: y + 5, "text-anchor": "middle", class: "count", fill: color.text }, String(n));
}

/** @type {Record<number, number[][]>} */
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/**
 * @param {number} x
 * @param {number} y
 * @param {number} value
 * @param {Colour} color
 * @param {string} state "", "used", "chosen" or "spent"
 * @param {number} size
 */
function die(x, y, value, color, state, size = 38) {
  const g = s("g", { class: state ? `die ${state}` : "die", "aria-label": t("die {value}", { value }) });
  g.append(s("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 7,
                       fill: color.fill, stroke: color.stroke, "stroke-width": 1.5 }));
  const step = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s("circle", { cx: x + dx * step, cy: y + dy * step, r: size * 0.085, fill: color.text }));
  }
  return g;
}

/** The board's SVG; `render(model)` redraws it. */
export class BoardView {
  /** @param {HTMLElement} container */
  constructor(container) {
    this.svg = /** @type {SVGSVGElement} */ (s("svg", { viewBox: `0 0 ${W} ${H}`, class: "board", role: "img",
                                                          "aria-label": t("backgammon board") }));
    container.replaceChildren(this.svg);
    /** @type {BoardModel | null} */
    this.model = null;
    /** The point whose top checker is being dragged (drawn faded), and the ghost's spot. */
    /** @type {{from: number | null, x: number, y: number} | null} */
    this.drag = null;
    /** @type {SVGElement | null} */
    this.ghost = null;
    shown.add(this);
  }

  /** @param {BoardModel} model */
  render(model) {
    this.model = model;
    const svg = this.svg;
    useLayout(window.matchMedia(PHONE).matches ? "compact" : "wide");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.classList.toggle("compact", LAYOUT === "compact");
    svg.replaceChildren();
    const mine = COLORS[model.colors ? model.colors[0] : 0];
    const theirs = COLORS[model.colors ? model.colors[1] : 1];
    svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 10, class: "frame" }));
    svg.append(s("rect", { x: sx(LEFT, HALF), y: TOP, width: HALF, height: H - 2 * TOP, class: "felt" }));
    svg.append(s("rect", { x: sx(RIGHT, HALF), y: TOP, width: HALF, height: H - 2 * TOP, class: "felt" }));
    svg.append(s("rect", { x: sx(BAR_X, BAR_W), y: TOP, width: BAR_W, height: H - 2 * TOP, class: "bar" }));
    svg.append(s("rect", { x: sx(TRAY_X, TRAY_W), y: TOP, width: TRAY_W, height: MID - TOP - 6, class: "tray" }));
    svg.append(s("rect", { x: sx(TRAY_X, TRAY_W), y: MID + 6, width: TRAY_W, height: BOTTOM - MID - 6,
                           class: "tray" }));
    const dests = model.dests || new Set();
    const movable = model.movable || new Set();
    const last = model.last || new Set();
    const waiting = model.waiting || [0, 0];
    const dragFrom = this.drag ? this.drag.from : null;
    // The 24 points.
    for (let p = 1; p <= 24; p++) {
      const { col, top } = place(p);
      const x = sx(columnX(col), PW);
      const g = s("g", { class: "point", dataset: { point: String(p) } });
      if (dests.has(p)) g.classList.add("dest");
      if (movable.has(p)) g.classList.add("movable");
      g.append(s("rect", { x, y: top ? TOP : MID, width: PW, height: top ? MID - TOP : BOTTOM - MID,
                           class: "hit", fill: "transparent" }));
      const tipY = top ? TOP + ZONE : BOTTOM - ZONE;
      const baseY = top ? TOP : BOTTOM;
      g.append(s("polygon", {
        points: `${x + 1},${baseY} ${x + PW - 1},${baseY} ${x + PW / 2},${tipY}`,
        class: `tri ${(col + (top ? 1 : 0)) % 2 ? "tri-a" : "tri-b"}${last.has(p) ? " last" : ""}`,
      }));
      g.append(s("text", { x: x + PW / 2, y: labelY(top), class: "label",
                           "text-anchor": "middle" }, String(p)));
      const nMine = model.mine[p - 1];
      const nTheirs = model.theirs[24 - p];
      const n = nMine || nTheirs;
      const color = nMine ? mine : theirs;
      for (let i = 0; i < n; i++) {
        const { x: cx, y: cy } = slot(p, i, n);
        const isTop = i === n - 1;
        /** @type {Record<string, string | number>} */
        const extra = {};
        if (isTop && model.selected === p) extra.class = "checker selected";
        if (isTop && dragFrom === p) extra.opacity = 0.35;
        g.append(checker(cx, cy, color, extra));
      }
      if (n > 5) {
        const { x: cx, y: cy } = slot(p, n - 1, n);
        g.append(countLabel(cx, cy, n, color));
      }
      if (dests.has(p)) {
        const free = nTheirs === 1 ? 0 : nMine;
        const { x: cx, y: cy } = slot(p, Math.min(free, 5), Math.max(free + 1, 1));
        g.append(s("circle", { cx, cy, r: R * 0.55, class: "dest-mark" }));
      }
      svg.append(g);
    }
    // The bar: the viewer's checkers below the middle, the opponent's above.
    const barMine = model.mine[24] + waiting[0];
    const barTheirs = model.theirs[24] + waiting[1];
    const bar = s("g", { class: "point barpoint", dataset: { point: "25" } });
    if (movable.has(25)) bar.classList.add("movable");
    bar.append(s("rect", { x: sx(BAR_X, BAR_W), y: MID, width: BAR_W, height: BOTTOM - MID, class: "hit",
                           fill: "transparent" }));
    for (let i = 0; i < barMine; i++) {
      const { x, y } = barSlot(true, i, barMine);
      /** @type {Record<string, string>} */
      const extra = i === barMine - 1 && model.selected === 25 ? { class: "checker selected" } : {};
      bar.append(checker(x, y, mine, { r: BAR_R, ...extra }));
    }
    if (barMine > 1) {
      const { x, y } = barSlot(true, barMine - 1, barMine);
      bar.append(countLabel(x, y, barMine, mine));
    }
    svg.append(bar);
    for (let i = 0; i < barTheirs; i++) {
      const { x, y } = barSlot(false, i, barTheirs);
      svg.append(checker(x, y, theirs, { r: BAR_R }));
    }
    if (barTheirs > 1) {
      const { x, y } = barSlot(false, barTheirs - 1, barTheirs);
      svg.append(countLabel(x, y, barTheirs, theirs));
    }
    // The trays: borne-off checkers as slabs, the viewer's at the bottom.
    const tray = s("g", { class: "point traypoint", dataset: { point: "0" } });
    if (dests.has(0)) tray.classList.add("dest");
    tray.append(s("rect", { x: sx(TRAY_X, TRAY_W), y: MID + 6, width: TRAY_W, height: BOTTOM - MID - 6,
                            class: "hit", fill: "transparent" }));
    const slab = (/** @type {number} */ i, /** @type {boolean} */ isMine, /** @type {Colour} */ color) =>
      s("rect", { ...traySlab(isMine, i), width: TRAY_W - 16, height: SLAB_H, rx: 3, fill: color.fill,
                  stroke: color.stroke, class: "slab" });
    for (let i = 0; i < model.off[0]; i++) tray.append(slab(i, true, mine));
    if (dests.has(0)) {
      tray.append(s("circle", { cx: sx(TRAY_X + TRAY_W / 2), cy: BOTTOM - 22 - model.off[0] * 14,
                                r: R * 0.55, class: "dest-mark" }));
    }
    svg.append(tray);
    for (let i = 0; i < model.off[1]; i++) svg.append(slab(i, false, theirs));
    if (LAYOUT === "compact") {
      // No room for words in the narrow tray (the cube sits in its middle): the count,
      // just past each stack of slabs.
      if (model.off[0]) {
        svg.append(s("text", { x: sx(TRAY_X + TRAY_W / 2), y: BOTTOM - 20 - model.off[0] * 14, class: "label",
                               "text-anchor": "middle" }, String(model.off[0])));
      }
      if (model.off[1]) {
        svg.append(s("text", { x: sx(TRAY_X + TRAY_W / 2), y: TOP + 24 + model.off[1] * 14, class: "label",
                               "text-anchor": "middle" }, String(model.off[1])));
      }
    } else {
      if (model.off[0]) {
        svg.append(s("text", { x: sx(TRAY_X + TRAY_W / 2), y: MID + 24, class: "label", "text-anchor": "middle" },
                     tn("{n} off", "{n} off", model.off[0])));
      }
      if (model.off[1]) {
        svg.append(s("text", { x: sx(TRAY_X + TRAY_W / 2), y: MID - 14, class: "label", "text-anchor": "middle" },
                     tn("{n} off", "{n} off", model.off[1])));
      }
    }
    // The dice: the viewer's in the right half, the opponent's in the left half; the dice
    // each side last played stay in its half until the next roll.
    const halfCentre = (/** @type {boolean} */ isMine) => sx(isMine ? RIGHT + HALF / 2 : LEFT + HALF / 2);
    const current = model.dice && model.dice.length ? model.dice : null;
    const spent = model.spent && model.spent.values.length ? model.spent : null;
    if (spent && !(current && Boolean(model.diceMine) === spent.mine) && !(model.canRoll && spent.mine)) {
      const color = spent.mine ? mine : theirs;
      const g = s("g", { class: `dice spent ${spent.mine ? "mine" : "theirs"}`,
                         "aria-label": t("dice played {dice}", { dice: spent.values.join("-") }) });
      this.drawDice(g, halfCentre(spent.mine), spent.values.map((value) => ({ value, state: "spent" })), color);
      svg.append(g);
    }
    if (current) {
      const isMine = Boolean(model.diceMine);
      const color = isMine ? mine : theirs;
      const g = s("g", { class: `dice ${isMine ? "mine" : "theirs"}`,
                         "aria-label": t("dice {dice}", { dice: current.map((d) => d.value).join("-") }) });
      this.drawDice(g, halfCentre(isMine), current.map((d) => ({
        value: d.value, state: d.used ? "used" : d.chosen ? "chosen" : "" })), color,
      Boolean(model.diceClickable && isMine));
      svg.append(g);
    } else if (model.canRoll) {
      const g = s("g", { class: "roll-target", dataset: { action: "roll" } });
      // Compact: a target a thumb finds (about 83 x 36 px on a 390 px screen).
      const [tw, th] = LAYOUT === "compact" ? [140, 60] : [100, 44];
      g.append(s("rect", { x: sx(RIGHT + HALF / 2 - tw / 2, tw), y: MID - th / 2, width: tw, height: th, rx: 8 }));
      g.append(s("text", { x: sx(RIGHT + HALF / 2), y: MID + (LAYOUT === "compact" ? 10 : 6), "text-anchor": "middle" },
                       t("Roll")));
      svg.append(g);
    }
    // The cube, left of the board: the owner's side, or the middle while centred.
    if (model.cube) {
      const c = model.cube;
      const y = cubeY(c.owner, c.offered);
      const value = c.offered ? c.offer || c.value * 2 : c.value === 1 && !c.owner ? 64 : c.value;
      const g = s("g", { class: c.offered ? "cube offered" : "cube",
                         "aria-label": c.owner === "mine" ? t("cube {value}, mine", { value }) : c.owner === "theirs"
                           ? t("cube {value}, theirs", { value }) : t("cube {value}", { value }) });
      g.append(s("rect", { x: sx(CUBE_X + 4, CUBE_SIZE), y: y - CUBE_SIZE / 2, width: CUBE_SIZE,
                           height: CUBE_SIZE, rx: 6 }));
      g.append(s("text", { x: sx(CUBE_X + 4 + CUBE_SIZE / 2), y: y + 7, "text-anchor": "middle" }, String(value)));
      svg.append(g);
    }
    if (this.drag && this.drag.from !== null) {
      this.ghost = checker(this.drag.x, this.drag.y, mine, { class: "checker ghost" });
      svg.append(this.ghost);
    } else {
      this.ghost = null;
    }
  }

  /**
   * Dice in a row centred on `cx`; clickable ones carry data-die (their index).
   * @param {SVGElement} g
   * @param {number} cx
   * @param {{value: number, state: string}[]} dice
   * @param {Colour} color
   * @param {boolean} [clickable]
   */
  drawDice(g, cx, dice, color, clickable = false) {
    // Compact: 28 px dice on a phone's screen, the four of a double as big as two.
    const size = LAYOUT === "compact" ? 48 : dice.length > 2 ? 32 : 40;
    const gap = size + 10;
    const x0 = cx - ((dice.length - 1) * gap) / 2;
    dice.forEach((d, i) => {
      const el = die(x0 + i * gap, MID, d.value, color, d.state, size);
      if (clickable) el.dataset.die = String(i);
      g.append(el);
    });
  }

  /**
   * A checker drawn over the board, for a play shown moving (board-animator.js): side 0
   * the viewer's colour, 1 the opponent's. Gone at the next render.
   * @param {0 | 1} side
   * @param {{x: number, y: number}} at
   * @returns {SVGElement}
   */
  flyer(side, at) {
    const colors = this.model && this.model.colors ? this.model.colors : [0, 1];
    const el = checker(at.x, at.y, COLORS[colors[side]], { class: "checker flying" });
    this.svg.append(el);
    return el;
  }

  /**
   * Move the dragged checker's ghost without redrawing the board.
   * @param {number} x
   * @param {number} y
   */
  moveGhost(x, y) {
    if (!this.drag) return;
    this.drag.x = x;
    this.drag.y = y;
    if (this.ghost) {
      this.ghost.setAttribute("cx", String(x));
      this.ghost.setAttribute("cy", String(y));
    }
  }
}
