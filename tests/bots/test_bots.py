"""Every bot plays only legal actions, to the end of complete games, deterministically."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlor import monopoly, tools
from parlor.bots.base import Bot, RandomBot, _pick
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.bots.registry import bot_names, make_bot
from parlor.bots.search import SearchBot
from parlor.bots.tools_heuristic import ToolsHeuristicBot

TINY = {"simulations": 2, "depth": 15}


def play(game: Any, bots: list[Bot], cap: int) -> int:
    """Play until the end or ``cap`` decisions, checking every action; return the decisions."""
    decisions = 0
    while not game.is_over and decisions < cap:
        pending = game.pending
        action = bots[pending.player].choose(game, pending.player)
        legal = game.legal_actions(pending.player)
        assert action in legal or game.is_legal(action), (pending, action)
        game.apply(action)
        decisions += 1
    return decisions


def test_registry_knows_three_bots_per_game() -> None:
    for family in ("monopoly", "tools"):
        assert {"random", "heuristic", "search"} <= set(bot_names(family))
    assert isinstance(make_bot("monopoly", "heuristic", 1), MonopolyHeuristicBot)
    assert isinstance(make_bot("tools", "heuristic", 1), ToolsHeuristicBot)
    assert isinstance(make_bot("tools", "search", 1, simulations=3), SearchBot)


@pytest.mark.parametrize(
    ("edition", "variant"),
    [
        ("classic", "standard"),
        ("matco", "standard"),
        ("latam", "standard"),
        ("matador", "standard"),
        ("classic", "short"),
        ("matador", "quick"),
    ],
)
def test_property_bots_play_legal_complete_games(edition: str, variant: str) -> None:
    options = None if variant == "standard" else {"variant": variant}
    ended = 0
    for seed in range(2):
        game = monopoly.new_game(edition, 4, seed=seed, options=options)
        names = ["heuristic", "random", "heuristic", "search"]
        names = names[seed:] + names[:seed]
        bots = [
            make_bot("monopoly", n, seed * 10 + p, **(TINY if n == "search" else {}))
            for p, n in enumerate(names)
        ]
        play(game, bots, 4000)
        ended += game.is_over
    assert ended >= 1


@pytest.mark.parametrize("edition", list(monopoly.EDITION_IDS))
def test_property_heuristic_beats_random_and_games_end(edition: str) -> None:
    wins = 0
    for seed in range(4):
        game = monopoly.new_game(edition, 4, seed=seed)
        bots: list[Bot] = [make_bot("monopoly", "random", seed * 10 + p) for p in range(4)]
        bots[seed] = MonopolyHeuristicBot(seed)
        play(game, bots, 20000)
        assert game.is_over
        wins += game.outcome.winners == (seed,)
    assert wins >= 3


def test_property_heuristics_among_themselves_finish() -> None:
    for seed in range(3):
        game = monopoly.new_game("classic", 4, seed=seed)
        bots: list[Bot] = [MonopolyHeuristicBot(seed * 10 + p) for p in range(4)]
        play(game, bots, 20000)
        assert game.is_over


@pytest.mark.parametrize("players", [2, 4])
def test_tools_bots_play_legal_complete_games(players: int) -> None:
    for seed in range(6):
        game = tools.new_game(players, seed=seed)
        names = ["random", "heuristic", "search", "heuristic"][:players]
        names = names[seed % players :] + names[: seed % players]
        bots = [
            make_bot("tools", n, seed * 10 + p, **({"simulations": 4} if n == "search" else {}))
            for p, n in enumerate(names)
        ]
        play(game, bots, 5000)
        assert game.is_over


def _log(family: str, names: list[str], seed: int) -> list[Any]:
    game: Any
    if family == "monopoly":
        game = monopoly.new_game("classic", len(names), seed=seed)
    else:
        game = tools.new_game(len(names), seed=seed)
    bots = [
        make_bot(family, n, seed + p, **(TINY if n == "search" else {}))
        for p, n in enumerate(names)
    ]
    play(game, bots, 600)
    return list(game.log)


@pytest.mark.parametrize("family", ["monopoly", "tools"])
def test_same_seeds_same_game(family: str) -> None:
    names = ["search", "heuristic", "random"]
    assert _log(family, names, 3) == _log(family, names, 3)


def test_heuristic_answers_raise_funds_and_tax_sensibly() -> None:
    game = monopoly.new_game("classic", 2, seed=1)
    bot = MonopolyHeuristicBot(0)
    # Whatever the state, a bot with nothing to sell never declares bankruptcy while it can pay.
    for _ in range(300):
        if game.is_over:
            break
        pending = game.pending
        action = bot.choose(game, pending.player)
        if pending.kind == "tax_choice":
            flat = pending.info["flat"]
            worth = game.total_worth(pending.player) * pending.info["percent"] // 100
            assert action.percent == (worth < flat)
        game.apply(action)


def test_one_bot_may_play_several_games() -> None:
    bot = MonopolyHeuristicBot(5)
    for seed in range(2):
        game = monopoly.new_game("matco", 4, seed=seed)
        bots: list[Bot] = [bot, *(make_bot("monopoly", "random", p) for p in range(1, 4))]
        play(game, bots, 20000)
        assert game.is_over


def test_offering_heuristic_offers_are_accepted_by_the_heuristics() -> None:
    """The search bot's offers are priced at the lowest level the heuristic accepts: every one
    of them is accepted by a heuristic opponent, and buying the missing lots pays off."""
    from parlor.bots.search import OfferingHeuristicBot
    from parlor.monopoly.actions import AcceptTrade, ProposeTrade, RejectTrade

    offers = accepted = 0
    for seed in range(3):
        game = monopoly.new_game(monopoly.EDITION_IDS[seed], 4, seed=seed)
        bots: list[Bot] = [MonopolyHeuristicBot(seed * 10 + p) for p in range(4)]
        bots[seed] = OfferingHeuristicBot(seed)
        decisions = 0
        while not game.is_over and decisions < 3000:
            pending = game.pending
            action = bots[pending.player].choose(game, pending.player)
            assert game.is_legal(action)
            if pending.kind == "answer_trade" and pending.info["from"] == seed:
                offers += 1
                accepted += isinstance(action, AcceptTrade)
                assert isinstance(action, AcceptTrade | RejectTrade)
            if isinstance(action, ProposeTrade) and action.player == seed:
                assert action.give_cash <= game.view(seed)["players"][seed]["cash"]
            game.apply(action)
            decisions += 1
    assert offers >= 3
    assert accepted == offers


def test_heuristic_never_bids_beyond_its_limit() -> None:
    from parlor.bots.monopoly_heuristic import Table, board_for
    from parlor.monopoly.actions import Bid

    game = monopoly.new_game("classic", 4, seed=2)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    seen = 0
    for _ in range(3000):
        if game.is_over:
            break
        pending = game.pending
        action = bots[pending.player].choose(game, pending.player)
        if isinstance(action, Bid) and pending.info["item"] == "property":
            table = Table(board_for(game), game.view(pending.player))
            limit = bots[pending.player].bid_limit(table, pending.player, pending.info["square"])
            assert action.amount <= max(limit, pending.info["min_bid"])
            seen += 1
        game.apply(action)
    assert seen > 0


def test_tools_inference_respects_recorded_draws() -> None:
    """An opponent that drew held no playable card then: the inference from the public log is
    true of its real hand, and every determinized sample keeps it (and the hand sizes). The bot
    side goes through the public interface only; the test reads the real hands from snapshots."""
    import ast
    import inspect

    from parlor.bots import tools_inference
    from parlor.bots.tools_inference import determinize, inference_for

    # The bot reads no engine internals (the attributes a game keeps its hidden state in).
    tree = ast.parse(inspect.getsource(tools_inference))
    internal = {"hands", "draw_pile", "sizes", "phase", "ctx", "drawn", "rng"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_") and node.attr not in internal, node.attr
    checked = 0
    for seed in range(12):
        game = tools.new_game(2, seed=seed)
        bots = [ToolsHeuristicBot(seed), ToolsHeuristicBot(seed + 50)]
        while not game.is_over:
            p = game.pending.player
            if p == 0 and game.log:
                cons = inference_for(game).constraints.get(1, [])
                assert all(isinstance(c, tools.HandConstraint) for c in cons)
                real = game.snapshot()
                for sample_seed in range(3):
                    sim = determinize(game, 0, sample_seed)
                    snap = sim.snapshot()
                    assert sim.hand_sizes == game.hand_sizes
                    assert snap["hands"][0] == real["hands"][0]
                    assert _hidden(snap) == _hidden(real)
                    for c in cons:
                        for hand in (real["hands"][1], snap["hands"][1]):
                            assert sum(code not in c.excluded for code in hand) >= c.count
                        checked += 1
            game.apply(bots[p].choose(game, p))
    assert checked > 50


def _hidden(snapshot: dict[str, Any]) -> list[str]:
    """Seat 0's unseen cards in a two-player snapshot: the other hand and the draw pile."""
    return sorted(snapshot["hands"][1] + snapshot["draw_pile"])


def _shortage_wish(bo_cash: int) -> monopoly.PropertyGame:
    """Three houses left; Ann asked to build and wished for two; Bo (dark blues) answers."""
    game = monopoly.new_game("classic", 3, seed=0, options={"roll_for_first_player": False})
    for sq, p in ((1, 0), (3, 0), (37, 1), (39, 1)):
        game.owner[sq] = p  # set up directly, as the rule scenarios do
    game.houses_left = 3
    game.cash[1] = bo_cash
    game.apply(monopoly.Build(0, 1))
    game.apply(monopoly.WishBuildings(0, 2))
    assert game.pending.kind == "building_wish" and game.pending.player == 1
    return game


@pytest.mark.parametrize(
    ("bo_cash", "wanted"), [(1500, 3), (150 + 2 * 200, 2), (150 + 200, 1)]
)  # the heuristic keeps 10% of the starting cash ($150) back when building
def test_heuristic_wishes_for_what_its_building_budget_pays(bo_cash: int, wanted: int) -> None:
    game = _shortage_wish(bo_cash)
    assert MonopolyHeuristicBot(1).choose(game, 1) == monopoly.WishBuildings(1, wanted)


@pytest.mark.parametrize("kind", ["random", "heuristic", "offering", "search"])
def test_every_bot_answers_a_shortage_wish_and_plays_on(kind: str) -> None:
    game = _shortage_wish(1500)
    bot = make_bot("monopoly", kind, 3, **(TINY if kind == "search" else {}))
    action = bot.choose(game, 1)
    assert isinstance(action, monopoly.WishBuildings) and game.is_legal(action)
    bots: list[Bot] = [
        make_bot("monopoly", kind, p, **(TINY if kind == "search" else {})) for p in range(3)
    ]
    assert play(game, bots, 60) > 0


def _choose_by_kinds(bot: RandomBot, game: Any, player: int) -> Any:
    """The random bot's choice as it was written first: every action grouped by kind, then a
    kind and an action of it drawn (what the bot's shortcut for lists of distinct kinds keeps)."""
    rng = bot.rng
    actions = []
    if rng.random() >= bot.anytime_rate:
        actions = game.legal_actions(player, anytime=False)
    if not actions:
        actions = game.legal_actions(player)
    kinds: dict[type, list[Any]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    return rng.choice(kinds[rng.choice(list(kinds))])


@pytest.mark.parametrize("family", ["monopoly", "tools"])
def test_random_bot_draws_as_its_grouping_by_kinds_does(family: str) -> None:
    # The same choices and the same generator state after each (the same seeds, the same games).
    game: Any = (
        monopoly.new_game("classic", 4, 21) if family == "monopoly" else tools.new_game(3, 21)
    )
    bot, twin = RandomBot(5, anytime_rate=0.3), RandomBot(5, anytime_rate=0.3)
    shortcuts = 0
    for _ in range(1500):
        if game.is_over:
            break
        p = game.pending.player
        kinds = {type(a) for a in game.legal_actions(p, anytime=False)}
        shortcuts += len(kinds) == len(game.legal_actions(p, anytime=False))
        action = bot.choose(game, p)
        assert action == _choose_by_kinds(twin, game, p)
        assert bot.rng.getstate() == twin.rng.getstate()
        game.apply(action)
    assert shortcuts > 100


def test_random_bots_draw_is_the_generators_choice() -> None:
    # ``_pick`` (and the draws ``choose`` makes inline) take what ``random.Random.choice`` takes:
    # the same item and the same generator state after, for every length a listing may have.
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (*range(1, 70), 127, 128, 129, 600):
            items = list(range(n))
            assert _pick(ours, items) == theirs.choice(items)
            assert ours.getstate() == theirs.getstate()
