//! tessera: a game-AI engine for Othello, Quixo and Talat.
//!
//! Layers, bottom to top (`ARCHITECTURE.md` has what each may import and the rules,
//! checked by `tests/it/architecture.rs`):
//! - [`game`]: the game abstraction (seats, moves, outcomes, evaluation weight registries);
//! - [`games`]: the rules of each game on bitboards, its evaluation and its own solvers;
//! - [`search`]: game-agnostic search (alpha-beta with PVS, iterative deepening and a
//!   transposition table; MCTS; the multi-player searches);
//! - [`protocol`]: GTP (the wire format per game, and the server);
//! - [`engine`]: players, and each game's players put together (the registry by game);
//! - [`tournament`] and [`tuning`]: games between engines, and fitting weights;
//! - [`formats`]: game records other programs share (GGF);
//! - `cli` (binary only): the `tessera` command line.

pub mod engine;
pub mod formats;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod tournament;
pub mod tuning;
