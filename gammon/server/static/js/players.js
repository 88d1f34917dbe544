// @ts-check
// Players (docs/PROTOCOL.md 1.5): the leaderboard (#/players, searchable by name) and a
// player's page (#/player/NAME): rating and experience, the rating graph, the record
// against each opponent, recent matches with links to replay them and their .mat file,
// and the player's unfinished tables.

import { get } from "./api.js";
import { drawRatingGraph } from "./rating-graph.js";
import { whenText } from "./tournament-text.js";
import { clear, describeSettings, h, wayBack } from "./util.js";

/** @typedef {import("./protocol.js").Profile} Profile */
/** @typedef {import("./protocol.js").BotProfile} BotProfile */
/** @typedef {import("./app.js").App} App */

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
  const el = h("div", { class: "profile" }, h("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(el);
  get(`/api/players/${encodeURIComponent(params.name)}`)
    .then((answer) => ("bot" in answer.player ? renderBot(el, answer.player) : renderProfile(el, answer.player)))
    .catch((err) => clear(el, h("p", { class: "error", role: "alert", id: "profile-error" }, /** @type {Error} */ (err).message),
      wayBack(["#/players", "All players"])));
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
  const depth = p.bot.ply === 0 ? "no look-ahead (0-ply)" : `${p.bot.ply}-ply look-ahead`;
  clear(el,
    h("h2", { id: "profile-name" }, p.name, h("span", { class: "muted" }, " (the computer)")),
    h("p", { id: "bot-level" }, `Level ${p.bot.level}: ${p.bot.description}.`),
    h("p", { class: "rating-line" },
      "Rating ", h("strong", { id: "profile-rating" }, ratingText(p.rating)),
      h("span", { class: "muted" }, " (fixed: a bot's rating never moves)"),
      ` · plays with ${p.bot.engine === "gammon" ? "our own network" : `the ${p.bot.engine} engine`}, ${depth}`),
    h("p", { id: "bot-record" }, wins + losses
      ? `Against people: ${wins} won, ${losses} lost.` : "No match against a person yet."),
    h("section", {}, h("h3", {}, "Recent matches against people"),
      p.recent.length
        ? h("ul", { id: "recent" }, p.recent.map((m) => h("li", { dataset: { table: String(m.table) } },
            `${whenText(m.at)} · `, h("a", { href: `#/player/${encodeURIComponent(m.opponent)}` }, m.opponent),
            ` · ${m.result} ${m.score.join("-")} · `, h("a", { href: m.replay }, "Replay"))))
        : h("p", { class: "muted" }, "None yet.")));
}

/**
 * @param {HTMLElement} el
 * @param {Profile} p
 */
function renderProfile(el, p) {
  document.title = `${p.name} · gammon`;
  const record = p.matches ? `${p.wins} won, ${p.matches - p.wins} lost` : "no rated match yet";
  clear(el,
    h("h2", { id: "profile-name" }, p.name, p.guest ? h("span", { class: "muted" }, " (guest)") : null),
    h("p", { class: "rating-line" },
      "Rating ", h("strong", { id: "profile-rating" }, ratingText(p.rating)),
      p.provisional ? h("span", { class: "muted" }, " (provisional: still finding its level)") : null,
      ` · experience ${p.experience} · ${record}`),
    h("section", { class: "graph", "aria-label": "Rating graph" }, drawRatingGraph(p.rating_history)),
    h("section", {}, h("h3", {}, "Recent matches"),
      p.recent.length
        ? h("table", { id: "recent" },
            h("thead", {}, h("tr", {}, ["Date", "Opponent", "Result", "Game", "Rating", ""].map((t) =>
              h("th", { scope: "col" }, t)))),
            h("tbody", {}, p.recent.map((m) => h("tr", { dataset: { table: String(m.table) } },
              h("td", {}, whenText(m.at)),
              h("td", {}, m.opponent.startsWith("gammon-") ? m.opponent
                : h("a", { href: `#/player/${encodeURIComponent(m.opponent)}` }, m.opponent)),
              h("td", {}, `${m.result} ${m.score.join("-")}${m.how !== "match" && m.how !== "session" ? ` (${m.how})` : ""}`),
              h("td", {}, m.mode === "match" ? `${m.length}-point ${m.variant}` : `money, ${m.variant}`),
              h("td", {}, m.rating_change === null ? "unrated" : `${m.rating_change >= 0 ? "+" : ""}${m.rating_change.toFixed(1)}`),
              h("td", { class: "links" },
                h("a", { href: `#/record/${m.table}` }, "Replay"), " ",
                m.mat ? h("a", { href: m.mat, download: `table-${m.table}.mat` }, ".mat") : null,
                m.analysis ? [" ", h("a", { href: m.analysis }, "Analysis")] : null)))))
        : h("p", { class: "muted" }, "No finished match yet.")),
    h("section", {}, h("h3", {}, "Against each opponent"),
      p.opponents.length
        ? h("ul", { id: "opponents" }, p.opponents.map((o) => h("li", {}, `${o.opponent}: ${o.wins}-${o.losses}`)))
        : h("p", { class: "muted" }, "Nobody yet.")),
    p.unfinished.length
      ? h("section", {}, h("h3", {}, "Unfinished tables"),
          h("ul", { id: "unfinished" }, p.unfinished.map((t) =>
            h("li", {}, h("a", { href: `#/table/${t.table}` }, `Table ${t.table}`), ` · ${t.status} · ${describeSettings(t.settings)}`))))
      : null);
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params `search`
 * @param {App} app
 */
export function mountPlayers(main, params, app) {
  const list = h("div", { id: "leaderboard" });
  const search = /** @type {HTMLInputElement} */ (h("input", { type: "search", name: "search", value: params.search || "",
    placeholder: "Search by name", "aria-label": "Search players by name" }));
  const load = async () => {
    try {
      const board = await get(`/api/players?search=${encodeURIComponent(search.value.trim())}`);
      clear(list, board.players.length
        ? h("table", {},
            h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Experience", "Matches", "Last played"].map((t) =>
              h("th", { scope: "col" }, t)))),
            h("tbody", {}, board.players.map((/** @type {any} */ p) => h("tr", {},
              h("td", {}, String(p.rank)),
              h("td", {}, h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name)),
              h("td", {}, ratingText(p.rating, p.provisional)),
              h("td", {}, String(p.experience)),
              h("td", {}, String(p.matches)),
              h("td", {}, p.last_played ? whenText(p.last_played) : "–")))))
        : h("p", { class: "muted" }, search.value ? "Nobody by that name." : "Nobody is rated yet."));
    } catch (err) {
      clear(list, h("p", { class: "error", role: "alert" }, /** @type {Error} */ (err).message));
    }
  };
  main.replaceChildren(h("div", { class: "players" }, h("h2", {}, "Players"),
    h("form", { role: "search", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); load(); } }, search),
    h("p", { class: "muted small" }, "A rating marked ? is provisional: fewer than 400 points of matches played."),
    list));
  load();
  return {};
}
