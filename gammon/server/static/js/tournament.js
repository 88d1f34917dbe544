// @ts-check
// A tournament's page (#/tournament/ID, docs/PROTOCOL.md 1.6 and 6.1): its rules,
// registration, the bracket drawn live with results and links to watch the matches being
// played, the standings and the winner, and the tournament's chat. Everything comes over
// the tournament's socket (/ws/tournaments/ID), which sends the tournament on connect and
// again whenever it changes: nothing is polled.

import { countdownText, stillIn, tournamentWatch } from "./tournament-notices.js";
import { post } from "./api.js";
import { ChatPanel } from "./chat.js";
import { around, number, t } from "./i18n.js";
import { Live } from "./socket.js";
import { endText, lengthsText, matchText, roundText, stateText, variantText, whenText } from "./tournament-text.js";
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
    return Intl.DateTimeFormat().resolvedOptions().timeZone || t("local time");
  } catch {
    return t("local time");
  }
}

/** @param {number} seconds */
function untilText(seconds) {
  return seconds > 0 ? t("starts in {time}", { time: countdownText(seconds) }) : t("starting now");
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
    this.el = h("div", { class: "tournament-main" },
      h("p", { class: "muted" }, t("Loading the tournament…")));
    this.errorEl = h("p", { class: "error", role: "alert", id: "tournament-error", hidden: true });
    this.chat = new ChatPanel({ send: (m) => this.send(m), me: app.me, title: t("Tournament chat") });
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
        code === 4404 ? t("There is no tournament {id}.", { id }) : t("The server closed the tournament's page."))),
    });
  }

  destroy() {
    this.live.close();
    clearInterval(this.tick);
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    return this.live.sendNumbered(message);
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

  /** @param {Tournament} tm */
  render(tm) {
    document.title = `${tm.settings.name} · gammon`;
    const me = this.app.me;
    if (stillIn(tm, me)) tournamentWatch.watch(tm.id); // its match's notice on every page
    const mine = me ? tm.registered.find((e) => e.user === me.id) : undefined;
    const summary = {
      id: tm.id, name: tm.settings.name, kind: /** @type {"scheduled" | "sit_and_go"} */ (tm.settings.kind),
      status: tm.status, seats: tm.settings.seats, registered: tm.registered.length,
      start_at: tm.settings.start_at, lengths: tm.settings.lengths, variant: tm.settings.table.variant,
      rated: tm.settings.rated, satellite: tm.settings.satellite, winner: tm.winner ? tm.winner.name : null,
    };
    /** @type {import("./util.js").Child[]} */
    const buttons = [];
    if (tm.status === "registering" && me && !me.guest) {
      buttons.push(mine
        ? h("button", { type: "button", name: "unregister", onclick: () => this.act("unregister") }, t("Unregister"))
        : h("button", { type: "button", class: "primary", name: "register", onclick: () => this.act("register") }, t("Register")));
    } else if (tm.status === "registering" && me && me.guest) {
      buttons.push(h("p", { class: "muted" }, t("Tournaments are for accounts: sign up to register.")));
    } else if (tm.status === "registering") {
      buttons.push(h("p", { class: "muted" }, ...around(t("{link} to register."), "{link}",
        h("a", { href: `#/login?next=${encodeURIComponent(location.hash)}` }, t("Sign in")))));
    }
    if (tm.status === "running" && mine && !mine.out) {
      buttons.push(h("button", { type: "button", name: "withdraw", onclick: () => {
        if (window.confirm(t("Withdraw from the tournament? A match you are playing is lost."))) this.act("withdraw");
      } }, t("Withdraw")));
    }
    const rules = [
      lengthsText(tm.settings.lengths),
      variantText(tm.settings.table.variant),
      tm.settings.table.clock ? t("clock {minutes} min + {delay} s delay",
        { minutes: Math.round(tm.settings.table.clock.base_s / 60), delay: tm.settings.table.clock.delay_s }) : "",
      t("come to your match within {minutes} min or lose it", { minutes: number(Math.round(tm.settings.show_up_s / 60 * 10) / 10) }),
      tm.settings.rated ? t("rated") : t("unrated"),
      tm.settings.bots ? t("bots ({n}) fill empty seats", { n: tm.settings.bots }) : "",
      tm.settings.satellite ? t("the top {seats} win a seat in tournament {target}",
        { seats: tm.settings.satellite.seats, target: tm.settings.satellite.target }) : "",
    ].filter(Boolean).join(" · ");
    clear(this.el,
      h("h2", { id: "tournament-title" }, tm.settings.name),
      h("p", { class: "state", id: "tournament-state" }, stateText(summary)),
      h("p", { class: "muted small" }, rules),
      tm.settings.start_at !== null ? h("p", { class: "muted small", id: "start-at" },
        t("Start: {when}, your time ({zone})", { when: whenText(tm.settings.start_at), zone: timeZone() }),
        tm.status === "registering" ? [" · ", h("span", { dataset: { until: String(tm.settings.start_at) } },
          untilText(tm.settings.start_at - Date.now() / 1000))] : null) : null,
      tm.winner ? h("p", { class: "winner-banner", id: "tournament-winner" }, t("Winner: {name}", { name: tm.winner.name })) : null,
      tm.status === "cancelled" ? h("p", { class: "error" }, t("Cancelled: {reason}", { reason: tm.cancel_reason || "" })) : null,
      h("div", { class: "actions" }, buttons), this.errorEl,
      tm.rounds.length ? this.bracket(tm) : this.registered(tm),
      tm.status === "finished" ? this.standings(tm) : null);
  }

  /** @param {Tournament} tm */
  registered(tm) {
    return h("section", { class: "registered" },
      h("h3", {}, t("Registered ({registered}/{seats})", { registered: tm.registered.length, seats: tm.settings.seats })),
      tm.registered.length
        ? h("ul", { id: "registered" }, tm.registered.map((e) =>
            h("li", {}, e.bot ? e.name : h("a", { href: `#/player/${encodeURIComponent(e.name)}` }, e.name))))
        : h("p", { class: "muted" }, t("Nobody yet.")));
  }

  /** @param {Tournament} tm */
  bracket(tm) {
    return h("section", { class: "bracket", id: "bracket", "aria-label": t("The bracket") },
      tm.rounds.map((round) => h("div", { class: "round" },
        h("h3", {}, t("{round} · {length} pt", { round: roundText(round.name), length: round.length })),
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
        ? h("a", { class: "watch", href: `#/table/${m.table}` }, this.plays(m) ? t("Play") : t("Watch"))
        : null,
      m.status === "over" && m.how && m.how !== "match" ? h("div", { class: "how muted small" }, endText(m)) : null,
      m.status === "over" && m.table ? h("a", { class: "small", href: `#/record/${m.table}` }, t("Replay")) : null);
  }

  /** @param {BracketMatch} m */
  plays(m) {
    const me = this.app.me;
    return Boolean(me && m.players.some((p) => p && p.name === me.name));
  }

  /** @param {Tournament} tm */
  standings(tm) {
    return h("section", { class: "standings" }, h("h3", {}, t("Standings")),
      h("table", { id: "standings" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")))),
        h("tbody", {}, tm.standings.map((e) => h("tr", {}, h("td", {}, e.place || "–"), h("td", {}, e.name))))));
  }
}
