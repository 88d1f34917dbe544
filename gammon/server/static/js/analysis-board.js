// @ts-check
// The analysis board (#/board, #/board?xgid=...): set up any position by hand or paste
// an XGID / Position ID / Match ID, set the dice, cube and score, ask the engine for the
// ranked plays or the cube action at a chosen depth, roll it out with a progress bar,
// play the engine's plays forward and step back, and share the board by its link.
// The server reads and writes every setup (docs/PROTOCOL.md 9.1): this page edits a
// setup with board-setup.js and shows what the server answers.

import { ApiError, get, post } from "./api.js";
import { BoardView } from "./board.js";
import {
  addChecker, boardLink, emptySetup, moveChecker, removeChecker, startSetup, swapSides,
} from "./board-setup.js";
import { BoardInput } from "./drag.js";
import { number, percent, t, tn } from "./i18n.js";
import { pct, signed, verdictText } from "./review-model.js";
import { clear, h } from "./util.js";

/** @typedef {import("./board-setup.js").Setup} Setup */
/** @typedef {{setup: Setup, xgid: string, position_id: string, pips: number[], off: number[]}} Read */

/**
 * A setup given in the address (a replay's step), or null when it is not one.
 * @param {string} text
 * @returns {Setup | null}
 */
function readSetupParam(text) {
  try {
    const setup = JSON.parse(text);
    return setup && Array.isArray(setup.mine) && Array.isArray(setup.theirs) ? setup : null;
  } catch {
    return null;
  }
}

/** How often a running rollout's progress is asked for. */
const POLL_MS = 500;
const TRIALS = [36, 72, 144, 324, 648, 1296];
const CUBES = [1, 2, 4, 8, 16, 32, 64];


/**
 * @param {string} id
 * @param {string} label
 * @param {[string, string][]} options [value, text]
 * @param {string} value
 * @param {(value: string) => void} onchange
 */
function select(id, label, options, value, onchange) {
  const el = /** @type {HTMLSelectElement} */ (h("select", { id, "aria-label": label,
    onchange: () => onchange(el.value) },
  options.map(([v, text]) => h("option", { value: v, selected: v === value }, text))));
  return el;
}

class AnalysisBoard {
  /**
   * @param {HTMLElement} main
   * @param {Record<string, string>} params
   */
  constructor(main, params) {
    /** @type {Setup} */
    this.setup = startSetup();
    /** @type {Read | null} what the server last read of this setup (null: it refused it) */
    this.read = null;
    /** @type {string[]} the XGIDs of the positions played through, and where we are */
    this.history = [];
    this.at = -1;
    this.editing = false;
    /** @type {"mine" | "theirs" | "remove"} */
    this.tool = "mine";
    /** @type {number | null} */
    this.poll = null;
    /** @type {number | null} */
    this.pending = null;
    this.destroyed = false;
    this.boardEl = h("div", { id: "ab-board", class: "board-wrap" });
    this.view = new BoardView(this.boardEl);
    new BoardInput(this.view, {
      onDown: (point) => this.editing && point !== null,
      onUp: (from, to, dragged) => this.handEdit(from, to, dragged),
    });
    this.paste = /** @type {HTMLInputElement} */ (h("input", { id: "ab-paste", name: "position",
      placeholder: t("XGID, Position ID or Position ID:Match ID"), "aria-label": t("Paste a position"),
      autocomplete: "off", spellcheck: false }));
    this.pasteError = h("p", { id: "ab-paste-error", class: "error", role: "alert", hidden: true });
    this.setupError = h("p", { id: "ab-setup-error", class: "error", role: "alert", hidden: true });
    this.controls = h("div", { id: "ab-setup", class: "ab-setup" });
    this.ids = h("p", { id: "ab-ids", class: "muted small ab-ids" });
    this.analysis = h("div", { id: "ab-analysis", "aria-live": "polite" });
    this.rolloutEl = h("div", { id: "ab-rollout-result", "aria-live": "polite" });
    this.progress = /** @type {HTMLProgressElement} */ (h("progress", { id: "ab-progress", max: 1, value: 0,
      hidden: true, "aria-label": t("rollout progress") }));
    this.ply = select("ab-ply", t("Search depth"), [["0", t("0-ply (instant)")], ["1", "1-ply"], ["2", t("2-ply (strongest)")]],
      "1", () => {});
    this.trials = select("ab-trials", t("Trials"), TRIALS.map((n) => /** @type {[string, string]} */ ([String(n), tn("{n} trial", "{n} trials", n)])),
      "324", () => {});
    this.share = /** @type {HTMLInputElement} */ (h("input", { id: "ab-share", readonly: true,
      "aria-label": t("Link to this board"), onfocus: () => this.share.select() }));
    this.back = /** @type {HTMLButtonElement} */ (h("button", { id: "ab-back", type: "button",
      onclick: () => this.step(-1) }, ("◀ " + t("Back"))));
    this.forward = /** @type {HTMLButtonElement} */ (h("button", { id: "ab-forward", type: "button",
      onclick: () => this.step(1) }, (t("Forward") + " ▶")));
    main.replaceChildren(h("section", { id: "board-page", class: "board-page" },
      h("h2", {}, t("Analysis board")),
      h("div", { class: "ab-layout" },
        h("div", { class: "ab-left" }, this.boardEl,
          h("div", { class: "ab-steps" }, this.back, this.forward,
            h("span", { class: "muted small" }, (" " + t("the engine's plays, played on")))),
          this.ids),
        h("div", { class: "ab-side" },
          h("form", { class: "ab-paste", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.load(this.paste.value, true); } },
            this.paste, h("button", { id: "ab-load", type: "submit" }, t("Set up"))),
          this.pasteError,
          this.controls, this.setupError,
          h("div", { class: "ab-ask" }, this.ply,
            h("button", { id: "ab-analyse", type: "button", class: "primary", onclick: () => this.analyse() }, t("Analyse"))),
          this.analysis,
          h("div", { class: "ab-ask" }, this.trials,
            h("button", { id: "ab-rollout", type: "button", onclick: () => this.rollout() }, t("Roll out"))),
          this.progress, this.rolloutEl,
          h("div", { class: "ab-share" }, h("label", { for: "ab-share" }, (t("Share:") + " ")), this.share,
            h("button", { id: "ab-copy", type: "button", onclick: () => this.copyLink() }, t("Copy link")))))));
    // A link carries an XGID; a review gives a position's text, a replay its setup.
    const given = params.setup ? readSetupParam(params.setup) : null;
    if (params.xgid || params.position) this.load(params.xgid || params.position, true);
    else this.accept(given || this.setup, true);
  }

  destroy() {
    this.destroyed = true;
    this.stopPolling();
    if (this.pending !== null) clearTimeout(this.pending);
  }

  /** The setup's controls: editing, dice, cube and score. */
  renderControls() {
    const s = this.setup;
    const set = (/** @type {(next: Setup) => void} */ change) => {
      const next = { ...s, cube: { ...s.cube }, match: { ...s.match, score: s.match.score.slice() } };
      change(next);
      this.accept(next, false);
    };
    const die = (/** @type {number} */ i) => select(`ab-die${i + 1}`, t("Die {n}", { n: i + 1 }),
      [["", "–"], ...[1, 2, 3, 4, 5, 6].map((d) => /** @type {[string, string]} */ ([String(d), String(d)]))],
      s.dice ? String(s.dice[i]) : "", (v) => set((n) => {
        if (!v) {
          n.dice = null;
          return;
        }
        const dice = n.dice ? n.dice.slice() : [Number(v), Number(v)];
        dice[i] = Number(v);
        n.dice = dice;
      }));
    const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {number} */ value,
      /** @type {(n: Setup, v: number) => void} */ put) => h("input", { id, type: "number", min: 0, max: 64,
      value: String(value), "aria-label": label, class: "ab-number",
      onchange: (/** @type {Event} */ e) => set((n) => put(n, Number(/** @type {HTMLInputElement} */ (e.target).value) || 0)) });
    const tools = h("div", { class: "ab-tools", hidden: !this.editing },
      [["mine", t("Player on roll (light)")], ["theirs", t("Opponent (dark)")], ["remove", t("Remove")]].map(([value, text]) =>
        h("label", { class: "ab-tool" }, h("input", { type: "radio", name: "ab-tool", value,
          checked: this.tool === value, onchange: () => { this.tool = /** @type {any} */ (value); } }), ` ${text}`)),
      h("p", { class: "muted small" }, t("Tap a point to add or remove a checker, or drag one from point to point (to the tray: off).")),
      h("div", { class: "ab-buttons" },
        h("button", { id: "ab-start", type: "button", onclick: () => this.accept(startSetup(), false) }, t("Starting position")),
        h("button", { id: "ab-clear", type: "button", onclick: () => this.accept(emptySetup(), false) }, t("Clear")),
        h("button", { id: "ab-swap", type: "button", onclick: () => this.accept(swapSides(this.setup), false) }, t("Swap sides"))));
    clear(this.controls,
      h("label", { class: "ab-edit" }, h("input", { id: "ab-edit", type: "checkbox", checked: this.editing,
        onchange: (/** @type {Event} */ e) => { this.editing = /** @type {HTMLInputElement} */ (e.target).checked; this.renderControls(); } }),
        " " + t("Set up the position by hand")),
      tools,
      h("div", { class: "ab-row" }, h("span", {}, t("Dice")), die(0), die(1)),
      h("div", { class: "ab-row" }, h("span", {}, t("Cube")),
        select("ab-cube-value", t("Cube value"), CUBES.map((c) => /** @type {[string, string]} */ ([String(c), String(c)])), String(s.cube.value),
          (v) => set((n) => { n.cube.value = Number(v); })),
        select("ab-cube-owner", t("Cube owner"), [["", t("centred")], ["mine", t("player on roll's")], ["theirs", t("opponent's")]],
          s.cube.owner || "", (v) => set((n) => {
            n.cube.owner = v === "mine" || v === "theirs" ? v : null;
            if (!n.cube.owner) n.cube.value = 1; // a centred cube shows 1
          }))),
      h("div", { class: "ab-row" }, h("span", {}, t("Match to")),
        field("ab-length", t("Match length (0: money play)"), s.match.length, (n, v) => {
          n.match.length = v;
          if (!v) n.match = { length: 0, score: [0, 0], crawford: false };
        }),
        s.match.length ? [h("span", {}, t("score")),
          field("ab-score-mine", t("Score of the player on roll"), s.match.score[0], (n, v) => { n.match.score[0] = v; }),
          h("span", {}, "–"),
          field("ab-score-theirs", t("Score of the opponent"), s.match.score[1], (n, v) => { n.match.score[1] = v; }),
          h("label", {}, h("input", { id: "ab-crawford", type: "checkbox", checked: s.match.crawford,
            onchange: (/** @type {Event} */ e) => set((n) => { n.match.crawford = /** @type {HTMLInputElement} */ (e.target).checked; }) }),
            " Crawford")]
          : h("span", { class: "muted small" }, t("0: money play"))));
  }

  /**
   * A tap or a drag on the board while setting up.
   * @param {number} from
   * @param {number | null} to
   * @param {boolean} dragged
   */
  handEdit(from, to, dragged) {
    if (!this.editing) return;
    let next = null;
    if (dragged) next = moveChecker(this.setup, from, to === null ? 0 : to);
    else if (this.tool === "remove") next = removeChecker(this.setup, from);
    else if (from !== 0) next = addChecker(this.setup, from, this.tool);
    if (next) this.accept(next, false);
  }

  /**
   * Show a setup at once and have the server read it (its XGID, its IDs, or what is wrong).
   * @param {Setup} setup
   * @param {boolean} now send it now rather than after the edits stop for a moment
   */
  accept(setup, now) {
    this.setup = setup;
    this.read = null;
    this.draw();
    this.renderControls();
    this.clearAnswers();
    if (this.pending !== null) clearTimeout(this.pending);
    const send = async () => {
      this.pending = null;
      const sent = this.setup;
      try {
        const read = await post("/api/board", { setup: sent });
        if (this.destroyed || sent !== this.setup) return;
        this.show(read, false);
      } catch (err) {
        if (this.destroyed || sent !== this.setup) return;
        this.setupError.hidden = false;
        this.setupError.textContent = /** @type {Error} */ (err).message;
        this.ids.textContent = "";
      }
    };
    if (now) send();
    else this.pending = window.setTimeout(send, 250);
  }

  /**
   * Set up from pasted text (or a link's XGID).
   * @param {string} text
   * @param {boolean} fresh start a new history here
   */
  async load(text, fresh) {
    this.pasteError.hidden = true;
    try {
      const read = await post("/api/board", { text });
      if (this.destroyed) return;
      this.setup = read.setup;
      this.show(read, fresh);
      this.renderControls();
      this.clearAnswers();
    } catch (err) {
      this.pasteError.hidden = false;
      this.pasteError.textContent = /** @type {Error} */ (err).message;
    }
  }

  /**
   * What the server read: the IDs, the link, the history.
   * @param {Read} read
   * @param {boolean} fresh
   */
  show(read, fresh) {
    this.read = read;
    this.setupError.hidden = true;
    if (fresh) {
      this.history = this.history.slice(0, this.at + 1);
      this.history.push(read.xgid);
      this.at = this.history.length - 1;
    } else if (this.at >= 0) {
      this.history[this.at] = read.xgid;
    } else {
      this.history = [read.xgid];
      this.at = 0;
    }
    this.back.disabled = this.at <= 0;
    this.forward.disabled = this.at >= this.history.length - 1;
    history.replaceState(null, "", boardLink(read.xgid));
    this.share.value = location.href;
    clear(this.ids, h("span", { class: "ab-xgid" }, read.xgid), h("br"),
      t("Position ID {id} · pips {mine} (on roll) – {theirs}", { id: read.position_id, mine: read.pips[0], theirs: read.pips[1] }));
    this.draw();
  }

  draw() {
    const s = this.setup;
    const count = (/** @type {number[]} */ side) => side.reduce((a, b) => a + b, 0);
    this.view.render({
      mine: s.mine, theirs: s.theirs, off: [15 - count(s.mine), 15 - count(s.theirs)],
      dice: s.dice ? s.dice.map((value) => ({ value, used: false })) : null, diceMine: true,
      cube: { value: s.cube.value, owner: s.cube.owner, offered: false },
    });
  }

  clearAnswers() {
    this.stopPolling();
    this.analysis.replaceChildren();
    this.rolloutEl.replaceChildren();
    this.progress.hidden = true;
  }

  /** @param {number} by -1 back, +1 forward */
  step(by) {
    const at = this.at + by;
    if (at < 0 || at >= this.history.length) return;
    this.at = at;
    this.load(this.history[at], false);
  }

  /** @param {unknown} err @param {HTMLElement} where */
  fail(err, where) {
    const message = err instanceof ApiError ? err.message : String(err);
    clear(where, h("p", { class: "error", role: "alert" }, message));
  }

  async analyse() {
    const sent = this.setup;
    const ply = Number(this.ply.value);
    clear(this.analysis, h("p", { class: "muted" }, t("Thinking at {ply}-ply…", { ply })));
    try {
      const { analysis } = await post("/api/board/analyse", { setup: sent, ply });
      if (this.destroyed || sent !== this.setup) return;
      if (analysis.plays) this.showPlays(analysis);
      else this.showCube(analysis);
    } catch (err) {
      this.fail(err, this.analysis);
    }
  }

  /** @param {any} analysis */
  showPlays(analysis) {
    const mwc = analysis.unit === "mwc";
    const n = analysis.plays.length;
    const ranked = mwc
      ? tn("{n} play ranked at {ply}-ply by match winning chance.", "{n} plays ranked at {ply}-ply by match winning chance.", n, { ply: analysis.ply })
      : tn("{n} play ranked at {ply}-ply by equity (cubeless, points a game).", "{n} plays ranked at {ply}-ply by equity (cubeless, points a game).", n, { ply: analysis.ply });
    clear(this.analysis,
      h("p", { class: "small" }, (ranked + " " + t("Play one to go on from the position it leads to."))),
      h("div", { class: "table-scroll" }, h("table", { class: "ab-plays" },
        h("thead", {}, h("tr", {}, ["#", t("Play"), mwc ? t("MWC") : t("Equity"), t("Loss"), t("Win (gammon)"), ""].map((head) =>
          h("th", { scope: "col" }, head)))),
        h("tbody", {}, analysis.plays.slice(0, 12).map((/** @type {any} */ p, /** @type {number} */ i) =>
          h("tr", { class: "ab-play" },
            h("td", {}, String(i + 1)),
            h("td", { class: "notation" }, p.play),
            h("td", {}, mwc ? pct(p.mwc) : signed(p.equity)),
            h("td", {}, i === 0 ? "" : mwc ? `−${pct(analysis.plays[0].mwc - p.mwc)}` : `−${number(p.loss, 3)}`),
            h("td", {}, `${pct(p.win)} (${pct(p.win_gammon)})`),
            h("td", {}, h("button", { type: "button", class: "ab-play-it", onclick: () => this.load(p.after, true) }, t("Play")))))))));
  }

  /** @param {any} analysis */
  showCube(analysis) {
    if (!analysis.cube) {
      clear(this.analysis, h("p", { id: "ab-cube-refusal" },
        (t("The player on roll cannot double here: {reason}.", { reason: analysis.cube_refusal }) + " " + t("Set the dice to see the plays."))));
      return;
    }
    const c = analysis.cube;
    const mwc = c.match;
    const figure = (/** @type {number} */ x) => (mwc ? pct(x) : signed(x));
    const unit = mwc ? t("Figures are the match winning chance of the player on roll.")
      : t("Figures are the equity of the player on roll, cubeful, per unit of the cube.");
    clear(this.analysis,
      h("p", { id: "ab-cube-action", class: "ab-verdict" },
        t("Cube action at {ply}-ply: {action}", { ply: analysis.ply, action: verdictText(c.action) })),
      h("p", { class: "small" }, (unit + " " + t("They win {win} of the games (gammons {gammon}, lose a gammon {lose}).",
        { win: pct(c.win), gammon: pct(c.win_gammon), lose: pct(c.lose_gammon) }))),
      // The chances against the doubling window and the take point, in words that agree
      // with the action (the hints' own: gammon.engine.analysis.explain.cube_words).
      c.text ? h("p", { class: "small", id: "ab-cube-words" }, c.text) : null,
      h("table", { class: "ab-cube" }, h("tbody", {},
        [[t("No double"), c.no_double], [t("Double, take"), c.double_take], [t("Double, pass"), c.double_pass]].map(([label, x]) =>
          h("tr", {}, h("th", { scope: "row" }, String(label)), h("td", {}, figure(Number(x))))))));
  }

  async rollout() {
    const sent = this.setup;
    this.stopPolling();
    clear(this.rolloutEl);
    try {
      const { rollout } = await post("/api/board/rollouts", { setup: sent, trials: Number(this.trials.value) });
      this.progress.hidden = false;
      this.progress.max = rollout.trials;
      this.progress.value = rollout.done;
      const tick = async () => {
        this.poll = null;
        try {
          const now = (await get(`/api/board/rollouts/${rollout.id}`)).rollout;
          if (this.destroyed || sent !== this.setup) return;
          this.progress.value = now.done;
          if (now.state === "running") {
            clear(this.rolloutEl, h("p", { class: "muted small" }, tn("Rolling out: {done} of {n} trial", "Rolling out: {done} of {n} trials", now.trials, { done: now.done })));
            this.poll = window.setTimeout(tick, POLL_MS);
          } else {
            this.showRollout(now);
          }
        } catch (err) {
          this.fail(err, this.rolloutEl);
        }
      };
      this.poll = window.setTimeout(tick, POLL_MS);
    } catch (err) {
      this.fail(err, this.rolloutEl);
    }
  }

  /** @param {any} job */
  showRollout(job) {
    this.progress.hidden = true;
    if (job.state !== "done") {
      clear(this.rolloutEl, h("p", { class: job.state === "failed" ? "error" : "muted" },
        job.state === "failed" ? job.error : t("The rollout was stopped.")));
      return;
    }
    clear(this.rolloutEl,
      h("p", { class: "small" }, tn("Rolled out {n} trial each: cubeless equity of the player on roll (points a game) with its {interval} interval; the same position always rolls the same dice.",
        "Rolled out {n} trials each: cubeless equity of the player on roll (points a game) with its {interval} interval; the same position always rolls the same dice.",
        job.results[0].trials, { interval: percent(0.95, 0) })),
      h("div", { class: "table-scroll" }, h("table", { class: "ab-rollouts" },
        h("thead", {}, h("tr", {}, ["", t("Equity"), t("Win"), t("Gammon"), t("Lose gammon")].map((head) => h("th", { scope: "col" }, head)))),
        h("tbody", {}, job.results.map((/** @type {any} */ r) => h("tr", { class: "ab-rolled" },
          h("td", { class: "notation" }, r.play || t("Before the roll")),
          h("td", {}, `${signed(r.equity)} ± ${number(r.interval, 3)}`),
          h("td", {}, pct(r.win)), h("td", {}, pct(r.win_gammon)), h("td", {}, pct(r.lose_gammon))))))));
  }

  stopPolling() {
    if (this.poll !== null) clearTimeout(this.poll);
    this.poll = null;
  }

  async copyLink() {
    try {
      await navigator.clipboard.writeText(this.share.value);
    } catch {
      this.share.select(); // no clipboard here (an insecure origin): the link is selected to copy
    }
  }
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 */
export function mountBoard(main, params) {
  const page = new AnalysisBoard(main, params);
  return { destroy: () => page.destroy(), board: page }; // board: for the browser tests
}
