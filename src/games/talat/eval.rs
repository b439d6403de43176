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

use std::fmt::Write as _;
use std::path::Path;

use super::board::{BoardId, STEPS, Side};
use super::djinn::controller;
use super::game::OUTCOME_SCALE;
use super::moves::{Move, MoveKind};
use super::position::{CAPTURE_POINTS, GOAL_POINTS, Position};
use super::tower::CAPTURES;
use crate::game::{BySeat, Outcome, Seat};
use crate::search::{Evaluator, Score, SeatEvaluator, WIN_MIN};

/// One tunable weight: its name, default, allowed range and SPSA step.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Name used in weights files.
    pub name: &'static str,
    /// Default value (centi-points per feature unit).
    pub default: i32,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// Perturbation step for SPSA.
    pub step: i32,
}

macro_rules! params {
    ($($idx:ident = $name:literal, $def:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// The registry of evaluation weights, in [`Weights`] index order (centi-points
        /// per unit of each feature).
        pub const PARAMS: &[Param] = &[$(Param { name: $name, default: $def, min: $min, max: $max, step: $step }),*];
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        #[derive(Clone, Copy)]
        enum P { $($idx),* }
    };
}

params! {
    GoalLive = "goal_live", 240, 0, 300, 10;
    Advance = "advance_per_row", 30, 0, 150, 5;
    Tower = "tower_live", 40, 0, 300, 10;
    Threat = "threat", 120, 0, 500, 10;
    ThreatToMove = "threat_to_move", 350, 0, 500, 10;
    Attacked = "attacked", -60, -500, 0, 10;
    Reach = "reach_pair", 15, 0, 200, 5;
}

/// Evaluation weights, indexed like [`PARAMS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub Vec<i32>);

impl Default for Weights {
    fn default() -> Self {
        Self(PARAMS.iter().map(|p| p.default).collect())
    }
}

impl Weights {
    /// Reads a weights file: a JSON object `{"name": value, ...}`; names not given keep
    /// their defaults.
    ///
    /// # Errors
    /// A one-line message naming the file and the unreadable part, an unknown name (listing
    /// the valid ones) or a value outside its range.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read weights file {}: {e}", path.display()))?;
        Self::from_json(&text).map_err(|e| format!("weights file {}: {e}", path.display()))
    }

    /// Parses the JSON form of [`Weights::load`].
    ///
    /// # Errors
    /// As [`Weights::load`].
    pub fn from_json(text: &str) -> Result<Self, String> {
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).map_err(|e| format!("not a JSON object of weights: {e}"))?;
        let mut w = Self::default();
        for (k, v) in map {
            let i = PARAMS.iter().position(|p| p.name == k).ok_or_else(|| {
                let names: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
                format!("unknown weight '{k}' (valid: {})", names.join(", "))
            })?;
            let p = &PARAMS[i];
            let x = v
                .as_i64()
                .ok_or_else(|| format!("weight '{k}' must be an integer, got {v}"))?;
            if x < i64::from(p.min) || x > i64::from(p.max) {
                return Err(format!(
                    "weight '{k}' = {x} is outside [{}, {}]",
                    p.min, p.max
                ));
            }
            w.0[i] = x as i32;
        }
        Ok(w)
    }

    /// The JSON form, one weight per line, in registry order.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\n");
        for (i, p) in PARAMS.iter().enumerate() {
            let sep = if i + 1 < PARAMS.len() { "," } else { "" };
            let _ = writeln!(s, "  \"{}\": {}{sep}", p.name, self.0[i]);
        }
        s.push('}');
        s
    }

    fn get(&self, p: P) -> i32 {
        self.0[p as usize]
    }
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
    /// past the seat count are 0).
    #[must_use]
    pub fn estimates<const TWO: bool>(&self, pos: &Position<TWO>) -> [i32; 3] {
        let w = &self.weights;
        let mut est = [0i32; 3];
        for (seat, e) in est.iter_mut().enumerate().take(Position::<TWO>::SEATS) {
            let caps: u32 = (0..3).map(|v| pos.taken(seat, v).count_ones()).sum();
            *e = 100 * CAPTURE_POINTS * caps as i32;
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
                    est[ctrl[side.index()]] += 100 * GOAL_POINTS * n;
                }
                continue;
            }
            let mut attacked = [0u32; 2];
            for side in Side::BOTH {
                let s = side.index();
                let c = ctrl[s];
                let threat = if c == to_move {
                    w.get(P::ThreatToMove)
                } else {
                    w.get(P::Threat)
                };
                let mut towers = board.occ[s];
                while towers != 0 {
                    let sq = towers.trailing_zeros() as usize;
                    towers &= towers - 1;
                    let goal = STEPS[s][sq] == 0;
                    est[c] += w.get(P::Tower);
                    if goal {
                        est[c] += w.get(P::GoalLive);
                    } else {
                        let rows = if side == Side::Lower {
                            sq / 5
                        } else {
                            4 - sq / 5
                        };
                        est[c] += w.get(P::Advance) * rows as i32;
                    }
                    let caps = board.captures_from(side, sq);
                    attacked[1 - s] |= caps;
                    est[c] += threat * caps.count_ones() as i32;
                }
            }
            for side in Side::BOTH {
                est[ctrl[side.index()]] +=
                    w.get(P::Attacked) * attacked[side.index()].count_ones() as i32;
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
                        est[ctrl[0]] += w.get(P::Reach);
                    }
                    if CAPTURES[ky] >> kx & 1 != 0 {
                        est[ctrl[1]] += w.get(P::Reach);
                    }
                }
            }
        }
        est
    }
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
