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
const want = localStorage.getItem("parlor.lang") || (navigator.language || "en").slice(0, 2);
loadLang(want).then(route);
