// Parlor in the browser: arrow keys within a row of choices (a hand of cards, a decision's
// answers, the quick raises, the colour swatches, the deeds of a trade). Tab reaches the row;
// the arrows go from choice to choice in it, wrapping round; Home and End go to its ends.
// One listener for the whole page: nothing to wire into the drawing code. No build step.
"use strict";

const ARROW_ROWS = ".fan, .answers, .raises, .colour-picker, .mini-deeds, .build-buttons";
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  if (!step && ev.key !== "Home" && ev.key !== "End") return;
  const here = ev.target;
  if (!(here instanceof HTMLElement) || here.matches("input[type=number], input:not([type]), select, textarea")) return;
  const row = here.closest(ARROW_ROWS);
  if (!row) return;
  const choices = [...row.querySelectorAll("button:not([disabled]), input[type=checkbox]:not([disabled])")]
    .filter((el) => el.getClientRects().length);
  const i = choices.indexOf(here);
  if (i < 0 || choices.length < 2) return;
  ev.preventDefault();
  const next = ev.key === "Home" ? 0 : ev.key === "End" ? choices.length - 1 : (i + step + choices.length) % choices.length;
  choices[next].focus();
});
