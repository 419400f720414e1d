"""Randomness anyone can check: a commitment to the seed before the game, its reveal after.

The scheme ``parlor-fair/1`` (docs/server.md, "Dice and decks anyone can verify"):

* The server draws a *committed seed* ``s`` (an integer, 0 <= s < 2**64) and a 32-byte *salt*,
  and publishes ``commitment = SHA-256(b"parlor-fair/1 commitment" 0x00 || s as 8 bytes
  big-endian || salt)`` (hex) before anybody joins.
* Each seat may add a *nonce*: 8 to 32 random bytes, written as 16 to 64 lowercase hex digits;
  a seat without one (a bot) counts as the empty nonce.
* The game's seed is ``SHA-256(b"parlor-fair/1 seed" 0x00 || s as 8 bytes || salt || n as one
  byte || for each seat in order: its nonce's length as one byte || its bytes)``: the first 8
  bytes of that digest, big-endian, shifted right by 2 (62 bits, like every server seed).
* After the end the save carries ``s``, the salt, the nonces, and the chance outcomes of the game
  (every die, card drawn and card dealt); :func:`verify_save` recomputes the commitment and the
  seed, replays every action and compares each outcome with the one the seed gives.

Pure functions, no I/O. The salt makes the commitment impossible to invert by trying seeds; the
nonces make the game's seed unknowable to the server when it committed.

>>> salt = bytes(range(32))
>>> commitment(7, salt)[:16]
'c6d981441b69a1fe'
>>> derive_seed(7, salt, ["00" * 8, ""])
2721441504876717315
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlor.core.errors import E_, ParlorError, ReplayError, Text
from parlor.core.game import Event, Game, action_to_dict

SCHEME = "parlor-fair/1"
SALT_BYTES = 32
NONCE_MIN, NONCE_MAX = 8, 32  # bytes of a nonce (twice as many hex digits)
_NONCE = re.compile(r"(?:[0-9a-f]{2}){8,32}")
_COMMIT_TAG = SCHEME.encode() + b" commitment\x00"
_SEED_TAG = SCHEME.encode() + b" seed\x00"
#: what the save's ``fairness`` table holds
KEYS = frozenset({"scheme", "commitment", "seed", "salt", "nonces", "chance"})


def valid_nonce(value: object) -> bool:
    """Whether ``value`` is a nonce: 16 to 64 lowercase hex digits, an even count.

    >>> valid_nonce("0123456789abcdef"), valid_nonce("0123"), valid_nonce("0123456789ABCDEF")
    (True, False, False)
    """
    return type(value) is str and _NONCE.fullmatch(value) is not None


def _seed_bytes(seed: int) -> bytes:
    if type(seed) is not int or not 0 <= seed < 1 << 64:
        raise ReplayError(E_("the committed seed is an integer from 0 to 2**64 - 1"))
    return seed.to_bytes(8, "big")


def _salt(salt: bytes) -> bytes:
    if type(salt) is not bytes or len(salt) != SALT_BYTES:
        raise ReplayError(E_("the salt is {count} bytes", count=SALT_BYTES))
    return salt


def commitment(seed: int, salt: bytes) -> str:
    """The published commitment to ``seed`` and ``salt`` (64 hex digits)."""
    return hashlib.sha256(_COMMIT_TAG + _seed_bytes(seed) + _salt(salt)).hexdigest()


def derive_seed(seed: int, salt: bytes, nonces: Sequence[str]) -> int:
    """The game's seed from the committed seed, the salt and one nonce per seat ("" for none)."""
    if not 0 < len(nonces) < 256:
        raise ReplayError(E_("there is one nonce per seat"))
    data = bytearray(_SEED_TAG + _seed_bytes(seed) + _salt(salt) + bytes([len(nonces)]))
    for nonce in nonces:
        if nonce != "" and not valid_nonce(nonce):
            raise ReplayError(E_("a nonce is 16 to 64 lowercase hex digits, or empty"))
        raw = bytes.fromhex(nonce)
        data += bytes([len(raw)]) + raw
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 2


# ----- the chance outcomes of a game -------------------------------------------------------------
#: events that carry what chance decided, and the fields of each that say it
_CHANCE_EVENTS = {
    "dice": ("player", "dice"),
    "first_throw": ("throws",),
    "card": ("player", "deck", "card"),
    "deed_dealt": ("player", "square"),
}


def _from_events(step: int | None, events: Sequence[Event], out: list[dict[str, Any]]) -> None:
    for e in events:
        fields = _CHANCE_EVENTS.get(e.kind)
        if fields is not None:
            entry: dict[str, Any] = {"action": step, "kind": e.kind}
            entry.update({f: e.data.get(f) for f in fields})
            out.append(entry)


def _hands(game: Game[Any]) -> list[Counter[str]] | None:
    """Each seat's cards as that seat sees them (card games; None when views hold no hand)."""
    views = game.views(list(range(game.num_players)))
    if not all(isinstance(v.get("hand"), list) for v in views):
        return None
    return [Counter(v["hand"]) for v in views]


def _from_hands(
    step: int | None,
    before: list[Counter[str]] | None,
    after: list[Counter[str]],
    events: Sequence[Event],
    out: list[dict[str, Any]],
) -> None:
    """The cards each seat received: its hand now, less what it held before and did not play
    (a seat that plays a green hammer and draws another holds as many green hammers as before)."""
    played: list[Counter[str]] = [Counter() for _ in after]
    for e in events:
        if e.kind == "play" and isinstance(e.data.get("player"), int):
            played[e.data["player"]][str(e.data.get("card"))] += 1
    for p, hand in enumerate(after):
        got = hand - (before[p] - played[p]) if before is not None else hand
        if got:
            kind = "dealt" if before is None else "drew"
            out.append({"action": step, "kind": kind, "player": p, "cards": sorted(got.elements())})


def chance_outcomes(
    cls: type[Game[Any]], settings: Mapping[str, Any], seed: int, actions: Sequence[Any]
) -> list[dict[str, Any]]:
    """Every outcome chance decided in the game of ``cls`` made from ``settings`` and ``seed``
    and played by ``actions`` (their JSON form), in order: the dice and cards events announce
    (property games), and the cards each seat received, as its own view shows them (card games),
    with the first card turned up. ``action`` is the index of the action that caused it (None:
    the setup). Through the engines' public interface only."""
    game = cls.from_settings(settings, seed)
    out: list[dict[str, Any]] = []
    _from_events(None, list(getattr(game, "setup_events", [])), out)
    hands = _hands(game)
    if hands is not None:
        _from_hands(None, None, hands, [], out)
    top = game.view(None).get("top")
    if top is not None:
        out.append({"action": None, "kind": "turned_up", "card": top})
    for i, raw in enumerate(actions):
        events = game.apply(cls.decode_action(raw))
        _from_events(i, events, out)
        if hands is not None:
            now = _hands(game)
            if now is not None:
                _from_hands(i, hands, now, events, out)
            hands = now
    return out


def fairness_record(
    game: Game[Any], seed: int, salt: bytes, nonces: Sequence[str]
) -> dict[str, Any]:
    """What a finished game's save carries to be verified (see :func:`verify_save`)."""
    return {
        "scheme": SCHEME,
        "commitment": commitment(seed, salt),
        "seed": seed,
        "salt": salt.hex(),
        "nonces": list(nonces),
        "chance": chance_outcomes(
            type(game), game.settings, game.seed, [action_to_dict(a) for a in game.log]
        ),
    }


# ----- verifying a save --------------------------------------------------------------------------
def _where(entry: Mapping[str, Any]) -> Text:
    step = entry.get("action")
    return E_("the setup") if step is None else E_("action {index}", index=step)


def _what(entry: Mapping[str, Any]) -> Text:
    kind = entry.get("kind")
    seat = entry.get("player")
    if kind == "dice":
        return E_("seat {seat}'s dice {dice}", seat=seat, dice=entry.get("dice"))
    if kind == "first_throw":
        return E_("the throws for the first player {throws}", throws=entry.get("throws"))
    if kind == "card":
        return E_(
            "seat {seat}'s card {card} ({deck})",
            seat=seat,
            card=entry.get("card"),
            deck=entry.get("deck"),
        )
    if kind == "deed_dealt":
        return E_(
            "the deed of square {square} dealt to seat {seat}",
            square=entry.get("square"),
            seat=seat,
        )
    if kind in ("dealt", "drew"):
        return E_("the cards seat {seat} received {cards}", seat=seat, cards=entry.get("cards"))
    if kind == "turned_up":
        return E_("the card turned up {card}", card=entry.get("card"))
    return E_("an outcome {value}", value=str(dict(entry))[:80])


def verify_save(data: Mapping[str, Any], games: Sequence[type[Game[Any]]]) -> dict[str, Any]:
    """Check a saved game against its commitment; raise :class:`ReplayError` saying where it
    fails, or return a summary: the commitment, the seats with a nonce, the actions replayed and
    the outcomes checked (dice, cards)."""
    if not isinstance(data, Mapping):
        raise ReplayError(E_("a saved game is a JSON object"))
    fair = data.get("fairness")
    if not isinstance(fair, Mapping):
        raise ReplayError(E_("this save carries no commitment to check (no fairness table)"))
    if fair.get("scheme") != SCHEME:
        raise ReplayError(
            E_(
                "unknown scheme {found} (this is {scheme})",
                found=str(fair.get("scheme"))[:40],
                scheme=SCHEME,
            )
        )
    unknown = sorted(set(fair) - KEYS)
    if unknown:
        raise ReplayError(E_("unknown key {key} in the fairness table", key=unknown[0][:40]))
    salt_hex, nonces, chance = fair.get("salt"), fair.get("nonces"), fair.get("chance")
    if type(salt_hex) is not str or re.fullmatch(r"[0-9a-f]{64}", salt_hex) is None:
        raise ReplayError(E_("the salt is {count} bytes", count=SALT_BYTES))
    if not isinstance(nonces, list) or not all(type(n) is str for n in nonces):
        raise ReplayError(E_("the nonces are a list of texts, one per seat"))
    if not isinstance(chance, list) or not all(isinstance(c, dict) for c in chance):
        raise ReplayError(E_("the chance outcomes are a list of tables"))
    salt = bytes.fromhex(salt_hex)
    if commitment(fair.get("seed"), salt) != fair.get("commitment"):  # type: ignore[arg-type]
        raise ReplayError(
            E_(
                "the committed seed and the salt do not give the commitment {commitment}",
                commitment=str(fair.get("commitment"))[:64],
            )
        )
    derived = derive_seed(fair["seed"], salt, nonces)
    if data.get("seed") != derived:
        raise ReplayError(
            E_(
                "the game's seed {seed} is not the one the committed seed, the salt and the "
                "nonces give ({derived})",
                seed=str(data.get("seed"))[:24],
                derived=derived,
            )
        )
    cls = next((c for c in games if c.game_name == data.get("game")), None)
    if cls is None:
        raise ReplayError(
            E_("not a saved game of {names}", names=", ".join(c.game_name for c in games))
        )
    plain = {k: v for k, v in data.items() if k != "fairness"}
    game = cls.from_dict(plain)  # (replays every action; the save's snapshot must agree)
    if len(nonces) != game.num_players:
        raise ReplayError(E_("there is one nonce per seat"))
    try:
        replayed = chance_outcomes(cls, game.settings, derived, plain.get("actions", []))
    except ParlorError as exc:
        raise ReplayError(exc.text) from exc
    for saved, again in zip(chance, replayed, strict=False):
        if saved != again:
            raise ReplayError(
                E_(
                    "{where}: the save has {saved}, the committed randomness gives {replayed}",
                    where=_where(saved),
                    saved=_what(saved),
                    replayed=_what(again),
                )
            )
    if len(chance) != len(replayed):
        raise ReplayError(
            E_(
                "the save records {saved} chance outcomes, the committed randomness gives {replayed}",
                saved=len(chance),
                replayed=len(replayed),
            )
        )
    kinds = Counter(str(c["kind"]) for c in replayed)
    return {
        "game": cls.game_name,
        "commitment": fair["commitment"],
        "seats": game.num_players,
        "nonces": sum(1 for n in nonces if n),
        "actions": len(game.log),
        "dice": sum(len(c["dice"]) for c in replayed if c["kind"] == "dice")
        + sum(2 * len(c["throws"]) for c in replayed if c["kind"] == "first_throw"),
        "cards": kinds["card"]
        + kinds["deed_dealt"]
        + kinds["turned_up"]
        + sum(len(c["cards"]) for c in replayed if c["kind"] in ("dealt", "drew")),
    }


def check_reveal(
    data: Mapping[str, Any], commitment_seen: str, seat: int | None, nonce: str | None
) -> None:
    """What a client that recorded ``commitment_seen`` when it joined, and gave ``nonce`` for
    ``seat``, checks of a finished game's save without the engine (the browser does the same):
    the reveal gives that commitment, its nonce is the seat's, and the game's seed is the one
    derived. Raises :class:`ReplayError` saying which fails."""
    fair = data.get("fairness")
    if not isinstance(fair, Mapping) or fair.get("scheme") != SCHEME:
        raise ReplayError(E_("this save carries no commitment to check (no fairness table)"))
    if fair.get("commitment") != commitment_seen:
        raise ReplayError(E_("the save's commitment is not the one shown when you joined"))
    salt_hex, nonces = fair.get("salt"), fair.get("nonces")
    if type(salt_hex) is not str or re.fullmatch(r"[0-9a-f]{64}", salt_hex) is None:
        raise ReplayError(E_("the salt is {count} bytes", count=SALT_BYTES))
    if not isinstance(nonces, list) or not all(type(n) is str for n in nonces):
        raise ReplayError(E_("the nonces are a list of texts, one per seat"))
    salt = bytes.fromhex(salt_hex)
    if commitment(fair.get("seed"), salt) != commitment_seen:  # type: ignore[arg-type]
        raise ReplayError(
            E_(
                "the committed seed and the salt do not give the commitment {commitment}",
                commitment=commitment_seen[:64],
            )
        )
    if seat is not None and nonce is not None and (seat >= len(nonces) or nonces[seat] != nonce):
        raise ReplayError(E_("your nonce is not among the ones the seed was derived from"))
    if data.get("seed") != derive_seed(fair["seed"], salt, nonces):
        raise ReplayError(
            E_("the game's seed is not the one the committed seed, the salt and the nonces give")
        )
