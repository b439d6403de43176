//! Toy multi-seat games for the multi-player search tests and bench (used by
//! `tests/it/search/multiplayer.rs`, included by `benches/multiplayer.rs`).
//!
//! - [`Tree`]: a random game tree defined by hashing the move path: 1..=4 moves or a forced
//!   pass per node, a seat sometimes moving twice or being skipped, games ending at random
//!   depths; per-seat utilities from the hash, constant-sum (0..=100, summing to 100) or
//!   independent. No transpositions.
//! - [`Heap`]: 3-seat (or 2-, 4-seat) Nim with scores: take 1..=3 tokens; taking 3 moves
//!   again; a seat holding [`HEAP_FULL`] tokens must pass. Many transpositions.
//!
//! Both implement [`Game::with_turn`] (optionally refused, to test the unsupported path).
#![allow(dead_code)] // each includer uses a subset

use std::fmt;
use std::str::FromStr;

use tessera::game::{BySeat, Game, MoveCode, MoveError, MoveList, Outcome, PositionError, Seat};
use tessera::search::{Score, SeatEvaluator, SumBound};

/// splitmix64's finaliser: a well-mixed hash of `x`.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A move of the toy games: a small number (`0` = pass in both games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mv(pub u8);

impl fmt::Display for Mv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl MoveCode for Mv {
    fn code(self) -> u16 {
        u16::from(self.0)
    }
    fn from_code(code: u16) -> Self {
        Mv(code as u8)
    }
}

fn parse_mv<G: Game<Move = Mv>>(pos: &G, text: &str) -> Result<Mv, MoveError> {
    let m = Mv(text
        .parse()
        .map_err(|_| MoveError(format!("bad move '{text}'")))?);
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveError(format!("illegal move '{text}'")))
    }
}

fn fields<const N: usize>(s: &str) -> Result<[u64; N], PositionError> {
    let bad = || PositionError(format!("bad toy position '{s}'"));
    let v: Vec<u64> = s
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    v.try_into().map_err(|_| bad())
}

/// Longest game of [`Tree::new`], plies.
pub const TREE_LEN: u8 = 10;

/// A random game tree: every node's moves, turn hand-off, end and utilities come from a
/// hash of the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tree {
    pub h: u64,
    pub ply: u8,
    pub to_move: u8,
    pub seats: u8,
    /// Longest game, plies.
    pub len: u8,
    /// Utilities sum to 100 (else independent in 0..=100).
    pub constant_sum: bool,
    /// Whether [`Game::with_turn`] is supported.
    pub turnable: bool,
}

impl Tree {
    /// The root of tree `seed` with `seats` seats.
    pub fn new(seed: u64, seats: u8, constant_sum: bool) -> Self {
        Self::with_len(seed, seats, constant_sum, TREE_LEN)
    }

    /// The root of tree `seed` whose games last at most `len` plies.
    pub fn with_len(seed: u64, seats: u8, constant_sum: bool, len: u8) -> Self {
        Tree {
            h: mix(seed),
            ply: 0,
            to_move: 0,
            seats,
            len,
            constant_sum,
            turnable: true,
        }
    }

    fn finished(&self) -> bool {
        self.ply >= self.len || (self.ply >= 3 && mix(self.h ^ 0x51).is_multiple_of(13))
    }

    /// Utilities from hash `x`: each in 0..=100, summing to 100 when constant-sum.
    pub fn utilities(&self, x: u64) -> BySeat<Score> {
        let n = usize::from(self.seats);
        let mut u = BySeat::new(n);
        let mut left = 100i32;
        for s in 0..n {
            let r = mix(x ^ ((s as u64 + 1) * 0x1000_0001));
            let v = if !self.constant_sum {
                (r % 101) as i32
            } else if s + 1 == n {
                left
            } else {
                let v = (r % (left as u64 + 1)) as i32;
                left -= v;
                v
            };
            u[Seat(s as u8)] = v;
        }
        u
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} {}",
            self.h,
            self.ply,
            self.to_move,
            self.seats,
            self.len,
            u8::from(self.constant_sum),
            u8::from(self.turnable)
        )
    }
}

impl FromStr for Tree {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let [h, ply, to_move, seats, len, cs, t] = fields::<7>(s)?;
        Ok(Tree {
            h,
            ply: ply as u8,
            to_move: to_move as u8,
            seats: seats as u8,
            len: len as u8,
            constant_sum: cs == 1,
            turnable: t == 1,
        })
    }
}

impl Game for Tree {
    type Move = Mv;
    type Moves = MoveList<Mv, 4>;
    const ID: &'static str = "toy-tree";
    const MOVE_CODES: usize = 5;

    fn start() -> Self {
        Tree::new(1, 3, true)
    }
    fn seats(&self) -> usize {
        usize::from(self.seats)
    }
    fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.finished() {
            return;
        }
        let r = mix(self.h ^ u64::from(self.to_move) << 48 ^ 0x77);
        if r.is_multiple_of(7) {
            moves.push(Mv(0));
        } else {
            for k in 1..=1 + (r >> 8) % 4 {
                moves.push(Mv(k as u8));
            }
        }
    }
    fn play(&self, mv: Mv) -> Self {
        let h = mix(self.h ^ u64::from(mv.0 + 1) << 32 ^ u64::from(self.to_move) << 40);
        let n = self.seats;
        let to_move = match mix(h ^ 0x99) % 10 {
            0 => self.to_move,
            1 => (self.to_move + 2) % n,
            _ => (self.to_move + 1) % n,
        };
        Tree {
            h,
            ply: self.ply + 1,
            to_move,
            ..*self
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.finished()
            .then(|| Outcome::new(self.utilities(self.h ^ 0xEE)))
    }
    fn key(&self) -> u64 {
        mix(self.h ^ u64::from(self.to_move) << 56 ^ u64::from(self.ply) << 48)
    }
    fn parse_move(&self, text: &str) -> Result<Mv, MoveError> {
        parse_mv(self, text)
    }
    fn with_turn(&self, seat: Seat) -> Option<Self> {
        self.turnable.then_some(Tree {
            to_move: seat.0,
            ..*self
        })
    }
}

/// Utilities of [`Tree`]: terminal = the outcome's scores, static = another hash of the
/// path; each rounded down to a multiple of `step` (coarse steps make many ties) and moved
/// by `shift`. A sum bound when the tree is constant-sum and `prune` is set.
pub struct TreeEval {
    pub prune: bool,
    pub step: i32,
    pub shift: i32,
}

impl TreeEval {
    /// Exact utilities (step 1, no shift).
    pub const fn plain(prune: bool) -> Self {
        TreeEval {
            prune,
            step: 1,
            shift: 0,
        }
    }

    fn shape(&self, mut u: BySeat<Score>) -> BySeat<Score> {
        for i in 0..u.len() {
            let s = Seat(i as u8);
            u[s] = u[s] / self.step * self.step + self.shift;
        }
        u
    }
}

impl SeatEvaluator<Tree> for TreeEval {
    fn evaluate_seats(&self, pos: &Tree) -> BySeat<Score> {
        self.shape(pos.utilities(pos.h ^ 0x5A))
    }
    fn terminal_seats(&self, _pos: &Tree, outcome: &Outcome) -> BySeat<Score> {
        self.shape(outcome.scores)
    }
    fn move_order(&self, pos: &Tree, mv: Mv) -> i32 {
        (mix(pos.h ^ u64::from(mv.0)) % 8) as i32
    }
    fn sum_bound(&self) -> Option<SumBound> {
        // Utilities 0..=100 summing to <= 100 before rounding down and shifting (the seat
        // count is not known here: the bound is for 3 seats).
        self.prune.then_some(SumBound {
            min_utility: self.shift,
            max_sum: 100 + 3 * self.shift,
        })
    }
}

/// Tokens a [`Heap`] seat may hold before it must pass.
pub const HEAP_FULL: u8 = 6;

/// Nim with scores for 2..=4 seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    pub pile: u8,
    pub taken: [u8; 4],
    pub seats: u8,
    pub to_move: u8,
    /// Seat that took the last token (4 = nobody yet).
    pub last: u8,
    /// Whether [`Game::with_turn`] is supported.
    pub turnable: bool,
}

impl Heap {
    /// A heap of `pile` tokens for `seats` seats, seat 0 to move.
    pub fn new(pile: u8, seats: u8) -> Self {
        Heap {
            pile,
            taken: [0; 4],
            seats,
            to_move: 0,
            last: 4,
            turnable: true,
        }
    }

    fn full(&self, s: u8) -> bool {
        self.taken[usize::from(s)] >= HEAP_FULL
    }

    fn finished(&self) -> bool {
        self.pile == 0 || (0..self.seats).all(|s| self.full(s))
    }

    /// Scores: 2 per token, 3 more for the last token.
    pub fn scores(&self) -> BySeat<i32> {
        let mut sc = BySeat::new(usize::from(self.seats));
        for s in 0..self.seats {
            sc[Seat(s)] =
                2 * i32::from(self.taken[usize::from(s)]) + if self.last == s { 3 } else { 0 };
        }
        sc
    }
}

impl fmt::Display for Heap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.taken;
        write!(
            f,
            "{} {} {} {} {} {} {} {} {}",
            self.pile,
            t[0],
            t[1],
            t[2],
            t[3],
            self.seats,
            self.to_move,
            self.last,
            u8::from(self.turnable)
        )
    }
}

impl FromStr for Heap {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let v = fields::<9>(s)?;
        Ok(Heap {
            pile: v[0] as u8,
            taken: [v[1] as u8, v[2] as u8, v[3] as u8, v[4] as u8],
            seats: v[5] as u8,
            to_move: v[6] as u8,
            last: v[7] as u8,
            turnable: v[8] == 1,
        })
    }
}

impl Game for Heap {
    type Move = Mv;
    type Moves = MoveList<Mv, 3>;
    const ID: &'static str = "toy-heap";
    const MOVE_CODES: usize = 4;

    fn start() -> Self {
        Heap::new(10, 3)
    }
    fn seats(&self) -> usize {
        usize::from(self.seats)
    }
    fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.finished() {
            return;
        }
        if self.full(self.to_move) {
            moves.push(Mv(0));
            return;
        }
        for k in 1..=3.min(self.pile) {
            moves.push(Mv(k));
        }
    }
    fn play(&self, mv: Mv) -> Self {
        let mut next = *self;
        let s = self.to_move;
        if mv.0 > 0 {
            next.pile -= mv.0;
            next.taken[usize::from(s)] += mv.0;
            if next.pile == 0 {
                next.last = s;
            }
        }
        next.to_move = if mv.0 == 3 { s } else { (s + 1) % self.seats };
        next
    }
    fn outcome(&self) -> Option<Outcome> {
        self.finished().then(|| Outcome::new(self.scores()))
    }
    fn key(&self) -> u64 {
        let t = self.taken;
        mix(u64::from_le_bytes([
            self.pile,
            t[0],
            t[1],
            t[2],
            t[3],
            self.to_move,
            self.last,
            self.seats,
        ]))
    }
    fn parse_move(&self, text: &str) -> Result<Mv, MoveError> {
        parse_mv(self, text)
    }
    fn with_turn(&self, seat: Seat) -> Option<Self> {
        self.turnable.then_some(Heap {
            to_move: seat.0,
            ..*self
        })
    }
}

/// Utilities of [`Heap`]: each seat's margin over the best other seat (terminal: the final
/// scores; static: the tokens held, 2 each), times 10. Margins sum to `<= 0`.
pub struct HeapEval {
    pub prune: bool,
}

fn margins(scores: &BySeat<i32>) -> BySeat<Score> {
    let o = Outcome::new(*scores);
    let mut u = BySeat::new(scores.len());
    for (s, _) in scores.iter() {
        u[s] = 10 * o.margin(s);
    }
    u
}

impl SeatEvaluator<Heap> for HeapEval {
    fn evaluate_seats(&self, pos: &Heap) -> BySeat<Score> {
        margins(&pos.scores())
    }
    fn terminal_seats(&self, _pos: &Heap, outcome: &Outcome) -> BySeat<Score> {
        margins(&outcome.scores)
    }
    fn move_order(&self, _pos: &Heap, mv: Mv) -> i32 {
        i32::from(mv.0)
    }
    fn sum_bound(&self) -> Option<SumBound> {
        // A seat holds at most HEAP_FULL + 2 tokens (5, then 3 more), so no score exceeds
        // 2 x 8 + 3 = 19 and no margin (x 10) is below -190.
        self.prune.then_some(SumBound {
            min_utility: -190,
            max_sum: 0,
        })
    }
}

/// Cells of [`Cells`]' board (4 x 3).
pub const CELLS: u8 = 12;

/// Three seats take turns claiming empty cells of a 4 x 3 board until it is full. A seat
/// scores the hashed weights (1..=9) of its cells plus 4 per orthogonally adjacent pair of
/// its cells. Moves commute, so the same position is reached by many orders at the same
/// depth: a stress test for the transposition table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cells {
    /// Owner per cell: 0 = empty, else seat + 1.
    pub owner: [u8; CELLS as usize],
    pub to_move: u8,
}

impl Cells {
    /// The empty board, seat 0 to move.
    pub fn new() -> Self {
        Cells {
            owner: [0; CELLS as usize],
            to_move: 0,
        }
    }

    /// Scores so far.
    pub fn scores(&self) -> BySeat<i32> {
        let mut sc = BySeat::new(3);
        for c in 0..CELLS as usize {
            let o = self.owner[c];
            if o == 0 {
                continue;
            }
            let s = Seat(o - 1);
            sc[s] += 1 + (mix(c as u64) % 9) as i32;
            let (x, y) = (c % 4, c / 4);
            if x < 3 && self.owner[c + 1] == o {
                sc[s] += 4;
            }
            if y < 2 && self.owner[c + 4] == o {
                sc[s] += 4;
            }
        }
        sc
    }
}

impl Default for Cells {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for o in self.owner {
            write!(f, "{o}")?;
        }
        write!(f, " {}", self.to_move)
    }
}

impl FromStr for Cells {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let bad = || PositionError(format!("bad cells '{s}'"));
        let (board, to_move) = s.split_once(' ').ok_or_else(bad)?;
        let mut c = Cells::new();
        if board.len() != CELLS as usize {
            return Err(bad());
        }
        for (i, ch) in board.chars().enumerate() {
            c.owner[i] = ch.to_digit(4).ok_or_else(bad)? as u8;
        }
        c.to_move = to_move.parse().map_err(|_| bad())?;
        Ok(c)
    }
}

impl Game for Cells {
    type Move = Mv;
    type Moves = MoveList<Mv, 12>;
    const ID: &'static str = "toy-cells";
    const MOVE_CODES: usize = CELLS as usize;

    fn start() -> Self {
        Cells::new()
    }
    fn seats(&self) -> usize {
        3
    }
    fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        for c in 0..CELLS {
            if self.owner[usize::from(c)] == 0 {
                moves.push(Mv(c));
            }
        }
    }
    fn play(&self, mv: Mv) -> Self {
        let mut next = *self;
        next.owner[usize::from(mv.0)] = self.to_move + 1;
        next.to_move = (self.to_move + 1) % 3;
        next
    }
    fn outcome(&self) -> Option<Outcome> {
        self.owner
            .iter()
            .all(|&o| o != 0)
            .then(|| Outcome::new(self.scores()))
    }
    fn key(&self) -> u64 {
        // Distinct domains for the seat to move and the cells (mix(1) must not stand for
        // both "seat 1 to move" and "cell 0 owned by seat 0").
        let mut k = mix(0x5EA7_0000 | u64::from(self.to_move));
        for (c, &o) in self.owner.iter().enumerate() {
            k ^= mix((c as u64) << 8 | u64::from(o));
        }
        k
    }
    fn parse_move(&self, text: &str) -> Result<Mv, MoveError> {
        parse_mv(self, text)
    }
    fn with_turn(&self, seat: Seat) -> Option<Self> {
        Some(Cells {
            to_move: seat.0,
            ..*self
        })
    }
}

/// Utilities of [`Cells`]: margins over the best other seat (scores so far, or final).
pub struct CellsEval;

impl SeatEvaluator<Cells> for CellsEval {
    fn evaluate_seats(&self, pos: &Cells) -> BySeat<Score> {
        margins(&pos.scores())
    }
    fn terminal_seats(&self, _pos: &Cells, outcome: &Outcome) -> BySeat<Score> {
        margins(&outcome.scores)
    }
    fn move_order(&self, _pos: &Cells, mv: Mv) -> i32 {
        (mix(u64::from(mv.0)) % 9) as i32
    }
}
