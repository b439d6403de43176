"""Type stubs of tessera's native module (re-exported by ``tessera``)."""

from os import PathLike
from typing import Any, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

class PanicException(BaseException):
    """A Rust panic (a bug in tessera), raised instead of crashing the interpreter."""

class Found(TypedDict):
    move: Optional[str]
    score: int
    unit: str
    exact: bool
    depth: int
    nodes: int
    pv: list[str]

class Solved(TypedDict):
    value: str
    score: Optional[int]
    plies: Optional[int]
    move: Optional[str]
    pv: list[str]
    nodes: int

def game_ids() -> list[str]:
    """The game ids: othello, quixo, quixo-4p, talat, talat-2p."""

class Game:
    """A game of ``game_id`` from ``position`` (the game's one-line text) or the start.

    Raises ValueError for an unknown id or a malformed position."""

    def __init__(self, game_id: str, position: Optional[str] = None) -> None: ...
    @property
    def game_id(self) -> str: ...
    def seats(self) -> int: ...
    def legal_moves(self) -> list[str]:
        """Legal moves in the game's notation (empty when the game is over)."""
    def play(self, move: str) -> None:
        """Plays ``move``; ValueError with the game's message when malformed or illegal."""
    def play_action(self, action: int) -> None:
        """Plays the move of an action index; ValueError when out of range or illegal."""
    def undo(self) -> None:
        """Takes back the last move; ValueError when there is none."""
    def plies(self) -> int: ...
    def is_over(self) -> bool: ...
    def to_move(self) -> int:
        """The seat to move (0-based)."""
    def returns(self) -> Optional[list[float]]:
        """Each seat's tournament points (1 win, 0.5 draw, 0 loss for two sides) once over."""
    def scores(self) -> Optional[list[int]]:
        """Each seat's final score in the game's unit once over (Othello: discs)."""
    def position(self) -> str:
        """The position in the game's one-line form (accepted back by ``Game``)."""
    def clone(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def observation(self) -> npt.NDArray[np.float32]:
        """The observation planes (see docs/python.md for each game's planes)."""
    def observation_shape(self) -> list[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """Bool mask over the action space: True at each legal move's action."""
    def action_size(self) -> int: ...
    def move_to_action(self, move: str) -> int: ...
    def action_to_move(self, action: int) -> str: ...

class VecEnv:
    """``n`` games of ``game_id`` stepped together in Rust (threads: rayon's pool size;
    None: all cores). Finished games restart at once. ``n`` in 1..=2**24, ``seed`` in
    0..=2**64-1, ``max_plies`` in 1..=100000, ``threads`` in 1..=1024 (ValueError naming the
    argument otherwise)."""

    def __init__(
        self,
        game_id: str,
        n: int,
        seed: int = 0,
        max_plies: int = 1000,
        threads: Optional[int] = None,
    ) -> None: ...
    @property
    def game_id(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def observation_shape(self) -> list[int]: ...
    @property
    def action_size(self) -> int: ...
    @property
    def seats(self) -> int: ...
    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """``(observations (n, *shape), legal_masks (n, action_size))``."""
    def step(
        self, actions: Union[npt.ArrayLike, npt.NDArray[np.int64]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """One action per game: ``(observations, rewards (n, seats), dones (n,), legal_masks)``.

        TypeError for a non-integer dtype, ValueError for a wrong shape or an illegal
        action (naming the game)."""
    def to_move(self) -> npt.NDArray[np.int64]: ...
    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game, int64 ``(n,)``, drawn in Rust
        (reproducible from the seed, whatever the thread count)."""
    def position(self, i: int) -> str: ...

def random_playouts(
    game_id: str, n: int, seed: int = 0, threads: Optional[int] = None
) -> npt.NDArray[np.float32]:
    """``n`` random games (0..=2**24): each seat's points, shape ``(n, seats)``."""

def best_move(
    game_id: str,
    position: Optional[str] = None,
    level: Optional[int] = None,
    time_ms: Optional[int] = None,
    depth: Optional[int] = None,
    engine: Optional[str] = None,
) -> Found:
    """The engine's move. ``depth`` and ``level`` in 1..=60 (not both), ``time_ms`` at
    least 1 (ValueError otherwise). Ctrl-C stops the search: KeyboardInterrupt."""

def analyze(
    game_id: str,
    position: Optional[str] = None,
    level: Optional[int] = None,
    time_ms: Optional[int] = None,
    depth: Optional[int] = None,
    engine: Optional[str] = None,
) -> list[Found]:
    """Every legal move's score, best first; arguments as ``best_move``'s."""

def solve(
    game_id: str, position: str, time_ms: Optional[int] = None, max_plies: Optional[int] = None
) -> Solved:
    """An exact solve (``time_ms`` at least 1, Quixo ``max_plies`` in 1..=64). Ctrl-C stops
    it: KeyboardInterrupt."""

def engine_presets() -> list[str]: ...

class Engine:
    """An engine kept between moves: a preset name, a .toml path or an inline spec."""

    def __init__(
        self,
        game_id: str,
        engine: Optional[str] = None,
        level: Optional[int] = None,
        time_ms: Optional[int] = None,
        depth: Optional[int] = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def game_id(self) -> str: ...
    def new_game(self) -> None: ...
    def choose(self, position: Optional[str] = None) -> Found: ...

def read_selfplay(game_id: str, path: Union[str, PathLike[str]]) -> dict[str, Any]:
    """A self-play data file: obs, to_move, result, exact, has_exact, positions[, scores].
    ValueError for a bad line or a file without positions."""

def read_records(path: Union[str, PathLike[str]], positions: bool = False) -> dict[str, Any]:
    """A tournament folder (``tournament --out DIR``, or its ``games.jsonl``), checked as
    ``tournament report`` checks it: game, engines, reason, start, moves, points, ranks,
    scores, has_scores, plies[, obs, obs_game, obs_to_move, obs_points]."""

def _panic_for_test(message: str) -> None: ...
