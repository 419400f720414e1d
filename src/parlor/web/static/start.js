// Parlor in the browser: routing and start-up, loaded last so every part is there. Loaded after app.js (its helpers and state S), no build step.
"use strict";

// ----- start ---------------------------------------------------------------------------------
function route() {
  S.error = "";
  const p = hashParams();
  const table = p.get("table"), invite = p.get("invite");
  delete main().dataset.version;
  if (!table) {
    if (S.ws) { S.closedForGood = true; S.ws.close(); S.ws = null; }
    S.table = null; S.view = null; S.log = []; renderHome(); return;
  }
  if (invite && !myTables()[table]?.token && !myTables()[table]?.spectator) { renderJoin(table, invite); return; }
  if (!S.creds || S.creds.table !== table || !S.ws) { S.table = null; connect(table); }
}
document.getElementById("lang").addEventListener("change", async (ev) => {
  await loadLang(ev.target.value);
  if (S.ws && S.table) { loadLog(); open(); } else route();
});
window.addEventListener("hashchange", route);
// every motion is skippable: a tap or a key shows at once where it ends (a short one, under
// 0.4 s: the auction's draining bar is a clock, not a motion, and runs on)
function skipMotion() {
  for (const a of document.getAnimations ? document.getAnimations() : []) {
    const d = a.effect && a.effect.getTiming().duration;
    if (a.playState === "running" && typeof d === "number" && d < 400) a.finish();
  }
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, skipMotion, { capture: true, passive: true });
const want = localStorage.getItem("parlor.lang") || (navigator.language || "en").slice(0, 2);
loadLang(want).then(route);
