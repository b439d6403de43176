"""A Gymnasium environment: one seat of a tessera game against tessera engines in the
other seats, ``tessera.gym.SingleAgentEnv(game_id, opponent="othello-ab-d1")``.

Observations are the game's float32 planes (from the agent's view when it is to move),
actions the fixed action space's indices; the legal mask is in ``info["action_mask"]``
(bool) after ``reset`` and every ``step``. The reward comes at the end: the agent's
tournament points mapped to [-1, 1] (``2 * points - 1``). An illegal action raises
``ValueError`` with the game's message, or with ``illegal="lose"`` ends the episode with
reward -1 (for generic agents and checkers that sample the whole action space).
``action_masks()`` gives the legal mask (the sb3-contrib ``MaskablePPO`` convention).
``truncated`` is set after ``max_plies`` plies.
"""

from __future__ import annotations

import operator
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _tessera


class SingleAgentEnv(gymnasium.Env):
    """The agent plays seat ``seat``; the engine ``opponent`` (a preset name, a .toml path or
    an inline spec; None: the game's default engine) with ``depth``/``time_ms``/``level``
    plays every other seat."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        opponent: Optional[str] = None,
        seat: int = 0,
        depth: Optional[int] = None,
        time_ms: Optional[int] = None,
        level: Optional[int] = None,
        max_plies: int = 1000,
        illegal: str = "raise",
        render_mode: Optional[str] = None,
    ):
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.game_id = game_id
        self._game = _tessera.Game(game_id)
        if not 0 <= seat < self._game.seats():
            raise ValueError(f"seat {seat} is outside 0..{self._game.seats()} for {game_id}")
        self.seat = seat
        self._engine = _tessera.Engine(game_id, engine=opponent, level=level, time_ms=time_ms, depth=depth)
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=tuple(self._game.observation_shape()), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self._game.action_size())

    def _opponents_move(self) -> None:
        while not self._game.is_over() and self._game.to_move() != self.seat:
            found = self._engine.choose(self._game.position())
            self._game.play(found["move"])

    def _result(self) -> tuple[np.ndarray, dict]:
        return self._game.observation(), {"action_mask": self._game.legal_mask(), "position": self._game.position()}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self._game = _tessera.Game(self.game_id, (options or {}).get("position"))
        self._engine.new_game()
        self._opponents_move()
        return self._result()

    def action_masks(self) -> np.ndarray:
        """The legal mask of the position the agent is to move in."""
        return self._game.legal_mask()

    def step(self, action: Any):
        # An integer (Python or numpy); a float is a TypeError, not truncated.
        action = operator.index(action)
        if self.illegal == "lose":
            mask = self._game.legal_mask()
            if not (0 <= action < len(mask) and mask[action]):
                obs, info = self._result()
                info["illegal_action"] = action
                return obs, -1.0, True, False, info
        self._game.play_action(action)
        self._opponents_move()
        obs, info = self._result()
        terminated = self._game.is_over()
        reward = 2.0 * self._game.returns()[self.seat] - 1.0 if terminated else 0.0
        truncated = not terminated and self._game.plies() >= self.max_plies
        return obs, reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        return f"{self.game_id} {self._game.position()}"
