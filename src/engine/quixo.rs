//! Quixo players: the alpha-beta engine over [`crate::games::quixo::eval::Eval`], MCTS with
//! an optional "immediate win first" playout policy, and external GTP programs, for both
//! game ids (`quixo`, `quixo-4p`) through the one generic [`Position`].

use rand::RngExt;
use rand::rngs::StdRng;

use crate::engine::{AlphaBetaEngine, EngineSpec, MctsEngine, Player};
use crate::games::quixo::eval::{Eval, Weights};
use crate::games::quixo::{Move, Position, SCORE_UNIT};
use crate::search::mcts::PlayoutPolicy;

/// The Quixo alpha-beta engine: baseline evaluation with `weights` and a `tt_mib` MiB
/// table; repetitions on the search path score as draws.
#[must_use]
pub fn alphabeta_engine<const FOUR: bool>(
    name: impl Into<String>,
    weights: Weights,
    tt_mib: usize,
) -> AlphaBetaEngine<Position<FOUR>, Eval> {
    AlphaBetaEngine::new(name, Eval::new(weights), SCORE_UNIT, tt_mib)
}

/// Playouts that play a move completing the mover's line (and not the opponent's)
/// whenever one exists, else a uniformly random move (`playout=wins`).
#[derive(Clone, Copy, Debug, Default)]
pub struct WinsFirst;

impl<const FOUR: bool> PlayoutPolicy<Position<FOUR>> for WinsFirst {
    fn pick(&self, pos: &Position<FOUR>, moves: &[Move], rng: &mut StdRng) -> usize {
        let g = pos.geometry();
        for (i, &m) in moves.iter().enumerate() {
            if let Some(p) = pos.push_of(m) {
                let (x, o, _) = pos.masks_after(p, m.dot());
                let (own, other) = if pos.team_to_move() == 0 {
                    (x, o)
                } else {
                    (o, x)
                };
                if g.has_line(own) && !g.has_line(other) {
                    return i;
                }
            }
        }
        rng.random_range(0..moves.len())
    }
}

/// The Quixo MCTS engine of a specification: its `c`, `iterations`, `threads`, `seed`,
/// `history`, `tt-mb` as the node-arena budget, and `playout` (`uniform`, or `wins`:
/// an immediately winning move whenever one exists).
#[must_use]
pub fn mcts_engine<const FOUR: bool>(spec: &EngineSpec) -> Box<dyn Player<Position<FOUR>>> {
    let cfg = spec.mcts_config();
    let name = spec.name.clone();
    match spec.playout.as_deref() {
        Some("wins") => Box::new(MctsEngine::with_policy(name, cfg, WinsFirst)),
        _ => Box::new(MctsEngine::new(name, cfg)),
    }
}

/// Builds a Quixo player (`quixo` or `quixo-4p`, by `FOUR`) from its specification: the
/// built-in alpha-beta or MCTS engine, or an external GTP program.
///
/// # Errors
/// A spec for another game, an unknown playout, an unreadable weights file, or a program
/// that cannot start.
pub fn make_player<const FOUR: bool>(
    spec: &EngineSpec,
) -> Result<Box<dyn Player<Position<FOUR>>>, String> {
    use crate::engine::{Algorithm, Protocol};
    use crate::game::Game;
    let id = <Position<FOUR> as Game>::ID;
    spec.expect_game(id)?;
    if let Some(p) = spec.playout.as_deref()
        && !matches!(p, "uniform" | "wins")
    {
        return Err(format!(
            "engine '{}': playout '{}' is not uniform or wins",
            spec.name,
            crate::game::shown(p)
        ));
    }
    match (spec.protocol, spec.algo) {
        (Protocol::Builtin, Algorithm::Alphabeta) => {
            let weights: Weights = spec.eval_weights()?;
            Ok(Box::new(
                alphabeta_engine::<FOUR>(spec.name.clone(), weights, spec.tt_mb)
                    .with_threads(spec.threads.unwrap_or(1)),
            ))
        }
        (Protocol::Builtin, Algorithm::Mcts) => Ok(mcts_engine::<FOUR>(spec)),
        (
            Protocol::Builtin,
            Algorithm::Paranoid | Algorithm::Maxn | Algorithm::Brs | Algorithm::BrsPlus,
        ) => Err(spec.two_sided_refusal(id)),
        (Protocol::Gtp, _) => Ok(Box::new(crate::engine::external::GtpEngine::<
            Position<FOUR>,
        >::new(spec)?)),
    }
}
