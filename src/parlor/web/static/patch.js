// Parlor in the browser: protocol 3's views as changes (docs/server.md, "Views as changes").
// An update carries either the whole view or, as "changes", what changed since the view this
// page holds ("base" is its version): [path, value] sets, [path] removes an object's key, an index
// equal to a list's length appends. Loaded before app.js; no build step.
"use strict";

function copyJson(v) {
  if (Array.isArray(v)) return v.map(copyJson);
  if (v && typeof v === "object") { const o = {}; for (const k of Object.keys(v)) o[k] = copyJson(v[k]); return o; }
  return v;
}
// the view after the changes: a new object (the one held is left as it was, for comparisons)
function applyChanges(view, changes) {
  let root = copyJson(view);
  for (const ch of changes) {
    const path = ch[0];
    if (!path.length) { root = copyJson(ch[1]); continue; }
    let parent = root;
    for (const step of path.slice(0, -1)) parent = parent[step];
    const last = path[path.length - 1];
    if (ch.length >= 2) parent[last] = copyJson(ch[1]); // (an index at the end appends)
    else delete parent[last];
  }
  return root;
}
// the view an update frame brings, or null when it is changes to a view this page does not hold
function viewOf(f, held, heldVersion) {
  if (!("changes" in f)) return f.view;
  if (held === null || held === undefined || f.base !== heldVersion) return null;
  return applyChanges(held, f.changes);
}
