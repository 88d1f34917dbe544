// @ts-check
// The table page's controls: the action buttons under the board (exactly the actions the
// server lists for the player, docs/PROTOCOL.md 3), the resign menu, and the list of legal
// plays. They build elements and call back; the page (table.js) decides what happens.

import { number, t, tn } from "./i18n.js";
import { diceText, resignLabel } from "./table-text.js";
import { h } from "./util.js";

/** @typedef {import("./protocol.js").State} State */
/** @typedef {import("./protocol.js").ActionType} ActionType */
/** @typedef {import("./moves.js").MoveInput} MoveInput */

/**
 * What the controls need from the page.
 * @typedef {object} ControlContext
 * @property {State} state
 * @property {number} id the table
 * @property {import("./protocol.js").User | null} me
 * @property {MoveInput | null} input the player's moves, while they must play
 * @property {boolean} busy an action is on its way: wait for its answer
 * @property {(type: ActionType, extra?: Record<string, unknown>) => void} act
 * @property {() => void} undo
 * @property {() => void} confirm
 * @property {boolean} [holding] the bot waits for the answer to the tutor's warning
 * @property {() => void} [keep] keep the play the tutor warned about
 */

/**
 * @param {ControlContext} ctx
 * @param {string} label
 * @param {string} action
 * @param {() => void} onclick
 * @param {{primary?: boolean, keys?: string | null, title?: string | null}} [options]
 */
function button(ctx, label, action, onclick, { primary = false, keys = null, title = null } = {}) {
  return h("button", {
    type: "button", class: primary ? "primary" : null, dataset: { action },
    disabled: ctx.busy, onclick, "aria-keyshortcuts": keys, title,
  }, label);
}

/**
 * The buttons for the state.
 * @param {ControlContext} ctx
 * @returns {HTMLElement[]}
 */
export function controlButtons(ctx) {
  const st = ctx.state;
  const g = st.game;
  const me = ctx.me;
  /** @type {HTMLElement[]} */
  const out = [];
  if (st.status === "finished") {
    out.push(h("a", { class: "button primary", href: `#/record/${ctx.id}` }, t("Verify the dice & replay")));
    out.push(h("a", { class: "button", href: "#/" }, t("Back to the lobby")));
    return out;
  }
  if (st.status === "open") {
    const creator = st.players[0] && st.players[0].name;
    if (me && creator === me.name) {
      out.push(button(ctx, t("Cancel the table"), "cancel", () => ctx.act("cancel")));
    } else if (me) {
      out.push(button(ctx, t("Join"), "join", () => ctx.act("join"), { primary: true }));
    } else {
      out.push(h("a", { class: "button primary", href: `#/login?next=${encodeURIComponent(`#/table/${ctx.id}?join`)}` },
        t("Sign in to join")));
    }
    return out;
  }
  if (st.status === "cancelled" || !g) return out;
  const a = new Set(g.actions);
  if (a.has("roll")) {
    out.push(button(ctx, g.phase === "opening" ? t("Opening roll") : t("Roll"), "roll",
      () => ctx.act("roll"), { primary: true, keys: "R" }));
  }
  if (a.has("double")) {
    out.push(button(ctx, t("Double to {value}", { value: number(g.cube.value * 2) }), "double", () => ctx.act("double"), { keys: "D" }));
  }
  if (a.has("take")) {
    const beaverOffer = g.phase === "beaver offered";
    out.push(button(ctx, beaverOffer ? t("Accept the beaver") : t("Take"), "take", () => ctx.act("take"), { primary: true }));
    out.push(button(ctx, beaverOffer ? t("Refuse the beaver") : t("Drop"), "drop", () => ctx.act("drop")));
  }
  if (a.has("beaver")) out.push(button(ctx, t("Beaver"), "beaver", () => ctx.act("beaver")));
  const input = ctx.input;
  if (a.has("play") && input) {
    const complete = input.complete;
    out.push(h("button", { type: "button", dataset: { action: "undo" }, onclick: () => ctx.undo(),
                           disabled: !input.steps.length || ctx.busy, "aria-keyshortcuts": "U" }, t("Undo")));
    out.push(h("button", { type: "button", class: "primary", dataset: { action: "confirm" },
                           onclick: () => ctx.confirm(), disabled: !complete || ctx.busy,
                           "aria-keyshortcuts": "Enter" }, complete ? t("Confirm {play}", { play: complete.play }) : t("Confirm")));
  }
  if (a.has("choose_double")) {
    const group = h("span", { class: "group", role: "group", "aria-label": t("Choose your double") });
    for (let n = 1; n <= 6; n++) {
      group.append(button(ctx, diceText([n, n]), `double-${n}`, () => ctx.act("choose_double", { number: n })));
    }
    out.push(group);
  }
  if (a.has("accept_resignation")) {
    out.push(button(ctx, t("Accept the resignation"), "accept_resignation", () => ctx.act("accept_resignation"), { primary: true }));
    out.push(button(ctx, t("Reject"), "reject_resignation", () => ctx.act("reject_resignation")));
  }
  if (a.has("take_back") && ctx.holding && ctx.keep) {
    // The tutor's warning waits for an answer: both, where the thumb is.
    const keep = ctx.keep;
    out.push(button(ctx, t("Take it back"), "take_back", () => ctx.act("take_back"), { primary: true }));
    out.push(button(ctx, t("Keep my play"), "keep", () => keep()));
  } else if (a.has("take_back")) {
    out.push(button(ctx, t("Take back"), "take_back", () => ctx.act("take_back")));
  }
  if (a.has("hint")) out.push(button(ctx, t("Hint"), "hint", () => ctx.act("hint"), { keys: "H" }));
  if (a.has("resign") || a.has("forfeit")) out.push(resignMenu(ctx, a));
  return out;
}

/**
 * @param {ControlContext} ctx
 * @param {Set<string>} actions
 */
function resignMenu(ctx, actions) {
  const st = ctx.state;
  const g = st.game;
  const menu = /** @type {HTMLDetailsElement} */ (h("details", { class: "menu" }, h("summary", {}, t("Resign…"))));
  const box = h("div", { class: "menu-items" });
  if (actions.has("resign") && g) {
    for (const value of [1, 2, 3]) {
      box.append(button(ctx, resignLabel(value, value * g.cube.value),
        `resign-${value}`, () => { menu.open = false; ctx.act("resign", { value }); }));
    }
  }
  if (actions.has("forfeit")) {
    const money = st.series && st.series.mode === "money";
    box.append(button(ctx, money ? t("Leave the session") : t("Leave the match (forfeit)"), "forfeit", () => {
      if (window.confirm(money ? t("Leave now? You lose the game and the session.") : t("Leave now? You lose the match."))) ctx.act("forfeit");
    }));
  }
  menu.append(box);
  return menu;
}

/**
 * The legal plays as a list to choose from: those that go on from what is on the board
 * (every one before a checker moves), the play on the board selected once it is complete.
 * @param {HTMLDetailsElement} el the list's <details>
 * @param {MoveInput | null} input
 * @param {(play: string) => void} choose put the play on the board
 */
export function renderPlayList(el, input, choose) {
  const choices = input ? input.choices() : [];
  el.hidden = !choices.length;
  if (!input || !choices.length) return;
  const complete = input.complete;
  const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": t("Legal plays"), name: "legal-play" },
    choices.map((p) => h("option", { value: p.play, selected: complete !== null && p.play === complete.play }, p.play))));
  const total = input.plays.length;
  const summary = !input.steps.length
    ? tn("Choose from the {n} legal play", "Choose from the {n} legal plays", total)
    : complete
      ? t("On the board: {play}", { play: complete.play })
      : tn("{count} of the {n} legal play goes on from your moves",
        "{count} of the {n} legal plays go on from your moves", total, { count: number(choices.length) });
  const wasOpen = el.open;
  el.replaceChildren(h("summary", {}, summary),
    h("div", { class: "row" }, select,
      h("button", { type: "button", name: "put-play", onclick: () => choose(select.value) }, t("Put on the board"))));
  el.open = wasOpen;
}
