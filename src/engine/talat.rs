//! Talat players: the `talat-2p` alpha-beta engine, MCTS for both ids (per-seat rewards
//! make it a three-player engine for `talat`), and the multi-player searches for `talat`,
//! by [`make_player`] / [`make_player_2p`] from an engine specification.

use crate::engine::{AlphaBetaEngine, EngineSpec, Player};
use crate::games::talat::{MCTS_MARGIN_SCALE, Position, SCORE_UNIT, Talat, Talat2p, eval};

/// The `talat-2p` alpha-beta engine: the baseline evaluation with `weights` and a
/// `tt_mib` MiB transposition table.
#[must_use]
pub fn alphabeta_engine(
    name: impl Into<String>,
    weights: eval::Weights,
    tt_mib: usize,
) -> AlphaBetaEngine<Talat2p, eval::Eval> {
    AlphaBetaEngine::new(name, eval::Eval::new(weights), SCORE_UNIT, tt_mib)
}

/// The Talat MCTS engine of a specification (either variant; per-seat rewards make it a
/// three-player engine for `talat`): its `c`, `iterations`, `threads`, `seed`, `history`
/// and `tt-mb` as the node-arena budget; uniform playouts. A playout's reward is its score
/// margin over the best opponent scaled to `[0, 1]` ([`MCTS_MARGIN_SCALE`]), not only the
/// place.
#[must_use]
pub fn mcts_engine<const TWO: bool>(spec: &EngineSpec) -> Box<dyn Player<Position<TWO>>> {
    let cfg = crate::search::mcts::MctsConfig {
        reward: crate::search::mcts::RewardMode::Margin {
            scale: MCTS_MARGIN_SCALE,
        },
        ..spec.mcts_config()
    };
    Box::new(crate::engine::MctsEngine::new(spec.name.clone(), cfg))
}

/// Builds a three-player `talat` player from its specification: a multi-player search
/// (`paranoid`, `maxn`, `brs`, `brs-plus`) over the baseline evaluation (weights from
/// `spec.weights`, else the defaults), or MCTS.
///
/// # Errors
/// A spec for another game, alpha-beta (two-sided, so not for three seats), an unreadable
/// weights file, or an external program (no Talat protocol exists yet).
pub fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Talat>>, String> {
    use crate::engine::{Algorithm, MultiEngine, Protocol};
    spec.expect_game("talat")?;
    match (spec.protocol, spec.algo) {
        (Protocol::Gtp, _) => Err(format!(
            "engine '{}': external programs are not supported for talat",
            spec.name
        )),
        (_, Algorithm::Mcts) => Ok(mcts_engine::<false>(spec)),
        (_, Algorithm::Alphabeta) => Err(
            "alphabeta is two-sided; three-player talat takes algo paranoid, maxn, brs, brs-plus (the default) or mcts"
                .to_string(),
        ),
        _ => {
            let weights: eval::Weights = spec.eval_weights()?;
            Ok(Box::new(MultiEngine::<Talat, eval::Eval>::from_spec(
                spec,
                eval::Eval::new(weights),
                SCORE_UNIT,
            )?))
        }
    }
}

/// Builds a `talat-2p` player from its specification: the built-in alpha-beta engine
/// (weights from `spec.weights`, else the defaults) or MCTS.
///
/// # Errors
/// A spec for another game, an unreadable weights file, or an external program (no Talat
/// protocol exists yet).
pub fn make_player_2p(spec: &EngineSpec) -> Result<Box<dyn Player<Talat2p>>, String> {
    use crate::engine::{Algorithm, Protocol};
    spec.expect_game("talat-2p")?;
    match (spec.protocol, spec.algo) {
        (Protocol::Builtin, Algorithm::Alphabeta) => {
            let weights: eval::Weights = spec.eval_weights()?;
            Ok(Box::new(
                alphabeta_engine(spec.name.clone(), weights, spec.tt_mb)
                    .with_threads(spec.threads.unwrap_or(1)),
            ))
        }
        (Protocol::Builtin, Algorithm::Mcts) => Ok(mcts_engine::<true>(spec)),
        (
            Protocol::Builtin,
            Algorithm::Paranoid | Algorithm::Maxn | Algorithm::Brs | Algorithm::BrsPlus,
        ) => Err(spec.two_sided_refusal("talat-2p")),
        (Protocol::Gtp, _) => Err(format!(
            "engine '{}': external programs are not supported for talat-2p",
            spec.name
        )),
    }
}
