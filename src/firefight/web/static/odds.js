// An action's odds on the GM's page in the same words as the command line's table
// (cli/odds_text.py), from the same JSON (a row of GET .../choices or of the live stream's
// "odds" events). The win chance's words and bar are the action groups' (actions.js).
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

  // labels: action id -> label, for the actions a line names (same odds as, less than).
  line(row, labels = {}) {
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
    if (odds.same_as) text += `; same odds here as ${labels[odds.same_as] || odds.same_as}` + (odds.same_why ? `: ${odds.same_why}` : "");
    const risk = odds.risk;
    if (risk) {
      text += `; ${row.actor} hurt before next turn ` + Odds.pct(risk.p, risk.exact ? null : risk.ci95);
      const d = odds.defence;
      if (d && row.defensive && d.p_less >= 0.005) text += ` (${(100 * d.p_less).toFixed(0)} points less than ${labels[d.against] || d.against})`;
    }
    if (est) text += `; estimated from ${samples.toLocaleString("en")} plays`;
    return text;
  },
};
