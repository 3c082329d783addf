// An action's odds and win chance on the GM's page: the same words as the command line's
// table (cli/odds_text.py), from the same JSON (GET .../choices and the live stream's "odds"
// events). Self-contained: Odds.render(box, choices, side) fills every [data-action] row of
// box that has an .odds and a .win element.
"use strict";

const Odds = {
  // 41.2% (exact) or ~41% (38-44%) (an estimate with its 95% interval).
  pct(p, interval) {
    if (!interval) return `${(100 * p).toFixed(1)}%`;
    return `~${(100 * p).toFixed(0)}% (${(100 * interval[0]).toFixed(0)}-${(100 * interval[1]).toFixed(0)}%)`;
  },

  // A chance that rounds to nothing at its precision says nothing: it is left out.
  shown(p, estimated) {
    return Number((100 * p).toFixed(estimated ? 0 : 1)) > 0;
  },

  line(row) {
    const odds = row.odds || {};
    const samples = odds.samples || 0;
    if (!odds.exact && !samples) return odds.note || "working out...";
    const est = samples > 0;
    const ci = est ? odds.ci95 || {} : {};
    const parts = [];
    if (Odds.shown(odds.p_success || 0, est)) parts.push("lands " + Odds.pct(odds.p_success, ci.p_success));
    const pOut = odds.p_out || {}, conditions = odds.conditions || {};
    for (const name of new Set([...Object.keys(pOut), ...Object.keys(conditions)])) {
      const said = [];
      if (Odds.shown(pOut[name] || 0, est)) said.push("out " + Odds.pct(pOut[name], (ci.p_out || {})[name]));
      for (const [what, q] of Object.entries(conditions[name] || {})) {
        if (Odds.shown(q, est)) said.push(`${what} ` + Odds.pct(q, ((ci.conditions || {})[name] || {})[what]));
      }
      if (said.length) parts.push(`${name} ` + said.join(", "));
    }
    for (const [name, h] of Object.entries(odds.expected_harm || {})) {
      if (Math.abs(h) >= 0.005) parts.push(`${name} ${h > 0 ? "+" : ""}${h.toFixed(2)} harm`);
    }
    let text = parts.join("; ") || "no effect on anyone now";
    if (odds.same_as) text += `; same odds here as ${odds.same_as}` + (odds.same_why ? `: ${odds.same_why}` : "");
    const risk = odds.risk;
    if (risk) {
      text += `; ${row.actor} hurt before next turn ` + Odds.pct(risk.p, risk.exact ? null : risk.ci95);
      const d = odds.defence;
      if (d && row.defensive && d.p_less >= 0.005) text += ` (${(100 * d.p_less).toFixed(0)} points less than ${d.against})`;
    }
    if (est) text += `; estimated from ${samples.toLocaleString("en")} plays`;
    return text;
  },

  // "marines win 54% ±2" or "... 54.3% (exact)", or null while unknown.
  winText(win, side) {
    if (!win) return null;
    const p = win.p[side] || 0;
    if (win.exact) return `${side} win ${(100 * p).toFixed(1)}% (exact)`;
    const [lo, hi] = win.ci95[side];
    return `${side} win ${(100 * p).toFixed(0)}% ±${(100 * Math.max(p - lo, hi - p)).toFixed(0)}`;
  },

  // Fill the rows of box from choices ({actions, progress}); side: whose win chance is shown.
  render(box, choices, side) {
    let best = null;
    for (const row of choices.actions) {
      if (row.win && (best === null || (row.win.p[side] || 0) > (best.win.p[side] || 0))) best = row;
    }
    for (const row of choices.actions) {
      const el = box.querySelector(`[data-action="${CSS.escape(row.id)}"]`);
      if (!el) continue;
      const odds = el.querySelector(".odds");
      if (odds) {
        odds.textContent = Odds.line(row);
        odds.dataset.exact = String(!!(row.odds && row.odds.exact));
      }
      const win = el.querySelector(".win");
      if (!win) continue;
      const text = Odds.winText(row.win, side);
      win.replaceChildren();
      if (text === null) continue;
      const bar = Tracker.el("span", { class: "bar" });
      bar.style.width = `${(100 * (row.win.p[side] || 0)).toFixed(1)}%`;
      win.append(Tracker.el("span", { class: "track" }, bar), text);
      win.classList.toggle("best", row === best);
    }
    box.dataset.progress = (choices.progress || {}).text || "";
  },
};
