// @ts-check
// After a game: check its dice in this browser (R13, DICE.md), download the record
// and the .mat file, and replay the game move by move.
//
// The server's record gives each game's log (every roll and every play, docs/PROTOCOL.md 5)
// but no position per step, so the replay (replay.js) rebuilds the positions from the
// variant's starting board as `/api/info` gives it and the moves in the log.

import { setupFromReplay, setupLink } from "./board-setup.js";
import { get } from "./api.js";
import { BoardView } from "./board.js";
import { plainWords, verifyGame } from "./fairdice.js";
import { around, t, tn } from "./i18n.js";
import { replayFrames, steppedFrame } from "./replay.js";
import { clear, describeSettings, h, markCurrent } from "./util.js";

/** @typedef {import("./protocol.js").Info} Info */
/** @typedef {import("./protocol.js").Settings} Settings */
/** @typedef {import("./protocol.js").Side} Side */
/** @typedef {import("./replay.js").Replay} Replay */

/**
 * One finished game's record (docs/PROTOCOL.md 5, gammon-fair-dice/1).
 * @typedef {{commitment: string, seed: string, rolls: any[], game: {number: number,
 *   log: import("./protocol.js").GameEvent[], result: import("./protocol.js").GameResult}}} GameRecord
 */

/**
 * The table's records (gammon-table-record/1).
 * @typedef {{table: number, settings: Settings, players: (string | null)[], games: GameRecord[],
 *   result?: {score: number[]}}} TableRecord
 */

/**
 * @param {HTMLElement} main
 * @param {{id: number, game: number | null}} params
 * @param {import("./app.js").App} app
 */
export function mountRecord(main, { id, game }, app) {
  return new RecordView(main, id, game, app);
}

class RecordView {
  /**
   * @param {HTMLElement} main
   * @param {number} id
   * @param {number | null} game
   * @param {import("./app.js").App} app
   */
  constructor(main, id, game, app) {
    this.id = id;
    this.app = app;
    this.main = main;
    this.wanted = game;
    this.frame = 0;
    /** @type {string[]} */
    this.urls = [];
    /** @type {TableRecord | null} */
    this.record = null;
    /** @type {GameRecord | null} */
    this.game = null;
    /** @type {Info | null} */
    this.info = null;
    /** @type {Side} */
    this.side = 0;
    this.bot = false;
    /** @type {{replay: Replay, event: import("./protocol.js").GameEvent | null}[]} */
    this.frames = [];
    this.tabs = h("nav", { class: "game-tabs", "aria-label": t("Games") });
    this.verifyEl = h("section", { class: "verify", "aria-labelledby": "verify-title" });
    /** The fair-dice check in two plain sentences, first on the page (plainWords). */
    this.plainEl = h("p", { class: "fair-plain", id: "fair-plain", role: "status" });
    this.boardEl = h("div", { class: "board-wrap replay-board" });
    this.stepEl = h("p", { class: "step", "aria-live": "polite" });
    this.boardLink = /** @type {HTMLAnchorElement} */ (h("a", { id: "step-on-board", class: "small", href: "#/board" },
      t("Open this position in the analysis board")));
    this.logEl = h("ol", { class: "log replay-log", "aria-label": t("Game log") });
    this.downloads = h("p", { class: "downloads" });
    this.board = new BoardView(this.boardEl);
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    main.replaceChildren(h("p", { class: "muted" }, t("Loading the record…")));
    this.load().catch((/** @type {Error} */ err) => {
      main.replaceChildren(h("p", { class: "error", role: "alert" }, t("Cannot load table {id}: {error}", { id, error: err.message })));
    });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    for (const url of this.urls) URL.revokeObjectURL(url);
  }

  async load() {
    /** @type {[TableRecord, any, Info]} */
    const [record, state, info] = await Promise.all([
      get(`/api/tables/${this.id}/record`),
      get(`/api/tables/${this.id}`).catch(() => null),
      this.app.info ? Promise.resolve(this.app.info) : get("/api/info"),
    ]);
    this.info = info;
    this.record = record;
    this.side = state && state.you !== null && state.you !== undefined ? state.you : 0;
    this.bot = Boolean(record.settings && record.settings.bot);
    const games = record.games || [];
    if (!games.length) {
      this.main.replaceChildren(h("section", { class: "record" },
        h("h1", {}, t("Table {id}", { id: this.id })),
        h("p", {}, t("No game of this table is over yet: a game's seed stays secret until it ends.")),
        h("a", { href: `#/table/${this.id}`, class: "button" }, t("Back to the table"))));
      return;
    }
    const number = this.wanted !== null && games.some((g) => g.game.number === this.wanted)
      ? this.wanted : games[games.length - 1].game.number;
    this.layout(record, games);
    await this.show(number);
  }

  /**
   * @param {TableRecord} record
   * @param {GameRecord[]} games
   */
  layout(record, games) {
    clear(this.tabs,
      games.map((g) => h("button", { type: "button", dataset: { game: String(g.game.number) },
                                     onclick: () => this.show(g.game.number) }, t("Game {n}", { n: g.game.number }))));
    const btn = (/** @type {string} */ label, /** @type {string} */ action, /** @type {string} */ text) => h("button", { type: "button", dataset: { action }, "aria-label": text,
                                                        onclick: () => this.step(action) }, label);
    const players = (record.players || []).map((p) => p || "—").join(" – ");
    this.main.replaceChildren(h("div", { class: "record" },
      h("header", {}, h("h1", {}, t("Table {id}: {players}", { id: this.id, players })), this.plainEl,
        h("p", { class: "muted" }, describeSettings(record.settings || {}),
          record.result ? (" · " + t("final score {score}", { score: record.result.score.join("-") })) : ""),
        h("p", {}, h("a", { href: `#/table/${this.id}` }, t("Back to the table")), " · ",
          h("a", { href: `#/review/${this.id}`, id: "review-link" }, t("Analyse the games")))),
      games.length > 1 ? this.tabs : null,
      h("div", { class: "record-body" },
        h("div", { class: "replay" }, this.boardEl, this.stepEl, this.boardLink,
          h("div", { class: "controls", role: "toolbar", "aria-label": t("Replay") },
            btn("«", "first", t("First position")), btn("◀", "prev", t("Previous step")),
            btn("▶", "next", t("Next step")), btn("»", "last", t("Last position")))),
        h("aside", { class: "side-col" }, this.verifyEl, this.downloads,
          h("section", { class: "log-box" }, h("h2", {}, t("Moves")), this.logEl)))));
  }

  /** @param {number} number */
  async show(number) {
    if (!this.record || !this.info) return;
    const game = this.record.games.find((g) => g.game.number === number);
    if (!game) return;
    this.game = game;
    for (const b of this.tabs.querySelectorAll("button")) {
      b.setAttribute("aria-current", b.dataset.game === String(number) ? "true" : "false");
    }
    const variant = (this.record.settings && this.record.settings.variant) || "standard";
    const known = this.info.variants.find((v) => v.name === variant);
    if (!known) throw new Error(t("the server does not describe the variant {variant}", { variant }));
    this.frames = replayFrames(known.board, game.game.log || []);
    this.frame = this.frames.length - 1;
    this.renderLog();
    this.renderFrame();
    this.renderDownloads(game);
    await this.verify(game);
  }

  /** @param {GameRecord} game */
  renderDownloads(game) {
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls = [];
    const blob = new Blob([JSON.stringify(game, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    this.urls.push(url);
    const name = `table-${this.id}-game-${game.game.number}.json`;
    const mat = h("span", { class: "mat" }, t("Checking for a .mat file…"));
    clear(this.downloads,
      h("a", { href: url, download: name, class: "button" }, t("Save the dice record")), " ", mat);
    fetch(`/api/tables/${this.id}/mat`, { credentials: "same-origin" }).then(async (response) => {
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        mat.textContent = t("No .mat file: {reason}", { reason: (body && body.error && body.error.message) || response.status });
        return;
      }
      const text = await response.text();
      const matUrl = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      this.urls.push(matUrl);
      clear(mat, h("a", { href: matUrl, download: `table-${this.id}.mat`, class: "button", id: "mat-link" },
        t("Download the match (.mat)")));
    }).catch(() => {
      mat.textContent = t("No .mat file: the server cannot be reached.");
    });
  }

  /** @param {GameRecord} game */
  async verify(game) {
    const number = game.game.number;
    clear(this.verifyEl, h("h2", { id: "verify-title" }, t("Fair dice: game {n}", { n: number })),
      h("p", { class: "verify-summary checking", id: "verify-summary" }, t("Checking every roll…")));
    this.plainEl.textContent = t("Checking every roll of this game in this browser…");
    const report = await verifyGame(game, { table: this.id, game: number, bot: this.bot });
    if (this.game !== game) return;
    const [why, checked] = plainWords(report);
    clear(this.plainEl, why, " ", h("strong", {}, checked),
      " ", h("button", { type: "button", class: "link", name: "fair-details",
                         onclick: () => this.verifyEl.scrollIntoView() }, t("The details")));
    const rows = report.rolls.map((r) => h("tr", { class: r.ok ? "ok" : "bad" },
      h("td", {}, String(r.index)),
      h("td", {}, r.dice.join("-")),
      h("td", {}, r.mine ? t("{n} ({mine} yours)", { n: r.entropy.length, mine: r.mine }) : String(r.entropy.length)),
      h("td", {}, r.ok ? ("✓ " + t("verified")) : "✗ " + (r.problem || t("not checked")))));
    clear(this.verifyEl,
      h("h2", { id: "verify-title" }, t("Fair dice: game {n}", { n: number })),
      h("p", { class: `verify-summary ${report.ok ? "ok" : "bad"}`, id: "verify-summary", role: "status" },
        report.ok ? `✓ ${report.summary}` : `✗ ${report.summary}`),
      report.problems.length > 1
        ? h("ul", { class: "problems" }, report.problems.slice(1).map((p) => h("li", {}, p))) : null,
      h("ul", { class: "notes muted small" }, report.notes.map((n) => h("li", {}, n))),
      h("details", { class: "rolls" }, h("summary", {}, tn("The {n} roll", "The {n} rolls", report.rolls.length)),
        h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Dice")),
          h("th", {}, t("Entropy")), h("th", {}, t("Check")))), h("tbody", {}, rows))),
      h("p", { class: "muted small" }, (t("Seed") + " "), h("code", {}, game.seed), h("br"), (t("Commitment") + " "),
        h("code", {}, game.commitment)),
      h("p", { class: "muted small" }, ...around(t("Check it yourself: save the record and run {command}."),
        "{command}", h("code", {}, `gammon verify record.json --commitment ${game.commitment}`))));
  }

  renderLog() {
    if (!this.game) return;
    const log = this.game.game.log || [];
    clear(this.logEl, log.map((e, i) => h("li", { dataset: { frame: String(i + 1) } },
      h("button", { type: "button", class: "link", onclick: () => { this.frame = i + 1; this.renderFrame(); } },
        e.text || e.type))));
  }

  /** @param {string} action first, prev, next or last */
  step(action) {
    this.frame = steppedFrame(this.frame, this.frames.length - 1, action) ?? this.frame;
    this.renderFrame();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !this.frames.length) return;
    /** @type {Record<string, string>} */
    const map = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (map[e.key]) {
      e.preventDefault();
      this.step(map[e.key]);
    }
  }

  renderFrame() {
    if (!this.record || !this.game || !this.frames.length) return;
    const { replay, event } = this.frames[this.frame];
    const side = this.side;
    const b = replay.boardFor(side);
    const settings = this.record.settings || {};
    /** @type {import("./board.js").BoardModel["cube"]} */
    const cube = settings.cube === false ? null : {
      value: replay.cube.value,
      owner: replay.cube.owner === null ? null : replay.cube.owner === side ? "mine" : "theirs",
      offered: replay.cube.offered,
      offer: replay.cube.offer,
    };
    const showDice = event && (event.type === "moved" || event.type === "rolled" || event.type === "opening");
    const rolled = replay.dice;
    const dice = showDice && rolled
      ? (rolled[0] === rolled[1] ? [rolled[0], rolled[0], rolled[0], rolled[0]] : rolled)
          .map((value) => ({ value, used: event.type === "moved" }))
      : null;
    this.board.render({ ...b, colors: [side, 1 - side], dice, diceMine: replay.roller === side, cube });
    // The board opens on the decision this step leaves: dice rolled are to be played by
    // their roller; after a play, the other side is to roll.
    const toPlay = event && event.type === "rolled" && rolled && replay.roller !== null;
    const onRoll = /** @type {0 | 1} */ (toPlay ? replay.roller
      : event && event.type === "moved" && replay.roller !== null ? 1 - replay.roller : side);
    this.boardLink.href = setupLink(setupFromReplay(replay.points, onRoll, toPlay ? rolled : null,
      { value: replay.cube.value, owner: replay.cube.owner }));
    const total = this.frames.length - 1;
    this.stepEl.textContent = event
      ? t("Step {step} of {total}: {event} · pips {mine}–{theirs}",
        { step: this.frame, total, event: event.text || event.type, mine: b.pips[0], theirs: b.pips[1] })
      : t("Start of game {game} · step 0 of {total}", { game: this.game.game.number, total });
    markCurrent(this.logEl, (li) => li.dataset.frame === String(this.frame));
  }
}
