// Scenario data written as TOML, the text a scenario file holds (the server reads it back
// with the files' own parser and validation, so what is written is what is judged).
"use strict";
const Toml = (() => {
  const key = (k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

  // One value inline: text, numbers, flags, arrays, inline tables (null: left out).
  function value(v) {
    if (typeof v === "string") return JSON.stringify(v);
    if (typeof v === "boolean") return v ? "true" : "false";
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new Error(`${v} is not a number a file can hold`);
      return String(v);
    }
    if (Array.isArray(v)) return "[" + v.filter((x) => x !== null).map(value).join(", ") + "]";
    if (v && typeof v === "object") {
      const parts = Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => `${key(k)} = ${value(x)}`);
      return parts.length ? "{ " + parts.join(", ") + " }" : "{}";
    }
    throw new Error(`a ${typeof v} has no TOML form`);
  }

  // A table's keys as lines `key = value` (null values left out).
  function lines(table) {
    return Object.entries(table).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${key(k)} = ${value(v)}`);
  }

  // A whole scenario: its keys, then [[sides]], [[combatants]], [battlefield] and its pairs.
  function scenario(data) {
    const { sides = [], combatants = [], battlefield = {}, ...top } = data;
    const out = [...lines(top)];
    for (const side of sides) out.push("", "[[sides]]", ...lines(side));
    for (const c of combatants) out.push("", "[[combatants]]", ...lines(c));
    const { pairs = [], ...field } = battlefield;
    const kept = Object.fromEntries(Object.entries(field).filter(([, v]) => v !== null && v !== undefined && !(typeof v === "object" && !Object.keys(v).length)));
    if (Object.keys(kept).length) out.push("", "[battlefield]", ...lines(kept));
    for (const pair of pairs) out.push("", "[[battlefield.pairs]]", ...lines(pair));
    return out.join("\n") + "\n";
  }

  return { key, value, lines, scenario };
})();
