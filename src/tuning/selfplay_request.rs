//! A self-play run as a front end asks for it ([`SelfplayRequest`]: the engine, the
//! random plies and the shard as text, the game chosen at run time), checked and run
//! ([`run_request`]); Othello positions near the end are labelled and played by the exact
//! solver. Human games from WTHOR databases are labelled the same way
//! ([`import_request`]).

use std::path::PathBuf;

use super::error::TuneError;
use super::selfplay::{self, Config};
use super::selfplay_run::{self, SelfplayConfig, SelfplaySummary};
use super::texel::TexelGame;
use super::{outputs, run};
use crate::engine::Players;
use crate::games::{GameId, othello};

/// Empties at which Othello positions are solved exactly when none are given.
pub const DEFAULT_EXACT_EMPTIES: u32 = 14;

/// The settings of `tessera selfplay GAME` (a played run, not a merge or an import).
#[derive(Clone, Debug, Default)]
pub struct SelfplayRequest {
    /// The engine playing every seat: a preset name, a `.toml` file or an inline spec.
    pub engine: String,
    /// Games to play.
    pub games: u64,
    /// Only the I-th of N slices of the games, as `I/N`.
    pub shard: Option<String>,
    /// The data file written.
    pub out: PathBuf,
    /// Master seed.
    pub seed: u64,
    /// Random legal plies at the start of each game: `N` or `A-B`.
    pub random_plies: String,
    /// Othello: solve exactly (label and play) at this many empties or fewer (0: never);
    /// `None`: [`DEFAULT_EXACT_EMPTIES`]. Refused for the other games.
    pub exact_empties: Option<u32>,
    /// Games longer than this are dropped; `None`: the game's ply cap, at most 1000.
    pub max_plies: Option<u64>,
    /// Games played at the same time.
    pub threads: usize,
    /// Show a progress bar.
    pub progress: bool,
}

/// Plays the self-play games `req` describes for game `game` and writes their labelled
/// positions (the output's folder is created, and the output checked before any game).
///
/// # Errors
/// `--exact-empties` for a game without a solver, an engine that cannot be resolved or
/// built, bad random plies or shard, an unwritable output, an engine failing in a game.
pub fn run_request(game: GameId, req: &SelfplayRequest) -> Result<SelfplaySummary, TuneError> {
    if game == GameId::Othello {
        let exact = req.exact_empties.unwrap_or(DEFAULT_EXACT_EMPTIES);
        let solve = move |pos: &othello::Position| super::othello::solve_label(pos, exact);
        return generate::<othello::Position>(
            req,
            (exact > 0).then_some(&solve as &selfplay::SolveFn<othello::Position>),
            exact,
        );
    }
    if req.exact_empties.is_some() {
        return Err(TuneError::Setting(format!(
            "--exact-empties labels Othello positions with the endgame solver; {} has none",
            game.name()
        )));
    }
    crate::for_game!(game, generate(req, None, 0))
}

/// Self-play for one game: `solve` labels and plays the positions it reaches (`exact`
/// empties or fewer, for the header).
fn generate<G: Players + TexelGame>(
    req: &SelfplayRequest,
    solve: Option<&selfplay::SolveFn<G>>,
    exact: u32,
) -> Result<SelfplaySummary, TuneError> {
    let spec = run::resolve_engine(&req.engine, G::ID)?;
    let random_plies = selfplay_run::parse_random_plies(&req.random_plies)?;
    let shard = req
        .shard
        .as_deref()
        .map(crate::tournament::schedule::parse_shard)
        .transpose()
        .map_err(TuneError::Setting)?;
    // Build one player now so a bad spec fails before any game.
    G::make_player(&spec).map_err(TuneError::Engine)?;
    outputs::create_parent(&req.out)?;
    // An unwritable output is found now, not after the last game.
    outputs::check_writable(&req.out)?;
    let cfg = SelfplayConfig {
        engine: spec,
        play: Config {
            games: req.games as usize,
            seed: req.seed,
            random_plies,
            max_plies: req.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES.min(1000)) as usize,
            threads: req.threads,
            progress: req.progress,
            shard,
        },
        out: req.out.clone(),
    };
    selfplay_run::run::<G>(&cfg, solve.map(|s| (s, exact)))
}

/// Labels the positions of the WTHOR databases `files` of game `game` (Othello only) as
/// `tessera selfplay --wthor` does ([`super::wthor_import::import`]); `exact_empties`
/// `None`: [`DEFAULT_EXACT_EMPTIES`]; `max_plies` must be `None` (WTHOR games are read
/// whole).
///
/// # Errors
/// Another game than Othello, a ply cap, and as [`super::wthor_import::import`].
pub fn import_request(
    game: GameId,
    files: &[PathBuf],
    out: &std::path::Path,
    (exact_empties, max_plies, threads): (Option<u32>, Option<u64>, usize),
) -> Result<super::wthor_import::WthorSummary, TuneError> {
    if game != GameId::Othello {
        return Err(TuneError::Setting(
            "--wthor reads Othello game databases: use `selfplay othello --wthor FILE`".into(),
        ));
    }
    if max_plies.is_some() {
        return Err(TuneError::Setting(
            "--max-plies is for played games; WTHOR games are read whole".into(),
        ));
    }
    super::wthor_import::import(&super::wthor_import::WthorConfig {
        files: files.to_vec(),
        out: out.to_path_buf(),
        exact_empties: exact_empties.unwrap_or(DEFAULT_EXACT_EMPTIES),
        threads,
    })
}
