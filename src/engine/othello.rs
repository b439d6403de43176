//! Othello players, put together from the rules' pieces: the alpha-beta engine with the
//! exact endgame solver below a number of empties, MCTS (optionally corners-first
//! playouts), and external GTP programs, by [`make_player`] from an engine specification.

use crate::engine::spec::ExactEmpties;
use crate::engine::{AlphaBetaEngine, EngineSpec, Player};
use crate::games::othello::{DEFAULT_EXACT_EMPTIES, Position, SCORE_UNIT, endgame, eval};

/// The standard Othello alpha-beta engine: baseline evaluation with `weights`, a
/// `tt_mib` MiB table, and the exact solver at `exact_empties` empties or fewer.
#[must_use]
pub fn alphabeta_engine(
    name: impl Into<String>,
    weights: eval::Weights,
    tt_mib: usize,
    exact_empties: u32,
) -> AlphaBetaEngine<Position, eval::Eval> {
    alphabeta_engine_with(name, eval::Eval::new(weights), tt_mib, exact_empties)
}

/// The Othello alpha-beta engine with any evaluation `eval`, a `tt_mib` MiB table, and the
/// exact solver at `exact_empties` empties or fewer (which orders its moves with the
/// shipped patterns whatever `eval` is).
#[must_use]
pub fn alphabeta_engine_with(
    name: impl Into<String>,
    eval: eval::Eval,
    tt_mib: usize,
    exact_empties: u32,
) -> AlphaBetaEngine<Position, eval::Eval> {
    AlphaBetaEngine::new(name, eval, SCORE_UNIT, tt_mib).with_exact(endgame::ExactBelow {
        max_empties: exact_empties,
        threads: 1,
    })
}

/// The Othello MCTS engine of a specification: its `c`, `iterations`, `threads`, `seed`,
/// `history` (progressive-history weight), `tt-mb` as the node-arena budget, and `playout`
/// (`uniform`, or `corners`: a corner whenever one is legal).
#[must_use]
pub fn mcts_engine(spec: &EngineSpec) -> Box<dyn Player<Position>> {
    let cfg = spec.mcts_config();
    let name = spec.name.clone();
    match spec.playout.as_deref() {
        Some("corners") => Box::new(crate::engine::MctsEngine::with_policy(
            name,
            cfg,
            crate::engine::mcts::OthelloCornersFirst,
        )),
        _ => Box::new(crate::engine::MctsEngine::new(name, cfg)),
    }
}

/// The evaluation of an alpha-beta `spec`: its weights (inline values, a file or a built-in
/// name; the shipped patterns when none) with its Multi-ProbCut.
///
/// # Errors
/// An unreadable or malformed weights or MPC file.
pub fn spec_eval(spec: &EngineSpec) -> Result<eval::Eval, String> {
    let eval = match (&spec.weight_values, &spec.weights) {
        (Some(_), _) => eval::Eval::new(spec.eval_weights::<eval::Weights>()?),
        (None, Some(path)) => eval::Eval::load(path)?,
        (None, None) => eval::Eval::default(),
    };
    eval.with_mpc_source(spec.mpc_source(), spec.mpc_t)
}

/// The built-in alpha-beta player of `spec` with its evaluation already loaded
/// ([`spec_eval`]): what [`make_player`] builds, for a front end that builds one engine per
/// level from one evaluation (`tessera nboard`).
#[must_use]
pub fn alphabeta_player(spec: &EngineSpec, eval: eval::Eval) -> Box<dyn Player<Position>> {
    let start = spec
        .exact_empties
        .unwrap_or(ExactEmpties::Upto(DEFAULT_EXACT_EMPTIES));
    let exact = start.max_empties();
    let mut ab = alphabeta_engine_with(spec.name.clone(), eval, spec.tt_mb, exact)
        .with_threads(spec.threads.unwrap_or(1));
    if start == ExactEmpties::Auto {
        ab = ab.with_exact_auto();
    }
    if spec.odd_even_mean() {
        ab = ab.with_odd_even_mean();
    }
    let engine: Box<dyn Player<Position>> = Box::new(ab);
    // A level drops the depth limit where it solves exactly (`bestmove --level`).
    match spec.level {
        Some(_) => Box::new(crate::engine::level::LevelPlayer::new(engine, exact)),
        None => engine,
    }
}

/// Builds an Othello player from its specification: the built-in alpha-beta engine, MCTS,
/// or an external GTP program. The spec's opening `book` is not applied here but by
/// [`crate::engine::Players::make_player`] (through [`crate::engine::book::with_spec_book`]),
/// which every front end uses.
///
/// # Errors
/// A spec for another game, an unreadable weights file, or a program that cannot start.
pub fn make_player(spec: &EngineSpec) -> Result<Box<dyn Player<Position>>, String> {
    use crate::engine::{Algorithm, Protocol};
    spec.expect_game("othello")?;
    match (spec.protocol, spec.algo) {
        (Protocol::Builtin, Algorithm::Alphabeta) => Ok(alphabeta_player(spec, spec_eval(spec)?)),
        (Protocol::Builtin, Algorithm::Mcts) => Ok(mcts_engine(spec)),
        (
            Protocol::Builtin,
            Algorithm::Paranoid | Algorithm::Maxn | Algorithm::Brs | Algorithm::BrsPlus,
        ) => Err(spec.two_sided_refusal("othello")),
        (Protocol::Gtp, _) => Ok(Box::new(
            crate::engine::external::GtpEngine::<Position>::new(spec)?,
        )),
    }
}
