"""``client.play``: the few lines of the README play a table from a script (issue 20: "the Python
client example fails as written"), against a real ``parlor serve``."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from parlor import client
from tests.server.support import ServerProcess


def test_the_creator_plays_its_own_seat_and_the_table_starts(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, game="tools", seats=["human", "heuristic"], host_name="Ann"
    )
    final = client.play(made, policy=client.random_policy(1), timeout=300)
    assert final["names"][0] == "Ann" and final["winners"]


def test_the_invite_link_of_a_full_table_says_what_to_pass_instead(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic"])
    with pytest.raises(client.ServerError) as refused:
        client.play(made["link"], name="Ann", policy=client.random_policy(1))
    assert refused.value.code == "no_seat"
    assert "client.play(made, policy=...)" in refused.value.message
    with pytest.raises(ValueError, match="set by create_table"):
        client.play(made, name="Ann", policy=client.random_policy(1))


def test_the_host_waits_for_the_friend_with_the_link_then_starts(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, game="tools", seats=["human", "human", "random"], host_name="Ann"
    )
    results: dict[str, Any] = {}

    def host() -> None:
        results["Ann"] = client.play(made, policy=client.random_policy(1), timeout=300)

    thread = threading.Thread(target=host)
    thread.start()
    try:
        results["Bo"] = client.play(
            made["link"], name="Bo", policy=client.random_policy(2), timeout=300
        )
    finally:
        thread.join(320)
    assert results["Ann"] == results["Bo"]
    assert results["Ann"]["names"][:2] == ["Ann", "Bo"]


def test_a_table_made_without_a_host_seat_is_joined_and_started(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, game="tools", seats=["human", "heuristic"], host_seat=None
    )
    assert "token" not in made
    final = client.play(made, name="Cy", policy=client.random_policy(3), timeout=300)
    assert final["names"][0] == "Cy"
