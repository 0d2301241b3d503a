"""A Lumos game -> a PettingZoo AEC environment (the `pettingzoo` extra): one agent per side,
observations per agent (lumos.analysis.observation) with an action mask, and the returns as
rewards when the game ends.

Why AEC: Lumos games are sequential (one side decides at a time, OpenSpiel-style), which is what
PettingZoo's agent-environment cycle models. Actions are the game's fixed action space without
die faces, numbered densely (as in the OpenSpiel adapter), so the same id means the same option
in every game. Chance (dice, shuffles, questions) is not an agent: it is drawn from the game's
own generator, seeded by `reset(seed=...)`, so a seed and the agents' actions fix the game.

>>> env = LumosEnv("snitch-snatcher")          # doctest: +SKIP
>>> from pettingzoo.test import api_test; api_test(env)   # doctest: +SKIP
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from lumos.analysis.observation import Layout
from lumos.api import load_game, new_game
from lumos.interpreter.options import action_space

MAX_DECISIONS = 100_000   # a game still running after this many decisions is truncated
CHANCE_LIMIT = 100_000


class LumosEnv(AECEnv):
    """A game as an AEC environment; `game` is a bundled id or a folder (or a compiled game)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, render_mode: str | None = None, max_decisions: int = MAX_DECISIONS):
        super().__init__()
        self.cg = load_game(game) if isinstance(game, str) else game
        self.metadata = dict(self.metadata, name=f"lumos_{self.cg.id.replace('-', '_')}_v0")
        keys = action_space(self.cg).keys
        self._player = [i for i, k in enumerate(keys) if k[0] != "chance"]
        self._dense = {s: d for d, s in enumerate(self._player)}
        self.layout = Layout(self.cg)
        self.render_mode, self.max_decisions = render_mode, max_decisions
        # `<side>_<number>`, as PettingZoo names agents (home_0, away_1; dark_arts -> darkarts_0)
        self.possible_agents = [f"{side.replace('_', '')}_{k}" for k, side in enumerate(self.cg.sides)]
        self._side_of = {a: k for k, a in enumerate(self.possible_agents)}
        n = len(self._player)
        obs = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)})
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seed = 0
        self.state = None

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    # ------------------------------------------------------------------ the cycle
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed = int(seed)
        self.state = new_game(self.cg, seed=self._seed, options=(options or {}).get("game"), forced="take")
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()
        self._select()

    def _settle(self) -> None:
        s = self.state
        for _ in range(CHANCE_LIMIT):
            if not s.is_chance_node():
                return
            s.apply_action(s.sample_chance())

    def _select(self) -> None:
        s = self.state
        if s.is_terminal():
            returns = s.returns()
            for k, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(returns[k])
                    self.terminations[a] = True
        elif s.st.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[s.current_player()]
            return
        self.agent_selection = self.agents[0]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        ids = self.state.legal_action_ids()
        action_id = self._player[int(action)]
        if action_id not in ids:
            raise ValueError(f"action {action} is not legal for {agent}; the action mask says which are")
        self.state.apply_action(ids.index(action_id))
        self._settle()
        self._select()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ what an agent sees
    def observe(self, agent):
        side = self._side_of[agent]
        mask = np.zeros(len(self._player), dtype=np.int8)
        s = self.state
        if not s.is_terminal() and s.current_player() == side:
            for i in s.legal_action_ids():
                mask[self._dense[i]] = 1
        return {"observation": np.asarray(self.layout.encode(s, side), dtype=np.float32), "action_mask": mask}

    def render(self):
        if self.render_mode == "ansi":
            return str(self.state)
        return None

    def close(self):
        self.state = None
