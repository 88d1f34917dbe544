// @ts-check
// The lobby's first panel, for somebody who has just arrived: a short welcome with the
// rules and the fair dice a click away, "Play the computer" (one click; the level picked
// for the player's rating, or chosen) and "Play a person" (quick pairing by rating and
// length, docs/PROTOCOL.md 7.1). Whoever is not signed in plays as a guest at the click.

import { get, post } from "./api.js";
import { t, tn } from "./i18n.js";
import { clear, h } from "./util.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {{name: string, description: string, rating?: number | null}} Level */

const WELCOME_KEY = "gammon.welcome";
const LENGTHS = [1, 3, 5, 7];
/** How often a seeker asks for news (the server drops one silent for 30 s). */
const POLL_MS = 1000;

/**
 * The level for a player's rating: the strongest rated at most 100 above it; for a
 * player with no rated match yet, "casual" (a newcomer's fair first opponent).
 * @param {Level[]} levels
 * @param {{rating: number, experience: number} | null} player
 * @returns {string}
 */
export function levelFor(levels, player) {
  const names = levels.map((l) => l.name);
  const fallback = names.includes("casual") ? "casual" : names[0] || "";
  if (!player || !player.experience) return fallback;
  let best = null;
  for (const level of levels) {
    const r = level.rating ?? null;
    if (r !== null && r <= player.rating + 100 && (best === null || r > (best.rating ?? -Infinity))) best = level;
  }
  return best ? best.name : names[0] || fallback;
}

/**
 * @param {string} id
 * @param {string} label
 * @param {[string, string][]} options
 * @param {string} value
 */
function select(id, label, options, value) {
  return /** @type {HTMLSelectElement} */ (h("select", { id, "aria-label": label },
    options.map(([v, text]) => h("option", { value: v, selected: v === value }, text))));
}

export class PlayPanel {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {number | null} */
    this.poll = null;
    this.seeking = false;
    const levels = /** @type {Level[]} */ (app.info ? app.info.bot_levels : []);
    this.errorEl = h("p", { id: "play-error", class: "error", role: "alert", hidden: true });
    this.level = select("play-level", t("The computer's level"),
      levels.map((l) => /** @type {[string, string]} */ ([l.name, l.rating ? `${l.name} (${Math.round(l.rating)})` : l.name])),
      levelFor(levels, null));
    this.levelNote = h("span", { class: "muted small", id: "play-level-note" });
    this.botLength = select("play-bot-length", t("Match length against the computer"),
      LENGTHS.map((n) => /** @type {[string, string]} */ ([String(n), tn("{n}-point match", "{n}-point match", n)])), "3");
    this.personLength = select("play-person-length", t("Match length against a person"),
      LENGTHS.map((n) => /** @type {[string, string]} */ ([String(n), tn("{n}-point match", "{n}-point match", n)])), "5");
    this.seekEl = h("div", { id: "seek", "aria-live": "polite" });
    this.findButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: "play-person", class: "primary",
      onclick: () => this.seek() }, t("Find an opponent")));
    const welcome = localStorage.getItem(WELCOME_KEY) === "hidden" ? null
      : h("div", { class: "welcome", id: "welcome" },
          h("p", {}, t("Welcome to gammon: play backgammon with the computer or with people, then learn from the engine's review of every game."),
            " ", t("New to the game?"), " ", h("a", { href: "#/rules", id: "rules-link" }, t("Read the rules")),
            ". ", t("Wondering whether the dice are honest?"), " ",
            h("a", { href: "#/dice", id: "dice-link" }, t("See how they are made fair")), "."),
          h("button", { type: "button", class: "link small", onclick: (/** @type {Event} */ e) => {
            localStorage.setItem(WELCOME_KEY, "hidden");
            /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (e.target).closest(".welcome")).remove();
          } }, t("Hide this")));
    this.el = h("section", { class: "play", id: "play", "aria-labelledby": "play-title" },
      h("h2", { id: "play-title" }, t("Play")),
      welcome,
      levels.length ? h("div", { class: "play-row" },
        h("h3", {}, t("Play the computer")),
        h("div", { class: "play-controls" }, this.level, this.botLength,
          h("button", { type: "button", id: "play-bot", class: "primary", onclick: () => this.playBot() }, t("Play the computer"))),
        this.levelNote) : null,
      h("div", { class: "play-row" },
        h("h3", {}, t("Play a person")),
        h("div", { class: "play-controls" }, this.personLength, this.findButton),
        this.seekEl),
      this.errorEl);
    this.pickLevel(levels);
    this.resume();
  }

  destroy() {
    this.stopPolling();
    if (this.seeking) post("/api/pairing/cancel", {}).catch(() => {});
  }

  /** @param {Level[]} levels */
  async pickLevel(levels) {
    const me = this.app.me;
    if (!me || !levels.length) return;
    try {
      const { player } = await get(`/api/players/${encodeURIComponent(me.name)}`);
      if (player && player.experience) {
        this.level.value = levelFor(levels, player);
        this.levelNote.textContent = t("Picked for your rating, {rating}.", { rating: Math.round(player.rating) });
      }
    } catch {
      // No profile (a brand-new guest): the newcomer's level stays.
    }
  }

  /** @param {unknown} err */
  fail(err) {
    this.errorEl.hidden = false;
    this.errorEl.textContent = /** @type {Error} */ (err).message;
  }

  /** Whoever is not signed in plays as a guest. */
  async signedIn() {
    if (this.app.me) return;
    const { user } = await post("/api/guest", {});
    this.app.setMe(user);
  }

  async playBot() {
    this.errorEl.hidden = true;
    try {
      await this.signedIn();
      const { table } = await post("/api/tables", { mode: "match", length: Number(this.botLength.value),
        bot: this.level.value });
      this.app.go(`#/table/${table.id}`);
    } catch (err) {
      this.fail(err);
    }
  }

  async seek() {
    this.errorEl.hidden = true;
    try {
      await this.signedIn();
      const { pairing } = await post("/api/pairing", { length: Number(this.personLength.value) });
      this.seeking = true;
      this.show(pairing);
    } catch (err) {
      this.fail(err);
    }
  }

  /** A seek left running (a reload while waiting) goes on. */
  async resume() {
    if (!this.app.me) return;
    try {
      const { pairing } = await get("/api/pairing");
      if (pairing) {
        this.seeking = true;
        this.show(pairing);
      }
    } catch {
      // nothing to resume
    }
  }

  async cancel() {
    this.stopPolling();
    this.seeking = false;
    await post("/api/pairing/cancel", {}).catch(() => {});
    clear(this.seekEl);
    this.findButton.disabled = false;
  }

  /** @param {any} pairing */
  show(pairing) {
    if (!pairing) {
      this.seeking = false;
      clear(this.seekEl);
      this.findButton.disabled = false;
      return;
    }
    if (pairing.state === "paired" && pairing.table) {
      this.seeking = false;
      this.stopPolling();
      this.app.go(`#/table/${pairing.table}`);
      return;
    }
    this.findButton.disabled = true;
    clear(this.seekEl, h("p", { class: "seeking" },
      t("Looking for an opponent for a {length}-point match, rated within {window} of your {rating} (the range widens as you wait).",
        { length: pairing.length, window: Math.round(pairing.window), rating: pairing.rating }), " ",
      tn("{n} other player is looking.", "{n} other players are looking.", pairing.seeking), " ",
      h("button", { type: "button", id: "cancel-seek", class: "link", onclick: () => this.cancel() }, t("Cancel"))));
    this.stopPolling();
    this.poll = window.setTimeout(async () => {
      this.poll = null;
      try {
        this.show((await get("/api/pairing")).pairing);
      } catch (err) {
        this.fail(err);
      }
    }, POLL_MS);
  }

  stopPolling() {
    if (this.poll !== null) clearTimeout(this.poll);
    this.poll = null;
  }
}
