"""Parlor's bots playing through the client (``client.bot_policy``, ``parlor bot --bot``): real
sockets against a running server, each bot deciding on a sample of what its seat may know.

The secrecy of the other seats is checked twice: the seat's sample is a function of what the seat
knows (two games that differ only in what it cannot see give the same sample), and every sample a
remote bot received shows its seat exactly the table's view while its guesses of the hidden parts
(other hands, deck order) are not the truth, as the exported game shows at the end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlor import client, monopoly, tools
from parlor.bots.registry import make_bot
from parlor.core.game import Game
from parlor.core.state import import_state, seat_state
from parlor.server import games
from tests.server.support import ServerProcess, export, host, parlor_bot, played, run, start


def samples_of(t: client.Table) -> list[dict[str, Any]]:
    return [f for f in t.frames if f.get("type") == "sample"]


async def remote_game(
    base: str, made: dict[str, Any], policy: Any, timeout: float = 300
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The host's seat played by ``policy`` to the end: the final result, every sample it got and
    the exported save."""
    me = await host(base, made)
    me.keep_frames = True
    await start(me)
    final = await client.play_table(me, policy, timeout=timeout)
    save = await export(me)
    await me.close()
    return final, samples_of(me), save


def check_samples(cls: type[Game[Any]], seat: int, samples: list[dict[str, Any]], save: Any) -> int:
    """Every sample shows the seat the table as it was; returns how many guessed a hidden part
    other than the truth."""
    truth = cls.from_settings(save["settings"], save["seed"])
    log = save["actions"]
    wrong_guesses = 0
    assert samples
    for frame in samples:
        assert frame["seed"] != save["seed"]
        v = frame["version"]
        while len(truth.log) < v:
            truth.apply(cls.decode_action(log[len(truth.log)]))
        sample = import_state(cls, frame["settings"], frame["seed"], frame["state"], log[:v])
        assert sample.view(seat) == truth.view(seat)
        assert sample.pending_for(seat) == truth.pending_for(seat)
        assert sample.legal_actions(seat) == truth.legal_actions(seat)
        hidden = "hands" if cls is tools.ToolsGame else "decks_order"
        if sample.snapshot()[hidden] != truth.snapshot()[hidden]:
            wrong_guesses += 1
    return wrong_guesses


def test_a_remote_heuristic_bot_plays_a_whole_property_game(server: ServerProcess) -> None:
    made = client.create_table(
        server.base,
        edition="matador",
        seats=["human", "heuristic", "heuristic"],
        options={"time_limit_rounds": 25},
    )
    final, samples, save = run(remote_game(server.base, made, client.bot_policy("heuristic", 1)))
    assert final["winners"] and final["reason"]
    done = monopoly.PropertyGame.from_json(json.dumps(save))
    assert done.is_over
    # one sample per decision of the seat, each the table as the seat saw it
    assert len(samples) >= 10
    assert check_samples(monopoly.PropertyGame, 0, samples, save) > 0


def test_a_remote_heuristic_bot_plays_a_whole_tools_game(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic", "random"])
    final, samples, save = run(remote_game(server.base, made, client.bot_policy("heuristic", 2)))
    assert final["winners"]
    assert tools.ToolsGame.from_json(json.dumps(save)).is_over
    # the other hands in the samples are guesses, not the truth
    assert check_samples(tools.ToolsGame, 0, samples, save) > len(samples) // 2


@pytest.mark.parametrize(
    ("request_", "budget"),
    [({"game": "tools", "seats": ["human", "heuristic"]}, 8)],
    ids=["tools"],
)
def test_a_remote_search_bot_with_a_budget_plays_a_whole_game(
    server: ServerProcess, request_: dict[str, Any], budget: int
) -> None:
    made = client.create_table(server.base, **request_)
    policy = client.bot_policy("search", 3, simulations=budget)
    final, samples, save = run(remote_game(server.base, made, policy))
    assert final["winners"] and samples
    check_samples(tools.ToolsGame, 0, samples, save)


def test_a_remote_search_bot_plays_property_decisions(server: ServerProcess) -> None:
    """The property search bot (a small budget) through the client, over a short game."""
    made = client.create_table(
        server.base,
        edition="classic",
        seats=["human", "random"],
        options={"time_limit_rounds": 8},
    )
    policy = client.bot_policy("search", 4, simulations=4)
    final, samples, save = run(remote_game(server.base, made, policy))
    assert final["reason"] and samples
    check_samples(monopoly.PropertyGame, 0, samples, save)


def test_only_a_seat_gets_a_sample_and_only_its_own(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])

    async def go() -> None:
        ann = await host(server.base, made)
        await start(ann)
        watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        refused = await watcher.request({"type": "sample"})
        assert refused["type"] == "error" and refused["code"] == "not_your_seat"
        bad = await ann.request({"type": "sample", "since": "0"})
        assert bad["type"] == "error" and bad["code"] == "bad_request"
        mine = await ann.request({"type": "sample", "seat": 1})  # (no way to name another seat)
        assert mine["seat"] == 0 and mine["version"] == ann.version
        assert "hand" in ann.view
        sample = import_state(
            tools.ToolsGame, mine["settings"], mine["seed"], mine["state"], mine["log"]
        )
        assert sample.view(0) == ann.view
        # a later sample sends only the actions after those the client has
        again = await ann.request({"type": "sample", "since": len(mine["log"])})
        assert again["log_from"] == len(mine["log"]) and again["log"] == []
        for t in (ann, watcher):
            await t.close()

    run(go())


@pytest.mark.parametrize(
    "make",
    [
        lambda: monopoly.new_game("classic", 4, 11),
        lambda: monopoly.new_game("latam", 3, 12),
        lambda: tools.new_game(4, 13),
        lambda: tools.new_game(2, 14),
    ],
    ids=["classic", "latam", "tools-4", "tools-2"],
)
def test_a_seats_sample_depends_only_on_what_the_seat_knows(make: Any) -> None:
    """Two games that differ only in what seat ``p`` cannot see (the second is the first with
    its hidden parts resampled) give ``p`` the same sample for the same seed: nothing of the
    hidden truth is in it."""
    game = make()
    for step in range(0, 400, 23):
        game = played(game, step, seed=step)
        if game.is_over:
            break
        for p in range(game.num_players):
            other_truth = game.determinize(p, 1000 + step)  # type: ignore[attr-defined]
            assert other_truth.view(p) == game.view(p)
            assert seat_state(game, p, 5) == seat_state(other_truth, p, 5)


def test_parlor_bot_plays_any_bot_kind(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human", "random"])
    bot = parlor_bot(
        made["link"], "--name", "Searcher", "--bot", "search", "--budget", "6", "--seed", "3"
    )
    try:

        async def go() -> dict[str, Any]:
            ann = await host(server.base, made)
            await ann.wait(lambda t: t.table["seats"][1]["connected"], timeout=60)
            await start(ann)
            final = await client.play_table(ann, client.bot_policy("heuristic", 1), timeout=300)
            await ann.close()
            return final

        final = run(go())
        out, _ = bot.communicate(timeout=120)
        assert bot.returncode == 0, out
        assert "Game over" in out and final["winners"]
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def test_parlor_bot_names_a_bot_the_game_has_not(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    bot = parlor_bot(made["link"], "--bot", "offering")  # (a property-game bot)
    try:

        async def go() -> None:
            ann = await host(server.base, made)
            await ann.wait(lambda t: t.table["seats"][1]["connected"], timeout=60)
            await start(ann)
            while True:  # Ann plays until the bot must decide
                await ann.wait(lambda t: t.prompt is not None or t.view["current"] == 1)
                if ann.prompt is None:
                    break
                await ann.act(ann.prompt["answers"][0])
            await ann.close()

        run(go())
        out, _ = bot.communicate(timeout=120)
        assert bot.returncode == 1 and "offering" in out, out
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


@pytest.mark.parametrize(
    ("make", "kind", "options"),
    [
        (lambda: monopoly.new_game("classic", 3, 31, {"time_limit_rounds": 40}), "heuristic", {}),
        (
            lambda: monopoly.new_game("matco", 2, 32, {"time_limit_rounds": 6}),
            "search",
            {"simulations": 3},
        ),
        (lambda: monopoly.new_game("latam", 3, 33, {"time_limit_rounds": 12}), "random", {}),
        (lambda: tools.new_game(3, 34), "heuristic", {}),
        (lambda: tools.new_game(2, 35), "search", {"simulations": 6}),
    ],
    ids=["classic-heuristic", "matco-search", "latam-random", "tools-heuristic", "tools-search"],
)
def test_a_bot_on_its_seats_samples_decides_as_it_would_on_the_true_game(
    make: Any, kind: str, options: dict[str, Any]
) -> None:
    """The same bot with the same seed, once on the true game and once on the samples the server
    would send its seat (through the client's own rebuilding), makes every decision the same:
    what it reads is what the seat knows, and the sample gives exactly that. (Its memory of
    earlier decisions lives on, as the client keeps one game object for the table.)"""
    from parlor.client.bots import SeatSamples

    truth = make()
    family = games.family(truth)
    on_truth, on_samples = (
        make_bot(family, kind, 9, **options),
        make_bot(family, kind, 9, **options),
    )
    others = [make_bot(family, "heuristic", 40 + p) for p in range(truth.num_players)]
    samples = SeatSamples()
    decisions = 0
    first: Game[Any] | None = None
    while not truth.is_over and decisions < 400:
        p = truth.pending.player  # type: ignore[union-attr]
        if p != 0:
            truth.apply(others[p].choose(truth, p))
            continue
        reply = json.loads(json.dumps(games.seat_sample(truth, 0, len(samples.log))))
        sample, version = samples.take(reply)
        assert version == len(truth.log)
        first = first or sample
        assert sample is first  # (one object for the table: the bot's memory of it holds)
        want = on_truth.choose(truth, 0)
        assert on_samples.choose(sample, 0) == want, f"decision {decisions}"
        truth.apply(want)
        decisions += 1
    assert decisions >= 5
