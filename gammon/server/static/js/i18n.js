// @ts-check
// The player's language in the browser: the words of the message catalogs
// (gammon/locale/<lang>/LC_MESSAGES/gammon.po, served as JSON by /api/catalogs/{lang}),
// plural forms by the language's CLDR rules (Intl.PluralRules, the same data Babel reads on
// the server) and numbers as the language writes them (Intl.NumberFormat).
//
// English is the source language: every message in the client is an English sentence with
// {name} placeholders, written as a literal argument of t() or tn() so that
// scripts/i18n.py finds it, and it is also the message's key. A message the catalog lacks is
// shown in English: a player never sees a key.
//
// Which language: the player's choice (the "language" setting, kept in the browser and in
// the account), else the browser's Accept-Language as the server reads it. The choice is
// also left in the cookie gammon_lang, so that what the server writes (its errors, the
// table's log, the page itself) comes in the same language.

import { settings } from "./settings.js";

/** The languages offered, English first, each by its own name. */
export const LANGUAGE_NAMES = Object.freeze({
  en: "English",
  fi: "suomi",
  sv: "svenska",
  nb: "norsk bokmål",
  nl: "Nederlands",
});
/** @typedef {keyof typeof LANGUAGE_NAMES} Language */
export const LANGUAGES = /** @type {Language[]} */ (Object.keys(LANGUAGE_NAMES));

/** @typedef {Record<string, string | Record<string, string>>} Messages */

/** @type {Language} */
let current = "en";
/** @type {Messages} */
let messages = {};
/** @type {Map<string, {lang: Language, messages: Messages}>} */
const loaded = new Map();

/** The language the page speaks now. */
export function language() {
  return current;
}

/**
 * `text` with each {name} of `values` filled in ({{ and }} stand for braces, as in
 * Python's str.format, which writes the same messages on the server).
 * @param {string} text
 * @param {Record<string, unknown>} values
 */
function fill(text, values) {
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return name in values ? String(values[name]) : whole;
  });
}

/**
 * `message` in the page's language, with `values` filled in.
 * @param {string} message the English text, a literal (scripts/i18n.py extracts it)
 * @param {Record<string, unknown>} [values]
 */
export function t(message, values = {}) {
  const found = messages[message];
  return fill(typeof found === "string" ? found : message, values);
}

/**
 * The form of a message for the count `n` (filled in as {n}, in the language's digits).
 * @param {string} singular the English form for one, a literal
 * @param {string} plural the English form for others, a literal
 * @param {number} n
 * @param {Record<string, unknown>} [values]
 */
export function tn(singular, plural, n, values = {}) {
  const found = messages[singular];
  let text = n === 1 ? singular : plural;
  if (found && typeof found === "object") {
    const category = new Intl.PluralRules(current).select(n);
    text = found[category] || found.other || text;
  }
  return fill(text, { ...values, n: number(n) });
}

/**
 * `value` as the page's language writes it, with `digits` decimals (any, if not given).
 * @param {number} value
 * @param {number} [digits]
 */
export function number(value, digits) {
  const options = digits === undefined ? { maximumFractionDigits: 3 }
    : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(current, options).format(value);
}

/**
 * A signed figure (an equity): +0.125, −0,125 in Finnish.
 * @param {number} value
 * @param {number} [digits]
 */
export function signed(value, digits = 3) {
  return new Intl.NumberFormat(current, {
    minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: "exceptZero",
  }).format(value);
}

/**
 * A fraction as a percentage: 0.5 -> 50.0% (50,0 % in Finnish).
 * @param {number} value
 * @param {number} [digits]
 */
export function percent(value, digits = 1) {
  return new Intl.NumberFormat(current, {
    style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits,
  }).format(value);
}

/**
 * Our language for a BCP 47 tag ("sv-FI" -> sv, "no" and "nn" -> nb), or null.
 * @param {string} tag
 * @returns {Language | null}
 */
export function ours(tag) {
  let base = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (base === "no" || base === "nn") base = "nb";
  return base in LANGUAGE_NAMES ? /** @type {Language} */ (base) : null;
}

/**
 * Speak `choice` ("" or null: the browser's language, as the server negotiates it from
 * Accept-Language): load its catalog, and mark the page and the cookie with it. The
 * language spoken before is kept when the catalog cannot be had (offline).
 * @param {string | null} choice
 * @returns {Promise<Language>}
 */
export async function useLanguage(choice) {
  const wanted = choice ? ours(choice) : null;
  const key = wanted || "";
  let catalog = loaded.get(key);
  if (!catalog) {
    try {
      const response = await fetch(wanted ? `/api/catalogs/${wanted}` : "/api/catalog",
        { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const body = await response.json();
      catalog = { lang: ours(body.lang) || "en", messages: body.messages || {} };
      loaded.set(key, catalog);
      loaded.set(catalog.lang, catalog);
    } catch {
      return current;
    }
  }
  current = catalog.lang;
  messages = catalog.messages;
  document.documentElement.lang = current;
  document.cookie = `gammon_lang=${current}; path=/; max-age=31536000; samesite=lax`;
  return current;
}

/**
 * Follow the "language" setting: speak it now, and call `changed` after each change of it
 * (once its catalog is loaded), so that the page can draw itself again in the new words.
 * @param {() => void} changed
 */
export async function followLanguage(changed) {
  await useLanguage(settings.get().language);
  settings.subscribe(async (values, keys) => {
    if (!keys.includes("language")) return;
    const before = current;
    await useLanguage(values.language);
    if (current !== before) changed();
  });
}

/**
 * Mark `message` for the catalogs where it is written (a table of words made when the
 * module loads, before any catalog is) and translate it with t() where it is shown.
 * @param {string} message
 */
export function N_(message) {
  return message;
}

/**
 * A translated message with an element in it: the text before the placeholder `{name}`,
 * the element, the text after (a link or a code in the middle of a sentence, wherever the
 * language puts it). Call it with a message from t() that leaves `{name}` unfilled.
 * @template T
 * @param {string} text
 * @param {string} name the placeholder, with its braces: "{link}"
 * @param {T} node
 * @returns {(string | T)[]}
 */
export function around(text, name, node) {
  const at = text.indexOf(name);
  if (at < 0) return [text, " ", node];
  return [text.slice(0, at), node, text.slice(at + name.length)];
}
