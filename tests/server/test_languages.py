"""Error frames in the seat's language: the engine's reason for refusing an action, and the
server's own refusals, are said in the language the connection asked for in its hello, over a
real server on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from parlor import client
from parlor.monopoly.edition import load_edition
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


def test_a_drawn_card_reaches_each_connection_in_its_language(server: ServerProcess) -> None:
    """Issue 18: the "card" event of a classic table quotes the card in Spanish to a Spanish
    seat and in Danish to a Danish spectator (the edition's own cards are English)."""
    made = client.create_table(
        server.base,
        edition="classic",
        seats=["human", "random"],
        options={"roll_for_first_player": False},
    )
    edition = load_edition("classic")

    def drawn(t: client.Table) -> list[dict[str, Any]]:
        return [e for e in t.events if e["kind"] == "card"]

    async def go() -> None:
        ann = await host(server.base, made, lang="es")
        watcher = await client.Table.connect(
            server.base, made["table"], invite=made["invite"], lang="da"
        )
        await start(ann)
        choose = client.random_policy(7)
        async with asyncio.timeout(120):
            while not drawn(ann) and ann.final is None:
                if ann.my_turn():
                    await ann.act(choose(ann))
                else:
                    await ann.recv()
        assert drawn(ann), "no card was drawn in a whole game"
        card = drawn(ann)[0]
        assert edition.card_text(card["data"]["card"], "es") in card["text"]
        await watcher.wait(lambda t: bool(drawn(t)))
        seen = drawn(watcher)[0]
        assert seen["data"] == card["data"]
        assert edition.card_text(card["data"]["card"], "da") in seen["text"]
        english = edition.card_text(card["data"]["card"], "en")
        assert english not in card["text"] and english not in seen["text"]
        for t in (ann, watcher):
            await t.close()

    run(go())
