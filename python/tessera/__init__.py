"""tessera: Othello, Quixo (2 and 4 players) and Talat (3 players and 2 with the Djinn) for
Python, with tessera's engines and exact solvers.

Everything runs in the Rust library (rules, scores, engines, data readers); this package is
a thin binding. Games are named by id: ``othello``, ``quixo``, ``quixo-4p``, ``talat``,
``talat-2p`` (``game_ids()``). Moves and positions are text exactly as the ``tessera``
command line writes them. See docs/python.md for a tour.

- ``Game``: one game with ``legal_moves``, ``play``, ``undo``, ``returns``, ``observation``
  and ``legal_mask`` over a fixed action space;
- ``VecEnv`` and ``random_playouts``: many games stepped in Rust without the GIL;
- ``best_move``, ``analyze``, ``solve``, ``Engine``: tessera's engines and solvers;
- ``read_selfplay``, ``read_records``: tessera's data files as numpy arrays;
- ``tessera.pettingzoo.env(game_id)``: a PettingZoo AEC environment;
- ``tessera.gym.SingleAgentEnv``: a Gymnasium environment against a tessera engine.

Bad input raises ``ValueError`` (with the command line's one-line message), ``TypeError``
or ``OSError``; a Rust panic (a bug) raises ``tessera.PanicException``.
"""

from ._tessera import (
    Engine,
    Game,
    PanicException,
    VecEnv,
    analyze,
    best_move,
    engine_presets,
    game_ids,
    random_playouts,
    read_records,
    read_selfplay,
    solve,
)

__version__ = "0.1.0"

__all__ = [
    "Engine",
    "Game",
    "PanicException",
    "VecEnv",
    "analyze",
    "best_move",
    "engine_presets",
    "game_ids",
    "random_playouts",
    "read_records",
    "read_selfplay",
    "solve",
]
