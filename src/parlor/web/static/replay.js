// Parlor in the browser: step-through replay after the end. Loaded after app.js (its helpers and state S), no build step.
"use strict";

// ----- step-through replay, once the game is over ---------------------------------------------
function askReplay(step) {
  if (!S.replay || step !== S.replay.step) send({ type: "replay", step });
}
function replayBoard(f) {
  const seat = S.me.seat === null ? 0 : S.me.seat;
  fetch("/api/picture", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ view: f.views[seat], lang: S.lang }) })
    .then((r) => (r.ok ? r.text() : ""))
    .then((svg) => {
      if (!S.replay || S.replay.step !== f.step || !svg) return;
      S.replaySvg = svg;
      const el = document.getElementById("replay-board");
      if (el) { el.innerHTML = svg; el.dataset.step = f.step; }
    });
}
function renderReplay() {
  const r = S.replay;
  const card = h("section", { class: "card", id: "replay" }, h("h2", { text: t("Replay") }));
  if (!r) {
    card.append(h("button", { id: "replay-open", onclick: () => askReplay(0), text: t("Step through the game") }));
    return card;
  }
  const go = (n) => askReplay(Math.max(0, Math.min(r.total, n)));
  const slider = h("input", { id: "replay-step", type: "range", min: 0, max: r.total, value: r.step,
    "aria-label": t("Step"), onchange: (ev) => go(Number(ev.target.value)) });
  card.append(h("div", { class: "replay-controls" },
    h("button", { id: "replay-first", onclick: () => go(0), disabled: r.step === 0, "aria-label": t("First step"), text: "«" }),
    h("button", { id: "replay-prev", onclick: () => go(r.step - 1), disabled: r.step === 0, text: "◀ " + t("Back") }),
    slider,
    h("button", { id: "replay-next", onclick: () => go(r.step + 1), disabled: r.step === r.total, text: t("Next") + " ▶" }),
    h("button", { id: "replay-last", onclick: () => go(r.total), disabled: r.step === r.total, "aria-label": t("Last step"), text: "»" })),
  h("p", { id: "replay-at", "data-step": r.step, text: t("Step {n} of {total}", { n: r.step, total: r.total }) }),
  h("ul", { id: "replay-events" }, ...(r.events.length ? r.events.map((e) => namesIn(e.text)) : [t("The game as it began.")])
    .map((x) => h("li", { text: x }))));
  if (S.table.game === "tools") {
    const v = r.views[0];
    card.append(h("p", {}, t("Top of the pile") + ": ", cardFace(v.top, { disabled: true })),
      h("ul", { id: "replay-hands" }, ...r.views.map((w, p) => h("li", {},
        botName(v.names[p], p) + ": " + (w.hand || []).map(cardWords).join(", ")))));
  } else {
    const board = h("div", { id: "replay-board", class: "board", "data-step": S.replaySvg ? r.step : -1 });
    board.innerHTML = S.replaySvg;
    card.append(board);
  }
  return card;
}
