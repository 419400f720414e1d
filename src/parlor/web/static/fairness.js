// Parlor in the browser: the page's part in the randomness anyone can verify (docs/server.md,
// "Dice and decks anyone can verify"). Loaded after app.js (its helpers and state S).
// The page adds a random nonce to its seat, keeps the commitment it was shown before it sent
// that nonce, and once the game is over asks for the reveal and checks it: the revealed seed and
// salt give the commitment, its own nonce is among the nonces, and the game's seed is the one
// derived from them. (The dice and cards themselves take the engine: `parlor verify SAVE.json`.)
"use strict";

const FAIR_SCHEME = "parlor-fair/1";

function newNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}
function toHex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || !/^[0-9a-f]*$/.test(hex)) throw new Error("hex");
  return Uint8Array.from(hex.match(/../g) || [], (x) => parseInt(x, 16));
}
function u64(value) { // 8 bytes big-endian
  let n = BigInt(value);
  if (n < 0n || n >= 1n << 64n) throw new Error("seed");
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) { out[i] = Number(n & 0xffn); n >>= 8n; }
  return out;
}
async function sha256(...parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
}
const tag = (what) => new TextEncoder().encode(FAIR_SCHEME + " " + what + "\0");

// A frame's JSON with every integer too large for a JS number kept exact (a BigInt): the seeds
// are 62 and 64 bits. JSON.parse gives a reviver the number's own text where it can.
function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value !== "number" || Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
    if (!context || typeof context.source !== "string") throw new Error("precision");
    return BigInt(context.source);
  });
}
function parseFrame(text) {
  return text.startsWith('{"type":"export"') ? parseExact(text) : JSON.parse(text);
}

// What the page keeps when it creates, joins or first watches a table: the commitment shown
// before its nonce was sent.
function recordCommitment(table, fairness) {
  if (fairness && fairness.scheme === FAIR_SCHEME && !myTables()[table]?.commitment) remember(table, { commitment: fairness.commitment });
}
function helloNonce(hello) {
  const c = S.creds;
  if (!c.token) return;
  if (!c.nonce) { c.nonce = newNonce(); remember(c.table, { nonce: c.nonce }); }
  hello.nonce = c.nonce;
}

// ----- the check at the end --------------------------------------------------------------------
function askFairness() {
  if (S.fair || !S.table || !S.table.fairness || !S.final) return;
  S.fair = { state: "pending", text: t("Checking the randomness…") };
  send({ type: "export" });
}
async function checkReveal(save, recorded, seat, nonce) {
  const fair = save && save.fairness;
  if (!fair || fair.scheme !== FAIR_SCHEME) return [false, t("The server revealed no randomness to check.")];
  if (!recorded || fair.commitment !== recorded) return [false, t("The revealed commitment is not the one this page was shown when it joined.")];
  if (!(crypto && crypto.subtle)) return [null, t("This page cannot check the randomness here (it needs HTTPS).")];
  const salt = fromHex(fair.salt);
  if (toHex(await sha256(tag("commitment"), u64(fair.seed), salt)) !== recorded) return [false, t("The revealed seed and salt do not give the commitment.")];
  const nonces = fair.nonces;
  if (seat !== null && seat !== undefined && nonce && nonces[seat] !== nonce) return [false, t("Your nonce is not among those the game's seed was derived from.")];
  const parts = [tag("seed"), u64(fair.seed), salt, Uint8Array.of(nonces.length)];
  for (const n of nonces) { const raw = fromHex(n); parts.push(Uint8Array.of(raw.length), raw); }
  const digest = await sha256(...parts);
  let derived = 0n;
  for (const b of digest.slice(0, 8)) derived = (derived << 8n) | BigInt(b);
  if ((derived >> 2n) !== BigInt(save.seed)) return [false, t("The game's seed is not the one derived from the committed seed and the nonces.")];
  return [true, nonce
    ? t("Verified: the dice and cards came from the randomness the server committed to before it knew your nonce.")
    : t("Verified: the game's seed is the one the server committed to, with the seats' nonces.")];
}
async function onExport(f) {
  const creds = myTables()[S.creds.table] || {};
  const seat = S.me ? S.me.seat : null;
  let result;
  try {
    result = await checkReveal(f.save, creds.commitment, seat, seat === null ? null : creds.nonce);
  } catch (err) {
    result = err && err.message === "precision"
      ? [null, t("This browser cannot check the randomness (its JSON reader loses large numbers).")]
      : [false, t("The revealed randomness is not well formed.")];
  }
  S.fair = { state: result[0] === true ? "ok" : result[0] === false ? "failed" : "unavailable", text: result[1] };
  render();
}
function fairnessLine() {
  if (!S.table || !S.table.fairness) return null;
  const commitment = myTables()[S.creds.table]?.commitment || S.table.fairness.commitment;
  const f = S.fair || { state: "pending", text: t("Checking the randomness…") };
  return h("div", { id: "fairness", "data-result": f.state },
    h("p", { id: "fairness-result", text: f.text }),
    h("p", { class: "hint", text: t("Commitment: {hex}", { hex: commitment }) }));
}
