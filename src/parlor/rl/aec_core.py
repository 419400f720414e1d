"""The per-step work of the PettingZoo AEC environment (``parlor.rl.aec``), apart from its class.

PettingZoo's ``AECEnv`` has no type information, so its subclass stays a Python class; what it
does at every step (apply the action, pay the rewards, mark the ends, choose the next agent, put
the masks in the infos, and ``last()``) is here, on the dicts the environment exposes, which this
object holds and updates in place (as PettingZoo's own ``_was_dead_step`` and ``_clear_rewards``
do): compiled with the table (setup.py), a step runs no bytecode of its own.
"""

from __future__ import annotations

from typing import Any

from parlor.rl.table import Table


class AECCore:
    """One environment's step over its table; ``bind`` gives it the dicts of each episode."""

    def __init__(self, table: Table, possible_agents: list[str]) -> None:
        self.table = table
        self.possible_agents = possible_agents
        self.seats = {a: p for p, a in enumerate(possible_agents)}
        # Whether the environment must call PettingZoo's _deads_step_first after the last step
        # (a seat newly out in a game going on: only the property games have those).
        self.deads_first = False
        self.bind([], {}, {}, {}, {}, {})

    def bind(
        self,
        agents: list[str],
        rewards: dict[str, float],
        cumulative: dict[str, float],
        terminations: dict[str, bool],
        truncations: dict[str, bool],
        infos: dict[str, dict[str, Any]],
    ) -> None:
        self.agents = agents
        self.rewards = rewards
        self.cumulative = cumulative
        self.terminations = terminations
        self.truncations = truncations
        self.infos = infos

    def last(self, agent: str, observe: bool) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return (
            self.table.observe(self.seats[agent]) if observe else None,
            self.cumulative[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, agent: str, action: Any) -> str | None:
        """Play ``action`` for ``agent`` and return the agent to move next; None (nothing done)
        when ``agent`` is dead (the environment steps it out through PettingZoo's base)."""
        terminations, truncations = self.terminations, self.truncations
        if terminations[agent] or truncations[agent]:
            return None
        seats, cumulative, table, agents = self.seats, self.cumulative, self.table, self.agents
        cumulative[agent] = 0.0
        rewards = table.act_id(seats[agent], action)
        paid = self.rewards
        # (PettingZoo's _accumulate_rewards, without its second dict walk)
        if len(agents) == len(rewards):  # everyone still in: the agents are the seats in order
            pays = False
            for p, a in enumerate(agents):
                r = rewards[p]
                paid[a] = r
                pays = pays or r != 0.0
            if pays:  # ("win_loss" pays nothing until the end: adding 0.0 changes no sum)
                for p, a in enumerate(agents):
                    cumulative[a] += rewards[p]
        else:
            for a in agents:
                r = rewards[seats[a]]
                paid[a] = r
                cumulative[a] += r
        decider = table.decider  # (None exactly when the episode is over)
        self.deads_first = False
        if decider is None:
            for a in agents:
                terminations[a] = not table.truncated or table.game.is_over
                truncations[a] = not terminations[a]
            if table.illegal_by is not None:
                self.infos[agent]["illegal_action"] = True
            selected = agent
        else:
            selected = self.possible_agents[decider]
            if table.seats_leave:  # (elsewhere nobody is terminated before the end)
                for a in agents:
                    if table.out(seats[a]):
                        terminations[a] = True
                self.deads_first = True
                return selected  # (the environment refreshes the infos after the dead's turn)
        self.refresh_infos(selected)
        return selected

    def refresh_infos(self, selected: str) -> None:
        """The mask in info is the observation's: only the agent to move has legal ids. Each
        info holds its own array (what an agent does to it changes nothing elsewhere)."""
        table, seats = self.table, self.seats
        for a, info in self.infos.items():  # (the agents' infos: PettingZoo drops a dead one's)
            info["action_mask"] = table.mask(seats[a]) if a == selected else table.no_mask.copy()
