//! Random playouts: `n` games of uniformly random legal moves from the start, in parallel,
//! each seat's points written out (the game's own playout sampler, as MCTS uses it).
//! Playout `i` depends only on `(seed, i)`, never on the thread count.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::game::Game;

use super::returns;

/// Playouts longer than this many plies stop and count as draws (Quixo's random games can
/// cycle; Othello ends within 60 moves and passes, Talat within a few hundred).
pub const MAX_PLAYOUT_PLIES: usize = 2000;

/// A 64-bit mix of a master seed and an index (SplitMix64's finaliser), so nearby indices
/// draw unrelated streams.
#[must_use]
pub fn mix_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `out.len() / seats` random games of `G` from [`Game::start_seeded`] (seeded with
/// playout `i`'s seed) and writes each game's points (see [`returns::points`]) into its
/// `seats` values of `out`, game by game. Allocates nothing per playout.
///
/// # Panics
/// If `out.len()` is not a multiple of the number of seats.
pub fn random_playouts<G: Game>(seed: u64, out: &mut [f32]) {
    let seats = G::start().seats();
    assert_eq!(out.len() % seats, 0, "playout buffer");
    out.par_chunks_mut(seats)
        .enumerate()
        .with_min_len(64)
        .for_each(|(i, row)| {
            let s = mix_seed(seed, i as u64);
            let pos = G::start_seeded(s);
            let mut rng = StdRng::seed_from_u64(s);
            let outcome = pos.random_playout(&mut |n| rng.random_range(0..n), MAX_PLAYOUT_PLIES);
            let mut pts = [0.0f64; crate::game::MAX_SEATS];
            returns::points(&pos, outcome.as_ref(), &mut pts[..seats]);
            for (o, p) in row.iter_mut().zip(pts) {
                *o = p as f32;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{othello, quixo, talat};

    #[test]
    fn playouts_are_reproducible_and_score_like_tournaments() {
        let mut a = vec![0.0; 2 * 200];
        let mut b = vec![0.0; 2 * 200];
        random_playouts::<othello::Position>(7, &mut a);
        random_playouts::<othello::Position>(7, &mut b);
        assert_eq!(a, b);
        // Two-sided: the points sum to 1 and are 0, 1/2 or 1.
        for g in a.chunks(2) {
            assert_eq!(g[0] + g[1], 1.0);
            assert!([0.0, 0.5, 1.0].contains(&g[0]));
        }
        random_playouts::<othello::Position>(8, &mut b);
        assert_ne!(a, b);
        let mut q = vec![0.0; 4 * 50];
        random_playouts::<quixo::Quixo4p>(1, &mut q);
        for g in q.chunks(4) {
            assert_eq!(g[0], g[2]);
            assert_eq!(g[1], g[3]);
        }
        let mut t = vec![0.0; 3 * 50];
        random_playouts::<talat::Talat>(1, &mut t);
        for g in t.chunks(3) {
            assert!((g.iter().sum::<f32>() - 1.5).abs() < 1e-6, "{g:?}");
        }
    }
}
