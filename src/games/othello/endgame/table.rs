//! The solver's table entries: a lower and an upper bound on the node's value, the best
//! move and the depth byte ([`super::ladder::tt_depth`]: empties and selectivity), packed
//! into the shared transposition table's raw data (Edax's hash entries keep both bounds).
//!
//! A result with the same depth byte as the stored one narrows its bounds; a deeper (more
//! exact) one replaces them; a shallower one leaves a more exact entry alone. A fail-low
//! result keeps the stored move (or stores none): its best move is only the one with the
//! highest fail-soft upper bound, not a move known to be good (Edax's hash update).

use super::Solver;
use super::ladder::tt_depth;

/// What the table holds for a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    /// The value is at least this (discs; -64 when nothing is known).
    pub lower: i32,
    /// The value is at most this (discs; 64 when nothing is known).
    pub upper: i32,
    /// The best move's square; 64 when none is known.
    pub mv: usize,
    /// Depth byte of the pass that found the bounds ([`tt_depth`]).
    pub depth: u8,
}

/// Raw layout: square in bits 0..8, lower + 64 in 8..16, upper + 64 in 16..24, the depth byte
/// in 32..40 (where the table reads its replacement depth). Never zero: the depth byte of a
/// stored node is at least its empties.
fn pack(b: &Bounds) -> u64 {
    b.mv as u64
        | ((b.lower + 64) as u64) << 8
        | ((b.upper + 64) as u64) << 16
        | u64::from(b.depth) << 32
}

fn unpack(d: u64) -> Bounds {
    Bounds {
        mv: (d & 0xFF) as usize,
        lower: ((d >> 8) & 0xFF) as i32 - 64,
        upper: ((d >> 16) & 0xFF) as i32 - 64,
        depth: (d >> 32) as u8,
    }
}

impl Solver<'_> {
    /// The bounds stored for the node with table key `key`, if any.
    #[inline]
    pub(super) fn tt_probe(&self, key: u64) -> Option<Bounds> {
        self.tt.probe_raw(key).map(unpack)
    }

    /// Stores the fail-soft result `best` of a search of the node `key` (`n_empty` empties)
    /// with window (`alpha`, `beta`) and best move `mv`: a lower bound when `best > alpha`,
    /// an upper bound when `best < beta` (both: exact). A fail-low (`best <= alpha`) keeps
    /// the move stored for the node, whatever its pass, or stores none (64).
    ///
    /// Measured alone on FFO #40, #42, #43, #44: 96.1 M -> 95.8 M nodes (1 thread).
    #[inline]
    pub(super) fn tt_store(
        &self,
        key: u64,
        n_empty: u32,
        (alpha, beta): (i32, i32),
        best: i32,
        mv: usize,
    ) {
        let depth = tt_depth(n_empty, self.level);
        let mut b = Bounds {
            lower: -64,
            upper: 64,
            mv,
            depth,
        };
        let old = self.tt_probe(key);
        if best <= alpha {
            b.mv = old.map_or(64, |old| old.mv);
        }
        if let Some(old) = old {
            if old.depth > depth {
                return;
            }
            if old.depth == depth {
                b.lower = old.lower;
                b.upper = old.upper;
            }
        }
        if best > alpha {
            b.lower = b.lower.max(best);
        }
        if best < beta {
            b.upper = b.upper.min(best);
        }
        self.tt.store_raw(key, pack(&b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    #[test]
    fn results_of_the_same_pass_narrow_the_bounds_and_a_less_exact_one_is_ignored() {
        let tt = TranspositionTable::new(1);
        let mut s = Solver::new(&tt, &Limits::default());
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(s.tt_probe(key), None);
        // Fail-high at 12 in (-10, 10): at least 12.
        s.tt_store(key, 20, (-10, 10), 12, 5);
        let b = s.tt_probe(key).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (12, 64, 5));
        // Fail-low at 18 in (20, 21): at most 18, the lower bound and the move kept.
        s.tt_store(key, 20, (20, 21), 18, 7);
        let b = s.tt_probe(key).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (12, 18, 5));
        // A selective pass (level 1) or fewer empties: less exact, the entry stays.
        s.level = 1;
        s.tt_store(key, 20, (-64, 64), 0, 9);
        s.level = 0;
        s.tt_store(key, 19, (-64, 64), 0, 9);
        assert_eq!(s.tt_probe(key).map(|b| (b.lower, b.upper)), Some((12, 18)));
        // An exact result of the same pass: both bounds.
        s.tt_store(key, 20, (12, 18), 14, 3);
        let b = s.tt_probe(key).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (14, 14, 3));
        // A more exact pass replaces the bounds of a selective one.
        let key2 = key ^ 1;
        s.level = 2;
        s.tt_store(key2, 20, (0, 1), 30, 1);
        s.level = 0;
        s.tt_store(key2, 20, (0, 1), -4, 2);
        let b = s.tt_probe(key2).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (-64, -4, 1));
        // A fail-low of a node with no entry stores no move; a later fail-high stores its own.
        let key3 = key ^ 2;
        s.tt_store(key3, 20, (0, 1), -4, 2);
        let b = s.tt_probe(key3).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (-64, -4, 64));
        s.tt_store(key3, 20, (-10, -9), -6, 3);
        let b = s.tt_probe(key3).expect("stored");
        assert_eq!((b.lower, b.upper, b.mv), (-6, -4, 3));
    }

    #[test]
    fn bounds_round_trip_through_the_packing() {
        for (lower, upper, mv, depth) in [(-64, 64, 64, 11), (-2, 6, 0, 250), (64, 64, 63, 20)] {
            let b = Bounds {
                lower,
                upper,
                mv,
                depth,
            };
            assert_eq!(unpack(pack(&b)), b);
        }
    }
}
