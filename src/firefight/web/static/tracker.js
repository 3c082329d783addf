// Shared by the tracker's pages: the API with a bearer token, and rendering of combatant state.
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
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
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

  // One row per combatant: name, side, and every field its ruleset shows, in the ruleset's words.
  combatants(table, combatants, acting) {
    const el = Tracker.el;
    table.replaceChildren(el("tr", {}, el("th", {}, "name"), el("th", {}, "side"), el("th", {}, "state")));
    for (const [name, entry] of Object.entries(combatants)) {
      const fields = el("div", { class: "fields" });
      for (const [key, value] of Object.entries(entry)) {
        if (key === "side") continue;
        fields.append(el("span", { "data-field": key }, el("b", {}, key + ": "), Tracker.shown(value)));
      }
      const cls = (name === acting ? "acting " : "") + (entry.out ? "out" : "");
      table.append(el("tr", { class: cls.trim(), "data-combatant": name },
        el("td", {}, name), el("td", {}, entry.side), el("td", {}, fields)));
    }
  },

  order(list, order, acting) {
    list.replaceChildren(...order.map((name) =>
      Tracker.el("li", { class: name === acting ? "acting" : "" }, name)));
  },

  verdict(state) {
    if (!state.ending) return `round ${state.round} (${state.phase}): ${state.turn} to act`;
    if (state.ending === "terminated") {
      return `fight over after round ${state.round}: ` + (state.winner ? `won by ${state.winner}` : "nobody left standing");
    }
    return `stopped at round ${state.round}: no winner yet`;
  },
};
