// @ts-check
// The lobby: the play panel first (lobby-play.js: the computer or a person in one click),
// the live list of tables a page at a time, filtered by the server (docs/PROTOCOL.md 7), a form to create one with its settings
// (R10-R14; read and checked by lobby-form.js, behind a button), and the lobby chat.

import { post } from "./api.js";
import { ChatPanel } from "./chat.js";
import { inFormWords, lobbyView, readSettings, variantHasCube } from "./lobby-form.js";
import { N_, t } from "./i18n.js";
import { PlayPanel } from "./lobby-play.js";
import { ratingText } from "./players.js";
import { stateText } from "./tournament-text.js";
import { Live } from "./socket.js";
import { clear, describeSettings, h } from "./util.js";

/** @typedef {import("./protocol.js").Summary} Summary */
/** @typedef {import("./protocol.js").TournamentSummary} TournamentSummary */
/** @typedef {import("./protocol.js").ClockSettings} ClockSettings */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./app.js").App} App */

/** Whether the table form was left open, in this browser. */
const CREATE_KEY = "gammon.lobby.create";

/** @type {[string, string, ClockSettings | null][]} */
const CLOCKS = [
  ["none", N_("No clock"), null],
  ["3+12", "", { base_s: 180, delay_s: 12, increment_s: 0 }],
  ["5+12", "", { base_s: 300, delay_s: 12, increment_s: 0 }],
  ["10+12", "", { base_s: 600, delay_s: 12, increment_s: 0 }],
  ["20+12", "", { base_s: 1200, delay_s: 12, increment_s: 0 }],
  ["custom", N_("Custom…"), null],
];

/**
 * A clock's words in the list: its own ("No clock"), or its minutes and delay.
 * @param {[string, string, ClockSettings | null]} clock
 */
function clockLabel([, label, clock]) {
  if (!clock) return t(label);
  return t("{minutes} min + {delay} s delay", { minutes: clock.base_s / 60, delay: clock.delay_s });
}

/**
 * @param {HTMLElement} main
 * @param {Record<string, string>} params
 * @param {App} app
 */
export function mountLobby(main, params, app) {
  return new LobbyView(main, app);
}

/**
 * A form control by name (`form.elements.length` is the number of controls, not a field).
 * @param {HTMLFormElement} form
 * @param {string} name
 * @returns {any}
 */
function control(form, name) {
  return form.elements.namedItem(name);
}

class LobbyView {
  /**
   * @param {HTMLElement} main
   * @param {App} app
   */
  constructor(main, app) {
    this.app = app;
    this.tablesEl = h("div", { class: "tables", "aria-live": "polite" }, h("p", { class: "muted" }, t("Loading tables…")));
    this.chat = new ChatPanel({ send: (m) => this.send(m), me: app.me, title: t("Lobby chat") });
    this.errorEl = h("p", { class: "error", role: "alert", id: "create-error", hidden: true });
    this.cubeNote = h("p", { class: "muted small cube-note", hidden: true });
    /** @type {Summary[]} */
    this.tables = [];
    /** The page of the list shown (from 0), and how many the view fills. */
    this.page = 0;
    this.pages = 1;
    this.tournamentsEl = h("div", { class: "tournaments", id: "tournaments" });
    this.filtersEl = this.filters();
    this.pagerEl = h("nav", { class: "pager", id: "pager", "aria-label": t("Pages of tables"), hidden: true });
    this.play = new PlayPanel(app);
    const form = this.form();
    // Behind its button: a newcomer starts from the play panel; whoever opened the form
    // finds it open next time (remembered in this browser).
    const opener = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: "open-create" }));
    const show = (/** @type {boolean} */ open) => {
      form.hidden = !open;
      opener.setAttribute("aria-expanded", String(open));
      opener.textContent = open ? t("Hide the form") : t("Create a table…");
    };
    show(localStorage.getItem(CREATE_KEY) === "open");
    opener.addEventListener("click", () => {
      show(form.hidden);
      localStorage.setItem(CREATE_KEY, form.hidden ? "closed" : "open");
    });
    main.replaceChildren(h("div", { class: "lobby" },
      h("div", { class: "lobby-start" }, this.play.el,
        h("section", { class: "create", "aria-labelledby": "create-title" },
          h("h2", { id: "create-title" }, t("Your own table")),
          h("p", { class: "muted small" }, t("Choose the length, the clock, the variant, or invite a friend.")),
          opener, form)),
      h("section", { class: "list", "aria-labelledby": "tables-title" },
        h("h2", { id: "tables-title" }, t("Tables")), this.filtersEl, this.tablesEl, this.pagerEl,
        h("h2", { id: "tournaments-title" }, t("Tournaments")), this.tournamentsEl, this.sitAndGoForm()),
      this.chat.el));
    // Each connect starts from the server's default view: ask again for the one shown.
    this.live = new Live("/ws/lobby", { onMessage: (m) => this.onMessage(/** @type {ServerMessage} */ (m)),
                                        onOpen: () => this.askView() });
  }

  destroy() {
    this.live.close();
    this.play.destroy();
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    return this.live.sendNumbered(message);
  }

  /** @param {ServerMessage} m */
  onMessage(m) {
    if (this.chat.handle(m)) return;
    if (m.type === "hello") this.chat.setRules(m.house_rules);
    else if (m.type === "lobby") {
      this.tables = m.tables;
      this.page = m.page || 0;
      this.pages = m.pages || 1;
      this.renderTables(this.tables);
      this.renderPager(m.total === undefined ? this.tables.length : m.total);
      this.renderTournaments(m.tournaments || []);
    }
  }

  // -- filters and tournaments --------------------------------------------------------------

  filters() {
    const variants = this.app.info ? this.app.info.variants.map((v) => v.name) : [];
    const changed = () => { this.page = 0; this.askView(); };
    const form = /** @type {HTMLFormElement} */ (h("form", { class: "filters", id: "filters", "aria-label": t("Filter the tables"),
      oninput: changed, onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      h("label", {}, t("Show"), " ", h("select", { name: "status" },
        h("option", { value: "open" }, t("Open tables")), h("option", { value: "playing" }, t("Being played")),
        h("option", { value: "all" }, t("All tables")))),
      h("label", {}, " ", t("Rated"), " ", h("select", { name: "rated" },
        h("option", { value: "" }, t("any")), h("option", { value: "rated" }, t("rated")),
        h("option", { value: "unrated" }, t("unrated")))),
      h("label", {}, " ", t("Points"), " ", h("input", { type: "number", name: "length", min: 1, max: 64, inputmode: "numeric", class: "short" })),
      h("label", {}, " ", t("Variant"), " ", h("select", { name: "variant" }, h("option", { value: "" }, t("any")),
        variants.map((v) => h("option", { value: v }, v))))));
    return form;
  }

  /** Ask the server for the page of the filters shown (it answers with that page). */
  askView() {
    const form = /** @type {HTMLFormElement} */ (this.filtersEl);
    this.send(lobbyView({
      status: control(form, "status").value, rated: control(form, "rated").value,
      length: control(form, "length").value, variant: control(form, "variant").value,
    }, this.page));
  }

  /**
   * Previous and next, and where this page is: "Page 2 of 5 (93 tables)".
   * @param {number} total
   */
  renderPager(total) {
    const go = (/** @type {number} */ page) => { this.page = page; this.askView(); };
    const button = (/** @type {string} */ name, /** @type {string} */ label, /** @type {number} */ page) =>
      h("button", { type: "button", name, disabled: page < 0 || page >= this.pages, onclick: () => go(page) }, label);
    this.pagerEl.hidden = this.pages <= 1;
    clear(this.pagerEl,
      button("previous", t("Previous"), this.page - 1),
      h("span", { class: "muted small", "aria-live": "polite" },
        t("Page {page} of {pages} ({total} tables)", { page: this.page + 1, pages: this.pages, total })),
      button("next", t("Next"), this.page + 1));
  }

  /** @param {TournamentSummary[]} tournaments */
  renderTournaments(tournaments) {
    clear(this.tournamentsEl, tournaments.length
      ? h("ul", {}, tournaments.map((one) => h("li", { dataset: { tournament: String(one.id) } },
          h("a", { href: `#/tournament/${one.id}` }, one.name), " · ", stateText(one))))
      : h("p", { class: "muted" }, t("No tournaments now.")));
  }

  sitAndGoForm() {
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const levels = this.app.info ? this.app.info.bot_levels : [];
    const form = /** @type {HTMLFormElement} */ (h("form", { class: "sit-and-go", id: "sit-and-go",
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        error.hidden = true;
        const points = Number(control(form, "points").value);
        try {
          /** @type {Record<string, unknown>} */
          const settings = {
            name: control(form, "name").value.trim() || "Sit & Go", kind: "sit_and_go",
            seats: Number(control(form, "seats").value), lengths: [points],
          };
          const bots = levels.length ? control(form, "bots").value : "";
          if (bots) {
            settings.bots = bots;
            settings.bots_after_s = Number(control(form, "bots_after_s").value);
          }
          const created = await post("/api/tournaments", settings);
          this.app.go(`#/tournament/${created.tournament.id}`);
        } catch (err) {
          error.hidden = false;
          error.textContent = /** @type {Error} */ (err).message;
        }
      } },
      h("h3", {}, t("Start a Sit & Go")),
      h("label", { class: "field" }, h("span", {}, t("Name")), h("input", { type: "text", name: "name", maxlength: 60 })),
      h("label", { class: "field" }, h("span", {}, t("Seats")), h("select", { name: "seats" },
        [2, 4, 8, 16].map((n) => h("option", { value: String(n), selected: n === 4 }, String(n))))),
      h("label", { class: "field" }, h("span", {}, t("Points")), h("input", { type: "number", name: "points", value: "3", min: 1, max: 25 })),
      // Bots take the seats nobody has taken after a wait, so a player alone still plays.
      levels.length ? h("label", { class: "field" }, h("span", {}, t("Empty seats")), h("select", { name: "bots" },
        h("option", { value: "" }, t("Wait for people")),
        levels.map((l) => h("option", { value: l.name }, t("Filled by {level} bots", { level: l.name }))))) : null,
      levels.length ? h("label", { class: "field" }, h("span", {}, t("Bots come after (seconds)")),
        h("input", { type: "number", name: "bots_after_s", value: "60", min: 0, max: 3600 })) : null,
      error, h("button", { type: "submit", name: "create-sit-and-go" }, t("Create the Sit & Go"))));
    return this.app.me && !this.app.me.guest ? form : h("p", { class: "muted small" }, t("Sign up to create a Sit & Go."));
  }

  // -- the list -------------------------------------------------------------------------

  /** Whether any filter narrows the list (beyond showing the open tables). */
  filtering() {
    const form = /** @type {HTMLFormElement} */ (this.filtersEl);
    return control(form, "status").value !== "open" || ["rated", "length", "variant"].some((name) => control(form, name).value !== "");
  }

  /** @param {Summary[]} tables */
  renderTables(tables) {
    const me = this.app.me;
    if (!tables.length) {
      clear(this.tablesEl, h("p", { class: "muted" },
        this.filtering() ? t("No table matches the filters.") : t("No tables yet: create one.")));
      return;
    }
    const rows = tables.map((table) => {
      const mine = me && table.created_by === me.name;
      const ratings = table.ratings || [];
      const named = (/** @type {number} */ i) => {
        const rating = ratings[i];
        const shown = rating !== null && rating !== undefined ? " (" + ratingText(rating) + ")" : "";
        return table.players[i] + shown;
      };
      const invited = table.invite ? " → " + table.invite : "";
      const players = table.status === "open" ? named(0) + invited : `${named(0)} – ${named(1)}`;
      const actions = [];
      if (table.status === "open" && !mine) {
        actions.push(h("a", { class: "button primary", href: `#/table/${table.id}?join`,
                              "aria-label": t("Join {player}'s table", { player: table.created_by }) }, t("Join")));
      }
      if (mine && table.status === "open") actions.push(h("a", { class: "button", href: `#/table/${table.id}` }, t("Open")));
      if (table.status === "playing") {
        const playing = me && table.players.includes(me.name);
        actions.push(h("a", { class: "button", href: `#/table/${table.id}` }, playing ? t("Resume") : t("Watch")));
      }
      return h("tr", { class: `status-${table.status}`, dataset: { table: String(table.id) } },
        h("td", {}, players),
        h("td", {}, describeSettings(table.settings)),
        h("td", {}, table.status === "playing" ? `${table.score[0]}-${table.score[1]}` : t("open")),
        h("td", { class: "actions" }, actions));
    });
    clear(this.tablesEl, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Players")), h("th", { scope: "col" }, t("Game")),
        h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("Actions"))))),
      h("tbody", {}, rows)));
  }

  // -- creating a table ------------------------------------------------------------------

  get variants() {
    return this.app.info ? this.app.info.variants : [];
  }

  form() {
    const info = this.app.info;
    const variants = info ? info.variants : [];
    const field = (/** @type {string} */ label, /** @type {HTMLElement} */ control, extra = {}) =>
      h("label", { class: "field", ...extra }, h("span", {}, label), control);
    const radio = (/** @type {string} */ name, /** @type {string} */ value, /** @type {string} */ label, checked = false) =>
      h("label", { class: "radio" }, h("input", { type: "radio", name, value, checked }), ` ${label}`);
    const check = (/** @type {string} */ name, /** @type {string} */ label, /** @type {boolean} */ checked) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", name, checked }), ` ${label}`);
    const number = (/** @type {string} */ name, /** @type {number | null} */ value, /** @type {number} */ min,
                    /** @type {number} */ max) =>
      h("input", { type: "number", name, value: value === null ? "" : String(value), min, max, inputmode: "numeric",
                   "aria-describedby": "create-error" });
    const levels = info ? info.bot_levels : [];
    const opponent = h("fieldset", { class: "opponent" }, h("legend", {}, t("Opponent")),
      radio("opponent", "anyone", t("Anyone"), true),
      radio("opponent", "invite", t("Invite a player")),
      levels.length ? radio("opponent", "bot", t("The computer")) : null,
      field(t("Player's name"), h("input", { type: "text", name: "invite", autocomplete: "off" }), { dataset: { when: "invite" } }),
      levels.length
        ? field(t("Level"), h("select", { name: "bot" }, levels.map((l) =>
            h("option", { value: l.name, selected: l.name === "intermediate", title: l.description },
              `${l.name} — ${l.description}`))), { dataset: { when: "bot" } })
        : null,
      check("practice", t("Practice: hints and a tutor for both players (always on against the computer)"), false));
    const mode = h("fieldset", { class: "mode" }, h("legend", {}, t("Scoring")),
      radio("mode", "match", t("Match"), true), radio("mode", "money", t("Money")),
      field(t("Points"), number("length", 3, 1, 64), { dataset: { when: "match" } }),
      h("div", { dataset: { when: "match" } }, check("crawford", t("Crawford rule"), true)),
      field(t("Games (blank: no limit)"), number("max_games", null, 1, 1000), { dataset: { when: "money" } }),
      h("div", { dataset: { when: "money" }, class: "checks" },
        check("jacoby", "Jacoby", false), check("beavers", t("Beavers"), false)),
      field(t("Automatic doubles"), number("auto_doubles", 0, 0, 6), { dataset: { when: "money" } }),
      field(t("Table stakes (blank: none)"), number("stakes", null, 1, 10000), { dataset: { when: "money" } }));
    const rules = h("fieldset", { class: "rules-set" }, h("legend", {}, t("Rules")),
      field(t("Variant"), h("select", { name: "variant" }, (variants.length ? variants : [{ name: "standard", description: "" }])
        .map((v) => h("option", { value: v.name, title: v.description || "" }, v.name)))),
      check("cube", t("Doubling cube"), true), this.cubeNote,
      field(t("Clock"), h("select", { name: "clock" }, CLOCKS.map((clock) => h("option", { value: clock[0] }, clockLabel(clock))))),
      h("div", { class: "custom-clock", dataset: { when: "custom" } },
        field(t("Minutes"), number("base_min", 10, 1, 600)),
        field(t("Delay (s)"), number("delay_s", 12, 0, 120)),
        field(t("Increment (s)"), number("increment_s", 0, 0, 120))));
    const form = /** @type {HTMLFormElement} */ (h("form", { class: "create-form", novalidate: true,
      onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.create(form); },
      onchange: () => this.sync(form) },
      opponent, mode, rules, this.errorEl,
      h("button", { type: "submit", class: "primary", name: "create" }, t("Create the table"))));
    if (!this.app.me) {
      form.prepend(h("p", { class: "muted" }, t("Sign in or play as a guest to create a table.")));
    }
    this.sync(form);
    return form;
  }

  /**
   * Show the fields that apply; no cube for a variant without one (R14).
   * @param {HTMLFormElement} form
   */
  sync(form) {
    const opponent = control(form, "opponent").value;
    const mode = control(form, "mode").value;
    const clock = control(form, "clock").value;
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-when]"))) {
      const when = el.dataset.when;
      el.hidden = !(when === opponent || when === mode || (when === "custom" && clock === "custom"));
    }
    const variant = control(form, "variant").value;
    const cube = /** @type {HTMLInputElement} */ (control(form, "cube"));
    const hasCube = variantHasCube(this.variants, variant);
    if (!hasCube) {
      cube.checked = false;
      this.cubeNote.textContent = t("{variant} is played without the doubling cube.", { variant });
    } else if (cube.disabled) {
      cube.checked = true; // back from a variant without one: the usual default
    }
    cube.disabled = !hasCube;
    this.cubeNote.hidden = hasCube;
    control(form, "create").textContent = opponent === "bot" ? t("Play the computer") : t("Create the table");
  }

  /**
   * @param {string | null} message
   * @param {HTMLElement | null} [focus]
   */
  showError(message, focus = null) {
    this.errorEl.hidden = !message;
    this.errorEl.textContent = message || "";
    if (focus) focus.focus();
  }

  /** @param {HTMLFormElement} form */
  async create(form) {
    const value = (/** @type {string} */ name) => control(form, name).value;
    const ticked = (/** @type {string} */ name) => Boolean(control(form, name).checked);
    const clock = CLOCKS.find(([key]) => key === value("clock"));
    const answer = readSettings({
      opponent: value("opponent"), invite: value("invite"), bot: control(form, "bot") ? value("bot") : "",
      mode: value("mode"), length: value("length"), crawford: ticked("crawford"),
      max_games: value("max_games"), jacoby: ticked("jacoby"), beavers: ticked("beavers"),
      auto_doubles: value("auto_doubles"), stakes: value("stakes"),
      variant: value("variant"), cube: ticked("cube"), practice: ticked("practice"),
      clock: value("clock") === "custom" ? "custom" : clock ? clock[2] : null,
      base_min: value("base_min"), delay_s: value("delay_s"), increment_s: value("increment_s"),
    }, this.variants);
    if (!this.app.me) {
      this.errorEl.hidden = false;
      clear(this.errorEl, t("Sign in or play as a guest first."), " ", h("a", { href: "#/login" }, t("Sign in")));
      return;
    }
    if (answer.error !== undefined) {
      this.showError(answer.error, control(form, answer.field));
      return;
    }
    this.showError(null);
    const button = control(form, "create");
    button.disabled = true;
    try {
      const created = await post("/api/tables", answer.settings);
      this.app.go(`#/table/${created.table.id}`);
    } catch (err) {
      this.showError(inFormWords(/** @type {Error} */ (err).message));
    } finally {
      button.disabled = false;
    }
  }
}
