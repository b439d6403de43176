//! Quixo specifics of tuning: Texel rows from the evaluation's feature counts.

use super::selfplay::Sample;
use super::texel::{TexelData, TexelGame, result_of};
use crate::games::quixo::Position;
use crate::games::quixo::eval::{PARAMS, features};

/// One row per sample: the side to move's team's [`features`], labelled with the game's
/// result for that team (1 win, 0.5 draw by repetition, 0 loss).
impl<const FOUR: bool> TexelGame for Position<FOUR> {
    const REGISTRY: &'static [super::Param] = PARAMS;
    const TITLE: &'static str = "Quixo evaluation weights (both game ids)";
    const UNIT: &'static str = crate::games::quixo::SCORE_UNIT;
    const LABEL: &'static str = "1 win, 0 draw, -1 loss of the team";

    fn weights_of(spec: &crate::engine::EngineSpec) -> Result<Vec<i32>, String> {
        spec.eval_weights::<crate::games::quixo::eval::Weights>()
            .map(|w| w.0)
    }

    fn add_rows(sample: &Sample, data: &mut TexelData) -> Result<(), String> {
        if !(-1..=1).contains(&sample.result) {
            return Err(format!(
                "a Quixo result is 1, 0 or -1, got {}",
                sample.result
            ));
        }
        let pos: Self = sample.position.parse().map_err(|e| format!("{e}"))?;
        let (own, other) = pos.own_other();
        let f = features(pos.size(), own, other).map(|x| x as f32);
        data.push(&f, result_of(sample.target()));
        Ok(())
    }
}
