// @ts-check
// A play shown moving on a drawn board (board.js): the flights of play-path.js, one
// checker at a time, each `stepMs` long (a hit checker's trip shorter), eased. Skippable:
// `finish()` (a click, a key, or a new state arriving) draws the end at once. While a play
// is shown the animator owns the board: the page hands it the model to end on
// (`setFinal`), which it draws once, at the end, so nothing is lost or drawn twice.

/** @typedef {import("./board.js").BoardView} BoardView */
/** @typedef {import("./board.js").BoardModel} BoardModel */
/** @typedef {import("./play-path.js").Flight} Flight */
/** @typedef {import("./play-path.js").Position} Position */

/**
 * What to show: the flights, the board drawn under each (from a position), how long one
 * step takes, and the model to draw at the end.
 * @typedef {object} Showing
 * @property {Flight[]} flights
 * @property {(under: Position, done: number) => BoardModel} frame the board under a flight, with
 *   `done` of the play's moves made
 * @property {number} stepMs
 * @property {BoardModel} final
 */

/** @param {number} k 0-1 */
function ease(k) {
  return k < 0.5 ? 2 * k * k : 1 - ((-2 * k + 2) ** 2) / 2;
}

export class BoardAnimator {
  /** @param {BoardView} view */
  constructor(view) {
    this.view = view;
    /** @type {Showing | null} */
    this.showing = null;
    this.index = 0;
    /** @type {SVGElement | null} */
    this.flying = null;
    /** @type {number | null} the current flight's start (rAF time) */
    this.started = null;
    this.frameId = 0;
    /** @type {(() => void)[]} what waits for the end */
    this.waiting = [];
    /** For the tests: how many plays were shown moving, and finished early. */
    this.shown = 0;
    this.skipped = 0;
  }

  get running() {
    return this.showing !== null;
  }

  /**
   * Show a play moving; a play still being shown is finished first. With no time per step
   * (animation off), or a page out of sight (no frames come), the end is drawn at once.
   * @param {Showing} showing
   */
  play(showing) {
    this.finish();
    const hidden = typeof document !== "undefined" && document.hidden;
    if (!showing.flights.length || showing.stepMs <= 0 || hidden) {
      this.view.render(showing.final);
      return;
    }
    this.showing = showing;
    this.shown += 1;
    this.index = 0;
    this.started = null;
    this.draw();
    this.frameId = requestAnimationFrame((t) => this.tick(t));
  }

  /** @param {BoardModel} model the model to end on (the page redrew meanwhile) */
  setFinal(model) {
    if (this.showing) this.showing.final = model;
  }

  /**
   * Run `fn` once the play being shown has ended (at once when none is).
   * @param {() => void} fn
   */
  whenDone(fn) {
    if (this.showing) this.waiting.push(fn);
    else fn();
  }

  /** Draw the end now: the last position, and what waited for it. */
  finish() {
    const showing = this.showing;
    if (!showing) return;
    if (this.index < showing.flights.length) this.skipped += 1;
    cancelAnimationFrame(this.frameId);
    this.showing = null;
    this.flying = null;
    this.view.render(showing.final);
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }

  /** Stop for good (the page is left): the end drawn, nothing that waited for it run. */
  stop() {
    this.waiting = [];
    this.finish();
  }

  /** The board under the current flight, and its checker at the start. */
  draw() {
    const showing = /** @type {Showing} */ (this.showing);
    const flight = showing.flights[this.index];
    this.view.render(showing.frame(flight.under, flight.done));
    this.flying = this.view.flyer(flight.side, flight.from);
  }

  /** @param {number} now */
  tick(now) {
    const showing = this.showing;
    if (!showing) return;
    if (this.started === null) this.started = now;
    let flight = showing.flights[this.index];
    let k = (now - this.started) / (showing.stepMs * flight.weight);
    while (k >= 1) {
      // Landed: on to the next checker (several, if frames came late), or the end.
      this.started += showing.stepMs * flight.weight;
      this.index += 1;
      if (this.index >= showing.flights.length) {
        this.finish();
        return;
      }
      this.draw();
      flight = showing.flights[this.index];
      k = (now - this.started) / (showing.stepMs * flight.weight);
    }
    const e = ease(Math.max(0, k));
    const lift = Math.sin(Math.PI * k) * 14; // a little arc over the checkers it passes
    const x = flight.from.x + (flight.to.x - flight.from.x) * e;
    const y = flight.from.y + (flight.to.y - flight.from.y) * e - lift;
    if (this.flying) {
      this.flying.setAttribute("cx", String(x));
      this.flying.setAttribute("cy", String(y));
    }
    this.frameId = requestAnimationFrame((t) => this.tick(t));
  }
}
