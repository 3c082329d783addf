// Shared by the tracker's pages: the API with a bearer token, combatant cards, the log, refusals.
"use strict";

const Tracker = {
  // "/gm/<id>#gm=...&player=..." -> {id, gm, player}; "/play/<id>#<token>" -> {id, token}
  link() {
    const id = decodeURIComponent(location.pathname.split("/").pop());
    const hash = location.hash.slice(1);
    const params = new URLSearchParams(hash.includes("=") ? hash : "token=" + hash);
    return { id, gm: params.get("gm"), player: params.get("player"), token: params.get("token") };
  },

  async api(method, path, token, body) {
    const headers = { "Accept": "application/json" };
    if (token) headers["Authorization"] = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    if (!response.ok) {
      const err = new Error(data.detail || response.statusText);
      err.status = response.status;
      throw err;
    }
    return data;
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  shown(value) {
    if (value === true) return "yes";
    if (value === false) return "no";
    if (value === null || value === undefined) return "-";
    if (Array.isArray(value)) return value.length ? value.join(", ") : "none";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  },

  // A combatant as a card, from the ruleset's layout (`cards` of the state or the players'
  // view): vital tracks as bars with their words, conditions as chips, the rest folded.
  card(name, entry, card, { acting, place, extra } = {}) {
    const el = Tracker.el;
    card = card || { vital: [], conditions: [], details: Object.keys(entry).filter((k) => k !== "side") };
    const badges = [];
    if (name === acting) badges.push(el("span", { class: "badge acting-badge" }, "acting"));
    if (entry.dead) badges.push(el("span", { class: "badge out-badge" }, "dead"));
    else if (entry.out) badges.push(el("span", { class: "badge out-badge" }, "out of the fight"));
    const head = el("div", { class: "card-head" },
      el("h3", {}, name),
      el("span", { class: "side" }, entry.side),
      place ? el("span", { class: "place" }, place) : null,
      ...badges, extra ? el("span", { class: "card-tools" }, extra) : null);
    const vital = card.vital.map((v) => {
      const share = Math.max(0, Math.min(1, v.value / v.most));
      return el("div", { class: "vital" + (v.taken ? " taken" : ""), "data-field": v.key },
        el("span", { class: "vital-text" }, v.text),
        el("span", { class: "meter", "aria-hidden": "true" },
          el("span", { class: "fill", style: `width: ${(100 * share).toFixed(1)}%` })));
    });
    const chips = card.conditions.length
      ? el("ul", { class: "chips", "aria-label": name + ": conditions" },
        card.conditions.map((c) => el("li", { class: "chip", "data-field": c.key }, c.text)))
      : null;
    const details = card.details.filter((k) => k in entry);
    const more = details.length
      ? el("details", { class: "more" },
        el("summary", {}, `${details.length} more field${details.length === 1 ? "" : "s"}`),
        el("ul", { class: "fields" }, details.map((k) =>
          el("li", { "data-field": k }, el("b", {}, k + ": "), Tracker.shown(entry[k])))))
      : null;
    const classes = ["card", name === acting ? "acting" : "", entry.out ? "out" : ""].join(" ").trim();
    return el("article", { class: classes, "data-combatant": name, "aria-label": name },
      head, vital, chips, more);
  },

  // Cards in this round's order (whoever acts highlighted), then anyone not in it.
  cards(box, combatants, cards, order, acting, extra) {
    const names = [...order.filter((n) => n in combatants), ...Object.keys(combatants).filter((n) => !order.includes(n))];
    box.replaceChildren(...names.map((name) => {
      const i = order.indexOf(name);
      const place = i < 0 ? "not in this round's order" : `${Tracker.ordinal(i + 1)} in order`;
      return Tracker.card(name, combatants[name], (cards || {})[name], { acting, place, extra: extra && extra(name) });
    }));
  },

  ordinal(n) {
    const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n + tail;
  },

  verdict(state) {
    if (!state.ending) return `round ${state.round} (${state.phase}): ${state.turn} to act`;
    if (state.ending === "terminated") {
      return `fight over after round ${state.round}: ` + (state.winner ? `won by ${state.winner}` : "nobody left standing");
    }
    return `stopped at round ${state.round}: no winner yet`;
  },

  // The rule IDs a step's events name (W01, G24...), in order, once each.
  rules(events) {
    const seen = [];
    for (const e of events || []) if (e.rule && !seen.includes(e.rule)) seen.push(e.rule);
    return seen;
  },

  // The log by round, newest round first and open, each round's steps newest first.
  // `steps`: [{n, round, label, faces?, rules?, lines}]; `start`: the start's lines, if shown.
  log(box, steps, start) {
    const el = Tracker.el;
    const rounds = new Map();
    for (const step of steps) {
      if (!rounds.has(step.round)) rounds.set(step.round, []);
      rounds.get(step.round).push(step);
    }
    const newest = Math.max(0, ...rounds.keys());
    const blocks = [...rounds.keys()].sort((a, b) => b - a).map((round) => {
      const list = rounds.get(round).slice().reverse();
      return el("details", { class: "round", open: round === newest, "data-round": round },
        el("summary", {}, `round ${round}: ${list.length} step${list.length === 1 ? "" : "s"}`),
        list.map((step) => el("div", { class: "step", "data-step": step.n },
          el("p", { class: "step-label" }, `${step.n}. ${step.label}`),
          step.faces ? el("p", { class: "faces" }, "faces: " + (step.faces.join(", ") || "none")) : null,
          step.rules && step.rules.length ? el("p", { class: "rules" }, "rules: ",
            step.rules.map((r) => el("span", { class: "rule" }, r))) : null,
          step.lines.length ? el("pre", {}, step.lines.join("\n")) : null)));
    });
    if (start) {
      blocks.push(el("details", { class: "round", "data-round": 0 },
        el("summary", {}, "the start (initiative)"),
        el("div", { class: "step" }, el("pre", {}, start.join("\n")))));
    }
    box.replaceChildren(...blocks);
    box.scrollTop = 0;  // the newest step in sight, where the log or its column scrolls
    const column = box.closest(".panel");
    if (column) column.scrollTop = 0;
  },

  // A refusal that stays until read: the toast at the bottom of the screen, over everything.
  refuse(text) {
    const toast = document.getElementById("toast");
    if (!toast) return;
    document.getElementById("error").textContent = text;
    toast.hidden = !text;
    document.body.classList.toggle("toasting", !!text);  // room to scroll what it covers
  },

  wireToast() {
    const toast = document.getElementById("toast");
    const close = document.getElementById("toast-close");
    if (close) close.addEventListener("click", () => { Tracker.refuse(""); });
    if (toast) toast.addEventListener("keydown", (event) => { if (event.key === "Escape") Tracker.refuse(""); });
  },
};
