"""The server's export in the game-record format (docs/records.md): the same export rule as the
JSON save, the record replays to the table's game, and it says who played each seat."""

from __future__ import annotations

import pytest

from parlor import client, tools
from parlor.bots.registry import make_bot
from parlor.records import parse, read_game, write_record
from tests.server.support import ServerProcess, export, host, run, start


def test_a_finished_game_is_exported_as_a_record(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic", "random"])

    async def go() -> None:
        ann = await host(server.base, made)
        await start(ann)
        # running, and every other seat a bot: the host may have it, as the save
        running = await ann.request({"type": "export", "format": "record"})
        assert running["type"] == "export" and running["format"] == "record"
        so_far = read_game(running["record"])
        assert not so_far.is_over and parse(running["record"]).tag("Result") == "*"
        final = await client.play_table(ann, client.random_policy(3), timeout=120)
        text = await export(ann, "record")
        record = parse(text)
        kinds = [t.values[2] for t in record.tags_named("Seat")]
        assert kinds == ["human", "heuristic", "random"]
        assert record.tag("Site") == "parlor server"
        game = read_game(text)
        assert game.is_over and list(game.outcome.winners) == final["winners"]  # type: ignore[union-attr]
        save = await export(ann)
        assert save["seed"] == game.seed and len(save["actions"]) == len(game.log)
        bad = await ann.request({"type": "export", "format": "pgn"})
        assert bad["type"] == "error" and bad["code"] == "bad_request"
        await ann.close()

    run(go())


def test_a_table_is_made_from_a_record(server: ServerProcess) -> None:
    game = tools.new_game(["Ann", "Bo"], seed=11)
    bots = [make_bot("tools", "heuristic", seed=i) for i in range(2)]
    for _ in range(6):
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    made = client.create_table(server.base, record=write_record(game), seats=["human", "heuristic"])

    async def go() -> None:
        ann = await host(server.base, made)
        assert ann.table["seats"][0]["name"] == "Ann"
        await start(ann)
        assert ann.version == len(game.log) and ann.view == game.view(0)
        await ann.close()

    run(go())
    with pytest.raises(client.ServerError, match="line 2"):
        client.create_table(
            server.base, record='[Format "parlor-record 1"]\n[Game', seats=["human"]
        )


def test_a_running_table_with_other_people_gives_no_record(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    joined = client.join_table(made["link"], "Bo")

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await client.Table.connect(server.base, made["table"], token=joined["token"])
        await start(ann)
        for t in (ann, bo):
            reply = await t.request({"type": "export", "format": "record"})
            assert reply["code"] == "forbidden"
            await t.close()

    run(go())
