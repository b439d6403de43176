//! Game-agnostic perft: count the leaves of the game tree to a fixed depth; [`Perft`], a
//! game's own (faster) count where it has one.

use super::Game;

/// A game's perft: its fast leaf count where it has one (Othello's bitboards, two-player
/// Quixo's raw masks), else the generic [`perft`]. Each game implements it in its
/// `perft.rs`; front ends (`tessera perft`) call it through this trait.
pub trait Perft: Game {
    /// Leaves of the game tree `depth` plies below `self`, counted as [`perft`] counts them.
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// Number of leaves of the tree cut at `depth` plies below `pos`. Every move, a pass
/// included, consumes a ply; a finished game is a leaf at every depth at or below it
/// ("mode 1" of `tests/data/othello/perft.txt`). Bulk-counts at the last ply.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
}
