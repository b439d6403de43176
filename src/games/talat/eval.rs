//! The baseline Talat evaluation: each seat's estimated final points in centi-points, from
//! realised points (captures, goal-row towers on frozen boards) plus weighted live terms:
//! towers standing on a goal row of a live board, rows advanced, captures available now
//! (more when the seat is to move), own towers under attack, and related pairs that may
//! still meet (the freeze module's cheap test). A tower counts for the seat that moves it
//! (the Djinn's towers for their controller in `talat-2p`).
//!
//! [`Eval`] is a [`SeatEvaluator`] for `talat` (utility: a seat's estimate minus the best
//! other seat's) and an [`Evaluator`] for `talat-2p` (the side to move's estimate minus the
//! opponent's). Every weight lives in [`PARAMS`], loadable from JSON like Othello's.

use super::board::{BoardId, STEPS, Side};
use super::djinn::controller;
use super::game::OUTCOME_SCALE;
use super::moves::{Move, MoveKind};
use super::position::{CAPTURE_POINTS, GOAL_POINTS, Position};
use super::tower::CAPTURES;
use crate::game::{BySeat, Outcome, Seat};
use crate::search::{Evaluator, Score, SeatEvaluator, WIN_MIN};

pub use crate::game::Param;

crate::eval_weights! {
    /// The registry of evaluation weights, in [`Weights`] index order (centi-points
    /// per unit of each feature).
    @builtin "builtin:texel" => include_str!("../../../tuning/talat-texel.txt"), "tuning/talat-texel.txt";
    GoalLive = "goal_live", 240, 0, 300, 10;
    Advance = "advance_per_row", 30, 0, 150, 5;
    Tower = "tower_live", 40, 0, 300, 10;
    Threat = "threat", 120, 0, 500, 10;
    ThreatToMove = "threat_to_move", 350, 0, 500, 10;
    Attacked = "attacked", -60, -500, 0, 10;
    Reach = "reach_pair", 15, 0, 200, 5;
}

/// The baseline evaluator (both variants). Scores in centi-points.
#[derive(Clone, Debug, Default)]
pub struct Eval {
    weights: Weights,
}

/// Largest static score magnitude returned (well inside the search's win range).
const CLAMP: Score = WIN_MIN - 1;

/// Largest utility magnitude of the three-seat utilities, centi-points: no seat can be more
/// than 117 points (18 captures and 9 goal towers) plus the tie-break bonus behind or ahead,
/// so terminal margins stay within it and static ones are clamped to it. It is the
/// `min_utility` of the max-n sum bound.
pub const MAX_UTILITY: Score = 12_000;

impl Eval {
    /// An evaluator with these weights.
    #[must_use]
    pub fn new(weights: Weights) -> Self {
        Self { weights }
    }

    /// The weights in use.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Each colour slot's estimated final points in centi-points, indexed by seat (entries
    /// past the seat count are 0): each seat's [`features`] row dotted with
    /// `[1, weights...]`.
    #[must_use]
    pub fn estimates<const TWO: bool>(&self, pos: &Position<TWO>) -> [i32; 3] {
        let f = features(pos);
        let mut est = [0i32; 3];
        for (e, row) in est.iter_mut().zip(&f) {
            *e = row[0]
                + row[1..]
                    .iter()
                    .zip(&self.weights.0)
                    .map(|(&c, &w)| c * w)
                    .sum::<i32>();
        }
        est
    }
}

/// Columns of a [`features`] row: the realised centi-points, then one count per weight.
pub const FEATURES: usize = 1 + PARAMS.len();

/// Each seat's evaluation terms (rows indexed by seat; rows past the seat count are 0):
/// column 0 the centi-points already realised (captures, goal-row towers on frozen
/// boards), column `1 + i` the count of weight `i`'s feature ([`PARAMS`] order) on the live
/// boards: towers, towers on a goal row, rows advanced, captures available (split by
/// whether the tower's seat is to move), own towers under attack, and related pairs that
/// may still meet. A seat's estimate is `row[0] + sum(w[i] * row[1 + i])`, so Texel tuning
/// fits the weights on these.
#[must_use]
pub fn features<const TWO: bool>(pos: &Position<TWO>) -> [[i32; FEATURES]; 3] {
    let mut f = [[0i32; FEATURES]; 3];
    let col = |p: P| 1 + p as usize;
    for (seat, row) in f.iter_mut().enumerate().take(Position::<TWO>::SEATS) {
        let caps: u32 = (0..3).map(|v| pos.taken(seat, v).count_ones()).sum();
        row[0] = 100 * CAPTURE_POINTS * caps as i32;
    }
    let to_move = pos.seat_to_move();
    for b in BoardId::ALL {
        let board = pos.board(b);
        let ctrl = [
            controller(TWO, b, Side::Lower),
            controller(TWO, b, Side::Upper),
        ];
        if pos.is_frozen(b) {
            for side in Side::BOTH {
                let n = (board.occ[side.index()] & side.goal_row()).count_ones() as i32;
                f[ctrl[side.index()]][0] += 100 * GOAL_POINTS * n;
            }
            continue;
        }
        let mut attacked = [0u32; 2];
        for side in Side::BOTH {
            let s = side.index();
            let c = ctrl[s];
            let threat = if c == to_move {
                col(P::ThreatToMove)
            } else {
                col(P::Threat)
            };
            let mut towers = board.occ[s];
            while towers != 0 {
                let sq = towers.trailing_zeros() as usize;
                towers &= towers - 1;
                let goal = STEPS[s][sq] == 0;
                f[c][col(P::Tower)] += 1;
                if goal {
                    f[c][col(P::GoalLive)] += 1;
                } else {
                    let rows = if side == Side::Lower {
                        sq / 5
                    } else {
                        4 - sq / 5
                    };
                    f[c][col(P::Advance)] += rows as i32;
                }
                let caps = board.captures_from(side, sq);
                attacked[1 - s] |= caps;
                f[c][threat] += caps.count_ones() as i32;
            }
        }
        for side in Side::BOTH {
            f[ctrl[side.index()]][col(P::Attacked)] += attacked[side.index()].count_ones() as i32;
        }
        // Related pairs that may still meet, credited to the stronger tower's seat.
        let mut xs = board.occ[0];
        while xs != 0 {
            let sx = xs.trailing_zeros() as usize;
            xs &= xs - 1;
            let kx = board.kind_at(sx);
            let mut ys = board.occ[1];
            while ys != 0 {
                let sy = ys.trailing_zeros() as usize;
                ys &= ys - 1;
                let ky = board.kind_at(sy);
                let g = (sy / 5) as i32 - (sx / 5) as i32;
                let df = ((sx % 5) as i32 - (sy % 5) as i32).abs();
                if g < 0 || df > g + 1 {
                    continue;
                }
                if CAPTURES[kx] >> ky & 1 != 0 {
                    f[ctrl[0]][col(P::Reach)] += 1;
                }
                if CAPTURES[ky] >> kx & 1 != 0 {
                    f[ctrl[1]][col(P::Reach)] += 1;
                }
            }
        }
    }
    f
}

/// Terminal utility of `seat`: its outcome margin in centi-points (`OUTCOME_SCALE` units
/// are tenths of a point, tie-break bonus in the last digit).
fn terminal_margin(outcome: &Outcome, seat: usize) -> Score {
    outcome.margin(Seat(seat as u8)) * (100 / OUTCOME_SCALE)
}

impl<const TWO: bool> SeatEvaluator<Position<TWO>> for Eval {
    fn evaluate_seats(&self, pos: &Position<TWO>) -> BySeat<Score> {
        let n = Position::<TWO>::SEATS;
        let est = self.estimates(pos);
        let mut out = BySeat::new(n);
        for s in 0..n {
            let best_other = (0..n)
                .filter(|&o| o != s)
                .map(|o| est[o])
                .max()
                .unwrap_or(0);
            out[Seat(s as u8)] = (est[s] - best_other).clamp(-MAX_UTILITY, MAX_UTILITY);
        }
        out
    }

    /// Margins to the best opponent sum to at most 0 (the leader's lead cancels the
    /// runner-up's deficit; the third is behind), clamped or not; none is below
    /// `-MAX_UTILITY`.
    fn sum_bound(&self) -> Option<crate::search::SumBound> {
        Some(crate::search::SumBound {
            min_utility: -MAX_UTILITY,
            max_sum: 0,
        })
    }

    fn terminal_seats(&self, _pos: &Position<TWO>, outcome: &Outcome) -> BySeat<Score> {
        let n = Position::<TWO>::SEATS;
        let mut out = BySeat::new(n);
        for s in 0..n {
            out[Seat(s as u8)] = terminal_margin(outcome, s).clamp(-MAX_UTILITY, MAX_UTILITY);
        }
        out
    }

    fn move_order(&self, pos: &Position<TWO>, mv: Move) -> i32 {
        order(pos, mv)
    }
}

/// Captures first (bigger victims earlier), then steps onto a goal row, then the rest.
fn order<const TWO: bool>(pos: &Position<TWO>, mv: Move) -> i32 {
    match mv.kind() {
        MoveKind::Capture { board, to, .. } => 1000 + pos.board(board).kind_at(to) as i32,
        MoveKind::Step { to, .. } if !(5..20).contains(&to) => 500,
        _ => 0,
    }
}

impl Evaluator<Position<true>> for Eval {
    fn evaluate(&self, pos: &Position<true>) -> Score {
        let est = self.estimates(pos);
        let me = pos.seat_to_move();
        (est[me] - est[1 - me]).clamp(-CLAMP, CLAMP)
    }

    fn terminal(&self, pos: &Position<true>, outcome: &Outcome) -> Score {
        terminal_margin(outcome, pos.seat_to_move())
    }

    fn move_order(&self, pos: &Position<true>, mv: Move) -> i32 {
        order(pos, mv)
    }
}
