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
// A message with a number in it, in the language's plural form: the catalog holds the forms in
// its order (gettext's), picked here by the language's plural rule (CLDR, through Intl).
const PLURAL_ORDER = { en: ["one", "other"], da: ["one", "other"], es: ["one", "many", "other"] };
function tn(one, other, n, vars) {
  const forms = S.cat[one];
  let s;
  if (Array.isArray(forms)) {
    const order = PLURAL_ORDER[S.lang] || PLURAL_ORDER.en;
    const i = order.indexOf(new Intl.PluralRules(S.lang).select(n));
    s = forms[i >= 0 ? i : forms.length - 1];
  } else s = n === 1 ? one : other;
  for (const [k, v] of Object.entries({ n, ...(vars || {}) })) s = s.split("{" + k + "}").join(String(v));
  return s;
}
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
  decide: { answer_trade: N_("A trade for you"), building_wish: N_("The bank is short of buildings: how many do you want?"), bid: N_("Auction: your bid"), box_of_nails: N_("A box of nails!"), brush_second_card: N_("Paint brush: a second card?"), buy_or_auction: N_("Buy this deed?"), choose_color: N_("Choose a colour"), drawn_card: N_("Play the card you drew?"), end_turn: N_("End of your turn"), jail: N_("You are in jail"), mortgaged_property: N_("A mortgaged deed came to you"), place_building: N_("Place the building you won"), play: N_("Play a card or draw"), raise_funds: N_("Raise the money you owe"), roll_again: N_("Doubles: throw again"), start_turn: N_("Your turn"), tax_choice: N_("Choose your tax") },
  preset: { free_parking_pot: N_("Free Parking pot"), no_auctions: N_("No auctions"), double_go: N_("Double Go"), unlimited_buildings: N_("Unlimited buildings"), no_rent_in_jail: N_("No rent in jail"), no_box_stacking: N_("No box stacking"), draw_when_able: N_("Draw when able") },
  preset_help: { free_parking_pot: N_("taxes and fines go to the middle; landing on Free Parking takes them."), no_auctions: N_("a deed nobody buys stays with the bank."), double_go: N_("landing exactly on Go pays twice the salary."), unlimited_buildings: N_("the bank never runs out of houses or hotels."), no_rent_in_jail: N_("an owner in jail collects no rent."), no_box_stacking: N_("a box of nails cannot be answered with another one."), draw_when_able: N_("you may draw even when you could play.") },
};
function word(family, value) { const w = WORD[family][value]; return w ? t(w) : String(value); }
async function loadLang(lang) {
  S.lang = LANGS.includes(lang) ? lang : "en";
  try { // built by the server from the "web" catalog; unreachable: the words already held
    const r = await fetch("/i18n/" + S.lang + ".json");
    if (r.ok) S.cat = await r.json();
  } catch { setStatus(t("connection lost, reconnecting…")); }
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
    if (k.startsWith("on")) el[k] = v; // a property, so that morph() can hand it on to the kept element
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

// ----- redraws that keep the page: the new tree is laid over the elements already there --------
// A frame redraws the page from S, but only what changed is touched: the buttons, fields and
// the board a player is looking at (or tapping) stay the same elements.
// (data-key is the identity of a redrawn element: hand-drawn parts keep their own state elsewhere)
const HANDLERS = ["onclick", "onchange", "oninput", "onsubmit", "ontoggle", "onkeydown", "onpointerenter", "onpointerleave", "onfocus"];
function sameNode(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== 1) return true;
  return (a.id || "") === (b.id || "") && (a.dataset.key || "") === (b.dataset.key || "");
}
function morph(old, neu) {
  // an element drawn by hand (the board picture): kept while its key is the same
  if (old.dataset.static !== undefined || neu.dataset.static !== undefined) {
    if (old.dataset.static !== neu.dataset.static) old.replaceWith(neu);
    return;
  }
  for (const a of [...old.attributes]) if (!neu.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of neu.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const k of HANDLERS) if (old[k] !== neu[k]) old[k] = neu[k];
  const busy = old === document.activeElement; // someone typing: their text and caret stay
  if (old.tagName === "INPUT") {
    if (old.type === "checkbox" || old.type === "radio") old.checked = neu.hasAttribute("checked");
    else if (!busy && neu.hasAttribute("value") && old.value !== neu.getAttribute("value")) old.value = neu.getAttribute("value");
  }
  morphKids(old, neu);
  if (old.tagName === "SELECT" && !busy && old.value !== neu.value) old.value = neu.value;
}
function morphKids(old, neu) {
  const want = [...neu.childNodes];
  for (let i = 0; i < want.length; i++) {
    const n = want[i], o = old.childNodes[i];
    if (!o) { old.appendChild(n); continue; }
    if (sameNode(o, n)) {
      if (o.nodeType === 1) morph(o, n); else if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
      continue;
    }
    // an element with an id further on (a card moved up): moved here, not drawn again
    const later = n.nodeType === 1 && n.id ? [...old.childNodes].slice(i + 1).find((x) => sameNode(x, n)) : null;
    if (later) { old.insertBefore(later, o); morph(later, n); } else old.insertBefore(n, o);
  }
  while (old.childNodes.length > want.length) old.lastChild.remove();
}

// ----- "my tables" -----------------------------------------------------------------------
function myTables() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
function remember(id, data) {
  const all = myTables();
  all[id] = { ...(all[id] || {}), ...data, at: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(all));
}
// My tables names the game and who sits there (a joined seat's page knew neither)
function rememberTable(tbl) {
  if (S.creds) remember(S.creds.table, { game: tbl.game, names: tbl.seats.map((s, p) => botName(s.name, p)) });
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
  const edition = h("select", { id: "edition", onchange: () => fill() },
    ...["classic", "matco", "latam", "matador"].map((e) => h("option", { value: e, text: word("edition", e) })));
  // the chosen edition's board, as the table will start (drawn by the server, cached)
  const preview = h("img", { id: "edition-board", class: "edition-board", width: 240, height: 240, loading: "lazy" });
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
    preview.hidden = g === "tools";
    preview.src = "/api/editions/" + edition.value + "/board.svg?lang=" + S.lang;
    preview.alt = t("The board of {edition}", { edition: word("edition", edition.value) });
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
    let r, made;
    try {
      r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json", "accept-language": S.lang }, body: JSON.stringify(body) });
      made = await r.json();
    } catch { showError(t("The server cannot be reached. Try again in a moment.")); return; }
    if (!r.ok) { showError(made.message || made.code); return; }
    remember(made.table, { token: made.token, host_key: made.host_key, seat: made.seat, link: made.link, game: g, name: body.host_name });
    recordCommitment(made.table, made.fairness); // (before this page's nonce is sent: fairness.js)
    location.hash = "table=" + made.table;
  }
  fill();
  // one click to a game: the page's person and three heuristic bots, started at once
  async function quick(g) {
    const body = { game: g, seats: ["human", "heuristic", "heuristic", "heuristic"], presets: [], lang: S.lang,
      host_name: (localStorage.getItem("parlor.name") || "").trim() || t("Player"), bot_delay: 0.6 };
    if (g === "monopoly") { body.edition = "classic"; body.variant = "short"; }
    let r, made;
    try {
      r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json", "accept-language": S.lang }, body: JSON.stringify(body) });
      made = await r.json();
    } catch { showError(t("The server cannot be reached. Try again in a moment.")); return; }
    if (!r.ok) { showError(made.message || made.code); return; }
    remember(made.table, { token: made.token, host_key: made.host_key, seat: made.seat, link: made.link, game: g, name: body.host_name, quick: true });
    location.hash = "table=" + made.table;
  }
  const quickCard = h("section", { class: "card", id: "quick" }, h("h1", { text: t("Play now against bots") }),
    h("p", { id: "error", role: "alert" }),
    h("div", { class: "answers" },
      h("button", { type: "button", id: "quick-monopoly", class: "primary", onclick: () => quick("monopoly"), text: t("Property game") }),
      h("button", { type: "button", id: "quick-tools", class: "primary", onclick: () => quick("tools"), text: t("TOOLS") })));
  const mine = Object.entries(myTables()).sort((a, b) => b[1].at - a[1].at);
  // the tables this browser sits at come first (a player coming back wants their game); with
  // none yet, playing now does
  const myCard = h("section", { class: "card", id: "my-tables" }, h("h2", { text: t("My tables") }),
    mine.length ? h("ul", {}, ...mine.map(([id, d]) => h("li", {},
      h("a", { href: "#table=" + id, "data-table": id, text: (d.game === "tools" ? t("TOOLS") : t("Property game"))
        + (d.names ? " · " + t("with {names}", { names: d.names.join(", ") }) : " · " + id) }),
      d.seat !== null && d.seat !== undefined ? " " + t("Seat {n}", { n: d.seat + 1 }) : " " + t("watching"))))
      : h("p", { text: t("No tables yet.") }));
  m.append(...(mine.length ? [myCard, quickCard] : [quickCard, myCard]));
  m.append(h("section", { class: "card" },
    h("h1", { text: t("New table") }),
    h("form", { id: "create", onsubmit: create },
      h("label", {}, t("Your name") + " ", name),
      h("label", {}, t("Game") + " ", game),
      h("label", {}, t("Edition") + " ", edition), preview,
      h("label", {}, t("Variant") + " ", variant),
      h("label", {}, t("Seats") + " ", count), seats, presets,
      h("label", {}, t("Table language") + " ", tableLang),
      h("label", {}, t("End after this many rounds, richest wins (0: no limit)") + " ", rounds),
      h("label", {}, t("Seconds per decision (0: no timer)") + " ", timer),
      h("label", {}, t("Bot pause (seconds)") + " ", botDelay),
      h("button", { type: "submit", id: "create-button", class: "primary", text: t("Create the table") }))));
}

// ----- join by invite ----------------------------------------------------------------------
function renderJoin(table, invite) {
  const name = h("input", { id: "join-name", maxlength: 40, value: localStorage.getItem("parlor.name") || "" });
  async function join(ev) {
    ev.preventDefault();
    let r, d;
    try {
      r = await fetch("/api/tables/" + encodeURIComponent(table) + "/join", {
        method: "POST", headers: { "content-type": "application/json", "accept-language": S.lang }, // errors in the page's language
        body: JSON.stringify({ invite, name: name.value.trim() || "Guest" }),
      });
      d = await r.json();
    } catch { showError(t("The server cannot be reached. Try again in a moment.")); return; }
    if (!r.ok) { showError(d.message || d.code); return; }
    localStorage.setItem("parlor.name", name.value.trim());
    remember(table, { token: d.token, seat: d.seat, invite, name: d.name });
    recordCommitment(table, d.fairness);
    location.hash = "table=" + table;
  }
  function watch() {
    remember(table, { invite, seat: null, spectator: true });
    location.hash = "table=" + table;
  }
  main().replaceChildren(h("section", { class: "card" }, h("h1", { text: t("Join a table") }),
    inviteCard(table, invite), // (join.js: which game, edition, host and seats)
    h("form", { id: "join", onsubmit: join }, h("label", {}, t("Your name") + " ", name),
      h("button", { type: "submit", id: "join-button", class: "primary", text: t("Join") }),
      h("button", { type: "button", id: "watch-button", onclick: watch, text: t("Watch") }))));
}

// ----- the connection --------------------------------------------------------------------
// the running log survives a reload: kept per table in this browser (the server keeps no past
// events for a page that comes back, only the game)
function logKey() { return "parlor.log." + (S.creds ? S.creds.table : ""); }
function keepLog() {
  try { localStorage.setItem(logKey(), JSON.stringify({ lang: S.lang, round: S.logRound, log: S.log })); } catch { /* full: the log lives in the page */ }
}
function loadLog() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(logKey()) || "null"); } catch { kept = null; }
  // lines in another language are left behind: a mixed log reads badly
  S.log = kept && kept.lang === S.lang && Array.isArray(kept.log) ? kept.log : [];
  S.logRound = kept && kept.lang === S.lang ? kept.round : undefined;
}
function connect(tableId) {
  const creds = myTables()[tableId];
  if (!creds) { main().replaceChildren(h("p", { text: t("This browser holds no seat at that table.") })); return; }
  S.creds = { ...creds, table: tableId };
  S.closedForGood = false;
  S.fair = null;
  loadLog();
  open();
}
function open() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  setStatus(t("connecting…"));
  ws.onopen = () => {
    const c = S.creds;
    // protocol 3: updates bring the changes to the view held (patch.js), not the whole view
    const hello = { type: "hello", protocol: 3, table: c.table, lang: S.lang };
    if (c.token) hello.token = c.token; else hello.invite = c.invite;
    if (c.host_key) hello.host_key = c.host_key;
    helloNonce(hello);
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => onFrame(parseFrame(ev.data));
  ws.onclose = () => {
    if (S.ws !== ws || S.closedForGood) return;
    setStatus(t("connection lost, reconnecting…"));
    // back soon after the server is: tries every second at most (a restart takes a few)
    S.retry = Math.min(S.retry + 1, 3);
    setTimeout(() => { if (S.ws === ws) open(); }, [0, 150, 400, 1000][S.retry]);
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
      S.retry = 0; S.me = f.you; S.table = f.table; S.chat = f.chat || []; S.anytimeFor = ""; S.resyncAt = 0;
      take(f); setStatus(t("connected"));
      remember(S.creds.table, { seat: S.me.seat });
      rememberTable(f.table);
      recordCommitment(S.creds.table, f.table.fairness); // (a spectator's first sight of it)
      askFairness();
      // "play now": the table was made to start at once
      if (S.me.host && S.table.status === "waiting" && myTables()[S.creds.table]?.quick) {
        remember(S.creds.table, { quick: false });
        send({ type: "start" });
      }
      break;
    case "update": {
      const view = viewOf(f, S.view, S.version);
      // (lost track: the view comes whole; asked once, not again for each change frame already
      // on its way, unless no whole view came within 2 s: a refused ask is asked again)
      if (view === null) {
        if (!S.resyncAt || Date.now() - S.resyncAt > 2000) { send({ type: "resync" }); S.resyncAt = Date.now(); }
        return;
      }
      if (!("changes" in f)) S.resyncAt = 0;
      f.view = view;
      S.lastEvents = f.events || [];
      for (const e of S.lastEvents) {
        if (e.kind === "dice") S.diceAt = f.version;
        // a separator at each new round (the turn events say which)
        if (e.kind === "turn" && e.data && typeof e.data.round === "number" && e.data.round !== S.logRound) {
          S.logRound = e.data.round;
          S.log.push({ round: e.data.round + 1 });
        }
        S.log.push({ text: e.text, p: e.data && typeof e.data.player === "number" ? e.data.player : null, turn: e.kind === "turn" });
      }
      S.log = S.log.slice(-200);
      keepLog();
      take(f);
      askFairness();
      break;
    }
    case "table": S.table = f.table; rememberTable(f.table); break;
    case "export": // the save (checked against the commitment: fairness.js) or the game record
      if (f.format === "record") downloadRecord(f.record);
      else onExport(f);
      return;
    case "chat": S.chat.push(f.message); break;
    case "notice": S.log.push({ text: f.text || f.kind, p: typeof f.seat === "number" ? f.seat : null }); break;
    case "replay": S.replay = f; S.replaySvg = ""; if (S.table.game !== "tools") replayBoard(f); break;
    case "legal": // the answer to the last ask, kept until what it depends on changes (legalKey)
      if (f.ref === S.legalRef) { S.anytime = f.actions; S.refused = f.refused || []; }
      break;
    case "error":
      if (["bad_token", "protocol", "origin"].includes(f.code)) S.closedForGood = true;
      if (f.code !== "stale") showError(f.message || f.code);
      if (f.code !== "stale" && typeof stopPlan === "function") stopPlan(); // (a build plan refused: stop there)
      // (an answer to a version this page is not at: the newer view comes with the next update,
      // or, if this page lost track of it, whole)
      else if (S.table && S.table.status === "running" && !S.final) send({ type: "resync" });
      break;
    default: return;
  }
  render();
}
function take(f) {
  // cash changes, shown on the panels for a few moves (+$200, -$50)
  const was = S.view && S.view.players, now = f.view && f.view.players;
  if (was && now && was.length === now.length && f.version > S.version) {
    S.deltas = S.deltas || {};
    now.forEach((pl, p) => { if (pl.cash !== undefined && pl.cash !== was[p].cash) S.deltas[p] = { n: pl.cash - was[p].cash, at: f.version }; });
  }
  S.version = f.version; S.view = f.view; S.prompt = f.prompt || null; S.final = f.final || null;
  // the server counts the seconds left; this page only counts down from when the frame came
  S.timerAt = f.timer_left === null || f.timer_left === undefined ? null : Date.now() + f.timer_left * 1000;
  S.error = "";
  askLegal(false);
}
// The any-time buttons are on the seat's own deeds: no deed, nothing to ask; never the trade
// proposals (the page writes its own offers); and only when what the rules allow on them may
// have changed (legalKey), not after every move. ``force``: a dialog about to show them.
const CLOSED_KINDS = ["answer_trade", "mortgaged_property", "place_building", "building_wish"];
function legalKey() {
  const v = S.view, me = S.me.seat, pl = v.players[me];
  const mine = v.properties.filter((d) => d.owner === me);
  if (!mine.length || !pl || pl.bankrupt) return "";
  const ed = S.edition && S.edition.id === v.edition ? S.edition : null;
  // the deeds of the groups this seat holds a deed of (building is by whole, even groups)
  const groups = ed ? new Set(mine.map((d) => ed.squares[d.square].group).filter(Boolean)) : null;
  const near = ed ? v.properties.filter((d) => d.owner === me || groups.has(ed.squares[d.square].group)) : v.properties;
  // what a build or a lift needs in cash, as yes or no: the amount itself changes every move
  const can = ed ? mine.map((d) => { const sq = ed.squares[d.square];
    return [pl.cash >= (sq.house_cost || 0), pl.cash >= sq.mortgage + (sq.interest || 0)]; }) : pl.cash;
  const p = v.pending;
  const when = !p ? "" : CLOSED_KINDS.includes(p.kind) ? "closed" : p.player === me && p.kind === "raise_funds" ? "debt" : "";
  return JSON.stringify([near.map((d) => [d.square, d.owner, d.buildings, d.mortgaged]),
    [v.bank.houses > 0, v.bank.hotels > 0], can, when]);
}
function askLegal(force) {
  S.anytimeFor = S.anytimeFor || "";
  if (!S.view || !S.view.properties || !S.me || S.me.seat === null || S.table.game !== "monopoly"
    || S.table.status !== "running" || S.final) { S.anytime = []; S.refused = []; S.anytimeFor = ""; return; }
  const key = legalKey();
  if (!key) { S.anytime = []; S.refused = []; S.anytimeFor = ""; return; }
  if (!force && key === S.anytimeFor) return; // (the buttons shown still hold)
  S.anytimeFor = key;
  S.legalRef = (S.legalRef || 0) + 1;
  send({ type: "legal", anytime: true, trades: false, ref: S.legalRef });
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
  const into = document.createElement("main");
  paint(into);
  morphKids(m, into);
  for (const k of ["version", "status", "decision"]) if (into.dataset[k] !== undefined) m.dataset[k] = into.dataset[k];
  afterPaint();
  announce();
}
function afterPaint() {
  if (S.table.game !== "tools" && typeof paintBoard === "function") paintBoard();
  if (typeof renderDialogs === "function") renderDialogs(); // (dialogs.js: outside #main)
}
function paint(m) {
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
    // the commitment to the table's randomness, checked against the reveal at the end (fairness.js)
    if (S.table.fairness) top.append(h("p", { id: "commitment", class: "hint", text: t("Commitment: {hex}", { hex: S.table.fairness.commitment }) }));
    if (host) top.append(h("button", { id: "start", class: "primary", onclick: () => send({ type: "start" }), text: t("Start the game") }));
    else top.append(h("p", { text: t("Waiting for the host to start.") }));
    return;
  }
  if (!S.view) return;
  if (S.final) m.append(renderFinal(), renderReplay());
  if (S.table.game === "tools") renderTools(m); else renderProperty(m);
  m.append(renderLog());
}
function seatName(p) { return S.table.seats[p] ? botName(S.table.seats[p].name, p) : "#" + (p + 1); }
// the server's words name bots as the engine knows them: their default names are put in the
// page's language there too
function namesIn(text) {
  if (!S.table || S.lang === "en") return text;
  let out = String(text);
  // longest first: "Random bot 10" is replaced whole before "Random bot 1" could match its start
  const seats = S.table.seats.map((seat, p) => [seat.name, botName(seat.name, p)]).sort((a, b) => b[0].length - a[0].length);
  for (const [name, mine] of seats) if (mine !== name) out = out.split(name).join(mine);
  return out;
}
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
      (f.score_kind === "valuation" ? money(f.scores[p]) : tn("{n} card left", "{n} cards left", f.scores[p]))))),
    fairnessLine());
}
function renderLog() {
  return h("section", { class: "card", id: "log-card" }, h("h2", { text: t("What happened") }),
    h("ul", { id: "log", tabindex: 0, "aria-label": t("What happened") }, ...S.log.slice(-60).reverse().map((e) => e.round ? h("li", { class: "round-sep", text: t("Round {n}", { n: e.round }) }) : h("li", {
      class: (e.turn ? "round " : "") + (e.p === null || e.p === undefined ? "" : "seat"),
      style: e.p === null || e.p === undefined ? null : "--seat:" + seatColour(e.p), text: namesIn(e.text) }))),
    h("h2", { text: t("Chat") }),
    h("ul", { id: "chat" }, ...S.chat.slice(-10).map((c) => h("li", {}, h("b", { text: c.name + ": " }), c.text))),
    S.me.seat === null ? null : h("form", { onsubmit: (ev) => {
      ev.preventDefault(); const i = ev.target.querySelector("input");
      if (i.value.trim()) send({ type: "chat", text: i.value.trim() }); i.value = ""; S.chatDraft = "";
    } }, h("input", { id: "chat-input", "aria-label": t("Chat"), maxlength: 500, value: S.chatDraft || null,
      oninput: (ev) => { S.chatDraft = ev.target.value; } }), h("button", { type: "submit", text: t("Send") })));
}
function promptCard(title, ...kids) {
  return h("section", { class: "card prompt", id: "prompt", "data-kind": S.prompt ? S.prompt.decision.kind : "" }, h("h2", { text: title }), timerLine(), ...kids);
}
// turn and result changes, told to screen readers once (a live region outside the redrawn page)
let told = "";
function announce() {
  let say = "";
  if (S.final) say = t("Game over") + ": " + S.final.winners.map(seatName).join(", ") + " · " + t("winner");
  else if (S.prompt) say = WORD.decide[S.prompt.decision.kind] ? t(WORD.decide[S.prompt.decision.kind]) : t("Your decision");
  else if (S.view && S.view.pending) say = t("Waiting for {name}.", { name: seatName(S.view.pending.player) });
  if (say === told) return;
  told = say;
  const el = document.getElementById("announce");
  if (el) el.textContent = say;
}
// the turn timer: who decides and how many seconds they have left, ticking once a second
function timerText() {
  if (!S.timerAt || !S.view || !S.view.pending || S.final) return "";
  const left = Math.max(0, Math.ceil((S.timerAt - Date.now()) / 1000));
  const who = S.view.pending.player;
  return who === S.me.seat ? tn("{n} s left to decide", "{n} s left to decide", left) : tn("{name} has {n} s left", "{name} has {n} s left", left, { name: seatName(who) });
}
function timerLine() {
  return h("p", { id: "timer-left", class: "timer", role: "timer", "aria-live": "off", text: timerText() });
}
setInterval(() => {
  const el = document.getElementById("timer-left");
  if (el) el.textContent = timerText();
}, 1000);
function answerButton(a, label) {
  return h("button", { class: "answer", "data-type": a.action.type, onclick: () => act(a), text: label || namesIn(a.text) });
}
function waitingFor() {
  const p = S.view.pending;
  return h("div", {}, h("p", { id: "waiting", text: p ? t("Waiting for {name}.", { name: seatName(p.player) }) : "" }), timerLine());
}
