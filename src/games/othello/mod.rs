//! Othello (Reversi), 8x8: rules on two bitboards, notation, perft, evaluation and the exact
//! endgame solver. Rules: `docs/rules/othello.md`.

pub mod movegen;
pub mod perft;
mod position;
#[cfg(test)]
pub(crate) use position::random_game_positions;
mod square;
pub mod zobrist;

pub use position::{Color, MAX_MOVES, Move, Position};
pub use square::Square;
pub mod endgame;
pub mod eval;
pub mod ffo;
pub mod labels;
pub mod obf;
pub mod obf_batch;
pub mod patterns;
pub mod probcut;
pub mod stability;
pub mod symmetry;

/// Unit of Othello scores: hundredths of a disc of final disc difference.
pub const SCORE_UNIT: &str = "centi-discs";

/// Default largest number of empties the engine solves exactly instead of searching.
pub const DEFAULT_EXACT_EMPTIES: u32 = 20;
