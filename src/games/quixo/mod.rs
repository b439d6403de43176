//! Quixo on 3x3, 4x4 and 5x5 boards, for two players (`quixo`) and four players in two
//! teams (`quixo-4p`): rules on bitboards, notation, Zobrist keys, perft.
//! Rules: `../shared/rules/quixo.md`.

pub mod geometry;
mod notation;
pub mod perft;
mod position;
pub mod prove;
pub mod retro;
pub mod zobrist;

pub use position::{MAX_MOVES, Move, Position, Quixo, Quixo4p};
