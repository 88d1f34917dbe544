// @ts-check
// A tournament's page (#/tournament/ID, docs/PROTOCOL.md 1.6 and 6.1): its rules,
// registration, the bracket drawn live with results and links to watch the matches being
// played, the standings and the winner, and the tournament's chat. Everything comes over
// the tournament's socket (/ws/tournaments/ID), which sends the tournament on connect and
// again whenever it changes: nothing is polled.

import { countdownText, stillIn, tournamentWatch } from "./tournament-notices.js";
import { post } from "./api.js";
import { ChatPanel } from "./chat.js";
import { Live } from "./socket.js";
import { endText, lengthsText, matchText, stateText, whenText } from "./tournament-text.js";
import { clear, h } from "./util.js";

/** @typedef {import("./protocol.js").Tournament} Tournament */
/** @typedef {import("./protocol.js").BracketMatch} BracketMatch */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./app.js").App} App */

/**
 * @param {HTMLElement} main
 * @param {{id: number}} params
 * @param {App} app
 */
export function mountTournament(main, params, app) {
  return new TournamentView(main, params.id, app);
}

/** The browser's time zone, as the player's clock reads it. */
function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  } catch {
    return "local time";
  }
}

/** @param {number} seconds */
function untilText(seconds) {
  return seconds > 0 ? `starts in ${countdownText(seconds)}` : "starting now";
}

class TournamentView {
  /**
   * @param {HTMLElement} main
   * @param {number} id
   * @param {App} app
   */
  constructor(main, id, app) {
    this.id = id;
    this.app = app;
    this.nextId = 1;
    this.el = h("div", { class: "tournament-main" },
      h("p", { class: "muted" }, "Loading the tournament…"));
    this.errorEl = h("p", { class: "error", role: "alert", id: "tournament-error", hidden: true });
    this.chat = new ChatPanel({ send: (m) => this.send(m), me: app.me, title: "Tournament chat" });
    this.chat.el.id = "tournament-chat";
    main.replaceChildren(h("div", { class: "tournament", dataset: { tournament: String(id) } },
      this.el, this.chat.el));
    // The countdowns on the page (a scheduled start), once a second.
    this.tick = window.setInterval(() => {
      for (const el of /** @type {NodeListOf<HTMLElement>} */ (this.el.querySelectorAll("[data-until]"))) {
        el.textContent = untilText(Number(el.dataset.until) - Date.now() / 1000);
      }
    }, 1000);
    this.live = new Live(`/ws/tournaments/${id}`, {
      onMessage: (m) => this.onMessage(/** @type {ServerMessage} */ (m)),
      onFatal: (code) => clear(this.el, h("p", { class: "error", role: "alert" },
        code === 4404 ? `There is no tournament ${id}.` : "The server closed the tournament's page.")),
    });
  }

  destroy() {
    this.live.close();
    clearInterval(this.tick);
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    const id = this.nextId++;
    return this.live.send({ ...message, id }) ? id : null;
  }

  /** @param {ServerMessage} m */
  onMessage(m) {
    if (this.chat.handle(m)) return;
    if (m.type === "hello") this.chat.setRules(m.house_rules);
    else if (m.type === "tournament") this.render(m.tournament);
  }

  /**
   * @param {string} action register, unregister, withdraw
   */
  async act(action) {
    this.errorEl.hidden = true;
    try {
      const answer = await post(`/api/tournaments/${this.id}/${action}`, {});
      this.render(answer.tournament);
    } catch (err) {
      this.errorEl.hidden = false;
      this.errorEl.textContent = /** @type {Error} */ (err).message;
    }
  }

  /** @param {Tournament} t */
  render(t) {
    document.title = `${t.settings.name} · gammon`;
    const me = this.app.me;
    if (stillIn(t, me)) tournamentWatch.watch(t.id); // its match's notice on every page
    const mine = me ? t.registered.find((e) => e.user === me.id) : undefined;
    const summary = {
      id: t.id, name: t.settings.name, kind: /** @type {"scheduled" | "sit_and_go"} */ (t.settings.kind),
      status: t.status, seats: t.settings.seats, registered: t.registered.length,
      start_at: t.settings.start_at, lengths: t.settings.lengths, variant: t.settings.table.variant,
      rated: t.settings.rated, satellite: t.settings.satellite, winner: t.winner ? t.winner.name : null,
    };
    /** @type {import("./util.js").Child[]} */
    const buttons = [];
    if (t.status === "registering" && me && !me.guest) {
      buttons.push(mine
        ? h("button", { type: "button", name: "unregister", onclick: () => this.act("unregister") }, "Unregister")
        : h("button", { type: "button", class: "primary", name: "register", onclick: () => this.act("register") }, "Register"));
    } else if (t.status === "registering" && me && me.guest) {
      buttons.push(h("p", { class: "muted" }, "Tournaments are for accounts: sign up to register."));
    } else if (t.status === "registering") {
      buttons.push(h("p", { class: "muted" }, h("a", { href: `#/login?next=${encodeURIComponent(location.hash)}` }, "Sign in"), " to register."));
    }
    if (t.status === "running" && mine && !mine.out) {
      buttons.push(h("button", { type: "button", name: "withdraw", onclick: () => {
        if (window.confirm("Withdraw from the tournament? A match you are playing is lost.")) this.act("withdraw");
      } }, "Withdraw"));
    }
    const rules = [
      lengthsText(t.settings.lengths),
      t.settings.table.variant,
      t.settings.table.clock ? `clock ${Math.round(t.settings.table.clock.base_s / 60)} min + ${t.settings.table.clock.delay_s} s delay` : "",
      `come to your match within ${Math.round(t.settings.show_up_s / 60 * 10) / 10} min or lose it`,
      t.settings.rated ? "rated" : "unrated",
      t.settings.bots ? `bots (${t.settings.bots}) fill empty seats` : "",
      t.settings.satellite ? `the top ${t.settings.satellite.seats} win a seat in tournament ${t.settings.satellite.target}` : "",
    ].filter(Boolean).join(" · ");
    clear(this.el,
      h("h2", { id: "tournament-title" }, t.settings.name),
      h("p", { class: "state", id: "tournament-state" }, stateText(summary)),
      h("p", { class: "muted small" }, rules),
      t.settings.start_at !== null ? h("p", { class: "muted small", id: "start-at" },
        `Start: ${whenText(t.settings.start_at)}, your time (${timeZone()})`,
        t.status === "registering" ? [" · ", h("span", { dataset: { until: String(t.settings.start_at) } },
          untilText(t.settings.start_at - Date.now() / 1000))] : null) : null,
      t.winner ? h("p", { class: "winner-banner", id: "tournament-winner" }, `Winner: ${t.winner.name}`) : null,
      t.status === "cancelled" ? h("p", { class: "error" }, `Cancelled: ${t.cancel_reason || ""}`) : null,
      h("div", { class: "actions" }, buttons), this.errorEl,
      t.rounds.length ? this.bracket(t) : this.registered(t),
      t.status === "finished" ? this.standings(t) : null);
  }

  /** @param {Tournament} t */
  registered(t) {
    return h("section", { class: "registered" },
      h("h3", {}, `Registered (${t.registered.length}/${t.settings.seats})`),
      t.registered.length
        ? h("ul", { id: "registered" }, t.registered.map((e) =>
            h("li", {}, e.bot ? e.name : h("a", { href: `#/player/${encodeURIComponent(e.name)}` }, e.name))))
        : h("p", { class: "muted" }, "Nobody yet."));
  }

  /** @param {Tournament} t */
  bracket(t) {
    return h("section", { class: "bracket", id: "bracket", "aria-label": "The bracket" },
      t.rounds.map((round) => h("div", { class: "round" },
        h("h3", {}, `${round.name[0].toUpperCase()}${round.name.slice(1)} · ${round.length} pt`),
        round.matches.map((m) => this.match(m)))));
  }

  /** @param {BracketMatch} m */
  match(m) {
    const line = (/** @type {BracketMatch["players"][number]} */ p) => {
      const won = p && p.entry !== null && p.entry === m.winner;
      const name = p ? p.name : "…";
      return h("div", { class: `slot${won ? " won" : ""}${p && p.entry === null ? " empty" : ""}` },
        p && p.entry !== null && !p.bot ? h("a", { href: `#/player/${encodeURIComponent(name)}` }, name) : name);
    };
    return h("div", { class: `match status-${m.status}`, dataset: { match: String(m.match) },
                      title: matchText(m) },
      line(m.players[0]), line(m.players[1]),
      m.status === "ready" && m.table
        ? h("a", { class: "watch", href: `#/table/${m.table}` }, this.plays(m) ? "Play" : "Watch")
        : null,
      m.status === "over" && m.how && m.how !== "match" ? h("div", { class: "how muted small" }, endText(m)) : null,
      m.status === "over" && m.table ? h("a", { class: "small", href: `#/record/${m.table}` }, "Replay") : null);
  }

  /** @param {BracketMatch} m */
  plays(m) {
    const me = this.app.me;
    return Boolean(me && m.players.some((p) => p && p.name === me.name));
  }

  /** @param {Tournament} t */
  standings(t) {
    return h("section", { class: "standings" }, h("h3", {}, "Standings"),
      h("table", { id: "standings" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"))),
        h("tbody", {}, t.standings.map((e) => h("tr", {}, h("td", {}, e.place || "–"), h("td", {}, e.name))))));
  }
}
