// @ts-check
// The site's pages made from the project's documents (#/rules: the rule book, #/dice: how
// the dice are made fair), as the server renders them (docs/PROTOCOL.md 1.7).

import { get } from "./api.js";
import { t } from "./i18n.js";
import { h, wayBack } from "./util.js";

/**
 * @param {HTMLElement} main
 * @param {string} name
 */
export function mountPage(main, name) {
  const body = h("article", { class: "doc-page", id: `page-${name}` }, h("p", { class: "muted" }, t("Loading…")));
  main.replaceChildren(body);
  get(`/api/pages/${name}`).then((page) => {
    document.title = `${page.title} · gammon`;
    body.innerHTML = page.html; // our own documents, rendered without raw HTML (pages.py)
    body.append(wayBack(["#/board", t("Analysis board")]));
  }).catch((err) => {
    body.replaceChildren(h("p", { class: "error", role: "alert" }, /** @type {Error} */ (err).message), wayBack());
  });
  return {};
}
