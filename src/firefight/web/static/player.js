"use strict";
(() => {
  const el = Tracker.el;
  const link = Tracker.link();
  const base = `/api/encounters/${encodeURIComponent(link.id)}`;
  const error = document.getElementById("error");
  const live = document.getElementById("live");

  function render(view) {
    document.getElementById("title").textContent = view.title;
    document.getElementById("side").textContent = `${view.ruleset} · you are ${view.side}`;
    document.getElementById("turn").textContent = Tracker.verdict(view);
    Tracker.combatants(document.getElementById("combatants"), view.combatants, view.turn);
    Tracker.order(document.getElementById("order"), view.order, view.turn);
    document.getElementById("ending").textContent = view.ending ? Tracker.verdict(view) : "";
    const log = document.getElementById("log");
    log.replaceChildren(...view.log.map((step, i) => el("div", { class: "step", "data-step": i + 1 },
      el("div", { class: "label" }, `${i + 1}. round ${step.round}: ${step.label}`),
      step.changes.join("\n"))));
    log.scrollTop = log.scrollHeight;
    document.body.dataset.version = String(view.version);
    document.body.dataset.steps = String(view.log.length);
  }

  async function refresh() {
    try { render(await Tracker.api("GET", base + "/player", link.token)); error.textContent = ""; }
    catch (err) { error.textContent = err.message; }
  }

  const events = new EventSource(`${base}/events?token=${encodeURIComponent(link.token)}`);
  events.onopen = () => { live.textContent = "live"; };
  events.onmessage = () => refresh();
  events.onerror = () => { live.textContent = "reconnecting"; };
})();
