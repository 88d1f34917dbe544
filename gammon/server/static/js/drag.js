// @ts-check
// Pointer input on a drawn board (board.js): a press on a point, then a click or a drag.
// It names points only (geometry.js's pointAt); what a press or a drop means is the
// table page's business (table.js, with the move logic of moves.js).

import { pointAt } from "./geometry.js";

/**
 * What the board reports. `onDown(point)` answers whether a drag may start from there;
 * `onUp(from, to, dragged)` follows a press that could start one (`to` null: cancelled
 * or off the board); `onRoll()` for a press on the board's roll target, `onDie(i)` on the
 * viewer's `i`-th die (drawn with data-die), `onPress()` before any of them (it answers
 * true to swallow the press: a play being shown moving is finished by it).
 * @typedef {object} InputHandlers
 * @property {(point: number | null) => boolean} onDown
 * @property {(from: number, to: number | null, dragged: boolean) => void} onUp
 * @property {() => void} [onRoll]
 * @property {(index: number) => void} [onDie]
 * @property {() => boolean} [onPress]
 */

/** A drag starts once the pointer has moved this far (SVG units). */
export const DRAG_START = 6;

/** Listens to the pointer on a BoardView's SVG. */
export class BoardInput {
  /**
   * @param {import("./board.js").BoardView} view
   * @param {InputHandlers} handlers
   */
  constructor(view, handlers) {
    this.view = view;
    this.handlers = handlers;
    /** @type {{from: number, x0: number, y0: number, dragging: boolean} | null} */
    this.press = null;
    const svg = view.svg;
    svg.addEventListener("pointerdown", (event) => this.down(event));
    svg.addEventListener("pointermove", (event) => this.moveTo(event));
    svg.addEventListener("pointerup", (event) => this.finish(event, false));
    svg.addEventListener("pointercancel", (event) => this.finish(event, true));
  }

  /**
   * The pointer's spot in the board's coordinates.
   * @param {PointerEvent} event
   */
  toSvg(event) {
    const svg = this.view.svg;
    const m = svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    return { x: pt.x, y: pt.y };
  }

  /** @param {PointerEvent} event */
  down(event) {
    if (event.button !== 0 || !this.view.model) return;
    if (this.handlers.onPress && this.handlers.onPress()) {
      event.preventDefault();
      return;
    }
    const target = /** @type {Element | null} */ (event.target);
    if (target && target.closest && target.closest("[data-action=roll]")) {
      if (this.handlers.onRoll) this.handlers.onRoll();
      return;
    }
    const die = target && target.closest ? /** @type {SVGElement | null} */ (target.closest("[data-die]")) : null;
    if (die && this.handlers.onDie) {
      this.handlers.onDie(Number(die.dataset.die));
      event.preventDefault();
      return;
    }
    const { x, y } = this.toSvg(event);
    const point = pointAt(x, y);
    if (!this.handlers.onDown(point) || point === null) return;
    this.press = { from: point, x0: x, y0: y, dragging: false };
    try {
      this.view.svg.setPointerCapture(event.pointerId);
    } catch {
      // Synthetic events have no active pointer to capture.
    }
    event.preventDefault();
  }

  /** @param {PointerEvent} event */
  moveTo(event) {
    const press = this.press;
    if (!press) return;
    const { x, y } = this.toSvg(event);
    if (!press.dragging && Math.hypot(x - press.x0, y - press.y0) > DRAG_START) {
      press.dragging = true;
      this.view.drag = { from: press.from, x, y };
      if (this.view.model) this.view.render(this.view.model);
    } else if (press.dragging) {
      this.view.moveGhost(x, y);
    }
  }

  /**
   * @param {PointerEvent} event
   * @param {boolean} cancelled
   */
  finish(event, cancelled) {
    const press = this.press;
    if (!press) return;
    this.press = null;
    this.view.drag = null;
    const { x, y } = this.toSvg(event);
    this.handlers.onUp(press.from, cancelled ? null : pointAt(x, y), press.dragging);
  }
}
