//! Squares `a1`..`h8` and their bit indices.

use std::fmt;

/// A square of the 8x8 board. Bit index = (rank-1)*8 + file: `a1` = 0, `h1` = 7, `h8` = 63
/// (rank 1 is the top row, the convention of Edax, NBoard and the FFO suite).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index` (0..64).
    ///
    /// # Panics
    /// If `index >= 64` (a programming error).
    #[must_use]
    pub const fn new(index: u8) -> Self {
        assert!(index < 64);
        Self(index)
    }

    /// The square of file `file` (0 = a) and rank `rank` (0 = rank 1), both 0..8.
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Self {
        Self::new(rank * 8 + file)
    }

    /// Bit index 0..64.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The single-bit mask of this square.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// File 0..8 (0 = a).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1, the top row).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Parses `a1`..`h8`, case-insensitive; `None` if `text` is not a square name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Self::from_coords(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64 {
            let s = Square::new(i);
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("H1").unwrap().index(), 7);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        assert_eq!(Square::parse("d5").unwrap().index(), 35);
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }
}
