// @ts-check
// The review page (#/analysis/KEY, #/review/TABLE) and the upload page (#/analyse): an
// analysis from the server's queue (docs/PROTOCOL.md 9) on top of the record's replay.
// While the job waits or runs the page shows its place in the queue or its progress;
// then the move list with its marks, the board at each decision with the best plays and
// their equities (or the cube's), the equity graph (drawn here from the JSON), the luck,
// the per-player summary and the teacher's explanations. The logic is review-model.js.

import { positionLink } from "./board-setup.js";
import { ApiError, get, post, upload } from "./api.js";
import { BoardView } from "./board.js";
import { replayFrames, steppedFrame } from "./replay.js";
import { language, number, percent, t, tn } from "./i18n.js";
import {
  candidateLoss, cubeDoneText, decisionAt, figure, gainFigure, gameMarks, graphGeometry, graphPoints, lossFigure, markText,
  mistakeIndices, pct, reviewSide, showsMwc, stepMistake, unitName, verdictText, waitingText,
} from "./review-model.js";
import { clear, h, markCurrent, s, wayBack } from "./util.js";

/** @typedef {import("./review-model.js").AnalysisDocument} AnalysisDocument */
/** @typedef {import("./review-model.js").GameAnalysis} GameAnalysis */
/** @typedef {import("./review-model.js").Mark} Mark */
/** @typedef {import("./protocol.js").GameEvent} GameEvent */
/** @typedef {import("./replay.js").Replay} Replay */

/**
 * A job of the analysis queue (docs/PROTOCOL.md 9).
 * @typedef {{key: string, link: string, table: number | null, games: number, source: string,
 *   filename: string | null, names: string[] | null, ply: number, status: string,
 *   position: number | null, queued: number, workers: number, running: number,
 *   progress: {done: number, total: number} | null, error: string | null,
 *   document?: AnalysisDocument | null}} Job
 */

const POLL_MS = 1000;
const GRAPH = { width: 640, height: 170, pad: 36 };

/**
 * @param {HTMLElement} main
 * @param {{key?: string, table?: number}} params
 * @param {import("./app.js").App} app
 */
export function mountReview(main, params, app) {
  return new ReviewView(main, params, app);
}

/**
 * The upload form: a .mat or .sgf file to analyse.
 * @param {HTMLElement} main
 * @param {import("./app.js").App} app
 */
export function mountUpload(main, app) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "file", name: "matchfile", accept: ".mat,.sgf,.txt" }));
  const error = h("p", { class: "error", id: "upload-error", role: "alert", hidden: true });
  const send = async () => {
    error.hidden = true;
    const file = input.files && input.files[0];
    if (!file) {
      error.hidden = false;
      error.textContent = t("Choose a .mat or .sgf file first.");
      return;
    }
    try {
      const answer = await upload(`/api/analyses?name=${encodeURIComponent(file.name)}`, file);
      app.go(`#/analysis/${answer.analysis.key}`);
    } catch (err) {
      error.hidden = false;
      error.textContent = /** @type {Error} */ (err).message;
    }
  };
  main.replaceChildren(h("section", { class: "upload panel" },
    h("h1", {}, t("Analyse a match")),
    h("p", {}, t("Upload a match file from GNU Backgammon, eXtreme Gammon or an online site (.mat, or GNU Backgammon's .sgf): every decision of both players is reviewed, with the teacher's explanations.")),
    app.me ? null : h("p", { class: "muted" }, t("Sign in or play as a guest to upload.")),
    h("p", {}, input, " ", h("button", { type: "button", name: "upload", class: "primary", onclick: send }, t("Analyse"))),
    error));
  return {};
}

class ReviewView {
  /**
   * @param {HTMLElement} main
   * @param {{key?: string, table?: number}} params
   * @param {import("./app.js").App} app
   */
  constructor(main, params, app) {
    this.main = main;
    this.app = app;
    this.params = params;
    /** @type {Job | null} */
    this.job = null;
    /** @type {AnalysisDocument | null} */
    this.doc = null;
    this.gameIndex = 0;
    this.frame = 0;
    /** @type {{replay: Replay, event: GameEvent | null}[]} */
    this.frames = [];
    /** @type {Map<number, Mark[]>} */
    this.marks = new Map();
    /** @type {number[]} */
    this.mistakes = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.destroyed = false;
    this.boardEl = h("div", { class: "board-wrap replay-board" });
    this.board = new BoardView(this.boardEl);
    this.graphEl = h("div", { class: "graph-wrap" });
    this.stepEl = h("p", { class: "step", "aria-live": "polite" });
    this.decisionEl = h("section", { class: "decision", id: "decision", "aria-label": t("Decision") });
    this.movesEl = h("ol", { class: "log review-moves", "aria-label": t("Moves") });
    this.tabs = h("nav", { class: "game-tabs", "aria-label": t("Games") });
    /** The side the graph and the boards are seen from (0 or 1): the reader's seat. */
    this.viewer = 0;
    /** Whether the reader played the match (else side 0, with a switch). */
    this.played = false;
    this.sideEl = h("p", { class: "review-side", id: "review-side" });
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    main.replaceChildren(h("p", { class: "muted" }, t("Loading the analysis…")));
    this.load().catch((/** @type {Error} */ err) => this.fail(err));
  }

  destroy() {
    this.destroyed = true;
    if (this.timer) clearTimeout(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }

  /** @param {Error} err */
  fail(err) {
    if (this.destroyed) return;
    this.main.replaceChildren(h("section", { class: "review" },
      h("p", { class: "error", role: "alert", id: "review-error" }, err.message),
      this.params.table ? wayBack([`#/record/${this.params.table}`, t("Back to the record")]) : wayBack(["#/analyse", t("Analyse a match")])));
  }

  async load() {
    const { key, table } = this.params;
    if (key) {
      await this.poll(key);
      return;
    }
    // A table's review: its latest analysis, or a new one asked for now.
    /** @type {Job | null} */
    let job = null;
    try {
      job = (await get(`/api/tables/${table}/analysis`)).analysis;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "no_analysis") throw err;
    }
    if (!job || job.status === "failed") {
      if (!this.app.me) throw new Error(t("This table has not been analysed yet: sign in (or play as a guest) to ask for its analysis."));
      job = (await post(`/api/tables/${table}/analysis`, {})).analysis;
    }
    if (this.destroyed || !job) return;
    history.replaceState(null, "", `#/analysis/${job.key}`);
    await this.poll(job.key);
  }

  /** @param {string} key */
  async poll(key) {
    if (this.destroyed) return;
    /** @type {Job} */
    const job = (await get(`/api/analyses/${encodeURIComponent(key)}`)).analysis;
    if (this.destroyed) return;
    this.job = job;
    if (job.status === "done" && job.document) {
      await this.show(job.document);
      return;
    }
    this.renderWaiting(job);
    if (job.status === "queued" || job.status === "running") {
      this.timer = setTimeout(() => this.poll(key).catch((/** @type {Error} */ err) => this.fail(err)), POLL_MS);
    }
  }

  /** @param {Job} job */
  renderWaiting(job) {
    const names = job.names ? job.names.join(" – ") : "";
    const p = job.progress;
    this.main.replaceChildren(h("section", { class: "review waiting" },
      h("h1", {}, names ? t("Analysis: {names}", { names }) : t("Analysis")),
      h("p", { id: "review-status", class: `review-status ${job.status}`, role: "status" }, waitingText(job)),
      job.status === "running" && p && p.total
        ? h("progress", { max: String(p.total), value: String(p.done), "aria-label": t("Progress") }) : null,
      h("p", { class: "muted" }, t("Analysed at {ply}-ply by the server's engine, apart from the games being played. Keep this page open, or come back to its link later.", { ply: job.ply })),
      this.shareLink(job)));
  }

  /** @param {Job} job */
  shareLink(job) {
    const url = `${location.origin}/#/analysis/${job.key}`;
    return h("p", { class: "share" }, (t("Link to this analysis:") + " "),
      h("input", { type: "text", readonly: true, value: url, id: "share-link", size: 48,
                   onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }));
  }

  /** @param {AnalysisDocument} doc */
  async show(doc) {
    const info = this.app.info || await get("/api/info");
    const variant = info.variants.find((/** @type {{name: string}} */ v) => v.name === doc.variant);
    if (!variant) throw new Error(t("the server does not describe the variant {variant}", { variant: doc.variant }));
    this.doc = doc;
    this.start = variant.board;
    const seen = reviewSide(doc.names, this.app.me ? this.app.me.name : null);
    this.viewer = seen.side;
    this.played = seen.played;
    this.layout(doc);
    this.showGame(0);
  }

  /** @param {AnalysisDocument} doc */
  layout(doc) {
    const job = /** @type {Job} */ (this.job);
    const names = doc.names;
    const title = doc.kind === "match" && doc.match_length
      ? tn("{first} vs {second}: {n}-point match", "{first} vs {second}: {n}-point match", doc.match_length, { first: names[0], second: names[1] })
      : doc.kind === "session" ? t("{first} vs {second}: money session", { first: names[0], second: names[1] })
        : t("{first} vs {second}: game", { first: names[0], second: names[1] });
    clear(this.tabs, doc.games.map((g, i) => h("button", { type: "button", dataset: { game: String(g.number) },
      onclick: () => this.showGame(i) }, t("Game {n}", { n: g.number }))));
    const btn = (/** @type {string} */ label, /** @type {string} */ action, /** @type {string} */ text) =>
      h("button", { type: "button", dataset: { action }, "aria-label": text, title: text, onclick: () => this.step(action) }, label);
    const summary = h("table", { class: "summary", id: "review-summary" },
      h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, names[0]), h("th", {}, names[1]))),
      h("tbody", {}, (doc.summary || []).map((row) => h("tr", {}, h("th", {}, row[0]), h("td", {}, row[1]), h("td", {}, row[2])))));
    const patterns = h("section", { class: "patterns", id: "review-patterns" }, h("h2", {}, t("Habits to work on")),
      (doc.patterns || []).map((found, side) => h("div", {}, h("h3", {}, names[side]),
        found.length ? h("ul", {}, found.map((p) => h("li", {}, h("b", {}, p.name), ` (${p.count}×): ${p.advice}`)))
          : h("p", { class: "muted" }, t("None of the beginners' patterns.")))));
    this.main.replaceChildren(h("div", { class: "record review" },
      h("header", {},
        h("h1", {}, title),
        h("p", { class: "muted" }, [
          t("Analysed by {engine} at {ply}-ply (luck at {luck_ply}-ply).", { engine: doc.engine?.name ?? "gammon", ply: doc.ply, luck_ply: doc.luck_ply }),
          showsMwc(doc) ? t("Figures in match winning chance.") : t("Figures in equity (points a game, per unit of the cube)."),
          t("Marks go by the equity lost, normalised to money: ?! doubtful ({doubtful}), ? bad ({bad}), ?? very bad ({very_bad}); + and − lucky and unlucky rolls.",
            { doubtful: number(0.04, 2), bad: number(0.08, 2), very_bad: number(0.16, 2) }),
        ].join(" ")),
        h("p", { class: "downloads" },
          h("a", { href: `/api/analyses/${job.key}/report.html?lang=${language()}`, download: `analysis-${job.key}.html`, class: "button", id: "report-html" }, t("Download the report (HTML)")), " ",
          h("a", { href: `/api/analyses/${job.key}/report.json`, download: `analysis-${job.key}.json`, class: "button", id: "report-json" }, t("Download the analysis (JSON)")),
          job.table !== null ? [" ", h("a", { href: `#/record/${job.table}` }, t("Record and dice"))] : null),
        this.shareLink(job), this.sideEl),
      doc.games.length > 1 ? this.tabs : null,
      h("div", { class: "record-body" },
        h("div", { class: "replay" }, this.graphEl, this.boardEl, this.stepEl,
          h("div", { class: "controls", role: "toolbar", "aria-label": t("Replay") },
            btn("«", "first", t("First position")), btn("◀", "prev", t("Previous step")),
            btn("▶", "next", t("Next step")), btn("»", "last", t("Last position")),
            btn("◀ ?", "prev-mistake", t("Previous mistake")), btn("? ▶", "next-mistake", t("Next mistake"))),
          this.decisionEl),
        h("aside", { class: "side-col" },
          h("section", { class: "summary-box" }, h("h2", {}, t("Summary")), summary),
          h("section", { class: "log-box" }, h("h2", {}, t("Moves")), this.movesEl),
          patterns))));
  }

  /** @param {number} i */
  showGame(i) {
    const doc = this.doc;
    if (!doc || !this.start) return;
    this.gameIndex = i;
    const game = doc.games[i];
    const log = this.log();
    this.frames = replayFrames(this.start, log);
    this.marks = gameMarks(game, log);
    this.mistakes = mistakeIndices(this.marks);
    for (const b of this.tabs.querySelectorAll("button")) {
      b.setAttribute("aria-current", b.dataset.game === String(game.number) ? "true" : "false");
    }
    this.frame = this.mistakes.length ? this.mistakes[0] : 0;
    this.renderSide();
    this.renderMoves();
    this.renderGraph();
    this.render();
  }

  /** Whose side the review is seen from, and the switch to the other. */
  renderSide() {
    const names = /** @type {AnalysisDocument} */ (this.doc).names;
    const other = 1 - this.viewer;
    clear(this.sideEl,
      this.played && this.viewer === this.seat()
        ? (t("Seen from your side ({player}): the graph is your winning chance, the boards as you sat.", { player: names[this.viewer] }) + " ")
        : this.played
          ? (t("Seen from {player}'s side, your opponent's.", { player: names[this.viewer] }) + " ")
          : (t("Seen from {player}'s side (the first seat: you did not play this match).", { player: names[this.viewer] }) + " "),
      h("button", { type: "button", class: "link", name: "flip-side", onclick: () => this.flip() },
        t("See it from {player}'s side", { player: names[other] })));
  }

  /** The reader's own seat (when they played). */
  seat() {
    const doc = /** @type {AnalysisDocument} */ (this.doc);
    return reviewSide(doc.names, this.app.me ? this.app.me.name : null).side;
  }

  /** Turn the review round: the graph and the boards from the other side. */
  flip() {
    this.viewer = 1 - this.viewer;
    this.renderSide();
    this.renderGraph();
    this.render();
  }

  /** @returns {GameEvent[]} */
  log() {
    const doc = /** @type {AnalysisDocument} */ (this.doc);
    const game = doc.games[this.gameIndex];
    const entry = doc.logs.find((l) => l.number === game.number);
    return entry ? entry.log : [];
  }

  renderMoves() {
    const doc = /** @type {AnalysisDocument} */ (this.doc);
    const log = this.log();
    clear(this.movesEl, log.map((e, i) => {
      const marks = this.marks.get(i) || [];
      return h("li", { dataset: { index: String(i) }, class: marks.some((m) => m.kind !== "luck") ? "marked" : null },
        h("button", { type: "button", class: "link", onclick: () => this.goto(i) }, e.text || e.type),
        marks.map((m) => h("span", { class: `mark ${m.kind === "luck" ? "luck" : "mistake"} ${m.mark.replace(" ", "-")}`,
                                      title: m.kind === "luck" ? markText(m.mark) : `${markText(m.mark)}: ${lossFigure(doc, m.loss, m.cost)}` }, ` ${m.sign}`)));
    }));
  }

  renderGraph() {
    const doc = /** @type {AnalysisDocument} */ (this.doc);
    const game = doc.games[this.gameIndex];
    const log = this.log();
    const viewer = this.viewer;
    const points = graphPoints(game, log.length, viewer);
    const geo = graphGeometry(points, { ...GRAPH, xMax: Math.max(log.length, 1) });
    const svg = s("svg", { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, class: "equity-graph", id: "equity-graph",
                           role: "img", "aria-label": t("{player}'s winning chance over game {game}", { player: doc.names[viewer], game: game.number }),
                           dataset: { side: String(viewer) } });
    svg.append(s("rect", { x: 0, y: 0, width: GRAPH.width, height: GRAPH.height, class: "graph-bg" }));
    for (const level of [0, 0.5, 1]) {
      svg.append(s("line", { x1: GRAPH.pad, x2: GRAPH.width - GRAPH.pad, y1: geo.sy(level), y2: geo.sy(level),
                             class: level === 0.5 ? "graph-mid" : "graph-edge" }));
      svg.append(s("text", { x: GRAPH.pad - 4, y: geo.sy(level) + 4, "text-anchor": "end", class: "graph-label" }, percent(level, 0)));
    }
    svg.append(s("path", { d: geo.path, class: "graph-line" }));
    for (const [index, marks] of this.marks) {
      const x = geo.sx(index);
      const y = geo.sy(geo.valueAt(index));
      for (const m of marks) {
        const said = m.kind === "luck" ? markText(m.mark) : markText(m.mark) + " (" + lossFigure(doc, m.loss, m.cost) + ")";
        const label = doc.names[m.side] + ": " + said;
        if (m.kind === "luck") {
          const up = (m.mark.includes("unlucky") ? -1 : 1) * (m.side === viewer ? 1 : -1) > 0;
          const d = up ? -8 : 8;
          svg.append(s("polygon", { points: `${x - 5},${y} ${x + 5},${y} ${x},${y + d}`, class: `graph-luck ${up ? "up" : "down"}`,
                                    dataset: { index: String(index) } }, s("title", {}, label)));
        } else {
          svg.append(s("circle", { cx: x, cy: y, r: 5, class: `graph-mistake side-${m.side}`, dataset: { index: String(index) } },
            s("title", {}, label)));
        }
      }
    }
    this.cursor = s("line", { y1: GRAPH.pad / 2, y2: GRAPH.height - GRAPH.pad / 2, class: "graph-cursor" });
    svg.append(this.cursor);
    this.geo = geo;
    svg.addEventListener("click", (e) => {
      const rect = svg.getBoundingClientRect();
      const px = ((e.clientX - rect.left) / rect.width) * GRAPH.width;
      const marked = /** @type {Element} */ (e.target).closest("[data-index]");
      this.goto(marked ? Number(/** @type {HTMLElement} */ (marked).dataset.index) : geo.nearest(px));
    });
    clear(this.graphEl, svg, h("p", { class: "legend muted small" },
      t("{player}'s chance to win the game before each roll; dots: mistakes, triangles: luck. Click to go there.", { player: doc.names[viewer] })));
  }

  /** @param {number} index */
  goto(index) {
    this.frame = Math.max(0, Math.min(this.frames.length - 1, index));
    this.render();
  }

  /** @param {string} action */
  step(action) {
    const stepped = steppedFrame(this.frame, this.frames.length - 1, action);
    if (stepped !== null) this.frame = stepped;
    else if (action === "next-mistake" || action === "prev-mistake") {
      const to = stepMistake(this.mistakes, this.frame, action === "next-mistake" ? 1 : -1);
      if (to !== null) this.frame = to;
    }
    this.render();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !this.frames.length) return;
    /** @type {Record<string, string>} */
    const map = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", n: "next-mistake", p: "prev-mistake" };
    if (map[e.key]) {
      e.preventDefault();
      this.step(map[e.key]);
    }
  }

  render() {
    const doc = this.doc;
    if (!doc || !this.frames.length) return;
    const log = this.log();
    const index = this.frame;
    const { replay, event } = this.frames[index];
    const next = log[index];
    const side = /** @type {import("./protocol.js").Side} */ (next && next.side !== undefined ? next.side
      : event && event.side !== undefined ? event.side : 0);
    // Every board from the viewer's side, as they sat at the table (not the side to act).
    const viewer = /** @type {import("./protocol.js").Side} */ (this.viewer);
    const b = replay.boardFor(viewer);
    const cube = doc.cube === false ? null : {
      value: replay.cube.value,
      owner: /** @type {"mine" | "theirs" | null} */ (replay.cube.owner === null ? null : replay.cube.owner === viewer ? "mine" : "theirs"),
      offered: replay.cube.offered,
      offer: replay.cube.offer,
    };
    const rolled = replay.dice;
    const showDice = event && (event.type === "rolled" || event.type === "opening") && rolled;
    const dice = showDice && rolled ? (rolled[0] === rolled[1] ? [rolled[0], rolled[0], rolled[0], rolled[0]] : rolled)
      .map((value) => ({ value, used: false })) : null;
    this.board.render({ ...b, colors: [viewer, 1 - viewer], dice, diceMine: replay.roller === viewer, cube });
    const total = this.frames.length - 1;
    this.stepEl.textContent = next
      ? t("Step {step} of {total}: {event} · {player} to act · pips: {first} {first_pips}, {second} {second_pips}", {
        step: index, total, event: next.text || next.type, player: doc.names[side],
        first: doc.names[viewer], first_pips: b.pips[0], second: doc.names[1 - viewer], second_pips: b.pips[1],
      })
      : t("End of game {game} · step {total} of {total}", { game: doc.games[this.gameIndex].number, total });
    markCurrent(this.movesEl, (li) => li.dataset.index === String(index));
    if (this.cursor && this.geo) {
      const x = this.geo.sx(index);
      this.cursor.setAttribute("x1", String(x));
      this.cursor.setAttribute("x2", String(x));
    }
    this.renderDecision(index);
  }

  /** @param {number} index */
  renderDecision(index) {
    const doc = /** @type {AnalysisDocument} */ (this.doc);
    const game = doc.games[this.gameIndex];
    const { checker, cube, luck, explanations } = decisionAt(doc, game, this.log(), index);
    const names = doc.names;
    const parts = [];
    if (checker) {
      const said = { player: names[checker.side], play: checker.played, dice: checker.dice.join("-") };
      parts.push(h("h2", {}, checker.mark
        ? t("{player} played {play} with {dice}: {mark} ({loss})",
          { ...said, mark: markText(checker.mark), loss: lossFigure(doc, checker.loss, checker.cost) })
        : t("{player} played {play} with {dice}: best or close to it", said)));
      parts.push(h("table", { class: "candidates" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Play")), h("th", {}, unitName(doc)), h("th", {}, t("Loss")),
          h("th", {}, t("Win")), h("th", {}, t("Gammon")), h("th", {}, t("Lose g.")))),
        h("tbody", {}, checker.candidates.map((c, n) => h("tr", { class: c.play === checker.played ? "played" : null },
          h("td", {}, String(n + 1)), h("td", { class: "play" }, c.play), h("td", {}, figure(doc, c.equity, c.mwc)),
          h("td", {}, c.loss ? candidateLoss(doc, checker.candidates[0], c) : ""), h("td", {}, pct(c.chances[0])), h("td", {}, pct(c.chances[1])),
          h("td", {}, pct(c.chances[3])))))));
    }
    if (cube) {
      const answerMistake = cube.taker_loss > cube.doubler_loss;
      const who = answerMistake ? 1 - cube.side : cube.side;
      const action = cubeDoneText((answerMistake ? cube.response : cube.doubled ? "double" : "no double") || "");
      const mark = answerMistake ? cube.taker_mark : cube.doubler_mark;
      const loss = answerMistake ? lossFigure(doc, cube.taker_loss, cube.taker_cost) : lossFigure(doc, cube.doubler_loss, cube.doubler_cost);
      const verdict = verdictText(cube.verdict);
      parts.push(h("h2", {}, mark
        ? t("Cube: {player} — {action} ({mark}, {loss}); right: {verdict}", { player: names[who], action, mark: markText(mark), loss, verdict })
        : t("Cube: {player} — {action}; right: {verdict}", { player: names[who], action, verdict })));
      parts.push(h("table", { class: "candidates cube-table" }, h("tbody", {},
        h("tr", {}, h("th", {}), h("th", {}, showsMwc(doc) ? t("{player}'s match winning chance", { player: names[cube.side] })
          : t("{player}'s equity", { player: names[cube.side] }))),
        h("tr", {}, h("th", {}, t("No double")), h("td", {}, figure(doc, cube.no_double, cube.no_double_mwc))),
        h("tr", {}, h("th", {}, t("Double, take")), h("td", {}, figure(doc, cube.double_take, cube.double_take_mwc))),
        h("tr", {}, h("th", {}, t("Double, pass")), h("td", {}, figure(doc, cube.double_pass, cube.double_pass_mwc))),
        h("tr", {}, h("th", {}, t("{player} wins", { player: names[cube.side] })),
          h("td", {}, t("{win} (gammon {gammon}, loses a gammon {lose})",
            { win: pct(cube.chances[0]), gammon: pct(cube.chances[1]), lose: pct(cube.chances[3]) }))))));
    }
    if (luck && luck.mark) {
      parts.push(h("p", { class: `luck-note ${luck.luck > 0 ? "lucky" : "unlucky"}` },
        t("{player} rolls {dice}: {mark} ({gain})",
          { player: names[luck.side], dice: luck.dice.join("-"), mark: markText(luck.mark), gain: gainFigure(doc, luck.luck, luck.cost) })));
    }
    for (const e of explanations) parts.push(h("p", { class: "why" }, e.text));
    const where = /** @type {{position_id?: string | null, match_id?: string} | null} */ (checker || cube);
    if (where && where.position_id) {
      const text = where.match_id ? `${where.position_id}:${where.match_id}` : where.position_id;
      parts.push(h("p", { class: "small" }, h("a", { id: "decision-on-board", href: positionLink(text) },
        t("Open this position in the analysis board"))));
    }
    if (!parts.length) parts.push(h("p", { class: "muted" }, t("No decision here (a roll, or a forced play). Step on, or jump to the next mistake.")));
    clear(this.decisionEl, parts);
  }
}
