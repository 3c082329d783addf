"use strict";
(() => {
  const el = Tracker.el;
  const byId = (id) => document.getElementById(id);
  const link = Tracker.link();
  const base = `/api/encounters/${encodeURIComponent(link.id)}`;
  const DICE_KEY = "firefight.dice";
  let busy = false;
  let generation = 0;  // one per refresh: odds of an older refresh are not shown
  let version = 0;     // the version of the state shown: every write names it
  let heard = 0;       // the newest version the live stream announced
  let shown = null;    // the state and log on the page, to say what a step changed
  let acting = null;   // who acts in the state shown (their side reads the evaluation)
  let groups = [];     // the action groups shown, with the chosen action of each
  const chosen = new Map();  // group key -> the action id chosen in it (kept across refreshes)
  const odds = new Map();    // action id -> its preview, for the state shown
  let labels = {};           // action id -> label, for the odds' words naming another action
  let tableDice = localStorage.getItem(DICE_KEY) === "table";

  if (link.player) {
    const a = byId("player-link");
    a.href = `/play/${link.id}#${link.player}`;
    a.textContent = location.origin + a.getAttribute("href");
  }

  async function call(method, path, body) {
    return Tracker.api(method, base + path, link.gm, body);
  }

  // One thing at a time; a refusal shows beside the control that caused it (`where`) and in
  // the toast, which stays until it is dismissed.
  async function guarded(work, where) {
    if (busy) return;
    busy = true;
    Tracker.refuse("");
    for (const line of document.querySelectorAll(".refusal")) line.textContent = "";
    document.body.dataset.busy = "1";
    try { await work(); } catch (err) {
      Tracker.refuse(err.message);
      const beside = typeof where === "function" ? where() : where;
      if (beside) beside.textContent = err.message;
    } finally {
      busy = false;
      delete document.body.dataset.busy;
      if (heard > version) guarded(refresh);  // a change announced while busy
    }
  }

  // A write names the version shown; its answer (the new state) is shown at once, then the
  // rest of the page. Refused as stale (409: the fight moved on), the page shows the fresh
  // state under the refusal's line.
  async function write(method, path, body = {}) {
    generation++;  // previews of the state shown stop being asked for
    let state;
    try {
      state = await call(method, path, { ...body, version });
    } catch (err) {
      if (err.status === 409) await refresh();
      throw err;
    }
    if (state && state.version) renderState(state);
    await refresh();
  }

  // The table's dice asked for group by group (POST `ask`), then committed (POST `commit` with
  // every face as `dice`). Each question and the commit name the version shown when the dialog
  // opened: if the fight moves on meanwhile, the dialog closes with the 409's line and the page
  // shows the fresh state, as a stale click does.
  async function askTable(title, ask, commit, fields = {}) {
    generation++;
    const shown = version;
    try {
      await DiceDialog.open({
        title,
        answer: (faces, roll) => call("POST", ask, { ...fields, faces, roll, version: shown }),
        done: (dice) => call("POST", commit, { ...fields, dice, version: shown }),
      });
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
    acting = state.turn;
    document.body.dataset.version = String(version);
    byId("title").textContent = state.title;
    document.title = `${state.title}: GM`;
    byId("ruleset").textContent = `${state.ruleset} · ${state.steps} step${state.steps === 1 ? "" : "s"}`;
    byId("turn").textContent = Tracker.verdict(state);
    Tracker.cards(byId("combatants"), state.combatants, state.cards, state.order, state.turn,
      (name) => el("button", { type: "button", class: "edit", onclick: () => handFor(name), "aria-label": `edit ${name}` }, "edit"));
    byId("redo").disabled = !state.redo;
    byId("undo").disabled = !state.steps;
    renderHand(state);
    const ending = byId("ending");
    ending.replaceChildren();
    if (state.ending) {
      ending.append(el("p", {}, Tracker.verdict(state)));
      for (const line of state.after || []) ending.append(el("p", {}, "after the fight: " + line));
    }
  }

  // The GM's hand: each combatant's settable fields, the order, the sides.
  let editable = {};
  function renderHand(state) {
    editable = state.editable || {};
    const who = byId("edit-who");
    options(who, Object.keys(editable));
    options(byId("edit-field"), editable[who.value] || []);
    options(byId("add-side"), state.sides || []);
    byId("order-names").value = state.order.join(", ");
    byId("start-dice").hidden = state.steps > 0 || state.redo > 0;
    for (const id of ["skip", "end-round", "reorder"]) byId(id).disabled = !!state.ending;
  }

  function handFor(name) {
    const hand = byId("hand-panel");
    hand.open = true;
    byId("edit-who").value = name;
    options(byId("edit-field"), editable[name] || []);
    byId("edit-field").focus();
    hand.scrollIntoView({ block: "nearest" });
  }

  // -- actions ----------------------------------------------------------------------------
  function renderActions(actions, state) {
    const box = byId("actions");
    byId("actions-title").textContent = state.ending ? "Actions" : `Actions of ${state.turn}`;
    labels = Object.fromEntries(actions.map((a) => [a.id, a.label]));
    groups = Actions.group(actions, state.turn);
    for (const g of groups) {
      const kept = g.actions.find((a) => a.id === chosen.get(g.key));
      g.chosen = kept || g.actions[0];
      chosen.set(g.key, g.chosen.id);
    }
    box.replaceChildren(...groups.map(groupBox));
    markBest();
  }

  function groupBox(g) {
    const refusal = el("p", { class: "refusal", role: "status" });
    const faces = el("input", { class: "faces", autocomplete: "off", inputmode: "numeric", placeholder: "faces, e.g. 4, 8, 11", "aria-label": "the table's faces for " + g.title });
    const act = (dice) => {
      const action = g.chosen;
      const body = { action: action.id, actor: action.actor };
      // the table's dice with nothing typed: the dialog asks for them group by group
      if (dice !== undefined && !dice.length) {
        return guarded(() => askTable(action.label, "/dice", "/act", body), () => refusalOf(g));
      }
      if (dice !== undefined) body.dice = dice;
      return guarded(() => write("POST", "/act", body), () => refusalOf(g));
    };
    const roll = el("button", { type: "button", class: "primary", onclick: () => act() }, "roll");
    const table = el("button", { type: "button", class: "primary", onclick: () => act(faceList(faces.value)) }, "table dice");
    faces.addEventListener("keydown", (event) => { if (event.key === "Enter") act(faceList(faces.value)); });
    const selects = g.selectors.map((s) => {
      const select = el("select", { "data-param": s.key ?? "choice" },
        s.values.map((v) => el("option", { value: v }, v)));
      select.addEventListener("change", () => choose(g, Actions.pick(g, g.chosen, s, select.value)));
      return el("label", {}, s.key ?? "choice", select);
    });
    const box = el("article", { class: "group", "data-group": g.key, "aria-label": g.title },
      el("div", { class: "group-head" }, el("h3", {}, g.title), el("span", { class: "badge best-badge", hidden: true })),
      selects.length ? el("div", { class: "selectors" }, selects) : null,
      el("p", { class: "label" }),
      el("p", { class: "odds" }),
      el("div", { class: "win", hidden: true }),
      el("p", { class: "best-here", hidden: true }),
      el("div", { class: "controls act" },
        tableDice ? el("label", { class: "grow" }, "faces", faces) : null, tableDice ? table : roll),
      refusal);
    g.box = box;
    g.faces = faces;
    g.roll = roll;
    g.table = table;
    showChosen(g);
    return box;
  }

  const refusalOf = (g) => (g.box && g.box.isConnected ? g.box.querySelector(".refusal") : null);

  function choose(g, action) {
    g.chosen = action;
    chosen.set(g.key, action.id);
    showChosen(g);
  }

  function showChosen(g) {
    const a = g.chosen;
    g.box.dataset.action = a.id;
    g.roll.dataset.roll = a.id;
    g.table.dataset.table = a.id;
    for (const select of g.box.querySelectorAll("select[data-param]")) {
      const s = g.selectors.find((x) => (x.key ?? "choice") === select.dataset.param);
      select.value = Actions.valueOf(a, s);
    }
    g.box.querySelector(".label").textContent = a.label;
    const found = odds.get(a.id);
    const line = g.box.querySelector(".odds");
    line.textContent = Odds.line({ actor: a.actor, defensive: a.defensive, odds: found }, labels);
    line.dataset.exact = String(!!(found && found.exact));
    const side = sideOf(a.actor);
    const win = Actions.winOf(a, found, side);
    const bar = g.box.querySelector(".win");
    bar.hidden = !win;
    if (win) {
      bar.replaceChildren(el("span", {}, Actions.winText(win, side)),
        el("span", { class: "meter", "aria-hidden": "true" }, el("span", { class: "fill", style: `width: ${(100 * win.p).toFixed(1)}%` })));
    }
  }

  function sideOf(name) {
    const entry = shown && shown.state.combatants[name];
    return entry ? entry.side : "";
  }

  // The best action of the list marked on its group; in a group of several, its best too.
  function markBest() {
    const all = groups.flatMap((g) => g.actions);
    const side = sideOf(acting);
    const top = Actions.best(all, odds, side);
    for (const g of groups) {
      const badge = g.box.querySelector(".best-badge");
      const mine = top && g.actions.some((a) => a.id === top.id);
      badge.hidden = !mine;
      badge.textContent = mine ? top.why : "";
      g.box.classList.toggle("best", !!mine);
      const here = g.actions.length > 1 ? Actions.best(g.actions, odds, side) : null;
      const line = g.box.querySelector(".best-here");
      line.hidden = !here;
      if (here) {
        const action = g.actions.find((a) => a.id === here.id);
        const words = g.selectors.map((s) => Actions.valueOf(action, s)).join(", ");
        line.replaceChildren(`${here.why} here: `,
          el("button", { type: "button", class: "link-button", onclick: () => choose(g, action) }, words));
      }
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

  // -- the log and what a step did -------------------------------------------------------
  function renderLog(log) {
    const steps = log.steps.map((step, i) => ({
      n: i + 1, round: step.round, label: step.label, faces: step.faces,
      rules: Tracker.rules(step.events), lines: step.lines,
    }));
    Tracker.log(byId("log"), steps, log.start);
  }

  // What the newest step did, in the bar: its label and the fields it changed.
  function renderResult(state, log) {
    const result = byId("result");
    if (!shown || shown.state.steps === state.steps) return;
    const before = shown.state;
    const undone = state.steps < before.steps;
    const step = undone ? shown.log.steps[before.steps - 1] : log.steps[state.steps - 1];
    if (!step) { result.hidden = true; return; }
    const changes = undone ? [] : changed(before.combatants, state.combatants);
    const more = changes.length > 4 ? [`and ${changes.length - 4} more`] : [];
    result.replaceChildren(el("b", {}, undone ? `undone: ${step.label}` : `${state.steps}. ${step.label}`),
      changes.length ? el("span", {}, ": " + [...changes.slice(0, 4), ...more].join("; ")) : undone ? "" : el("span", {}, ": no combatant changed"));
    result.hidden = false;
  }

  function changed(before, after) {
    const lines = [];
    for (const [name, now] of Object.entries(after)) {
      const was = before[name];
      if (!was) { lines.push(`${name} joins`); continue; }
      if (now.out && !was.out) lines.push(`${name} is out of the fight`);
      for (const [key, value] of Object.entries(now)) {
        if (["side", "out", "dead", "harm"].includes(key)) continue;
        if (JSON.stringify(was[key]) !== JSON.stringify(value)) lines.push(`${name}: ${key} ${Tracker.shown(was[key])} -> ${Tracker.shown(value)}`);
      }
    }
    for (const name of Object.keys(before)) if (!(name in after)) lines.push(`${name} leaves`);
    return lines;
  }

  async function refresh() {
    const [state, log, actions, settings] = await Promise.all([
      call("GET", ""), call("GET", "/log"), call("GET", "/actions?odds=false"), call("GET", "/settings"),
    ]);
    if (!shown || shown.state.version !== state.version) odds.clear();
    const focused = document.activeElement;
    renderResult(state, log);
    shown = { state, log };
    renderState(state);
    renderLog(log);
    renderActions(actions, state);
    byId("enemy-detail").value = settings.enemy_detail;
    options(byId("players-side"), state.sides || [], settings.players_side);
    document.body.dataset.steps = String(state.steps);
    // a keyboard's focus on a control the step replaced goes to what the step did
    if (focused && focused !== document.body && !focused.isConnected && !byId("result").hidden) {
      byId("result").focus({ preventScroll: true });
    }
    fillOdds(++generation);
  }

  // The odds arrive after the list: every action's first answer within the server's budget
  // (exact where it finished in time, else estimated), then each refinement over the live
  // stream ("odds" events) until every answer is exact or at its ceiling.
  async function fillOdds(mine) {
    const box = byId("actions");
    box.dataset.odds = "pending";
    let choices;
    try { choices = await call("GET", "/choices"); } catch (err) {
      // 409: the fight moved on, a refresh follows
      if (generation === mine && err.status !== 409) byId("odds-progress").textContent = "no odds: " + err.message;
      return;
    }
    if (generation !== mine) return;  // the page was refreshed meanwhile
    showOdds(choices);
  }

  // A list of choices (from /choices or an "odds" event) on the groups: each chosen action's
  // odds and win chance, the best marked, and how far along the answers are.
  function showOdds(choices) {
    if (choices.version !== version) return;  // odds of a state this page no longer shows
    for (const row of choices.actions) odds.set(row.id, { ...row.odds, win: row.win });
    for (const g of groups) showChosen(g);
    markBest();
    const progress = choices.progress || {};
    byId("odds-progress").textContent = progress.text || "";
    const box = byId("actions");
    box.dataset.odds = "ready";
    box.dataset.refining = String(!!progress.refining);
  }

  // -- controls ----------------------------------------------------------------------------
  function showDiceMode() {
    const button = byId("dice-mode");
    button.setAttribute("aria-pressed", String(tableDice));
    button.textContent = tableDice ? "dice: table" : "dice: program";
  }
  showDiceMode();
  byId("dice-mode").addEventListener("click", () => {
    tableDice = !tableDice;
    localStorage.setItem(DICE_KEY, tableDice ? "table" : "program");
    showDiceMode();
    if (shown) {
      byId("actions").replaceChildren(...groups.map(groupBox));
      markBest();
    }
  });

  const hand = byId("hand-refusal");
  const on = (id, work, where = null) => byId(id).addEventListener("click", () => guarded(work, where));
  on("undo", () => write("POST", "/undo"));
  on("redo", () => write("POST", "/redo"));
  on("skip", () => write("POST", "/skip"), hand);
  on("end-round", () => write("POST", "/end-round"), hand);
  on("edit-set", () => write("POST", "/edit",
    { combatant: byId("edit-who").value, field: byId("edit-field").value, value: typed(byId("edit-value").value) }), hand);
  on("edit-remove", () => write("POST", "/remove", { combatant: byId("edit-who").value }), hand);
  on("reorder", () => write("POST", "/order",
    { order: byId("order-names").value.split(",").map((n) => n.trim()).filter(Boolean) }), hand);
  on("add", () => write("POST", "/add", { side: byId("add-side").value, combatant: byId("add-table").value }), hand);
  on("start-use", () => {
    const dice = faceList(byId("start-faces").value);
    // nothing typed: the dialog asks for round 1's initiative rolls group by group
    if (!dice.length) return askTable("round 1's initiative", "/start/dice", "/start");
    return write("POST", "/start", { dice });
  });
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
  Tracker.wireToast();
  // the laptop's columns scroll under the bar, whatever its height
  const bar = document.querySelector("header.bar");
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar-height", bar.offsetHeight + "px")).observe(bar);

  // The live stream, as the players' page follows it: a change made in another tab or on
  // another device shows here at once.
  function listen() {
    const events = new EventSource(`${base}/events?token=${encodeURIComponent(link.gm || "")}`);
    events.onmessage = (event) => {
      heard = Math.max(heard, Number(event.data) || 0);
      if (heard > version) guarded(refresh);
    };
    events.addEventListener("odds", (event) => showOdds(JSON.parse(event.data)));
    return events;
  }

  if (!link.gm) {
    byId("turn").textContent = "This link has no GM's token: open the GM's link the start page gave.";
    return;
  }
  guarded(async () => {
    try { await refresh(); } catch (err) {
      if ([401, 403, 404].includes(err.status)) byId("turn").textContent = err.message;
      throw err;
    }
    listen();
  });
})();
