// @ts-check
// The end of a game and of a match, over the board (issue 16, item 3): between games, who
// won what, the score and whether the next game is the Crawford game, until the player
// goes on; at the end of the match, Rematch, Analyse (the review, which starts by itself),
// Replay, the .mat file and the way back to the lobby. A rematch offer and the new table
// come as `rematch` messages on the table's socket (docs/PROTOCOL.md 4.6).

import { post } from "./api.js";
import { number, t } from "./i18n.js";
import { gameResultText, nameOf, resultText } from "./table-text.js";
import { clear, h } from "./util.js";

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").PreviousGame} PreviousGame */
/** @typedef {{type: "rematch", table: number, offered_by: number[], rematch: number | null}} RematchMessage */

/**
 * The score line after a game, and what the next game is.
 * @param {State} st
 * @returns {string[]}
 */
export function scoreLines(st) {
  const series = st.series;
  if (!series) return [];
  const names = [nameOf(st, 0), nameOf(st, 1)];
  const score = `${names[0]} ${number(series.score[0])} – ${number(series.score[1])} ${names[1]}`;
  const game = number(series.game_number);
  if (series.mode !== "match") return [t("Money session: {score}.", { score }), t("Next: game {game}.", { game })];
  const lines = [t("Match to {length}: {score}.", { length: number(series.length), score })];
  if (series.over) return lines;
  lines.push(series.crawford
    ? t("Next: game {game}, the Crawford game: nobody may double.", { game })
    : t("Next: game {game}.", { game }));
  return lines;
}

export class ResultScreen {
  /**
   * @param {number} tableId
   * @param {(hash: string) => void} go
   */
  constructor(tableId, go) {
    this.tableId = tableId;
    this.go = go;
    this.el = h("div", { class: "result-screen", id: "result-screen", role: "dialog", "aria-modal": "false",
      "aria-labelledby": "result-title", hidden: true });
    /** @type {"game" | "match" | null} */
    this.showing = null;
    this.shownGame = 0;
    this.rematchEl = h("p", { class: "rematch-note", id: "rematch-note", "aria-live": "polite" });
    /** @type {number | null} the side viewing (null: a spectator) */
    this.you = null;
  }

  hide() {
    this.el.hidden = true;
    this.el.classList.remove("between-games");
    this.showing = null;
  }

  /** The player acts on the board or the controls: a game's result gives way (a match's stays). */
  hideGame() {
    if (this.showing === "game") this.hide();
  }

  /**
   * A game of the match is over and the next begins.
   * @param {State} st
   * @param {PreviousGame} game
   */
  showGame(st, game) {
    if (st.status === "finished" || game.number <= this.shownGame) return;
    this.shownGame = game.number;
    this.showing = "game";
    this.el.hidden = false;
    this.el.classList.add("between-games"); // the board under it stays in play
    clear(this.el,
      h("h2", { id: "result-title" }, t("Game {number} is over", { number: number(game.number) })),
      h("p", { class: "result-line" }, gameResultText(st, game.result)),
      scoreLines(st).map((line) => h("p", {}, line)),
      h("div", { class: "result-actions" },
        h("button", { type: "button", class: "primary", id: "next-game", onclick: () => this.hide() }, t("Next game")),
        h("a", { href: `#/record/${this.tableId}/${game.number}`, target: "_blank", rel: "noopener" }, t("Verify the dice"))));
  }

  /**
   * The match (or the session) is over.
   * @param {State} st
   */
  showMatch(st) {
    if (this.showing === "match") return;
    this.showing = "match";
    this.you = st.you ?? null;
    const players = this.you !== null;
    this.el.hidden = false;
    clear(this.el,
      h("h2", { id: "result-title" }, st.series && st.series.mode === "money" ? t("The session is over") : t("The match is over")),
      h("p", { class: "result-line" }, h("strong", {}, resultText(st))),
      h("div", { class: "result-actions" },
        players ? h("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.askRematch() }, t("Rematch")) : null,
        h("a", { class: "button", id: "analyse-match", href: `#/review/${this.tableId}` }, t("Analyse")),
        h("a", { class: "button", href: `#/record/${this.tableId}` }, t("Replay")),
        h("a", { class: "button", href: `/api/tables/${this.tableId}/mat`, download: `table-${this.tableId}.mat` }, ".mat"),
        h("a", { class: "button", id: "result-lobby", href: "#/" }, t("Back to the lobby")),
        h("button", { type: "button", class: "link", onclick: () => this.hide() }, t("Look at the board"))),
      this.rematchEl);
  }

  async askRematch() {
    this.rematchEl.textContent = t("Asking for a rematch…");
    try {
      const { rematch } = await post(`/api/tables/${this.tableId}/rematch`, {});
      this.onRematch(rematch);
    } catch (err) {
      this.rematchEl.textContent = /** @type {Error} */ (err).message;
    }
  }

  /** @param {RematchMessage} m */
  onRematch(m) {
    if (m.rematch !== null && m.rematch !== undefined) {
      this.go(`#/table/${m.rematch}`);
      return;
    }
    const mine = this.you !== null && m.offered_by.includes(this.you);
    const theirs = m.offered_by.some((side) => side !== this.you);
    this.rematchEl.textContent = mine
      ? t("You asked for a rematch: waiting for your opponent.")
      : theirs ? t("Your opponent asks for a rematch: press Rematch to play again.") : "";
  }
}
