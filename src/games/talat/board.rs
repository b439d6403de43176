//! Boards, colours, sides and squares, with the step and capture geometry as bit masks.
//!
//! A board is a 5x5 grid of squares `a1`..`e5`; square index `(row - 1) * 5 + file`
//! (`a1` = 0, `e1` = 4, `a2` = 5, ..., `e5` = 24), one bit each in a `u32` mask:
//!
//! ```text
//! row 5 | 20 21 22 23 24      the row-5 player (side Upper) starts here
//! row 4 | 15 16 17 18 19      and moves down;
//! row 3 | 10 11 12 13 14
//! row 2 |  5  6  7  8  9      the row-1 player (side Lower) starts here
//! row 1 |  0  1  2  3  4      and moves up.
//!         a  b  c  d  e
//! ```

use std::fmt;

/// A player colour: White (seat 0), Grey (seat 1), Black (seat 2; the Djinn in `talat-2p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// `W`, seat 0, moves first.
    White = 0,
    /// `G`, seat 1.
    Grey = 1,
    /// `B`, seat 2 (the Djinn in the two-player variant).
    Black = 2,
}

impl Colour {
    /// The three colours in seat order.
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Grey, Colour::Black];

    /// The colour of index `i` (`0..3`).
    #[must_use]
    pub const fn from_index(i: usize) -> Self {
        match i % 3 {
            0 => Colour::White,
            1 => Colour::Grey,
            _ => Colour::Black,
        }
    }

    /// Index `0..3` (also the seat in the three-player game).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W`, `G` or `B`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Grey => 'G',
            Colour::Black => 'B',
        }
    }

    /// Parses `W`, `G` or `B` (case-insensitive).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Self> {
        match c.to_ascii_uppercase() {
            'W' => Some(Colour::White),
            'G' => Some(Colour::Grey),
            'B' => Some(Colour::Black),
            _ => None,
        }
    }
}

/// One of the three boards, named after its two players: on `XY`, X starts on row 1
/// (side [`Side::Lower`]) and Y on row 5 (side [`Side::Upper`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum BoardId {
    /// White (row 1) vs Grey (row 5).
    WG = 0,
    /// Grey (row 1) vs Black (row 5).
    GB = 1,
    /// Black (row 1) vs White (row 5).
    BW = 2,
}

impl BoardId {
    /// The boards in index order.
    pub const ALL: [BoardId; 3] = [BoardId::WG, BoardId::GB, BoardId::BW];

    /// The board of index `i` (`0..3`).
    #[must_use]
    pub const fn from_index(i: usize) -> Self {
        match i % 3 {
            0 => BoardId::WG,
            1 => BoardId::GB,
            _ => BoardId::BW,
        }
    }

    /// Index `0..3`.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour playing `side` on this board: Lower is the board's first letter.
    #[must_use]
    pub const fn colour(self, side: Side) -> Colour {
        Colour::from_index(self as usize + side as usize)
    }

    /// The side `c` plays on this board, `None` if `c` does not play here.
    #[must_use]
    pub const fn side_of(self, c: Colour) -> Option<Side> {
        let b = self as usize;
        if c as usize == b {
            Some(Side::Lower)
        } else if c as usize == (b + 1) % 3 {
            Some(Side::Upper)
        } else {
            None
        }
    }

    /// `WG`, `GB` or `BW`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BoardId::WG => "WG",
            BoardId::GB => "GB",
            BoardId::BW => "BW",
        }
    }

    /// Parses a board name (case-insensitive).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        BoardId::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which of a board's two players: Lower starts on row 1 and moves up, Upper starts on
/// row 5 and moves down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// The row-1 player (the board name's first letter).
    Lower = 0,
    /// The row-5 player (the board name's second letter).
    Upper = 1,
}

impl Side {
    /// Both sides.
    pub const BOTH: [Side; 2] = [Side::Lower, Side::Upper];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Side::Lower => Side::Upper,
            Side::Upper => Side::Lower,
        }
    }

    /// Index 0 (Lower) or 1 (Upper).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side whose start row holds square `sq` of row 1 or 5 (Lower for row 1).
    #[must_use]
    pub const fn from_row(sq: usize) -> Side {
        if sq < 5 { Side::Lower } else { Side::Upper }
    }

    /// Side of index 0 (Lower) or 1 (Upper).
    #[must_use]
    pub const fn from_index(i: usize) -> Side {
        if i == 0 { Side::Lower } else { Side::Upper }
    }

    /// This side's own start row as a mask (Lower: row 1, Upper: row 5).
    #[must_use]
    pub const fn start_row(self) -> u32 {
        match self {
            Side::Lower => ROW1,
            Side::Upper => ROW5,
        }
    }

    /// The opponent's start row (this side's scoring row, where its towers are stuck).
    #[must_use]
    pub const fn goal_row(self) -> u32 {
        self.other().start_row()
    }
}

/// Row 1 (squares 0..5).
pub const ROW1: u32 = 0x1F;
/// Row 5 (squares 20..25).
pub const ROW5: u32 = 0x1F << 20;
/// All 25 squares.
pub const ALL_SQUARES: u32 = (1 << 25) - 1;

/// A square name `a1`..`e5` for index `sq` (`0..25`).
#[must_use]
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 5) as u8) as char, sq / 5 + 1)
}

/// Parses `a1`..`e5` (file case-insensitive) into a square index.
#[must_use]
pub fn parse_square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    if !(b'a'..=b'e').contains(&f) || !(b'1'..=b'5').contains(&b[1]) {
        return None;
    }
    Some(usize::from(b[1] - b'1') * 5 + usize::from(f - b'a'))
}

/// Row `0..5` (row 1 is 0) of square `sq`.
#[must_use]
pub const fn row(sq: usize) -> i32 {
    (sq / 5) as i32
}

/// File `0..5` (a is 0) of square `sq`.
#[must_use]
pub const fn file(sq: usize) -> i32 {
    (sq % 5) as i32
}

const fn bit_at(r: i32, f: i32) -> u32 {
    if r < 0 || r > 4 || f < 0 || f > 4 {
        0
    } else {
        1 << (r * 5 + f)
    }
}

/// `STEPS[side][sq]`: the squares a tower of `side` on `sq` may step to or capture on
/// straight or diagonally forward (empty on the goal row: nothing is forward of it).
pub const STEPS: [[u32; 25]; 2] = {
    let mut t = [[0u32; 25]; 2];
    let mut sq = 0;
    while sq < 25 {
        let (r, f) = (row(sq), file(sq));
        t[0][sq] = bit_at(r + 1, f - 1) | bit_at(r + 1, f) | bit_at(r + 1, f + 1);
        t[1][sq] = bit_at(r - 1, f - 1) | bit_at(r - 1, f) | bit_at(r - 1, f + 1);
        sq += 1;
    }
    t
};

/// `SIDEWAYS[sq]`: the left and right neighbours of `sq` on its row (captures only).
pub const SIDEWAYS: [u32; 25] = {
    let mut t = [0u32; 25];
    let mut sq = 0;
    while sq < 25 {
        t[sq] = bit_at(row(sq), file(sq) - 1) | bit_at(row(sq), file(sq) + 1);
        sq += 1;
    }
    t
};

/// `REACH[side][sq]`: every square a tower of `side` on `sq` may capture on
/// ([`STEPS`] plus [`SIDEWAYS`]).
pub const REACH: [[u32; 25]; 2] = {
    let mut t = [[0u32; 25]; 2];
    let mut sq = 0;
    while sq < 25 {
        t[0][sq] = STEPS[0][sq] | SIDEWAYS[sq];
        t[1][sq] = STEPS[1][sq] | SIDEWAYS[sq];
        sq += 1;
    }
    t
};

/// The towers standing on one board: an occupancy mask per side and the kind on each
/// occupied square. The colour of a tower is the board's colour for its side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    /// Occupied squares of each side (`[Lower, Upper]`), 25-bit masks.
    pub occ: [u32; 2],
    /// Kind index of the tower on each square; 0 on empty squares (so equal boards are
    /// equal values).
    pub kind: [u8; 25],
}

impl Board {
    /// Squares holding a tower of either side.
    #[must_use]
    pub const fn occupied(&self) -> u32 {
        self.occ[0] | self.occ[1]
    }

    /// The side and kind on `sq`, if any.
    #[must_use]
    pub fn at(&self, sq: usize) -> Option<(Side, super::Kind)> {
        let bit = 1u32 << sq;
        let side = if self.occ[0] & bit != 0 {
            Side::Lower
        } else if self.occ[1] & bit != 0 {
            Side::Upper
        } else {
            return None;
        };
        Some((side, super::Kind::from_index(self.kind[sq] as usize)))
    }

    /// The kind index on `sq` (which must be occupied).
    #[inline]
    #[must_use]
    pub const fn kind_at(&self, sq: usize) -> usize {
        self.kind[sq] as usize
    }

    /// The squares a tower of `side` on `sq` may capture on right now: opposing towers in
    /// its [`REACH`] of a kind it captures.
    #[inline]
    #[must_use]
    pub fn captures_from(&self, side: Side, sq: usize) -> u32 {
        let mut targets = REACH[side.index()][sq] & self.occ[side.other().index()];
        let strength = super::tower::CAPTURES[self.kind_at(sq)];
        let mut out = 0;
        while targets != 0 {
            let t = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if strength >> self.kind[t] & 1 != 0 {
                out |= 1 << t;
            }
        }
        out
    }

    /// Whether some tower of either side could capture right now.
    #[must_use]
    pub fn any_capture(&self) -> bool {
        for side in Side::BOTH {
            let mut towers = self.occ[side.index()];
            while towers != 0 {
                let sq = towers.trailing_zeros() as usize;
                towers &= towers - 1;
                if self.captures_from(side, sq) != 0 {
                    return true;
                }
            }
        }
        false
    }
}
