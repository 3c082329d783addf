"use strict";
(() => {
  const el = Tracker.el;
  const link = Tracker.link();
  const base = `/api/encounters/${encodeURIComponent(link.id)}`;
  const error = document.getElementById("error");
  let busy = false;
  let generation = 0;  // one per refresh: odds of an older refresh are not shown
  let version = 0;     // the version of the state shown: every write names it
  let heard = 0;       // the newest version the live stream announced
  let side = "";       // the acting combatant's side: whose win chances the list shows

  if (link.player) {
    const a = document.getElementById("player-link");
    a.href = `/play/${link.id}#${link.player}`;
    a.textContent = location.origin + a.getAttribute("href");
  }

  async function call(method, path, body) {
    return Tracker.api(method, base + path, link.gm, body);
  }

  async function guarded(work) {
    if (busy) return;
    busy = true;
    error.textContent = "";
    document.body.dataset.busy = "1";
    try { await work(); } catch (err) { error.textContent = err.message; }
    finally {
      busy = false;
      delete document.body.dataset.busy;
      if (heard > version) guarded(refresh);  // a change announced while busy
    }
  }

  // A write names the version shown; refused as stale (409: the fight moved on), the page
  // shows the fresh state under the refusal's line.
  async function write(method, path, body = {}) {
    try {
      await call(method, path, { ...body, version });
    } catch (err) {
      if (err.status === 409) await refresh();
      throw err;
    }
    await refresh();
  }

  function options(select, values, keep) {
    const was = keep ?? select.value;
    select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
    if (values.includes(was)) select.value = was;
  }

  function renderState(state) {
    version = state.version;
    document.body.dataset.version = String(version);
    document.getElementById("title").textContent = state.title;
    document.getElementById("ruleset").textContent = `${state.ruleset} · ${state.steps} steps`;
    document.getElementById("turn").textContent = Tracker.verdict(state);
    Tracker.combatants(document.getElementById("combatants"), state.combatants, state.turn);
    Tracker.order(document.getElementById("order"), state.order, state.turn);
    document.getElementById("redo").disabled = !state.redo;
    document.getElementById("undo").disabled = !state.steps;
    renderHand(state);
    const ending = document.getElementById("ending");
    ending.replaceChildren();
    if (state.ending) {
      ending.append(Tracker.verdict(state));
      for (const line of state.after || []) ending.append(el("div", {}, "after the fight: " + line));
    }
  }

  // The GM's hand: each combatant's settable fields, the order, the sides.
  let editable = {};
  function renderHand(state) {
    editable = state.editable || {};
    const who = document.getElementById("edit-who");
    options(who, Object.keys(editable));
    options(document.getElementById("edit-field"), editable[who.value] || []);
    options(document.getElementById("add-side"), state.sides || []);
    document.getElementById("order-names").value = state.order.join(", ");
    document.getElementById("start-dice").hidden = state.steps > 0 || state.redo > 0;
    for (const id of ["skip", "end-round", "reorder"]) document.getElementById(id).disabled = !!state.ending;
  }

  function renderActions(actions, state) {
    const box = document.getElementById("actions");
    side = state.turn && state.combatants[state.turn] ? state.combatants[state.turn].side : "";
    document.getElementById("actions-title").textContent = state.ending ? "Actions" : `Actions of ${state.turn}`;
    box.replaceChildren();
    for (const action of actions) {
      const faces = el("input", { placeholder: "faces, e.g. 4,8,11", "aria-label": "table dice for " + action.label });
      const chosen = { action: action.id, actor: action.actor };
      const roll = () => guarded(() => write("POST", "/act", chosen));
      const table = () => guarded(() => write("POST", "/act", { ...chosen, dice: faceList(faces.value) }));
      faces.addEventListener("keydown", (event) => { if (event.key === "Enter") table(); });
      box.append(el("div", { class: "action", "data-action": action.id },
        el("div", { class: "label" }, action.label),
        el("div", { class: "odds" }, "working out..."),
        el("div", { class: "win" }),
        el("div", { class: "controls" },
          el("button", { onclick: roll, "data-roll": action.id }, "roll"),
          faces,
          el("button", { onclick: table, "data-table": action.id }, "table dice"))));
    }
  }

  function faceList(text) {
    return text.split(/[\s,]+/).filter(Boolean).map((f) => (/^[+-]?\d+$/.test(f) ? Number(f) : f));
  }

  // A value as typed: JSON where it reads as JSON (14, true, ["prone"]), else the text itself.
  function typed(text) {
    const t = text.trim();
    if (t === "none") return null;
    try { return JSON.parse(t); } catch (_) { return t; }
  }

  function renderLog(log) {
    const box = document.getElementById("log");
    box.replaceChildren(el("div", { class: "step" }, el("div", { class: "label" }, "start"), log.start.join("\n")));
    log.steps.forEach((step, i) => {
      box.append(el("div", { class: "step", "data-step": i + 1 },
        el("div", { class: "label" }, `${i + 1}. round ${step.round}: ${step.label}`),
        `faces: ${step.faces.join(", ") || "none"}\n` + step.lines.join("\n")));
    });
    box.scrollTop = box.scrollHeight;
  }

  async function refresh() {
    const [state, log, actions, settings] = await Promise.all([
      call("GET", ""), call("GET", "/log"), call("GET", "/actions?odds=false"), call("GET", "/settings"),
    ]);
    renderState(state);
    renderLog(log);
    renderActions(actions, state);
    document.getElementById("enemy-detail").value = settings.enemy_detail;
    options(document.getElementById("players-side"), state.sides || [], settings.players_side);
    document.body.dataset.steps = String(state.steps);
    fillOdds(++generation);
  }

  // The odds arrive after the list: every action's first answer within the server's budget
  // (exact where it finished in time, else estimated), then each refinement over the live
  // stream ("odds" events) until every answer is exact or at its ceiling.
  async function fillOdds(mine) {
    const box = document.getElementById("actions");
    box.dataset.odds = "pending";
    let choices;
    try { choices = await call("GET", "/choices"); } catch (err) {
      if (err.status !== 409) error.textContent = err.message;  // 409: the fight moved on, a refresh follows
      return;
    }
    if (generation !== mine) return;  // the page was refreshed meanwhile
    showOdds(choices);
  }

  function showOdds(choices) {
    if (choices.version !== version) return;  // odds of a state this page no longer shows
    const box = document.getElementById("actions");
    Odds.render(box, choices, side);
    const progress = (choices.progress || {});
    document.getElementById("odds-progress").textContent = progress.text || "";
    box.dataset.odds = progress.refining ? "refining" : "ready";
  }

  const byId = (id) => document.getElementById(id);
  const on = (id, work) => byId(id).addEventListener("click", () => guarded(work));
  on("undo", () => write("POST", "/undo"));
  on("redo", () => write("POST", "/redo"));
  on("skip", () => write("POST", "/skip"));
  on("end-round", () => write("POST", "/end-round"));
  on("edit-set", () => write("POST", "/edit",
    { combatant: byId("edit-who").value, field: byId("edit-field").value, value: typed(byId("edit-value").value) }));
  on("edit-remove", () => write("POST", "/remove", { combatant: byId("edit-who").value }));
  on("reorder", () => write("POST", "/order",
    { order: byId("order-names").value.split(",").map((n) => n.trim()).filter(Boolean) }));
  on("add", () => write("POST", "/add", { side: byId("add-side").value, combatant: byId("add-table").value }));
  on("start-use", () => write("POST", "/start", { dice: faceList(byId("start-faces").value) }));
  byId("edit-who").addEventListener("change", () => options(byId("edit-field"), editable[byId("edit-who").value] || []));
  byId("enemy-detail").addEventListener("change", (event) =>
    guarded(() => write("PUT", "/settings", { enemy_detail: event.target.value })));
  byId("players-side").addEventListener("change", (event) =>
    guarded(() => write("PUT", "/settings", { players_side: event.target.value })));
  on("export", async () => {
    const record = await call("GET", "/record");
    const a = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" })), download: `encounter-${link.id}.json` });
    a.click();
  });

  // The live stream, as the players' page follows it: a change made in another tab or on
  // another device shows here at once.
  const events = new EventSource(`${base}/events?token=${encodeURIComponent(link.gm)}`);
  events.onmessage = (event) => {
    heard = Math.max(heard, Number(event.data) || 0);
    if (heard > version) guarded(refresh);
  };
  events.addEventListener("odds", (event) => showOdds(JSON.parse(event.data)));
  guarded(refresh);
})();
