// @ts-check
// Reading the lobby's "create a table" form into SETTINGS (docs/PROTOCOL.md 1.3), checked
// in the player's words before anything is sent. Pure: no DOM (unit-tested with
// `node --test`, tests/js/); lobby.js gathers the form's values and shows the answer.

import { N_, t } from "./i18n.js";

/** @typedef {import("./protocol.js").Settings} Settings */
/** @typedef {import("./protocol.js").ClockSettings} ClockSettings */
/** @typedef {import("./protocol.js").Variant} Variant */

/**
 * The form as text and ticks, by field name.
 * @typedef {object} FormValues
 * @property {string} opponent "anyone", "invite" or "bot"
 * @property {string} invite
 * @property {string} bot
 * @property {string} mode "match" or "money"
 * @property {string} length the points of a match
 * @property {boolean} crawford
 * @property {string} max_games
 * @property {boolean} jacoby
 * @property {boolean} beavers
 * @property {string} auto_doubles
 * @property {string} stakes
 * @property {string} variant
 * @property {boolean} cube
 * @property {ClockSettings | null | "custom"} clock a preset, none, or the custom fields
 * @property {string} base_min
 * @property {string} delay_s
 * @property {string} increment_s
 * @property {boolean} [practice] hints and the tutor for both players (a table between people)
 */

/**
 * The settings, or what to mend (`field`: the form field to point at).
 * @typedef {{settings: Settings, error?: undefined, field?: undefined} |
 *   {error: string, field: string, settings?: undefined}} FormAnswer
 */

/**
 * The numeric fields: the user's words for each, and its range.
 * @type {Record<string, {label: string, low: number, high: number, blank?: boolean}>}
 */
export const NUMBERS = {
  length: { label: N_("Points"), low: 1, high: 64 },
  max_games: { label: N_("Games"), low: 1, high: 1000, blank: true },
  auto_doubles: { label: N_("Automatic doubles"), low: 0, high: 6, blank: true },
  stakes: { label: N_("Table stakes"), low: 1, high: 10000, blank: true },
  base_min: { label: N_("Minutes"), low: 1, high: 600 },
  delay_s: { label: N_("Delay"), low: 0, high: 120, blank: true },
  increment_s: { label: N_("Increment"), low: 0, high: 120, blank: true },
};

/** Thrown inside readSettings with the field to mend. */
class Mend extends Error {
  /**
   * @param {string} field
   * @param {string} message
   */
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

/**
 * A whole number in range, or null for a blank that may be blank.
 * @param {Record<string, unknown>} values
 * @param {string} name
 * @returns {number | null}
 */
function whole(values, name) {
  const spec = NUMBERS[name];
  const text = String(values[name] ?? "").trim();
  const words = { field: t(spec.label), low: spec.low, high: spec.high };
  if (text === "") {
    if (spec.blank) return null;
    throw new Mend(name, t("{field}: enter a whole number from {low} to {high}.", words));
  }
  if (!/^\d+$/.test(text) || Number(text) < spec.low || Number(text) > spec.high) {
    throw new Mend(name, t("{field}: {text} is not a whole number from {low} to {high}.", { ...words, text }));
  }
  return Number(text);
}

/**
 * Whether a variant has a doubling cube, as the server says (`/api/info`); a variant the
 * server did not describe is taken to have one.
 * @param {Variant[]} variants
 * @param {string} name
 */
export function variantHasCube(variants, name) {
  const v = variants.find((x) => x.name === name);
  return v ? v.cube !== false : true;
}

/**
 * The settings a filled-in form asks for, or the first thing to mend.
 * @param {FormValues} values
 * @param {Variant[]} variants
 * @returns {FormAnswer}
 */
export function readSettings(values, variants) {
  const all = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (values));
  try {
    const mode = values.mode === "money" ? "money" : "match";
    /** @type {Settings} */
    const settings = {
      mode,
      variant: values.variant,
      cube: values.cube && variantHasCube(variants, values.variant),
    };
    if (mode === "match") {
      settings.length = whole(all, "length");
      settings.crawford = values.crawford;
    } else {
      settings.jacoby = values.jacoby;
      settings.beavers = values.beavers;
      settings.auto_doubles = whole(all, "auto_doubles") || 0;
      const games = whole(all, "max_games");
      if (games !== null) settings.max_games = games;
      const stakes = whole(all, "stakes");
      if (stakes !== null) settings.stakes = stakes;
    }
    if (values.clock === "custom") {
      settings.clock = {
        base_s: /** @type {number} */ (whole(all, "base_min")) * 60,
        delay_s: whole(all, "delay_s") || 0,
        increment_s: whole(all, "increment_s") || 0,
      };
    } else if (values.clock) {
      settings.clock = values.clock;
    }
    if (values.opponent === "invite") {
      const name = values.invite.trim();
      if (!name) throw new Mend("invite", t("Invite a player: enter their name."));
      settings.invite = name;
    }
    if (values.opponent === "bot") settings.bot = values.bot;
    else if (values.practice) settings.practice = true; // against the bot it always is
    return { settings };
  } catch (err) {
    if (err instanceof Mend) return { error: err.message, field: err.field };
    throw err;
  }
}

/**
 * The server's refusal in the form's words: it names the fields as the protocol does
 * ('length'); the form calls them as its labels do (Points).
 * @param {string} message
 */
export function inFormWords(message) {
  let text = message;
  for (const [name, spec] of Object.entries(NUMBERS)) {
    text = text.replaceAll(`'${name}'`, t(spec.label));
  }
  return text.replace(/'([a-z_]+)'/g, "$1");
}

/**
 * What the lobby's filters ask for: "" for any.
 * @typedef {{status: "open" | "playing" | "all", rated: "" | "rated" | "unrated", length: string,
 *            variant: string}} TableFilters
 */

/** Tables on one page of the lobby's list (docs/PROTOCOL.md 7). */
export const PAGE_SIZE = 20;

/**
 * The `lobby_view` message for the filters and a page: the server filters and pages the
 * tables (docs/PROTOCOL.md 7), so the page never holds more than PAGE_SIZE of them. A money
 * session has no length: a length filter leaves it out, and it is never rated.
 * @param {TableFilters} filters
 * @param {number} page
 * @returns {Record<string, unknown>}
 */
export function lobbyView(filters, page) {
  const length = filters.length.trim() === "" ? NaN : Number(filters.length);
  /** @type {Record<string, unknown>} */
  const view = { type: "lobby_view", status: filters.status, page, size: PAGE_SIZE };
  if (Number.isInteger(length) && length >= 1 && length <= 64) view.length = length;
  if (filters.variant) view.variant = filters.variant;
  if (filters.rated) view.rated = filters.rated === "rated";
  return view;
}
