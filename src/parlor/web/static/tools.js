// Parlor in the browser: the TOOLS table and its rules in short. Loaded after app.js (its helpers and state S), no build step.
"use strict";

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
  return h("details", { class: "card", id: "rules-help", open: S.rulesOpen || null, ontoggle: (ev) => { S.rulesOpen = ev.target.open; } },
    h("summary", { onclick: (ev) => { S.rulesOpen = !ev.target.closest("details").open; }, text: t("Rules in short") }), h("ul", {}, ...RULES.map((r) => h("li", { text: t(r) }))));
}
function cardBacks(n) {
  const shown = Math.min(n, 8);
  return h("span", { class: "backs", "aria-hidden": "true" }, ...Array.from({ length: shown }, () => h("span", { class: "back" })));
}
// The card table: opponents around the top with their card backs, the piles in the middle (the
// top card large, the colour in force round it, the direction of play, the box-of-nails stack),
// my hand as a fan at the bottom with the playable cards raised.
function renderTools(m) {
  const v = S.view, pr = S.prompt;
  const playable = new Map();
  if (pr) for (const a of pr.answers) if (a.action.card) playable.set(a.action.card, a);
  const seats = h("ul", { id: "tools-seats", class: "opponents" }, ...v.names.map((n, p) => h("li", {
    class: "opponent" + (p === v.current && !S.final ? " current" : "") + (S.me.seat === p ? " me" : ""),
    "data-player": p, style: "--seat:" + seatColour(p),
    "aria-label": botName(n, p) + ": " + cardsLeft(v.hand_sizes[p]) + (p === v.current && !S.final ? " · " + t("turn") : "") },
  h("span", { class: "who" }, h("span", { class: "seat-dot", "aria-hidden": "true" }),
    (p === v.current && !S.final ? "▶ " : "") + botName(n, p) + (S.me.seat === p ? " (" + t("you") + ")" : "")),
  cardBacks(v.hand_sizes[p]), h("span", { class: "count", text: cardsLeft(v.hand_sizes[p]) }))));
  const ccw = v.direction === "counterclockwise";
  const drawAnswer = pr && pr.decision.kind === "play" ? pr.answers.find((a) => a.action.type === "Draw") : null;
  const centre = h("section", { class: "card felt", id: "pile" },
    h("h2", { class: "sr-only", text: t("Table") }),
    h("div", { class: "piles" },
      h("div", { class: "pile draw" },
        h("button", { type: "button", id: "draw-pile", class: "back big" + (drawAnswer ? " can" : ""), disabled: !drawAnswer,
          "aria-label": tn("{n} card to draw", "{n} cards to draw", v.draw_pile) + (drawAnswer ? " · " + namesIn(drawAnswer.text) : ""),
          onclick: drawAnswer ? () => act(drawAnswer) : null }, h("span", { text: String(v.draw_pile) }))),
      h("div", { class: "pile discard colour-ring-" + (v.color || "none") },
        h("span", { class: "label", text: t("Top of the pile") }),
        cardFace(v.top, { disabled: true, id: "top-card", class: "tcard big colour-" + (v.top.split(":")[1] || "wild"), "data-key": v.top }))),
    h("p", { id: "colour-in-force", class: "in-force", text: t("Colour in force") + ": " + (v.color ? COLOUR_MARK[v.color] + " " + word("colour", v.color) : "—") }),
    h("p", { id: "direction", class: "direction" + (ccw ? " ccw" : ""), text: (ccw ? "↺ " : "↻ ") + word("direction", v.direction) }),
    v.box_penalty ? h("p", { id: "box-stack", class: "box-stack" },
      h("span", { class: "stack", "aria-hidden": "true" }, ...Array.from({ length: Math.min(v.box_penalty / 2, 6) }, () => h("span", { class: "box" }))),
      tn("Penalty waiting: {n} card", "Penalty waiting: {n} cards", v.box_penalty)) : null);
  const table = h("div", { class: "tools-table" }, seats, centre);
  m.append(table);
  if (pr) {
    const d = pr.decision;
    const keepOnly = d.kind === "drawn_card" && !pr.answers.some((a) => a.action.type === "PlayDrawn");
    const title = keepOnly ? t("The card you drew cannot be played") : WORD.decide[d.kind] ? t(WORD.decide[d.kind]) : t("Your decision");
    const kids = [];
    if (d.info && d.info.drawn) kids.push(h("div", { class: "drawn" }, h("span", { text: t("You drew") + ": " }), cardFace(d.info.drawn, { disabled: true, class: "tcard big colour-" + (d.info.drawn.split(":")[1] || "wild") })));
    if (d.info && d.info.good_nail_penalty) kids.push(h("p", { text: t("Good nail: you cannot play") }));
    if (d.info && d.info.penalty) kids.push(h("p", { text: tn("Penalty waiting: {n} card", "Penalty waiting: {n} cards", d.info.penalty) }));
    const others = pr.answers.filter((a) => !a.action.card || d.kind !== "play");
    if (d.kind === "play" && others.length < pr.answers.length) kids.push(h("p", { class: "hint", text: t("Play a raised card from your hand (marked ▲ playable).") }));
    const picker = d.kind === "choose_color";
    kids.push(h("div", { class: "answers" + (picker ? " colour-picker" : "") }, ...others.map((a) => {
      // a card to answer with (a box of nails on a box, the paint brush's second card): its face
      if (a.action.card) return cardFace(a.action.card, { class: "answer tcard colour-" + (a.action.card.split(":")[1] || "wild"),
        "data-type": a.action.type, "aria-label": namesIn(a.text), title: namesIn(a.text), onclick: () => act(a) });
      // the card drawn is shown beside them: "play it" or "keep it" say the rest
      if (a.action.type === "PlayDrawn") return answerButton(a, t("Play it"));
      if (a.action.type === "KeepDrawn") return answerButton(a, t("Keep it"));
      if (a.action.type !== "ChooseColor") return answerButton(a);
      const c = a.action.color;
      return h("button", { class: "answer swatch colour-" + c, "data-type": "ChooseColor", "data-color": c, onclick: () => act(a) },
        h("span", { class: "mark", "aria-hidden": "true", text: COLOUR_MARK[c] }), " " + word("colour", c));
    })));
    table.append(promptCard(title, ...kids));
  } else if (!S.final) table.append(h("section", { class: "card", id: "no-prompt" }, waitingFor()));
  // (after the end nobody is waited for: an empty box pinned to a phone's bottom edge hid the hands)
  if (v.hand) {
    const hand = [...v.hand].sort((a, b) => a.localeCompare(b));
    const n = hand.length;
    table.append(h("section", { class: "card", id: "hand" }, h("h2", { text: tn("Your hand ({n} card)", "Your hand ({n} cards)", n) }),
      h("div", { class: "cards fan" }, ...hand.map((c, i) => {
        const a = S.prompt && S.prompt.decision.kind === "play" ? playable.get(c) : null;
        // a gentle fan: each card turned a little about the hand's middle
        const turn = n > 1 ? ((i - (n - 1) / 2) * Math.min(4, 24 / n)).toFixed(1) : "0";
        return cardFace(c, { class: "tcard colour-" + (c.split(":")[1] || "wild") + (a ? " playable" : ""),
          style: "--turn:" + turn + "deg", "data-key": c + "#" + i,
          disabled: !a, onclick: a ? () => act(a) : null,
          "aria-label": cardWords(c) + (a ? " · " + t("playable") : "") });
      }))));
  }
  m.append(rulesHelp()); // after the hand: on a phone the decision comes first
}
function cardsLeft(n) { return tn("{n} card", "{n} cards", n); }
