//! The baseline Othello evaluation: mobility, potential mobility, corners, X- and C-squares,
//! stable discs and disc count, each weighted per game phase and interpolated by the
//! number of empty squares. Scores are in centi-discs from the side to move's view.
//!
//! Every weight lives in [`PARAMS`] (name, default, range, tuning step), so a weights
//! file from `tuning/` or an SPSA run can set any of them by name.

use std::path::Path;
use std::sync::Arc;

use super::movegen::{legal_moves, neighbours};
use super::patterns::PatternWeights;
use super::patterns::v2::PatternWeights2;
use super::position::{Move, Position, final_score};
use super::probcut::MpcParams;
use super::stability::stable_discs;
pub use super::symmetry::symmetric_images;
use crate::game::Outcome;
use crate::search::{Evaluator, ProbCut, Score};

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (b2, g2, b7, g7), each diagonal to a corner.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];
/// C-squares: edge squares next to a corner, with that corner.
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1 << 0),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];

pub use crate::game::Param;

crate::eval_weights! {
    /// The registry of evaluation weights, in [`Weights`] index order. `_open` weights
    /// apply with 60 empties, `_end` weights with 0, linearly in between.
    @builtin "builtin:texel" => include_str!("../../../tuning/othello-texel.txt"), "tuning/othello-texel.txt";
    MobOpen = "mobility_open", 40, 0, 400, 4;
    MobEnd = "mobility_end", 20, 0, 400, 4;
    PotOpen = "potential_mobility_open", 15, 0, 200, 2;
    PotEnd = "potential_mobility_end", 5, 0, 200, 2;
    CornerOpen = "corner_open", 350, 0, 2000, 20;
    CornerEnd = "corner_end", 150, 0, 2000, 20;
    XOpen = "x_square_open", -180, -1000, 0, 10;
    XEnd = "x_square_end", -40, -1000, 0, 10;
    COpen = "c_square_open", -50, -500, 0, 5;
    CEnd = "c_square_end", -10, -500, 0, 5;
    StableOpen = "stable_open", 80, 0, 500, 5;
    StableEnd = "stable_end", 60, 0, 500, 5;
    DiscOpen = "disc_open", -5, -100, 100, 2;
    DiscEnd = "disc_end", 40, -100, 200, 2;
}

/// The evaluation Othello engines use when none is named: `bestmove`, `play`, `analyze`,
/// NBoard, `serve` and every level engine (`level = N`, `othello-level-N`, `gtp --level`).
/// Presets that name no weights (`othello-ab-*`) keep the baseline evaluation.
pub const DEFAULT_WEIGHTS: &str = "builtin:patterns2";

/// The Othello evaluator: the baseline features with [`Weights`], or a fitted pattern
/// evaluation (format 1, [`super::patterns`], or format 2, [`super::patterns::v2`]) when
/// one is set. Scores in centi-discs, side to move's view.
#[derive(Clone, Debug, Default)]
pub struct Eval {
    weights: Weights,
    patterns: Option<Arc<PatternWeights>>,
    patterns2: Option<Arc<PatternWeights2>>,
    /// Multi-ProbCut parameters for the midgame search (`None`: full-width search).
    mpc: Option<MpcParams>,
}

/// Static ordering value of each square for the midgame search: corners first, X- and
/// C-squares last (the classic square table, in units of ordering priority only).
static SQUARE_ORDER: [i8; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100,
];

impl Eval {
    /// An evaluator with these weights.
    #[must_use]
    pub fn new(weights: Weights) -> Self {
        Self {
            weights,
            patterns: None,
            patterns2: None,
            mpc: None,
        }
    }

    /// The pattern evaluation with these fitted weights.
    #[must_use]
    pub fn with_patterns(patterns: Arc<PatternWeights>) -> Self {
        Self {
            weights: Weights::default(),
            patterns: Some(patterns),
            patterns2: None,
            mpc: None,
        }
    }

    /// The format-2 pattern evaluation with these fitted weights.
    #[must_use]
    pub fn with_patterns2(patterns: Arc<PatternWeights2>) -> Self {
        Self {
            weights: Weights::default(),
            patterns: None,
            patterns2: Some(patterns),
            mpc: None,
        }
    }

    /// The evaluator a weights file describes: a pattern weights file (see
    /// [`super::patterns`]) gives the pattern evaluation, any other file is read by
    /// [`Weights::load`] for the baseline evaluation. Four names need no file (the shipped
    /// weights are embedded in the binary): `builtin:patterns` (the fitted patterns, format
    /// 1), `builtin:patterns2` (format 2), `builtin:texel` (the Texel-tuned baseline weights)
    /// and `builtin:baseline` (the hand-set defaults).
    ///
    /// # Errors
    /// As [`PatternWeights::load`] or [`Weights::load`]; a tuning checkpoint is named as
    /// one, and a file whose first line is no pattern file's and whose first 64 KiB are not
    /// UTF-8 text as neither kind of weights file.
    pub fn load(path: &Path) -> Result<Self, String> {
        match path.to_str() {
            Some("builtin:patterns") => return Ok(Self::with_patterns(super::patterns::shipped())),
            Some("builtin:patterns2") => {
                return Ok(Self::with_patterns2(super::patterns::v2::shipped()));
            }
            Some(name)
                if name == "builtin:baseline"
                    || Weights::BUILTIN.iter().any(|(n, _)| *n == name) =>
            {
                return Weights::load(path).map(Self::new);
            }
            Some(name) if name.starts_with("builtin:") => {
                let mut valid = vec!["builtin:patterns", "builtin:patterns2", "builtin:baseline"];
                valid.extend(Weights::BUILTIN.iter().map(|(n, _)| *n));
                return Err(format!(
                    "unknown built-in weights '{}' (valid: {})",
                    crate::game::shown(name),
                    valid.join(", ")
                ));
            }
            _ => {}
        }
        // The whole file is pinned (see `crate::game::pinned`): every engine built from
        // this path in this run gets the same content, whatever happens to the file.
        let pinned = crate::game::pinned::read_bytes(
            path,
            "weights file",
            crate::game::params::MAX_WEIGHTS_FILE,
        )?;
        let head = &pinned.bytes[..pinned.bytes.len().min(HEAD as usize)];
        let magics = format!(
            "'{}' or '{}'",
            super::patterns::MAGIC,
            super::patterns::v2::MAGIC
        );
        if PatternWeights::is_pattern_file(head) {
            Ok(Self::with_patterns(PatternWeights::load(path)?))
        } else if PatternWeights2::is_pattern_file(head) {
            Ok(Self::with_patterns2(PatternWeights2::load(path)?))
        } else if head.starts_with(b"tessera-othello-patterns ") {
            Err(format!(
                "pattern weights file {}: format version not supported (this build reads {magics})",
                path.display(),
            ))
        } else if crate::game::params::is_checkpoint(head) {
            Err(crate::game::params::checkpoint_error(path))
        } else if let Some((line, why)) = binary_line(head) {
            // Text weights files are UTF-8 text; the only binary weights are pattern files.
            Err(format!(
                "weights file {}: not a tessera Othello pattern file (the first line is not {magics}) nor a text weights file (line {line} {why})",
                path.display(),
            ))
        } else {
            Weights::load(path).map(Self::new)
        }
    }

    /// This evaluation with Multi-ProbCut in the midgame search (see [`super::probcut`]),
    /// or without it (`None`).
    #[must_use]
    pub fn with_mpc(mut self, mpc: Option<MpcParams>) -> Self {
        self.mpc = mpc;
        self
    }

    /// This evaluation with Multi-ProbCut from `source` (`builtin`: the shipped table
    /// fitted with this evaluation, [`Eval::mpc_fit`]; or a parameter file's path) at
    /// confidence `t` (default [`super::probcut::DEFAULT_T`]); `None`: without it.
    ///
    /// # Errors
    /// As [`MpcParams::load`].
    pub fn with_mpc_source(self, source: Option<&str>, t: Option<f64>) -> Result<Self, String> {
        let mpc = source
            .map(|m| {
                let t = t.map_or(super::probcut::DEFAULT_T, |t| t as f32);
                MpcParams::load(m, t, self.mpc_fit())
            })
            .transpose()?;
        Ok(self.with_mpc(mpc))
    }

    /// Which of the shipped Multi-ProbCut tables fits this evaluation (`mpc = "builtin"`).
    #[must_use]
    pub fn mpc_fit(&self) -> super::probcut::FittedWith {
        if self.patterns2.is_some() {
            super::probcut::FittedWith::Patterns2
        } else {
            super::probcut::FittedWith::Other
        }
    }

    /// The Multi-ProbCut parameters, when the search uses them.
    #[must_use]
    pub fn mpc(&self) -> Option<&MpcParams> {
        self.mpc.as_ref()
    }

    /// The evaluation named by [`DEFAULT_WEIGHTS`] (built into the binary).
    ///
    /// # Panics
    /// Never: the name is a built-in one (tested).
    #[must_use]
    pub fn default_patterns() -> Self {
        Self::load(Path::new(DEFAULT_WEIGHTS)).expect("DEFAULT_WEIGHTS is built in")
    }

    /// The pattern weights, when this is the format-1 pattern evaluation.
    #[must_use]
    pub fn patterns(&self) -> Option<&PatternWeights> {
        self.patterns.as_deref()
    }

    /// The pattern weights, when this is the format-2 pattern evaluation.
    #[must_use]
    pub fn patterns2(&self) -> Option<&PatternWeights2> {
        self.patterns2.as_deref()
    }

    /// The weights in use.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Score of (`p` to move, `o`) in centi-discs for `p`.
    #[must_use]
    pub fn score(&self, p: u64, o: u64) -> Score {
        if let Some(pw) = &self.patterns2 {
            return pw.score(p, o);
        }
        if let Some(pw) = &self.patterns {
            return pw.score(p, o);
        }
        let w = &self.weights;
        let empties = (!(p | o)).count_ones() as i32;
        // Phase: 60 empties = opening (t = 60), 0 = end.
        let mix = |open: P, end: P, x: i32| -> i32 {
            (w.get(open) * empties + w.get(end) * (60 - empties)) * x
        };
        let [mob, pot, corners, xs, cs, stable, discs] = baseline_features(p, o);
        let total = mix(P::MobOpen, P::MobEnd, mob)
            + mix(P::PotOpen, P::PotEnd, pot)
            + mix(P::CornerOpen, P::CornerEnd, corners)
            + mix(P::XOpen, P::XEnd, xs)
            + mix(P::COpen, P::CEnd, cs)
            + mix(P::StableOpen, P::StableEnd, stable)
            + mix(P::DiscOpen, P::DiscEnd, discs);
        (total / 60).clamp(-6400, 6400)
    }
}

/// How much of a weights file [`Eval::load`] reads to tell its kind: the magic line, and
/// enough of what follows to see binary weights after a pattern file's header.
const HEAD: u64 = 64 << 10;

/// The line (from 1) of the first byte of `head` no text weights file holds, and why: a
/// NUL byte (a zero-filled file), or a sequence that is not UTF-8 (a character cut at the
/// end of `head` does not count).
fn binary_line(head: &[u8]) -> Option<(usize, &'static str)> {
    let line_at = |at: usize| 1 + head[..at].iter().filter(|&&b| b == b'\n').count();
    let nul = head.iter().position(|&b| b == 0);
    let bad = std::str::from_utf8(head)
        .err()
        .filter(|e| e.error_len().is_some())
        .map(|e| e.valid_up_to());
    match (nul, bad) {
        (Some(n), b) if b.is_none_or(|b| n <= b) => {
            Some((line_at(n), "holds a NUL byte (a zero-filled file?)"))
        }
        (_, Some(b)) => Some((line_at(b), "is not UTF-8 text")),
        _ => None,
    }
}

/// The baseline evaluation's features of (`p` to move, `o`), each as `p`'s count minus
/// `o`'s: mobility, potential mobility (empties next to the opponent's discs), corners,
/// X-squares next to an empty corner, C-squares next to an empty corner, stable discs, discs.
/// Each has an `_open` and an `_end` weight in [`PARAMS`], in this order.
#[must_use]
pub fn baseline_features(p: u64, o: u64) -> [i32; 7] {
    let empty = !(p | o);
    let mob = legal_moves(p, o).count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
    // Potential mobility: empties next to the opponent's discs are my future moves.
    let pot =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut xs = 0;
    for (x, c) in X_SQUARES {
        if empty & c != 0 {
            xs += i32::from(p & x != 0) - i32::from(o & x != 0);
        }
    }
    let mut cs = 0;
    for (x, c) in C_SQUARES {
        if empty & c != 0 {
            cs += (p & x).count_ones() as i32 - (o & x).count_ones() as i32;
        }
    }
    let stable = stable_discs(p, o).count_ones() as i32 - stable_discs(o, p).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    [mob, pot, corners, xs, cs, stable, discs]
}

/// The baseline score is linear in the weights: `score = sum(w[i] * c[i])` (before
/// rounding and clamping) with these coefficients `c`, indexed like [`PARAMS`]: a
/// feature's `_open` coefficient is its value times empties / 60, its `_end` coefficient
/// its value times (60 - empties) / 60. Used by Texel tuning.
#[must_use]
pub fn baseline_coefficients(p: u64, o: u64) -> [f32; 14] {
    let e = (!(p | o)).count_ones() as f32;
    let f = baseline_features(p, o);
    let mut c = [0f32; 14];
    for (k, &x) in f.iter().enumerate() {
        c[2 * k] = x as f32 * e / 60.0;
        c[2 * k + 1] = x as f32 * (60.0 - e) / 60.0;
    }
    c
}

impl Evaluator<Position> for Eval {
    fn evaluate(&self, pos: &Position) -> Score {
        self.score(pos.player(), pos.opponent())
    }

    /// 100 x the final disc difference (empties to the winner): exact, in centi-discs.
    fn terminal(&self, pos: &Position, _outcome: &Outcome) -> Score {
        100 * final_score(pos.player(), pos.opponent())
    }

    fn move_order(&self, _pos: &Position, mv: Move) -> i32 {
        mv.square()
            .map_or(0, |s| i32::from(SQUARE_ORDER[s.index()]))
    }

    #[inline]
    fn probcut(&self, pos: &Position, depth: u32) -> Option<ProbCut> {
        self.mpc.as_ref()?.probe(pos, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let e = Eval::default();
        assert_eq!(e.evaluate(&Position::start()), 0);
    }

    #[test]
    fn evaluation_is_invariant_under_symmetry() {
        use crate::game::Game;
        let e = Eval::default();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _game in 0..20 {
            let mut pos = Position::start();
            while let Some(mv) = {
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (!moves.is_empty()).then(|| moves[(seed % moves.len() as u64) as usize])
            } {
                pos = pos.play(mv);
                let images = symmetric_images(&pos);
                let v = e.evaluate(&images[0]);
                for img in &images {
                    assert_eq!(e.evaluate(img), v, "{img} vs {pos}");
                    assert_eq!(img.empties(), pos.empties());
                }
            }
        }
    }

    #[test]
    fn weights_json_round_trip_and_errors() {
        let w = Weights::default();
        assert_eq!(Weights::from_json(&w.to_json()).unwrap(), w);
        let e = Weights::from_json("{\"nope\": 1}").unwrap_err();
        assert!(
            e.contains("unknown weight 'nope'") && e.contains("mobility_open"),
            "{e}"
        );
        let e = Weights::from_json("{\"corner_open\": 99999}").unwrap_err();
        assert!(e.contains("outside"), "{e}");
        let e = Weights::from_json("[1,2]").unwrap_err();
        assert!(e.contains("JSON object"), "{e}");
    }

    #[test]
    fn weights_text_round_trip_and_errors() {
        let mut w = Weights::default();
        w.0[0] += 3;
        let text = w.to_text(&["how it was made".into()]);
        assert!(
            text.starts_with("# how it was made\nmobility_open"),
            "{text}"
        );
        assert_eq!(Weights::from_text(&text, "x.txt").unwrap(), w);
        let e = Weights::from_text("corner_open 5\nnope 1\n", "x.txt").unwrap_err();
        assert!(
            e.contains("x.txt line 2") && e.contains("unknown weight 'nope'"),
            "{e}"
        );
    }

    #[test]
    fn coefficients_reproduce_the_score() {
        use crate::game::Game;
        let mut w = Weights::default();
        w.0[3] = 17;
        let e = Eval::new(w.clone());
        let mut pos = Position::start();
        for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2"] {
            pos = pos.play(pos.parse_move(mv).unwrap());
            let c = baseline_coefficients(pos.player(), pos.opponent());
            let lin: f32 = c.iter().zip(&w.0).map(|(c, w)| c * *w as f32).sum();
            let got = e.score(pos.player(), pos.opponent());
            assert!((lin - got as f32).abs() <= 1.0, "{pos}: {lin} vs {got}");
        }
    }
}
