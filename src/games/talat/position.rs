//! The Talat position (both variants, one code path: `TWO` selects the Djinn variant),
//! move generation, copy-make and scoring.

use super::board::{Board, BoardId, ROW1, ROW5, STEPS, Side};
use super::djinn::{
    CONTROLS, DjinnSetup, SetupOptions, SetupRng, TowerSetup, controller, random_djinn,
    seat_after_setup,
};
use super::freeze::is_frozen;
use super::moves::{Move, MoveKind};
use super::tower::Kind;
use super::zobrist;
use crate::game::MoveList;

/// Most legal moves in any position: a setup turn offers up to 9 kinds x 10 squares.
/// (Play offers fewer: 9 own towers plus at most 5 Djinn towers, 5 moves each, is 70.)
pub const MAX_MOVES: usize = 90;

/// The fixed-capacity move list.
pub type Moves = MoveList<Move, MAX_MOVES>;

/// Points for each captured tower (rules file, "Scoring").
pub const CAPTURE_POINTS: i32 = 5;
/// Points for each tower on an opponent's start row at the end.
pub const GOAL_POINTS: i32 = 3;

/// All 9 kinds, as a mask.
pub(crate) const ALL_KINDS: u16 = 0x1FF;

/// A Talat position. `TWO = false` is `talat` (three seats), `TWO = true` is `talat-2p`
/// (two seats, Black is the Djinn). See [`super::Talat`] and [`super::Talat2p`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<const TWO: bool> {
    pub(crate) boards: [Board; 3],
    /// `taken[capturer seat][victim colour]`: kinds captured (bit = kind index).
    pub(crate) taken: [[u16; 3]; 3],
    /// Kinds each colour has still to place during setup. In `talat-2p` the Djinn's mask
    /// empties when its 8th tower is placed (the 9th is out of the game).
    pub(crate) unplaced: [u16; 3],
    /// Frozen boards, bit = board index.
    pub(crate) frozen: u8,
    pub(crate) to_move: u8,
    pub(crate) key: u64,
}

/// The game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Towers are being placed.
    Setup,
    /// Towers move.
    Play,
    /// Two boards are frozen: the game is over.
    Over,
}

impl<const TWO: bool> Position<TWO> {
    /// Number of seats: 3, or 2 for the Djinn variant.
    pub const SEATS: usize = if TWO { 2 } else { 3 };

    /// The position before the first placement (for `talat-2p` with the Djinn not yet
    /// placed: see [`Position::new`]). Seat 0 to move.
    #[must_use]
    pub fn empty() -> Self {
        let mut p = Self {
            boards: [Board::default(); 3],
            taken: [[0; 3]; 3],
            unplaced: [ALL_KINDS; 3],
            frozen: 0,
            to_move: 0,
            key: 0,
        };
        p.key = p.key_from_scratch();
        p
    }

    /// The start of a game with these setup options: the Djinn placed at random or left to
    /// the players (`talat-2p` only), then the players' towers left to them or placed at
    /// random. Deterministic in the seeds.
    #[must_use]
    pub fn new(options: &SetupOptions) -> Self {
        let mut p = Self::empty();
        if TWO && let DjinnSetup::Random(seed) = options.djinn {
            for (kind, board, sq) in random_djinn(seed) {
                p.put(board, Side::from_row(sq), kind, sq);
            }
            p.unplaced[2] = 0;
        }
        if let TowerSetup::Random(seed) = options.towers {
            let mut rng = SetupRng::new(seed ^ 0x70E5_5E7A_0000_0001);
            let mut moves = Moves::default();
            while p.phase() == Phase::Setup {
                p.generate(&mut moves);
                p = p.apply(moves[rng.below(moves.len())]);
            }
        }
        p
    }

    /// The seat to move (`0..SEATS`).
    #[must_use]
    pub const fn seat_to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The towers on `board`.
    #[must_use]
    pub const fn board(&self, board: BoardId) -> &Board {
        &self.boards[board as usize]
    }

    /// Whether `board` is frozen.
    #[must_use]
    pub const fn is_frozen(&self, board: BoardId) -> bool {
        self.frozen >> board as usize & 1 != 0
    }

    /// Frozen boards as a mask (bit = board index).
    #[must_use]
    pub const fn frozen_mask(&self) -> u8 {
        self.frozen
    }

    /// Kinds (mask, bit = kind index) of colour `victim` captured by `seat`.
    #[must_use]
    pub const fn taken(&self, seat: usize, victim: usize) -> u16 {
        self.taken[seat][victim]
    }

    /// Kinds colour `colour` has still to place (mask).
    #[must_use]
    pub const fn unplaced(&self, colour: usize) -> u16 {
        self.unplaced[colour]
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        if self.unplaced[0] | self.unplaced[1] | self.unplaced[2] != 0 {
            Phase::Setup
        } else if self.frozen.count_ones() >= 2 {
            Phase::Over
        } else {
            Phase::Play
        }
    }

    /// The seat moving (and scoring for) the towers of `side` on `board`.
    #[must_use]
    pub const fn controller(board: BoardId, side: Side) -> usize {
        controller(TWO, board, side)
    }

    /// The points of `seat` now: 5 per tower it captured, 3 per tower it moves standing on
    /// its goal row (final once the game is over).
    #[must_use]
    pub fn points(&self, seat: usize) -> i32 {
        let captures: u32 = self.taken[seat].iter().map(|m| m.count_ones()).sum();
        CAPTURE_POINTS * captures as i32 + GOAL_POINTS * self.goal_towers(seat) as i32
    }

    /// Number of towers `seat` moves that stand on their goal row (the opponent's start row).
    #[must_use]
    pub fn goal_towers(&self, seat: usize) -> u32 {
        let mut n = 0;
        let mut c = CONTROLS[usize::from(TWO)][seat];
        while c != 0 {
            let i = c.trailing_zeros() as usize;
            c &= c - 1;
            let side = Side::from_index(i & 1);
            n += (self.boards[i / 2].occ[side.index()] & side.goal_row()).count_ones();
        }
        n
    }

    /// The tie-break key of `seat` **\[choice\]** (rules file): (total sides of the towers it
    /// captured, captured hexagons, captured squares); higher wins.
    #[must_use]
    pub fn tie_break(&self, seat: usize) -> (u32, u32, u32) {
        let mut sides = 0;
        let mut hex = 0;
        let mut squares = 0;
        for &m in &self.taken[seat] {
            for k in Kind::all() {
                if m >> k.index() & 1 != 0 {
                    sides += k.sides();
                    hex += u32::from(k.shape() == super::Shape::Hexagon);
                    squares += u32::from(k.shape() == super::Shape::Square);
                }
            }
        }
        (sides, hex, squares)
    }

    /// Puts a tower without touching turn or phase (keys updated).
    pub(crate) fn put(&mut self, board: BoardId, side: Side, kind: usize, sq: usize) {
        let b = &mut self.boards[board as usize];
        b.occ[side.index()] |= 1 << sq;
        b.kind[sq] = kind as u8;
        self.unplaced[board.colour(side) as usize] &= !(1 << kind);
        self.key ^= zobrist::tower(board as usize, side.index(), kind, sq);
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = zobrist::to_move(self.to_move as usize);
        for (b, board) in self.boards.iter().enumerate() {
            for s in 0..2 {
                let mut t = board.occ[s];
                while t != 0 {
                    let sq = t.trailing_zeros() as usize;
                    t &= t - 1;
                    k ^= zobrist::tower(b, s, board.kind_at(sq), sq);
                }
            }
        }
        for (seat, row) in self.taken.iter().enumerate() {
            for (victim, &m) in row.iter().enumerate() {
                for kind in 0..9 {
                    if m >> kind & 1 != 0 {
                        k ^= zobrist::taken(seat, victim, kind);
                    }
                }
            }
        }
        k
    }

    /// The colour whose tower the seat to move places now (setup only): the Djinn's while
    /// its chosen placement lasts (`talat-2p`), else the seat's own.
    #[must_use]
    pub const fn placing_colour(&self) -> usize {
        if TWO && self.unplaced[2] != 0 {
            2
        } else {
            self.to_move as usize
        }
    }

    /// Writes every legal move (see [`crate::game::Game::generate_moves`]).
    pub fn generate(&self, moves: &mut Moves) {
        moves.clear();
        match self.phase() {
            Phase::Over => {}
            Phase::Setup => self.generate_placements(moves),
            Phase::Play => {
                self.generate_play(moves);
                if moves.is_empty() {
                    moves.push(Move::PASS);
                }
            }
        }
    }

    fn generate_placements(&self, moves: &mut Moves) {
        let colour = self.placing_colour();
        let mut kinds = self.unplaced[colour];
        // The colour's two start rows: row 1 of board `colour`, row 5 of the board before.
        let lower = BoardId::from_index(colour);
        let upper = BoardId::from_index(colour + 2);
        let free_lower = ROW1 & !self.boards[lower as usize].occupied();
        let free_upper = ROW5 & !self.boards[upper as usize].occupied();
        while kinds != 0 {
            let kind = Kind::from_index(kinds.trailing_zeros() as usize);
            kinds &= kinds - 1;
            for (board, free) in [(lower, free_lower), (upper, free_upper)] {
                let mut f = free;
                while f != 0 {
                    let sq = f.trailing_zeros() as usize;
                    f &= f - 1;
                    moves.push(Move::place(kind, board, sq));
                }
            }
        }
    }

    fn generate_play(&self, moves: &mut Moves) {
        let mut c = CONTROLS[usize::from(TWO)][self.to_move as usize];
        while c != 0 {
            let i = c.trailing_zeros() as usize;
            c &= c - 1;
            let b = i / 2;
            if self.frozen >> b & 1 != 0 {
                continue;
            }
            let board = &self.boards[b];
            let id = BoardId::from_index(b);
            let side = Side::from_index(i & 1);
            let empty = !board.occupied();
            let mut towers = board.occ[side.index()];
            while towers != 0 {
                let from = towers.trailing_zeros() as usize;
                towers &= towers - 1;
                let mut steps = STEPS[side.index()][from] & empty;
                while steps != 0 {
                    let to = steps.trailing_zeros() as usize;
                    steps &= steps - 1;
                    moves.push(Move::step(id, from, to));
                }
                let mut caps = board.captures_from(side, from);
                while caps != 0 {
                    let to = caps.trailing_zeros() as usize;
                    caps &= caps - 1;
                    moves.push(Move::capture(id, from, to));
                }
            }
        }
    }

    /// The position after the legal move `mv` (copy-make; the freeze test runs on the
    /// board moved on).
    #[must_use]
    pub fn apply(&self, mv: Move) -> Self {
        let mut p = *self;
        let seat = self.to_move as usize;
        let next = (seat + 1) % Self::SEATS;
        p.key ^= zobrist::to_move(seat);
        match mv.kind() {
            MoveKind::Pass => p.to_move = next as u8,
            MoveKind::Place { kind, board, sq } => {
                let side = Side::from_row(sq);
                p.put(board, side, kind.index(), sq);
                if TWO && board.colour(side) as usize == 2 && p.unplaced[2].count_ones() == 1 {
                    p.unplaced[2] = 0; // the ninth Djinn tower is out of the game
                }
                if p.phase() == Phase::Setup {
                    // The next seat in rotation with something to place. In a game every
                    // seat places in turn and this is `next`; positions reached through
                    // `Game::with_turn` (best-reply search) may have skipped a seat.
                    let mut n = next;
                    for _ in 0..Self::SEATS {
                        let colour = if TWO && p.unplaced[2] != 0 { 2 } else { n };
                        if p.unplaced[colour] != 0 {
                            break;
                        }
                        n = (n + 1) % Self::SEATS;
                    }
                    p.to_move = n as u8;
                } else {
                    p.to_move = seat_after_setup(TWO, seat) as u8;
                    for b in BoardId::ALL {
                        if is_frozen(&p.boards[b as usize]) {
                            p.frozen |= 1 << b as usize;
                        }
                    }
                }
            }
            MoveKind::Step { board, from, to } | MoveKind::Capture { board, from, to } => {
                let b = board as usize;
                let bd = &mut p.boards[b];
                let side = if bd.occ[0] >> from & 1 != 0 {
                    Side::Lower
                } else {
                    Side::Upper
                };
                let (s, o) = (side.index(), side.other().index());
                let kind = bd.kind_at(from);
                if mv.is_capture() {
                    let victim = bd.kind_at(to);
                    bd.occ[o] ^= 1 << to;
                    let vc = board.colour(side.other()) as usize;
                    p.taken[seat][vc] |= 1 << victim;
                    p.key ^= zobrist::tower(b, o, victim, to) ^ zobrist::taken(seat, vc, victim);
                }
                bd.occ[s] ^= (1 << from) | (1 << to);
                bd.kind[to] = kind as u8;
                bd.kind[from] = 0; // empty squares hold 0, so equal positions compare equal
                p.key ^= zobrist::tower(b, s, kind, from) ^ zobrist::tower(b, s, kind, to);
                if is_frozen(&p.boards[b]) {
                    p.frozen |= 1 << b;
                }
                p.to_move = next as u8;
            }
        }
        p.key ^= zobrist::to_move(p.to_move as usize);
        p
    }
}
