//! tessera: a game-AI engine for Othello, Quixo and Talat.
//!
//! Layers, top to bottom (calls flow up, data flows down):
//! - [`game`]: the game abstraction (seats, moves, outcomes, Zobrist keys);
//! - [`games`]: the rules of each game on bitboards;
//! - [`search`]: game-agnostic search (negamax alpha-beta with PVS, iterative deepening and a
//!   transposition table);
//! - `cli` (binary only): the `tessera` command line.

pub mod engine;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod tournament;
pub mod tuning;
