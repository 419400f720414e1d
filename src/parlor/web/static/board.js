// Parlor in the browser: the property board. The edition's board is fetched once per table
// (edition, language, number of seats: a cached, gzipped picture); owners, buildings, mortgages
// and tokens are drawn over it here from the view, each square touched only when what it shows
// changed. With the analysis on, the server draws the whole picture of the view instead (the
// heat needs its numbers). Loaded after property.js (seatColour, inkOn, botName...), no build step.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SIDE = 70, CORNER = 110; // a side square's frame (parlor.render.layout)
let boardSvg = "", boardKey = "", boardAsked = "";
// what the server's picture of a view draws that the page does not (the analysis on): asked
// again only when one of these changed
function drawnKey() {
  const v = S.view;
  return JSON.stringify([v.players.map((p) => [p.in_jail, p.bankrupt]),
    v.properties.map((d) => [d.owner, d.buildings, d.mortgaged]), S.lang, S.table.id]);
}
function wantedKey() {
  const v = S.view;
  return S.heat ? "heat|" + drawnKey() : ["base", v.edition, S.lang, v.players.length].join("|");
}
const baseHeld = { key: "", svg: "" }; // the edition's board, kept for when the analysis goes off
function refreshBoard() {
  const key = wantedKey();
  if (key === boardAsked) return; // this very picture is drawn or on its way
  boardAsked = key;
  if (key === baseHeld.key) { boardSvg = baseHeld.svg; boardKey = key; paintBoard(); return; }
  const seq = ++S.boardSeq;
  const v = S.view;
  const asked = S.heat
    ? fetch("/api/picture", { method: "POST", headers: { "content-type": "application/json" },
      // the bots' default names in the page's language, as on the panels
      body: JSON.stringify({ view: { ...v, players: v.players.map((pl, p) => ({ ...pl, name: botName(pl.name, p) })) }, lang: S.lang, heat: true,
        options: S.table.settings ? S.table.settings.options : null }) })
    : fetch("/api/editions/" + encodeURIComponent(v.edition) + "/board.svg?lang=" + S.lang + "&seats=" + v.players.length);
  asked.then((r) => (r.ok ? r.text() : ""))
    .then((svg) => {
      if (seq !== S.boardSeq) return;
      if (!svg) { boardAsked = ""; return; }
      boardSvg = svg; boardKey = key;
      if (key.startsWith("base|")) Object.assign(baseHeld, { key, svg });
      paintBoard();
    })
    .catch(() => { if (seq === S.boardSeq) boardAsked = ""; }); // (server away: asked again at the next frame)
}
// the board element is kept across redraws (data-static): the picture goes in here, by hand
function paintBoard() {
  const el = document.getElementById("board");
  if (!el || !boardSvg || !S.view) return;
  const before = tokenSpots(el);
  if (el.dataset.picture !== boardKey) {
    el.innerHTML = boardSvg;
    el.dataset.picture = boardKey;
    // the picture's own titles are English descriptions for files and screen readers: the
    // page names the board in its language, and each square tells its deed when tapped
    for (const x of el.querySelectorAll("title, desc, #centre")) x.remove(); // the stage is the middle
    const svg = el.querySelector("svg");
    if (svg) { svg.setAttribute("role", "group"); svg.setAttribute("aria-label", t("The board of {edition}", { edition: word("edition", S.table.edition) })); }
  }
  if (!boardKey.startsWith("heat|")) drawLive(el);
  moveTokens(el, before);
  followAction(el);
  // the board shows this version once its picture is the one for this view
  if (boardKey === wantedKey()) el.dataset.version = S.version;
  markDeedSquares(el);
}
// ----- what the page draws over the edition's board ------------------------------------------
function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}
// as parlor.render.board draws them, in a side square's own frame
function buildingsEl(b) {
  const g = svgEl("g", { class: "buildings", "data-count": b });
  if (b === 5) {
    const hotel = svgEl("g", { class: "hotel" });
    hotel.append(svgEl("rect", { x: 24, y: 4, width: 40, height: 14, rx: 2, fill: "#b22222", stroke: "#000" }),
      svgEl("text", { x: 44, y: 15, "font-size": 11, "font-weight": "bold", "text-anchor": "middle", fill: "#fff" }, "H"));
    g.append(hotel);
    return g;
  }
  g.append(svgEl("rect", { x: 18, y: 3, width: 12 * b + 2, height: 16, rx: 2, fill: "#fff", stroke: "#000", "stroke-width": 0.5 }));
  for (let k = 0; k < b; k++) {
    const x = 21 + 12 * k;
    g.append(svgEl("path", { d: "M" + x + " 18 v-8 l5 -5 l5 5 v8 z", fill: "#2e8b57", stroke: "#000", "stroke-width": 0.8, class: "house" }));
  }
  return g;
}
function mortgagedEl() {
  const g = svgEl("g", { class: "mortgaged" });
  const said = (S.edition && S.edition.words && S.edition.words.mortgaged) || t("mortgaged");
  g.append(svgEl("rect", { x: 0, y: 0, width: SIDE, height: CORNER, fill: "url(#pat-mortgaged)", "fill-opacity": 0.8 }),
    svgEl("rect", { x: 4, y: CORNER - 40, width: SIDE - 8, height: 14, fill: "#fff", stroke: "#444" }),
    svgEl("text", { x: SIDE / 2, y: CORNER - 30, "font-size": 7.5, "font-weight": "bold", "text-anchor": "middle", fill: "#000" }, said.toLocaleUpperCase(S.lang)));
  return g;
}
function ownerEl(owner) {
  const colour = seatColour(owner);
  const g = svgEl("g", { class: "owner", "data-player": owner });
  g.append(svgEl("rect", { x: 0, y: CORNER - 12, width: SIDE, height: 12, fill: colour, stroke: "#000" }),
    svgEl("text", { x: SIDE / 2, y: CORNER - 3, "font-size": 8, "text-anchor": "middle", fill: inkOn(colour) },
      ((owner + 1) + " " + seatName(owner)).slice(0, 12)));
  return g;
}
// each deed's square redrawn only when its owner, buildings or mortgage changed
function drawLive(el) {
  for (const d of S.view.properties) {
    const g = el.querySelector("#square-" + d.square);
    if (!g) continue;
    const key = [d.owner, d.buildings, d.mortgaged, d.owner >= 0 ? seatName(d.owner) : ""].join("|");
    if (g.dataset.live === key) continue;
    g.dataset.live = key;
    g.dataset.owner = d.owner; g.dataset.buildings = d.buildings; g.dataset.mortgaged = d.mortgaged;
    const old = g.querySelector(":scope > g.live");
    if (old) old.remove();
    if (d.square % 10 === 0) continue; // (corners hold no deed)
    const live = svgEl("g", { class: "live" });
    if (d.buildings) live.append(buildingsEl(d.buildings));
    if (d.mortgaged) live.append(mortgagedEl());
    if (d.owner >= 0) live.append(ownerEl(d.owner));
    g.append(live);
  }
  // the Free Parking pot, under the rule that keeps one (or when the view holds one)
  const options = (S.table.settings && S.table.settings.options) || {};
  const parking = el.querySelector("g.square[data-kind=free_parking]");
  if (parking && (options.free_parking_pot || S.view.pot)) {
    const said = t("Pot: {amount}", { amount: money(S.view.pot || 0) });
    let pot = parking.querySelector(":scope > text.pot");
    if (!pot) { pot = svgEl("text", { class: "pot", x: CORNER / 2, y: 66, "font-size": 10, "text-anchor": "middle", fill: "#000" }); parking.append(pot); }
    if (pot.textContent !== said) pot.textContent = said;
  }
  // tokens: gone when bankrupt, in the cell when in jail, back to the visitors' spot when out
  const jail = el.querySelector("[data-jail-spots]");
  S.view.players.forEach((pl, p) => {
    const tok = el.querySelector("#token-" + p);
    if (!tok) return;
    tok.style.display = pl.bankrupt ? "none" : "";
    const wasIn = tok.dataset.inJail === "true";
    if (pl.in_jail && jail) {
      const spot = (jail.dataset.jailSpots || "").split(" ")[p];
      if (spot) { const [x, y] = spot.split(","); tok.setAttribute("transform", "translate(" + x + "," + y + ")"); }
      tok.dataset.inJail = "true"; tok.dataset.square = pl.position;
    } else if (wasIn) {
      tok.dataset.inJail = "false";
      const at = spotOn(el, pl.position, p);
      if (at) { tok.setAttribute("transform", at); tok.dataset.square = pl.position; }
    }
  });
}
// zoomed in (a phone), the board's frame follows the action: the square of whoever decides
// now, centred once each time that seat or square changes (the player's own scrolling holds
// meanwhile)
let followed = "";
function followAction(el) {
  const frame = el.closest(".board-scroll");
  const p = S.view.pending ? S.view.pending.player : null;
  if (!S.zoom || !frame || p === null || !S.view.players[p]) { followed = ""; return; }
  const pl = S.view.players[p];
  const key = [p, pl.position, pl.in_jail].join("|");
  if (key === followed) return;
  followed = key;
  const target = pl.in_jail ? el.querySelector("#token-" + p) : el.querySelector("#square-" + pl.position);
  if (!target) return;
  const box = target.getBoundingClientRect(), view = frame.getBoundingClientRect();
  frame.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
  frame.scrollTop += box.top + box.height / 2 - (view.top + view.height / 2);
  el.dataset.followed = key; // (for the tests)
}
// ----- tokens that walk: from the square they stood on, through every square passed ----------
const WALK_MS = 360; // a whole walk, however far: animations stay under 0.4 s
function tokenSpots(el) {
  const out = {};
  for (const tok of el.querySelectorAll("g.token")) {
    out[tok.dataset.player] = { square: Number(tok.dataset.square), transform: tok.getAttribute("transform") };
  }
  return out;
}
// where seat ``player``'s token stands on a square, as the picture says (data-token-spots)
function spotOn(el, index, player) {
  const sq = el.querySelector("#square-" + index);
  const spot = sq && (sq.dataset.tokenSpots || "").split(" ")[player];
  if (!spot) return null;
  const [x, y] = spot.split(",");
  return "translate(" + x + "," + y + ")";
}
function moveTokens(el, before) {
  const n = S.edition ? S.edition.squares.length : 40;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches || !el.animate;
  const css = (tr) => tr.replace(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/, "translate($1px, $2px)");
  for (const tok of el.querySelectorAll("g.token")) {
    const p = Number(tok.dataset.player);
    const pl = S.view.players[p];
    if (!pl) continue;
    const to = pl.position;
    // the picture may be older than the view: the token goes where the view says
    if (Number(tok.dataset.square) !== to && tok.dataset.inJail !== "true") {
      const at = spotOn(el, to, p);
      if (at) { tok.setAttribute("transform", at); tok.dataset.square = to; }
    }
    const old = before[p];
    if (still || !old || old.square === to || tok.dataset.inJail === "true") continue;
    const steps = (to - old.square + n) % n;
    if (steps > 12) continue; // a card's jump, not a throw of the dice: no walk
    const frames = [css(old.transform)];
    for (let i = 1; i < steps; i++) {
      const c = spotOn(el, (old.square + i) % n, p);
      if (c) frames.push(css(c));
    }
    frames.push(css(tok.getAttribute("transform")));
    tok.animate(frames.map((transform) => ({ transform })), { duration: WALK_MS, easing: "linear" });
    document.documentElement.dataset.walks = String(Number(document.documentElement.dataset.walks || 0) + 1);
  }
}
// a square on the board opens its deed in the stage: by tap, click, or keyboard
function markDeedSquares(el) {
  if (el.dataset.deeds === el.dataset.picture) return;
  el.dataset.deeds = el.dataset.picture;
  for (const sq of el.querySelectorAll("g.square")) {
    const i = Number(sq.dataset.square);
    const kind = S.edition && S.edition.squares[i] && S.edition.squares[i].kind;
    if (!["street", "railroad", "utility"].includes(kind)) continue;
    sq.setAttribute("tabindex", "0");
    sq.setAttribute("role", "button");
    sq.style.cursor = "pointer";
  }
}
