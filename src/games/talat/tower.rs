//! Towers: 3 shapes x 3 heights, and the capture-strength table of the rules file
//! (`docs/rules/talat.md`, "Towers").

use std::fmt;

/// A tower shape; its number of sides decides captures between towers of equal height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    /// Triangle `T`, 3 sides.
    Triangle = 0,
    /// Square `S`, 4 sides.
    Square = 1,
    /// Hexagon `H`, 6 sides.
    Hexagon = 2,
}

impl Shape {
    /// The three shapes in index order.
    pub const ALL: [Shape; 3] = [Shape::Triangle, Shape::Square, Shape::Hexagon];

    /// Number of sides: 3, 4 or 6.
    #[must_use]
    pub const fn sides(self) -> u32 {
        match self {
            Shape::Triangle => 3,
            Shape::Square => 4,
            Shape::Hexagon => 6,
        }
    }

    /// `T`, `S` or `H`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Shape::Triangle => 'T',
            Shape::Square => 'S',
            Shape::Hexagon => 'H',
        }
    }
}

/// A tower kind: one shape and one height (1 small, 2 medium, 3 large). Every player has
/// exactly one tower of each of the 9 kinds, so a kind names a tower of a given colour.
///
/// Index `0..9` = `(height - 1) * 3 + shape`: `T1 S1 H1 T2 S2 H2 T3 S3 H3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Kind(u8);

impl Kind {
    /// Number of kinds.
    pub const COUNT: usize = 9;
    /// The small triangle ("David").
    pub const T1: Kind = Kind(0);
    /// The large hexagon ("Goliath").
    pub const H3: Kind = Kind(8);

    /// The kind of index `i` (`0..9`).
    ///
    /// # Panics
    /// If `i >= 9` (a programming error).
    #[must_use]
    pub const fn from_index(i: usize) -> Self {
        assert!(i < 9, "tower kind index out of range");
        Kind(i as u8)
    }

    /// The kind of `shape` and `height` (`1..=3`).
    ///
    /// # Panics
    /// If `height` is not 1, 2 or 3.
    #[must_use]
    pub const fn new(shape: Shape, height: u8) -> Self {
        assert!(height >= 1 && height <= 3, "tower height out of range");
        Kind((height - 1) * 3 + shape as u8)
    }

    /// Index `0..9`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Height 1, 2 or 3.
    #[must_use]
    pub const fn height(self) -> u8 {
        self.0 / 3 + 1
    }

    /// The shape.
    #[must_use]
    pub const fn shape(self) -> Shape {
        match self.0 % 3 {
            0 => Shape::Triangle,
            1 => Shape::Square,
            _ => Shape::Hexagon,
        }
    }

    /// Number of sides of the shape.
    #[must_use]
    pub const fn sides(self) -> u32 {
        self.shape().sides()
    }

    /// Whether a tower of this kind may capture an opposing tower of kind `d` (rules file):
    /// same height and more sides; exactly one level taller; or `T1` takes `H3`.
    #[must_use]
    pub const fn captures(self, d: Kind) -> bool {
        CAPTURES[self.0 as usize] >> d.0 & 1 != 0
    }

    /// All 9 kinds in index order.
    pub fn all() -> impl Iterator<Item = Kind> {
        (0..9u8).map(Kind)
    }

    /// Parses `T1`..`H3` (shape letter, case-insensitive, then height).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let shape = match b[0].to_ascii_uppercase() {
            b'T' => Shape::Triangle,
            b'S' => Shape::Square,
            b'H' => Shape::Hexagon,
            _ => return None,
        };
        match b[1] {
            b'1'..=b'3' => Some(Kind::new(shape, b[1] - b'0')),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.shape().letter(), self.height())
    }
}

/// The rule for one ordered pair, computed from the definition (the source of
/// [`CAPTURES`]).
const fn rule(a: u8, d: u8) -> bool {
    let (ha, hd) = (a / 3, d / 3);
    let (sa, sd) = (a % 3, d % 3); // shape index order = order of sides (3 < 4 < 6)
    (ha == hd && sa > sd) || ha == hd + 1 || (a == 0 && d == 8)
}

/// The 9x9 capture table: bit `d` of `CAPTURES[a]` is set when a tower of kind index `a`
/// may capture an opposing tower of kind index `d` (indices as in [`Kind`]). Tested cell by
/// cell against the rules text in `tests/it/talat/rules.rs`.
///
/// ```text
///          victim: T1 S1 H1 T2 S2 H2 T3 S3 H3
/// T1               .  .  .  .  .  .  .  .  x   (David and Goliath)
/// S1               x  .  .  .  .  .  .  .  .
/// H1               x  x  .  .  .  .  .  .  .
/// T2               x  x  x  .  .  .  .  .  .
/// S2               x  x  x  x  .  .  .  .  .
/// H2               x  x  x  x  x  .  .  .  .
/// T3               .  .  .  x  x  x  .  .  .
/// S3               .  .  .  x  x  x  x  .  .
/// H3               .  .  .  x  x  x  x  x  .
/// ```
pub const CAPTURES: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut a = 0;
    while a < 9 {
        let mut d = 0;
        while d < 9 {
            if rule(a as u8, d as u8) {
                t[a] |= 1 << d;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// Whether kinds `a` and `b` have a capture relation either way.
#[must_use]
pub const fn related(a: Kind, b: Kind) -> bool {
    a.captures(b) || b.captures(a)
}
