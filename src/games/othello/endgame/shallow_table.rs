//! A small direct-mapped table for the null-window search below the main table (Edax's
//! shallow hash table): one per thread, small enough to stay in the core's cache.
//!
//! Below [`super::TT_MIN_EMPTIES`] the search is exact whatever the pass (no ProbCut), so
//! an entry's bounds are a property of the board alone: entries stay valid from one
//! search and one solve to the next, and the table is never cleared. An entry holds the
//! whole board (no key collisions), a lower and an upper bound and the best move.

use std::cell::RefCell;

/// Entries of a table, a power of two: 16 K of 24 bytes, 384 KiB (this machine's L2 is
/// 512 KiB per core). Measured with every node of 7-9 empties probing and storing (FFO #47,
/// callgrind, 1 thread): 2^13 entries 3,374.8 M instructions, 2^14 3,367.2 M, 2^15
/// 3,361.8 M; probing from 8 empties only 3,445.4 M, from 9 only 3,553.0 M (without the
/// table 3,656.9 M).
const ENTRIES: usize = 1 << 14;

/// One board's bounds (discs, the side to move's view) and best move (64: none known).
/// The empty entry's board (no discs) is never searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub p: u64,
    pub o: u64,
    pub lower: i8,
    pub upper: i8,
    pub mv: u8,
}

/// The table: a board's slot by a multiplicative hash of it.
pub(super) struct ShallowTable {
    entries: Box<[Entry; ENTRIES]>,
}

thread_local! {
    /// Each thread's table, allocated on the thread's first null-window search below the
    /// main table (a helper solver of a parallel split uses its thread's table).
    pub(super) static SHALLOW_TABLE: RefCell<Option<ShallowTable>> = const { RefCell::new(None) };
}

impl ShallowTable {
    /// An empty table.
    pub fn new() -> Self {
        let entries = vec![Entry::default(); ENTRIES]
            .into_boxed_slice()
            .try_into()
            .expect("ENTRIES entries");
        Self { entries }
    }

    /// The slot of (`p` to move, `o`): the top bits of a multiplicative hash.
    #[inline]
    pub fn slot(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> (64 - ENTRIES.trailing_zeros())) as usize
    }

    #[inline]
    pub fn entry(&self, slot: usize) -> &Entry {
        &self.entries[slot]
    }

    #[inline]
    pub fn entry_mut(&mut self, slot: usize) -> &mut Entry {
        &mut self.entries[slot]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_in_the_table_and_spread() {
        let mut seen = std::collections::HashSet::new();
        let mut x = 0x1234_5678_9ABC_DEF1_u64;
        for _ in 0..4096 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (p, o) = (x & 0x5555_5555_5555_5555, x & 0xAAAA_AAAA_0000_0000);
            let s = ShallowTable::slot(p, o);
            assert!(s < ENTRIES);
            seen.insert(s);
        }
        assert!(seen.len() > 3000, "{}", seen.len());
    }
}
