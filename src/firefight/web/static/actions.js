// The GM's actions, grouped so a person can scan them: by kind and target (every defensive
// choice together), one selector per parameter the ruleset gives that tells the group's actions
// apart (weapon, mode, region...), the chosen action's odds and, where the API gives it, the
// fight's evaluation; the best choice marked. The page knows no ruleset: kinds, targets and
// parameters are the actions' own words.
"use strict";
const Actions = (() => {
  const el = Tracker.el;
  const TARGETS = "targets";

  function targetsOf(action) {
    const many = action.params && action.params[TARGETS];
    return Array.isArray(many) && many.length ? many.join(" and ") : action.target;
  }

  function keyOf(action) {
    return action.defensive ? "defensive" : `${action.kind}|${targetsOf(action) ?? ""}`;
  }

  function titleOf(action) {
    if (action.defensive) return "defensive choices";
    const target = targetsOf(action);
    return target ? `${action.kind}: ${target}` : action.kind;
  }

  const shownValue = (v) => (v === undefined ? "none" : v === true ? "yes" : v === false ? "no" : Array.isArray(v) ? v.join(", ") : String(v));

  // Groups in the order their first action is listed, the acting combatant's first.
  function group(actions, acting) {
    const groups = new Map();
    for (const action of actions) {
      const key = keyOf(action);
      if (!groups.has(key)) groups.set(key, { key, title: titleOf(action), actions: [] });
      groups.get(key).actions.push(action);
    }
    const list = [...groups.values()];
    const mine = (g) => (g.actions[0].actor === acting ? 0 : 1);
    list.sort((a, b) => mine(a) - mine(b));
    for (const g of list) g.selectors = selectors(g.actions);
    return list;
  }

  // The parameters whose values differ in the group; a "choice" of labels where they do not
  // tell every action apart.
  function selectors(actions) {
    if (actions.length < 2) return [];
    const keys = [];
    for (const a of actions) for (const k of Object.keys(a.params || {})) if (k !== TARGETS && !keys.includes(k)) keys.push(k);
    const found = [];
    for (const k of keys) {
      const values = [];
      for (const a of actions) {
        const v = shownValue((a.params || {})[k]);
        if (!values.includes(v)) values.push(v);
      }
      if (values.length > 1) found.push({ key: k, values });
    }
    const told = new Set(actions.map((a) => found.map((s) => shownValue((a.params || {})[s.key])).join("\u0000")));
    if (found.length && told.size === actions.length) return found;
    return [{ key: null, values: actions.map((a) => a.label) }];
  }

  const valueOf = (action, selector) => (selector.key === null ? action.label : shownValue((action.params || {})[selector.key]));

  // The group's action that has `value` for `selector` and agrees with `current` on the most
  // other selectors (the first listed of equals).
  function pick(g, current, selector, value) {
    let best = null;
    let bestScore = -1;
    for (const a of g.actions) {
      if (valueOf(a, selector) !== value) continue;
      const score = g.selectors.filter((s) => s !== selector && valueOf(a, s) === valueOf(current, s)).length;
      if (score > bestScore) { best = a; bestScore = score; }
    }
    return best || current;
  }

  // The acting side's chance to win the fight if this action is taken, from the API's `win`
  // (on the action or its odds): {p, lo, hi, exact, fights} or null.
  function winOf(action, odds, side) {
    const win = action.win || (odds && odds.win);
    if (!win) return null;
    const pick1 = (x) => (x !== null && typeof x === "object" && !Array.isArray(x) ? x[side] : x);
    const p = pick1(win.p);
    if (typeof p !== "number") return null;
    const ci = pick1(win.ci95);
    return { p, lo: ci ? ci[0] : null, hi: ci ? ci[1] : null, exact: !!win.exact, fights: win.fights || 0 };
  }

  function winText(w, side) {
    const pct = (x) => (100 * x).toFixed(w.exact ? 1 : 0);
    let text = `${side} win the fight ${w.exact ? "" : "~"}${pct(w.p)}%`;
    if (!w.exact && w.lo !== null) text += ` (${pct(w.lo)}-${pct(w.hi)}%)`;
    text += w.exact ? ", exact" : w.fights ? `, from ${w.fights.toLocaleString("en")} fights` : "";
    return text;
  }

  // What "best" means here: the best chance to win where every action has one; else the most
  // harm to the other side (the aggressive policy's score, `effect`) once every preview is in.
  function best(actions, odds, side) {
    const wins = actions.map((a) => winOf(a, odds.get(a.id), side));
    if (actions.length && wins.every(Boolean)) {
      let i = 0;
      wins.forEach((w, j) => { if (w.p > wins[i].p) i = j; });
      return { id: actions[i].id, why: "best chance to win" };
    }
    const effects = actions.map((a) => (odds.get(a.id) || {}).effect);
    if (actions.length > 1 && effects.every((e) => typeof e === "number")) {
      let i = 0;
      effects.forEach((e, j) => { if (e > effects[i]) i = j; });
      if (effects[i] > 0) return { id: actions[i].id, why: "most harm to the other side" };
    }
    return null;
  }

  return { group, pick, valueOf, winOf, winText, best, shownValue };
})();
