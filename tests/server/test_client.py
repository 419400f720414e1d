"""``parlor bot --url``: a bot running in another process joins a table like a person."""

from __future__ import annotations

from parlor import client
from tests.server.support import ServerProcess, host, parlor_bot, run, start


def test_parlor_bot_joins_by_invite_link_and_plays_to_the_end(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human", "heuristic"])
    bot = parlor_bot(made["link"], "--name", "Robo", "--seed", "3")
    try:

        async def go() -> dict[str, object]:
            ann = await host(server.base, made)
            await ann.wait(lambda t: t.table["seats"][1]["connected"], timeout=60)
            assert ann.table["seats"][1]["name"] == "Robo"
            await start(ann)
            final = await client.play_table(ann, client.random_policy(1), timeout=120)
            await ann.close()
            return final

        final = run(go())
        out, _ = bot.communicate(timeout=60)
        assert bot.returncode == 0, out
        assert "Game over:" in out and final["winners"]
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
