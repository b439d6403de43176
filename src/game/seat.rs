//! Seats (who sits where at the table) and small per-seat containers.

use std::fmt;

/// The most seats any tessera game has (four-player Quixo).
pub const MAX_SEATS: usize = 4;

/// A seat at the table, numbered from 0 in the order of the game's rules file
/// (Othello: 0 = Black, 1 = White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, `0..seats`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A fixed-capacity per-seat container: one `T` for each of the game's `len()` seats
/// (at most [`MAX_SEATS`]), stored inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BySeat<T> {
    values: [T; MAX_SEATS],
    len: u8,
}

impl<T: Copy + Default> BySeat<T> {
    /// `seats` copies of `T::default()`.
    ///
    /// # Panics
    /// If `seats` is 0 or above [`MAX_SEATS`] (a programming error, not input).
    #[must_use]
    pub fn new(seats: usize) -> Self {
        assert!(
            (1..=MAX_SEATS).contains(&seats),
            "seat count {seats} out of range"
        );
        Self {
            values: [T::default(); MAX_SEATS],
            len: seats as u8,
        }
    }

    /// Builds from a slice of per-seat values (1..=[`MAX_SEATS`] of them).
    #[must_use]
    pub fn from_slice(values: &[T]) -> Self {
        let mut s = Self::new(values.len());
        s.values[..values.len()].copy_from_slice(values);
        s
    }
}

impl<T> BySeat<T> {
    /// Number of seats.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: a game has at least one seat.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, one per seat, in seat order.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.values[..self.len as usize]
    }

    /// Iterates `(seat, value)` in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.as_slice()
            .iter()
            .enumerate()
            .map(|(i, v)| (Seat(i as u8), v))
    }
}

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.as_slice()[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        let len = self.len as usize;
        &mut self.values[..len][seat.index()]
    }
}
