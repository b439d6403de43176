//! An SPSA run as a front end asks for it ([`SpsaRequest`]: the engine as text, the game
//! chosen at run time), checked and run ([`run_request`]) with the game's ply cap.

use std::path::PathBuf;

use super::error::TuneError;
use super::progress::Progress;
use super::spsa_run::{self, SpsaConfig, SpsaSummary};
use super::texel::TexelGame;
use crate::engine::Players;
use crate::games::GameId;

/// The settings of `tessera tune GAME --method spsa`; see [`SpsaConfig`] for each.
#[derive(Clone, Debug, Default)]
pub struct SpsaRequest {
    /// The engine whose parameters are tuned: a preset name, a `.toml` file or an inline
    /// spec (required).
    pub engine: Option<String>,
    /// Master seed.
    pub seed: u64,
    /// Total iterations.
    pub iterations: usize,
    /// The ratio r of the step a = r c^2.
    pub step_ratio: f64,
    /// Every parameter's perturbation c is its registry step times this.
    pub c_scale: f32,
    /// The weights file written at the end.
    pub out: PathBuf,
    /// The checkpoint, written after every iteration.
    pub checkpoint: PathBuf,
    /// Ignore an existing checkpoint.
    pub fresh: bool,
}

/// Runs the SPSA fit `req` describes for game `game` (games longer than the game's ply
/// cap, at most 1000, are adjudicated), reporting to `progress`.
///
/// # Errors
/// The team game `quixo-4p` (one engine per seat is tuned), no engine, an engine that
/// cannot be resolved, and as [`spsa_run::run`].
pub fn run_request(
    game: GameId,
    req: &SpsaRequest,
    progress: &dyn Progress,
) -> Result<SpsaSummary, TuneError> {
    if game == GameId::Quixo4p {
        return Err(TuneError::Setting(
            "--method spsa plays one engine per seat: it takes othello, quixo, talat or talat-2p, not the team game quixo-4p".into(),
        ));
    }
    crate::for_game!(game, fit(req, progress))
}

/// SPSA for game `G`.
fn fit<G: Players + TexelGame>(
    req: &SpsaRequest,
    progress: &dyn Progress,
) -> Result<SpsaSummary, TuneError> {
    let text = req.engine.as_deref().ok_or_else(|| {
        TuneError::Setting(
            "--method spsa needs --engine (MCTS: its exploration constant; other searches: the evaluation weights)".into(),
        )
    })?;
    let cfg = SpsaConfig {
        engine: super::run::resolve_engine(text, G::ID)?,
        seed: req.seed,
        iterations: req.iterations,
        step_ratio: req.step_ratio,
        c_scale: req.c_scale,
        out: req.out.clone(),
        checkpoint: req.checkpoint.clone(),
        fresh: req.fresh,
        max_plies: G::DEFAULT_MAX_PLIES.min(1000) as usize,
    };
    spsa_run::run::<G>(&cfg, progress)
}
