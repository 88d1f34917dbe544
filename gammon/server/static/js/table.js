// One table: the board, the player's moves (click or drag, undo, confirm), the cube,
// resignations, clocks, the game log, hints against the bot (R15) and the table chat.
//
// Nothing goes to the server until the player confirms a whole play; every game
// action carries fresh entropy for the dice (DICE.md) and the table's seq.

import { BoardView } from "./board.js";
import { ChatPanel } from "./chat.js";
import { confirmSent, dropSent, keepCommitment, keepSent } from "./fairdice.js";
import { MoveInput, Replay } from "./rules.js";
import { Live } from "./socket.js";
import { KINDS, clear, clockText, describeSettings, h, randomHex } from "./util.js";

const GAME_ACTIONS = new Set([
  "roll", "double", "take", "drop", "beaver", "play", "choose_double", "resign",
  "accept_resignation", "reject_resignation", "forfeit",
]);

function rollsIn(log) {
  return (log || []).filter((e) => e.type === "opening" || e.type === "rolled").length;
}

export function mountTable(main, params, app) {
  const view = new TableView(main, params, app);
  return view;
}

class TableView {
  constructor(main, { id, join }, app) {
    this.id = id;
    this.app = app;
    this.autoJoin = join;
    this.state = null;
    this.input = null;
    this.inputSeq = null;
    this.selected = null;
    this.hints = null;
    this.busy = null;
    this.requests = new Map();
    this.nextId = 1;
    this.clockAnchor = null;
    this.seenPrevious = null;
    this.build(main);
    this.live = new Live(`/ws/tables/${id}`, {
      onMessage: (m) => this.onMessage(m),
      onOpen: () => {
        // Answers to what was sent before a drop will not come: the new state tells.
        this.requests.clear();
        this.busy = null;
      },
      onFatal: (code, reason) => this.fatal(reason),
    });
    this.tick = setInterval(() => this.renderClocks(), 250);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    this.live.close();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
  }

  // -- layout ----------------------------------------------------------------------------

  build(main) {
    const me = this.app.me;
    this.players = [0, 1].map(() => ({
      el: h("div", { class: "player" }),
    }));
    this.boardEl = h("div", { class: "board-wrap", id: "board" });
    this.controls = h("div", { class: "controls", role: "toolbar", "aria-label": "Game actions" });
    this.statusEl = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.errorEl = h("p", { class: "error", role: "alert", hidden: true });
    this.infoEl = h("div", { class: "info" });
    this.bannerEl = h("div", { class: "banners" });
    this.hintEl = h("section", { class: "hints", hidden: true, "aria-label": "Hints" });
    this.logEl = h("ol", { class: "log", "aria-label": "Game log" });
    this.listEl = h("details", { class: "playlist", hidden: true });
    this.chat = new ChatPanel({ send: (m) => this.send(m), me, title: "Table chat" });
    main.replaceChildren(
      h("div", { class: "table-view" },
        h("div", { class: "board-col" },
          this.players[1].el, this.boardEl, this.players[0].el,
          this.controls, this.statusEl, this.errorEl),
        h("aside", { class: "side-col" },
          this.infoEl, this.bannerEl, this.hintEl,
          h("section", { class: "log-box", "aria-label": "Game log" }, h("h2", {}, "Moves"), this.logEl),
          this.listEl, this.chat.el)),
    );
    this.board = new BoardView(this.boardEl, {
      onDown: (p) => this.down(p),
      onUp: (from, to, dragged) => this.up(from, to, dragged),
      onRoll: () => this.act("roll"),
    });
  }

  fatal(reason) {
    this.statusEl.textContent = reason;
    this.controls.replaceChildren(h("a", { href: "#/", class: "button" }, "Back to the lobby"));
  }

  // -- messages ----------------------------------------------------------------------------

  send(message) {
    const id = this.nextId++;
    return this.live.send({ ...message, id }) ? id : null;
  }

  onMessage(m) {
    if (this.chat.handle(m)) return;
    switch (m.type) {
      case "hello":
        this.chat.setRules(m.house_rules);
        break;
      case "state":
        this.onState(m);
        break;
      case "ack": {
        const request = this.requests.get(m.id);
        this.requests.delete(m.id);
        if (request && request.hex && request.game) confirmSent(this.id, request.game, request.hex, m.seq);
        this.showError(null);
        break;
      }
      case "error": {
        const request = this.requests.get(m.id);
        this.requests.delete(m.id);
        if (request && request.hex && request.game) dropSent(this.id, request.game, request.hex);
        this.busy = null;
        if (m.code !== "stale") this.showError(m.message);
        if (request) this.render();
        break;
      }
      case "hint":
        if (this.state && m.seq === this.state.seq) {
          this.hints = m.plays;
          this.renderHints();
        }
        break;
      default:
        break;
    }
  }

  onState(st) {
    const previous = this.state;
    this.state = st;
    const now = performance.now();
    if (!this.clockAnchor || this.clockAnchor.seq !== st.seq) {
      this.clockAnchor = { seq: st.seq, start: now };
    }
    this.clockAnchor.received = now;
    const g = st.game;
    if (g && !g.seed && !g.result) keepCommitment(this.id, g.number, g.commitment);
    if (g && g.actions.includes("play")) {
      if (!this.input || this.inputSeq !== st.seq) {
        this.input = new MoveInput(g.board, g.dice, g.legal_plays);
        this.inputSeq = st.seq;
        this.selected = null;
        this.listEl.open = !this.input.works;
      }
    } else {
      this.input = null;
      this.selected = null;
    }
    if (!previous || previous.seq !== st.seq) {
      this.busy = null;
      this.hints = null;
    }
    // A game that ended while the match goes on: say so, with its dice check.
    const finished = st.previous_games || [];
    if (this.seenPrevious === null) this.seenPrevious = finished.length;
    for (const game of finished.slice(this.seenPrevious)) this.announce(game);
    this.seenPrevious = finished.length;
    if (this.autoJoin && st.status === "open" && this.app.me && st.players[0] &&
        st.players[0].name !== this.app.me.name) {
      this.autoJoin = false;
      this.act("join");
    }
    this.render();
  }

  announce(game) {
    const st = this.state;
    const r = game.result;
    const name = st.players[r.winner] ? st.players[r.winner].name : `side ${r.winner}`;
    this.bannerEl.append(h("p", { class: "banner" },
      `Game ${game.number}: ${name} wins ${r.points} point${r.points === 1 ? "" : "s"} (${r.kind}). `,
      h("a", { href: `#/record/${this.id}/${game.number}`, target: "_blank", rel: "noopener" },
        "Verify the dice")));
  }

  /** Send a game action with the table's seq and fresh entropy (DICE.md). */
  act(type, extra = {}) {
    const st = this.state;
    if (!st || this.busy === st.seq) return;
    const g = st.game;
    const message = { type, seq: st.seq, ...extra };
    if (GAME_ACTIONS.has(type) || type === "join") message.entropy = randomHex(32);
    const id = this.send(message);
    if (id === null) {
      this.showError("Not connected: reconnecting, try again in a moment.");
      return;
    }
    const request = {
      type,
      hex: message.entropy,
      game: g && !g.result && type !== "join" ? g.number : null,
      rollsBefore: g ? rollsIn(g.log) : 0,
    };
    this.requests.set(id, request);
    if (request.hex && request.game) keepSent(this.id, request.game, request.hex, request.rollsBefore);
    if (type !== "hint") {
      this.busy = st.seq;
      this.render();
    }
  }

  showError(text) {
    this.errorEl.hidden = !text;
    this.errorEl.textContent = text || "";
  }

  // -- the player's moves --------------------------------------------------------------------

  get movable() {
    return this.input && this.busy === null ? this.input.movable() : new Set();
  }

  get dests() {
    if (!this.input || this.selected === null) return new Map();
    return this.input.destinations(this.selected);
  }

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

  up(from, to, dragged) {
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

  select(point) {
    this.selected = point;
    this.renderBoard();
  }

  move(from, to) {
    if (this.input.move(from, to)) {
      this.selected = null;
      this.showError(null);
    }
    this.render();
    if (this.input && this.input.complete) {
      const confirm = this.controls.querySelector("[data-action=confirm]");
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

  showPlay(text) {
    if (!this.input) return;
    const play = this.state.game.legal_plays.find((p) => p.play === text);
    if (play && this.input.setPlay(play)) {
      this.selected = null;
      this.render();
      const confirm = this.controls.querySelector("[data-action=confirm]");
      if (confirm) confirm.focus();
    }
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const g = this.state && this.state.game;
    const actions = g ? g.actions : [];
    const k = e.key.toLowerCase();
    if ((k === "r" || k === " ") && actions.includes("roll")) this.act("roll");
    else if (k === "d" && actions.includes("double")) this.act("double");
    else if (k === "enter" && this.input && this.input.complete && e.target.tagName !== "BUTTON") this.confirm();
    else if ((k === "u" || k === "backspace") && this.input) this.undo();
    else if (k === "escape") this.select(null);
    else if (k === "h" && actions.includes("hint")) this.act("hint");
    else return;
    e.preventDefault();
  }

  // -- drawing -------------------------------------------------------------------------------

  get viewer() {
    return this.state && this.state.you !== null && this.state.you !== undefined ? this.state.you : 0;
  }

  name(side) {
    const p = this.state && this.state.players[side];
    return p ? p.name : "—";
  }

  render() {
    const st = this.state;
    if (!st) return;
    this.renderBoard();
    this.renderPlayers();
    this.renderControls();
    this.renderInfo();
    this.renderLog();
    this.renderHints();
    this.renderPlayList();
  }

  boardModel() {
    const st = this.state;
    const g = st.game;
    const viewer = this.viewer;
    const colors = [viewer, 1 - viewer];
    if (!g) {
      const b = new Replay(st.settings.variant).boardFor(0);
      return { ...b, colors, dice: null, cube: st.settings.cube ? { value: 1, owner: null } : null };
    }
    let { mine, theirs, off, waiting } = g.board;
    let dice = null;
    const onRoll = g.on_roll === null || g.on_roll === undefined ? g.turn : g.on_roll;
    if (this.input) {
      const b = this.input.board;
      mine = b.mine;
      theirs = b.theirs;
      off = [b.off, g.board.off[1]];
      waiting = [b.waiting, g.board.waiting[1]];
      dice = this.input.diceState();
    } else if (g.dice) {
      const [a, b] = g.dice;
      dice = (a === b ? [a, a, a, a] : [a, b]).map((value) => ({ value, used: false }));
    }
    const events = g.log || [];
    const lastOffer = [...events].reverse().find((e) => e.type === "doubled" || e.type === "beavered");
    const cube = st.settings.cube
      ? {
          value: g.cube.value,
          owner: g.cube.owner === null ? null : g.cube.owner === viewer ? "mine" : "theirs",
          offered: g.cube.offered,
          offer: lastOffer ? lastOffer.value : g.cube.value * 2,
        }
      : null;
    // The opponent's last play, marked on the board.
    const last = new Set();
    const moved = [...events].reverse().find((e) => e.type === "moved");
    if (moved && moved.side !== viewer && st.you !== null) {
      for (const [from, to] of moved.moves) {
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
      canRoll: g.actions.includes("roll") && this.busy === null,
      last,
    };
  }

  renderBoard() {
    if (!this.state) return;
    this.board.render(this.boardModel());
  }

  renderPlayers() {
    const st = this.state;
    const viewer = this.viewer;
    const g = st.game;
    const pips = g ? g.board.pips : [null, null];
    for (const [slotIndex, side] of [[0, viewer], [1, 1 - viewer]]) {
      const p = st.players[side];
      const score = st.series ? st.series.score[side] : null;
      const turn = g && (g.turn === side || (g.turn === null && g.phase === "opening"));
      const el = this.players[slotIndex].el;
      el.className = `player ${slotIndex === 0 ? "bottom" : "top"}${turn && st.status === "playing" ? " to-act" : ""}`;
      clear(el,
        h("span", { class: `stone side${side}`, "aria-hidden": "true" }),
        h("span", { class: "name" }, p ? p.name : "waiting for an opponent…",
          p && !p.connected ? h("span", { class: "away", title: "disconnected" }, " (away)") : null,
          st.you === side ? h("span", { class: "you" }, " (you)") : null),
        h("span", { class: "pips", title: "pip count" },
          pips[slotIndex] !== null && pips[slotIndex] !== undefined ? `${pips[slotIndex]} pips` : ""),
        score !== null ? h("span", { class: "score", title: "score" }, String(score)) : null,
        st.clock ? h("span", { class: "clock", dataset: { side: String(side) } }, "") : null);
    }
    this.renderClocks();
  }

  renderClocks() {
    const st = this.state;
    if (!st || !st.clock) return;
    const c = st.clock;
    const anchor = this.clockAnchor;
    const now = performance.now();
    for (const el of this.boardEl.parentElement.querySelectorAll(".clock")) {
      const side = Number(el.dataset.side);
      let ms = c.remaining_ms[side];
      if (c.running === side && st.status === "playing") {
        // remaining_ms is as of the message; from then on the clock runs after its delay.
        const delay = c.delay_s * 1000;
        const charged = (t) => Math.max(0, t - anchor.start - delay);
        ms -= charged(now) - charged(anchor.received);
      }
      el.textContent = clockText(ms);
      el.classList.toggle("running", c.running === side && st.status === "playing");
      el.classList.toggle("low", ms < 30000);
    }
  }

  button(label, action, onclick, { primary = false, keys = null, title = null } = {}) {
    return h("button", {
      type: "button", class: primary ? "primary" : null, dataset: { action },
      disabled: this.busy !== null, onclick, "aria-keyshortcuts": keys, title,
    }, label);
  }

  renderControls() {
    const st = this.state;
    const g = st.game;
    const me = this.app.me;
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.action : null;
    const out = [];
    let status = "";
    const viewer = this.viewer;
    const other = this.name(1 - viewer);
    if (st.status === "open") {
      const creator = st.players[0] && st.players[0].name;
      if (me && creator === me.name) {
        status = st.settings.invite
          ? `Waiting for ${st.settings.invite} to join…`
          : "Waiting for an opponent to join…";
        out.push(this.button("Cancel the table", "cancel", () => this.act("cancel")));
      } else if (me) {
        status = `${creator} is waiting for an opponent.`;
        out.push(this.button("Join", "join", () => this.act("join"), { primary: true }));
      } else {
        status = `${creator} is waiting for an opponent.`;
        out.push(h("a", { class: "button primary", href: `#/login?next=${encodeURIComponent(`#/table/${this.id}?join`)}` },
          "Sign in to join"));
      }
    } else if (st.status === "cancelled") {
      status = "This table was cancelled.";
    } else if (g) {
      const a = new Set(g.actions);
      const cube = g.cube;
      if (a.has("roll")) {
        out.push(this.button(g.phase === "opening" ? "Opening roll" : "Roll", "roll",
          () => this.act("roll"), { primary: true, keys: "R" }));
      }
      if (a.has("double")) {
        out.push(this.button(`Double to ${cube.value * 2}`, "double", () => this.act("double"), { keys: "D" }));
      }
      if (a.has("take")) {
        const beaverOffer = g.phase === "beaver offered";
        out.push(this.button(beaverOffer ? "Accept the beaver" : "Take", "take", () => this.act("take"), { primary: true }));
        out.push(this.button(beaverOffer ? "Refuse the beaver" : "Drop", "drop", () => this.act("drop")));
      }
      if (a.has("beaver")) out.push(this.button("Beaver", "beaver", () => this.act("beaver")));
      if (a.has("play") && this.input) {
        const complete = this.input.complete;
        out.push(h("button", { type: "button", dataset: { action: "undo" }, onclick: () => this.undo(),
                               disabled: !this.input.steps.length || this.busy !== null, "aria-keyshortcuts": "U" }, "Undo"));
        out.push(h("button", { type: "button", class: "primary", dataset: { action: "confirm" },
                               onclick: () => this.confirm(), disabled: !complete || this.busy !== null,
                               "aria-keyshortcuts": "Enter" }, complete ? `Confirm ${complete.play}` : "Confirm"));
      }
      if (a.has("choose_double")) {
        const group = h("span", { class: "group", role: "group", "aria-label": "Choose your double" });
        for (let n = 1; n <= 6; n++) {
          group.append(this.button(`${n}-${n}`, `double-${n}`, () => this.act("choose_double", { number: n })));
        }
        out.push(group);
      }
      if (a.has("accept_resignation")) {
        out.push(this.button("Accept the resignation", "accept_resignation", () => this.act("accept_resignation"), { primary: true }));
        out.push(this.button("Reject", "reject_resignation", () => this.act("reject_resignation")));
      }
      if (a.has("hint")) out.push(this.button("Hint", "hint", () => this.act("hint"), { keys: "H" }));
      if (a.has("resign") || a.has("forfeit")) out.push(this.resignMenu(a));
      status = this.statusText(g, other);
    }
    if (st.status === "finished") {
      out.length = 0;
      out.push(h("a", { class: "button primary", href: `#/record/${this.id}` }, "Verify the dice & replay"));
      out.push(h("a", { class: "button", href: "#/" }, "Back to the lobby"));
    }
    if (st.you === null && st.status === "playing") {
      status = `Watching: ${status}`;
    }
    clear(this.controls, out);
    this.statusEl.textContent = status;
    const mine = g && st.you !== null && g.actions.some((a) => !["resign", "forfeit", "hint"].includes(a));
    document.title = `${mine ? "● Your turn · " : ""}Table ${this.id} · gammon`;
    if (focused) {
      const again = this.controls.querySelector(`[data-action="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  resignMenu(actions) {
    const g = this.state.game;
    const menu = h("details", { class: "menu" }, h("summary", {}, "Resign…"));
    const box = h("div", { class: "menu-items" });
    if (actions.has("resign")) {
      for (const value of [1, 2, 3]) {
        const points = value * g.cube.value;
        box.append(this.button(`Resign a ${KINDS[value]} (${points} point${points === 1 ? "" : "s"})`,
          `resign-${value}`, () => { menu.open = false; this.act("resign", { value }); }));
      }
    }
    if (actions.has("forfeit")) {
      box.append(this.button(this.state.series && this.state.series.mode === "money" ? "Leave the session" : "Leave the match (forfeit)",
        "forfeit", () => {
          if (window.confirm("Leave now? You lose the match (R13).")) this.act("forfeit");
        }));
    }
    menu.append(box);
    return menu;
  }

  statusText(g, other) {
    const st = this.state;
    const mine = st.you;
    const dice = g.dice ? g.dice.join("-") : "";
    const turnName = g.turn === null || g.turn === undefined ? "" : this.name(g.turn);
    const myTurn = mine !== null && g.turn === mine;
    if (st.status === "finished") return this.resultText();
    switch (g.phase) {
      case "opening":
        return mine === null ? "Waiting for the opening roll." : "Throw the opening roll (R3): either player may.";
      case "roll":
        if (myTurn) return g.actions.includes("double") ? "Your turn: roll or double." : "Your turn: roll.";
        return `${turnName} to roll.`;
      case "double offered": {
        const offer = g.cube.value * 2;
        return myTurn ? `${other} doubles to ${offer}: take or drop?` : `${turnName} is considering the double to ${offer}.`;
      }
      case "beaver offered":
        return myTurn ? `${other} beavers: accept (the cube goes to ${g.cube.value * 2}) or refuse?`
                      : `${turnName} is considering the beaver.`;
      case "move":
        if (myTurn) {
          if (this.input && this.input.complete) return `Confirm ${this.input.complete.play}, or undo.`;
          return `Your move: ${dice}. Click or drag a checker.`;
        }
        return `${turnName} to play ${dice}.`;
      case "choose double":
        return myTurn ? "You rolled 1-2: choose your double (R14)." : `${turnName} chooses a double.`;
      case "resignation offered": {
        const r = g.resignation;
        const points = r.value * g.cube.value;
        const what = `a ${KINDS[r.value]} (${points} point${points === 1 ? "" : "s"})`;
        return myTurn ? `${this.name(r.side)} offers to resign ${what}.` : `${this.name(r.side)} offers to resign ${what}; ${turnName} to answer.`;
      }
      case "over":
        return g.result ? this.gameResultText(g.result) : "The game is over.";
      default:
        return "";
    }
  }

  gameResultText(r) {
    return `${this.name(r.winner)} wins ${r.points} point${r.points === 1 ? "" : "s"} (${r.kind}, ${r.reason}).`;
  }

  resultText() {
    const st = this.state;
    const r = st.result;
    if (!r) return "";
    const w = r.winner === null || r.winner === undefined ? 0 : r.winner;
    const score = r.score ? ` ${r.score[w]}-${r.score[1 - w]}` : "";
    const why = { match: "wins the match", session: "wins the session", time: "wins on time", forfeit: "wins: the opponent left" };
    if (r.winner === null || r.winner === undefined) return `The session ended even${score}.`;
    return `${this.name(r.winner)} ${why[r.reason] || "wins"}${score}.`;
  }

  renderInfo() {
    const st = this.state;
    const parts = [h("h1", {}, `Table ${st.table}`), h("p", { class: "muted" }, describeSettings(st.settings))];
    const series = st.series;
    if (series) {
      const names = [this.name(0), this.name(1)];
      let line = series.mode === "match"
        ? `Match to ${series.length} · game ${series.game_number} · ${names[0]} ${series.score[0]} – ${series.score[1]} ${names[1]}`
        : `Money · game ${series.game_number} · ${names[0]} ${series.score[0]} – ${series.score[1]} ${names[1]}`;
      if (series.crawford) line += " · Crawford game";
      parts.push(h("p", { class: "score-line" }, line));
    }
    if (st.spectators) parts.push(h("p", { class: "muted" }, `${st.spectators} watching`));
    if (st.status === "finished") {
      parts.push(h("div", { class: "result", role: "status" },
        h("strong", {}, this.resultText()), " ",
        h("a", { href: `#/record/${this.id}` }, "Verify the dice & replay"), " · ",
        h("a", { href: `/api/tables/${this.id}/mat`, download: `table-${this.id}.mat` }, "Download .mat")));
    } else if (st.game && st.game.result) {
      parts.push(h("p", { class: "result" }, this.gameResultText(st.game.result)));
    }
    clear(this.infoEl, parts);
  }

  renderLog() {
    const g = this.state.game;
    const items = [];
    const log = g ? g.log : [];
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      const next = log[i + 1];
      const line = (side, dice, what) => h("li", { class: `side${side}` },
        h("span", { class: "who" }, this.name(side)), " ",
        h("span", { class: "dice-text" }, dice.join("-")), ": ", h("span", { class: "play" }, what));
      if (e.type === "rolled" && next && (next.type === "moved" || next.type === "passed") && next.side === e.side) {
        items.push(line(e.side, e.dice, next.type === "moved" ? next.play : "cannot move"));
        i += 1;
      } else if (e.type === "moved") {
        items.push(line(e.side, e.dice, e.play));
      } else {
        items.push(h("li", { class: e.side !== undefined ? `side${e.side}` : "" }, e.text));
      }
    }
    clear(this.logEl, items);
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  renderHints() {
    const plays = this.hints;
    this.hintEl.hidden = !plays;
    if (!plays) return;
    const rows = plays.slice(0, 6).map((p, i) => h("li", {},
      h("button", { type: "button", class: "hint-play", onclick: () => this.showPlay(p.play),
                    title: "Show this play on the board" },
        h("span", { class: "play" }, p.play),
        h("span", { class: "equity" }, `${p.equity >= 0 ? "+" : ""}${p.equity.toFixed(3)}`),
        h("span", { class: "loss" }, i === 0 ? "best" : `−${p.loss.toFixed(3)}`),
        h("span", { class: "win" }, `win ${(p.win * 100).toFixed(1)}%`))));
    clear(this.hintEl, h("h2", {}, "Hint (practice, R15)"),
      h("ol", { class: "hint-list" }, rows),
      h("p", { class: "muted small" }, "Equity per unit cube; click a play to put it on the board."));
  }

  renderPlayList() {
    const g = this.state.game;
    const show = this.input && g && g.legal_plays.length;
    this.listEl.hidden = !show;
    if (!show) return;
    const select = h("select", { "aria-label": "Legal plays", name: "legal-play" },
      g.legal_plays.map((p) => h("option", { value: p.play }, p.play)));
    const wasOpen = this.listEl.open;
    clear(this.listEl, h("summary", {}, `Choose from the ${g.legal_plays.length} legal plays`),
      h("div", { class: "row" }, select,
        h("button", { type: "button", onclick: () => this.showPlay(select.value) }, "Put on the board")));
    this.listEl.open = wasOpen;
  }
}
