//! Quixo positions for two players (`quixo`) and four players in two teams (`quixo-4p`),
//! on one code path: [`Position<FOUR>`] with `FOUR = false` ([`Quixo`]) or `true`
//! ([`Quixo4p`]).
//!
//! A position is three `u32` masks (X cubes, O cubes, member-2 dots), the board side, the
//! seat to move and the incremental Zobrist key. Seats: two players `0 = X`, `1 = O`;
//! four players `0 = A1, 1 = B1, 2 = A2, 3 = B2` in move order, team `seat & 1`
//! (0 = X: A1, A2; 1 = O: B1, B2), team member `seat / 2 + 1`.
//! Rules: `docs/rules/quixo.md`.

use crate::game::{BySeat, Game, MoveCode, MoveError, MoveList, Outcome, Seat, shown};

use super::geometry::{Geometry, MAX_SIZE, MIN_SIZE, Push, geometry_of};
use super::zobrist;

/// Most moves in a position: 44 pushes, times 2 dot directions with four players.
pub const MAX_MOVES: usize = 88;

/// A move: the cell taken and the cell it is put back at, as canonical cells `5*row + col`
/// (so `a1 = 0`, `e5 = 24` whatever the board size), and in the four-player game the team
/// member (1 or 2) the cube's dot points at (0 in the two-player game). Text `c1-a1`,
/// four players `c1-a1>2`; a forced pass is `pass`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) dot: u8,
}

impl Move {
    /// The forced pass of a four-player seat that has no cube it may take.
    pub const PASS: Move = Move {
        from: 255,
        to: 255,
        dot: 0,
    };

    /// A push from canonical cell `from` to `to` (each `5*row + col`, `< 25`) with dot
    /// `dot` (0 two players; 1 or 2 four players). Not checked for legality.
    #[must_use]
    pub const fn new(from: u8, to: u8, dot: u8) -> Self {
        Self { from, to, dot }
    }

    /// Whether this is the forced pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.from == 255
    }

    /// Canonical source cell `5*row + col` (255 for a pass).
    #[must_use]
    pub const fn from(self) -> u8 {
        self.from
    }

    /// Canonical destination cell `5*row + col` (255 for a pass).
    #[must_use]
    pub const fn to(self) -> u8 {
        self.to
    }

    /// Team member the dot points at: 1 or 2 (four players), 0 (two players).
    #[must_use]
    pub const fn dot(self) -> u8 {
        self.dot
    }
}

/// Codes: `(from * 25 + to) * 3 + dot` for pushes, [`PASS_CODE`] for the pass.
const PASS_CODE: u16 = 25 * 25 * 3;

impl MoveCode for Move {
    #[inline]
    fn code(self) -> u16 {
        if self.is_pass() {
            PASS_CODE
        } else {
            (u16::from(self.from) * 25 + u16::from(self.to)) * 3 + u16::from(self.dot)
        }
    }

    #[inline]
    fn from_code(code: u16) -> Self {
        if code == PASS_CODE {
            return Move::PASS;
        }
        Move {
            from: (code / 3 / 25) as u8,
            to: (code / 3 % 25) as u8,
            dot: (code % 3) as u8,
        }
    }
}

/// A Quixo position; `FOUR` selects the four-player team game. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<const FOUR: bool> {
    pub(crate) x: u32,
    pub(crate) o: u32,
    pub(crate) dots: u32,
    pub(crate) size: u8,
    pub(crate) seat: u8,
    /// Four players, informal variant: the dot always points at the partner.
    pub(crate) partner_dots: bool,
    pub(crate) key: u64,
}

/// The two-player game (`quixo`): X (seat 0) against O (seat 1).
pub type Quixo = Position<false>;
/// The four-player team game (`quixo-4p`): A1, B1, A2, B2; teams X (A1, A2) and O (B1, B2).
pub type Quixo4p = Position<true>;

impl<const FOUR: bool> Position<FOUR> {
    /// Number of seats: 2 or 4.
    pub const SEATS: u8 = if FOUR { 4 } else { 2 };

    /// The empty board of side `size` (3, 4 or 5), first seat (X / A1) to move.
    ///
    /// # Errors
    /// A size outside 3..=5.
    pub fn empty(size: u8) -> Result<Self, crate::game::PositionError> {
        Self::from_masks(size, 0, 0, 0, 0)
    }

    /// A position from its masks (bits as in [`super::geometry`]): `x` and `o` the cubes of
    /// each symbol, `dots` the marked cells whose dot points at team member 2 (must be 0
    /// for two players), `seat` to move.
    ///
    /// # Errors
    /// A size outside 3..=5, cells off the board, a cell with both symbols, a dot on a
    /// blank cell or in the two-player game, or a seat out of range.
    pub fn from_masks(
        size: u8,
        x: u32,
        o: u32,
        dots: u32,
        seat: u8,
    ) -> Result<Self, crate::game::PositionError> {
        use crate::game::PositionError as E;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(E::Shape(format!("board size {size} is not 3, 4 or 5")));
        }
        let g = geometry_of(size);
        if (x | o | dots) & !g.full != 0 {
            return Err(E::Shape(format!("cells outside the {size}x{size} board")));
        }
        if x & o != 0 {
            return Err(E::Impossible("a cell holds both X and O".into()));
        }
        if dots & !(x | o) != 0 || (!FOUR && dots != 0) {
            return Err(E::Impossible(
                "a dot on a blank cube or in the two-player game".into(),
            ));
        }
        if seat >= Self::SEATS {
            return Err(E::SideToMove(format!("seat {seat} out of range")));
        }
        Ok(Self {
            x,
            o,
            dots,
            size,
            seat,
            partner_dots: false,
            key: zobrist::key_from_scratch(x, o, dots, seat),
        })
    }

    /// The same position under the informal four-player variant where a cube put back
    /// always has its dot pointing at the mover's partner (`on`), or the published rule
    /// where the mover chooses (`!on`, the default). No effect with two players.
    #[must_use]
    pub fn with_partner_dots(mut self, on: bool) -> Self {
        self.partner_dots = FOUR && on;
        self
    }

    /// Whether the "dot always points at the partner" variant is on.
    #[must_use]
    pub fn partner_dots(&self) -> bool {
        self.partner_dots
    }

    /// Board side (3, 4 or 5).
    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The board's geometry.
    #[inline(always)]
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        geometry_of(self.size)
    }

    /// Mask of X cubes.
    #[must_use]
    pub fn x(&self) -> u32 {
        self.x
    }

    /// Mask of O cubes.
    #[must_use]
    pub fn o(&self) -> u32 {
        self.o
    }

    /// Mask of marked cubes whose dot points at team member 2 (four players).
    #[must_use]
    pub fn dots(&self) -> u32 {
        self.dots
    }

    /// Seat to move (see the module docs).
    #[must_use]
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// Team of the seat to move: 0 = X, 1 = O.
    #[inline(always)]
    #[must_use]
    pub fn team_to_move(&self) -> u8 {
        self.seat & 1
    }

    /// Cubes of the side (team) to move and of the other side: `(own, other)`.
    #[inline(always)]
    #[must_use]
    pub fn own_other(&self) -> (u32, u32) {
        if self.seat & 1 == 0 {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        }
    }

    /// Border cubes the seat to move may take: blank ones and its own (four players: its
    /// team's cubes whose dot points at it).
    #[inline(always)]
    #[must_use]
    pub fn takeable(&self) -> u32 {
        let g = self.geometry();
        let (own, other) = self.own_other();
        let mine = if FOUR {
            if self.seat >= 2 {
                own & self.dots
            } else {
                own & !self.dots
            }
        } else {
            own
        };
        g.border & !(own | other) | (g.border & mine)
    }

    /// The winning team (0 = X, 1 = O) if the board has a line: the side to move if it has
    /// one (the last mover completed its opponent's line and lost, even if it completed
    /// its own too), else the other side.
    #[inline]
    #[must_use]
    pub fn winner_team(&self) -> Option<u8> {
        let g = self.geometry();
        let (own, other) = self.own_other();
        let t = self.seat & 1;
        if g.has_line(own) {
            Some(t)
        } else if g.has_line(other) {
            Some(t ^ 1)
        } else {
            None
        }
    }

    /// The push of `mv` on this board, if `mv` names one.
    #[inline(always)]
    #[must_use]
    pub fn push_of(&self, mv: Move) -> Option<&'static Push> {
        if mv.from >= 25 || mv.to >= 25 {
            return None;
        }
        let g = self.geometry();
        let i = g.index[mv.from as usize][mv.to as usize];
        (i != 255).then(|| &g.pushes[i as usize])
    }

    /// The masks `(x, o, dots)` after `mv` (a legal push), without touching the key.
    #[inline(always)]
    #[must_use]
    pub fn masks_after(&self, p: &Push, dot: u8) -> (u32, u32, u32) {
        let mut x = p.apply(self.x);
        let mut o = p.apply(self.o);
        let mut dots = if FOUR { p.apply(self.dots) } else { 0 };
        if self.seat & 1 == 0 {
            x |= p.dst;
        } else {
            o |= p.dst;
        }
        if FOUR && dot == 2 {
            dots |= p.dst;
        }
        (x, o, dots)
    }

    /// The outcome where team `w` (0 = X, 1 = O) has won.
    fn team_wins(w: u8) -> Outcome {
        let mut scores = BySeat::new(Self::SEATS as usize);
        for s in 0..Self::SEATS {
            scores[Seat(s)] = i32::from(s & 1 == w);
        }
        Outcome::new(scores)
    }

    /// The next seat in turn order.
    #[inline(always)]
    fn next_seat(&self) -> u8 {
        if FOUR {
            (self.seat + 1) & 3
        } else {
            self.seat ^ 1
        }
    }

    /// The key this position would have with the same board and the seat to move `seat`.
    #[inline(always)]
    fn key_with_seat(&self, seat: u8) -> u64 {
        self.key ^ zobrist::SEAT[self.seat as usize] ^ zobrist::SEAT[seat as usize]
    }

    /// Key recomputed from scratch (tests compare it with the incremental key).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        zobrist::key_from_scratch(self.x, self.o, self.dots, self.seat)
    }
}

impl<const FOUR: bool> Game for Position<FOUR> {
    const SQUARE_SYMMETRY: bool = true;
    type Move = Move;
    type Moves = MoveList<Move, MAX_MOVES>;

    const ID: &'static str = if FOUR { "quixo-4p" } else { "quixo" };
    const MOVE_CODES: usize = PASS_CODE as usize + 1;
    const REPETITION_DRAWS: bool = true;
    const DEFAULT_MAX_PLIES: u64 = 200;

    fn start() -> Self {
        Self::empty(MAX_SIZE).expect("size 5 is valid")
    }

    fn seats(&self) -> usize {
        Self::SEATS as usize
    }

    fn to_move(&self) -> Seat {
        Seat(self.seat)
    }

    fn team(&self, seat: Seat) -> u8 {
        seat.0 & 1
    }

    #[inline]
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.winner_team().is_some() {
            return;
        }
        let g = self.geometry();
        let mut sources = self.takeable();
        if sources == 0 {
            // Only possible with four players (two players may always take a blank or own
            // cube, and the game ends before the border is all the opponent's).
            moves.push(Move::PASS);
            return;
        }
        while sources != 0 {
            let cell = sources.trailing_zeros();
            sources &= sources - 1;
            for p in g.pushes_from(cell) {
                if FOUR && self.partner_dots {
                    // Member 1 (A1, B1) points at member 2 and vice versa.
                    moves.push(Move::new(p.from, p.to, 2 - (self.seat >> 1)));
                } else if FOUR {
                    moves.push(Move::new(p.from, p.to, 1));
                    moves.push(Move::new(p.from, p.to, 2));
                } else {
                    moves.push(Move::new(p.from, p.to, 0));
                }
            }
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let next = self.next_seat();
        let Some(p) = self.push_of(mv) else {
            debug_assert!(mv.is_pass(), "{mv:?} is not a push on this board");
            return Self {
                seat: next,
                key: self.key_with_seat(next),
                ..*self
            };
        };
        let (x, o, dots) = self.masks_after(p, mv.dot);
        let key = self.key_with_seat(next)
            ^ zobrist::fold(&zobrist::CUBE[0], x ^ self.x)
            ^ zobrist::fold(&zobrist::CUBE[1], o ^ self.o)
            ^ zobrist::fold(&zobrist::DOT, dots ^ self.dots);
        Self {
            x,
            o,
            dots,
            size: self.size,
            seat: next,
            partner_dots: self.partner_dots,
            key,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(Self::team_wins(self.winner_team()?))
    }

    /// Two players: rejection sampling over the push table, on the bare masks (no key, no
    /// move list): a push drawn uniformly from all of them is redrawn while its source
    /// shows the opponent's symbol, which leaves every legal push equally likely. Some
    /// push is always legal in an unfinished two-player game (a border all the opponent's
    /// holds its lines). Four players: the default.
    fn random_playout<R: FnMut(u32) -> u32>(
        &self,
        below: &mut R,
        max_plies: usize,
    ) -> Option<Outcome> {
        if FOUR {
            return crate::game::random_playout_by_lists(*self, below, max_plies);
        }
        let g = self.geometry();
        let pushes = g.pushes();
        let n = pushes.len() as u32;
        let (mut me, mut opp) = self.own_other();
        let mut team = self.seat & 1;
        for _ in 0..max_plies {
            if g.has_line(me) {
                return Some(Self::team_wins(team));
            }
            if g.has_line(opp) {
                return Some(Self::team_wins(team ^ 1));
            }
            let p = loop {
                let p = &pushes[below(n) as usize];
                if p.src & opp == 0 {
                    break p;
                }
            };
            (me, opp) = (p.apply(opp), p.apply(me) | p.dst);
            team ^= 1;
        }
        None
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv: Move = text.parse()?;
        if FOUR != (mv.dot != 0) && !mv.is_pass() {
            return Err(MoveError::Malformed {
                text: text.to_string(),
                message: if FOUR {
                    format!(
                        "move '{}': the four-player game needs a dot suffix >1 or >2",
                        shown(text)
                    )
                } else {
                    format!(
                        "move '{}': a dot suffix only exists in the four-player game",
                        shown(text)
                    )
                },
            });
        }
        if !self.is_legal(mv) {
            let message = format!(
                "move '{}' is not legal here ({})",
                shown(text),
                self.why_illegal(mv)
            );
            let text = text.to_string();
            return Err(if self.winner_team().is_some() {
                MoveError::GameOver { text, message }
            } else {
                MoveError::Illegal { text, message }
            });
        }
        Ok(mv)
    }
}

impl<const FOUR: bool> Position<FOUR> {
    /// Why `mv` (assumed illegal) is illegal, for error messages.
    fn why_illegal(&self, mv: Move) -> &'static str {
        if self.winner_team().is_some() {
            return "the game is over";
        }
        if mv.is_pass() {
            return "a pass is only allowed with no cube to take";
        }
        let g = self.geometry();
        let (Some(src), Some(_)) = (g.cell_bit(mv.from), g.cell_bit(mv.to)) else {
            return "a cell is off the board";
        };
        if g.border >> src & 1 == 0 {
            return "only border cubes may be taken";
        }
        if self.takeable() >> src & 1 == 0 {
            return if FOUR {
                "that cube belongs to the other team or its dot points at the partner"
            } else {
                "that cube shows the opponent's symbol"
            };
        }
        if mv.from == mv.to {
            return "a cube may not go back where it came from";
        }
        if self.partner_dots && self.push_of(mv).is_some() {
            return "in this variant the dot must point at the partner";
        }
        "the destination is not an end of the source's row or column"
    }
}
