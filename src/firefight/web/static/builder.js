// The start page's scenario form: a ruleset, its sides, combatants from its catalogs, the
// bundled examples or a form drawn from the ruleset's combatant model (its JSON schema), the
// battlefield, and the players' side. The scenario is written as TOML text (toml.js) and the
// server judges that text as it judges a file, so starting it and downloading it give the same
// scenario. The page holds the draft as the server last read it.
"use strict";
const Builder = (() => {
  const el = Tracker.el;
  const byId = (id) => document.getElementById(id);
  let info = null;       // GET /api/rulesets: the rulesets and the policies
  let form = null;       // GET /api/rulesets/{id}: schema, catalog, the examples' combatants
  let fields = [];       // the generated form's fields
  let draft = null;      // the scenario as the server last read it
  let onStart = null;    // (scenario text, players' side) -> starts the encounter

  function fresh(ruleset) {
    return {
      ruleset, title: byId("b-title").value || "encounter", max_rounds: Number(byId("b-rounds").value) || 20,
      sides: [{ name: "players", policy: "first" }, { name: "enemies", policy: "first" }],
      combatants: [], battlefield: { cover: {}, pairs: [] },
    };
  }

  // -- the form drawn from the schema ----------------------------------------------------
  const words = (k) => k.replace(/_/g, " ");

  function resolve(schema, defs) {
    if (schema && schema.$ref) return resolve(defs[schema.$ref.split("/").pop()], defs);
    return schema || {};
  }

  // What kind of input a property needs: catalog, catalog-multi, enum, enum-multi, number,
  // bool, text, object (nested simple fields) or raw (a TOML value typed as is).
  function kindOf(prop, defs, depth) {
    const catalog = prop.catalog && form.catalog[prop.catalog] ? prop.catalog : null;
    let s = resolve(prop, defs);
    if (s.anyOf) {
      const branches = s.anyOf.map((b) => resolve(b, defs)).filter((b) => b.type !== "null");
      if (catalog) {
        return branches.some((b) => b.type === "array") && !branches.some((b) => b.type === "string")
          ? { kind: "catalog-multi", catalog } : { kind: "catalog", catalog };
      }
      if (branches.length !== 1) return { kind: "raw" };
      s = branches[0];
    }
    if (catalog && s.type === "array") return { kind: "catalog-multi", catalog };
    if (catalog) return { kind: "catalog", catalog };
    if (s.enum) return { kind: "enum", values: s.enum };
    if (s.type === "integer" || s.type === "number") return { kind: "number", schema: s };
    if (s.type === "boolean") return { kind: "bool" };
    if (s.type === "string") return { kind: "text" };
    if (s.type === "array") {
      const items = resolve(s.items, defs);
      return items.enum ? { kind: "enum-multi", values: items.enum } : { kind: "raw" };
    }
    if (s.type === "object" && s.properties && depth === 0) return { kind: "object", schema: s };
    return { kind: "raw" };
  }

  function catalogNames(section) {
    return Object.values(form.catalog[section] || {}).map((e) => String(e.name));
  }

  function field(keyPath, prop, required, defs, depth) {
    const spec = { path: keyPath, key: keyPath[keyPath.length - 1], required, default: prop.default, ...kindOf(prop, defs, depth) };
    const id = "f-" + keyPath.join("-").replace(/[^A-Za-z0-9_-]/g, "_");
    const label = words(spec.key) + (required ? " (required)" : "");
    const hint = prop.description ? el("span", { class: "hint" }, prop.description) : null;
    if (spec.kind === "object") {
      const s = spec.schema;
      spec.children = Object.entries(s.properties).map(([k, p]) =>
        field([...keyPath, k], p, (s.required || []).includes(k), defs, depth + 1));
      spec.node = el("fieldset", { class: "nested" }, el("legend", {}, label), hint, spec.children.map((c) => c.node));
      return spec;
    }
    if (spec.kind === "catalog-multi" || spec.kind === "enum-multi") {
      const values = spec.kind === "catalog-multi" ? catalogNames(spec.catalog) : spec.values;
      spec.boxes = values.map((v) => el("input", { type: "checkbox", value: v, id: `${id}-${v.replace(/[^A-Za-z0-9_-]/g, "_")}` }));
      spec.node = el("fieldset", { class: "checks", "data-key": spec.key }, el("legend", {}, label), hint,
        spec.boxes.map((box) => el("label", { class: "check" }, box, box.value)));
      return spec;
    }
    let input;
    if (spec.kind === "catalog" || spec.kind === "enum") {
      const values = spec.kind === "catalog" ? catalogNames(spec.catalog) : spec.values;
      const first = required ? "(choose)" : spec.default !== undefined && spec.default !== null ? `(default: ${Tracker.shown(spec.default)})` : "(none)";
      input = el("select", { id }, el("option", { value: "" }, first), values.map((v) => el("option", { value: v }, v)));
    } else if (spec.kind === "bool") {
      input = el("input", { type: "checkbox", id });
      input.checked = spec.default === true;
    } else if (spec.kind === "number") {
      const s = spec.schema;
      input = el("input", {
        type: "number", id, step: s.type === "integer" ? "1" : "any", inputmode: "decimal",
        min: s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (s.type === "integer" ? 1 : 0) : undefined),
        max: s.maximum, placeholder: spec.default !== undefined && spec.default !== null ? `default ${spec.default}` : undefined,
      });
    } else {
      const example = spec.default !== undefined && spec.default !== null ? Toml.value(spec.default) : undefined;
      input = el("input", { id, autocomplete: "off", placeholder: spec.kind === "raw" ? (example ? `TOML, e.g. ${example}` : "a TOML value") : example ? `default ${spec.default}` : undefined });
    }
    spec.input = input;
    input.dataset.key = spec.key;
    spec.node = el("label", { class: spec.kind === "bool" ? "check" : "field" }, spec.kind === "bool" ? [input, label] : [label, input], hint);
    return spec;
  }

  function drawForm() {
    const box = byId("b-form");
    const schema = form.schema;
    fields = [];
    if (!schema) {
      box.replaceChildren(el("p", { class: "help" }, "This ruleset gives no form: write the combatant's table as TOML lines below."));
      byId("b-toml").closest("details").open = true;
      return;
    }
    const defs = schema.$defs || {};
    const required = schema.required || [];
    fields = Object.entries(schema.properties || {}).map(([k, p]) => field([k], p, required.includes(k), defs, 0));
    const main = fields.filter((f) => f.required || f.catalog);
    const more = fields.filter((f) => !main.includes(f));
    box.replaceChildren(el("div", { class: "form-main" }, main.map((f) => f.node)),
      more.length ? el("details", { class: "more" }, el("summary", {}, `${more.length} more fields`), el("div", { class: "form-more" }, more.map((f) => f.node))) : null);
  }

  // The form as TOML lines `key = value`; a field left empty (or at its default) is left out.
  function formLines() {
    const out = [];
    for (const f of fields) {
      const v = read(f);
      if (v !== null) out.push(`${Toml.key(f.key)} = ${v}`);
    }
    return out;
  }

  function read(f) {
    if (f.kind === "object") {
      const parts = f.children.map((c) => [c, read(c)]).filter(([, v]) => v !== null);
      return parts.length ? "{ " + parts.map(([c, v]) => `${Toml.key(c.key)} = ${v}`).join(", ") + " }" : null;
    }
    if (f.boxes) {
      const on = f.boxes.filter((b) => b.checked).map((b) => b.value);
      return on.length ? Toml.value(on) : null;
    }
    if (f.kind === "bool") return f.input.checked === (f.default === true) ? null : Toml.value(f.input.checked);
    const text = f.input.value.trim();
    if (text === "") return null;
    if (f.kind === "number") return String(Number(text));
    if (f.kind === "raw") return text;
    return Toml.value(text);
  }

  // A table (an example's combatant) put into the form; keys it has no input for go to the
  // TOML lines.
  function fill(table) {
    for (const f of fields) clear(f);
    const rest = {};
    for (const [k, v] of Object.entries(table)) {
      const f = fields.find((x) => x.key === k);
      if (!f || !put(f, v)) rest[k] = v;
    }
    byId("b-toml").value = Toml.lines(rest).join("\n");
    if (Object.keys(rest).length) byId("b-toml").closest("details").open = true;
  }

  function clear(f) {
    if (f.children) f.children.forEach(clear);
    else if (f.boxes) f.boxes.forEach((b) => { b.checked = false; });
    else if (f.kind === "bool") f.input.checked = f.default === true;
    else f.input.value = "";
  }

  function put(f, v) {
    if (f.kind === "object") {
      if (!v || typeof v !== "object" || Array.isArray(v)) return false;
      return Object.entries(v).every(([k, x]) => { const c = f.children.find((y) => y.key === k); return c && put(c, x); });
    }
    if (f.boxes) {
      if (!Array.isArray(v) || !v.every((x) => f.boxes.some((b) => b.value.toLowerCase() === String(x).toLowerCase()))) return false;
      for (const b of f.boxes) b.checked = v.some((x) => String(x).toLowerCase() === b.value.toLowerCase());
      return true;
    }
    if (f.kind === "bool") { if (typeof v !== "boolean") return false; f.input.checked = v; return true; }
    if (f.kind === "catalog" || f.kind === "enum") {
      const option = [...f.input.options].find((o) => o.value && o.value.toLowerCase() === String(v).toLowerCase());
      if (typeof v !== "string" || !option) return false;
      f.input.value = option.value;
      return true;
    }
    if (f.kind === "number") { if (typeof v !== "number") return false; f.input.value = String(v); return true; }
    if (f.kind === "text") { if (typeof v !== "string") return false; f.input.value = v; return true; }
    f.input.value = Toml.value(v);
    return true;
  }

  // -- the draft ---------------------------------------------------------------------------
  function withTop(data) {
    return { ...data, title: byId("b-title").value || "encounter", max_rounds: Number(byId("b-rounds").value) || data.max_rounds };
  }

  function battlefield(data) {
    const range = byId("b-range").value.trim();
    const bf = { ...(data.battlefield || {}) };
    delete bf.range;
    if (range) bf.range = /^-?\d+(\.\d+)?$/.test(range) ? Number(range) : range;
    return { ...data, battlefield: bf };
  }

  const text = (data) => Toml.scenario(battlefield(withTop(data)));

  async function check(scenario, isDraft) {
    return (await Tracker.api("POST", "/api/scenarios/check", null, { scenario, draft: isDraft })).scenario;
  }

  async function addCombatant() {
    const refusal = byId("b-add-refusal");
    refusal.textContent = "";
    const lines = [...formLines(), ...byId("b-toml").value.split("\n").map((l) => l.trim()).filter(Boolean)];
    const side = byId("b-side").value;
    const named = lines.findIndex((l) => /^name\s*=/.test(l)) + 1;  // its side after its name
    lines.splice(named, 0, `side = ${Toml.value(side)}`);
    const block = ["", "[[combatants]]", ...lines].join("\n");
    try {
      draft = await check(text(draft) + block + "\n", true);
    } catch (err) {
      refusal.textContent = err.message;  // beside the button, where the GM looks
      return;
    }
    byId("b-preset").value = "";
    for (const f of fields) clear(f);
    byId("b-toml").value = "";
    drawDraft();
    byId("b-preset").focus();
  }

  function drawDraft() {
    draft.battlefield = { cover: {}, pairs: [], ...(draft.battlefield || {}) };
    const sides = draft.sides.map((s) => s.name);
    const sideBox = byId("b-sides");
    sideBox.replaceChildren(...draft.sides.map((s, i) => {
      const name = el("input", { value: s.name, autocomplete: "off", "data-side": i });
      name.addEventListener("change", () => renameSide(i, name.value.trim()));
      const policy = el("select", {}, info.policies.map((p) => el("option", { value: p }, p)));
      policy.value = s.policy || "first";
      policy.addEventListener("change", () => { draft.sides[i].policy = policy.value; });
      const drop = el("button", { type: "button", onclick: () => dropSide(i), disabled: draft.sides.length <= 1 }, `remove side ${i + 1}`);
      return el("div", { class: "controls" }, el("label", { class: "grow" }, `side ${i + 1}`, name), el("label", {}, "policy", policy), drop);
    }));
    keepOptions(byId("b-side"), sides);
    keepOptions(byId("b-players"), sides);
    const names = draft.combatants.map((c) => c.name);
    keepOptions(byId("b-pair-a"), names);
    keepOptions(byId("b-pair-b"), names);
    byId("b-combatants").replaceChildren(...draft.combatants.map((c, i) => {
      const cover = el("input", { list: "b-covers", autocomplete: "off", value: draft.battlefield.cover[c.name] || "", "data-cover": c.name });
      cover.addEventListener("change", () => {
        if (cover.value.trim()) draft.battlefield.cover[c.name] = cover.value.trim();
        else delete draft.battlefield.cover[c.name];
      });
      const rest = Object.entries(c).filter(([k]) => k !== "name" && k !== "side").map(([k, v]) => `${words(k)} ${typeof v === "object" ? Toml.value(v) : Tracker.shown(v)}`).join(", ");
      return el("li", { "data-name": c.name },
        el("p", {}, el("b", {}, c.name), ` (${c.side})`, el("span", { class: "hint" }, rest)),
        el("div", { class: "controls" },
          el("label", { class: "grow" }, `cover of ${c.name}`, cover),
          el("button", { type: "button", onclick: () => dropCombatant(i) }, `remove ${c.name}`)));
    }));
    byId("b-pairs").replaceChildren(...(draft.battlefield.pairs || []).map((p, i) =>
      el("li", {}, `${p.between[0]} and ${p.between[1]}: ${p.range} `,
        el("button", { type: "button", onclick: () => { draft.battlefield.pairs.splice(i, 1); drawDraft(); } }, `remove the range of ${p.between.join(" and ")}`))));
  }

  function keepOptions(select, values) {
    const was = select.value;
    select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
    if (values.includes(was)) select.value = was;
  }

  function renameSide(i, name) {
    const old = draft.sides[i].name;
    if (!name) { drawDraft(); return; }
    draft.sides[i].name = name;
    for (const c of draft.combatants) if (c.side === old) c.side = name;
    drawDraft();
  }

  function dropSide(i) {
    const gone = draft.sides[i].name;
    draft.sides.splice(i, 1);
    draft.combatants = draft.combatants.filter((c) => c.side !== gone);
    drawDraft();
  }

  function dropCombatant(i) {
    const [gone] = draft.combatants.splice(i, 1);
    delete draft.battlefield.cover[gone.name];
    draft.battlefield.pairs = (draft.battlefield.pairs || []).filter((p) => !p.between.includes(gone.name));
    drawDraft();
  }

  // The page is marked ready (body[data-builder]) only once the chosen ruleset's form is
  // drawn, and an answer that arrives after a later choice is dropped, so a slow server can
  // neither redraw the form under the GM's typing nor draw a ruleset no longer chosen.
  let picked = 0;
  async function pickRuleset(id) {
    const mine = ++picked;
    delete document.body.dataset.builder;
    const answer = await Tracker.api("GET", `/api/rulesets/${encodeURIComponent(id)}`);
    if (mine !== picked) return;
    form = answer;
    draft = fresh(id);
    drawForm();
    const preset = byId("b-preset");
    preset.replaceChildren(el("option", { value: "" }, "(none: fill in the form)"),
      ...form.examples.map((e, i) => el("option", { value: String(i) }, `${e.name} (${e.example})`)));
    byId("b-covers").replaceChildren(...catalogNames("cover").map((v) => el("option", { value: v })));
    drawDraft();
    document.body.dataset.builder = id;
  }

  // Whole-scenario checks: the text the server will start, or one line beside the button.
  async function whole(work) {
    const refusal = byId("b-refusal");
    refusal.textContent = "";
    try {
      const scenario = text(draft);
      await check(scenario, false);
      await work(scenario);
    } catch (err) {
      refusal.textContent = err.message;
    }
  }

  function download(scenario) {
    const name = (byId("b-title").value || "encounter").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60) || "encounter";
    const a = el("a", { href: URL.createObjectURL(new Blob([scenario], { type: "application/toml" })), download: `${name}.toml` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async function init(start) {
    onStart = start;
    info = await Tracker.api("GET", "/api/rulesets");
    const select = byId("b-ruleset");
    select.replaceChildren(...info.rulesets.map((r) => el("option", { value: r.id }, `${r.id}: ${r.title}`)));
    select.addEventListener("change", () => pickRuleset(select.value));
    byId("b-preset").addEventListener("change", (event) => {
      const chosen = form.examples[Number(event.target.value)];
      if (!chosen) return;
      const taken = new Set(draft.combatants.map((c) => c.name));
      let name = chosen.name;
      for (let n = 2; taken.has(name); n++) name = `${chosen.name} ${n}`;
      fill({ ...chosen.table, name });
    });
    byId("b-add").addEventListener("click", addCombatant);
    byId("b-add-side").addEventListener("click", () => {
      const taken = new Set(draft.sides.map((s) => s.name));
      let n = draft.sides.length + 1;
      while (taken.has(`side ${n}`)) n++;
      draft.sides.push({ name: `side ${n}`, policy: "first" });
      drawDraft();
    });
    byId("b-add-pair").addEventListener("click", () => {
      const a = byId("b-pair-a").value;
      const b = byId("b-pair-b").value;
      const raw = byId("b-pair-range").value.trim();
      if (!a || !b || !raw) { byId("b-refusal").textContent = "choose two combatants and type their range"; return; }
      draft.battlefield.pairs = [...(draft.battlefield.pairs || []), { between: [a, b], range: /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw }];
      byId("b-pair-range").value = "";
      drawDraft();
    });
    byId("b-download").addEventListener("click", () => whole(async (scenario) => download(scenario)));
    byId("b-start").addEventListener("click", () => whole((scenario) => onStart(scenario, byId("b-players").value)));
    if (info.rulesets.length) await pickRuleset(info.rulesets[0].id);
  }

  return { init, text: () => text(draft) };
})();
