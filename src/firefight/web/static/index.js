"use strict";
(() => {
  const el = Tracker.el;
  const error = document.getElementById("error");
  const KEY = "firefight.encounters";

  function remember(made, title) {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    list.unshift({ ...made, title });
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
  }

  async function start(body, title) {
    error.textContent = "";
    try {
      let made;
      if (document.getElementById("table-initiative").checked && !body.record) {
        // round 1's initiative on the table's dice: asked for group by group, then created on them
        const committed = await DiceDialog.open({
          title: `${title}: round 1's initiative`,
          answer: (faces, roll) => Tracker.api("POST", "/api/start/dice", null, { ...body, faces, roll }),
          done: async (faces) => { made = await Tracker.api("POST", "/api/encounters", null, { ...body, dice: faces }); },
        });
        if (!committed) return;
      } else {
        made = await Tracker.api("POST", "/api/encounters", null, body);
      }
      remember(made, title);
      location.href = `/gm/${made.id}#gm=${made.gm_token}&player=${made.player_token}`;
    } catch (err) {
      error.textContent = err.message;
    }
  }

  async function examples() {
    const table = document.getElementById("examples");
    const list = await Tracker.api("GET", "/api/examples");
    if (!list.length) table.append(el("tr", {}, el("td", {}, "this server has no bundled examples")));
    for (const ex of list) {
      table.append(el("tr", {},
        el("td", {}, ex.ruleset), el("td", {}, ex.title),
        el("td", {}, el("button", { "data-example": ex.id, onclick: () => start({ example: ex.id }, ex.title) }, "start"))));
    }
  }

  document.getElementById("scenario-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) start({ scenario: await file.text() }, file.name);
  });
  document.getElementById("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    let record;
    try { record = JSON.parse(await file.text()); } catch (err) { error.textContent = `${file.name}: not JSON`; return; }
    start({ record }, file.name);
  });

  const mine = document.getElementById("mine");
  for (const e of JSON.parse(localStorage.getItem(KEY) || "[]")) {
    mine.append(el("li", {}, el("a", { href: `/gm/${e.id}#gm=${e.gm_token}&player=${e.player_token}` }, e.title || e.id),
      " · ", el("a", { href: `/play/${e.id}#${e.player_token}` }, "players' page")));
  }
  examples().catch((err) => { error.textContent = err.message; });
})();
