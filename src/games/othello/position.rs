//! The Othello position (two bitboards relative to the side to move, Edax style), its
//! moves, and the [`Game`] implementation.

use std::fmt;
use std::str::FromStr;

use super::movegen::{flips, legal_moves};
use super::square::Square;
use super::zobrist;
use crate::game::{
    BySeat, Game, MoveCode, MoveError, MoveList, Outcome, PositionError, Seat, shown,
};

/// A disc colour; Black moves first and sits in seat 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Dark, `X`, seat 0.
    Black,
    /// Light, `O`, seat 1.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` or `O`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Seat 0 for Black, 1 for White.
    #[must_use]
    pub const fn seat(self) -> Seat {
        match self {
            Color::Black => Seat(0),
            Color::White => Seat(1),
        }
    }
}

/// An Othello move: a placement on a square, or a pass. One byte; `Display` is the
/// square name (`f5`) or `pass`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Move(u8);

impl Move {
    /// The pass (legal only when the side to move has no placement).
    pub const PASS: Move = Move(64);

    /// A placement on `sq`.
    #[must_use]
    pub const fn place(sq: Square) -> Self {
        Move(sq.index() as u8)
    }

    /// The square placed on, `None` for a pass.
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        if self.0 < 64 {
            Some(Square::new(self.0))
        } else {
            None
        }
    }

    /// Whether this is the pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// Parses a move's text without checking legality: a square name (case-insensitive) or
    /// `pass` / `PA` / `ps` / `--`.
    ///
    /// # Errors
    /// A [`MoveError`] naming the text.
    pub fn parse(text: &str) -> Result<Self, MoveError> {
        let t = text.trim();
        if ["pass", "pa", "ps", "--"]
            .iter()
            .any(|p| t.eq_ignore_ascii_case(p))
        {
            return Ok(Move::PASS);
        }
        Square::parse(t)
            .map(Move::place)
            .ok_or_else(|| MoveError::Malformed {
                text: text.to_string(),
                message: format!(
                    "'{}' is not an Othello move (expected a square a1..h8 or 'pass')",
                    crate::game::shown(text)
                ),
            })
    }
}

impl MoveCode for Move {
    /// Square index 0..64, 64 for the pass.
    #[inline]
    fn code(self) -> u16 {
        u16::from(self.0)
    }
    #[inline]
    fn from_code(code: u16) -> Self {
        debug_assert!(code <= 64);
        Move(code as u8)
    }
}

impl Default for Move {
    fn default() -> Self {
        Move::PASS
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(sq) => write!(f, "{sq}"),
            None => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Most moves an Othello position can have: 32 placements is the proven-safe bound
/// used by Edax (33 with room for the pass).
pub const MAX_MOVES: usize = 34;

/// An Othello position: the discs of the side to move (`player`) and of its opponent,
/// the colour to move, and the Zobrist key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    player: u64,
    opponent: u64,
    side: Color,
    key: u64,
}

impl Position {
    /// The standard start: d4, e5 White; d5, e4 Black; Black to move.
    #[must_use]
    pub fn start() -> Self {
        let black = (1 << 28) | (1 << 35);
        let white = (1 << 27) | (1 << 36);
        Self::from_colors(black, white, Color::Black).expect("start position is valid")
    }

    /// A position from the Black and White bitboards and the colour to move.
    ///
    /// # Errors
    /// If the two bitboards overlap.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Result<Self, PositionError> {
        if black & white != 0 {
            return Err(PositionError::Impossible(format!(
                "Black and White discs overlap on {:#018x}",
                black & white
            )));
        }
        let (player, opponent) = match side {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        let key = zobrist::key_from_scratch(black, white, side == Color::White);
        Ok(Self {
            player,
            opponent,
            side,
            key,
        })
    }

    /// Discs of the side to move.
    #[must_use]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// Discs of the side not to move.
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The colour to move.
    #[must_use]
    pub const fn side(&self) -> Color {
        self.side
    }

    /// Black's discs.
    #[must_use]
    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.player,
            Color::White => self.opponent,
        }
    }

    /// White's discs.
    #[must_use]
    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.opponent,
            Color::White => self.player,
        }
    }

    /// Empty squares.
    #[must_use]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[must_use]
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Legal placements of the side to move as a bitboard (0 means pass or game over).
    #[must_use]
    pub fn legal_placements(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// Whether neither side can place a disc.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        legal_moves(self.player, self.opponent) == 0 && legal_moves(self.opponent, self.player) == 0
    }

    /// Final disc difference from the side to move's view with empties given to the winner
    /// (the FFO / tournament convention). Meaningful when the game is over.
    #[must_use]
    pub fn final_disc_difference(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// The position after a pass (side to move swaps, discs unchanged).
    #[must_use]
    pub fn pass(&self) -> Self {
        Self {
            player: self.opponent,
            opponent: self.player,
            side: self.side.other(),
            key: self.key ^ zobrist::WHITE_TO_MOVE,
        }
    }

    /// A diagram of the board with coordinates, `X`/`O` for discs, `.` for empties and `*`
    /// on the side to move's legal placements; one line per rank, then whose turn it is
    /// and the disc count.
    #[must_use]
    pub fn diagram(&self) -> String {
        let moves = self.legal_placements();
        let (b, w) = (self.black(), self.white());
        let mut s = String::from("  a b c d e f g h\n");
        for r in 0..8 {
            s.push_str(&format!("{}", r + 1));
            for f in 0..8 {
                let bit = 1u64 << (r * 8 + f);
                let c = if b & bit != 0 {
                    'X'
                } else if w & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(c);
            }
            s.push_str(&format!(" {}\n", r + 1));
        }
        s.push_str("  a b c d e f g h\n");
        s.push_str(&format!(
            "{} to move; Black (X) {} discs, White (O) {} discs, {} empty",
            match self.side {
                Color::Black => "Black (X)",
                Color::White => "White (O)",
            },
            b.count_ones(),
            w.count_ones(),
            self.empties()
        ));
        s
    }

    /// Replays a transcript of moves from the start position: square names concatenated
    /// (`f5d6c3d3c4`) or separated by spaces; passes may be omitted (they are implied when
    /// the side to move has no placement) or written as `pass`/`PA`/`ps`/`--`.
    ///
    /// # Errors
    /// A [`MoveError`] naming the first malformed or illegal move and its ply (1-based).
    pub fn from_transcript(transcript: &str) -> Result<Self, MoveError> {
        Self::start().replay(transcript)
    }

    /// Plays a transcript (see [`Position::from_transcript`]) from this position.
    ///
    /// # Errors
    /// As [`Position::from_transcript`].
    pub fn replay(&self, transcript: &str) -> Result<Self, MoveError> {
        self.replay_moves(transcript).map(|(pos, _)| pos)
    }

    /// Plays a transcript (see [`Position::from_transcript`]) from this position and returns
    /// the final position with every move played, implied passes included.
    ///
    /// # Errors
    /// As [`Position::from_transcript`].
    pub fn replay_moves(&self, transcript: &str) -> Result<(Self, Vec<Move>), MoveError> {
        let mut pos = *self;
        let mut played = Vec::new();
        let compact: String = transcript.chars().filter(|c| !c.is_whitespace()).collect();
        let bytes = compact.as_bytes();
        let mut i = 0;
        let mut ply = 0;
        while i < bytes.len() {
            ply += 1;
            let rest = &compact[i..];
            let (token, len) = if let Some(t) = rest.get(..4)
                && t.eq_ignore_ascii_case("pass")
            {
                (t, 4)
            } else {
                match rest.get(..2) {
                    Some(t) => (t, 2),
                    None => {
                        return Err(MoveError::Malformed {
                            text: rest.to_string(),
                            message: format!(
                                "transcript ends with an incomplete move '{rest}' at ply {ply}"
                            ),
                        });
                    }
                }
            };
            let mv = Move::parse(token).map_err(|e| MoveError::AtPly {
                ply,
                source: Box::new(e),
            })?;
            if !mv.is_pass()
                && pos.legal_placements() == 0
                && legal_moves(pos.opponent, pos.player) != 0
            {
                // Implied pass.
                pos = pos.pass();
                played.push(Move::PASS);
            }
            if !pos.is_legal(mv) {
                let message = format!(
                    "{token} is illegal for {} in position {pos}",
                    match pos.side {
                        Color::Black => "Black",
                        Color::White => "White",
                    }
                );
                let text = token.to_string();
                let source = Box::new(if pos.is_game_over() {
                    MoveError::GameOver { text, message }
                } else {
                    MoveError::Illegal { text, message }
                });
                return Err(MoveError::AtPly { ply, source });
            }
            pos = pos.play(mv);
            played.push(mv);
            i += len;
        }
        Ok((pos, played))
    }
}

/// Final disc difference for `p` with empties to the winner.
#[inline]
#[must_use]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let np = p.count_ones() as i32;
    let no = o.count_ones() as i32;
    let diff = np - no;
    let empties = 64 - np - no;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

impl Game for Position {
    const SQUARE_SYMMETRY: bool = true;
    type Move = Move;
    type Moves = MoveList<Move, MAX_MOVES>;
    const ID: &'static str = "othello";
    const MOVE_CODES: usize = 65;

    fn start() -> Self {
        Position::start()
    }

    /// An OBF/FFO position line, or a transcript from the start (`f5d6c3`, passes implied).
    fn parse_opening(text: &str) -> Result<(Self, Vec<Move>), String> {
        let text = text.trim();
        if text
            .split_whitespace()
            .next()
            .is_some_and(|b| b.chars().count() == 64)
        {
            return text
                .parse::<Self>()
                .map(|p| (p, Vec::new()))
                .map_err(String::from);
        }
        let start = Position::start();
        start
            .replay_moves(text)
            .map(|(_, moves)| (start, moves))
            .map_err(String::from)
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.side.seat()
    }

    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        let mut bits = legal_moves(self.player, self.opponent);
        if bits == 0 {
            if legal_moves(self.opponent, self.player) != 0 {
                moves.push(Move::PASS);
            }
            return;
        }
        while bits != 0 {
            moves.push(Move(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        if mv.is_pass() {
            return self.pass();
        }
        let sq = mv.0 as usize;
        let f = flips(self.player, self.opponent, sq);
        debug_assert!(f != 0, "illegal move {mv} in {self}");
        let mut key = self.key ^ zobrist::WHITE_TO_MOVE ^ zobrist::DISC[self.side as usize][sq];
        let mut b = f;
        while b != 0 {
            key ^= zobrist::FLIP[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        Self {
            player: self.opponent ^ f,
            opponent: self.player ^ f ^ (1u64 << sq),
            side: self.side.other(),
            key,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_game_over() {
            return None;
        }
        let (b, w) = (
            self.black().count_ones() as i32,
            self.white().count_ones() as i32,
        );
        let e = 64 - b - w;
        let scores = match b.cmp(&w) {
            std::cmp::Ordering::Greater => [b + e, w],
            std::cmp::Ordering::Less => [b, w + e],
            std::cmp::Ordering::Equal => [b, w],
        };
        Some(Outcome::new(BySeat::from_slice(&scores)))
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse(text)?;
        if self.is_legal(mv) {
            return Ok(mv);
        }
        let over = self.is_game_over() && (mv.is_pass() || self.empty() & (1u64 << mv.0) != 0);
        let why = if over {
            "the game is over".to_string()
        } else if mv.is_pass() {
            "passing is not allowed while a placement exists".to_string()
        } else if self.empty() & (1u64 << mv.0) == 0 {
            format!("{mv} is occupied")
        } else {
            format!("{mv} flips no disc")
        };
        let text = text.to_string();
        let message = format!("illegal move '{}': {why}", crate::game::shown(text.trim()));
        Err(if over {
            MoveError::GameOver { text, message }
        } else {
            MoveError::Illegal { text, message }
        })
    }

    fn is_legal(&self, mv: Move) -> bool {
        let placements = self.legal_placements();
        if mv.is_pass() {
            placements == 0 && legal_moves(self.opponent, self.player) != 0
        } else {
            placements & (1u64 << mv.0) != 0
        }
    }
}

impl fmt::Display for Position {
    /// The OBF/FFO one-line form: 64 characters `X`/`O`/`-` in bit order a1..h8, a space,
    /// then `X` or `O` for the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w) = (self.black(), self.white());
        let mut s = String::with_capacity(66);
        for i in 0..64 {
            s.push(if b >> i & 1 != 0 {
                'X'
            } else if w >> i & 1 != 0 {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(self.side.symbol());
        f.write_str(&s)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Parses the OBF/FFO form: 64 board characters (`X` or `*` Black, `O` White,
    /// `-` or `.` empty) in bit order a1..h8, whitespace, then `X` or `O` to move; a `;` and
    /// anything after it is ignored. Whitespace inside the 64 characters is not allowed.
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let body = text.split(';').next().unwrap_or("").trim();
        let mut parts = body.split_whitespace();
        let board = parts.next().ok_or_else(|| {
            PositionError::Empty(
                "empty position: expected 64 board characters and a side to move".into(),
            )
        })?;
        // The board's length first: "<64 characters>X" is a 65-character board, not a
        // board without a side to move.
        let n = board.chars().count();
        if n != 64 {
            return Err(PositionError::Shape(format!(
                "position board has {n} characters, expected 64 (X/* Black, O White, -/. empty)"
            )));
        }
        let side = parts.next().ok_or_else(|| {
            PositionError::SideToMove(format!(
                "position '{}' has no side to move (append ' X' or ' O')",
                shown(body)
            ))
        })?;
        if let Some(extra) = parts.next() {
            return Err(PositionError::Shape(format!(
                "unexpected '{}' after the side to move in position '{}'",
                shown(extra),
                shown(body)
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.chars().enumerate() {
            match c {
                'X' | 'x' | '*' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                _ => {
                    return Err(PositionError::BadToken(format!(
                        "bad character '{c}' at square {} of the position (X/* Black, O White, -/. empty)",
                        Square::new(i as u8)
                    )));
                }
            }
        }
        let side = match side {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            _ => {
                return Err(PositionError::SideToMove(format!(
                    "bad side to move '{}' (expected X or O)",
                    shown(side)
                )));
            }
        };
        Position::from_colors(black, white, side)
    }
}

/// Every position of seeded random games (xorshift64 picks each move), game after game,
/// until at least `n` (for tests that need many varied positions).
#[cfg(test)]
pub(crate) fn random_game_positions(n: usize, seed: u64) -> Vec<Position> {
    use crate::game::Game;
    let mut s = seed;
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start();
        loop {
            let mut moves = <Position as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            pos = pos.play(moves[(s % moves.len() as u64) as usize]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft;

    #[test]
    fn start_position_text_round_trips() {
        let s = Position::start();
        let text = s.to_string();
        assert_eq!(
            text,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(text.parse::<Position>().unwrap(), s);
    }

    /// Parse errors quote the user's text cut at 32 characters (a 20,000-character board
    /// was echoed whole), and a side letter glued to the board is a 65-character board.
    #[test]
    fn parse_errors_quote_long_text_cut_and_name_a_glued_side_letter() {
        let err = |text: &str| text.parse::<Position>().unwrap_err().to_string();
        let board = "X".repeat(64);
        assert_eq!(
            err(&format!("{board}O")),
            "position board has 65 characters, expected 64 (X/* Black, O White, -/. empty)"
        );
        let e = err(&format!("{board} O {}", "y".repeat(100)));
        assert!(
            e.contains(&format!("'{} [+68 more characters]'", "y".repeat(32))),
            "{e}"
        );
        assert!(e.len() < 200, "{e}");
        let e = err(&format!("{board} {}", "Q".repeat(40)));
        assert!(e.contains("[+8 more characters]"), "{e}");
    }

    #[test]
    fn perft_small_depths_generic() {
        let s = Position::start();
        let expected = [1, 4, 12, 56, 244, 1396, 8200];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft::perft(&s, d as u32), n, "depth {d}");
        }
    }

    #[test]
    fn bad_positions_are_named_by_kind() {
        use crate::game::PositionError as E;
        let parse = |t: &str| t.parse::<Position>().unwrap_err();
        let shape = "position board has 2 characters, expected 64 (X/* Black, O White, -/. empty)";
        assert_eq!(parse("XO X"), E::Shape(shape.into()));
        assert_eq!(
            parse(" ; comment"),
            E::Empty("empty position: expected 64 board characters and a side to move".into())
        );
        let mut board = "-".repeat(64);
        assert_eq!(
            parse(&format!("{board} Z")),
            E::SideToMove("bad side to move 'Z' (expected X or O)".into())
        );
        assert_eq!(
            parse(&board).to_string(),
            "position '--------------------------------".to_string()
                + " [+32 more characters]' has no side to move (append ' X' or ' O')"
        );
        assert!(matches!(parse(&board), E::SideToMove(_)));
        let extra = parse(&format!("{board} X extra"));
        assert!(matches!(extra, E::Shape(_)), "{extra:?}");
        assert!(
            extra
                .to_string()
                .starts_with("unexpected 'extra' after the side to move")
        );
        board.replace_range(10..11, "q");
        assert_eq!(
            parse(&format!("{board} X")),
            E::BadToken(
                "bad character 'q' at square c2 of the position (X/* Black, O White, -/. empty)"
                    .into()
            )
        );
        assert_eq!(
            Position::from_colors(1, 1, Color::Black).unwrap_err(),
            E::Impossible("Black and White discs overlap on 0x0000000000000001".into())
        );
    }

    #[test]
    fn bad_moves_are_named_by_kind() {
        use crate::game::MoveError as E;
        let p = Position::from_transcript("f5d6c3d3c4").unwrap();
        assert_eq!(p.side(), Color::White);
        assert_eq!(p.empties(), 55);
        // An illegal move of a transcript: the ply, then the move's own error.
        let after_f5 = Position::from_transcript("f5").unwrap();
        let e = Position::from_transcript("f5a1").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("ply 2: a1 is illegal for White in position {after_f5}")
        );
        assert!(matches!(e, E::AtPly { ply: 2, .. }));
        assert!(matches!(e.root(), E::Illegal { text, .. } if text == "a1"));
        let e = Position::from_transcript("f5z9").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ply 2: 'z9' is not an Othello move (expected a square a1..h8 or 'pass')"
        );
        assert!(matches!(e.root(), E::Malformed { text, .. } if text == "z9"));
        assert_eq!(
            Position::from_transcript("f5d").unwrap_err(),
            E::malformed("d", "transcript ends with an incomplete move 'd' at ply 2")
        );
        let start = Position::start();
        assert_eq!(
            start.parse_move("f4").unwrap_err(),
            E::illegal("f4", "illegal move 'f4': f4 flips no disc")
        );
        assert_eq!(
            start.parse_move("d4").unwrap_err(),
            E::illegal("d4", "illegal move 'd4': d4 is occupied")
        );
        assert_eq!(
            start.parse_move("pass").unwrap_err(),
            E::illegal(
                "pass",
                "illegal move 'pass': passing is not allowed while a placement exists"
            )
        );
        assert_eq!(
            start.parse_move("k9").unwrap_err(),
            E::malformed(
                "k9",
                "'k9' is not an Othello move (expected a square a1..h8 or 'pass')"
            )
        );
        assert!(start.parse_move("F5").is_ok());
        // A finished game: every move is refused as over, except onto an occupied square.
        let over: Position = format!("-{} X", "X".repeat(63)).parse().unwrap();
        assert!(over.is_game_over());
        assert_eq!(
            over.parse_move("a1").unwrap_err(),
            E::GameOver {
                text: "a1".into(),
                message: "illegal move 'a1': the game is over".into()
            }
        );
        assert!(matches!(over.parse_move("pass"), Err(E::GameOver { .. })));
        assert_eq!(
            over.parse_move("b1").unwrap_err(),
            E::illegal("b1", "illegal move 'b1': b1 is occupied")
        );
    }

    #[test]
    fn scoring_gives_empties_to_the_winner() {
        // 40-20 with 4 empties is +24 for the winner (rules file, "Result").
        let p = (1u64 << 40) - 1;
        let o = ((1u64 << 60) - 1) & !p;
        assert_eq!(final_score(p, o), 24);
        assert_eq!(final_score(o, p), -24);
        // A wiped-out side: 40 Black discs, no White, 24 empties: game over, +64 for Black.
        let board: String = (0..64).map(|i| if i < 40 { 'X' } else { '-' }).collect();
        let pos: Position = format!("{board} O").parse().unwrap();
        assert!(pos.is_game_over());
        assert_eq!(pos.final_disc_difference(), -64);
        let out = pos.outcome().unwrap();
        assert_eq!(out.margin(Seat(0)), 64);
        assert_eq!(out.rank(Seat(0)), 1);
        assert_eq!(out.rank(Seat(1)), 2);
    }
}
