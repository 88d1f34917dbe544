// @ts-check
// Practice at the table (docs/PROTOCOL.md 4.5): the hint panel (checker plays with their
// equities and gammon chances, or the cube with its no double / double-take / double-pass
// equities, at a depth the player may choose) and the tutor, which warns right after a
// mistake and, against the bot, offers to take the play back. The table page (table.js)
// owns the socket; this module draws and remembers the player's choices.
//
// While the tutor's warning waits for an answer the bot does not move (up to the
// `hold_s` the warning gives): the page says so in its status line with the time left,
// and its controls offer both answers, "Take it back" and "Keep my play" (table-controls.js),
// where a phone shows them. The tutor's words stay until the player acts again (the bot
// may play at once: words cleared at the next decision would flash by).

import { number, percent, signed as signedNumber, t } from "./i18n.js";
import { clear, h } from "./util.js";

/** @typedef {import("./protocol.js").HintPlay} HintPlay */
/** @typedef {import("./protocol.js").CubeHint} CubeHint */
/** @typedef {import("./protocol.js").Tutor} Tutor */

const TUTOR_KEY = "gammon.tutor";

/**
 * What the panel needs from the table page.
 * @typedef {object} PracticeHost
 * @property {(type: any, extra?: Record<string, unknown>) => void} act send an action
 * @property {(message: Record<string, unknown>) => void} send send a message (no seq)
 * @property {(play: string) => void} showPlay put a play on the board
 */

/** A signed equity: +0.123. @param {number} v */
const signed = (v) => signedNumber(v, 3).replace("-", "−").replace(/^(\d)/, "+$1");
/** @param {number} v */
const pct = (v) => percent(v, 1);

/**
 * Minutes and seconds: 1:05.
 * @param {number} seconds
 */
export function waitText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class PracticePanel {
  /**
   * @param {HTMLElement} el the hint section
   * @param {HTMLElement} tutorEl where the tutor speaks
   * @param {PracticeHost} host
   */
  constructor(el, tutorEl, host) {
    this.el = el;
    this.tutorEl = tutorEl;
    this.host = host;
    /** @type {number | null} the chosen depth; null: the bot's (or the server's default) */
    this.ply = null;
    /** Whether the tutor is on (remembered in this browser). */
    this.tutor = localStorage.getItem(TUTOR_KEY) === "on";
    /** The seq of the play the tutor's words are about (null: nothing said). */
    this.saidAt = /** @type {number | null} */ (null);
    /**
     * The bot waiting for the answer to a warning: the warning's seq and when the wait
     * ends (performance.now), or null.
     * @type {{seq: number, until: number} | null}
     */
    this.hold = null;
  }

  /**
   * A new state: the wait is over once taking back is no longer offered (the answer went,
   * or the bot played when its wait ran out).
   * @param {import("./protocol.js").State} st
   */
  onState(st) {
    const actions = st.game ? st.game.actions : [];
    if (this.hold && !actions.includes("take_back")) this.endHold();
  }

  /**
   * The player acts again (a roll, a play, a take-back...): the tutor's words on the last
   * play have been read and go.
   * @param {string} type
   */
  acted(type) {
    if (type === "hint" || type === "keep" || this.saidAt === null) return;
    this.saidAt = null;
    this.hold = null;
    clear(this.tutorEl);
  }

  /** Whether the bot waits for the answer to a warning. */
  get holding() {
    return this.hold !== null;
  }

  /** The status line while the bot waits: what it waits for and for how long. */
  holdText() {
    if (!this.hold) return null;
    const left = (this.hold.until - performance.now()) / 1000;
    return left > 0
      ? t("The bot waits for your answer: keep your play or take it back ({time} left).", { time: waitText(left) })
      : t("The bot waited long enough: it plays now.");
  }

  /** Keep the play the tutor warned about: the bot goes on. */
  keep() {
    this.host.send({ type: "keep" });
    this.endHold();
  }

  /** The wait is over: the answers and the line about them go, the tutor's words stay. */
  endHold() {
    if (!this.hold) return;
    this.hold = null;
    const waiting = this.tutorEl.querySelector(".tutor-wait");
    if (waiting) waiting.remove();
  }

  /** Tell the server the tutor's switch (after every (re)connection). */
  sync() {
    if (this.tutor) this.host.send({ type: "tutor", on: true });
  }

  /** Ask for a hint at the chosen depth. */
  ask() {
    this.host.act("hint", this.ply === null ? {} : { ply: this.ply });
  }

  /**
   * Each figure in the hint's unit, named: match winning chance in a match (in per cent),
   * equity in money play.
   * @param {{plays: HintPlay[], cube?: CubeHint | null, ply?: number, unit?: string}} hint
   */
  show(hint) {
    const best = hint.plays[0];
    const mwc = hint.unit === "mwc" || (best && typeof best.mwc === "number");
    const value = (/** @type {HintPlay} */ p) => mwc && typeof p.mwc === "number" ? pct(p.mwc) : signed(p.equity);
    const loss = (/** @type {HintPlay} */ p) => mwc && typeof p.mwc === "number" && typeof best.mwc === "number"
      ? `−${pct(Math.max(0, best.mwc - p.mwc))}` : `−${number(p.loss, 3)}`;
    const rows = hint.plays.slice(0, 6).map((p, i) => h("li", {},
      h("button", { type: "button", class: "hint-play", onclick: () => this.host.showPlay(p.play),
                    title: t("Show this play on the board") },
        h("span", { class: "play" }, p.play),
        h("span", { class: "equity" }, value(p)),
        h("span", { class: "loss" }, i === 0 ? t("best") : loss(p)),
        h("span", { class: "win" }, t("win {win}", { win: pct(p.win) })),
        h("span", { class: "gammon muted" }, " ", t("g {win} / {lose}", { win: pct(p.win_gammon), lose: pct(p.lose_gammon) })))));
    const cube = hint.cube;
    const cubeFigure = (/** @type {number} */ v) => cube && cube.match ? pct(v) : signed(v);
    this.el.hidden = false;
    clear(this.el, h("h2", {}, t("Hint at {ply}-ply (practice)", { ply: hint.ply ?? "?" })),
      rows.length ? h("ol", { class: "hint-list" }, rows) : null,
      cube ? h("table", { class: "cube-hint", id: "cube-hint" }, h("tbody", {},
        h("tr", {}, h("th", {}, t("Cube action")), h("td", { class: "action" }, cube.action)),
        h("tr", {}, h("th", {}, t("No double")), h("td", {}, cubeFigure(cube.no_double))),
        h("tr", {}, h("th", {}, t("Double, take")), h("td", {}, cubeFigure(cube.double_take))),
        h("tr", {}, h("th", {}, t("Double, pass")), h("td", {}, cubeFigure(cube.double_pass))),
        h("tr", {}, h("th", {}, t("Doubler wins")), h("td", {},
          t("{win} of the games (gammon {gammon}, loses a gammon {lose_gammon})",
            { win: pct(cube.win), gammon: pct(cube.win_gammon), lose_gammon: pct(cube.lose_gammon) }))),
        h("tr", {}, h("th", {}, t("Doubling window")), h("td", {}, typeof cube.doubling_point === "number"
          ? t("{from} to {to} of the games", { from: pct(cube.doubling_point), to: pct(cube.cash_point ?? 1 - cube.take_point) })
          : t("doubling never gains"))),
        h("tr", {}, h("th", {}, t("Take point")), h("td", {},
          t("the taker needs {take_point} of the games", { take_point: pct(cube.take_point) }))))) : null,
      cube && cube.text ? h("p", { class: "cube-words", id: "cube-words" }, cube.text) : null,
      h("p", { class: "muted small" }, rows.length
        ? mwc ? t("Match winning chance after each play, then win and gammon chances (won / lost); click a play to put it on the board.")
          : t("Equity per unit of the cube, then win and gammon chances (won / lost); click a play to put it on the board.")
        : cube && cube.match
          ? t("No double, double take and double pass: the doubler's match winning chance; the wins and the take point: chances of winning the game.")
          : t("No double, double take and double pass: the doubler's equity per unit of the cube; the wins and the take point: chances of winning the game.")));
  }

  /** The depth and the tutor's switch. */
  settings() {
    const select = /** @type {HTMLSelectElement} */ (h("select", { name: "hint-ply", "aria-label": t("Hint depth"),
      onchange: () => { this.ply = select.value === "" ? null : Number(select.value); } },
      h("option", { value: "" }, t("the bot's depth")),
      [0, 1, 2].map((n) => h("option", { value: String(n) }, t("{n}-ply", { n: number(n) })))));
    select.value = this.ply === null ? "" : String(this.ply);
    const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: "tutor", checked: this.tutor,
      onchange: () => this.setTutor(box.checked) }));
    return h("p", { class: "practice-settings small" },
      h("label", {}, t("Depth"), " ", select), " ",
      h("label", {}, box, " ", t("Tutor: warn me after a mistake")));
  }

  /** @param {boolean} on */
  setTutor(on) {
    this.tutor = on;
    localStorage.setItem(TUTOR_KEY, on ? "on" : "off");
    this.host.send({ type: "tutor", on });
  }

  /** @param {Tutor} m */
  warn(m) {
    this.saidAt = m.seq;
    this.hold = null;
    if (!m.mark) {
      clear(this.tutorEl, h("p", { class: "tutor ok", id: "tutor" }, t("Tutor: {text}", { text: m.text })));
      return;
    }
    if (m.take_back) this.hold = { seq: m.seq, until: performance.now() + 1000 * (m.hold_s ?? 120) };
    clear(this.tutorEl, h("div", { class: "tutor warn", id: "tutor", role: "alert" },
      h("p", {}, h("b", {}, t("Tutor ({mark}):", { mark: m.mark }), " "), m.text),
      m.take_back ? h("p", { class: "tutor-wait small" },
        // The answers' names in bold, where the sentence puts them in the language.
        t("The bot waits for your answer: use {take_back} or {keep} under the board.")
          .split(/(\{take_back\}|\{keep\})/)
          .map((part) => part === "{take_back}" ? h("b", {}, t("Take it back"))
            : part === "{keep}" ? h("b", {}, t("Keep my play")) : part)) : null));
  }

  hide() {
    this.el.hidden = true;
  }
}
