"use strict";
(() => {
  const link = Tracker.link();
  const base = `/api/encounters/${encodeURIComponent(link.id)}`;
  const live = document.getElementById("live");
  const problem = document.getElementById("problem");

  // A link that cannot open the page says so in one line, and the page stops trying.
  function stop(line) {
    problem.textContent = line;
    problem.hidden = false;
    live.textContent = "not connected";
  }

  function render(view) {
    document.getElementById("title").textContent = view.title;
    document.title = `${view.title}: players`;
    document.getElementById("side").textContent = `${view.ruleset} · you are ${view.side}`;
    document.getElementById("turn").textContent = Tracker.verdict(view);
    Tracker.cards(document.getElementById("combatants"), view.combatants, view.cards, view.order, view.turn);
    document.getElementById("ending").textContent = view.ending ? Tracker.verdict(view) : "";
    const steps = view.log.map((step, i) => ({ n: i + 1, round: step.round, label: step.label, lines: step.changes }));
    Tracker.log(document.getElementById("log"), steps, null);
    document.body.dataset.version = String(view.version);
    document.body.dataset.steps = String(view.log.length);
  }

  async function refresh() {
    try {
      render(await Tracker.api("GET", base + "/player", link.token));
      problem.hidden = true;
      return true;
    } catch (err) {
      if ([401, 403, 404].includes(err.status)) {
        stop(`This link does not open the players' page: ${err.message}`);
        return false;
      }
      problem.textContent = err.message;
      problem.hidden = false;
      return true;
    }
  }

  async function start() {
    if (!link.token) {
      stop("This players' link has no token: ask the GM for the players' link (it ends in #...).");
      return;
    }
    if (!(await refresh())) return;
    const events = new EventSource(`${base}/events?token=${encodeURIComponent(link.token)}`);
    events.onopen = () => { live.textContent = "live"; };
    events.onmessage = () => refresh().then((ok) => { if (!ok) events.close(); });
    events.onerror = () => { live.textContent = "reconnecting"; };
  }
  start();
})();
