//! Game-agnostic perft: count the leaves of the game tree to a fixed depth.

use super::Game;

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
