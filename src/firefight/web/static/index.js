"use strict";
(() => {
  const el = Tracker.el;
  const KEY = "firefight.encounters";

  function remember(made, title) {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    list.unshift({ ...made, title });
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
  }

  // A new encounter takes round 1's initiative on the table's dice (asked for group by group,
  // then created on them) or on the seed field's seed (empty: fresh dice); a record brings its
  // own start.
  async function start(body, title) {
    Tracker.refuse("");
    const seed = document.getElementById("seed").value.trim();
    const seeded = seed && !body.record ? { seed: Number(seed) } : {};
    try {
      let made;
      if (document.getElementById("table-initiative").checked && !body.record) {
        const what = body.example !== undefined ? { example: body.example } : { scenario: body.scenario };
        const committed = await DiceDialog.open({
          title: `${title}: round 1's initiative`,
          answer: (faces, roll) => Tracker.api("POST", "/api/start/dice", null, { ...what, faces, roll }),
          done: async (faces) => { made = await Tracker.api("POST", "/api/encounters", null, { ...body, dice: faces }); },
        });
        if (!committed) return;
      } else {
        made = await Tracker.api("POST", "/api/encounters", null, { ...body, ...seeded });
      }
      remember(made, title);
      location.href = `/gm/${made.id}#gm=${made.gm_token}&player=${made.player_token}`;
    } catch (err) {
      Tracker.refuse(err.message);
      throw err;
    }
  }

  async function examples() {
    const box = document.getElementById("examples");
    const list = await Tracker.api("GET", "/api/examples");
    if (!list.length) box.append(el("p", {}, "this server has no bundled examples"));
    const rulesets = [...new Set(list.map((ex) => ex.ruleset))];
    for (const ruleset of rulesets) {
      box.append(el("div", { class: "example-group" }, el("h3", {}, ruleset),
        el("ul", {}, list.filter((ex) => ex.ruleset === ruleset).map((ex) => el("li", {},
          el("button", { type: "button", "data-example": ex.id, "aria-label": `start ${ex.title}`, onclick: () => start({ example: ex.id }, ex.title).catch(() => {}) }, "start"),
          el("span", {}, ex.title))))));
    }
  }

  document.getElementById("scenario-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) start({ scenario: await file.text() }, file.name).catch(() => {});
  });
  document.getElementById("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    let record;
    try { record = JSON.parse(await file.text()); } catch (err) { Tracker.refuse(`${file.name}: not JSON`); return; }
    start({ record }, file.name).catch(() => {});
  });

  const mine = document.getElementById("mine");
  const started = JSON.parse(localStorage.getItem(KEY) || "[]");
  if (!started.length) mine.append(el("li", {}, "none yet"));
  for (const e of started) {
    mine.append(el("li", {}, el("a", { href: `/gm/${e.id}#gm=${e.gm_token}&player=${e.player_token}` }, e.title || e.id),
      " · ", el("a", { href: `/play/${e.id}#${e.player_token}` }, `players' page of ${e.title || e.id}`)));
  }
  Tracker.wireToast();
  examples().catch((err) => Tracker.refuse(err.message));
  Builder.init((scenario, players) => start({ scenario, players_side: players }, document.getElementById("b-title").value))
    .catch((err) => Tracker.refuse(err.message));
})();
