//! Perft for Talat: the generic [`crate::game::perft::perft`] does the counting (placements
//! and passes are plies; a finished game is a leaf at every depth below it); this adds the
//! per-move split.

use super::moves::Move;
use super::position::{Moves, Position};
use crate::game::perft::perft;

/// Talat counts with the generic perft.
impl<const TWO: bool> crate::game::perft::Perft for Position<TWO> {}

/// `(move, leaves)` for every legal move of `pos`, in generation order, `depth >= 1`
/// counting the move itself.
#[must_use]
pub fn divide<const TWO: bool>(pos: &Position<TWO>, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Moves::default();
    pos.generate(&mut moves);
    moves
        .iter()
        .map(|&m| (m, perft(&pos.apply(m), depth.saturating_sub(1))))
        .collect()
}
