"use strict";
(() => {
  const el = Tracker.el;
  const link = Tracker.link();
  const base = `/api/encounters/${encodeURIComponent(link.id)}`;
  const error = document.getElementById("error");
  let busy = false;
  let generation = 0;  // one per refresh: odds of an older refresh are not shown
  let version;  // the state's version, when the server gives one (a stale dialog is refused)

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
    finally { busy = false; delete document.body.dataset.busy; }
  }

  function renderState(state) {
    version = state.version;
    document.getElementById("title").textContent = state.title;
    document.getElementById("ruleset").textContent = `${state.ruleset} · ${state.steps} steps`;
    document.getElementById("turn").textContent = Tracker.verdict(state);
    Tracker.combatants(document.getElementById("combatants"), state.combatants, state.turn);
    Tracker.order(document.getElementById("order"), state.order, state.turn);
    document.getElementById("redo").disabled = !state.redo;
    document.getElementById("undo").disabled = !state.steps;
    const ending = document.getElementById("ending");
    ending.replaceChildren();
    if (state.ending) {
      ending.append(Tracker.verdict(state));
      for (const line of state.after || []) ending.append(el("div", {}, "after the fight: " + line));
    }
  }

  function renderActions(actions, state) {
    const box = document.getElementById("actions");
    document.getElementById("actions-title").textContent = state.ending ? "Actions" : `Actions of ${state.turn}`;
    box.replaceChildren();
    for (const action of actions) {
      const faces = el("input", { placeholder: "faces, e.g. 4,8,11", "aria-label": "table dice for " + action.label });
      const roll = () => guarded(async () => { await call("POST", "/act", { action: action.id }); await refresh(); });
      const table = () => guarded(async () => {
        const dice = faces.value.split(/[\s,]+/).filter(Boolean).map((f) => (/^[+-]?\d+$/.test(f) ? Number(f) : f));
        if (!dice.length) {  // nothing typed: ask for the table's dice group by group
          let seen = version;  // the version the dialog started on: a step taken since is refused
          const committed = await DiceDialog.open({
            title: action.label,
            answer: async (so_far, roll) => {
              const got = await call("POST", "/dice", { action: action.id, faces: so_far, roll, version: seen });
              seen = got.version;
              return got;
            },
            done: (all) => call("POST", "/act", { action: action.id, dice: all }),
          });
          if (committed) await refresh();
          return;
        }
        await call("POST", "/act", { action: action.id, dice });
        await refresh();
      });
      faces.addEventListener("keydown", (event) => { if (event.key === "Enter") table(); });
      box.append(el("div", { class: "action", "data-action": action.id },
        el("div", { class: "label" }, action.label),
        el("div", { class: "odds" }, action.odds ? Tracker.oddsText(action.odds) : "exact odds: computing..."),
        el("div", { class: "controls" },
          el("button", { onclick: roll, "data-roll": action.id }, "roll"),
          faces,
          el("button", { onclick: table, "data-table": action.id }, "table dice"))));
    }
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
    document.body.dataset.steps = String(state.steps);
    fillOdds(++generation);
  }

  // The exact odds arrive after the list, one action at a time: most take milliseconds, a few
  // (many-branched suppressing fire) take seconds.
  async function fillOdds(mine) {
    const box = document.getElementById("actions");
    box.dataset.odds = "pending";
    for (const row of box.querySelectorAll("[data-action]")) {
      let odds;
      try {
        odds = await call("GET", "/odds?action=" + encodeURIComponent(row.dataset.action));
      } catch (err) { error.textContent = err.message; return; }
      if (generation !== mine) return;  // the page was refreshed meanwhile
      row.querySelector(".odds").textContent = Tracker.oddsText(odds);
    }
    box.dataset.odds = "ready";
  }

  document.getElementById("undo").addEventListener("click", () => guarded(async () => { await call("POST", "/undo"); await refresh(); }));
  document.getElementById("redo").addEventListener("click", () => guarded(async () => { await call("POST", "/redo"); await refresh(); }));
  document.getElementById("enemy-detail").addEventListener("change", (event) =>
    guarded(() => call("PUT", "/settings", { enemy_detail: event.target.value })));
  document.getElementById("export").addEventListener("click", () => guarded(async () => {
    const record = await call("GET", "/record");
    const a = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" })), download: `encounter-${link.id}.json` });
    a.click();
  }));
  guarded(refresh);
})();
