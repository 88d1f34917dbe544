// The board as SVG, always from the viewer's side (R1): the viewer's home board at
// the bottom right, their checkers moving 24 -> 1 and off into the tray on the right.
//
// Every point, the viewer's bar and the viewer's tray carry data-point (1-24, 25
// bar, 0 off) so that a click, a drag and a test can all name them.

import { s } from "./util.js";

export const W = 780;
export const H = 560;
const CUBE_X = 6; // the cube column, left of the frame
const LEFT = 68; // the left half's inner edge
const PW = 48; // a point's width
const HALF = 6 * PW;
const BAR_X = LEFT + HALF;
const BAR_W = 48;
const RIGHT = BAR_X + BAR_W;
const FRAME_R = RIGHT + HALF;
const TRAY_X = FRAME_R + 16;
const TRAY_W = 60;
const TOP = 16;
const ZONE = 232; // a point's zone height
const BOTTOM = H - 16;
const MID = H / 2;
const R = 21; // checker radius
const D = 44; // checker pitch

const COLORS = [
  { fill: "#f5f0e6", stroke: "#6f6253", text: "#333" },
  { fill: "#2c2c2e", stroke: "#0a0a0a", text: "#eee" },
];

/** The column (0-11, left to right) and the row of a point in the viewer's numbering. */
function place(point) {
  if (point <= 12) return { col: 12 - point, top: false };
  return { col: point - 13, top: true };
}

function columnX(col) {
  return (col < 6 ? LEFT + col * PW : RIGHT + (col - 6) * PW);
}

/** Centre of the ``i``-th checker (from the edge) of a stack of ``n`` on ``point``. */
function slot(point, i, n) {
  const { col, top } = place(point);
  const pitch = n > 5 ? (ZONE - 2 * R - 4) / (n - 1) : D;
  const x = columnX(col) + PW / 2;
  const y = top ? TOP + R + 1 + i * pitch : BOTTOM - R - 1 - i * pitch;
  return { x, y };
}

function barSlot(mine, i, n) {
  const pitch = n > 4 ? (ZONE - 60 - 2 * R) / (n - 1) : D;
  const x = BAR_X + BAR_W / 2;
  const y = mine ? MID + 34 + R + i * pitch : MID - 34 - R - i * pitch;
  return { x, y };
}

function checker(x, y, color, extra = {}) {
  return s("circle", { cx: x, cy: y, r: R, fill: color.fill, stroke: color.stroke,
                       "stroke-width": 1.5, class: "checker", ...extra });
}

function countLabel(x, y, n, color) {
  return s("text", { x, y: y + 5, "text-anchor": "middle", class: "count", fill: color.text }, String(n));
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(x, y, value, color, used, size = 38) {
  const g = s("g", { class: used ? "die used" : "die", "aria-label": `die ${value}` });
  g.append(s("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 7,
                       fill: color.fill, stroke: color.stroke, "stroke-width": 1.5 }));
  const step = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s("circle", { cx: x + dx * step, cy: y + dy * step, r: size * 0.085, fill: color.text }));
  }
  return g;
}

/**
 * Draws a board model and reports pointer input:
 * model = {mine, theirs, off: [mine, theirs], waiting: [mine, theirs], colors: [mine, theirs]
 * (0 light, 1 dark), dice: [{value, used}] | null, diceMine, cube: {value, owner: "mine" |
 * "theirs" | null, offered}, selected, dests: Set, movable: Set, canRoll, last: Set of points}.
 */
export class BoardView {
  constructor(container, handlers = {}) {
    this.handlers = handlers;
    this.svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "board", role: "img",
                          "aria-label": "backgammon board" });
    container.replaceChildren(this.svg);
    this.model = null;
    this.press = null;
    if (handlers.interactive !== false) this.listen();
  }

  render(model) {
    this.model = model;
    const svg = this.svg;
    svg.replaceChildren();
    const mine = COLORS[model.colors ? model.colors[0] : 0];
    const theirs = COLORS[model.colors ? model.colors[1] : 1];
    svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 10, class: "frame" }));
    svg.append(s("rect", { x: LEFT, y: TOP, width: HALF, height: H - 2 * TOP, class: "felt" }));
    svg.append(s("rect", { x: RIGHT, y: TOP, width: HALF, height: H - 2 * TOP, class: "felt" }));
    svg.append(s("rect", { x: BAR_X, y: TOP, width: BAR_W, height: H - 2 * TOP, class: "bar" }));
    svg.append(s("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 6, class: "tray" }));
    svg.append(s("rect", { x: TRAY_X, y: MID + 6, width: TRAY_W, height: BOTTOM - MID - 6, class: "tray" }));
    const dests = model.dests || new Set();
    const movable = model.movable || new Set();
    const last = model.last || new Set();
    // The 24 points.
    for (let p = 1; p <= 24; p++) {
      const { col, top } = place(p);
      const x = columnX(col);
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
      g.append(s("text", { x: x + PW / 2, y: top ? TOP - 4 : BOTTOM + 12, class: "label",
                           "text-anchor": "middle" }, String(p)));
      const nMine = model.mine[p - 1];
      const nTheirs = model.theirs[24 - p];
      const n = nMine || nTheirs;
      const color = nMine ? mine : theirs;
      for (let i = 0; i < n; i++) {
        const { x: cx, y: cy } = slot(p, i, n);
        const isTop = i === n - 1;
        const extra = {};
        if (isTop && model.selected === p) extra.class = "checker selected";
        if (isTop && this.press && this.press.dragging && this.press.from === p) extra.opacity = 0.35;
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
    const barMine = model.mine[24] + (model.waiting ? model.waiting[0] : 0);
    const barTheirs = model.theirs[24] + (model.waiting ? model.waiting[1] : 0);
    const bar = s("g", { class: "point barpoint", dataset: { point: "25" } });
    if (movable.has(25)) bar.classList.add("movable");
    bar.append(s("rect", { x: BAR_X, y: MID, width: BAR_W, height: BOTTOM - MID, class: "hit",
                           fill: "transparent" }));
    for (let i = 0; i < barMine; i++) {
      const { x, y } = barSlot(true, i, barMine);
      const extra = i === barMine - 1 && model.selected === 25 ? { class: "checker selected" } : {};
      bar.append(checker(x, y, mine, extra));
    }
    if (barMine > 1) {
      const { x, y } = barSlot(true, barMine - 1, barMine);
      bar.append(countLabel(x, y, barMine, mine));
    }
    svg.append(bar);
    for (let i = 0; i < barTheirs; i++) {
      const { x, y } = barSlot(false, i, barTheirs);
      svg.append(checker(x, y, theirs));
    }
    if (barTheirs > 1) {
      const { x, y } = barSlot(false, barTheirs - 1, barTheirs);
      svg.append(countLabel(x, y, barTheirs, theirs));
    }
    // The trays: borne-off checkers as slabs, the viewer's at the bottom.
    const tray = s("g", { class: "point traypoint", dataset: { point: "0" } });
    if (dests.has(0)) tray.classList.add("dest");
    tray.append(s("rect", { x: TRAY_X, y: MID + 6, width: TRAY_W, height: BOTTOM - MID - 6,
                            class: "hit", fill: "transparent" }));
    const slab = (i, top, color) =>
      s("rect", { x: TRAY_X + 8, y: top ? TOP + 4 + i * 14 : BOTTOM - 16 - i * 14, width: TRAY_W - 16,
                  height: 12, rx: 3, fill: color.fill, stroke: color.stroke });
    for (let i = 0; i < model.off[0]; i++) tray.append(slab(i, false, mine));
    if (dests.has(0)) {
      tray.append(s("circle", { cx: TRAY_X + TRAY_W / 2, cy: BOTTOM - 22 - model.off[0] * 14,
                                r: R * 0.55, class: "dest-mark" }));
    }
    svg.append(tray);
    for (let i = 0; i < model.off[1]; i++) svg.append(slab(i, true, theirs));
    if (model.off[0]) {
      svg.append(s("text", { x: TRAY_X + TRAY_W / 2, y: MID + 24, class: "label", "text-anchor": "middle" },
                   `${model.off[0]} off`));
    }
    if (model.off[1]) {
      svg.append(s("text", { x: TRAY_X + TRAY_W / 2, y: MID - 14, class: "label", "text-anchor": "middle" },
                   `${model.off[1]} off`));
    }
    // The dice: the viewer's in the right half, the opponent's in the left half.
    if (model.dice && model.dice.length) {
      const color = model.diceMine ? mine : theirs;
      const cx = model.diceMine ? RIGHT + HALF / 2 : LEFT + HALF / 2;
      const size = model.dice.length > 2 ? 32 : 40;
      const gap = size + 10;
      const x0 = cx - ((model.dice.length - 1) * gap) / 2;
      const g = s("g", { class: "dice", "aria-label": `dice ${model.dice.map((d) => d.value).join("-")}` });
      model.dice.forEach((d, i) => g.append(die(x0 + i * gap, MID, d.value, color, d.used, size)));
      svg.append(g);
    } else if (model.canRoll) {
      const g = s("g", { class: "roll-target", dataset: { action: "roll" } });
      g.append(s("rect", { x: RIGHT + HALF / 2 - 50, y: MID - 22, width: 100, height: 44, rx: 8 }));
      g.append(s("text", { x: RIGHT + HALF / 2, y: MID + 6, "text-anchor": "middle" }, "Roll"));
      svg.append(g);
    }
    // The cube, left of the board: the owner's side, or the middle while centred.
    if (model.cube) {
      const c = model.cube;
      const size = 40;
      const y = c.offered ? MID : c.owner === "mine" ? BOTTOM - size / 2 - 4 : c.owner === "theirs" ? TOP + size / 2 + 4 : MID;
      const value = c.offered ? c.offer || c.value * 2 : c.value === 1 && !c.owner ? 64 : c.value;
      const g = s("g", { class: c.offered ? "cube offered" : "cube",
                         "aria-label": `cube ${value}${c.owner ? ", " + c.owner : ""}` });
      g.append(s("rect", { x: CUBE_X + 4, y: y - size / 2, width: size, height: size, rx: 6 }));
      g.append(s("text", { x: CUBE_X + 4 + size / 2, y: y + 7, "text-anchor": "middle" }, String(value)));
      svg.append(g);
    }
    if (this.press && this.press.dragging) {
      this.ghost = checker(this.press.x, this.press.y, mine, { class: "checker ghost" });
      svg.append(this.ghost);
    }
  }

  // -- pointer input: a press on a checker, then a click or a drag ---------------------

  toSvg(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const m = this.svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  /** The point (1-24, 25 the viewer's bar, 0 the viewer's tray) under board coordinates. */
  pointAt(x, y) {
    if (x >= TRAY_X && x <= TRAY_X + TRAY_W && y >= MID) return 0;
    if (x >= BAR_X && x < RIGHT) return y >= MID ? 25 : null;
    let col;
    if (x >= LEFT && x < BAR_X) col = Math.floor((x - LEFT) / PW);
    else if (x >= RIGHT && x < FRAME_R) col = 6 + Math.floor((x - RIGHT) / PW);
    else return null;
    return y < MID ? 13 + col : 12 - col;
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 || !this.model) return;
      const roll = event.target.closest && event.target.closest("[data-action=roll]");
      if (roll) {
        this.handlers.onRoll && this.handlers.onRoll();
        return;
      }
      const { x, y } = this.toSvg(event);
      const point = this.pointAt(x, y);
      const startDrag = this.handlers.onDown ? this.handlers.onDown(point) : false;
      if (startDrag) {
        this.press = { from: point, x, y, x0: x, y0: y, dragging: false, id: event.pointerId };
        try {
          svg.setPointerCapture(event.pointerId);
        } catch {
          // Synthetic events have no active pointer to capture.
        }
        event.preventDefault();
      }
    });
    svg.addEventListener("pointermove", (event) => {
      const press = this.press;
      if (!press) return;
      const { x, y } = this.toSvg(event);
      press.x = x;
      press.y = y;
      if (!press.dragging && Math.hypot(x - press.x0, y - press.y0) > 6) {
        press.dragging = true;
        this.render(this.model);
      } else if (press.dragging && this.ghost) {
        this.ghost.setAttribute("cx", x);
        this.ghost.setAttribute("cy", y);
      }
    });
    const finish = (event, cancelled) => {
      const press = this.press;
      if (!press) return;
      this.press = null;
      this.ghost = null;
      const { x, y } = this.toSvg(event);
      const target = cancelled ? null : this.pointAt(x, y);
      if (this.handlers.onUp) this.handlers.onUp(press.from, target, press.dragging);
      else this.render(this.model);
    };
    svg.addEventListener("pointerup", (event) => finish(event, false));
    svg.addEventListener("pointercancel", (event) => finish(event, true));
  }

  /** Where a test (or a person) would press to grab the top checker of ``point``. */
  static pointCentre(point) {
    if (point === 0) return { x: TRAY_X + TRAY_W / 2, y: BOTTOM - 40 };
    if (point === 25) return { x: BAR_X + BAR_W / 2, y: MID + 80 };
    const { col, top } = place(point);
    return { x: columnX(col) + PW / 2, y: top ? TOP + 80 : BOTTOM - 80 };
  }
}
