//! Talat moves: placements (setup), steps, captures and the forced pass, packed in a `u16`
//! that is also the move's [`MoveCode`].
//!
//! Text forms (case-insensitive on input): `H3@WG:c1` (place a large hexagon on `WG:c1`; the
//! square's start row says whose tower it is), `WG:c1-c2` (a step), `WG:c2xd2` (a capture),
//! `pass`.

use std::fmt;

use super::board::{BoardId, parse_square, square_name};
use super::tower::Kind;
use crate::game::{MoveCode, MoveError, shown};

/// First code of the steps and captures (after the pass and the 675 placements).
const MOVE_BASE: u16 = 1 + 9 * 75;

/// A Talat move (see the module docs for the text forms). `Default` is the pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Move(u16);

/// A move unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// The forced pass.
    Pass,
    /// Put a tower of `kind` on the start-row square `sq` of `board`.
    Place {
        /// The tower kind.
        kind: Kind,
        /// The board.
        board: BoardId,
        /// Square index `0..25` on row 1 or row 5.
        sq: usize,
    },
    /// Move the tower on `from` one square to the empty `to`.
    Step {
        /// The board.
        board: BoardId,
        /// Square index the tower leaves.
        from: usize,
        /// Square index it enters.
        to: usize,
    },
    /// Move the tower on `from` onto `to`, capturing the opposing tower there.
    Capture {
        /// The board.
        board: BoardId,
        /// Square index the capturer leaves.
        from: usize,
        /// Square index of the captured tower.
        to: usize,
    },
}

impl Move {
    /// The forced pass.
    pub const PASS: Move = Move(0);
    /// Number of distinct codes (exclusive upper bound of [`MoveCode::code`]).
    pub const CODES: usize = MOVE_BASE as usize + 3 * 25 * 25 * 2;

    /// A placement of `kind` on `board`, square index `sq` (`0..25`).
    #[must_use]
    pub const fn place(kind: Kind, board: BoardId, sq: usize) -> Self {
        Move(1 + ((kind.index() * 3 + board as usize) * 25 + sq) as u16)
    }

    /// A step on `board` from `from` to `to` (square indices).
    #[must_use]
    pub const fn step(board: BoardId, from: usize, to: usize) -> Self {
        Move(MOVE_BASE + (((board as usize * 25 + from) * 25 + to) * 2) as u16)
    }

    /// A capture on `board` from `from` onto `to` (square indices).
    #[must_use]
    pub const fn capture(board: BoardId, from: usize, to: usize) -> Self {
        Move(MOVE_BASE + (((board as usize * 25 + from) * 25 + to) * 2 + 1) as u16)
    }

    /// Whether this is the pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a placement.
    #[must_use]
    pub const fn is_place(self) -> bool {
        self.0 != 0 && self.0 < MOVE_BASE
    }

    /// Whether this is a capture.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.0 >= MOVE_BASE && (self.0 - MOVE_BASE) & 1 == 1
    }

    /// The move unpacked.
    #[must_use]
    pub const fn kind(self) -> MoveKind {
        if self.0 == 0 {
            return MoveKind::Pass;
        }
        if self.0 < MOVE_BASE {
            let i = (self.0 - 1) as usize;
            return MoveKind::Place {
                kind: Kind::from_index(i / 75),
                board: BoardId::from_index(i / 25 % 3),
                sq: i % 25,
            };
        }
        let i = (self.0 - MOVE_BASE) as usize;
        let (cap, i) = (i & 1 == 1, i / 2);
        let (board, from, to) = (BoardId::from_index(i / 625), i / 25 % 25, i % 25);
        if cap {
            MoveKind::Capture { board, from, to }
        } else {
            MoveKind::Step { board, from, to }
        }
    }

    /// The board the move is made on (`None` for the pass).
    #[must_use]
    pub const fn board(self) -> Option<BoardId> {
        match self.kind() {
            MoveKind::Pass => None,
            MoveKind::Place { board, .. }
            | MoveKind::Step { board, .. }
            | MoveKind::Capture { board, .. } => Some(board),
        }
    }

    /// Parses a move's text without checking legality (see the module docs).
    ///
    /// # Errors
    /// A one-line [`MoveError`] quoting the text and naming the malformed part.
    pub fn parse(text: &str) -> Result<Self, MoveError> {
        let t = text.trim();
        let bad = |why: &str| MoveError::Malformed {
            text: text.to_string(),
            message: format!(
                "'{}' is not a Talat move: {why} (expected e.g. H3@WG:c1, WG:c1-c2, WG:c2xd2 or pass)",
                shown(text)
            ),
        };
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let board_square = |s: &str| -> Result<(BoardId, usize), MoveError> {
            let (b, sq) = s
                .split_once(':')
                .ok_or_else(|| bad("missing ':' between board and square"))?;
            let board = BoardId::parse(b)
                .ok_or_else(|| bad(&format!("unknown board '{}' (WG, GB or BW)", shown(b))))?;
            let sq = parse_square(sq)
                .ok_or_else(|| bad(&format!("bad square '{}' (a1..e5)", shown(sq))))?;
            Ok((board, sq))
        };
        if let Some((k, rest)) = t.split_once('@') {
            let kind =
                Kind::parse(k).ok_or_else(|| bad(&format!("bad tower '{}' (T1..H3)", shown(k))))?;
            let (board, sq) = board_square(rest)?;
            return Ok(Move::place(kind, board, sq));
        }
        let (b, squares) = t
            .split_once(':')
            .ok_or_else(|| bad("missing ':' after the board"))?;
        let board =
            BoardId::parse(b).ok_or_else(|| bad(&format!("unknown board '{}'", shown(b))))?;
        let (from, to, cap) = if let Some((f, to)) = squares.split_once('-') {
            (f, to, false)
        } else if let Some((f, to)) = squares.split_once(['x', 'X']) {
            (f, to, true)
        } else {
            return Err(bad("expected '-' (step) or 'x' (capture) between squares"));
        };
        let from =
            parse_square(from).ok_or_else(|| bad(&format!("bad square '{}'", shown(from))))?;
        let to = parse_square(to).ok_or_else(|| bad(&format!("bad square '{}'", shown(to))))?;
        Ok(if cap {
            Move::capture(board, from, to)
        } else {
            Move::step(board, from, to)
        })
    }
}

impl MoveCode for Move {
    #[inline]
    fn code(self) -> u16 {
        self.0
    }
    #[inline]
    fn from_code(code: u16) -> Self {
        debug_assert!((code as usize) < Move::CODES);
        Move(code)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Pass => f.write_str("pass"),
            MoveKind::Place { kind, board, sq } => {
                write!(f, "{kind}@{board}:{}", square_name(sq))
            }
            MoveKind::Step { board, from, to } => {
                write!(f, "{board}:{}-{}", square_name(from), square_name(to))
            }
            MoveKind::Capture { board, from, to } => {
                write!(f, "{board}:{}x{}", square_name(from), square_name(to))
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Move {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Self, MoveError> {
        Move::parse(s)
    }
}
