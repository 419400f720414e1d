// Parlor in the browser: the auction on the stage (the board's middle). Loaded after app.js and
// property.js (their helpers and state S), no build step.
"use strict";

// The lot under the hammer, the high bid large with its bidder in their seat colour, the quick
// raises (the server's own bid ladder: the edition's money unit times 1, 10, 50...), a custom
// amount, pass, and the table's timer as a shrinking bar. The same panel, without buttons, is
// what everyone else at the table sees while a seat bids.
function auctionStage(info, answers) {
  const square = info.square !== undefined && info.square !== null ? info.square : null;
  const item = square !== null ? sqName(square) : t("a building");
  const sq = square !== null && S.edition ? S.edition.squares[square] : null;
  const colour = sq && sq.kind === "street" ? groupColour(sq.group) : "#777";
  const kids = [
    h("div", { class: "auction-lot", style: "--group:" + colour },
      h("span", { class: "band", "aria-hidden": "true" }),
      h("span", { class: "lot", text: t("Auction of {item}", { item }) }),
      sq && sq.price ? h("span", { class: "printed", text: t("Price") + ": " + money(sq.price) }) : null),
  ];
  const high = info.high_bidder >= 0;
  kids.push(h("p", { id: "high-bid", class: "high-bid" + (high ? "" : " none"), "aria-live": "polite",
    style: high ? "--seat:" + seatColour(info.high_bidder) : null },
  h("span", { class: "amount", text: high ? money(info.high_bid) : t("no bid yet") }),
  high ? h("span", { class: "bidder" }, h("span", { class: "seat-dot", "aria-hidden": "true" }),
    t("high bid {amount} by {name}", { amount: money(info.high_bid), name: seatName(info.high_bidder) })) : null));
  kids.push(auctionClock());
  if (!answers) return kids; // (who bids now: the waiting line above it says)
  const base = high ? info.high_bid : 0;
  // three quick raises from the server's ladder (its 1, 10 and 50 money units when it has
  // them); any other amount goes in the field below
  const ladder = answers.filter((a) => a.action.type === "Bid");
  const bids = ladder.length > 3 ? [0, 2, 4].map((i) => ladder[i]).filter(Boolean) : ladder;
  const pass = answers.find((a) => a.action.type === "PassBid");
  // each raise says how much it adds and what the bid becomes
  kids.push(h("div", { class: "answers raises" }, ...bids.map((a) => h("button", {
    class: "answer raise", "data-type": "Bid", "data-amount": a.action.amount, onclick: () => act(a),
    // (the name starts with the words shown: "+$10 $20 · bid $20")
    "aria-label": "+" + money(a.action.amount - base) + " " + money(a.action.amount) + " · " + t("bid {amount}", { amount: money(a.action.amount) }),
  }, h("b", { text: "+" + money(a.action.amount - base) }), " ", h("small", { text: money(a.action.amount) })))));
  const mine = S.view.players[S.me.seat];
  const amount = h("input", { id: "bid-amount", type: "number", min: info.min_bid, max: mine ? mine.cash : null,
    value: info.min_bid, "aria-label": t("Your own bid") });
  kids.push(h("form", { class: "custom-bid", onsubmit: (ev) => {
    ev.preventDefault();
    act({ action: { type: "Bid", player: S.me.seat, amount: Number(amount.value) } });
  } }, amount, h("button", { type: "submit", text: t("Bid this amount") }),
  pass ? h("button", { type: "button", class: "answer pass", "data-type": "PassBid", onclick: () => act(pass), text: t("pass") }) : null));
  return kids;
}
// the table's timer as a bar that empties (the seconds in words are the timer line's)
function auctionClock() {
  if (!S.timerAt || !S.table.timer) return null;
  const left = Math.max(0, (S.timerAt - Date.now()) / 1000);
  return h("div", { class: "auction-clock", "aria-hidden": "true" },
    h("span", { class: "fill", "data-key": String(S.version), style: "--left:" + (left / S.table.timer).toFixed(3) + ";--secs:" + left.toFixed(1) + "s" }));
}
