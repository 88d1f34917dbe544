// @ts-check
// The browser client's entry point: who is signed in, the header, and the routes
// (#/ lobby, #/login, #/table/ID, #/record/ID[/GAME], #/tournament/ID, #/players,
// #/player/NAME, #/rules and #/dice (pages.js), the analyses: #/analysis/KEY, #/review/TABLE, #/analyse, and the
// analysis board: #/board[?xgid=...]).

import { followAccount } from "./account-settings.js";
import { mountBoard } from "./analysis-board.js";
import { get, post } from "./api.js";
import { mountAuth } from "./auth.js";
import { followLanguage, t } from "./i18n.js";
import { languageSwitch } from "./language-switch.js";
import { mountLobby } from "./lobby.js";
import { mountPage } from "./pages.js";
import { mountPlayer, mountPlayers } from "./players.js";
import { mountRecord } from "./record.js";
import { mountReview, mountUpload } from "./review.js";
import { followSettings, settingsButton } from "./settings-panel.js";
import { onReconnectingChange } from "./socket.js";
import { mountTable } from "./table.js";
import { tournamentWatch } from "./tournament-notices.js";
import { mountTournament } from "./tournament.js";
import { clear, h, wayBack } from "./util.js";

/** @typedef {import("./protocol.js").User} User */
/** @typedef {import("./protocol.js").Info} Info */

/**
 * What the views get from the application: who is signed in, what the server offers.
 * @typedef {object} App
 * @property {User | null} me
 * @property {Info | null} info
 * @property {(user: User | null) => void} setMe
 * @property {(hash: string) => void} go
 */

/** A mounted page. @typedef {{destroy?: () => void}} View */

const app = {
  /** @type {User | null} */
  me: null,
  /** @type {Info | null} */
  info: null,
  /** @type {View | null} */
  view: null,

  async init() {
    followSettings();
    // The words first (the page is drawn in them); a change of language draws it again.
    await followLanguage(() => {
      this.renderHeader();
      this.route();
    });
    onReconnectingChange((on) => {
      const notice = /** @type {HTMLElement} */ (document.getElementById("notice"));
      notice.hidden = !on;
      notice.textContent = on ? t("Reconnecting…") : "";
    });
    try {
      this.me = (await get("/api/me")).user;
    } catch {
      this.me = null;
    }
    this.info = await get("/api/info").catch(() => null);
    followAccount(this.me);
    tournamentWatch.follow(this.me, (hash) => this.go(hash));
    this.renderHeader();
    window.addEventListener("hashchange", () => this.route());
    this.route();
  },

  /** @param {User | null} user */
  setMe(user) {
    this.me = user;
    followAccount(user);
    tournamentWatch.follow(user, (hash) => this.go(hash));
    this.renderHeader();
  },

  /** @param {string} hash */
  go(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  },

  async logout() {
    try {
      await post("/api/logout", {});
    } catch {
      // Signed out already, or offline: forget the user here either way.
    }
    this.setMe(null);
    if (location.hash === "#/" || location.hash === "") this.route();
    else location.hash = "#/";
  },

  async guest() {
    try {
      this.setMe((await post("/api/guest", {})).user);
      this.route();
    } catch (err) {
      window.alert(/** @type {Error} */ (err).message);
    }
  },

  renderHeader() {
    const nav = /** @type {HTMLElement} */ (document.getElementById("account"));
    const me = this.me;
    // index.html's own words, in the language now spoken (the server wrote them in the
    // page's language; a switch changes them here).
    nav.setAttribute("aria-label", t("Account"));
    const brand = document.querySelector("header .brand");
    if (brand) brand.setAttribute("aria-label", t("gammon: lobby"));
    const skip = document.querySelector("a.skip");
    if (skip) skip.textContent = t("Skip to content");
    if (me) {
      clear(nav,
        h("a", { href: "#/analyse", id: "analyse-link" }, t("Analyse a match")),
        h("a", { href: "#/board", id: "board-link" }, t("Analysis board")),
        h("a", { href: "#/players", id: "players-link" }, t("Players")), " ",
        h("a", { class: "me", id: "me", href: `#/player/${encodeURIComponent(me.name)}` }, me.name,
          me.guest ? h("span", { class: "muted" }, " ", t("(guest)")) : null),
        me.guest ? h("a", { href: "#/login", id: "keep-games" }, t("Sign up to keep your games")) : null, " ",
        settingsButton(), " ", languageSwitch(), " ",
        h("button", { type: "button", class: "link", name: "logout", onclick: () => this.logout() }, t("Log out")));
    } else {
      const next = location.hash && !location.hash.startsWith("#/login") ? location.hash : "#/";
      clear(nav,
        h("a", { href: "#/board", id: "board-link" }, t("Analysis board")),
        h("a", { href: "#/players", id: "players-link" }, t("Players")), " ",
        h("a", { href: `#/login?next=${encodeURIComponent(next)}`, id: "signin" }, t("Sign in")),
        h("button", { type: "button", class: "link", name: "guest", onclick: () => this.guest() }, t("Play as a guest")),
        settingsButton(), " ", languageSwitch());
    }
  },

  route() {
    if (this.view && this.view.destroy) this.view.destroy();
    this.view = null;
    const main = /** @type {HTMLElement} */ (document.getElementById("main"));
    const raw = location.hash.replace(/^#/, "") || "/";
    const [path, query = ""] = raw.split("?");
    const params = Object.fromEntries(new URLSearchParams(query));
    const parts = path.split("/").filter(Boolean);
    document.body.dataset.route = parts[0] || "lobby";
    this.renderHeader();
    if (parts[0] === "login") {
      document.title = t("Sign in · gammon");
      this.view = mountAuth(main, params, this);
    } else if (parts[0] === "table" && /^\d+$/.test(parts[1] || "")) {
      document.title = t("Table {id} · gammon", { id: parts[1] });
      this.view = mountTable(main, { id: Number(parts[1]), join: "join" in params }, this);
    } else if (parts[0] === "record" && /^\d+$/.test(parts[1] || "")) {
      document.title = t("Table {id}: record · gammon", { id: parts[1] });
      const game = /^\d+$/.test(parts[2] || "") ? Number(parts[2]) : null;
      this.view = mountRecord(main, { id: Number(parts[1]), game }, this);
    } else if (parts[0] === "tournament" && /^\d+$/.test(parts[1] || "")) {
      document.title = t("Tournament {id} · gammon", { id: parts[1] });
      this.view = mountTournament(main, { id: Number(parts[1]) }, this);
    } else if (parts[0] === "player" && parts[1]) {
      document.title = t("Player · gammon");
      this.view = mountPlayer(main, { name: decodeURIComponent(parts[1]) }, this);
    } else if ((parts[0] === "rules" || parts[0] === "dice") && parts.length === 1) {
      document.title = "gammon";
      this.view = mountPage(main, parts[0]);
    } else if (parts[0] === "players") {
      document.title = t("Players · gammon");
      this.view = mountPlayers(main, params, this);
    } else if (this.routeAnalysis(main, parts, params)) {
      // a review or the upload page (review.js)
    } else if (parts.length === 0) {
      document.title = "gammon";
      this.view = mountLobby(main, params, this);
    } else {
      // An address that is no page: say so, rather than show the lobby as if it were one.
      document.title = t("No such page · gammon");
      main.replaceChildren(h("section", { class: "not-found panel", id: "not-found" },
        h("h1", {}, t("No such page")),
        h("p", {}, t("There is no page at {address}.", { address: location.hash })),
        wayBack(["#/players", t("Players")], ["#/analyse", t("Analyse a match")])));
    }
  },

  /**
   * The analysis pages (review.js): #/analysis/KEY, #/review/TABLE and #/analyse; and the
   * analysis board (analysis-board.js): #/board.
   * @param {HTMLElement} main
   * @param {string[]} parts
   * @param {Record<string, string>} params
   * @returns {boolean} whether the route was one of them
   */
  routeAnalysis(main, parts, params) {
    if (parts[0] === "analysis" && parts[1]) {
      document.title = t("Analysis · gammon");
      this.view = mountReview(main, { key: decodeURIComponent(parts[1]) }, this);
    } else if (parts[0] === "review" && /^\d+$/.test(parts[1] || "")) {
      document.title = t("Table {id}: analysis · gammon", { id: parts[1] });
      this.view = mountReview(main, { table: Number(parts[1]) }, this);
    } else if (parts[0] === "analyse") {
      document.title = t("Analyse a match · gammon");
      this.view = mountUpload(main, this);
    } else if (parts[0] === "board" && parts.length === 1) {
      document.title = t("Analysis board · gammon");
      this.view = mountBoard(main, params);
    } else {
      return false;
    }
    return true;
  },
};

/** @type {any} */ (window).gammon = app; // for debugging and the browser tests
app.init();
