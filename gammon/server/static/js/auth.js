// @ts-check
// Sign up, log in, or play as a guest (docs/PROTOCOL.md 1.2); the server's messages shown inline.

import { post } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 * @param {import("./app.js").App} app
 */
export function mountAuth(main, params, app) {
  const next = params.next && params.next.startsWith("#/") ? params.next : "#/";
  const error = h("p", { class: "error", role: "alert", id: "auth-error", hidden: true });
  const name = /** @type {HTMLInputElement} */ (h("input", { type: "text", name: "name", autocomplete: "username", required: true,
                            minlength: 3, maxlength: 20, "aria-describedby": "name-help auth-error" }));
  const password = /** @type {HTMLInputElement} */ (h("input", { type: "password", name: "password", autocomplete: "current-password",
                                required: true, minlength: 8, "aria-describedby": "auth-error" }));
  const show = (/** @type {string | null} */ message) => {
    error.hidden = !message;
    error.textContent = message || "";
  };
  const done = (/** @type {import("./protocol.js").User} */ user) => {
    app.setMe(user);
    app.go(next);
  };
  const submit = async (/** @type {"login" | "signup"} */ kind) => {
    show(null);
    if (kind === "signup") password.setAttribute("autocomplete", "new-password");
    try {
      const answer = await post(`/api/${kind}`, { name: name.value.trim(), password: password.value });
      done(answer.user);
    } catch (caught) {
      const err = /** @type {import("./api.js").ApiError} */ (caught);
      show(err.message);
      (err.code === "bad_password" || err.code === "bad_credentials" ? password : name).focus();
    }
  };
  const guest = async () => {
    show(null);
    try {
      done((await post("/api/guest", {})).user);
    } catch (err) {
      show(/** @type {Error} */ (err).message);
    }
  };
  const form = h("form", { class: "auth-form", novalidate: true,
                           onsubmit: (/** @type {SubmitEvent} */ e) => { e.preventDefault(); submit(e.submitter && /** @type {HTMLButtonElement} */ (e.submitter).value === "signup" ? "signup" : "login"); } },
    h("label", { class: "field" }, h("span", {}, t("Name")), name),
    h("p", { class: "muted small", id: "name-help" }, t("3-20 letters, digits, _ or -, starting with a letter.")),
    h("label", { class: "field" }, h("span", {}, t("Password")), password),
    error,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", name: "login", value: "login" }, t("Log in")),
      h("button", { type: "submit", name: "signup", value: "signup" }, t("Sign up"))),
  );
  main.replaceChildren(h("section", { class: "auth", "aria-labelledby": "auth-title" },
    h("h1", { id: "auth-title" }, t("Sign in")),
    form,
    h("p", { class: "or" }, t("or")),
    h("button", { type: "button", name: "guest", onclick: guest }, t("Play as a guest")),
    h("p", { class: "muted small" }, t("A guest gets a name like {name} for this browser.", { name: "Guest-7f3a9c" }))));
  name.focus();
  return { destroy() {} };
}
