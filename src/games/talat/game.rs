//! The [`Game`] implementation shared by `talat` and `talat-2p`, the final result and
//! checked move input.

use super::board::{BoardId, SIDEWAYS, STEPS, Side, square_name};
use super::moves::{Move, MoveKind};
use super::position::{Moves, Phase, Position};
use crate::game::{BySeat, Game, MoveError, Outcome, PositionError, Seat, shown};

/// [`Outcome`] scores are `OUTCOME_SCALE x points + tie-break bonus`, where the bonus
/// (`0..=2`, below the scale) is the number of seats with equal points that this seat beats
/// on the tie-break ([`Position::tie_break`]). So `Outcome::rank` gives the rules' ranking:
/// higher points first, ties broken, fully tied seats sharing a place (1, 1, 3).
pub const OUTCOME_SCALE: i32 = 10;

impl<const TWO: bool> Position<TWO> {
    /// The final result, `Some` once two boards are frozen (see [`OUTCOME_SCALE`]).
    #[must_use]
    pub fn result(&self) -> Option<Outcome> {
        if self.phase() != Phase::Over {
            return None;
        }
        let n = Self::SEATS;
        let mut scores = BySeat::new(n);
        for s in 0..n {
            let (p, tb) = (self.points(s), self.tie_break(s));
            let bonus = (0..n)
                .filter(|&o| o != s && self.points(o) == p && self.tie_break(o) < tb)
                .count() as i32;
            scores[Seat(s as u8)] = OUTCOME_SCALE * p + bonus;
        }
        Some(Outcome::new(scores))
    }

    /// Why `mv` is illegal here, `None` if it is legal.
    #[must_use]
    pub fn illegality(&self, mv: Move) -> Option<String> {
        let mut moves = Moves::default();
        self.generate(&mut moves);
        if moves.contains(&mv) {
            return None;
        }
        let phase = self.phase();
        if phase == Phase::Over {
            return Some("the game is over".into());
        }
        let seat = self.seat_to_move();
        let who = super::notation::seat_name(TWO, seat);
        Some(match (mv.kind(), phase) {
            (MoveKind::Pass, Phase::Setup) => "no passing during setup".into(),
            (MoveKind::Pass, _) => format!("{who} has a legal move, so may not pass"),
            (MoveKind::Place { .. }, _) if phase != Phase::Setup => {
                "setup is over: move a tower instead".into()
            }
            (MoveKind::Place { kind, board, sq }, _) => {
                let colour = self.placing_colour();
                let side = Side::from_row(sq);
                if (5..20).contains(&sq) || board.colour(side) as usize != colour {
                    format!(
                        "{board}:{} is not a start square of {}",
                        square_name(sq),
                        super::notation::colour_name(TWO, colour)
                    )
                } else if self.unplaced(colour) >> kind.index() & 1 == 0 {
                    format!(
                        "{}'s {kind} is already placed",
                        super::notation::colour_name(TWO, colour)
                    )
                } else {
                    format!("{board}:{} is occupied", square_name(sq))
                }
            }
            (_, Phase::Setup) => "towers are still being placed".into(),
            (MoveKind::Step { board, from, to } | MoveKind::Capture { board, from, to }, _) => {
                self.why_not_moved(board, from, to, mv.is_capture(), seat, &who)
            }
        })
    }

    fn why_not_moved(
        &self,
        board: BoardId,
        from: usize,
        to: usize,
        capture: bool,
        seat: usize,
        who: &str,
    ) -> String {
        let b = self.board(board);
        let Some((side, kind)) = b.at(from) else {
            return format!("no tower on {board}:{}", square_name(from));
        };
        if Self::controller(board, side) != seat {
            return format!(
                "{who} does not move the tower on {board}:{}",
                square_name(from)
            );
        }
        if self.is_frozen(board) {
            return format!("board {board} is frozen");
        }
        let forward = STEPS[side.index()][from];
        let target = b.at(to);
        if !capture {
            if forward >> to & 1 == 0 {
                return format!(
                    "{board}:{} to {} is not one square straight or diagonally forward",
                    square_name(from),
                    square_name(to)
                );
            }
            return format!(
                "{board}:{} is occupied (write a capture with 'x')",
                square_name(to)
            );
        }
        if (forward | SIDEWAYS[from]) >> to & 1 == 0 {
            return format!(
                "{board}:{} cannot capture on {}: not forward, diagonally forward or sideways next to it",
                square_name(from),
                square_name(to)
            );
        }
        match target {
            None => format!(
                "{board}:{} is empty (write a step with '-')",
                square_name(to)
            ),
            Some((s, _)) if s == side => {
                format!("{board}:{} holds a friendly tower", square_name(to))
            }
            Some((_, victim)) => format!("{kind} cannot capture {victim}"),
        }
    }

    /// Parses and checks a move (see [`Game::parse_move`]).
    ///
    /// # Errors
    /// A malformed text, or an illegal move with the reason.
    pub fn checked_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse(text)?;
        match self.illegality(mv) {
            None => Ok(mv),
            Some(why) => {
                let message = format!("illegal move '{}': {why}", shown(text.trim()));
                let text = text.to_string();
                Err(if self.phase() == Phase::Over {
                    MoveError::GameOver { text, message }
                } else {
                    MoveError::Illegal { text, message }
                })
            }
        }
    }
}

impl<const TWO: bool> Game for Position<TWO> {
    type Move = Move;
    type Moves = Moves;
    const ID: &'static str = if TWO { "talat-2p" } else { "talat" };
    const MOVE_CODES: usize = Move::CODES;
    const SEEDED_SETUP: bool = TWO;

    /// `talat`: the empty boards, White to place. `talat-2p`: the Djinn placed at random
    /// from seed [`super::DEFAULT_DJINN_SEED`], White to place.
    fn start() -> Self {
        Self::new(&super::SetupOptions::default())
    }

    /// `talat-2p`: the Djinn placed at random from `seed`; `talat`: the empty boards.
    fn start_seeded(seed: u64) -> Self {
        Self::new(&super::SetupOptions {
            djinn: super::DjinnSetup::Random(seed),
            ..super::SetupOptions::default()
        })
    }

    fn seats(&self) -> usize {
        Self::SEATS
    }

    fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }

    fn generate_moves(&self, moves: &mut Moves) {
        self.generate(moves);
    }

    fn play(&self, mv: Move) -> Self {
        self.apply(mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.checked_move(text)
    }

    /// The same towers with `seat` to move (key updated), for best-reply search's
    /// "the other opponents skip their turn"; `None` once the game is over, and when `seat`
    /// would have no move there (in the setup phase, a seat with every tower placed).
    fn with_turn(&self, seat: Seat) -> Option<Self> {
        if self.result().is_some() || seat.index() >= Self::SEATS {
            return None;
        }
        let mut p = *self;
        p.key ^=
            super::zobrist::to_move(self.to_move as usize) ^ super::zobrist::to_move(seat.index());
        p.to_move = seat.0;
        let mut moves = Moves::default();
        p.generate(&mut moves);
        (!moves.is_empty()).then_some(p)
    }
}

impl<const TWO: bool> std::str::FromStr for Position<TWO> {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        super::notation::parse_position(s)
    }
}
