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
  card.append(renderRecords());
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

// ----- game records (docs/records.md): this game's to download, or one read from a file ---------
function downloadRecord(text) {
  S.recordText = text;
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" })),
    download: "parlor-" + (S.creds ? S.creds.table : "game") + ".plr" });
  document.body.append(a); a.click(); a.remove();
}
// A record's text by its grammar alone (no rules needed): its tags and lines, comments dropped.
function parseRecord(text) {
  const tags = [], setup = [], moves = [];
  for (const raw of text.replace(/^\ufeff/, "").split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const m = line.match(/^\[([A-Za-z][A-Za-z0-9_]*)((?:\s+"(?:[^"\\]|\\.)*")*)\s*\]$/);
      if (!m) return null;
      const values = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((v) => v[1].replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c)));
      tags.push([m[1], values]);
      continue;
    }
    let body = "", quoted = false;  // (a ; outside quotes starts a comment)
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted && c === "\\") { body += c + (line[i + 1] || ""); i++; continue; }
      if (c === '"') quoted = !quoted;
      if (c === ";" && !quoted) break;
      body += c;
    }
    (line.startsWith("*") ? setup : moves).push(body.trim());
  }
  if (!tags.length || tags[0][0] !== "Format" || tags[0][1][0] !== "parlor-record 1") return null;
  return { tags, setup, moves, at: 0 };
}
function openRecord(text) {
  S.recordView = parseRecord(text) || { error: t("This is not a game record.") };
  render();
}
function renderRecords() {
  const box = h("div", { id: "records" },
    h("button", { id: "record-download", onclick: () => send({ type: "export", format: "record" }), text: t("Download the record") }),
    // a button in the page's words: a file input's own ("Choose File", "No file chosen") are
    // the browser's, English on a Spanish page in an English browser; the input lies over it
    h("label", { class: "file-button" }, t("Open a record"),
      h("input", { id: "record-file", type: "file", accept: ".plr,text/plain",
        onchange: (ev) => ev.target.files[0] && ev.target.files[0].text().then(openRecord) })));
  const v = S.recordView;
  if (!v) return box;
  if (v.error) { box.append(h("p", { id: "record-error", role: "alert", text: v.error })); return box; }
  const tag = (name) => (v.tags.find((x) => x[0] === name) || [name, [""]])[1];
  const go = (n) => { v.at = Math.max(0, Math.min(v.moves.length, n)); render(); };
  const shown = v.moves.slice(Math.max(0, v.at - 8), v.at);
  box.append(
    h("p", { id: "record-head", text: [tag("Game")[0], tag("Title")[0] || tag("Deck")[0], t("result") + " " + tag("Result")[0]].join(" · ") }),
    h("ul", { id: "record-seats" }, ...v.tags.filter((x) => x[0] === "Seat").map((x) => h("li", { text: "P" + x[1][0] + " " + x[1][1] + (x[1][2] ? " (" + x[1][2] + ")" : "") }))),
    h("div", { class: "replay-controls" },
      h("button", { id: "record-prev", onclick: () => go(v.at - 1), disabled: v.at === 0, text: "◀ " + t("Back") }),
      h("button", { id: "record-next", onclick: () => go(v.at + 1), disabled: v.at === v.moves.length, text: t("Next") + " ▶" }),
      h("button", { id: "record-last", onclick: () => go(v.moves.length), disabled: v.at === v.moves.length, "aria-label": t("Last step"), text: "»" })),
    h("p", { id: "record-at", "data-step": v.at, text: t("Move {n} of {total}", { n: v.at, total: v.moves.length }) }),
    h("ol", { id: "record-moves", start: v.at - shown.length + 1 }, ...(v.at === 0 ? [] : shown.map((x, i) =>
      h("li", { text: x, class: i === shown.length - 1 ? "current" : null, "aria-current": i === shown.length - 1 ? "step" : null })))));
  return box;
}
