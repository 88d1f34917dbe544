// Small DOM helpers shared by the views: no framework, no build step.

const SVG_NS = "http://www.w3.org/2000/svg";

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function setAttrs(el, attrs, svg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.setAttribute("class", value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = v;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (!svg && key in el && typeof value !== "string") {
      el[key] = value; // value, checked, disabled, open...
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** An HTML element: h("button", {class: "primary", onclick}, "Roll"). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs, false);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs, true);
  append(el, children);
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Fresh random bytes in hex, from the browser's secure source (DICE.md: our entropy). */
export function randomHex(bytes = 32) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return toHex(buf);
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) {
    throw new Error(`not hex: ${String(hex).slice(0, 40)}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? h + ":" : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

export function timeText(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export const KINDS = ["", "single", "gammon", "backgammon"];

/** A short description of table settings, for the lobby and the table header. */
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
  if (settings.clock) {
    const c = settings.clock;
    let text = c.base_s < 60 ? `${c.base_s} s` : `${Math.round(c.base_s / 60)} min`;
    if (c.delay_s) text += ` + ${c.delay_s} s delay`;
    if (c.increment_s) text += ` + ${c.increment_s} s a move`;
    parts.push(text);
  }
  return parts.join(" · ");
}
