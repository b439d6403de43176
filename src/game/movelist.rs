//! A fixed-capacity move list: moves are generated into it without heap allocation.

use std::ops::{Deref, DerefMut};

/// Up to `N` moves stored inline (an array plus a length). Generation pushes into it;
/// it derefs to a slice for ordering and iteration.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self {
            moves: [M::default(); N],
            len: 0,
        }
    }
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a move. Capacity `N` is the game's proven maximum, so overflow is a bug:
    /// it panics in debug builds and is checked by slice indexing in release.
    #[inline]
    pub fn push(&mut self, m: M) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The capacity `N`.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<M: Copy + Default, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M: Copy + Default, const N: usize> DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
