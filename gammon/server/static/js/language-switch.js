// @ts-check
// The language switch in every page's header: each language by its own name, and the
// browser's own choice first (the "language" setting, i18n.js).

import { LANGUAGE_NAMES, LANGUAGES, language, t } from "./i18n.js";
import { settings } from "./settings.js";
import { h } from "./util.js";

/** The switch: a select that sets the player's "language" setting. */
export function languageSwitch() {
  const chosen = settings.get().language;
  const select = /** @type {HTMLSelectElement} */ (h("select", {
    id: "language", name: "language", "aria-label": t("Language"), title: t("Language"),
    onchange: () => settings.set({ language: select.value }),
  },
  h("option", { value: "" }, t("Browser's language ({name})", { name: LANGUAGE_NAMES[language()] })),
  ...LANGUAGES.map((lang) => h("option", { value: lang, lang }, LANGUAGE_NAMES[lang]))));
  select.value = chosen;
  return select;
}
