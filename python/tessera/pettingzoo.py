"""PettingZoo AEC environments for tessera's games: ``tessera.pettingzoo.env(game_id)``.

Agents are ``player_0`` .. ``player_{seats-1}`` in seat order (Othello: Black, White;
Quixo-4p: A1, B1, A2, B2). Each agent observes a dict: ``observation`` (the game's float32
planes from the view of the seat to move, see ``Game.observation``) and ``action_mask``
(int8 over the action space; all zeros for an agent not to move). Actions are indices of
the fixed action space (``Game.action_size()``). Rewards come at the end only: each seat's
tournament points mapped to [-1, 1] (``2 * points - 1``: win +1, draw 0, loss -1; in
three-player Talat a second place is 0). A game longer than ``max_cycles`` plies is
truncated for every agent, with no reward.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _tessera


def env(game_id: str, max_cycles: int = 1000, render_mode: Optional[str] = None) -> "TesseraAEC":
    """The AEC environment of ``game_id``."""
    return TesseraAEC(game_id, max_cycles=max_cycles, render_mode=render_mode)


class TesseraAEC(AECEnv):
    """A tessera game as a PettingZoo AEC environment (see the module docs)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tessera_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, max_cycles: int = 1000, render_mode: Optional[str] = None):
        super().__init__()
        self._game = _tessera.Game(game_id)
        self.game_id = game_id
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"tessera_{game_id.replace('-', '_')}_v0")
        seats = self._game.seats()
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        shape = tuple(self._game.observation_shape())
        n = self._game.action_size()
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def observe(self, agent: str) -> dict:
        obs = self._game.observation()
        mask = np.zeros(self._game.action_size(), dtype=np.int8)
        if not self._game.is_over() and self.agents and agent == self.agent_selection:
            mask = self._game.legal_mask().astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        position = (options or {}).get("position")
        self._game = _tessera.Game(self.game_id, position)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._game.to_move()]
        self._plies = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._game.play_action(int(action))
        self._plies += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self._game.is_over():
            for a, p in zip(self.possible_agents, self._game.returns()):
                self.rewards[a] = 2.0 * p - 1.0
                self.terminations[a] = True
        elif self._plies >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        if not self._game.is_over():
            self.agent_selection = self.possible_agents[self._game.to_move()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        text = f"{self.game_id} {self._game.position()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
