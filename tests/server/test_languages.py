"""Error frames in the seat's language: the engine's reason for refusing an action, and the
server's own refusals, are said in the language the connection asked for in its hello, over a
real server on loopback."""

from __future__ import annotations

from parlor import client
from tests.server.support import ServerProcess, host, run, seat, start


def test_an_illegal_action_is_refused_in_the_seats_language(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, seats=["human", "human"], options={"roll_for_first_player": False}
    )

    async def go() -> None:
        ann = await host(server.base, made, lang="es")
        bo = await seat(server.base, made, "Bo", lang="da")
        await start(ann)
        await bo.wait(lambda t: t.view is not None)
        v = ann.version
        # The host must throw before ending the turn; Bo owns nothing to mortgage.
        reply = await ann.request(
            {"type": "action", "version": v, "action": {"type": "EndTurn", "player": 0}}
        )
        assert reply["code"] == "illegal"
        assert reply["message"] == "Player 1 debe tirar los dados primero"  # (the host's name)
        reply = await bo.request(
            {
                "type": "action",
                "version": v,
                "action": {"type": "Mortgage", "player": 1, "square": 1},
            }
        )
        assert reply["code"] == "illegal"
        assert reply["message"].startswith("Bo ejer ikke ")
        # a malformed field is explained in the seat's language too
        reply = await ann.request(
            {"type": "action", "version": v, "action": {"type": "Bid", "player": 0, "amount": True}}
        )
        assert reply["code"] in ("illegal", "malformed_action")
        assert "debe ser" in reply["message"], reply
        assert ann.version == v
        # the server's own refusals too
        watcher = await client.Table.connect(
            server.base, made["table"], invite=made["invite"], lang="da"
        )
        reply = await watcher.request(
            {"type": "action", "version": v, "action": {"type": "RollDice", "player": 0}}
        )
        assert reply["code"] == "not_your_seat" and reply["message"] == "tilskuere spiller ikke"
        reply = await bo.request({"type": "start"})
        assert reply["code"] == "not_host" and reply["message"] == "kun værten må gøre det"
        reply = await ann.request({"type": "start"})
        assert reply["message"] == "la mesa ya ha empezado"
        for t in (ann, bo, watcher):
            await t.close()

    run(go())
