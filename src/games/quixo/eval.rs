//! The baseline Quixo evaluation, for two players and the four-player team game alike
//! (the side to move's team against the other): line potentials, cube count, tempo
//! (border cubes each side may take), centre and corners. Scores are in centi-cubes
//! ([`super::SCORE_UNIT`]) from the side to move's team's view; finished games score
//! `WIN` / `-WIN`, so the alpha-beta reports mate distances.
//!
//! Every weight lives in [`PARAMS`] (name, default, range, tuning step), so a weights file
//! (JSON object of `name: value`, e.g. `tuning/quixo-baseline.json`) can set any of them.

use super::position::{Move, Position};
use crate::game::{Game, Outcome};
use crate::search::{Evaluator, Score, WIN, WIN_MIN};

pub use crate::game::Param;

crate::eval_weights! {
    /// The registry of evaluation weights, in [`Weights`] index order (centi-cubes per
    /// feature unit).
    @builtin "builtin:texel" => include_str!("../../../tuning/quixo-texel.txt"), "tuning/quixo-texel.txt";
    // An open line (no opposing cube) missing 1, 2 or 3+ cubes of one side.
    Line1 = "line_missing_1", 120, 0, 2000, 10;
    Line2 = "line_missing_2", 30, 0, 1000, 4;
    Line3 = "line_missing_3", 6, 0, 500, 2;
    // Cube count difference.
    Cube = "cube", 10, -200, 200, 2;
    // Border cubes the side may take (blank or own) minus the opponent's.
    Tempo = "tempo", 4, -100, 100, 1;
    // Centre cell(s) held.
    Centre = "centre", 25, -200, 200, 4;
    // Corners held.
    Corner = "corner", 8, -200, 200, 2;
    // Bonus for having the move.
    ToMove = "to_move", 20, -200, 200, 4;
}

const _: () = assert!(PARAMS.len() == 8, "features() fills one count per weight");

/// The baseline evaluator (both game ids). Scores in centi-cubes, side to move's team's
/// view.
#[derive(Clone, Debug, Default)]
pub struct Eval {
    weights: Weights,
}

/// Centre cells per size 3, 4, 5 (bits as in [`super::geometry`]).
const CENTRE: [u32; 3] = [1 << 4, (1 << 5) | (1 << 6) | (1 << 9) | (1 << 10), 1 << 12];

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

    /// Score of a board of side `size` with `own` cubes for the side to move and `other`
    /// for the opponent, in centi-cubes for the side to move: [`features`] dotted with the
    /// weights, clamped inside the win range. No allocation, no loops over cells: one pass
    /// over the `2n + 2` lines.
    #[must_use]
    pub fn score(&self, size: u8, own: u32, other: u32) -> Score {
        let w = &self.weights;
        let g = super::geometry::geometry_of(size);
        let table = [0, w.get(P::Line1), w.get(P::Line2), w.get(P::Line3)];
        let t = side_terms(g, size, own, other);
        let s = line_sum(g, size, own, other, &table)
            + w.get(P::Cube) * t[0]
            + w.get(P::Tempo) * t[1]
            + w.get(P::Centre) * t[2]
            + w.get(P::Corner) * t[3]
            + w.get(P::ToMove);
        s.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }
}

/// Sum over the lines of `table[k]` for each open line (no opposing cube) of the side to
/// move missing `k` cubes (3 for 3 or more), minus the same for the opponent's open lines.
#[inline]
fn line_sum(
    g: &super::geometry::Geometry,
    size: u8,
    own: u32,
    other: u32,
    table: &[i32; 4],
) -> i32 {
    let n = u32::from(size);
    let mut sum = 0;
    for &l in g.lines() {
        let (a, b) = ((own & l).count_ones(), (other & l).count_ones());
        if b == 0 && a > 0 {
            sum += table[(n - a).min(3) as usize];
        } else if a == 0 && b > 0 {
            sum -= table[(n - b).min(3) as usize];
        }
    }
    sum
}

/// Own minus opponent's: cubes, tempo (border cells the side may take), centre cells,
/// corners.
#[inline]
fn side_terms(g: &super::geometry::Geometry, size: u8, own: u32, other: u32) -> [i32; 4] {
    let cubes = own.count_ones() as i32 - other.count_ones() as i32;
    let tempo = (g.border & !other).count_ones() as i32 - (g.border & !own).count_ones() as i32;
    let centre = CENTRE[usize::from(size - 3)];
    let centres = (own & centre).count_ones() as i32 - (other & centre).count_ones() as i32;
    let corners = (own & g.corners).count_ones() as i32 - (other & g.corners).count_ones() as i32;
    [cubes, tempo, centres, corners]
}

/// The evaluation's feature counts, indexed like [`PARAMS`] (own minus opponent's where a
/// feature belongs to a side): open lines missing 1, 2 and 3+ cubes, cubes, tempo (border
/// cubes the side may take), centre cells, corners, and 1 for having the move. The score
/// is `sum(w[i] * f[i])` (before clamping), so Texel tuning fits the weights on these.
#[must_use]
pub fn features(size: u8, own: u32, other: u32) -> [i32; 8] {
    let g = super::geometry::geometry_of(size);
    let lines = |k: usize| {
        let mut table = [0; 4];
        table[k] = 1;
        line_sum(g, size, own, other, &table)
    };
    let t = side_terms(g, size, own, other);
    let mut f = [0i32; 8];
    f[P::Line1 as usize] = lines(1);
    f[P::Line2 as usize] = lines(2);
    f[P::Line3 as usize] = lines(3);
    f[P::Cube as usize] = t[0];
    f[P::Tempo as usize] = t[1];
    f[P::Centre as usize] = t[2];
    f[P::Corner as usize] = t[3];
    f[P::ToMove as usize] = 1;
    f
}

impl<const FOUR: bool> Evaluator<Position<FOUR>> for Eval {
    #[inline]
    fn evaluate(&self, pos: &Position<FOUR>) -> Score {
        let (own, other) = pos.own_other();
        self.score(pos.size(), own, other)
    }

    fn terminal(&self, pos: &Position<FOUR>, outcome: &Outcome) -> Score {
        if outcome.score(pos.to_move()) > 0 {
            WIN
        } else {
            -WIN
        }
    }

    /// Immediate wins first, then moves taking a blank (they add a cube), and moves that
    /// complete the opponent's line last.
    fn move_order(&self, pos: &Position<FOUR>, mv: Move) -> i32 {
        let Some(p) = pos.push_of(mv) else { return 0 };
        let (x, o, _) = pos.masks_after(p, mv.dot());
        let (own, other) = if pos.team_to_move() == 0 {
            (x, o)
        } else {
            (o, x)
        };
        let g = pos.geometry();
        if g.has_line(other) {
            -1_000_000
        } else if g.has_line(own) {
            1_000_000
        } else {
            let (before, _) = pos.own_other();
            (own.count_ones() - before.count_ones()) as i32 * 10
        }
    }
}
