// Parlor in the browser: the property table (board, panels, deeds, trades, walking tokens). Loaded after app.js (its helpers and state S), no build step.
"use strict";

// ----- the property table ----------------------------------------------------------------
// One colour per seat, the board picture's own (parlor.render.palette.PLAYER_COLOURS): token,
// panel, log line and owned squares agree.
const SEAT_COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000"];
function seatColour(p) { return SEAT_COLOURS[p % SEAT_COLOURS.length]; }
// The board (its picture, the owners, buildings and tokens drawn over it): board.js.
function onBoardClick(ev) {
  const sq = ev.target.closest && ev.target.closest("g.square[role=button]");
  if (!sq) return;
  S.deed = S.deed === Number(sq.dataset.square) ? null : Number(sq.dataset.square);
  render();
}
function onBoardKey(ev) {
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onBoardClick(ev); }
}
let editionAsked = "";
function renderProperty(m) {
  const v = S.view;
  if (!S.edition || S.edition.id !== v.edition || S.edition.lang !== S.lang) {
    const key = v.edition + "|" + S.lang;
    if (editionAsked !== key) {
      editionAsked = key;
      fetch("/api/editions/" + encodeURIComponent(v.edition) + "?lang=" + S.lang).then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((ed) => { ed.lang = S.lang; S.edition = ed; render(); })
        .catch(() => { editionAsked = ""; }); // asked again at the next frame
    }
    if (!S.edition) return;
  }
  refreshBoard();
  const heat = h("label", { class: "heat toggle" }, h("input", { type: "checkbox", id: "heat", checked: S.heat,
    onchange: (ev) => { S.heat = ev.target.checked; refreshBoard(); } }), " " + t("Show the analysis: landing chances as heat, expected rent and payback on deeds"));
  const board = h("div", { id: "board", class: "board", "data-static": "board", onclick: onBoardClick, onkeydown: onBoardKey });
  const layout = h("div", { class: "table-layout" },
    h("div", { class: "board-wrap" },
      h("div", { class: "board-scroll" }, h("div", { class: "board-box" + (S.zoom ? " zoomed" : "") }, board, renderStage())),
      h("div", { class: "board-tools" }, heat,
        h("button", { type: "button", id: "zoom", "aria-pressed": S.zoom ? "true" : "false",
          onclick: () => { S.zoom = !S.zoom; render(); }, text: S.zoom ? t("Zoom out") : t("Zoom in") }))),
    h("div", { class: "side" }, renderPlayers(), renderDeeds(), renderTrade()));
  m.append(layout);
}
// ----- the stage: the middle of the board, where everyone looks ------------------------------
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
function renderStage() {
  const v = S.view;
  const kids = [];
  const dice = v.last_dice;
  if (dice && dice.length === 2) {
    kids.push(h("p", { id: "dice", class: "dice", role: "img", "data-key": dice.join("-") + "-" + S.diceAt, "aria-label": t("Dice: {a} and {b}", { a: dice[0], b: dice[1] }) },
      h("span", { class: "die", "aria-hidden": "true", text: PIPS[dice[0]] || dice[0] }),
      h("span", { class: "die", "aria-hidden": "true", text: PIPS[dice[1]] || dice[1] })));
  }
  // the card just drawn, large: what it says happens next
  const card = (S.lastEvents || []).find((e) => e.kind === "card");
  if (card) kids.push(h("p", { id: "drawn-card", class: "drawn-card", text: namesIn(card.text) }));
  if (S.deed !== null && S.deed !== undefined && S.edition) kids.push(renderDeedCard(S.deed));
  kids.push(renderDecision());
  return h("div", { id: "stage", class: "stage" }, ...kids);
}
// a deed as printed: price, rents by buildings, house cost, mortgage, and who holds it now
function renderDeedCard(i) {
  const sq = S.edition.squares[i];
  const d = S.view.properties.find((x) => x.square === i);
  const rents = sq.rents || [];
  const rows = [];
  if (sq.kind === "street") {
    const names = [t("Rent"), t("With 1 house"), t("With 2 houses"), t("With 3 houses"), t("With 4 houses"), t("With a hotel")];
    rents.forEach((r, b) => rows.push(h("tr", { class: d && d.buildings === b ? "now" : null }, h("th", { text: names[b] || "" }), h("td", { text: money(r) }))));
    rows.push(h("tr", {}, h("th", { text: t("Each house") }), h("td", { text: money(sq.house_cost) })));
  } else {
    rents.forEach((r, k) => rows.push(h("tr", {}, h("th", { text: sq.kind === "utility" ? tn("{n} owned: dice ×", "{n} owned: dice ×", k + 1) : tn("{n} owned", "{n} owned", k + 1) }), h("td", { text: sq.kind === "utility" ? "×" + r : money(r) }))));
  }
  rows.push(h("tr", {}, h("th", { text: t("Mortgage") }), h("td", { text: money(sq.mortgage) })));
  const owner = d && d.owner >= 0 ? seatName(d.owner) : t("the bank");
  const state = [t("Owner: {name}", { name: owner })];
  if (d && d.buildings === 5) state.push(t("hotel")); else if (d && d.buildings) state.push(tn("{n} house", "{n} houses", d.buildings));
  if (d && d.mortgaged) state.push(t("mortgaged"));
  const colour = sq.kind === "street" ? groupColour(sq.group) : "#777";
  return h("section", { id: "deed", class: "deed-card", "aria-label": t("Deed of {square}", { square: sq.name }) },
    h("h3", { style: "background:" + colour + ";color:" + inkOn(colour), text: sq.name }),
    h("p", { text: t("Price") + ": " + money(sq.price) }),
    h("table", {}, h("tbody", {}, ...rows)),
    h("p", { class: "owner", style: d && d.owner >= 0 ? "border-left:6px solid " + seatColour(d.owner) : null, text: state.join(" · ") }),
    h("button", { type: "button", id: "deed-close", onclick: () => { S.deed = null; render(); }, text: t("Close") }));
}
// the street groups' colours as the picture fills them (read from its group strip)
function groupColour(group) {
  const el = document.querySelector("#board g.group-" + group + " g.band rect");
  return (el && el.getAttribute("fill")) || "#999";
}
function inkOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#000";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
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
      if (pl.jail_cards) marks.push(tn("{n} get-out-of-jail card", "{n} get-out-of-jail cards", pl.jail_cards));
      marks.push(seat.kind === "bot" ? t("bot") : seat.connected ? t("online") : t("offline"));
      const deeds = deedsOf(p);
      const delta = S.deltas && S.deltas[p];
      const shown = delta && S.version - delta.at < 3 ? delta : null;
      return h("div", { class: "player" + (v.turn === p ? " current" : ""), "data-player": p, style: "--seat:" + seatColour(p) },
        h("h3", {}, h("span", { class: "seat-dot", "aria-hidden": "true" }), (p + 1) + ". " + botName(pl.name, p) + (S.me.seat === p ? " (" + t("you") + ")" : "")),
        h("p", { class: "cash" }, t("Cash") + ": " + money(pl.cash),
          shown ? h("span", { class: "delta " + (shown.n > 0 ? "up" : "down"), "data-key": String(shown.at),
            text: (shown.n > 0 ? "+" : "−") + money(Math.abs(shown.n)) }) : null),
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
  else if (d.buildings) s += " · " + tn("{n} house", "{n} houses", d.buildings);
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
  if (cards) items.push(tn("{n} get-out-of-jail card", "{n} get-out-of-jail cards", cards));
  return h("ul", {}, ...(items.length ? items : [t("nothing")]).map((s) => h("li", { text: s })));
}
// what the person deciding is deciding, as everyone may see it (the view's public pending)
function pendingInfo() {
  const p = S.view.pending;
  if (!p || S.final) return null;
  const info = p.info || {};
  if (p.kind === "bid") return h("div", { class: "auction" }, ...auctionStage(info, null)); // (auction.js)
  if (p.kind === "buy_or_auction") return h("p", { class: "on-offer", text: sqName(info.square) + " · " + money(info.price) });
  return null;
}
function renderDecision() {
  const pr = S.prompt;
  if (!pr) return h("section", { class: "card", id: "no-prompt" }, waitingFor(), pendingInfo());
  const d = pr.decision, info = d.info || {};
  // (a debt with no direct answer has every any-time action as its answers: the trade proposals
  // among them, dozens, belong to the trade dialog; what raises money comes first)
  const RAISE = ["PayDebt", "SellBuilding", "Mortgage"];
  const rank = (a) => (RAISE.includes(a.action.type) ? RAISE.indexOf(a.action.type) : a.action.type === "DeclareBankruptcy" ? 9 : 5);
  const answers = d.kind === "raise_funds"
    ? pr.answers.filter((a) => a.action.type !== "ProposeTrade").sort((x, y) => rank(x) - rank(y)) : pr.answers;
  const title = WORD.decide[d.kind] ? t(WORD.decide[d.kind]) : t("Your decision");
  const kids = [];
  if (d.kind === "buy_or_auction") kids.push(h("p", { text: sqName(info.square) + " · " + money(info.price) }));
  if (d.kind === "raise_funds") kids.push(h("p", { id: "owed", text: t("You owe {amount}.", { amount: money(info.amount) }) }));
  if (d.kind === "bid") return promptCard(title, h("div", { class: "auction" }, ...auctionStage(info, answers))); // (auction.js)
  if (d.kind === "answer_trade") {
    const o = info.offer;
    kids.push(h("div", { id: "trade-offer", class: "offer" },
      h("p", { text: t("{name} offers you a trade.", { name: seatName(info.from) }) }),
      h("h3", { text: t("You get") }), offerList(o.give_squares, o.give_cash, o.give_jail_cards),
      h("h3", { text: t("You give") }), offerList(o.take_squares, o.take_cash, o.take_jail_cards),
      offerValue(info.from, o), // (dialogs.js: its worth to each side)
      h("p", { class: "hint", id: "offer-revision", text: t("Offer of move {n}", { n: pr.terms_revision }) })));
    const reject = answers.find((a) => a.action.type === "RejectTrade");
    // a counter-offer turns this one down and opens the builder with the terms swapped
    const counter = reject ? h("button", { id: "counter-offer", type: "button", onclick: () => {
      Object.assign(draft, { open: true, partner: info.from, give: new Set(o.take_squares), take: new Set(o.give_squares),
        giveCash: o.take_cash, takeCash: o.give_cash, giveCards: o.take_jail_cards, takeCards: o.give_jail_cards, counterOf: pr.terms_revision });
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
    if (d.kind === "raise_funds" && sq && a.action.type === "SellBuilding") extra = " (+" + money(stepPrice(sq, "sell")) + ")";
    return answerButton(a, a.text + extra);
  })));
  return promptCard(title, ...kids);
}
// what the next building on a lot costs, or the top one sold returns (a hotel: its own price,
// hotel_cost; dialogs.js counts the levels)
function stepPrice(sq, kind) {
  const d = S.view.properties.find((x) => x.square === sq.index);
  const now = d ? levelOf(d) : 0;
  return Math.abs(stepsCost(sq, now, now + (kind === "build" ? 1 : -1)));
}
const ANYTIME = { Build: "build", SellBuilding: "sell", Mortgage: "mortgage", Unmortgage: "lift" };
const ANYTIME_WORD = { build: N_("Build"), sell: N_("Sell a building"), mortgage: N_("Mortgage"), lift: N_("Lift the mortgage") };
function renderDeeds() {
  if (S.me.seat === null || S.final) return null;
  const mine = deedsOf(S.me.seat);
  if (!mine.length) return null;
  const acts = S.anytime.filter((a) => ANYTIME[a.action.type]);
  const cost = (kind, sq) => kind === "build" ? "−" + money(stepPrice(sq, "build")) : kind === "sell" ? "+" + money(stepPrice(sq, "sell"))
    : kind === "mortgage" ? "+" + money(sq.mortgage) : "−" + money(sq.mortgage + mortgageFee(sq.index));
  return h("section", { class: "card", id: "my-deeds" }, h("h2", { text: t("My deeds") }),
    // building by colour group, with costs and rents: dialogs.js
    groupsOwned(S.me.seat).length ? h("button", { type: "button", id: "build-open", "aria-haspopup": "dialog", onclick: openBuild, text: t("Build and sell") }) : null,
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
      return h("li", { "data-square": d.square, "data-kind": sq.kind }, h("span", { text: deedLabel(d) + " " }), ...buttons, ...why);
    })));
}
// the trade being written survives the page being redrawn after every move (dialogs.js draws it)
const draft = { open: false, partner: null, give: new Set(), take: new Set(), giveCash: 0, takeCash: 0, giveCards: 0, takeCards: 0, counterOf: null };
function renderTrade() {
  if (S.me.seat === null || S.final) return null;
  const v = S.view;
  if (!v.players.some((pl, p) => p !== S.me.seat && !pl.bankrupt)) return null;
  return h("section", { class: "card", id: "trade-card" },
    h("button", { type: "button", id: "trade-open", "aria-haspopup": "dialog", onclick: openTrade, text: t("Propose a trade") }));
}
