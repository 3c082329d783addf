// The table's dice asked for group by group, in a dialog of its own.
//
// DiceDialog.open({title, answer, done}) shows what the resolution needs next: who rolls which
// dice, what for and under which rule, with one input per die of the group (digits only, the
// die's range enforced as typed), "roll this one for me" (the program rolls the group), "roll
// all the rest", "back" (take back the last group) and "cancel". An explosion's extra die is
// simply the next group. `answer(faces, roll)` asks the server (POST .../dice) and returns its
// answer; once it says the resolution is complete, `done(faces)` commits those faces. The
// promise resolves to true once committed, false if the GM cancelled; a refusal the dialog
// cannot mend (409: the fight moved on since it opened) closes it and rejects with that error.
"use strict";
const DiceDialog = (() => {
  const el = Tracker.el;

  function dieInput(next, i, inputs, form) {
    const input = el("input", {
      inputmode: "numeric", autocomplete: "off", size: String(String(next.sides).length + 1),
      "data-die": String(i), "aria-label": `die ${i + 1} of ${next.count}: a d${next.sides} (1-${next.sides})`,
    });
    let kept = "";
    input.addEventListener("input", () => {
      const digits = input.value.replace(/[^0-9]/g, "");
      const face = Number(digits);
      if (digits !== "" && (digits.startsWith("0") || face < 1 || face > next.sides)) {
        input.value = kept;  // not a face of this die: the keystroke is refused
        return;
      }
      input.value = kept = digits;
      // no further digit could make a face of this die: on to the next die, or to "enter"
      if (digits !== "" && face * 10 > next.sides) {
        const after = inputs[i + 1];
        if (after) after.focus(); else form.querySelector("[data-dice=enter]").focus();
      }
    });
    return input;
  }

  function open({ title, answer, done }) {
    return new Promise((resolve, reject) => {
      const heading = el("h2", {}, title);
      const soFar = el("p", { class: "dice-so-far", "data-testid": "dice-so-far" });
      const question = el("p", { class: "dice-question", "data-testid": "dice-question" });
      const purpose = el("p", { class: "dice-purpose", "data-testid": "dice-purpose" });
      const form = el("form", { class: "dice-faces", method: "dialog" });
      const error = el("p", { class: "error", "data-testid": "dice-error" });
      const button = (what, text) => el("button", { type: "button", "data-dice": what }, text);
      const mine = button("program", "roll this one for me");
      const rest = button("rest", "roll all the rest");
      const back = button("back", "back");
      const cancel = button("cancel", "cancel");
      const dialog = el("dialog", { class: "dice-dialog", "data-testid": "dice-dialog", "aria-labelledby": "dice-title" },
        heading, soFar, question, purpose, form, el("div", { class: "controls" }, mine, rest, back, cancel), error);
      heading.id = "dice-title";
      let current = null;
      let inputs = [];

      const finish = (committed) => { dialog.close(); dialog.remove(); resolve(committed); };

      async function ask(faces, roll) {
        if (dialog.dataset.busy) return;
        dialog.dataset.busy = "1";
        error.textContent = "";
        try {
          const got = await answer(faces, roll || undefined);
          if (got.complete) {
            await done(got.faces_so_far);
            finish(true);
            return;
          }
          current = got;
          render(got);
        } catch (err) {
          if (err.status === 409) { dialog.close(); dialog.remove(); reject(err); return; }
          error.textContent = err.message;
        } finally {
          delete dialog.dataset.busy;
        }
      }

      function render(got) {
        const next = got.next;
        soFar.textContent = got.faces_so_far.length ? "faces so far: " + got.faces_so_far.join(", ") : "no faces yet";
        question.replaceChildren(el("b", {}, next.who || "the table"), " rolls ", el("b", {}, next.dice),
          next.kind === "plain" ? "" : ` (${next.kind})`, next.note ? `: ${next.note}` : "");
        purpose.textContent = `for ${next.for || "a roll"}` + (next.rule && !(next.for || "").includes(next.rule) ? ` (${next.rule})` : "");
        inputs = [];
        for (let i = 0; i < next.count; i++) inputs.push(dieInput(next, i, inputs, form));
        form.replaceChildren(...inputs, el("button", { type: "submit", "data-dice": "enter" }, "enter"));
        back.disabled = !got.answered.length;
        dialog.dataset.group = String(next.group);
        dialog.dataset.dice = next.dice;
        dialog.dataset.faces = got.faces_so_far.join(",");
        inputs[0].focus();
      }

      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (!current) return;
        const typed = inputs.map((input) => input.value);
        if (typed.some((face) => face === "")) {
          error.textContent = `type every die of the group (${current.next.dice}), or let the program roll it`;
          return;
        }
        ask(current.faces_so_far.concat(typed.map(Number)));
      });
      mine.addEventListener("click", () => { if (current) ask(current.faces_so_far, "group"); });
      rest.addEventListener("click", () => { if (current) ask(current.faces_so_far, "rest"); });
      back.addEventListener("click", () => {
        const last = current && current.answered[current.answered.length - 1];
        if (last) ask(current.faces_so_far.slice(0, last.first_face - 1));
      });
      cancel.addEventListener("click", () => finish(false));
      dialog.addEventListener("cancel", (event) => { event.preventDefault(); finish(false); });
      document.body.append(dialog);
      dialog.showModal();
      ask([]);
    });
  }

  return { open };
})();
