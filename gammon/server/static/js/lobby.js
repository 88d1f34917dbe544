// The lobby: the live list of tables (docs/PROTOCOL.md 7), a form to create one
// with its settings (R10-R14), and the lobby chat.

import { post } from "./api.js";
import { ChatPanel } from "./chat.js";
import { Live } from "./socket.js";
import { clear, describeSettings, h } from "./util.js";

const CLOCKS = [
  ["none", "No clock", null],
  ["3+12", "3 min + 12 s delay", { base_s: 180, delay_s: 12, increment_s: 0 }],
  ["5+12", "5 min + 12 s delay", { base_s: 300, delay_s: 12, increment_s: 0 }],
  ["10+12", "10 min + 12 s delay", { base_s: 600, delay_s: 12, increment_s: 0 }],
  ["20+12", "20 min + 12 s delay", { base_s: 1200, delay_s: 12, increment_s: 0 }],
  ["custom", "Custom…", null],
];

export function mountLobby(main, params, app) {
  return new LobbyView(main, app);
}

class LobbyView {
  constructor(main, app) {
    this.app = app;
    this.nextId = 1;
    this.tablesEl = h("div", { class: "tables", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading tables…"));
    this.chat = new ChatPanel({ send: (m) => this.send(m), me: app.me, title: "Lobby chat" });
    main.replaceChildren(h("div", { class: "lobby" },
      h("section", { class: "create", "aria-labelledby": "create-title" },
        h("h2", { id: "create-title" }, "Create a table"), this.form()),
      h("section", { class: "list", "aria-labelledby": "tables-title" },
        h("h2", { id: "tables-title" }, "Tables"), this.tablesEl),
      this.chat.el));
    this.live = new Live("/ws/lobby", { onMessage: (m) => this.onMessage(m) });
  }

  destroy() {
    this.live.close();
  }

  send(message) {
    const id = this.nextId++;
    return this.live.send({ ...message, id }) ? id : null;
  }

  onMessage(m) {
    if (this.chat.handle(m)) return;
    if (m.type === "hello") this.chat.setRules(m.house_rules);
    else if (m.type === "lobby") this.renderTables(m.tables);
  }

  // -- the list -------------------------------------------------------------------------

  renderTables(tables) {
    const me = this.app.me;
    if (!tables.length) {
      clear(this.tablesEl, h("p", { class: "muted" }, "No tables yet: create one."));
      return;
    }
    const rows = tables.map((t) => {
      const mine = me && t.created_by === me.name;
      const players = t.status === "open"
        ? `${t.created_by}${t.invite ? ` → ${t.invite}` : ""}`
        : `${t.players[0]} – ${t.players[1]}`;
      const actions = [];
      if (t.status === "open" && !mine) {
        actions.push(h("a", { class: "button primary", href: `#/table/${t.id}?join`,
                              "aria-label": `Join ${t.created_by}'s table` }, "Join"));
      }
      if (mine && t.status === "open") actions.push(h("a", { class: "button", href: `#/table/${t.id}` }, "Open"));
      if (t.status === "playing") {
        const playing = me && t.players.includes(me.name);
        actions.push(h("a", { class: "button", href: `#/table/${t.id}` }, playing ? "Resume" : "Watch"));
      }
      return h("tr", { class: `status-${t.status}`, dataset: { table: String(t.id) } },
        h("td", {}, players),
        h("td", {}, describeSettings(t.settings)),
        h("td", {}, t.status === "playing" ? `${t.score[0]}-${t.score[1]}` : "open"),
        h("td", { class: "actions" }, actions));
    });
    clear(this.tablesEl, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Players"), h("th", { scope: "col" }, "Game"),
        h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Actions")))),
      h("tbody", {}, rows)));
  }

  // -- creating a table ------------------------------------------------------------------

  form() {
    const info = this.app.info || { variants: [{ name: "standard" }], bot_levels: [] };
    const field = (label, control, extra = {}) => h("label", { class: "field", ...extra }, h("span", {}, label), control);
    const radio = (name, value, label, checked = false) =>
      h("label", { class: "radio" }, h("input", { type: "radio", name, value, checked }), ` ${label}`);
    const check = (name, label, checked) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", name, checked }), ` ${label}`);
    const number = (name, value, min, max, extra = {}) =>
      h("input", { type: "number", name, value: value === null ? "" : String(value), min, max, inputmode: "numeric", ...extra });
    const levels = info.bot_levels || [];
    const opponent = h("fieldset", { class: "opponent" }, h("legend", {}, "Opponent"),
      radio("opponent", "anyone", "Anyone", true),
      radio("opponent", "invite", "Invite a player"),
      levels.length ? radio("opponent", "bot", "The computer") : null,
      field("Player's name", h("input", { type: "text", name: "invite", autocomplete: "off" }), { dataset: { when: "invite" } }),
      levels.length
        ? field("Level", h("select", { name: "bot" }, levels.map((l) =>
            h("option", { value: l.name, selected: l.name === "intermediate", title: l.description },
              `${l.name} — ${l.description}`))), { dataset: { when: "bot" } })
        : null);
    const mode = h("fieldset", { class: "mode" }, h("legend", {}, "Scoring"),
      radio("mode", "match", "Match", true), radio("mode", "money", "Money"),
      field("Points", number("length", 3, 1, 64), { dataset: { when: "match" } }),
      h("div", { dataset: { when: "match" } }, check("crawford", "Crawford rule", true)),
      field("Games (blank: no limit)", number("max_games", null, 1, 1000), { dataset: { when: "money" } }),
      h("div", { dataset: { when: "money" }, class: "checks" },
        check("jacoby", "Jacoby", false), check("beavers", "Beavers", false)),
      field("Automatic doubles", number("auto_doubles", 0, 0, 6), { dataset: { when: "money" } }),
      field("Table stakes (blank: none)", number("stakes", null, 1, 10000), { dataset: { when: "money" } }));
    const rules = h("fieldset", { class: "rules-set" }, h("legend", {}, "Rules"),
      field("Variant", h("select", { name: "variant" }, info.variants.map((v) =>
        h("option", { value: v.name, title: v.description || "" }, v.name)))),
      check("cube", "Doubling cube", true),
      field("Clock", h("select", { name: "clock" }, CLOCKS.map(([value, label]) => h("option", { value }, label)))),
      h("div", { class: "custom-clock", dataset: { when: "custom" } },
        field("Minutes", number("base_min", 10, 1, 600)),
        field("Delay (s)", number("delay_s", 12, 0, 120)),
        field("Increment (s)", number("increment_s", 0, 0, 120))));
    this.errorEl = h("p", { class: "error", role: "alert", hidden: true });
    const form = h("form", { class: "create-form", novalidate: true,
                             onsubmit: (e) => { e.preventDefault(); this.create(form); },
                             onchange: () => this.sync(form) },
      opponent, mode, rules, this.errorEl,
      h("button", { type: "submit", class: "primary", name: "create" }, "Create the table"));
    if (!this.app.me) {
      form.prepend(h("p", { class: "muted" }, "Sign in or play as a guest to create a table."));
    }
    this.sync(form);
    return form;
  }

  sync(form) {
    const opponent = form.elements.opponent.value;
    const mode = form.elements.mode.value;
    const clock = form.elements.clock.value;
    for (const el of form.querySelectorAll("[data-when]")) {
      const when = el.dataset.when;
      el.hidden = !(when === opponent || when === mode || (when === "custom" && clock === "custom"));
    }
    form.elements.create.textContent = opponent === "bot" ? "Play the computer" : "Create the table";
  }

  async create(form) {
    // namedItem: form.elements.length is the number of controls, not the "length" field.
    const e = new Proxy(form.elements, { get: (els, name) => els.namedItem(name) });
    const int = (name) => (e[name].value === "" ? null : Number(e[name].value));
    const settings = { mode: e.mode.value, variant: e.variant.value, cube: e.cube.checked };
    if (settings.mode === "match") {
      settings.length = int("length");
      settings.crawford = e.crawford.checked;
    } else {
      settings.jacoby = e.jacoby.checked;
      settings.beavers = e.beavers.checked;
      settings.auto_doubles = int("auto_doubles") || 0;
      if (int("max_games") !== null) settings.max_games = int("max_games");
      if (int("stakes") !== null) settings.stakes = int("stakes");
    }
    const clock = CLOCKS.find(([value]) => value === e.clock.value);
    if (e.clock.value === "custom") {
      settings.clock = { base_s: Math.round((int("base_min") || 0) * 60), delay_s: int("delay_s") || 0,
                         increment_s: int("increment_s") || 0 };
    } else if (clock && clock[2]) {
      settings.clock = clock[2];
    }
    if (e.opponent.value === "invite") settings.invite = e.invite.value.trim() || null;
    if (e.opponent.value === "bot") settings.bot = e.bot.value;
    this.errorEl.hidden = true;
    if (!this.app.me) {
      this.errorEl.hidden = false;
      clear(this.errorEl, "Sign in or play as a guest first. ",
        h("a", { href: "#/login" }, "Sign in"));
      return;
    }
    e.create.disabled = true;
    try {
      const answer = await post("/api/tables", settings);
      this.app.go(`#/table/${answer.table.id}`);
    } catch (err) {
      this.errorEl.hidden = false;
      this.errorEl.textContent = err.message;
    } finally {
      e.create.disabled = false;
    }
  }
}
