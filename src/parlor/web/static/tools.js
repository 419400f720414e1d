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
    h("summary", { text: t("Rules in short") }), h("ul", {}, ...RULES.map((r) => h("li", { text: t(r) }))));
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
  m.append(rulesHelp()); // after the hand: on a phone the decision comes first
}
