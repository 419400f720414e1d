"""``parlor bot --url``: a bot running in another process joins a table like a person."""

from __future__ import annotations

from parlor import client
from tests.server.support import ServerProcess, host_plays_a_remote_bot


def test_parlor_bot_joins_by_invite_link_and_plays_to_the_end(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human", "heuristic"])
    host_plays_a_remote_bot(server.base, made, bot_seed=3, host_seed=1)
