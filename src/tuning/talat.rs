//! Talat specifics of tuning: Texel rows that compare two seats' estimated points.
//!
//! The evaluation estimates each seat's final points ([`features`]: realised points plus
//! weighted live terms). A row is the difference of two seats' feature rows, its constant
//! the difference of their realised points, labelled 1 when the first seat finished ahead
//! of the second (tie-break included), 0.5 level, 0 behind: the logistic of the estimated
//! lead predicts who finishes ahead. `talat-2p` has one such row per position (side to
//! move against the other seat); three-player `talat` has all three pairs, from the
//! sample's per-seat final scores.

use super::selfplay::Sample;
use super::texel::{TexelData, TexelGame, result_of};
use crate::games::talat::Position;
use crate::games::talat::eval::{FEATURES, PARAMS, features};

/// Adds the row "seat `a` against seat `b`" with result `result`.
fn push_pair(f: &[[i32; FEATURES]; 3], a: usize, b: usize, result: f32, data: &mut TexelData) {
    let mut coef = [0f32; FEATURES - 1];
    for (k, c) in coef.iter_mut().enumerate() {
        *c = (f[a][k + 1] - f[b][k + 1]) as f32;
    }
    data.push_with_offset(&coef, (f[a][0] - f[b][0]) as f32, result);
}

impl<const TWO: bool> TexelGame for Position<TWO> {
    const REGISTRY: &'static [super::Param] = PARAMS;
    const TITLE: &'static str = "Talat evaluation weights (both variants)";
    const UNIT: &'static str = crate::games::talat::SCORE_UNIT;
    const LABEL: &'static str =
        "final points x 10 (tie-break in the last digit) minus the best other seat's";

    fn weights_of(spec: &crate::engine::EngineSpec) -> Result<Vec<i32>, String> {
        spec.eval_weights::<crate::games::talat::eval::Weights>()
            .map(|w| w.0)
    }

    fn add_rows(sample: &Sample, data: &mut TexelData) -> Result<(), String> {
        let pos: Self = sample.position.parse().map_err(|e| format!("{e}"))?;
        let f = features(&pos);
        if TWO {
            let me = pos.seat_to_move();
            push_pair(&f, me, 1 - me, result_of(sample.result), data);
            return Ok(());
        }
        if sample.scores.len() != 3 {
            return Err(format!(
                "three-player Talat needs every seat's final score (a fourth field), got {}",
                sample.scores.len()
            ));
        }
        let me = pos.seat_to_move();
        let best_other = (0..3)
            .filter(|&o| o != me)
            .map(|o| sample.scores[o])
            .max()
            .unwrap_or(0);
        if sample.result != sample.scores[me] - best_other {
            return Err(format!(
                "the result {} is not the side to move's score minus the best other's ({:?})",
                sample.result, sample.scores
            ));
        }
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let r = result_of(sample.scores[a] - sample.scores[b]);
            push_pair(&f, a, b, r, data);
        }
        Ok(())
    }
}
