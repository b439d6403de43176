//! Talat (Bruce Whitehill): three players on three 5x5 boards, and the two-player Djinn
//! variant. Rules: `docs/rules/talat.md`; this is the first engine for the game.
//!
//! Two game ids, one code path ([`Position`] with a const flag):
//! - `talat` ([`Talat`]): seats 0, 1, 2 = White, Grey, Black; White places first.
//! - `talat-2p` ([`Talat2p`]): seats 0, 1 = White, Grey; Black is the Djinn, moved by White
//!   on `GB` and by Grey on `BW`. The Djinn is set up at random from a seed by default
//!   ([`SetupOptions`]).
//!
//! # Notation
//!
//! Boards `WG`, `GB`, `BW` (on `XY`, X starts on row 1 and Y on row 5), squares `a1`..`e5`
//! (files a..e, rows 1..5), towers `T1`..`H3` (shape triangle/square/hexagon, height 1..3).
//!
//! | move | text | meaning |
//! |---|---|---|
//! | placement | `H3@WG:c1` | put your (or, in Djinn setup, the Djinn's) large hexagon on `WG:c1`; the start row says whose |
//! | step | `WG:c1-c2` | the tower on `WG:c1` steps to `c2` (straight or diagonally forward, empty) |
//! | capture | `WG:c2xd2` | the tower on `WG:c2` captures the tower on `d2` (forward, diagonally forward or sideways) |
//! | pass | `pass` | forced when no move exists |
//!
//! Input is case-insensitive. The one-line position text (see [`notation`]), here after
//! `H3@WG:a1 T1@GB:c1 S2@BW:e1`:
//!
//! ```text
//! talat WG:H3..../...../...../...../..... GB:..T1../...../...../...../..... BW:....S2/...../...../...../..... taken:-/-/- to:W phase:setup frozen:- score:0,0,0
//! ```
//!
//! five rows per board, row 1 first, `/`-separated, `.` empty, upper case the board's row-1
//! player and lower case its row-5 player; then captured towers per seat (victim colour and
//! kind, `GS2,BT1`, or `-`), the colour to move, the phase (`setup`/`play`/`over`), the
//! frozen boards and the points per seat. [`Position::diagram`] draws the three boards side
//! by side for `play`.
//!
//! # Results
//!
//! 5 points per capture, 3 per tower on its goal row at the end; [`crate::game::Outcome`]
//! scores are `10 x points + tie-break bonus` ([`OUTCOME_SCALE`]), so its ranking applies
//! the tie-break. [`Position::points`] gives the points.
//!
//! # The rules file's \[choice\] points, one place each
//!
//! - Who moves first after the 27th placement (seat 0): [`seat_after_setup`].
//! - A player with no legal move passes, and the pass is a ply: [`Position::generate`].
//! - The tie-break (captured sides, then hexagons, then squares, then a shared place):
//!   [`Position::tie_break`], applied by [`Position::result`].
//! - The Djinn's setup in `talat-2p` (random from a seed, or placed by the players):
//!   [`DjinnSetup`]; a random setup of the players' towers: [`TowerSetup`].
//!
//! # Evaluation
//!
//! [`eval::Eval`] is a [`crate::search::Evaluator`] for `talat-2p` and a
//! [`crate::search::SeatEvaluator`] for the multi-player searches of `talat`; the players
//! are put together in the engine layer (`src/engine/talat.rs`).

mod board;
mod djinn;
pub mod eval;
pub mod freeze;
mod game;
mod moves;
pub mod notation;
pub mod perft;
mod position;
mod tower;
pub mod zobrist;

pub use board::{
    ALL_SQUARES, Board, BoardId, Colour, REACH, ROW1, ROW5, SIDEWAYS, STEPS, Side, parse_square,
    square_name,
};
pub use djinn::{
    CONTROLS, DEFAULT_DJINN_SEED, DjinnSetup, SetupOptions, SetupRng, TowerSetup, controller,
    random_djinn, seat_after_setup,
};
pub use game::OUTCOME_SCALE;
pub use moves::{Move, MoveKind};
pub use position::{CAPTURE_POINTS, GOAL_POINTS, MAX_MOVES, Moves, Phase, Position};
pub use tower::{CAPTURES, Kind, Shape, related};

/// Three-player Talat, game id `talat`.
pub type Talat = Position<false>;
/// Two-player Talat with the Djinn, game id `talat-2p`.
pub type Talat2p = Position<true>;

/// The MCTS reward's full-win margin, in outcome units (tenths of a point, see
/// [`OUTCOME_SCALE`]): a playout won by 20 points or more rewards 1, lost by 20 or more 0,
/// a tie 1/2, linear between.
pub const MCTS_MARGIN_SCALE: i32 = 20 * OUTCOME_SCALE;

/// Unit of Talat evaluation scores: hundredths of a point.
pub const SCORE_UNIT: &str = "centi-points";
