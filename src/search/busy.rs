//! The positions other threads are searching now, for ABDADA-style work sharing in a
//! multi-threaded alpha-beta search (Weill, "The ABDADA distributed minimax search
//! algorithm", 1996; the simplified form with a small hash set of keys, as in
//! Stockfish's 2017 "breadcrumbs" and later engines).
//!
//! A thread about to search a node's second or later move looks the child up: when
//! another thread is inside that child, it defers the move to the end of the node's list
//! and searches the others first; by the time it comes back, the table often holds the
//! other thread's result. The first move of a node is never deferred (young brothers
//! wait), so the threads split a node's later moves between them.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table; a power of two. 16 K slots x 8 bytes: 128 KiB, in the L2 cache.
const SLOTS: usize = 1 << 14;

/// A lossy, lock-free set of Zobrist keys of positions being searched, one key per slot
/// (a key that collides with a busy slot is simply not marked: deferring is a heuristic).
#[derive(Debug)]
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BusyTable {
    /// An empty table (128 KiB).
    #[must_use]
    pub fn new() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The high bits: the transposition table indexes by the low ones.
        &self.slots[(key >> 50) as usize & (SLOTS - 1)]
    }

    /// Whether another thread has marked `key` (a key of 0 is never busy).
    #[inline]
    #[must_use]
    pub fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched; `false` when its slot holds another key (then
    /// nothing is marked and [`BusyTable::leave`] must not be called).
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Clears the mark [`BusyTable::enter`] set for `key`.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_key_is_busy_until_left() {
        let t = BusyTable::new();
        let k = 0x1234_5678_9abc_def1;
        assert!(!t.is_busy(k));
        assert!(t.enter(k));
        assert!(t.is_busy(k));
        // A second key in the same slot is not marked and does not clear the first.
        let other = k ^ 1;
        assert!(!t.enter(other));
        assert!(!t.is_busy(other));
        t.leave(other);
        assert!(t.is_busy(k));
        t.leave(k);
        assert!(!t.is_busy(k));
        // Key 0 (an empty slot) is never busy.
        assert!(!t.enter(0));
        assert!(!t.is_busy(0));
    }
}
