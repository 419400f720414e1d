"""Tables: created from a request or a saved game, joined with an invite, listed in the lobby."""

from __future__ import annotations

import json
import secrets
from typing import Any

from parlor.core import fairness
from parlor.core.errors import E_
from parlor.server.base import HubBase, display_name, new_token
from parlor.server.plans import normalise
from parlor.server.protocol import ProtocolError
from parlor.server.runtime import TableRuntime
from parlor.server.store import digest


class Tables(HubBase):
    async def create(self, req: dict[str, Any], save: str | None = None) -> dict[str, Any]:
        """A new table from a create request (or a saved game); returns the host's secrets."""
        config, seat_plan, imported = normalise(req, save)
        table_id = secrets.token_urlsafe(9)
        invite, host_key = new_token(), new_token()
        host_seat = config["host_seat"]
        seats: list[dict[str, Any]] = []
        host_token = None
        for i, plan in enumerate(seat_plan):
            seat = {
                "seat": i,
                "name": plan["name"],
                "kind": plan["kind"],
                "bot": plan.get("bot"),
                "bot_options": json.dumps(plan.get("bot_options", {})),
                "token_hash": None,
            }
            if i == host_seat and plan["kind"] == "human":
                host_token = new_token()
                seat["token_hash"] = digest(host_token)
                if req.get("host_name") is not None and imported is None:
                    seat["name"] = display_name(req["host_name"])
            seats.append(seat)
        # The seed is fixed now and committed to (with a salt, so that the commitment cannot be
        # inverted by trying seeds); the game's seed is derived from it and the seats' nonces at
        # the start. An imported game keeps its own seed: nothing to commit to.
        seed = imported.seed if imported is not None else secrets.randbits(62)
        salt = None if imported is not None else secrets.token_bytes(fairness.SALT_BYTES)
        commitment = None if salt is None else fairness.commitment(seed, salt)
        row = {
            "id": table_id,
            "game": config["game"],
            "config": json.dumps(config),
            "settings": None if imported is None else json.dumps(imported.settings),
            "seed": seed,
            "committed_seed": None if salt is None else seed,
            "salt": None if salt is None else salt.hex(),
            "commitment": commitment,
            "status": "waiting",
            "version": 0,
            "meta_rev": 0,
            "invite_hash": digest(invite),
            "host_hash": digest(host_key),
            "listed": bool(req.get("listed", False)),
        }
        await self.db(self.store.create_table, row, seats)
        if imported is not None and imported.log:
            from parlor.core.game import action_to_dict

            rows = [
                (table_id, i, action.player, action_to_dict(action), "import")
                for i, action in enumerate(imported.log)
            ]
            await self.db(self.store.append_actions, rows)
        out: dict[str, Any] = {"table": table_id, "invite": invite, "host_key": host_key}
        out["fairness"] = public_fairness(commitment)
        if host_token is not None:
            out["token"] = host_token
            out["seat"] = host_seat
        return out

    async def join(
        self, table_id: str | None, invite: str | None, name: Any, seat: Any
    ) -> dict[str, Any]:
        """Take a free human seat with the invite (or, on a listed table, its id)."""
        rt = await self._table_for(table_id, invite)
        display = display_name(name)
        free = [s["seat"] for s in rt.seats if s["kind"] == "human" and s["token_hash"] is None]
        if seat is not None:
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in free:
                raise ProtocolError("no_seat", E_("seat {seat} is not free", seat=repr(seat)))
            free = [seat]
        if rt.status == "over":
            raise ProtocolError("not_running", E_("the game is over"))
        token = new_token()
        for candidate in free:
            # an imported game keeps the names its engine was given
            keep = rt.game is not None
            ok = await self.db(
                self.store.claim_seat,
                rt.id,
                candidate,
                rt.seats[candidate]["name"] if keep else display,
                digest(token),
            )
            if ok:
                s = rt.seats[candidate]
                s["token_hash"] = digest(token)
                if not keep:
                    s["name"] = display
                self.broadcast_meta(rt)
                return {
                    "table": rt.id,
                    "seat": candidate,
                    "token": token,
                    "name": s["name"],
                    "fairness": public_fairness(rt.commitment),
                }
        raise ProtocolError("no_seat", E_("every seat is taken"))

    async def invite_info(self, table_id: str, invite: Any) -> dict[str, Any]:
        """What an invite is for, shown before joining: the table as everyone at it may see it
        (game, edition, variant, status, seats) and the host's name. The invite itself is asked
        for (no table is described to someone without it, unless it is listed)."""
        rt = await self._table_for(table_id, invite)
        out = rt.meta()
        out.pop("settings", None)  # (the engine's settings: nothing a joiner needs)
        host = rt.config.get("host_seat")
        seats = out["seats"]
        out["host"] = seats[host]["name"] if isinstance(host, int) and host < len(seats) else None
        return out

    async def _table_for(self, table_id: str | None, invite: str | None) -> TableRuntime:
        if invite is not None:
            if not isinstance(invite, str) or len(invite) > 100:
                raise ProtocolError("bad_invite", E_("that invite is not valid"))
            row = await self.db(self.store.table_by_invite, digest(invite))
            if row is None or (table_id is not None and row["id"] != table_id):
                raise ProtocolError("bad_invite", E_("that invite is not valid"))
            table_id = row["id"]
        elif not isinstance(table_id, str) or len(table_id) > 32:
            raise ProtocolError("bad_invite", E_("an invite (or a listed table's id) is needed"))
        rt = await self.runtime(table_id)
        if rt is None or (invite is None and not rt.listed):
            raise ProtocolError("bad_invite", E_("that invite is not valid"))
        return rt

    async def lobby(self) -> list[dict[str, Any]]:
        rows = await self.db(self.store.lobby)
        out = []
        for r in rows:
            c = json.loads(r["config"])
            out.append(
                {
                    "table": r["id"],
                    "game": r["game"],
                    "edition": c.get("edition"),
                    "status": r["status"],
                    "seats": c["seats"],
                    "fairness": public_fairness(r.get("commitment")),
                }
            )
        return out


def public_fairness(commitment: str | None) -> dict[str, str] | None:
    """What anybody may know of a table's randomness before the end: the scheme and the
    commitment (None: an imported game, whose seed was fixed by its save)."""
    return None if commitment is None else {"scheme": fairness.SCHEME, "commitment": commitment}
