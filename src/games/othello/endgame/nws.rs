//! Null-window search between the parity-ordered last empties and the transposition table
//! (more than [`SHALLOW_EMPTIES`], fewer than [`TT_MIN_EMPTIES`] empties): Edax's
//! `NWS_endgame` without the hash.
//!
//! The general [`Solver::search`] pays at every node for what only deep nodes use (the
//! table's move, enhanced transposition cut-off, ProbCut, the parallel split, the
//! re-search of PVS, a 32-move list). Here a node with window (`alpha`, `alpha + 1`)
//! generates its moves once, orders them fastest first with the same key
//! ([`order_key`](super::order::order_key): the same node counts) and searches each with
//! the same null window; a child below the table gets its legal moves from its key.
//!
//! Measured and not kept (stop 21, AMD EPYC Zen 3, 512 KiB L2 per core): a small
//! direct-mapped table per thread for these nodes (Edax's shallow hash: 16 K entries of 24
//! bytes, the whole board, both bounds, the best move; probed and stored at 7-9 empties).
//! FFO #40-#49 nodes 572.7 M -> 496.9 M (-13.2 %; 599.7 M -> 518.2 M before the enhanced
//! transposition cut-off's ordering bonus) and callgrind instructions #47 -8 %, but CPU-s
//! on #45 + #48 + #49 (1 thread, idle, 6 series interleaved) rose: means 34.0 -> 35.9 s,
//! minima 32.3 -> 33.8 s (the probes' cache misses; 2^12 entries: 33.5 / 34.2 s, no
//! better).

use super::order::order_key_with_moves;
use super::parity::{QUADRANT_BIT, QUADRANT_MASKS, parity_of};
use super::stability_cut::{STABILITY_THRESHOLD, stability_cap};
use super::{SHALLOW_EMPTIES, Solver};
use crate::games::othello::movegen::{flips, legal_moves, legal_moves_x4};
use crate::games::othello::position::final_score;

/// Most moves a node below the table can have: one per empty square.
const MAX_MOVES: usize = 16;

impl Solver<'_> {
    /// Exact value of (`p` to move, `o`) against the null window (`alpha`, `alpha + 1`),
    /// fail-soft: a result `<= alpha` is an upper bound, `> alpha` a lower bound.
    /// `n_empty` is the number of empty squares, above [`SHALLOW_EMPTIES`] and below
    /// [`MAX_MOVES`]; no table is read or written.
    pub(super) fn nws_below_tt(&mut self, p: u64, o: u64, alpha: i32, n_empty: u32) -> i32 {
        self.nws_with_moves(p, o, legal_moves(p, o), alpha, n_empty)
    }

    /// [`Solver::nws_below_tt`] given `moves`, the legal moves of `p` (a parent below the
    /// table computed them for this child's ordering key).
    fn nws_with_moves(&mut self, p: u64, o: u64, moves: u64, alpha: i32, n_empty: u32) -> i32 {
        debug_assert!(n_empty > SHALLOW_EMPTIES && (n_empty as usize) < MAX_MOVES);
        debug_assert_eq!(moves, legal_moves(p, o));
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if moves == 0 {
            let theirs = legal_moves(o, p);
            if theirs != 0 {
                return -self.nws_with_moves(o, p, theirs, -alpha - 1, n_empty);
            }
            return final_score(p, o);
        }
        if alpha >= STABILITY_THRESHOLD[n_empty as usize]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }

        let empty = !(p | o);
        let parity = parity_of(empty);
        let odd = QUADRANT_MASKS[parity as usize];
        // The children, then their legal moves four at a time (each child's `replies`
        // serve its ordering key and its own node when it is below the table too).
        let mut squares = [0usize; MAX_MOVES];
        let mut cps = [0u64; MAX_MOVES];
        let mut cos = [0u64; MAX_MOVES];
        let mut n = 0;
        let mut bits = moves;
        while bits != 0 && n < MAX_MOVES {
            let sq = bits.trailing_zeros() as usize & 63;
            bits &= bits - 1;
            let f = flips(p, o, sq);
            squares[n] = sq;
            cps[n] = o ^ f;
            cos[n] = p ^ f ^ (1 << sq);
            n += 1;
        }
        let mut replies = [0u64; MAX_MOVES];
        let mut c = 0;
        while c < n {
            // Four children per vector; one or two left over are cheaper one by one.
            if n - c >= 3 && c + 4 <= MAX_MOVES {
                let at = c..c + 4;
                let m = legal_moves_x4(
                    cps[at.clone()].try_into().expect("four children"),
                    cos[at.clone()].try_into().expect("four children"),
                );
                replies[at].copy_from_slice(&m);
                c += 4;
            } else {
                replies[c] = legal_moves(cps[c], cos[c]);
                c += 1;
            }
        }
        // Each entry: the ordering key times 16 plus the move's index.
        let mut keys = [0i32; MAX_MOVES];
        for i in 0..n {
            let key = order_key_with_moves(replies[i], cps[i], cos[i], squares[i], odd);
            keys[i] = key * 16 + i as i32;
        }

        let mut best = -65;
        for i in 0..n {
            // Selection of the lowest key left (the first of equal keys in the array, as
            // `search` does: the index bits do not take part).
            let mut j = i;
            for k in i + 1..n {
                if keys[k] >> 4 < keys[j] >> 4 {
                    j = k;
                }
            }
            keys.swap(i, j);
            let at = (keys[i] & 15) as usize;
            let (sq, cp, co) = (squares[at] & 63, cps[at], cos[at]);
            let v = if n_empty - 1 > SHALLOW_EMPTIES {
                -self.nws_with_moves(cp, co, replies[at], -alpha - 1, n_empty - 1)
            } else {
                -self.search_shallow(
                    cp,
                    co,
                    -alpha - 1,
                    -alpha,
                    n_empty - 1,
                    parity ^ QUADRANT_BIT[sq],
                )
            };
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{minimax, random_endgames};
    use super::super::{SHALLOW_EMPTIES, Solver, TT_MIN_EMPTIES};
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// Fail-soft against minimax in every null window from -65 to 64, on random positions
    /// with every number of empties the routine serves (3 positions each).
    #[test]
    fn nws_below_tt_is_fail_soft_in_every_null_window() {
        let tt = TranspositionTable::new(1);
        let mut s = Solver::new(&tt, &Limits::default());
        for empties in SHALLOW_EMPTIES + 1..TT_MIN_EMPTIES {
            for pos in random_endgames(0x0A11_0000 + u64::from(empties), empties, 3) {
                let exact = minimax(&pos);
                for alpha in -65..=64 {
                    let v = s.nws_below_tt(pos.player(), pos.opponent(), alpha, empties);
                    let ok = if v <= alpha { exact <= v } else { exact >= v };
                    assert!(ok, "{v} against alpha {alpha}, exact {exact}: {pos}");
                }
            }
        }
    }
}
