// @ts-check
// Small DOM helpers shared by the views: no framework, no build step.

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
 * The links out of a page that could not be shown (a missing player, analysis or page):
 * back to the lobby, and to where the missing thing is usually found.
 * @param {...[string, string]} more further [href, text] links
 */
export function wayBack(...more) {
  return h("p", { class: "way-back" },
    h("a", { href: "#/", id: "back-to-lobby" }, "Back to the lobby"),
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

/** @param {number} ms */
export function timeText(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * A short description of table settings, for the lobby and the table header.
 * @param {Partial<Settings>} settings
 */
export function describeSettings(settings) {
  const parts = [];
  if (settings.mode === "money") {
    parts.push(settings.max_games === 1 ? "money, 1 game" : "money session");
  } else {
    parts.push(`match to ${settings.length}`);
  }
  if (settings.variant && settings.variant !== "standard") parts.push(settings.variant);
  if (!settings.cube) parts.push("no cube");
  if (settings.mode === "match" && settings.cube && !settings.crawford) parts.push("no Crawford");
  if (settings.jacoby) parts.push("Jacoby");
  if (settings.beavers) parts.push("beavers");
  if (settings.auto_doubles) parts.push(`auto-doubles ${settings.auto_doubles}`);
  if (settings.stakes) parts.push(`stakes ${settings.stakes}`);
  if (settings.practice) parts.push("practice");
  if (settings.clock) {
    const c = settings.clock;
    let text = c.base_s < 60 ? `${c.base_s} s` : `${Math.round(c.base_s / 60)} min`;
    if (c.delay_s) text += ` + ${c.delay_s} s delay`;
    if (c.increment_s) text += ` + ${c.increment_s} s a move`;
    parts.push(text);
  }
  return parts.join(" · ");
}
