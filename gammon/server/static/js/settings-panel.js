// @ts-check
// The settings panel (a dialog, from the header and from the table) and what applies the
// settings to the page: the board's colours and orientation, the pip counts. Each control
// saves its setting at once (settings.js), and the page follows at once.

import { setHomeLeft } from "./geometry.js";
import { N_, t } from "./i18n.js";
import { CHOICES, settings } from "./settings.js";
import { sounds } from "./sound.js";
import { h } from "./util.js";

/** @typedef {import("./settings.js").Settings} Settings */

/** The words for each choice (translated where shown). */
const WORDS = {
  animation: { off: N_("Off"), fast: N_("Fast"), normal: N_("Normal"), slow: N_("Slow") },
  homeBoard: { right: N_("Home board on the right"), left: N_("Home board on the left") },
  colours: { classic: N_("Classic (wood)"), green: N_("Green felt"), blue: N_("Blue"), contrast: N_("High contrast") },
};

/**
 * The page follows the settings: the board's colours and pip counts by attributes the CSS
 * reads, the orientation in geometry.js (the views redraw their boards on a change).
 * @param {Settings} s
 */
export function applySettings(s) {
  const root = document.documentElement;
  root.dataset.boardColours = s.colours;
  root.dataset.pips = s.pips ? "on" : "off";
  setHomeLeft(s.homeBoard === "left");
}

/** Apply the settings now and on every change (the app calls this once). */
export function followSettings() {
  settings.subscribe((s) => applySettings(s), { now: true });
}

/**
 * @param {keyof Settings} name
 * @param {string} label
 * @param {string} [note]
 */
function checkbox(name, label, note) {
  const s = settings.get();
  return h("label", { class: "check setting" },
    h("input", { type: "checkbox", name, checked: Boolean(s[name]),
                 onchange: (/** @type {Event} */ e) => settings.set({ [name]: /** @type {HTMLInputElement} */ (e.target).checked }) }),
    h("span", {}, label, note ? h("small", { class: "muted" }, ` ${note}`) : null));
}

/**
 * @param {"animation" | "homeBoard" | "colours"} name
 * @param {string} label
 */
function choice(name, label) {
  const s = settings.get();
  const words = /** @type {Record<string, string>} */ (WORDS[name]);
  return h("label", { class: "field setting" }, h("span", {}, label),
    h("select", { name, onchange: (/** @type {Event} */ e) => settings.set({ [name]: /** @type {HTMLSelectElement} */ (e.target).value }) },
      CHOICES[name].map((value) => h("option", { value, selected: s[name] === value }, t(words[value])))));
}

/** The panel's controls. */
function panelBody() {
  const s = settings.get();
  const volume = h("input", { type: "range", name: "volume", min: "0", max: "100", step: "5",
                              value: String(Math.round(s.volume * 100)), "aria-label": t("Volume"),
                              oninput: (/** @type {Event} */ e) => settings.set({ volume: Number(/** @type {HTMLInputElement} */ (e.target).value) / 100 }) });
  return [
    h("fieldset", {}, h("legend", {}, t("Sound")),
      checkbox("sound", t("Sounds"), t("(your turn, a double, the end of a game)")),
      h("label", { class: "field setting" }, h("span", {}, t("Volume")),
        h("span", { class: "row" }, volume,
          h("button", { type: "button", name: "test-sound", onclick: () => sounds.tryOut("turn") }, t("Try"))))),
    h("fieldset", {}, h("legend", {}, t("Board")),
      choice("animation", t("Moves shown moving (speed)")),
      choice("homeBoard", t("Orientation")),
      choice("colours", t("Colours")),
      checkbox("pips", t("Show the pip counts"))),
    h("fieldset", {}, h("legend", {}, t("Moving")),
      checkbox("autoRoll", t("Roll for me"), t("when I have no cube decision to make")),
      checkbox("fastEntry", t("One click moves a checker"), t("by the higher die; click a die to use it instead")),
      checkbox("autoConfirm", t("Confirm my play by itself"), t("as soon as its last checker is moved")),
      h("p", { class: "muted small" }, t("Until a play is confirmed, Undo (or U, or Backspace) takes back its last checker."))),
  ];
}

/** Open the settings dialog (one at a time; it is made afresh, so it shows the values now). */
export function openSettings() {
  const old = document.getElementById("settings");
  if (old) old.remove();
  const dialog = /** @type {HTMLDialogElement} */ (h("dialog", { id: "settings", class: "settings-panel",
                                                                 "aria-labelledby": "settings-title" },
    h("div", { class: "settings-head" },
      h("h2", { id: "settings-title" }, t("Settings")),
      h("button", { type: "button", name: "close-settings", "aria-label": t("Close the settings"),
                    onclick: () => dialog.close() }, t("Close"))),
    h("p", { class: "muted small" }, t("Kept in this browser; each one applies at once.")),
    panelBody()));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** The header's button that opens the panel. */
export function settingsButton() {
  return h("button", { type: "button", class: "link", name: "settings", onclick: () => openSettings() }, t("Settings"));
}
