//! Fast two-player Quixo perft on raw masks, bulk-counting at the last ply.
//!
//! Convention of `../shared/data/quixo/solved.md`: perft counts move sequences (two moves
//! giving the same board count twice); a finished position (a line on the board) is a leaf
//! at every depth at or below it. The four-player game (whose cubes carry dots) goes
//! through the generic [`crate::game::perft::perft`].

use super::geometry::{Geometry, geometry_of};
use super::position::{Move, Position, Quixo};
use crate::game::Game;

impl<const FOUR: bool> crate::game::perft::Perft for Position<FOUR> {
    /// The fast two-player count; four players use the generic one ([`perft`] chooses by
    /// `FOUR`).
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// Leaves of the game tree `depth` plies below `pos`: the fast raw-mask count for two
/// players, the generic [`crate::game::perft::perft`] for four.
#[must_use]
pub fn perft<const FOUR: bool>(pos: &Position<FOUR>, depth: u32) -> u64 {
    if FOUR {
        return crate::game::perft::perft(pos, depth);
    }
    let (own, other) = pos.own_other();
    perft_raw(geometry_of(pos.size()), own, other, depth)
}

/// Perft on (`own` to move, `other`).
fn perft_raw(g: &Geometry, own: u32, other: u32, depth: u32) -> u64 {
    if depth == 0 || g.has_line(own) || g.has_line(other) {
        return 1;
    }
    let sources = g.border & !other;
    if depth == 1 {
        return u64::from(g.count_pushes(sources));
    }
    let mut n = 0;
    let mut s = sources;
    while s != 0 {
        let cell = s.trailing_zeros();
        s &= s - 1;
        for p in g.pushes_from(cell) {
            let mine = p.apply(own) | p.dst;
            n += perft_raw(g, p.apply(other), mine, depth - 1);
        }
    }
    n
}

/// Leaves below each root move, in generation order.
#[must_use]
pub fn divide(pos: &Quixo, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = <Quixo as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let n = if depth == 0 {
                1
            } else {
                perft(&pos.play(m), depth - 1)
            };
            (m, n)
        })
        .collect()
}

/// [`perft`] with the root moves shared among `threads` threads (rayon).
#[must_use]
pub fn perft_threads(pos: &Quixo, depth: u32, threads: usize) -> u64 {
    use rayon::prelude::*;
    if depth <= 2 || pos.outcome().is_some() {
        return perft(pos, depth);
    }
    let mut moves = <Quixo as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    let work: Vec<Quixo> = moves.iter().map(|&m| pos.play(m)).collect();
    let count = || work.par_iter().map(|c| perft(c, depth - 1)).sum();
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(count),
        Err(_) => count(),
    }
}
