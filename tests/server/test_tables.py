"""Creating tables, invites, seats, spectators and the lobby, over real HTTP and WebSockets."""

from __future__ import annotations

import sqlite3

import pytest

from parlor import client
from tests.server.support import ServerProcess, host, post, run, seat


def test_create_rejects_bad_requests(server: ServerProcess) -> None:
    cases = [
        ({"game": "chess"}, "bad_request"),
        ({"game": "tools", "seats": 1}, "bad_request"),
        ({"game": "monopoly", "seats": 9}, "bad_request"),
        ({"edition": "nowhere"}, "settings"),
        ({"options": {"no_such_rule": True}}, "settings"),
        ({"variant": "forever"}, "settings"),
        ({"presets": ["cheat"]}, "settings"),
        ({"seats": ["human", "search:999999"]}, "bad_request"),
        ({"seats": ["human", "oracle"]}, "bad_request"),
        ({"lang": "tlh"}, "bad_request"),
        ({"host_name": "x" * 41}, "name_too_long"),
    ]
    for request, code in cases:
        status, body = post(server.base, "/api/tables", request)
        assert status == 400 and body["code"] == code, (request, body)
    status, body = post(server.base, "/api/tables", "not an object")
    assert status == 400 and body["code"] == "bad_request"


def test_http_errors_speak_the_language_the_request_asks_for(server: ServerProcess) -> None:
    request = {"game": "tools", "seats": ["human", "oracle"]}
    said = {
        lang: post(server.base, "/api/tables", request, Accept_Language=header)[1]["message"]
        for lang, header in (("en", ""), ("es", "es-MX,es;q=0.9"), ("da", "de, da;q=0.8"))
    }
    assert len(set(said.values())) == 3 and all(said.values()), said
    status, body = post(
        server.base, "/api/tables/nosuchtable/join", {"invite": "x"}, Accept_Language="es"
    )
    assert status in (400, 403, 404) and body["message"], body


def test_every_game_edition_variant_and_preset_can_be_created(server: ServerProcess) -> None:
    for edition in ("classic", "matco", "latam", "matador"):
        for variant in ("standard", "short"):
            made = client.create_table(
                server.base,
                edition=edition,
                variant=variant,
                presets=["free_parking_pot", "double_go"],
                seats=["human", "heuristic", "search:20"],
                timer=30,
                lang="es",
            )
            assert made["table"] and made["invite"] and made["token"]
    made = client.create_table(server.base, game="tools", seats=10, options={"hand_size": 5})
    assert made["seat"] == 0


def test_invite_join_spectate_and_lobby(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, game="tools", seats=["human", "human", "random"], host_name="Ann", listed=True
    )
    # tokens are long random strings, and the database keeps only their digests
    assert len(made["token"]) >= 40 and len(made["invite"]) >= 40
    bo = client.join_table(made["link"], "Bo")
    assert bo["seat"] == 1 and bo["token"] != made["token"]
    with pytest.raises(client.ServerError) as full:
        client.join_table(made["link"], "Cy")
    assert full.value.code == "no_seat"
    bad = made["link"].replace(made["invite"], made["invite"][:-4] + "AAAA")
    with pytest.raises(client.ServerError) as forged:
        client.join_table(bad, "Eve")
    assert forged.value.code == "bad_invite"
    status, body = post(
        server.base,
        f"/api/tables/{made['table']}/join",
        {"name": "x" * 200, "invite": made["invite"]},
    )
    assert status == 400 and body["code"] == "name_too_long"
    other = client.create_table(server.base, game="tools", seats=2)
    lobby = post_get(server.base + "/api/lobby")
    assert made["table"] in [t["table"] for t in lobby["tables"]]

    async def go() -> None:
        watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        assert watcher.you["seat"] is None and watcher.table["seats"][1]["name"] == "Bo"
        listed = await client.Table.connect(server.base, made["table"])  # listed: id alone
        assert listed.you["seat"] is None
        await listed.close()
        with pytest.raises(client.ServerError) as unlisted:
            await client.Table.connect(server.base, other["table"])
        assert unlisted.value.code == "bad_token"
        ann = await host(server.base, made)
        assert ann.you == {"seat": 0, "host": True, "lang": "en", "nonce": ann.nonce}
        reply = await watcher.request({"type": "start"})
        assert reply["code"] == "not_host"
        assert (await ann.request({"type": "start"}))["type"] == "ack"
        await watcher.wait(lambda t: t.view is not None)
        assert "hand" not in watcher.view and watcher.prompt is None
        reply = await watcher.request(
            {"type": "action", "version": watcher.version, "action": {"type": "Draw", "player": 0}}
        )
        assert reply["code"] == "not_your_seat"
        for t in (watcher, ann):
            await t.close()

    run(go())


def test_tokens_are_stored_only_as_digests(fresh_server, tmp_path) -> None:  # type: ignore[no-untyped-def]
    srv = fresh_server(db=tmp_path / "t.db")
    made = client.create_table(srv.base, game="tools", seats=["human", "human"])
    bo = client.join_table(made["link"], "Bo")
    srv.stop()
    dump = "\n".join(sqlite3.connect(tmp_path / "t.db").iterdump())
    for secret in (made["token"], made["invite"], made["host_key"], bo["token"]):
        assert secret not in dump
    assert "Bo" in dump


def post_get(url: str) -> dict:  # type: ignore[type-arg]
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def test_a_seat_token_opens_only_its_own_seat(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    other = client.create_table(server.base, game="tools", seats=["human", "human"])

    async def go() -> None:
        with pytest.raises(client.ServerError) as wrong_table:
            await client.Table.connect(server.base, other["table"], token=made["token"])
        assert wrong_table.value.code == "bad_token"
        with pytest.raises(client.ServerError) as forged:
            await client.Table.connect(server.base, made["table"], token="A" * 43)
        assert forged.value.code == "bad_token"
        with pytest.raises(client.ServerError) as host_forged:
            await client.Table.connect(
                server.base, made["table"], token=made["token"], host_key=other["host_key"]
            )
        assert host_forged.value.code == "bad_token"
        bo = await seat(server.base, made, "Bo")
        assert bo.you["seat"] == 1 and not bo.you["host"]
        await bo.close()

    run(go())


def test_an_invite_says_what_it_is_for_and_nothing_secret(server: ServerProcess) -> None:
    made = client.create_table(
        server.base,
        edition="matador",
        variant="short",
        seats=["human", "human", "heuristic"],
        host_name="Ann",
    )
    status, info = post(
        server.base, f"/api/tables/{made['table']}/invite", {"invite": made["invite"]}
    )
    assert status == 200, info
    assert (info["game"], info["edition"], info["variant"]) == ("monopoly", "matador", "short")
    assert info["host"] == "Ann" and info["status"] == "waiting"
    kinds = [(s["seat"], s["kind"], s["taken"]) for s in info["seats"]]
    assert kinds == [(0, "human", True), (1, "human", False), (2, "bot", True)]
    # no token, invite, host key or seed anywhere in the answer
    text = str(info)
    for secret in (made["token"], made["invite"], made["host_key"]):
        assert secret not in text
    assert "token_hash" not in text and "seed" not in text
    # a wrong invite, or the right one for another table, describes nothing
    other = client.create_table(server.base, game="tools", seats=2)
    for table, invite in (
        (made["table"], made["invite"][:-4] + "AAAA"),
        (other["table"], made["invite"]),
    ):
        status, body = post(server.base, f"/api/tables/{table}/invite", {"invite": invite})
        assert status == 403 and body["code"] == "bad_invite", body
    status, body = post(server.base, f"/api/tables/{made['table']}/invite", {"invite": 5})
    assert status == 400 and body["code"] == "bad_request"
