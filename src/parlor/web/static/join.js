// Parlor in the browser: what an invite is for, on the join page (game, edition, variant, host,
// seats), from the server's POST /api/tables/{id}/invite. Loaded after app.js, no build step.
"use strict";

// drawn empty at once, filled when the answer comes (a bad invite says so, in the page's words)
function inviteCard(table, invite) {
  const box = h("div", { id: "invite-info", "aria-live": "polite" }, h("p", { class: "hint", text: t("Looking up the invite…") }));
  fetch("/api/tables/" + encodeURIComponent(table) + "/invite", {
    method: "POST", headers: { "content-type": "application/json", "accept-language": S.lang },
    body: JSON.stringify({ invite }),
  }).then(async (r) => {
    const d = await r.json();
    if (!r.ok) { box.replaceChildren(h("p", { id: "invite-bad", role: "alert", text: d.message || d.code })); return; }
    box.replaceChildren(...inviteWords(d));
  }).catch(() => box.replaceChildren(h("p", { text: t("The server cannot be reached. Try again in a moment.") })));
  return box;
}
function inviteWords(d) {
  const game = d.game === "tools" ? t("TOOLS") : t("Property game") + " · " + word("edition", d.edition) + " · " + word("variant", d.variant || "standard");
  const free = d.seats.filter((s) => s.kind === "human" && !s.taken).length;
  const seat = (s) => {
    const who = s.kind === "bot" ? word("kind", (s.bot || "heuristic").split(":")[0]) : s.taken ? s.name : t("free");
    return h("li", { class: s.kind === "human" && !s.taken ? "free" : null }, t("Seat {n}", { n: s.seat + 1 }) + ": " + who);
  };
  return [
    h("p", { id: "invite-game", class: "invite-game", text: game }),
    h("p", { id: "invite-host", text: d.host ? t("Host: {name}", { name: d.host }) : t("The host does not play.") }),
    h("p", { id: "invite-status", text: word("status", d.status) + " · " + tn("{n} seat free", "{n} seats free", free)
      + (d.timer ? " · " + tn("{n} s per decision", "{n} s per decision", d.timer) : "") }),
    h("ul", { id: "invite-seats" }, ...d.seats.map(seat)),
  ];
}
