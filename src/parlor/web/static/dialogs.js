// Parlor in the browser: the trade and build dialogs of the property table. Loaded after app.js
// and property.js (their helpers, state S and the trade draft), no build step.
"use strict";

// Both dialogs are <dialog> elements of their own outside #main, so the page's redraw never
// shuts them: renderDialogs() (after each redraw) lays their new contents over the old ones
// (morphKids: a field being typed in keeps its text) and opens or shuts them as the state says.
function dialogEl(id, label) {
  let el = document.getElementById(id);
  if (!el) {
    el = h("dialog", { id, class: "dialog", "aria-labelledby": id + "-title" });
    // Escape or the close button: the state says shut, and the next redraw agrees
    el.addEventListener("cancel", () => { if (id === "trade") draft.open = false; else S.building = false; });
    el.addEventListener("close", () => { if (id === "trade") draft.open = false; else S.building = false; });
    document.body.append(el);
  }
  el.dataset.label = label;
  return el;
}
function showDialog(el, kids) {
  const box = document.createElement("dialog");
  box.append(...kids.filter((k) => k));
  morphKids(el, box);
  if (!el.open) el.showModal();
}
function shutDialog(id) {
  const el = document.getElementById(id);
  if (el && el.open) el.close();
}
// a decision of mine came while a dialog is open: said in the dialog (the board is behind it)
function waitingNote() {
  return S.prompt ? h("p", { class: "waiting-note", role: "status", text: t("A decision of yours waits on the board.") }) : null;
}
function renderDialogs() {
  const live = S.table && S.table.game === "monopoly" && S.view && S.view.properties && S.edition
    && S.me && S.me.seat !== null && !S.final && S.table.status === "running";
  if (live && draft.open) showDialog(dialogEl("trade"), tradeDialog()); else shutDialog("trade");
  if (live && S.building) showDialog(dialogEl("build"), buildDialog()); else shutDialog("build");
  if (live) drivePlan(); else stopPlan();
}

// ----- what a trade is worth to each side: asked of the server (POST /api/trade-value, the
// bots' worth measure on the view this page holds), kept per terms and version --------------
const tradeValueCache = {};
function termsOf(proposer, to, o) {
  return { player: proposer, to, give_squares: o.give_squares, take_squares: o.take_squares,
    give_cash: o.give_cash, take_cash: o.take_cash, give_jail_cards: o.give_jail_cards, take_jail_cards: o.take_jail_cards };
}
function tradeValue(terms) {
  const key = S.version + "|" + JSON.stringify(terms);
  const got = tradeValueCache[key];
  if (got !== undefined) return got;
  if (Object.keys(tradeValueCache).length > 40) for (const k of Object.keys(tradeValueCache)) delete tradeValueCache[k]; // (kept small)
  tradeValueCache[key] = null; // asked
  fetch("/api/trade-value", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ view: S.view, offer: terms, options: S.table.settings ? S.table.settings.options : null }) })
    .then((r) => (r.ok ? r.json() : null))
    .then((v) => { tradeValueCache[key] = v || "none"; render(); })
    .catch(() => { delete tradeValueCache[key]; });
  return null;
}
function signed(n) { return (n > 0 ? "+" : n < 0 ? "−" : "±") + money(Math.abs(n)); }
// "Worth to you: +$88 · to Bo: −$40", by the bots' measure; asked again when the terms change
function valueLine(id, terms, mine) {
  const v = tradeValue(terms);
  const other = mine === terms.player ? terms.to : terms.player;
  const kids = [];
  if (v && v !== "none") {
    const me = mine === terms.player ? v.proposer : v.to, them = mine === terms.player ? v.to : v.proposer;
    kids.push(h("span", { class: "val " + (me >= 0 ? "up" : "down"), text: t("Worth to you: {amount}", { amount: signed(me) }) }), " · ",
      h("span", { class: "val " + (them >= 0 ? "up" : "down"), text: t("to {name}: {amount}", { name: seatName(other), amount: signed(them) }) }));
  } else kids.push(v === "none" ? "" : t("Working out what it is worth…"));
  return h("p", { id, class: "trade-value", "aria-live": "polite" }, ...kids,
    h("small", { class: "hint", text: " " + t("(each side's change of worth as the bots count it: cash, deeds, colour groups)") }));
}
// an offer received, in the stage: its worth to me and to the proposer
function offerValue(from, o) {
  return valueLine("offer-value", termsOf(from, S.me.seat, o), S.me.seat);
}

// ----- the trade dialog: both sides side by side -----------------------------------------------
function miniDeed(d, chosen) {
  const sq = S.edition.squares[d.square];
  const colour = sq.kind === "street" ? groupColour(sq.group) : "#777";
  return h("label", { class: "mini-deed" + (d.mortgaged ? " mortgaged" : ""), style: "--group:" + colour + ";--group-ink:" + inkOn(colour) },
    h("input", { type: "checkbox", value: d.square, "data-square": d.square, checked: chosen.has(d.square),
      onchange: (ev) => { if (ev.target.checked) chosen.add(d.square); else chosen.delete(d.square); renderDialogs(); } }),
    h("span", { class: "band", text: groupLetter(sq) || (sq.kind === "railroad" ? "⛟" : "⚡"), "aria-hidden": "true" }),
    h("span", { class: "name", text: sq.name }),
    h("small", { text: money(sq.price) + (d.mortgaged ? " · " + t("mortgaged") + " · " + t("fee {amount} to take it over", { amount: money(mortgageFee(d.square)) }) : "") }));
}
function tradeSide(p, me) {
  const v = S.view, giving = p === me;
  const chosen = giving ? draft.give : draft.take;
  const cashKey = giving ? "giveCash" : "takeCash", cardKey = giving ? "giveCards" : "takeCards";
  const deeds = deedsOf(p).filter((d) => !d.buildings); // (built lots cannot change hands)
  const number = (id, key, max) => h("input", { type: "number", min: 0, max, value: draft[key], id, inputmode: "numeric",
    oninput: (ev) => { draft[key] = Math.max(0, Number(ev.target.value) || 0); renderDialogs(); } });
  return h("fieldset", { class: "side-of-trade " + (giving ? "give" : "take"), style: "--seat:" + seatColour(p) },
    h("legend", {}, h("span", { class: "seat-dot", "aria-hidden": "true" }), giving ? t("You give") : t("You get from {name}", { name: seatName(p) })),
    h("div", { class: "mini-deeds" }, ...(deeds.length ? deeds.map((d) => miniDeed(d, chosen)) : [h("p", { class: "hint", text: t("no deeds to trade") })])),
    h("label", {}, t("Cash") + " ", number(giving ? "give-cash" : "take-cash", cashKey, v.players[p].cash),
      h("small", { class: "hint", text: " " + t("of {amount}", { amount: money(v.players[p].cash) }) })),
    v.players[p].jail_cards ? h("label", {}, t("Get-out-of-jail cards") + " ", number(giving ? "give-cards" : "take-cards", cardKey, v.players[p].jail_cards)) : null);
}
function draftTerms() {
  const me = S.me.seat, v = S.view;
  const mine = new Set(deedsOf(me).map((d) => d.square)), theirs = new Set(deedsOf(draft.partner).map((d) => d.square));
  return { player: me, to: draft.partner,
    give_squares: [...draft.give].filter((q) => mine.has(q)).sort((a, b) => a - b),
    take_squares: [...draft.take].filter((q) => theirs.has(q)).sort((a, b) => a - b),
    give_cash: draft.giveCash, take_cash: draft.takeCash,
    give_jail_cards: Math.min(draft.giveCards, v.players[me].jail_cards),
    take_jail_cards: Math.min(draft.takeCards, v.players[draft.partner].jail_cards) };
}
function tradeDialog() {
  const me = S.me.seat, v = S.view;
  const others = v.players.map((_, p) => p).filter((p) => p !== me && !v.players[p].bankrupt);
  if (!others.includes(draft.partner)) { draft.partner = others[0]; draft.take.clear(); }
  const partner = h("select", { id: "trade-partner", "aria-label": t("Trade with"),
    onchange: (ev) => { draft.partner = Number(ev.target.value); draft.take.clear(); draft.takeCards = 0; renderDialogs(); } },
  ...others.map((p) => h("option", { value: p, text: seatName(p), selected: p === draft.partner })));
  const terms = draftTerms();
  const empty = !terms.give_squares.length && !terms.take_squares.length && !terms.give_cash && !terms.take_cash
    && !terms.give_jail_cards && !terms.take_jail_cards;
  const send = (ev) => {
    ev.preventDefault();
    act({ action: { type: "ProposeTrade", ...draftTerms() } });
    draft.give.clear(); draft.take.clear(); draft.giveCash = draft.takeCash = draft.giveCards = draft.takeCards = 0;
    draft.open = false; draft.counterOf = null;
    renderDialogs();
  };
  return [waitingNote(),
    h("h2", { id: "trade-title", text: draft.counterOf ? t("Counter-offer") : t("Propose a trade") }),
    draft.counterOf ? h("p", { class: "hint", id: "counter-of", text: t("Your answer to the offer of move {n}, which you turned down.", { n: draft.counterOf }) }) : null,
    h("form", { id: "trade-form", method: "dialog", onsubmit: send },
      h("label", {}, t("Trade with") + " ", partner),
      h("div", { class: "trade-sides" }, tradeSide(me, me), h("span", { class: "swap", "aria-hidden": "true", text: "⇄" }), tradeSide(draft.partner, me)),
      empty ? h("p", { id: "trade-value", class: "trade-value hint", text: t("Choose what changes hands.") }) : valueLine("trade-value", terms, me),
      h("div", { class: "answers" },
        h("button", { type: "submit", id: "propose", class: "primary", disabled: empty || null, text: t("Send the offer") }),
        h("button", { type: "button", id: "trade-close", onclick: () => { draft.open = false; draft.counterOf = null; renderDialogs(); }, text: t("Cancel") }))),
  ];
}
function openTrade() { draft.open = true; renderDialogs(); }

// ----- the build dialog: each complete colour group, its lots with buildings, costs and rents ---
function groupsOwned(p) {
  const out = [];
  for (const sq of S.edition.squares) {
    if (sq.kind !== "street" || out.some((g) => g.group === sq.group)) continue;
    const lots = S.edition.squares.filter((q) => q.kind === "street" && q.group === sq.group);
    if (lots.every((q) => S.view.properties.some((d) => d.square === q.index && d.owner === p))) out.push({ group: sq.group, lots });
  }
  return out;
}
function buildWord(n) { return n === 5 ? t("hotel") : n ? tn("{n} house", "{n} houses", n) : t("no buildings"); }
// the answer for a square and kind: [the legal action, or the refusal with its reason]
function anytimeFor(type, square) {
  const a = S.anytime.find((x) => x.action.type === type && x.action.square === square);
  if (a) return { a, ok: true };
  const r = S.refused.find((x) => x.action.type === type && x.action.square === square);
  return r ? { a: r, ok: false } : null;
}
function buildButton(kind, sq, d, found) {
  const type = kind === "build" ? "Build" : "SellBuilding";
  const n = levelOf(d) + (kind === "build" ? 1 : -1);
  const step = stepsCost(sq, levelOf(d), n);
  const price = kind === "build" ? "−" + money(step) : "+" + money(-step);
  const label = (kind === "build" ? t("Build") : t("Sell a building")) + " " + price;
  // (no buildings: the rent of a whole group depends on the edition's rules; the deed says it)
  const after = n >= 1 && n <= hotelLevel() + 1 ? t("rent then {amount}", { amount: money(rentAt(sq, n)) }) : "";
  const id = "build-why-" + type + "-" + sq.index;
  const ok = found && found.ok;
  return [h("button", { type: "button", class: "build-action", "data-type": type, "data-square": sq.index, disabled: !ok || null,
    title: found && !ok ? found.a.reason : null, "aria-describedby": found && !ok ? id : null,
    // (the name starts with the words shown, as a speech-input user would say them)
    "aria-label": label + (after ? " " + after : "") + " · " + sq.name, onclick: ok ? () => act(found.a) : null },
  h("span", { text: label }), after ? " " : null, after ? h("small", { text: after }) : null),
  found && !ok ? h("small", { class: "why", id, text: found.a.reason }) : null];
}
// ----- a build plan: the houses wanted on each lot of a group, carried out one action at a time.
// Levels count a hotel as one more than the houses before it (the table's hotel_after_houses).
function hotelLevel() { return (S.table && S.table.hotel_after_houses) || 4; }
function levelOf(d) { return d.buildings === 5 ? hotelLevel() + 1 : d.buildings; }
function levelWord(n) { return n > hotelLevel() ? t("hotel") : buildWord(n); }
function rentAt(sq, n) { return sq.rents[n > hotelLevel() ? 5 : n]; }
// what moving a lot from level a to b costs (+) or returns (-): a sale gets half the price back
function stepsCost(sq, a, b) {
  const price = (k) => (k === hotelLevel() ? sq.hotel_cost || sq.house_cost : sq.house_cost); // (k to k+1)
  let n = 0;
  for (let k = a; k < b; k++) n += price(k);
  for (let k = a; k > b; k--) n -= Math.floor(price(k - 1) / 2);
  return n;
}
// the plan drafted in the dialog: {square: wanted level}, per group; absent means as it stands
const plans = {};
function planTargets(lots) {
  const out = {};
  for (const sq of lots) { const d = S.view.properties.find((x) => x.square === sq.index);
    out[sq.index] = plans[sq.index] ?? levelOf(d); }
  return out;
}
// the next action a running plan needs, from the view as it is now: sell from the most built lot
// first, build on the least built first, so every step is even (S13)
function planStep(targets) {
  const lots = Object.keys(targets).map(Number).map((q) => ({ q, now: levelOf(S.view.properties.find((x) => x.square === q)), want: targets[q] }));
  const down = lots.filter((l) => l.now > l.want).sort((a, b) => b.now - a.now)[0];
  if (down) return { type: "SellBuilding", player: S.me.seat, square: down.q };
  const up = lots.filter((l) => l.now < l.want).sort((a, b) => a.now - b.now)[0];
  return up ? { type: "Build", player: S.me.seat, square: up.q } : null;
}
// carried out as the updates come: one action per version, the next once the last one is seen
function drivePlan() {
  const run = S.planRun;
  if (!run || !S.view || S.version === run.sentAt) return;
  const step = S.final ? null : planStep(run.targets);
  if (!step || run.sent >= run.most) { S.planRun = null; return; }
  run.sentAt = S.version; run.sent += 1;
  act({ action: step });
}
function stopPlan() { S.planRun = null; }
function startPlan(lots) {
  const targets = planTargets(lots);
  let steps = 0;
  for (const sq of lots) steps += Math.abs(targets[sq.index] - levelOf(S.view.properties.find((x) => x.square === sq.index)));
  for (const sq of lots) delete plans[sq.index];
  S.planRun = { targets, sentAt: null, sent: 0, most: steps, total: steps };
  drivePlan();
  renderDialogs();
}
function planStepper(sq, d, targets, lots, group) {
  const want = targets[sq.index], top = hotelLevel() + 1;
  const levels = Object.values(targets);
  const lo = Math.min(...levels), hi = Math.max(...levels);
  const mortgaged = lots.some((q) => S.view.properties.find((x) => x.square === q.index).mortgaged);
  const busy = !!S.planRun;
  const set = (n) => { plans[sq.index] = n; renderDialogs(); };
  // even building: no lot more than one level above or below another (S13)
  const canUp = !busy && !mortgaged && want < top && want + 1 - lo <= 1;
  const canDown = !busy && want > 0 && hi - (want - 1) <= 1;
  return h("span", { class: "plan-stepper", role: "group", "aria-label": t("Buildings wanted on {square}", { square: sq.name }) },
    h("button", { type: "button", class: "plan-down", "data-square": sq.index, disabled: !canDown || null,
      "aria-label": t("One building fewer on {square}", { square: sq.name }), onclick: () => set(want - 1), text: "−" }),
    h("output", { class: "plan-want" + (want !== levelOf(d) ? " changed" : ""), "data-square": sq.index, "data-want": want, text: levelWord(want) }),
    h("button", { type: "button", class: "plan-up", "data-square": sq.index, disabled: !canUp || null,
      "aria-label": t("One building more on {square}", { square: sq.name }), onclick: () => set(want + 1), text: "+" }));
}
// what a plan takes from the bank's stock at its busiest moment: sales come first and give their
// houses back; building is even (S13), so every lot bound for a hotel holds the full row of houses
// before the first hotel goes up. (A hotel broken into houses takes houses too.)
function stockNeeded(lots, targets) {
  const H = hotelLevel(), housesAt = (n) => (n > H ? 0 : n);
  let houses = 0, hotels = 0;
  for (const sq of lots) {
    const now = levelOf(S.view.properties.find((x) => x.square === sq.index)), want = targets[sq.index];
    houses += (want > now ? Math.min(want, H) : housesAt(want)) - housesAt(now);
    if (want > H && now <= H) hotels += 1;
  }
  return { houses, hotels };
}
function stockShort(lots, targets) {
  if (S.table && S.table.unlimited_buildings) return null;
  const bank = S.view.bank || {}, need = stockNeeded(lots, targets);
  if (need.houses > (bank.houses ?? 0))
    return tn("The bank has only {n} house: the plan needs {m}", "The bank has only {n} houses: the plan needs {m}", bank.houses ?? 0, { m: need.houses });
  if (need.hotels > (bank.hotels ?? 0))
    return tn("The bank has only {n} hotel: the plan needs {m}", "The bank has only {n} hotels: the plan needs {m}", bank.hotels ?? 0, { m: need.hotels });
  return null;
}
function planFooter(lots, targets) {
  const me = S.me.seat;
  let cost = 0, changed = 0;
  for (const sq of lots) {
    const now = levelOf(S.view.properties.find((x) => x.square === sq.index));
    cost += stepsCost(sq, now, targets[sq.index]);
    changed += Math.abs(targets[sq.index] - now);
  }
  const run = S.planRun && lots.some((q) => q.index in S.planRun.targets) ? S.planRun : null;
  const cash = S.view.players[me].cash;
  const short = cost > cash;
  const stock = changed && !run ? stockShort(lots, targets) : null;
  const words = !changed ? t("Choose the buildings wanted on each lot with − and +.")
    : cost >= 0 ? t("Cost of the plan: {amount}", { amount: money(cost) }) : t("The sales return {amount}", { amount: money(-cost) });
  return h("div", { class: "plan" },
    h("p", { class: "plan-cost" + (short ? " short" : ""), "aria-live": "polite", text: words + (short ? " · " + t("you have {amount}", { amount: money(cash) }) : "") }),
    stock ? h("p", { class: "plan-stock short", role: "status", text: stock }) : null,
    run ? h("p", { class: "plan-progress", role: "status", text: t("Carrying out: step {n} of {total}", { n: run.sent, total: run.total }) }) : null,
    changed ? h("button", { type: "button", class: "plan-go primary", disabled: short || !!stock || !!S.planRun || null,
      onclick: () => startPlan(lots), text: tn("Carry out ({n} step)", "Carry out ({n} steps)", changed) }) : null,
    changed && !S.planRun ? h("button", { type: "button", class: "plan-reset", onclick: () => { for (const sq of lots) delete plans[sq.index]; renderDialogs(); }, text: t("Reset") }) : null);
}
function buildDialog() {
  const me = S.me.seat;
  const groups = groupsOwned(me);
  const bank = S.view.bank || {};
  return [waitingNote(),
    h("h2", { id: "build-title", text: t("Build and sell") }),
    h("p", { id: "bank-left", class: "hint", text: tn("The bank has {n} house left", "The bank has {n} houses left", bank.houses ?? 0) + " · "
      + tn("{n} hotel left", "{n} hotels left", bank.hotels ?? 0) }),
    groups.length ? null : h("p", { text: t("You hold no complete colour group yet: houses go only on a whole group.") }),
    ...groups.map(({ group, lots }) => {
      const colour = groupColour(group);
      const targets = planTargets(lots);
      return h("section", { class: "build-group", "data-group": group, style: "--group:" + colour + ";--group-ink:" + inkOn(colour) },
        h("h3", { text: t("Group {letter}", { letter: groupLetter(lots[0]) }) }),
        h("ul", {}, ...lots.map((sq) => {
          const d = S.view.properties.find((x) => x.square === sq.index);
          const want = targets[sq.index];
          return h("li", { "data-square": sq.index },
            h("span", { class: "lot" }, h("b", { text: sq.name }), " ",
              h("span", { class: "houses", "aria-hidden": "true", text: d.buildings === 5 ? "▣" : "■".repeat(d.buildings) }),
              " " + buildWord(d.buildings) + (d.mortgaged ? " · " + t("mortgaged") : "")
                + (d.buildings ? " · " + t("rent {amount}", { amount: money(sq.rents[d.buildings]) }) : "")),
            planStepper(sq, d, targets, lots, group),
            want !== levelOf(d) && want > 0 ? h("small", { class: "plan-rent", "data-square": sq.index, text: t("rent then {amount}", { amount: money(rentAt(sq, want)) }) }) : null,
            h("span", { class: "build-buttons" }, ...buildButton("build", sq, d, anytimeFor("Build", sq.index)),
              ...buildButton("sell", sq, d, anytimeFor("SellBuilding", sq.index))));
        })),
        planFooter(lots, targets));
    }),
    h("div", { class: "answers" }, h("button", { type: "button", id: "build-close", onclick: () => { S.building = false; renderDialogs(); }, text: t("Close") })),
  ];
}
function openBuild() { for (const k of Object.keys(plans)) delete plans[k]; S.building = true; renderDialogs(); }
