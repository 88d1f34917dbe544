// @ts-check
// A player's rating over their rated matches, as an SVG line chart. `ratingGraph` is pure
// (the geometry: the line, the axes' ticks, one dot per match; unit-tested with
// `node --test`, tests/js/); `drawRatingGraph` turns it into SVG elements.

/**
 * One point of a rating history (GET /api/players/{name}: `rating_history`).
 * @typedef {object} RatingPoint
 * @property {number} at when the match finished, seconds since 1970
 * @property {number} rating the rating after it
 */

/**
 * @typedef {object} Tick
 * @property {number} pos where the tick is (x for the time axis, y for the rating axis)
 * @property {string} label
 */

/**
 * @typedef {object} GraphModel
 * @property {number} width
 * @property {number} height
 * @property {{left: number, right: number, top: number, bottom: number}} plot the plot area
 * @property {string} path the line, as an SVG path ("" when there is nothing to draw)
 * @property {{x: number, y: number, rating: number, at: number}[]} dots one per point
 * @property {Tick[]} yTicks
 * @property {Tick[]} xTicks
 */

import { language, t, tn } from "./i18n.js";

const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/**
 * A tick step that gives at most `most` ticks over `span`.
 * @param {number} span
 * @param {number} most
 */
export function tickStep(span, most = 5) {
  for (const step of STEPS) if (span / step <= most) return step;
  return STEPS[STEPS.length - 1];
}

/**
 * A date as the page's language writes it (English: 2026-01-31, as ever); the day in UTC,
 * as the chart's ticks are.
 * @param {number} seconds
 */
function dateLabel(seconds) {
  const date = new Date(seconds * 1000);
  if (language() === "en") return date.toISOString().slice(0, 10);
  return date.toLocaleDateString(language(), { year: "numeric", month: "numeric", day: "numeric", timeZone: "UTC" });
}

/**
 * The chart's geometry. Matches are spaced evenly along x (a busy evening and a quiet
 * month take the same room per match); the dates of the first and last are labelled.
 * The rating axis covers the points with a margin and starts and ends on a tick.
 * @param {RatingPoint[]} points oldest first
 * @param {{width?: number, height?: number, start?: number}} [options] `start`: the rating
 *   before the first point (1500), drawn as the line's first point
 * @returns {GraphModel}
 */
export function ratingGraph(points, options = {}) {
  const width = options.width ?? 600;
  const height = options.height ?? 220;
  const plot = { left: 48, right: width - 12, top: 12, bottom: height - 28 };
  const start = options.start ?? 1500;
  /** @type {RatingPoint[]} */
  const all = points.length ? [{ at: points[0].at, rating: start }, ...points] : [];
  const ratings = all.map((p) => p.rating);
  const low = ratings.length ? Math.min(...ratings) : start;
  const high = ratings.length ? Math.max(...ratings) : start;
  const step = tickStep(Math.max(high - low, 10) + 10);
  const bottom = Math.floor((low - 5) / step) * step;
  const top = Math.max(Math.ceil((high + 5) / step) * step, bottom + step);
  /** @param {number} rating */
  const y = (rating) =>
    plot.bottom - ((rating - bottom) / (top - bottom)) * (plot.bottom - plot.top);
  /** @param {number} index */
  const x = (index) =>
    all.length <= 1
      ? plot.left
      : plot.left + (index / (all.length - 1)) * (plot.right - plot.left);
  const round = (/** @type {number} */ v) => Math.round(v * 10) / 10;
  const dots = all.map((p, i) => ({ x: round(x(i)), y: round(y(p.rating)), rating: p.rating, at: p.at }));
  const path = dots.map((d, i) => `${i ? "L" : "M"}${d.x} ${d.y}`).join(" ");
  /** @type {Tick[]} */
  const yTicks = [];
  for (let r = bottom; r <= top; r += step) yTicks.push({ pos: round(y(r)), label: String(r) });
  /** @type {Tick[]} */
  const xTicks = [];
  if (all.length) {
    xTicks.push({ pos: plot.left, label: dateLabel(all[0].at) });
    const last = all[all.length - 1];
    if (dateLabel(last.at) !== xTicks[0].label) xTicks.push({ pos: round(x(all.length - 1)), label: dateLabel(last.at) });
  }
  return { width, height, plot, path, dots: dots.slice(1), yTicks, xTicks };
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} name
 * @param {Record<string, string | number>} attributes
 * @param {string} [text]
 */
function element(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The chart as an SVG element, with a title for screen readers.
 * @param {RatingPoint[]} points
 * @param {{width?: number, height?: number, start?: number}} [options]
 */
export function drawRatingGraph(points, options = {}) {
  const model = ratingGraph(points, options);
  const svg = element("svg", {
    viewBox: `0 0 ${model.width} ${model.height}`,
    class: "rating-graph",
    role: "img",
  });
  const last = points.length ? Math.round(points[points.length - 1].rating) : null;
  svg.append(element("title", {}, last === null
    ? t("No rated matches yet")
    : tn("Rating over {n} rated match, now {rating}", "Rating over {n} rated matches, now {rating}", points.length,
      { rating: last })));
  const { plot } = model;
  for (const tick of model.yTicks) {
    svg.append(element("line", { x1: plot.left, x2: plot.right, y1: tick.pos, y2: tick.pos, class: "grid" }));
    svg.append(element("text", { x: plot.left - 6, y: tick.pos + 4, "text-anchor": "end" }, tick.label));
  }
  for (const tick of model.xTicks) {
    const anchor = tick.pos === plot.left ? "start" : "end";
    svg.append(element("text", { x: tick.pos, y: model.height - 8, "text-anchor": anchor }, tick.label));
  }
  if (model.path) svg.append(element("path", { d: model.path, class: "line", fill: "none" }));
  for (const dot of model.dots) {
    const circle = element("circle", { cx: dot.x, cy: dot.y, r: 3, class: "dot" });
    circle.append(element("title", {}, t("{rating} on {date}", { rating: Math.round(dot.rating), date: dateLabel(dot.at) })));
    svg.append(circle);
  }
  return svg;
}
