// @ts-check
// Players (docs/PROTOCOL.md 1.5): the leaderboard (#/players, searchable by name) and a
// player's page (#/player/NAME): rating and experience, the rating graph, the record
// against each opponent, recent matches with links to replay them and their .mat file,
// and the player's unfinished tables.

import { get } from "./api.js";
import { N_, number, t } from "./i18n.js";
import { drawRatingGraph } from "./rating-graph.js";
import { whenText } from "./tournament-text.js";
import { clear, describeSettings, h, wayBack } from "./util.js";

/** @typedef {import("./protocol.js").Profile} Profile */
/** @typedef {import("./protocol.js").BotProfile} BotProfile */
/** @typedef {import("./app.js").App} App */

/** How a match went (the server's words, the keys here), in the player's words. */
const RESULTS = /** @type {Record<string, string>} */ ({
  won: N_("won"), lost: N_("lost"), drawn: N_("drawn"), unplayed: N_("unplayed"),
});
/** How a match ended when not by its points (a clock ran out, a player left). */
const HOW = /** @type {Record<string, string>} */ ({ time: N_("time"), forfeit: N_("forfeit") });
/** An unfinished table's status. */
const STATUS = /** @type {Record<string, string>} */ ({ open: N_("open"), playing: N_("playing") });

/**
 * A word of one of the tables above, translated; a word the table lacks as the server wrote it.
 * @param {Record<string, string>} table
 * @param {string} key
 */
function word(table, key) {
  return key in table ? t(table[key]) : key;
}

/**
 * A rating as shown next to a name: whole points, "?" while provisional.
 * @param {number} rating
 * @param {boolean} [provisional]
 */
export function ratingText(rating, provisional = false) {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

/**
 * @param {HTMLElement} main
 * @param {{name: string}} params
 * @param {App} app
 */
export function mountPlayer(main, params, app) {
  const el = h("div", { class: "profile" }, h("p", { class: "muted" }, t("Loading…")));
  main.replaceChildren(el);
  get(`/api/players/${encodeURIComponent(params.name)}`)
    .then((answer) => ("bot" in answer.player ? renderBot(el, answer.player) : renderProfile(el, answer.player)))
    .catch((err) => clear(el, h("p", { class: "error", role: "alert", id: "profile-error" }, /** @type {Error} */ (err).message),
      wayBack(["#/players", t("All players")])));
  return {};
}

/**
 * A bot's page: its level in words, the engine and depth it plays at, its fixed rating
 * and how it has done against people.
 * @param {HTMLElement} el
 * @param {BotProfile} p
 */
function renderBot(el, p) {
  document.title = `${p.name} · gammon`;
  const { wins, losses } = p.record;
  const depth = p.bot.ply === 0 ? t("no look-ahead (0-ply)") : t("{ply}-ply look-ahead", { ply: p.bot.ply });
  clear(el,
    h("h2", { id: "profile-name" }, p.name, h("span", { class: "muted" }, " ", t("(the computer)"))),
    h("p", { id: "bot-level" }, t("Level {level}: {description}.", { level: p.bot.level, description: p.bot.description })),
    h("p", { class: "rating-line" },
      t("Rating"), " ", h("strong", { id: "profile-rating" }, ratingText(p.rating)),
      h("span", { class: "muted" }, " ", t("(fixed: a bot's rating never moves)")),
      " · ", p.bot.engine === "gammon" ? t("plays with our own network, {depth}", { depth })
        : t("plays with the {engine} engine, {depth}", { engine: p.bot.engine, depth })),
    h("p", { id: "bot-record" }, wins + losses
      ? t("Against people: {wins} won, {losses} lost.", { wins, losses }) : t("No match against a person yet.")),
    h("section", {}, h("h3", {}, t("Recent matches against people")),
      p.recent.length
        ? h("ul", { id: "recent" }, p.recent.map((m) => h("li", { dataset: { table: String(m.table) } },
            `${whenText(m.at)} · `, h("a", { href: `#/player/${encodeURIComponent(m.opponent)}` }, m.opponent),
            ` · ${word(RESULTS, m.result)} ${m.score.join("-")} · `, h("a", { href: m.replay }, t("Replay")))))
        : h("p", { class: "muted" }, t("None yet."))));
}

/**
 * @param {HTMLElement} el
 * @param {Profile} p
 */
function renderProfile(el, p) {
  document.title = `${p.name} · gammon`;
  const record = p.matches ? t("{wins} won, {losses} lost", { wins: p.wins, losses: p.matches - p.wins })
    : t("no rated match yet");
  clear(el,
    h("h2", { id: "profile-name" }, p.name, p.guest ? h("span", { class: "muted" }, " ", t("(guest)")) : null),
    h("p", { class: "rating-line" },
      t("Rating"), " ", h("strong", { id: "profile-rating" }, ratingText(p.rating)),
      p.provisional ? h("span", { class: "muted" }, " ", t("(provisional: still finding its level)")) : null,
      " · ", t("experience {experience}", { experience: p.experience }), ` · ${record}`),
    h("section", { class: "graph", "aria-label": t("Rating graph") }, drawRatingGraph(p.rating_history)),
    h("section", {}, h("h3", {}, t("Recent matches")),
      p.recent.length
        ? h("table", { id: "recent" },
            h("thead", {}, h("tr", {}, [t("Date"), t("Opponent"), t("Result"), t("Game"), t("Rating"), ""].map((head) =>
              h("th", { scope: "col" }, head)))),
            h("tbody", {}, p.recent.map((m) => h("tr", { dataset: { table: String(m.table) } },
              h("td", {}, whenText(m.at)),
              h("td", {}, m.opponent.startsWith("gammon-") ? m.opponent
                : h("a", { href: `#/player/${encodeURIComponent(m.opponent)}` }, m.opponent)),
              h("td", {}, `${word(RESULTS, m.result)} ${m.score.join("-")}`,
                m.how !== "match" && m.how !== "session" ? " (" + word(HOW, m.how) + ")" : ""),
              h("td", {}, m.mode === "match" ? t("{length}-point {variant}", { length: m.length, variant: m.variant })
                : t("money, {variant}", { variant: m.variant })),
              h("td", {}, m.rating_change === null ? t("unrated") : signedRating(m.rating_change)),
              h("td", { class: "links" },
                h("a", { href: `#/record/${m.table}` }, t("Replay")), " ",
                m.mat ? h("a", { href: m.mat, download: `table-${m.table}.mat` }, ".mat") : null,
                m.analysis ? [" ", h("a", { href: m.analysis }, t("Analysis"))] : null)))))
        : h("p", { class: "muted" }, t("No finished match yet."))),
    h("section", {}, h("h3", {}, t("Against each opponent")),
      p.opponents.length
        ? h("ul", { id: "opponents" }, p.opponents.map((o) => h("li", {}, `${o.opponent}: ${o.wins}-${o.losses}`)))
        : h("p", { class: "muted" }, t("Nobody yet."))),
    p.unfinished.length
      ? h("section", {}, h("h3", {}, t("Unfinished tables")),
          h("ul", { id: "unfinished" }, p.unfinished.map((u) =>
            h("li", {}, h("a", { href: `#/table/${u.table}` }, t("Table {id}", { id: u.table })),
              ` · ${word(STATUS, u.status)} · ${describeSettings(u.settings)}`))))
      : null);
}

/**
 * A rating's change, signed, with one decimal in the language's digits: +12.5, −3,0.
 * @param {number} change
 */
function signedRating(change) {
  return `${change >= 0 ? "+" : ""}${number(change, 1)}`;
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params `search`
 * @param {App} app
 */
export function mountPlayers(main, params, app) {
  const list = h("div", { id: "leaderboard" });
  const search = /** @type {HTMLInputElement} */ (h("input", { type: "search", name: "search", value: params.search || "",
    placeholder: t("Search by name"), "aria-label": t("Search players by name") }));
  const load = async () => {
    try {
      const board = await get(`/api/players?search=${encodeURIComponent(search.value.trim())}`);
      clear(list, board.players.length
        ? h("table", {},
            h("thead", {}, h("tr", {}, ["#", t("Player"), t("Rating"), t("Experience"), t("Matches"), t("Last played")].map((head) =>
              h("th", { scope: "col" }, head)))),
            h("tbody", {}, board.players.map((/** @type {any} */ p) => h("tr", {},
              h("td", {}, String(p.rank)),
              h("td", {}, h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name)),
              h("td", {}, ratingText(p.rating, p.provisional)),
              h("td", {}, String(p.experience)),
              h("td", {}, String(p.matches)),
              h("td", {}, p.last_played ? whenText(p.last_played) : "–")))))
        : h("p", { class: "muted" }, search.value ? t("Nobody by that name.") : t("Nobody is rated yet.")));
    } catch (err) {
      clear(list, h("p", { class: "error", role: "alert" }, /** @type {Error} */ (err).message));
    }
  };
  main.replaceChildren(h("div", { class: "players" }, h("h2", {}, t("Players")),
    h("form", { role: "search", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); load(); } }, search),
    h("p", { class: "muted small" }, t("A rating marked ? is provisional: fewer than 400 points of matches played.")),
    list));
  load();
  return {};
}
