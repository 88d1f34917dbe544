// @ts-check
// Small DOM helpers shared by the views: no framework, no build step.

import { language, t } from "./i18n.js";

/** @typedef {import("./protocol.js").Settings} Settings */

/** What h() and s() take as children (arrays are flattened). @typedef {Node | string | number | boolean | null | undefined | any[]} Child */
/** Attributes and listeners by name. @typedef {Record<string, any>} Attrs */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * @param {Element} el
 * @param {Attrs | null | undefined} attrs
 * @param {boolean} svg
 */
function setAttrs(el, attrs, svg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.setAttribute("class", value);
    } else if (key === "dataset") {
      const data = /** @type {HTMLElement | SVGElement} */ (el).dataset;
      for (const [k, v] of Object.entries(value)) data[k] = v;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(/** @type {HTMLElement} */ (el).style, value);
    } else if (!svg && key in el && typeof value !== "string") {
      /** @type {any} */ (el)[key] = value; // value, checked, disabled, open...
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/**
 * An HTML element: h("button", {class: "primary", onclick}, "Roll").
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs, false);
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs, true);
  append(el, children);
  return el;
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...Child} children
 */
export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Mark the one item of a list that is current (class "current") and scroll the list's
 * own box to show it, never the page: a phone opens a replay at its top.
 * @param {HTMLElement} list
 * @param {(li: HTMLElement) => boolean} isCurrent
 */
export function markCurrent(list, isCurrent) {
  for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    const current = isCurrent(li);
    li.classList.toggle("current", current);
    if (!current) continue;
    if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
    else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
    }
  }
}

/**
 * The links out of a page that could not be shown (a missing player, analysis or page):
 * back to the lobby, and to where the missing thing is usually found.
 * @param {...[string, string]} more further [href, text] links
 */
export function wayBack(...more) {
  return h("p", { class: "way-back" },
    h("a", { href: "#/", id: "back-to-lobby" }, t("Back to the lobby")),
    more.map(([href, text]) => [" · ", h("a", { href }, text)]));
}

/** Fresh random bytes in hex, from the browser's secure source (DICE.md: our entropy). */
export function randomHex(bytes = 32) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return toHex(buf);
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} hex */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) {
    throw new Error(`not hex: ${String(hex).slice(0, 40)}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * A clock's reserve as people read it: 9:58, 1:00:00.
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? h + ":" : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

/**
 * A time of day as the page's language writes it (14.05 in Finnish, 2:05 PM in English).
 * @param {number} ms
 */
export function timeText(ms) {
  return new Date(ms).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
}

/**
 * A short description of table settings, for the lobby and the table header.
 * @param {Partial<Settings>} settings
 */
export function describeSettings(settings) {
  const parts = [];
  if (settings.mode === "money") {
    parts.push(settings.max_games === 1 ? t("money, 1 game") : t("money session"));
  } else {
    parts.push(t("match to {length}", { length: settings.length }));
  }
  if (settings.variant && settings.variant !== "standard") parts.push(settings.variant);
  if (!settings.cube) parts.push(t("no cube"));
  if (settings.mode === "match" && settings.cube && !settings.crawford) parts.push(t("no Crawford"));
  if (settings.jacoby) parts.push("Jacoby");
  if (settings.beavers) parts.push(t("beavers"));
  if (settings.auto_doubles) parts.push(t("auto-doubles {n}", { n: settings.auto_doubles }));
  if (settings.stakes) parts.push(t("stakes {stakes}", { stakes: settings.stakes }));
  if (settings.practice) parts.push(t("practice"));
  if (settings.clock) {
    const c = settings.clock;
    let text = c.base_s < 60 ? t("{seconds} s", { seconds: c.base_s }) : t("{minutes} min", { minutes: Math.round(c.base_s / 60) });
    if (c.delay_s) text = t("{clock} + {delay} s delay", { clock: text, delay: c.delay_s });
    if (c.increment_s) text = t("{clock} + {increment} s a move", { clock: text, increment: c.increment_s });
    parts.push(text);
  }
  return parts.join(" · ");
}
