// @ts-check
// One table page: the board, the player's moves (click or drag, undo, confirm), the
// controls, clocks, the game log, hints against the bot (R15) and the table chat. It puts
// the pieces together: messaging (table-connection.js), the move logic (moves.js),
// drawing (board.js) and pointer input (drag.js), the controls (table-controls.js) and
// the words (table-text.js).
//
// Nothing goes to the server until the player confirms a whole play. The board and the
// legal plays are the server's; before the first game the board is the variant's start
// as `/api/info` gives it.

import { BoardView } from "./board.js";
import { ChatPanel } from "./chat.js";
import { BoardInput } from "./drag.js";
import { MoveInput } from "./moves.js";
import { TableConnection } from "./table-connection.js";
import { controlButtons, renderPlayList } from "./table-controls.js";
import { ResultScreen } from "./result-screen.js";
import { number, t, tn } from "./i18n.js";
import { cubeModel, diceText, gameResultText, nameOf, resultText, shownReserve, statusText } from "./table-text.js";
import { PracticePanel } from "./practice.js";
import { settings } from "./settings.js";
import { TableMotion } from "./table-motion.js";
import { tournamentWatch } from "./tournament-notices.js";
import { clear, clockText, describeSettings, h } from "./util.js";

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").Side} Side */
/** @typedef {import("./protocol.js").ActionType} ActionType */
/** @typedef {import("./protocol.js").HintPlay} HintPlay */
/** @typedef {import("./protocol.js").PreviousGame} PreviousGame */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./board.js").BoardModel} BoardModel */
/** @typedef {import("./app.js").App} App */

/**
 * @param {HTMLElement} main
 * @param {{id: number, join: boolean}} params
 * @param {App} app
 */
export function mountTable(main, params, app) {
  return new TableView(main, params, app);
}

class TableView {
  /**
   * @param {HTMLElement} main
   * @param {{id: number, join: boolean}} params
   * @param {App} app
   */
  constructor(main, { id, join }, app) {
    this.id = id;
    this.app = app;
    this.main = main;
    this.autoJoin = join;
    /** @type {State | null} */
    this.state = null;
    /** @type {MoveInput | null} */
    this.input = null;
    /** @type {number | null} */
    this.inputSeq = null;
    /** @type {number | null} the checker picked up */
    this.selected = null;
    /** @type {number | null} the die a one-click move uses first (fast entry), by value */
    this.chosenDie = null;
    this.wasSelected = false;
    /** @type {HintPlay[] | null} */
    this.hints = null;
    /** @type {{plays: HintPlay[], cube?: import("./protocol.js").CubeHint | null, ply?: number} | null} */
    this.hint = null;
    /** Whether the tutor's switch was sent on this connection. */
    this.tutorSent = false;
    /** @type {number | null} the seq an action was sent on, until its answer */
    this.busy = null;
    /** @type {{received: number} | null} when the last state arrived (performance.now) */
    this.clockAnchor = null;
    /** @type {number | null} */
    this.seenPrevious = null;
    this.players = [h("div", { class: "player" }), h("div", { class: "player" })];
    this.boardEl = h("div", { class: "board-wrap", id: "board" });
    this.controls = h("div", { class: "controls", role: "toolbar", "aria-label": t("Game actions") });
    this.statusEl = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.toolsEl = h("div"); // the motion's buttons (table-motion.js) take its place
    this.errorEl = h("p", { class: "error", role: "alert", hidden: true });
    /** Said in words while the connection is lost (the controls alone only grey out). */
    this.connEl = h("p", { class: "connection", id: "connection", role: "status", hidden: true });
    /** Whether the page shows the connection as lost. */
    this.lost = false;
    /** The last line of the game log, under the board (on a phone the log is below the fold). */
    this.lastPlayEl = h("p", { class: "last-play", id: "last-play", "aria-hidden": "true" });
    this.infoEl = h("div", { class: "info" });
    this.bannerEl = h("div", { class: "banners" });
    this.hintEl = h("section", { class: "hints", hidden: true, "aria-label": t("Hints") });
    this.tutorEl = h("div", { class: "tutor-box", "aria-live": "polite" });
    this.practiceEl = h("section", { class: "practice", hidden: true, "aria-label": t("Practice") });
    this.practice = new PracticePanel(this.hintEl, this.tutorEl, {
      act: (type, extra) => this.act(type, extra),
      send: (m) => { this.conn.send(m); },
      showPlay: (play) => this.showPlay(play),
    });
    this.logEl = h("ol", { class: "log", "aria-label": t("Game log") });
    this.listEl = /** @type {HTMLDetailsElement} */ (h("details", { class: "playlist", hidden: true }));
    this.chat = new ChatPanel({ send: (m) => this.conn.send(m), me: this.app.me, title: t("Table chat") });
    this.build(main);
    this.board = new BoardView(this.boardEl);
    this.result = new ResultScreen(id, (hash) => this.app.go(hash));
    this.boardEl.append(this.result.el); // over the board: seen without scrolling
    this.motion = new TableMotion(this.board, {
      state: () => this.state,
      model: () => this.boardModel(),
      redraw: () => this.renderBoard(),
      act: (type) => this.act(type),
      busy: () => this.busy !== null,
    });
    this.toolsEl.replaceWith(this.motion.tools);
    this.pointer = new BoardInput(this.board, {
      onDown: (p) => this.down(p),
      onUp: (from, to, dragged) => this.up(from, to, dragged),
      onRoll: () => this.act("roll"),
      onDie: (i) => this.clickDie(i),
      onPress: () => { this.result.hideGame(); return this.motion.skip(); },
    });
    this.conn = new TableConnection(id, {
      onState: (st) => this.onState(st),
      onError: (m, request) => this.onError(m, request),
      onMessage: (m) => this.onMessage(m),
      onOpen: () => { this.busy = null; this.tutorSent = false; },
      onFatal: (code, reason) => this.fatal(code, reason),
    });
    this.tick = setInterval(() => { this.renderClocks(); this.renderHold(); this.renderConnection(); }, 250);
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    // The browser knows first when the network goes: a socket may stay "open" for a while.
    this.onOffline = () => { this.conn.live.drop(); this.renderConnection(); };
    this.onOnline = () => { this.conn.live.retryNow(); };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
  }

  destroy() {
    this.conn.close();
    this.motion.destroy();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
  }

  /** Say so beside the controls while the connection is lost, and grey them out. */
  renderConnection() {
    const lost = this.conn.live.reconnecting || !navigator.onLine;
    if (lost === this.lost) return;
    this.lost = lost;
    this.renderBoard();
    this.connEl.hidden = !lost;
    this.connEl.textContent = lost
      ? navigator.onLine
        ? t("The connection to the server is lost: reconnecting… Your game waits on the server.")
        : t("This device is offline: the game reconnects by itself when the network is back. Your game waits on the server.")
      : "";
    if (lost) this.showError(null);
    if (this.state) this.renderControls();
  }

  /** For the tests and debugging: the socket (`live.drop()` simulates a lost network). */
  get live() {
    return this.conn.live;
  }

  // -- layout ----------------------------------------------------------------------------

  /** @param {HTMLElement} main */
  build(main) {
    main.replaceChildren(
      h("div", { class: "table-view" },
        h("div", { class: "board-col" },
          this.players[1], this.boardEl, this.players[0],
          this.controls, this.connEl, this.errorEl, this.statusEl, this.lastPlayEl, this.toolsEl),
        h("aside", { class: "side-col" },
          this.infoEl, this.bannerEl, this.tutorEl, this.hintEl, this.practiceEl,
          h("section", { class: "log-box", "aria-label": t("Game log") }, h("h2", {}, t("Moves")), this.logEl),
          this.listEl, this.chat.el)),
    );
  }

  /**
   * The socket was closed for good: no such table, signed out, or removed by an operator.
   * @param {number} code
   * @param {string} reason
   */
  fatal(code, reason) {
    if (code === 4404) {
      document.title = t("No such table · gammon");
      this.main.replaceChildren(h("section", { class: "missing", "aria-labelledby": "missing-title" },
        h("h1", { id: "missing-title" }, t("No such table")),
        h("p", {}, t("There is no table {id}: the link may be wrong, or the table never existed.", { id: this.id })),
        h("p", {}, h("a", { href: "#/", class: "button primary" }, t("Back to the lobby")))));
      return;
    }
    this.statusEl.textContent = reason;
    this.controls.replaceChildren(h("a", { href: "#/", class: "button" }, t("Back to the lobby")));
  }

  // -- messages ----------------------------------------------------------------------------

  /** @param {ServerMessage} m */
  onMessage(m) {
    if (this.chat.handle(m)) return;
    if (m.type === "hello") {
      this.chat.setRules(m.house_rules);
    } else if (m.type === "ack") {
      this.showError(null);
    } else if (m.type === "hint") {
      if (this.state && m.seq === this.state.seq) {
        this.hints = m.plays;
        this.hint = m;
        this.renderHints();
      }
    } else if (m.type === "tutor") {
      this.practice.warn(m);
      if (this.state) this.renderControls();
    } else if (m.type === "rematch") {
      this.result.onRematch(m);
    }
  }

  /**
   * @param {import("./protocol.js").ErrorMessage} m
   * @param {import("./table-connection.js").Request | null} request
   */
  onError(m, request) {
    if (this.chat.handle(m)) return;
    this.busy = null;
    if (m.code !== "stale") this.showError(m.message);
    if (request) this.render();
  }

  /** @param {State} st */
  onState(st) {
    const previous = this.state;
    this.state = st;
    const now = performance.now();
    this.clockAnchor = { received: now };
    const g = st.game;
    if (g && g.actions.includes("play") && g.dice) {
      if (!this.input || this.inputSeq !== st.seq) {
        this.input = new MoveInput(g.board, g.dice, g.legal_plays);
        this.inputSeq = st.seq;
        this.selected = null;
        this.chosenDie = null;
      }
    } else {
      this.input = null;
      this.selected = null;
    }
    if (!previous || previous.seq !== st.seq) {
      this.busy = null;
      this.hints = null;
      this.hint = null;
    }
    this.practice.onState(st);
    this.renderPractice(st);
    // A game that ended while the match goes on: say so, with its dice check.
    const finished = st.previous_games || [];
    if (this.seenPrevious === null) this.seenPrevious = finished.length;
    for (const game of finished.slice(this.seenPrevious)) this.announce(game);
    this.seenPrevious = finished.length;
    if (st.status === "finished") this.result.showMatch(st);
    else if (this.result.showing === "game" && st.game && st.game.log.some((e) => e.type === "moved")) {
      this.result.hide(); // the next game is being played: the board is what matters now
    }
    const me = this.app.me;
    const creator = st.players[0];
    if (this.autoJoin && st.status === "open" && me && creator && creator.name !== me.name) {
      this.autoJoin = false;
      this.act("join");
    }
    this.motion.onState(previous, st);
    this.render();
    this.motion.afterRender(previous, st);
  }

  /** @param {PreviousGame} game */
  announce(game) {
    if (!this.state) return;
    this.result.showGame(this.state, game);
    this.bannerEl.append(h("p", { class: "banner" },
      t("Game {number}: {result}", { number: number(game.number), result: gameResultText(this.state, game.result) }), " ",
      h("a", { href: `#/record/${this.id}/${game.number}`, target: "_blank", rel: "noopener" },
        t("Verify the dice"))));
  }

  /**
   * Send a game action on the state shown, unless one is on its way.
   * @param {ActionType} type
   * @param {Record<string, unknown>} [extra]
   */
  act(type, extra = {}) {
    this.result.hideGame(); // the player goes on: the last game's result gives way
    const st = this.state;
    if (!st || this.busy === st.seq) return;
    if (type === "hint" && this.practice.ply !== null && extra.ply === undefined) {
      extra = { ...extra, ply: this.practice.ply };
    }
    if (this.conn.act(type, extra) === null) {
      this.showError(t("Not connected: reconnecting, try again in a moment."));
      return;
    }
    if (type !== "hint") {
      this.practice.acted(type);
      this.busy = st.seq;
      this.render();
    }
  }

  /** @param {string | null} text */
  showError(text) {
    this.errorEl.hidden = !text;
    // The server's refusals are phrases ("only your own last play..."): said as a sentence.
    const sentence = text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
    this.errorEl.textContent = sentence && !/[.!?…]$/.test(sentence) ? `${sentence}.` : sentence;
  }

  // -- the player's moves --------------------------------------------------------------------

  get movable() {
    return this.input && this.busy === null ? this.input.movable() : new Set();
  }

  get dests() {
    if (!this.input || this.selected === null) return new Map();
    return this.input.destinations(this.selected);
  }

  /**
   * A press on a point: move the picked-up checker there, or pick one up.
   * @param {number | null} point
   * @returns {boolean} whether a drag may start
   */
  down(point) {
    if (!this.input || point === null) {
      this.select(null);
      return false;
    }
    if (this.selected !== null && this.dests.has(point)) {
      this.move(this.selected, point);
      return false;
    }
    if (this.movable.has(point)) {
      this.wasSelected = this.selected === point;
      this.selected = point;
      this.renderBoard();
      return true;
    }
    this.select(null);
    return false;
  }

  /**
   * @param {number} from
   * @param {number | null} to
   * @param {boolean} dragged
   */
  up(from, to, dragged) {
    if (!dragged && this.input && settings.get().fastEntry) {
      // Fast entry: one click moves the checker by the chosen (else the higher) die.
      const target = this.input.oneClickTarget(from, this.chosenDie);
      if (target !== null) {
        this.move(from, target);
        return;
      }
    }
    if (dragged) {
      if (to !== null && to !== from && this.input && this.input.destinations(from).has(to)) {
        this.move(from, to);
        return;
      }
    } else if (this.wasSelected) {
      this.selected = null;
    }
    this.renderBoard();
  }

  /** @param {number | null} point */
  select(point) {
    this.selected = point;
    this.renderBoard();
  }

  /**
   * @param {number} from
   * @param {number} to
   */
  move(from, to) {
    if (!this.input) return;
    if (this.input.move(from, to)) {
      this.selected = null;
      this.showError(null);
      if (this.input.complete && settings.get().autoConfirm) {
        this.confirm();
        return;
      }
    }
    this.render();
    this.focusConfirm();
  }

  /**
   * A click on one of the player's dice: with the play complete it confirms it (as in XG);
   * else that die is the one a one-click move uses (fast entry).
   * @param {number} index
   */
  clickDie(index) {
    if (!this.input) return;
    if (this.input.complete) {
      this.confirm();
      return;
    }
    const die = this.input.diceState()[index];
    if (die && !die.used) {
      this.chosenDie = die.value;
      this.renderBoard();
    }
  }

  focusConfirm() {
    if (this.input && this.input.complete) {
      const confirm = /** @type {HTMLButtonElement | null} */ (this.controls.querySelector("[data-action=confirm]"));
      if (confirm) confirm.focus();
    }
  }

  undo() {
    if (this.input && this.input.undo()) {
      this.selected = null;
      this.render();
    }
  }

  confirm() {
    const play = this.input && this.input.complete;
    if (play) this.act("play", { play: play.play });
  }

  /** @param {string} text a play from the legal plays (the list, or a hint) */
  showPlay(text) {
    if (!this.input || !this.state || !this.state.game) return;
    const play = this.state.game.legal_plays.find((p) => p.play === text);
    if (play && this.input.setPlay(play)) {
      this.selected = null;
      this.render();
      this.focusConfirm();
    }
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const g = this.state && this.state.game;
    const actions = g ? g.actions : [];
    const k = e.key.toLowerCase();
    // A key finishes a play shown moving; Escape does only that.
    if (this.motion.skip() && k === "escape") return;
    if ((k === "r" || k === " ") && actions.includes("roll")) this.act("roll");
    else if (k === "d" && actions.includes("double")) this.act("double");
    else if (k === "enter" && this.input && this.input.complete && tag !== "BUTTON") this.confirm();
    else if ((k === "u" || k === "backspace") && this.input) this.undo();
    else if (k === "escape") this.select(null);
    else if (k === "h" && actions.includes("hint")) this.act("hint");
    else return;
    e.preventDefault();
  }

  // -- drawing -------------------------------------------------------------------------------

  /** @returns {Side} */
  get viewer() {
    return this.state && this.state.you !== null ? this.state.you : 0;
  }

  render() {
    if (!this.state) return;
    this.renderBoard();
    this.renderPlayers();
    this.renderControls();
    this.renderInfo();
    this.renderLog();
    this.renderHints();
    renderPlayList(this.listEl, this.input, (play) => this.showPlay(play));
  }

  /** @returns {BoardModel} */
  boardModel() {
    const st = /** @type {State} */ (this.state);
    const g = st.game;
    const viewer = this.viewer;
    const colors = [viewer, 1 - viewer];
    const cube = cubeModel(st, viewer);
    if (!g) {
      // Before the first game: the variant's starting board, as the server describes it.
      const variant = this.app.info && this.app.info.variants.find((v) => v.name === st.settings.variant);
      const b = variant ? variant.board : null;
      const empty = new Array(25).fill(0);
      return { mine: b ? b.mine : empty, theirs: b ? b.theirs : empty, off: b ? b.off : [0, 0],
               waiting: b ? b.waiting : [0, 0], colors, dice: null, cube };
    }
    let { mine, theirs, off, waiting } = g.board;
    let dice = null;
    const onRoll = g.on_roll === null ? g.turn : g.on_roll;
    if (this.input) {
      const b = this.input.board;
      mine = b.mine;
      theirs = b.theirs;
      off = [b.off, g.board.off[1]];
      waiting = [b.waiting, g.board.waiting[1]];
      dice = this.input.diceState();
      if (settings.get().fastEntry) {
        // The die a click uses: the chosen one while unused, else the highest unused.
        const pick = this.input.oneClickDie(this.chosenDie);
        const i = dice.findIndex((d) => !d.used && d.value === pick);
        dice = dice.map((d, j) => ({ ...d, chosen: j === i }));
      }
    } else if (g.dice) {
      const [a, b] = g.dice;
      dice = (a === b ? [a, a, a, a] : [a, b]).map((value) => ({ value, used: false }));
    }
    // The opponent's last play, marked on the board.
    const last = new Set();
    const moved = [...(g.log || [])].reverse().find((e) => e.type === "moved");
    if (moved && moved.side !== viewer && st.you !== null) {
      for (const [from, to] of moved.moves || []) {
        for (const p of [from, to]) if (p >= 1 && p <= 24) last.add(25 - p);
      }
    }
    return {
      mine, theirs, off, waiting, colors, dice,
      diceMine: onRoll === viewer,
      cube,
      selected: this.selected,
      dests: new Set(this.dests.keys()),
      movable: this.movable,
      canRoll: g.actions.includes("roll") && this.busy === null && !this.lost,
      last,
      spent: g.dice ? null : this.motion.spent(st),
      diceClickable: this.input !== null,
    };
  }

  renderBoard() {
    if (!this.state) return;
    this.motion.draw(this.boardModel());
  }

  renderPlayers() {
    const st = /** @type {State} */ (this.state);
    const viewer = this.viewer;
    const g = st.game;
    const pips = g ? g.board.pips : [null, null];
    for (const [slotIndex, side] of [[0, viewer], [1, 1 - viewer]]) {
      const p = st.players[side];
      const score = st.series ? st.series.score[side] : null;
      const turn = g && (g.turn === side || (g.turn === null && g.phase === "opening"));
      const el = this.players[slotIndex];
      el.className = `player ${slotIndex === 0 ? "bottom" : "top"}${turn && st.status === "playing" ? " to-act" : ""}`;
      const pip = pips[slotIndex];
      clear(el,
        h("span", { class: `stone side${side}`, "aria-hidden": "true" }),
        h("span", { class: "name" }, p ? p.name : t("waiting for an opponent…"),
          p && !p.connected ? h("span", { class: "away", title: t("disconnected") }, " ", t("(away)")) : null,
          st.you === side ? h("span", { class: "you" }, " ", t("(you)")) : null),
        h("span", { class: "pips", title: t("pip count") },
          pip !== null && pip !== undefined ? tn("{n} pip", "{n} pips", pip) : ""),
        score !== null ? h("span", { class: "score", title: t("score") }, number(score)) : null,
        st.clock ? h("span", { class: "clock", dataset: { side: String(side) } }, "") : null);
    }
    this.renderClocks();
  }

  renderClocks() {
    const st = this.state;
    if (!st || !st.clock || !this.clockAnchor) return;
    const c = st.clock;
    const anchor = this.clockAnchor;
    const now = performance.now();
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (this.main.querySelectorAll(".player .clock"))) {
      const side = Number(el.dataset.side);
      const running = c.running === side && st.status === "playing";
      // remaining_ms is as of the message; from then on the clock runs after its delay.
      const ms = running
        ? shownReserve(c, /** @type {Side} */ (side), now - anchor.received)
        : c.remaining_ms[side];
      el.textContent = clockText(ms);
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms < 30000);
    }
  }

  renderControls() {
    const st = /** @type {State} */ (this.state);
    const g = st.game;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active && active.dataset ? active.dataset.action : null;
    // A state that arrives while the resign menu is open (the opponent acted) keeps it open.
    const menuOpen = this.controls.querySelector("details.menu[open]") !== null;
    clear(this.controls, controlButtons({
      state: st, id: this.id, me: this.app.me, input: this.input, busy: this.busy !== null || this.lost,
      act: (type, extra) => this.act(type, extra), undo: () => this.undo(), confirm: () => this.confirm(),
      holding: this.practice.holding, keep: () => { this.practice.keep(); this.renderControls(); },
    }));
    let status = statusText(st, this.input && this.input.complete ? this.input.complete.play : null);
    if (st.status === "open") {
      const creator = nameOf(st, 0);
      const me = this.app.me;
      status = me && creator === me.name
        ? st.settings.invite ? t("Waiting for {player} to join…", { player: st.settings.invite })
          : t("Waiting for an opponent to join…")
        : t("{player} is waiting for an opponent.", { player: creator });
    }
    this.statusEl.textContent = this.practice.holdText() || status;
    const menu = /** @type {HTMLDetailsElement | null} */ (this.controls.querySelector("details.menu"));
    if (menu && menuOpen) menu.open = true;
    const mine = g && st.you !== null && g.actions.some((a) => !["resign", "forfeit", "hint"].includes(a));
    document.title = mine ? t("● Your turn · Table {id} · gammon", { id: this.id }) : t("Table {id} · gammon", { id: this.id });
    if (focused) {
      const again = /** @type {HTMLButtonElement | null} */ (this.controls.querySelector(`[data-action="${focused}"]`));
      if (again && !again.disabled) again.focus();
    }
  }

  /** The countdown of the bot's wait for the answer to the tutor, in the status line. */
  renderHold() {
    const text = this.practice.holdText();
    if (text && this.statusEl.textContent !== text) this.statusEl.textContent = text;
  }

  renderInfo() {
    const st = /** @type {State} */ (this.state);
    const parts = [h("h1", {}, t("Table {id}", { id: st.table })), h("p", { class: "muted" }, describeSettings(st.settings))];
    const series = st.series;
    if (series) {
      const names = [nameOf(st, 0), nameOf(st, 1)];
      const values = { length: number(series.length), game: number(series.game_number), player0: names[0],
        score0: number(series.score[0]), score1: number(series.score[1]), player1: names[1] };
      let line = series.mode === "match"
        ? t("Match to {length} · game {game} · {player0} {score0} – {score1} {player1}", values)
        : t("Money · game {game} · {player0} {score0} – {score1} {player1}", values);
      if (series.crawford) line = t("{line} · Crawford game", { line });
      parts.push(h("p", { class: "score-line" }, line));
    }
    if (st.game && st.game.crawford && st.settings.cube && st.status === "playing") {
      parts.push(h("p", { class: "crawford-note" }, t("Crawford game: no cube, nobody may double.")));
    }
    // A tournament's match says so (the state's `tournament`), by name when this page
    // watches the tournament (the player's own).
    const watched = tournamentWatch.tournamentOf(st.table);
    const tournamentId = st.tournament ? st.tournament.id : watched ? watched.id : null;
    if (tournamentId !== null) {
      const name = watched && watched.id === tournamentId ? watched.name : t("number {id}", { id: tournamentId });
      parts.push(h("p", { class: "tournament-of", id: "tournament-of" },
        t("A match of the tournament {name}:", { name }), " ",
        h("a", { href: `#/tournament/${tournamentId}` }, t("back to the tournament"))));
    }
    if (st.spectators) parts.push(h("p", { class: "muted" }, tn("{n} watching", "{n} watching", st.spectators)));
    if (st.status === "finished") {
      parts.push(h("div", { class: "result", role: "status" },
        h("strong", {}, resultText(st)), " ",
        h("a", { href: `#/record/${this.id}` }, t("Verify the dice & replay")),
        // A match neither player came to was never played: it has no .mat (1.6).
        st.result && st.result.reason === "no_show" ? null : [" · ",
          h("a", { href: `/api/tables/${this.id}/mat`, download: `table-${this.id}.mat` }, t("Download .mat"))]));
    } else if (st.game && st.game.result) {
      parts.push(h("p", { class: "result" }, gameResultText(st, st.game.result)));
    }
    clear(this.infoEl, parts);
  }

  renderLog() {
    const st = /** @type {State} */ (this.state);
    const g = st.game;
    const items = [];
    const log = g ? g.log : [];
    const line = (/** @type {number | undefined} */ side, /** @type {number[]} */ dice, /** @type {string} */ what) =>
      h("li", { class: `side${side}` },
        h("span", { class: "who" }, nameOf(st, side)), " ",
        h("span", { class: "dice-text" }, diceText(dice)), ": ", h("span", { class: "play" }, what));
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      const next = log[i + 1];
      if (e.type === "rolled" && next && (next.type === "moved" || next.type === "passed") && next.side === e.side) {
        items.push(line(e.side, e.dice || [], next.type === "moved" ? next.play || "" : t("cannot move")));
        i += 1;
      } else if (e.type === "moved") {
        items.push(line(e.side, e.dice || [], e.play || ""));
      } else {
        items.push(h("li", { class: e.side !== undefined ? `side${e.side}` : "" }, e.text || e.type));
      }
    }
    clear(this.logEl, items);
    this.logEl.scrollTop = this.logEl.scrollHeight;
    const last = items[items.length - 1];
    this.lastPlayEl.textContent = last ? t("Last: {line}", { line: last.textContent }) : "";
  }

  renderHints() {
    if (!this.hint) {
      this.practice.hide();
      return;
    }
    this.practice.show(this.hint);
  }

  /**
   * Practice (docs/PROTOCOL.md 4.5): the depth and tutor settings for a player at a practice
   * table, and the tutor's switch sent once per connection.
   * @param {State} st
   */
  renderPractice(st) {
    const on = st.you !== null && st.status === "playing" && Boolean(st.settings.bot || st.settings.practice);
    this.practiceEl.hidden = !on;
    if (!on) return;
    if (!this.tutorSent) {
      this.tutorSent = true;
      this.practice.sync();
    }
    if (!this.practiceEl.firstChild) clear(this.practiceEl, this.practice.settings());
  }
}
