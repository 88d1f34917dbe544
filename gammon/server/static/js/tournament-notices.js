// @ts-check
// Tournaments a player cannot miss (issue 16, item 5): the tournaments a player has entered
// are watched from every page (their sockets, /ws/tournaments/ID), and when the player's
// match is ready a notice under the header says so, with a sound and the show-up
// countdown, until they come to its table. The table of a watched tournament's match says
// which tournament it belongs to (tournamentOf). Kept in this browser (localStorage).

import { around, t } from "./i18n.js";
import { Live } from "./socket.js";
import { sounds } from "./sound.js";
import { clear, h } from "./util.js";

/** @typedef {import("./protocol.js").Tournament} Tournament */
/** @typedef {import("./protocol.js").BracketMatch} BracketMatch */
/** @typedef {import("./protocol.js").User} User */
/**
 * The player's match that waits for them.
 * @typedef {{tournament: number, name: string, match: number, table: number, opponent: string,
 *   by: number | null}} ReadyMatch
 */

const KEY = "gammon.tournaments";

/**
 * Seconds as a countdown: "4:05", "1:02:03"; "0:00" once past.
 * @param {number} seconds
 */
export function countdownText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}

/**
 * The match of `t` that waits for `me` (ready, its table made, `me` not arrived), or null.
 * @param {Tournament} t
 * @param {User | null} me
 * @returns {ReadyMatch | null}
 */
export function readyMatch(t, me) {
  if (!me || t.status !== "running") return null;
  for (const round of t.rounds) {
    for (const m of round.matches) {
      if (m.status !== "ready" || m.table === null) continue;
      const seat = m.players.findIndex((p) => p && (p.user === me.id || (p.user === undefined && p.name === me.name)));
      if (seat < 0 || m.arrived[seat]) continue;
      const other = m.players[1 - seat];
      return { tournament: t.id, name: t.settings.name, match: m.match, table: m.table,
               opponent: other ? other.name : "?", by: m.show_up_by };
    }
  }
  return null;
}

/**
 * Whether `me` is still in `t`: registered while it registers, not yet out while it runs.
 * @param {Tournament} t
 * @param {User | null} me
 */
export function stillIn(t, me) {
  if (!me || t.status === "finished" || t.status === "cancelled") return false;
  const entry = t.registered.find((e) => e.user === me.id);
  if (!entry) return false;
  return t.status === "registering" || !entry.out;
}

class TournamentWatch {
  constructor() {
    /** @type {Map<number, Live>} */
    this.sockets = new Map();
    /** @type {Map<number, Tournament>} */
    this.known = new Map();
    /** @type {User | null} */
    this.me = null;
    /** @type {ReadyMatch | null} */
    this.ready = null;
    /** @type {string | null} the match last announced with a sound */
    this.announced = null;
    /** @type {HTMLElement | null} */
    this.el = null;
    /** @type {number | null} */
    this.tick = null;
    /** @type {(hash: string) => void} */
    this.go = (hash) => { location.hash = hash; };
  }

  /**
   * Follow the signed-in player's tournaments (null: nobody, nothing watched).
   * @param {User | null} me
   * @param {(hash: string) => void} go
   */
  follow(me, go) {
    this.go = go;
    if (me && this.me && me.id === this.me.id) return;
    for (const live of this.sockets.values()) live.close();
    this.sockets.clear();
    this.known.clear();
    this.me = me;
    this.show(null);
    if (!me) return;
    for (const id of this.saved()) this.watch(id);
  }

  /** @returns {number[]} */
  saved() {
    try {
      const all = JSON.parse(localStorage.getItem(KEY) || "{}");
      return this.me && Array.isArray(all[this.me.id]) ? all[this.me.id] : [];
    } catch {
      return [];
    }
  }

  /** @param {number[]} ids */
  save(ids) {
    if (!this.me) return;
    try {
      const all = JSON.parse(localStorage.getItem(KEY) || "{}");
      all[this.me.id] = ids;
      localStorage.setItem(KEY, JSON.stringify(all));
    } catch {
      // storage refused: watched for this page only
    }
  }

  /** Watch tournament `id` (the player registered for it). @param {number} id */
  watch(id) {
    if (!this.me || this.sockets.has(id)) return;
    const ids = this.saved();
    if (!ids.includes(id)) this.save([...ids, id]);
    this.sockets.set(id, new Live(`/ws/tournaments/${id}`, {
      onMessage: (m) => {
        const message = /** @type {{type: string, tournament?: Tournament}} */ (m);
        if (message.type === "tournament" && message.tournament) this.update(message.tournament);
      },
      onFatal: () => this.unwatch(id),
    }));
  }

  /** @param {number} id */
  unwatch(id) {
    const live = this.sockets.get(id);
    if (live) live.close();
    this.sockets.delete(id);
    this.known.delete(id);
    this.save(this.saved().filter((n) => n !== id));
    this.refresh();
  }

  /** @param {Tournament} t */
  update(t) {
    this.known.set(t.id, t);
    if (!stillIn(t, this.me)) {
      this.unwatch(t.id);
      return;
    }
    this.refresh();
  }

  /**
   * The watched tournament whose match `tableId` is, or null.
   * @param {number} tableId
   * @returns {{id: number, name: string} | null}
   */
  tournamentOf(tableId) {
    for (const t of this.known.values()) {
      if (t.rounds.some((r) => r.matches.some((m) => m.table === tableId))) return { id: t.id, name: t.settings.name };
    }
    return null;
  }

  /** The notice, again: on every tournament message and when the page changes. */
  refresh() {
    let ready = null;
    for (const t of this.known.values()) ready = ready || readyMatch(t, this.me);
    if (ready && location.hash === `#/table/${ready.table}`) ready = null; // there already
    this.show(ready);
  }

  /** @param {ReadyMatch | null} ready */
  show(ready) {
    this.ready = ready;
    if (this.tick !== null) clearInterval(this.tick);
    this.tick = null;
    if (!ready) {
      if (this.el) this.el.remove();
      this.el = null;
      return;
    }
    const key = `${ready.tournament}:${ready.match}`;
    if (this.announced !== key) {
      this.announced = key;
      sounds.play("double");
    }
    if (!this.el) {
      this.el = h("div", { id: "match-notice", class: "match-notice", role: "alert" });
      const header = document.querySelector("header.top");
      if (header) header.after(this.el);
      else document.body.prepend(this.el);
    }
    const el = this.el;
    const left = h("strong", { class: "countdown" });
    clear(el, h("span", {},
      t("Your match in {tournament} against {opponent} is ready.", { tournament: ready.name, opponent: ready.opponent }) + " ",
      ready.by !== null ? around(t("Come within {time} or you lose it."), "{time}", left) : null),
      h("a", { href: `#/table/${ready.table}`, class: "button primary", id: "go-to-match",
        onclick: () => this.show(null) }, t("Play now")));
    const draw = () => {
      if (ready.by !== null) left.textContent = countdownText(ready.by - Date.now() / 1000);
    };
    draw();
    this.tick = window.setInterval(draw, 1000);
  }
}

/** The page's one watcher (app.js follows the signed-in player with it). */
export const tournamentWatch = new TournamentWatch();
if (typeof window !== "undefined") window.addEventListener("hashchange", () => tournamentWatch.refresh());
