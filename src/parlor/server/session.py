"""What a connection may ask once it has said hello: play, chat, host controls, export, replay."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from parlor.core import fairness
from parlor.core.errors import E_, ParlorError
from parlor.server import games
from parlor.server.hub import Hub
from parlor.server.plans import bot_spec
from parlor.server.protocol import MAX_CHAT, ProtocolError, clean_text
from parlor.server.runtime import Conn, TableRuntime


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_request", E_("{what} must be an integer", what=what))
    return value


async def handle(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    rt = conn.table
    assert rt is not None
    kind = msg["type"]
    ref = msg.get("ref")
    if kind == "ping":
        conn.send({"type": "pong", "ref": ref})
    elif kind == "action":
        await _action(hub, conn, rt, msg)
    elif kind == "resync":  # (protocol 3: a page that lost track of its view gets it whole)
        frame: dict[str, Any] = {"type": "update", "ref": ref, "version": rt.version, "events": []}
        frame.update(rt.seat_frame(conn.seat, conn.lang))
        rt.hold(conn, frame["view"])
        conn.send(frame)
    elif kind == "legal":
        seat = _seated(conn)
        if rt.game is None:
            raise ProtocolError("not_running", E_("the game has not started"))
        anytime = bool(msg.get("anytime", True))
        trades = msg.get("trades", True)  # false: no trade proposals (the page; a bool, checked)
        conn.send(
            {
                "type": "legal",
                "ref": ref,
                "version": rt.version,
                "actions": games.answers(rt.game, seat, conn.lang, anytime=anytime, trades=trades),
                # why each any-time action on the seat's own deeds is not among them
                "refused": games.refused(rt.game, seat, conn.lang) if anytime else [],
            }
        )
    elif kind == "sample":
        seat = _seated(conn)
        if rt.game is None:
            raise ProtocolError("not_running", E_("the game has not started"))
        since = _int(msg.get("since", 0), "since")
        conn.send({"type": "sample", "ref": ref, **games.seat_sample(rt.game, seat, since)})
    elif kind == "chat":
        await _chat(hub, conn, rt, msg)
        conn.send({"type": "ack", "ref": ref, "version": rt.version})
    elif kind in ("start", "pause", "resume", "kick", "set_bot"):
        if not conn.is_host:
            raise ProtocolError("not_host", E_("only the host may do that"))
        await _host(hub, rt, kind, msg)
        conn.send({"type": "ack", "ref": ref, "version": rt.version})
    elif kind == "export":
        fmt = msg.get("format", "save")
        if fmt == "record":  # the game record (docs/records.md), under the same rule
            record = await _export_record(conn, rt)
            conn.send({"type": "export", "ref": ref, "format": "record", "record": record})
        elif fmt == "save":
            conn.send({"type": "export", "ref": ref, "save": await _export(conn, rt)})
        else:
            raise ProtocolError("bad_request", E_("an export's format is save or record"))
    elif kind == "replay":
        replay = await _replay(hub, rt, msg.get("step"), conn.lang)
        conn.send({"type": "replay", "ref": ref, **replay})
    else:  # hello twice, or a type the table has no use for
        raise ProtocolError("unknown_type", E_("{kind} is not expected now", kind=repr(kind)))


def _seated(conn: Conn) -> int:
    if conn.seat is None:
        raise ProtocolError("not_your_seat", E_("spectators do not play"))
    return conn.seat


async def _action(hub: Hub, conn: Conn, rt: TableRuntime, msg: dict[str, Any]) -> None:
    seat = _seated(conn)
    game = rt.game
    if game is None:
        raise ProtocolError("not_running", E_("the game has not started"))
    seen = _int(msg.get("version"), "version")
    if "id" in msg:
        try:
            action = game.action_from_id(_int(msg["id"], "id"), seat)
        except ParlorError as exc:
            raise ProtocolError("illegal", exc.text) from exc
    else:
        try:
            action = games.decode_action(game, msg.get("action"))
        except ParlorError as exc:
            raise ProtocolError("malformed_action", exc.text) from exc
    player = getattr(action, "player", None)
    if isinstance(player, bool) or player != seat:
        raise ProtocolError("not_your_seat", E_("this connection plays seat {seat}", seat=seat))
    # an acceptance holds only for the terms shown: those in force at the version they came with
    if type(action).__name__ == "AcceptTrade" and msg.get("terms_revision") != rt.version:
        raise ProtocolError("stale", E_("those are not the terms on the table now"))
    version = await hub.submit(rt, seat, action, seen, "seat")
    ref = msg.get("ref")
    if ref is not None or conn.protocol < 2:  # (protocol 2: an ack only when asked for)
        conn.send({"type": "ack", "ref": ref, "version": version})


async def _chat(hub: Hub, conn: Conn, rt: TableRuntime, msg: dict[str, Any]) -> None:
    seat = _seated(conn)
    body = clean_text(msg.get("text"), MAX_CHAT, "chat")
    if not conn.chat_bucket.take():
        raise ProtocolError("rate_limited", E_("too many chat messages: wait a little"))
    message = await hub.db(hub.store.add_chat, rt.id, seat, rt.seats[seat]["name"], body)
    hub._chat_out(rt, message)


async def _host(hub: Hub, rt: TableRuntime, kind: str, msg: dict[str, Any]) -> None:
    async with rt.lock:
        if kind == "start":
            if rt.status != "waiting":
                raise ProtocolError("not_running", E_("the table has already started"))
            seats: dict[int, dict[str, Any]] = {}
            for s in rt.seats:  # a seat nobody took is played by a heuristic bot
                if s["kind"] == "human" and s["token_hash"] is None:
                    seats[s["seat"]] = {"kind": "bot", "bot": "heuristic", "bot_options": "{}"}
            seed, nonces = rt.seed, None
            if rt.game is None:
                if rt.committed_seed is not None and rt.salt is not None:
                    if hub.store.is_postgres:  # (a nonce given through another process)
                        for row in await hub.db(hub.store.seats, rt.id):
                            rt.seats[row["seat"]]["nonce"] = row.get("nonce")
                    # the game's seed, from the committed one and the nonces of the people
                    # seated now (a seat a bot takes over has none)
                    nonces = [
                        (s.get("nonce") or "")
                        if s["kind"] == "human" and s["seat"] not in seats
                        else ""
                        for s in rt.seats
                    ]
                    seed = fairness.derive_seed(rt.committed_seed, bytes.fromhex(rt.salt), nonces)
                c = rt.config
                game = games.new_game(
                    c["game"],
                    c["edition"],
                    [s["name"] for s in rt.seats],
                    seed,
                    c["options"],
                    c.get("inline"),
                )
            else:
                game = rt.game
            table: dict[str, Any] = {"status": "running", "settings": json.dumps(game.settings)}
            if nonces is not None:
                table.update(seed=seed, nonces=json.dumps(nonces))
            if not await hub.db(
                hub.store.update_meta, rt.id, table=table, seats=seats, expect_status=("waiting",)
            ):
                raise ProtocolError("not_running", E_("the table has already started"))
            rt.meta_rev += 1
            rt.seed, rt.nonces = seed, nonces if nonces is not None else rt.nonces
            for seat in seats:
                rt.seats[seat].update(kind="bot", bot="heuristic", bot_options={})
            rt.game, rt.status = game, "over" if game.is_over else "running"
            rt.decided_since = time.time()
            hub.broadcast_meta(rt)
            # the opening throws and dealt deeds (property games) are the first events
            opening = list(getattr(game, "setup_events", [])) if not game.log else []
            hub.publish(rt, opening)
        elif kind in ("pause", "resume"):
            want, new = ("running", "paused") if kind == "pause" else ("paused", "running")
            if rt.status != want:
                raise ProtocolError("not_running", E_("the table is {status}", status=rt.status))
            await hub.db(hub.store.update_meta, rt.id, table={"status": new})
            rt.meta_rev += 1
            rt.status = new
            rt.decided_since = time.time()  # after a pause the timer starts again in full
            rt.turn_deadline = None  # a resumed table gives the person deciding a whole timer
            hub.notice(
                rt,
                kind,
                None,
                "the host paused the table" if new == "paused" else "the game goes on",
            )
            hub.broadcast_meta(rt)
        else:
            seat = _int(msg.get("seat"), "seat")
            if not 0 <= seat < len(rt.seats):
                raise ProtocolError("bad_request", E_("no such seat"))
            if kind == "kick":
                if rt.seats[seat]["kind"] != "human":
                    raise ProtocolError("bad_request", E_("that seat is a bot"))
                change: dict[str, Any] = {
                    "kind": "bot",
                    "bot": "heuristic",
                    "bot_options": "{}",
                    "token_hash": None,
                    "away": False,
                    "nonce": None,  # (a bot adds none)
                }
            else:
                if rt.seats[seat]["kind"] != "bot":
                    raise ProtocolError("bad_request", E_("that seat is not a bot"))
                bot, options = bot_spec(rt.family, msg.get("bot"), msg.get("budget"))
                change = {"bot": bot, "bot_options": json.dumps(options)}
            await hub.db(hub.store.update_meta, rt.id, seats={seat: change})
            rt.meta_rev += 1
            local = dict(change)
            local["bot_options"] = json.loads(str(local["bot_options"]))
            rt.seats[seat].update(local)
            if kind == "kick":
                rt.away.discard(seat)
                for conn in rt.seat_conns(seat):
                    conn.send(
                        {
                            "type": "notice",
                            "kind": "kicked",
                            "seat": seat,
                            "text": "the host gave your seat to a bot",
                        }
                    )
                    conn.close()
                    rt.conns.discard(conn)
                hub.notice(rt, "kicked", seat, f"{rt.seats[seat]['name']} is now played by a bot")
            hub.broadcast_meta(rt)
    hub.schedule(rt)


async def _export(conn: Conn, rt: TableRuntime) -> Any:
    """The engine's JSON save, under the export rule (:func:`_exportable`). After the end it
    carries the reveal of the table's commitment (``fairness``: the committed seed, the salt, the
    nonces and every chance outcome), never before."""
    game = _exportable(conn, rt)
    if not game.is_over or rt.committed_seed is None or rt.salt is None or rt.nonces is None:
        return json.loads(game.to_json())  # (running, or imported: no commitment to reveal)
    if rt.export_cache is None:
        salt = bytes.fromhex(rt.salt)
        save = json.loads(game.to_json())
        # (a replay of the whole game: off the event loop; the game is over, nobody changes it)
        save["fairness"] = await asyncio.to_thread(
            fairness.fairness_record, game, rt.committed_seed, salt, rt.nonces
        )
        rt.export_cache = save
    return rt.export_cache


def _exportable(conn: Conn, rt: TableRuntime) -> Any:
    """The table's game if this connection may export it, else an error: after the end to anyone
    at the table; while the game runs, only to the host and only when every other seat is a bot
    (nobody else could use its secrets)."""
    game = rt.game
    if game is None:
        raise ProtocolError("not_running", E_("the game has not started"))
    if not game.is_over:
        others_human = any(s["kind"] == "human" and s["seat"] != conn.seat for s in rt.seats)
        if not conn.is_host or others_human:
            raise ProtocolError(
                "forbidden", E_("a running game is exported only by the host of a table of bots")
            )
    return game


async def _export_record(conn: Conn, rt: TableRuntime) -> str:
    """The game record of the table's game, under the export rule; who played each seat in it."""
    from parlor.records import write_record

    copy = _exportable(conn, rt).clone()  # (the table goes on while the record is written)
    seats = [(s.get("bot") or "heuristic") if s["kind"] == "bot" else "human" for s in rt.seats]
    return await asyncio.to_thread(write_record, copy, seats=seats, tags={"Site": "parlor server"})


async def _replay(hub: Hub, rt: TableRuntime, step: Any, lang: str) -> dict[str, Any]:
    """Step ``step`` of a finished game with every seat's view (all hands shown), its events in
    ``lang``."""
    game = rt.game
    if game is None or not game.is_over:
        raise ProtocolError("forbidden", E_("the replay opens when the game is over"))
    total = len(game.log)
    step = _int(step, "step")
    if not 0 <= step <= total:
        raise ProtocolError("bad_request", E_("step is 0..{total}", total=total))
    settings, seed = game.settings, game.seed
    log = [games.encode_action(a) for a in game.log]

    def build() -> dict[str, Any]:
        g = games.rebuild(rt.game_name, settings, seed, log[: max(step - 1, 0)])
        events: list[Any] = []
        action = None
        if step > 0:
            action = log[step - 1]
            events = games.event_frames(g, g.apply(games.decode_action(g, action)), lang)
        return {
            "step": step,
            "total": total,
            "action": action,
            "events": events,
            "views": [g.view(p) for p in range(g.num_players)],
        }

    return await asyncio.to_thread(build)
