// Parlor in the browser: one page, no build step. The server is the authority: this page shows
// the view, the prompt and the legal answers it is sent, and sends back the answer clicked.
"use strict";

const LANGS = ["en", "es", "da"];
const STORE = "parlor.tables";
const S = {
  lang: "en", cat: {}, ws: null, table: null, me: null, view: null, prompt: null,
  version: 0, final: null, log: [], chat: [], anytime: [], refused: [], edition: null, retry: 0,
  heat: false, creds: null, closedForGood: false, boardSeq: 0, error: "",
};

// ----- words -----------------------------------------------------------------------------
function t(key, vars) {
  let s = S.cat[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
function N_(msg) { return msg; }
// Words picked by a value the server sends (an edition, a decision...): marked with N_ so that
// the catalog extraction (scripts/i18n.sh, domain "web") sees them; t() translates them.
const WORD = {
  bot_name: { heuristic: N_("Heuristic bot {n}"), offering: N_("Offering bot {n}"), random: N_("Random bot {n}"), search: N_("Search bot {n}") },
  edition: { classic: N_("Classic"), matco: N_("Matco"), latam: N_("Latin America"), matador: N_("Matador") },
  variant: { standard: N_("standard rules"), short: N_("short game"), time_limit: N_("time limit"), quick: N_("quick game") },
  kind: { human: N_("person"), heuristic: N_("bot (heuristic)"), offering: N_("bot (trader)"), random: N_("bot (random)"), search: N_("bot (search)") },
  lang: { en: N_("English"), es: N_("Spanish"), da: N_("Danish") },
  status: { waiting: N_("waiting to start"), running: N_("playing"), paused: N_("paused"), over: N_("game over") },
  card: { hammer: N_("hammer"), good_nail: N_("good nail"), bent_nail: N_("bent nail"), smashed_finger: N_("smashed finger"), reverse: N_("change of turn"), box_of_nails: N_("box of nails"), toolbox: N_("toolbox"), wild_hammer: N_("wild hammer"), paint_brush: N_("paint brush") },
  colour: { red: N_("red"), blue: N_("blue"), green: N_("green"), yellow: N_("yellow") },
  direction: { clockwise: N_("clockwise"), counterclockwise: N_("counter-clockwise") },
  decide: { answer_trade: N_("A trade for you"), bid: N_("Auction: your bid"), box_of_nails: N_("A box of nails!"), brush_second_card: N_("Paint brush: a second card?"), buy_or_auction: N_("Buy this deed?"), choose_color: N_("Choose a colour"), drawn_card: N_("Play the card you drew?"), end_turn: N_("End of your turn"), jail: N_("You are in jail"), mortgaged_property: N_("A mortgaged deed came to you"), place_building: N_("Place the building you won"), play: N_("Play a card or draw"), raise_funds: N_("Raise the money you owe"), roll_again: N_("Doubles: throw again"), start_turn: N_("Your turn"), tax_choice: N_("Choose your tax") },
  preset: { free_parking_pot: N_("Free Parking pot"), no_auctions: N_("No auctions"), double_go: N_("Double Go"), unlimited_buildings: N_("Unlimited buildings"), no_rent_in_jail: N_("No rent in jail"), no_box_stacking: N_("No box stacking"), draw_when_able: N_("Draw when able") },
  preset_help: { free_parking_pot: N_("taxes and fines go to the middle; landing on Free Parking takes them."), no_auctions: N_("a deed nobody buys stays with the bank."), double_go: N_("landing exactly on Go pays twice the salary."), unlimited_buildings: N_("the bank never runs out of houses or hotels."), no_rent_in_jail: N_("an owner in jail collects no rent."), no_box_stacking: N_("a box of nails cannot be answered with another one."), draw_when_able: N_("you may draw even when you could play.") },
};
function word(family, value) { const w = WORD[family][value]; return w ? t(w) : String(value); }
async function loadLang(lang) {
  S.lang = LANGS.includes(lang) ? lang : "en";
  const r = await fetch("/i18n/" + S.lang + ".json"); // built by the server from the "web" catalog
  S.cat = await r.json();
  document.documentElement.lang = S.lang;
  document.getElementById("lang").value = S.lang;
  localStorage.setItem("parlor.lang", S.lang);
  document.getElementById("lang-word").textContent = t("Language");
}
function money(n) {
  const ed = S.edition;
  const num = Number(n).toLocaleString(S.lang);
  if (!ed) return "$" + num;
  return ed.currency_after ? num + " " + ed.currency : ed.currency + num;
}
function sqName(i) {
  return S.edition ? S.edition.squares[i].name : "#" + i;
}

// ----- DOM helper: text is always text, never markup --------------------------------------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const main = () => document.getElementById("main");

// ----- "my tables" -----------------------------------------------------------------------
function myTables() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
function remember(id, data) {
  const all = myTables();
  all[id] = { ...(all[id] || {}), ...data, at: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(all));
}
function hashParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

// ----- home: create a table --------------------------------------------------------------
const BOTS = ["human", "heuristic", "offering", "random", "search"];
const PRESETS = {
  monopoly: ["free_parking_pot", "no_auctions", "double_go", "unlimited_buildings", "no_rent_in_jail"],
  tools: ["no_box_stacking", "draw_when_able"],
};
function renderHome() {
  const m = main();
  m.replaceChildren();
  const game = h("select", { id: "game", onchange: () => fill() },
    h("option", { value: "monopoly", text: t("Property game") }),
    h("option", { value: "tools", text: t("TOOLS") }));
  const edition = h("select", { id: "edition" },
    ...["classic", "matco", "latam", "matador"].map((e) => h("option", { value: e, text: word("edition", e) })));
  const variant = h("select", { id: "variant" },
    ...["standard", "short", "time_limit", "quick"].map((v) => h("option", { value: v, text: word("variant", v) })));
  const count = h("select", { id: "seat-count", onchange: () => fill() });
  const seats = h("div", { id: "seats", class: "seats" });
  const presets = h("fieldset", { id: "presets" });
  const name = h("input", { id: "host-name", value: localStorage.getItem("parlor.name") || "", maxlength: 40, required: true });
  const tableLang = h("select", { id: "table-lang" },
    ...LANGS.map((l) => h("option", { value: l, text: word("lang", l), selected: l === S.lang })));
  const timer = h("input", { id: "timer", type: "number", min: 0, max: 3600, value: 0 });
  const rounds = h("input", { id: "rounds", type: "number", min: 0, max: 500, value: 0 });
  const botDelay = h("input", { id: "bot-delay", type: "number", min: 0, max: 10, step: 0.1, value: 0.6 });
  function fill() {
    const g = game.value;
    edition.disabled = variant.disabled = rounds.disabled = g === "tools";
    const max = g === "tools" ? 10 : 8;
    const n = Math.min(Number(count.value || 4), max);
    count.replaceChildren(...Array.from({ length: max - 1 }, (_, i) => h("option", { value: i + 2, text: i + 2, selected: i + 2 === n })));
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => h("label", {},
      t("Seat {n}", { n: i + 1 }) + " ",
      h("select", { id: "seat-" + i, "aria-label": t("Seat {n}", { n: i + 1 }) },
        ...BOTS.filter((b) => g === "monopoly" || b !== "offering").map((b) =>
          h("option", { value: b, text: word("kind", b), selected: (old[i] || (i < 2 ? "human" : "heuristic")) === b }))))));
    presets.replaceChildren(h("legend", { text: t("House rules") }),
      ...PRESETS[g].map((p) => h("label", { class: "preset" },
        h("input", { type: "checkbox", value: p, id: "preset-" + p }), " ",
        h("b", { text: word("preset", p) }), " ", h("span", { class: "hint", text: word("preset_help", p) }))));
  }
  async function create(ev) {
    ev.preventDefault();
    const g = game.value;
    const body = {
      game: g, seats: [...seats.querySelectorAll("select")].map((s) => s.value),
      presets: [...presets.querySelectorAll("input:checked")].map((i) => i.value),
      lang: tableLang.value, host_name: name.value.trim() || "Host",
      bot_delay: Number(botDelay.value),
    };
    if (Number(timer.value) > 0) body.timer = Number(timer.value);
    if (g === "monopoly") { body.edition = edition.value; body.variant = variant.value; }
    if (g === "monopoly" && Number(rounds.value) > 0) body.options = { time_limit_rounds: Number(rounds.value) };
    if (!body.seats.includes("human")) body.host_seat = null;
    localStorage.setItem("parlor.name", name.value.trim());
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const made = await r.json();
    if (!r.ok) { showError(made.message || made.code); return; }
    remember(made.table, { token: made.token, host_key: made.host_key, seat: made.seat, link: made.link, game: g, name: body.host_name });
    location.hash = "table=" + made.table;
  }
  fill();
  m.append(h("section", { class: "card" },
    h("h1", { text: t("New table") }),
    h("form", { id: "create", onsubmit: create },
      h("label", {}, t("Your name") + " ", name),
      h("label", {}, t("Game") + " ", game),
      h("label", {}, t("Edition") + " ", edition),
      h("label", {}, t("Variant") + " ", variant),
      h("label", {}, t("Seats") + " ", count), seats, presets,
      h("label", {}, t("Table language") + " ", tableLang),
      h("label", {}, t("End after this many rounds, richest wins (0: no limit)") + " ", rounds),
      h("label", {}, t("Seconds per decision (0: no timer)") + " ", timer),
      h("label", {}, t("Bot pause (seconds)") + " ", botDelay),
      h("button", { type: "submit", id: "create-button", class: "primary", text: t("Create the table") }))));
  const mine = Object.entries(myTables()).sort((a, b) => b[1].at - a[1].at);
  m.append(h("section", { class: "card", id: "my-tables" }, h("h2", { text: t("My tables") }),
    mine.length ? h("ul", {}, ...mine.map(([id, d]) => h("li", {},
      h("a", { href: "#table=" + id, text: (d.game === "tools" ? t("TOOLS") : t("Property game")) + " · " + id }),
      d.seat !== null && d.seat !== undefined ? " " + t("Seat {n}", { n: d.seat + 1 }) : " " + t("watching"))))
      : h("p", { text: t("No tables yet.") })));
}

// ----- join by invite ----------------------------------------------------------------------
function renderJoin(table, invite) {
  const name = h("input", { id: "join-name", maxlength: 40, value: localStorage.getItem("parlor.name") || "" });
  async function join(ev) {
    ev.preventDefault();
    const r = await fetch("/api/tables/" + encodeURIComponent(table) + "/join", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ invite, name: name.value.trim() || "Guest" }),
    });
    const d = await r.json();
    if (!r.ok) { showError(d.message || d.code); return; }
    localStorage.setItem("parlor.name", name.value.trim());
    remember(table, { token: d.token, seat: d.seat, invite, name: d.name });
    location.hash = "table=" + table;
  }
  function watch() {
    remember(table, { invite, seat: null, spectator: true });
    location.hash = "table=" + table;
  }
  main().replaceChildren(h("section", { class: "card" }, h("h1", { text: t("Join a table") }),
    h("form", { id: "join", onsubmit: join }, h("label", {}, t("Your name") + " ", name),
      h("button", { type: "submit", id: "join-button", class: "primary", text: t("Join") }),
      h("button", { type: "button", id: "watch-button", onclick: watch, text: t("Watch") }))));
}

// ----- the connection --------------------------------------------------------------------
function connect(tableId) {
  const creds = myTables()[tableId];
  if (!creds) { main().replaceChildren(h("p", { text: t("This browser holds no seat at that table.") })); return; }
  S.creds = { ...creds, table: tableId };
  S.closedForGood = false;
  open();
}
function open() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  setStatus(t("connecting…"));
  ws.onopen = () => {
    const c = S.creds;
    const hello = { type: "hello", protocol: 1, table: c.table, lang: S.lang };
    if (c.token) hello.token = c.token; else hello.invite = c.invite;
    if (c.host_key) hello.host_key = c.host_key;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
  ws.onclose = () => {
    if (S.ws !== ws || S.closedForGood) return;
    setStatus(t("connection lost, reconnecting…"));
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(() => { if (S.ws === ws) open(); }, 250 * 2 ** S.retry);
  };
}
function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}
// exposed for the tests: drop the socket as a network would
window.parlorDrop = () => S.ws && S.ws.close();

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      S.retry = 0; S.me = f.you; S.table = f.table; S.chat = f.chat || [];
      take(f); setStatus(t("connected"));
      if (S.me.seat !== null) remember(S.creds.table, { seat: S.me.seat });
      break;
    case "update":
      for (const e of f.events || []) S.log.push(e.text);
      S.log = S.log.slice(-200);
      take(f);
      break;
    case "table": S.table = f.table; break;
    case "chat": S.chat.push(f.message); break;
    case "notice": S.log.push(f.text || f.kind); break;
    case "replay": S.replay = f; S.replaySvg = ""; if (S.table.game !== "tools") replayBoard(f); break;
    case "legal":
      if (f.version === S.version) { S.anytime = f.actions; S.refused = f.refused || []; }
      break;
    case "error":
      if (["bad_token", "protocol", "origin"].includes(f.code)) S.closedForGood = true;
      if (f.code !== "stale") showError(f.message || f.code);
      break;
    default: return;
  }
  render();
}
function take(f) {
  S.version = f.version; S.view = f.view; S.prompt = f.prompt || null; S.final = f.final || null;
  // the server counts the seconds left; this page only counts down from when the frame came
  S.timerAt = f.timer_left === null || f.timer_left === undefined ? null : Date.now() + f.timer_left * 1000;
  S.anytime = []; S.refused = []; S.error = "";
  if (S.me && S.me.seat !== null && S.table.game === "monopoly" && S.table.status === "running" && !S.final) send({ type: "legal", anytime: true });
}
function act(answer) {
  const msg = { type: "action", version: S.version };
  if (answer.id !== null && answer.id !== undefined) msg.id = answer.id; else msg.action = answer.action;
  if (answer.action && answer.action.type === "AcceptTrade" && S.prompt) msg.terms_revision = S.prompt.terms_revision;
  send(msg);
}
function setStatus(s) { document.getElementById("status").textContent = s; }
function showError(msg) {
  S.error = msg;
  const el = document.getElementById("error");
  if (el) el.textContent = msg; else setStatus(msg);
}

// ----- the table page ------------------------------------------------------------------------
function render() {
  if (!S.table) return;
  const m = main();
  const keep = focusOf(m);
  m.replaceChildren();
  // for scripts and tests: which table version and decision this page shows
  m.dataset.version = S.version;
  const over = S.final ? "over" : S.table.status;
  m.dataset.status = over;
  m.dataset.decision = S.prompt ? S.prompt.decision.kind : "";
  const host = S.me && S.me.host;
  const top = h("section", { class: "card", id: "table-head" },
    h("h1", { text: (S.table.game === "tools" ? t("TOOLS") : word("edition", S.table.edition)) + " · " + word("status", over) }),
    h("p", { id: "you", text: S.me.seat === null ? t("You are watching.") : t("You are {name}, seat {n}.", { name: S.table.seats[S.me.seat].name, n: S.me.seat + 1 }) }),
    h("p", { id: "error", role: "alert", text: S.error }));
  m.append(top);
  const link = myTables()[S.creds.table]?.link;
  if (S.table.status === "waiting") {
    if (link) {
      const input = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("Invite link") });
      top.append(h("p", {}, h("label", {}, t("Invite link") + " ", input),
        h("button", { id: "copy-link", onclick: async () => {
          input.select();
          try { await navigator.clipboard.writeText(link); } catch { document.execCommand("copy"); }
          setStatus(t("link copied"));
        }, text: t("Copy link") })));
    }
    top.append(h("ul", { id: "seat-list" }, ...S.table.seats.map((s) => h("li", {},
      t("Seat {n}", { n: s.seat + 1 }) + ": " + (s.kind === "bot" ? word("kind", (s.bot || "heuristic").split(":")[0]) : s.taken ? s.name : t("free"))))));
    if (host) top.append(h("button", { id: "start", class: "primary", onclick: () => send({ type: "start" }), text: t("Start the game") }));
    else top.append(h("p", { text: t("Waiting for the host to start.") }));
    return;
  }
  if (!S.view) return;
  if (S.final) m.append(renderFinal(), renderReplay());
  if (S.table.game === "tools") renderTools(m); else renderProperty(m);
  m.append(renderLog());
  restoreFocus(keep);
}
// A redraw after every move must not take the caret from someone typing (a cash amount, a chat
// line) or the focus from a keyboard user: controls with an id get both back.
function focusOf(m) {
  const el = document.activeElement;
  if (!el || !el.id || !m.contains(el)) return null;
  let sel = null;
  try { sel = el.selectionStart === null || el.selectionStart === undefined ? null : [el.selectionStart, el.selectionEnd]; } catch { sel = null; }
  return { id: el.id, sel };
}
function restoreFocus(keep) {
  const el = keep && document.getElementById(keep.id);
  if (!el) return;
  el.focus();
  if (keep.sel) try { el.setSelectionRange(keep.sel[0], keep.sel[1]); } catch { /* not a text field */ }
}
function seatName(p) { return S.table.seats[p] ? botName(S.table.seats[p].name, p) : "#" + (p + 1); }
// a bot seat's default name ("Heuristic bot 3", chosen by the server) in the page's language
function botName(name, p) {
  const seat = S.table && S.table.seats[p];
  if (!seat || seat.kind !== "bot") return name;
  const kind = (seat.bot || "").split(":")[0];
  const std = kind.charAt(0).toUpperCase() + kind.slice(1) + " bot " + (p + 1);
  return name === std && WORD.bot_name[kind] ? t(WORD.bot_name[kind], { n: p + 1 }) : name;
}
function renderFinal() {
  const f = S.final;
  return h("section", { class: "card final", id: "final" }, h("h2", { text: t("Game over") }),
    h("ol", { id: "ranking" }, ...f.ranking.map((p) => h("li", {},
      seatName(p) + (f.winners.includes(p) ? " ★ " + t("winner") : "") + " · " +
      (f.score_kind === "valuation" ? money(f.scores[p]) : t("{n} cards left", { n: f.scores[p] }))))));
}
function renderLog() {
  return h("section", { class: "card", id: "log-card" }, h("h2", { text: t("What happened") }),
    h("ul", { id: "log", "aria-live": "polite" }, ...S.log.slice(-30).reverse().map((s) => h("li", { text: s }))),
    h("h2", { text: t("Chat") }),
    h("ul", { id: "chat" }, ...S.chat.slice(-10).map((c) => h("li", {}, h("b", { text: c.name + ": " }), c.text))),
    S.me.seat === null ? null : h("form", { onsubmit: (ev) => {
      ev.preventDefault(); const i = ev.target.querySelector("input");
      if (i.value.trim()) send({ type: "chat", text: i.value.trim() }); i.value = ""; S.chatDraft = "";
    } }, h("input", { id: "chat-input", "aria-label": t("Chat"), maxlength: 500, value: S.chatDraft || null,
      oninput: (ev) => { S.chatDraft = ev.target.value; } }), h("button", { type: "submit", text: t("Send") })));
}
function promptCard(title, ...kids) {
  return h("section", { class: "card prompt", id: "prompt", "aria-live": "assertive" }, h("h2", { text: title }), timerLine(), ...kids);
}
// the turn timer: who decides and how many seconds they have left, ticking once a second
function timerText() {
  if (!S.timerAt || !S.view || !S.view.pending || S.final) return "";
  const left = Math.max(0, Math.ceil((S.timerAt - Date.now()) / 1000));
  const who = S.view.pending.player;
  return who === S.me.seat ? t("{n} s left to decide", { n: left }) : t("{name} has {n} s left", { name: seatName(who), n: left });
}
function timerLine() {
  return h("p", { id: "timer-left", class: "timer", role: "timer", "aria-live": "off", text: timerText() });
}
setInterval(() => {
  const el = document.getElementById("timer-left");
  if (el) el.textContent = timerText();
}, 1000);
function answerButton(a, label) {
  return h("button", { class: "answer", "data-type": a.action.type, onclick: () => act(a), text: label || a.text });
}
function waitingFor() {
  const p = S.view.pending;
  return h("div", {}, h("p", { id: "waiting", text: p ? t("Waiting for {name}.", { name: seatName(p.player) }) : "" }), timerLine());
}

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
    h("button", { id: "replay-first", onclick: () => go(0), disabled: r.step === 0, "aria-label": t("First step"), text: "⏮" }),
    h("button", { id: "replay-prev", onclick: () => go(r.step - 1), disabled: r.step === 0, text: "◀ " + t("Back") }),
    slider,
    h("button", { id: "replay-next", onclick: () => go(r.step + 1), disabled: r.step === r.total, text: t("Next") + " ▶" }),
    h("button", { id: "replay-last", onclick: () => go(r.total), disabled: r.step === r.total, "aria-label": t("Last step"), text: "⏭" })),
  h("p", { id: "replay-at", "data-step": r.step, text: t("Step {n} of {total}", { n: r.step, total: r.total }) }),
  h("ul", { id: "replay-events" }, ...(r.events.length ? r.events.map((e) => e.text) : [t("The game as it began.")])
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

// ----- the property table ----------------------------------------------------------------
let boardSvg = "", boardVersion = -1, boardAsked = "", boardEl = null;
function refreshBoard() {
  const key = [S.version, S.heat, S.lang, S.table.id].join("|");
  if (key === boardAsked) return; // this very picture is drawn or on its way
  boardAsked = key;
  const seq = ++S.boardSeq, drawnAt = S.version;
  fetch("/api/picture", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ view: S.view, lang: S.lang, heat: S.heat,
      options: S.table.settings ? S.table.settings.options : null }) })
    .then((r) => (r.ok ? r.text() : ""))
    .then((svg) => {
      if (seq !== S.boardSeq || !svg) { if (seq === S.boardSeq) boardAsked = ""; return; }
      boardSvg = svg; // drawn by the server from this page's own view
      boardVersion = drawnAt;
      const el = document.getElementById("board");
      if (!el) return;
      const before = tokenSpots(el);
      el.innerHTML = svg; el.dataset.version = drawnAt;
      walkTokens(el, before);
    });
}
// ----- tokens that walk: from the square they stood on, through every square passed ----------
const WALK_MS = 90; // per square
function tokenSpots(el) {
  const out = {};
  for (const tok of el.querySelectorAll("g.token")) {
    out[tok.dataset.player] = { square: Number(tok.dataset.square), transform: tok.getAttribute("transform") };
  }
  return out;
}
function squareCentre(el, index, parent, player) {
  const sq = el.querySelector("#square-" + index);
  if (!sq) return null;
  // the picture says where each seat's token stands on a square; else the square's middle
  const spot = (sq.dataset.tokenSpots || "").split(" ")[player];
  if (spot) { const [x, y] = spot.split(","); return "translate(" + x + "px, " + y + "px)"; }
  const ctm = parent.getScreenCTM();
  if (!ctm) return null;
  const r = sq.getBoundingClientRect();
  const pt = new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(ctm.inverse());
  return "translate(" + pt.x.toFixed(1) + "px, " + pt.y.toFixed(1) + "px)";
}
function walkTokens(el, before) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches || !el.animate) return;
  const n = S.edition ? S.edition.squares.length : 40;
  for (const tok of el.querySelectorAll("g.token")) {
    const old = before[tok.dataset.player];
    const to = Number(tok.dataset.square);
    if (!old || old.square === to || tok.dataset.inJail === "true") continue;
    const steps = (to - old.square + n) % n;
    if (steps > 12) continue; // a card's jump, not a throw of the dice: no walk
    const css = (tr) => tr.replace(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/, "translate($1px, $2px)");
    const frames = [css(old.transform)];
    for (let i = 1; i < steps; i++) {
      const c = squareCentre(el, (old.square + i) % n, tok.parentNode, Number(tok.dataset.player));
      if (c) frames.push(c);
    }
    frames.push(css(tok.getAttribute("transform")));
    tok.animate(frames.map((transform) => ({ transform })), { duration: WALK_MS * steps, easing: "linear" });
    document.documentElement.dataset.walks = String(Number(document.documentElement.dataset.walks || 0) + 1);
  }
}
function renderProperty(m) {
  const v = S.view;
  if (!S.edition || S.edition.id !== v.edition || S.edition.lang !== S.lang) {
    fetch("/api/editions/" + encodeURIComponent(v.edition) + "?lang=" + S.lang).then((r) => r.json())
      .then((ed) => { ed.lang = S.lang; S.edition = ed; render(); });
    if (!S.edition) return;
  }
  // one board element for the whole visit: a redraw moves it, so a token's walk goes on
  if (!boardEl) boardEl = h("div", { id: "board", class: "board" });
  const board = boardEl;
  if (board.dataset.version !== String(boardVersion)) {
    board.innerHTML = boardSvg;
    board.dataset.version = boardVersion;
  }
  refreshBoard();
  const heat = h("label", { class: "heat" }, h("input", { type: "checkbox", id: "heat", checked: S.heat,
    onchange: (ev) => { S.heat = ev.target.checked; refreshBoard(); } }), " " + t("Show the analysis: landing chances as heat, expected rent and payback on deeds"));
  const layout = h("div", { class: "table-layout" }, h("div", { class: "board-wrap" }, heat, board),
    h("div", { class: "side" }, renderDecision(), renderPlayers(), renderDeeds(), renderTrade()));
  m.append(layout);
}
function deedsOf(p) { return S.view.properties.filter((d) => d.owner === p); }
function renderPlayers() {
  const v = S.view;
  return h("section", { class: "card", id: "players" }, h("h2", { text: t("Players") }),
    ...v.players.map((pl, p) => {
      const seat = S.table.seats[p] || {};
      const marks = [];
      if (v.turn === p && !S.final) marks.push("▶ " + t("turn"));
      if (pl.in_jail) marks.push(t("in jail"));
      if (pl.bankrupt) marks.push(t("bankrupt"));
      if (pl.jail_cards) marks.push(t("{n} get-out-of-jail card(s)", { n: pl.jail_cards }));
      marks.push(seat.kind === "bot" ? t("bot") : seat.connected ? t("online") : t("offline"));
      const deeds = deedsOf(p);
      return h("div", { class: "player" + (v.turn === p ? " current" : ""), "data-player": p },
        h("h3", { text: (p + 1) + ". " + botName(pl.name, p) + (S.me.seat === p ? " (" + t("you") + ")" : "") }),
        h("p", { class: "cash", text: t("Cash") + ": " + money(pl.cash) }),
        h("p", { class: "marks", text: marks.join(" · ") }),
        deeds.length ? h("ul", { class: "deeds" }, ...deeds.map((d) => h("li", { text: deedLabel(d) }))) : null);
    }));
}
// street groups are lettered A, B, ... in board order, as on the board picture
function groupLetter(sq) {
  if (!sq.group || sq.kind !== "street") return "";
  const groups = [];
  for (const q of S.edition.squares) if (q.kind === "street" && !groups.includes(q.group)) groups.push(q.group);
  return String.fromCharCode(65 + groups.indexOf(sq.group));
}
function deedLabel(d) {
  const sq = S.edition.squares[d.square];
  let s = sq.name;
  const letter = groupLetter(sq);
  if (letter) s += " [" + letter + "]";
  if (d.buildings === 5) s += " · " + t("hotel");
  else if (d.buildings) s += " · " + t("{n} house(s)", { n: d.buildings });
  if (d.mortgaged) s += " · " + t("mortgaged");
  return s;
}
// a mortgaged deed changing hands costs its new owner the bank's interest (the 10% fee)
function mortgageFee(q) {
  const sq = S.edition.squares[q];
  return sq.interest ?? Math.ceil(sq.mortgage / 10);
}
function tradeDeedLabel(d) {
  return deedLabel(d) + (d.mortgaged ? " · " + t("fee {amount} to take it over", { amount: money(mortgageFee(d.square)) }) : "");
}
function offerList(squares, cash, cards) {
  const items = squares.map((q) => {
    const d = S.view.properties.find((x) => x.square === q);
    return d ? tradeDeedLabel(d) : sqName(q);
  });
  if (cash) items.push(money(cash));
  if (cards) items.push(t("{n} get-out-of-jail card(s)", { n: cards }));
  return h("ul", {}, ...(items.length ? items : [t("nothing")]).map((s) => h("li", { text: s })));
}
function renderDecision() {
  const pr = S.prompt;
  if (!pr) return h("section", { class: "card", id: "no-prompt" }, waitingFor());
  const d = pr.decision, info = d.info || {};
  const answers = pr.answers;
  const title = WORD.decide[d.kind] ? t(WORD.decide[d.kind]) : t("Your decision");
  const kids = [];
  if (d.kind === "buy_or_auction") kids.push(h("p", { text: sqName(info.square) + " · " + money(info.price) }));
  if (d.kind === "raise_funds") kids.push(h("p", { id: "owed", text: t("You owe {amount}.", { amount: money(info.amount) }) }));
  if (d.kind === "bid") {
    const item = info.square !== undefined ? sqName(info.square) : t("a building");
    kids.push(h("p", { id: "high-bid", text: t("Auction of {item}", { item }) + " · " + (info.high_bidder >= 0
      ? t("high bid {amount} by {name}", { amount: money(info.high_bid), name: seatName(info.high_bidder) }) : t("no bid yet")) }));
    const amount = h("input", { id: "bid-amount", type: "number", min: info.min_bid, value: info.min_bid, "aria-label": t("Your own bid") });
    kids.push(h("div", { class: "answers" }, ...answers.map((a) => answerButton(a,
      a.action.type === "Bid" ? t("bid {amount}", { amount: money(a.action.amount) }) : a.action.type === "PassBid" ? t("pass") : null))));
    kids.push(h("form", { class: "custom-bid", onsubmit: (ev) => {
      ev.preventDefault();
      act({ action: { type: "Bid", player: S.me.seat, amount: Number(amount.value) } });
    } }, amount, h("button", { type: "submit", text: t("Bid this amount") })));
    return promptCard(title, ...kids);
  }
  if (d.kind === "answer_trade") {
    const o = info.offer;
    kids.push(h("div", { id: "trade-offer", class: "offer" },
      h("p", { text: t("{name} offers you a trade.", { name: seatName(info.from) }) }),
      h("h3", { text: t("You get") }), offerList(o.give_squares, o.give_cash, o.give_jail_cards),
      h("h3", { text: t("You give") }), offerList(o.take_squares, o.take_cash, o.take_jail_cards)));
    const reject = answers.find((a) => a.action.type === "RejectTrade");
    // a counter-offer turns this one down and opens the builder with the terms swapped
    const counter = reject ? h("button", { id: "counter-offer", type: "button", onclick: () => {
      Object.assign(draft, { open: true, partner: info.from, give: new Set(o.take_squares), take: new Set(o.give_squares),
        giveCash: o.take_cash, takeCash: o.give_cash, giveCards: o.take_jail_cards, takeCards: o.give_jail_cards });
      act(reject);
    }, text: t("Counter-offer") }) : null;
    kids.push(h("div", { class: "answers" }, ...answers.map((a) => answerButton(a,
      a.action.type === "AcceptTrade" ? t("Accept") : a.action.type === "RejectTrade" ? t("Reject") : null)), counter));
    return promptCard(title, ...kids);
  }
  kids.push(h("div", { class: "answers" }, ...answers.map((a) => {
    const sq = a.action.square !== undefined ? S.edition.squares[a.action.square] : null;
    let extra = "";
    if (d.kind === "raise_funds" && sq && a.action.type === "Mortgage") extra = " (+" + money(sq.mortgage) + ")";
    if (d.kind === "raise_funds" && sq && a.action.type === "SellBuilding") extra = " (+" + money(Math.floor(sq.house_cost / 2)) + ")";
    return answerButton(a, a.text + extra);
  })));
  return promptCard(title, ...kids);
}
const ANYTIME = { Build: "build", SellBuilding: "sell", Mortgage: "mortgage", Unmortgage: "lift" };
const ANYTIME_WORD = { build: N_("Build"), sell: N_("Sell a building"), mortgage: N_("Mortgage"), lift: N_("Lift the mortgage") };
function renderDeeds() {
  if (S.me.seat === null || S.final) return null;
  const mine = deedsOf(S.me.seat);
  if (!mine.length) return null;
  const acts = S.anytime.filter((a) => ANYTIME[a.action.type]);
  const cost = (kind, sq) => kind === "build" ? "−" + money(sq.house_cost) : kind === "sell" ? "+" + money(Math.floor(sq.house_cost / 2))
    : kind === "mortgage" ? "+" + money(sq.mortgage) : "−" + money(sq.mortgage + mortgageFee(sq.index));
  return h("section", { class: "card", id: "my-deeds" }, h("h2", { text: t("My deeds") }),
    h("ul", {}, ...mine.map((d) => {
      const sq = S.edition.squares[d.square];
      const here = acts.filter((a) => a.action.square === d.square);
      // what the engine refuses on this deed stays visible, disabled, with the engine's reason
      const refused = S.refused.filter((r) => r.action.square === d.square && ANYTIME[r.action.type]);
      const why = [];
      const buttons = [...here.map((a) => ({ a, ok: true })), ...refused.map((r) => ({ a: r, ok: false }))]
        .sort((x, y) => Object.keys(ANYTIME).indexOf(x.a.action.type) - Object.keys(ANYTIME).indexOf(y.a.action.type))
        .map(({ a, ok }) => {
          const kind = ANYTIME[a.action.type];
          const label = t(ANYTIME_WORD[kind]) + " " + cost(kind, sq);
          if (ok) return h("button", { class: "deed-action", "data-type": a.action.type, onclick: () => act(a),
            "aria-label": label + " · " + sq.name, text: label });
          const id = "why-" + a.action.type + "-" + d.square;
          why.push(h("small", { class: "why", id, "data-type": a.action.type, text: t(ANYTIME_WORD[kind]) + ": " + a.reason }));
          return h("button", { class: "deed-action", "data-type": a.action.type, disabled: true, title: a.reason,
            "aria-describedby": id, "aria-label": label + " · " + sq.name, text: label });
        });
      return h("li", { "data-square": d.square }, h("span", { text: deedLabel(d) + " " }), ...buttons, ...why);
    })));
}
// the trade being written survives the page being redrawn after every move
const draft = { open: false, partner: null, give: new Set(), take: new Set(), giveCash: 0, takeCash: 0, giveCards: 0, takeCards: 0 };
function renderTrade() {
  if (S.me.seat === null || S.final) return null;
  const me = S.me.seat, v = S.view;
  const others = v.players.map((_, p) => p).filter((p) => p !== me && !v.players[p].bankrupt);
  if (!others.length) return null;
  if (!others.includes(draft.partner)) { draft.partner = others[0]; draft.take.clear(); }
  const partner = h("select", { id: "trade-partner", "aria-label": t("Trade with"),
    onchange: () => { draft.partner = Number(partner.value); draft.take.clear(); draft.takeCards = 0; render(); } },
    ...others.map((p) => h("option", { value: p, text: seatName(p), selected: p === draft.partner })));
  const box = (p, cls, chosen) => h("fieldset", { class: cls }, h("legend", { text: p === me ? t("You give") : t("You get") }),
    ...deedsOf(p).filter((d) => !d.buildings).map((d) => h("label", {},
      h("input", { type: "checkbox", value: d.square, "data-square": d.square, checked: chosen.has(d.square),
        onchange: (ev) => { if (ev.target.checked) chosen.add(d.square); else chosen.delete(d.square); } }),
      " " + tradeDeedLabel(d))));
  const number = (id, key, max) => h("input", { type: "number", min: 0, max, value: draft[key], id,
    oninput: (ev) => { draft[key] = Number(ev.target.value) || 0; } });
  // jail cards only when the side giving them holds some
  const cards = (p, id, key) => v.players[p].jail_cards
    ? h("label", {}, t("Get-out-of-jail cards") + " ", number(id, key, v.players[p].jail_cards)) : null;
  const form = h("form", { id: "trade-form", onsubmit: (ev) => {
    ev.preventDefault();
    const mine = new Set(deedsOf(me).map((d) => d.square)), theirs = new Set(deedsOf(draft.partner).map((d) => d.square));
    act({ action: { type: "ProposeTrade", player: me, to: draft.partner,
      give_squares: [...draft.give].filter((q) => mine.has(q)), take_squares: [...draft.take].filter((q) => theirs.has(q)),
      give_cash: draft.giveCash, take_cash: draft.takeCash,
      give_jail_cards: Math.min(draft.giveCards, v.players[me].jail_cards),
      take_jail_cards: Math.min(draft.takeCards, v.players[draft.partner].jail_cards) } });
    draft.give.clear(); draft.take.clear(); draft.giveCash = draft.takeCash = draft.giveCards = draft.takeCards = 0;
  } }, h("label", {}, t("Trade with") + " ", partner), box(me, "give", draft.give),
    h("label", {}, t("Cash") + " ", number("give-cash", "giveCash")), cards(me, "give-cards", "giveCards"),
    box(draft.partner, "take", draft.take), h("label", {}, t("Cash") + " ", number("take-cash", "takeCash")),
    cards(draft.partner, "take-cards", "takeCards"),
    h("button", { type: "submit", id: "propose", text: t("Send the offer") }));
  const details = h("details", { class: "card", id: "trade", open: draft.open }, h("summary", { text: t("Propose a trade") }), form);
  details.addEventListener("toggle", () => { draft.open = details.open; });
  return details;
}

// ----- the TOOLS table ---------------------------------------------------------------------
const CARD_KINDS = ["hammer", "good_nail", "bent_nail", "smashed_finger", "reverse", "box_of_nails", "toolbox", "wild_hammer", "paint_brush"];
const COLOUR_MARK = { red: "●", blue: "■", green: "▲", yellow: "◆" };
function cardWords(code) {
  const [kind, colour] = code.split(":");
  const name = word("card", kind);
  return colour ? t("{colour} {card}", { colour: word("colour", colour), card: name }) : name;
}
function cardFace(code, attrs) {
  const colour = code.split(":")[1] || "wild";
  return h("button", { class: "tcard colour-" + colour, "data-card": code, ...attrs },
    h("span", { class: "mark", "aria-hidden": "true", text: COLOUR_MARK[colour] || "★" }),
    h("span", { class: "words", text: cardWords(code) }));
}
// TOOLS in a few lines (docs/rules/tools.md has every clause); open or shut, it stays as left
const RULES = [
  N_("Be the first to play every card from your hand."),
  N_("On a hammer: any hammer, or a nail or action card of its colour."),
  N_("A good nail must be repaired with a hammer of its colour (or a wild). With none, play two hammers and draw 3; without two hammers, draw 2 and lose the turn."),
  N_("On a bent nail: any hammer, or an action card of its colour."),
  N_("On an action card: any card of its colour, or the same action in another colour."),
  N_("Smashed finger: the next player loses the turn. Change of turn: play goes the other way. Box of nails: the next player draws 2 and loses the turn, unless they answer with another box (the penalty grows by 2 a box)."),
  N_("Wilds go on anything. Toolbox: the next player draws 4 and loses the turn. Wild hammer: a hammer of any colour. Paint brush: name a colour, then you may play one more card of it."),
  N_("No card to play? Draw one: if it fits, you may play it at once."),
];
function rulesHelp() {
  const d = h("details", { class: "card", id: "rules-help", open: S.rulesOpen || null }, h("summary", { text: t("Rules in short") }),
    h("ul", {}, ...RULES.map((r) => h("li", { text: t(r) }))));
  d.addEventListener("toggle", () => { S.rulesOpen = d.open; });
  return d;
}
function renderTools(m) {
  const v = S.view, pr = S.prompt;
  const playable = new Map();
  if (pr) for (const a of pr.answers) if (a.action.card) playable.set(a.action.card, a);
  const seats = h("ul", { id: "tools-seats" }, ...v.names.map((n, p) => h("li", { class: p === v.current ? "current" : "" },
    (p === v.current && !S.final ? "▶ " : "") + botName(n, p) + (S.me.seat === p ? " (" + t("you") + ")" : "") + ": " + t("{n} cards", { n: v.hand_sizes[p] }))));
  const pile = h("section", { class: "card", id: "pile" }, h("h2", { text: t("Table") }),
    h("p", {}, t("Top of the pile") + ": ", cardFace(v.top, { disabled: true, id: "top-card" })),
    h("p", { id: "colour-in-force", text: t("Colour in force") + ": " + (v.color ? word("colour", v.color) : "—") }),
    h("p", { text: t("{n} cards to draw", { n: v.draw_pile }) + " · " + word("direction", v.direction) }),
    v.box_penalty ? h("p", { text: t("Penalty waiting: {n} cards", { n: v.box_penalty }) }) : null, seats);
  m.append(pile);
  m.append(rulesHelp());
  if (pr) {
    const d = pr.decision;
    const title = WORD.decide[d.kind] ? t(WORD.decide[d.kind]) : t("Your decision");
    const kids = [];
    if (d.info && d.info.drawn) kids.push(h("p", {}, t("You drew") + ": ", cardFace(d.info.drawn, { disabled: true })));
    if (d.info && d.info.good_nail_penalty) kids.push(h("p", { text: t("Good nail: you cannot play") }));
    if (d.info && d.info.penalty) kids.push(h("p", { text: t("Penalty waiting: {n} cards", { n: d.info.penalty }) }));
    const others = pr.answers.filter((a) => !a.action.card || d.kind !== "play");
    if (d.kind === "play" && others.length < pr.answers.length) kids.push(h("p", { class: "hint", text: t("Play a raised card from your hand (marked ▲ playable).") }));
    kids.push(h("div", { class: "answers" }, ...others.map((a) => answerButton(a,
      a.action.type === "ChooseColor" ? COLOUR_MARK[a.action.color] + " " + word("colour", a.action.color) : null))));
    m.append(promptCard(title, ...kids));
  } else m.append(h("section", { class: "card", id: "no-prompt" }, waitingFor()));
  if (v.hand) {
    const hand = [...v.hand].sort((a, b) => a.localeCompare(b));
    m.append(h("section", { class: "card", id: "hand" }, h("h2", { text: t("Your hand ({n} cards)", { n: hand.length }) }),
      h("div", { class: "cards" }, ...hand.map((c) => {
        const a = S.prompt && S.prompt.decision.kind === "play" ? playable.get(c) : null;
        return cardFace(c, { class: "tcard colour-" + (c.split(":")[1] || "wild") + (a ? " playable" : ""),
          disabled: !a, onclick: a ? () => act(a) : null,
          "aria-label": cardWords(c) + (a ? " · " + t("playable") : "") });
      }))));
  }
}

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
  if (!S.creds || S.creds.table !== table || !S.ws) { S.table = null; S.log = []; connect(table); }
}
document.getElementById("lang").addEventListener("change", async (ev) => {
  await loadLang(ev.target.value);
  if (S.ws && S.table) { S.log = []; open(); } else route();
});
window.addEventListener("hashchange", route);
const want = localStorage.getItem("parlor.lang") || (navigator.language || "en").slice(0, 2);
loadLang(want).then(route);
