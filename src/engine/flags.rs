//! Engine settings as a front end's flags give them (`--engine`, `--depth`, `--level`,
//! `--weights`, `--algo`, ... of `bestmove`, `play`, `analyze` and `bench`): checked for
//! a game and its algorithm ([`EngineFlags::for_game`]), turned into an [`EngineSpec`]
//! ([`CheckedFlags::spec`]) and built as every front end builds an engine
//! ([`Players::make_player`]).

use std::path::PathBuf;

use super::spec::ExactEmpties;
use super::{Algorithm, EngineSpec, Player, Players};
use crate::search::Limits;
use crate::search::mcts::Parallelism;

/// Why engine flags cannot make an engine; `Display` gives the one-line message, naming
/// the flags (each kind is bad input: the front ends exit with code 2).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlagsError {
    /// Flags the game or algorithm does not take, or two that do not go together.
    Conflict(String),
    /// `--engine` names no engine of this game, or its spec is bad.
    Engine(String),
    /// A `--book` file that cannot be read.
    Book(String),
    /// The engine cannot be built (an unreadable weights or MPC file, bad MCTS settings).
    Build(String),
}

impl std::fmt::Display for FlagsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Conflict(m) | Self::Engine(m) | Self::Book(m) | Self::Build(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FlagsError {}

/// Engine settings by flag, `None` where a flag was not given.
#[derive(Clone, Debug, Default)]
pub struct EngineFlags {
    /// `--engine`: a preset name, a `.toml` file or an inline spec; `--depth`,
    /// `--time-ms`, `--nodes` or `--level` replace its limits.
    pub engine: Option<String>,
    /// `--depth`: deepest iteration, plies.
    pub depth: Option<u32>,
    /// `--level`: search to depth N and, in Othello, solve exactly from 2N empties.
    pub level: Option<u32>,
    /// `--time-ms`: time budget per move, milliseconds.
    pub time_ms: Option<u64>,
    /// `--nodes`: node budget per move.
    pub nodes: Option<u64>,
    /// `--tt-mb`: transposition table size (MCTS: node arena), MiB.
    pub tt_mb: usize,
    /// `--exact-empties`: Othello alpha-beta's exact solving.
    pub exact_empties: Option<ExactEmpties>,
    /// `--weights`: evaluation weights file (or `builtin:NAME`).
    pub weights: Option<PathBuf>,
    /// `--algo`: the search algorithm; `None`: the game's first ([`Players::ALGORITHMS`]).
    pub algo: Option<Algorithm>,
    /// `--iterations`: MCTS iterations per move.
    pub iterations: Option<u64>,
    /// `--threads`: search threads.
    pub threads: u32,
    /// `--mcts-parallel`: how MCTS threads share the work.
    pub mcts_parallel: Option<Parallelism>,
    /// `--seed`: MCTS seed (talat-2p: also the start position's Djinn setup).
    pub seed: Option<u64>,
    /// `--c`: MCTS exploration constant.
    pub c: Option<f64>,
    /// `--book`: Othello opening book (`builtin`, a file, `none`).
    pub book: Option<String>,
    /// `--mpc`: Othello Multi-ProbCut parameters (`builtin`, a file, `off`).
    pub mpc: Option<String>,
    /// `--mpc-t`: Multi-ProbCut confidence.
    pub mpc_t: Option<f64>,
}

/// Engine flags checked for a game ([`EngineFlags::for_game`]): the game's algorithm
/// chosen, `--level` applied, `--engine` resolved to its spec.
#[derive(Clone, Debug)]
pub struct CheckedFlags {
    /// The flags (`algo` set; with `--level` and no `--engine`, `depth` and
    /// `exact_empties` set from it).
    pub flags: EngineFlags,
    /// The spec of `--engine`.
    resolved: Option<EngineSpec>,
}

/// The Othello book a `--book` value names: `builtin`, none (`None` or `none`) or a book
/// file read now.
///
/// # Errors
/// An empty value, or a book file that cannot be read.
pub fn book_arg(
    arg: Option<&str>,
) -> Result<Option<std::sync::Arc<super::book::Book>>, FlagsError> {
    use super::book::Book;
    match arg {
        Some("builtin") => Ok(Some(Book::builtin())),
        None | Some("none") => Ok(None),
        Some("") => refuse_empty_book(arg).map(|()| None),
        Some(path) => Book::load(std::path::Path::new(path))
            .map(|b| Some(std::sync::Arc::new(b)))
            .map_err(FlagsError::Book),
    }
}

/// Refuses an empty `--book` value (it would be read as a file named "").
///
/// # Errors
/// `arg` is `Some("")`.
pub fn refuse_empty_book(arg: Option<&str>) -> Result<(), FlagsError> {
    match arg {
        Some("") => Err(FlagsError::Book(
            "--book is empty: give builtin, none or a book file".into(),
        )),
        _ => Ok(()),
    }
}

impl EngineFlags {
    /// The chosen algorithm (alpha-beta when none was resolved).
    #[must_use]
    pub fn algo(&self) -> Algorithm {
        self.algo.unwrap_or(Algorithm::Alphabeta)
    }

    /// `--seed`, 0 when not given.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(0)
    }

    /// These settings for game `G`: `--engine` resolved (and `--level` applied to it), or
    /// the game's default algorithm when none was given, checked against the algorithms
    /// the game has, and the flags checked against the algorithm.
    ///
    /// # Errors
    /// An `--engine` that names no engine of `G`; an algorithm the game does not have;
    /// `--iterations`, `--seed` (except where it sets up the position) or `--c` without
    /// `--algo mcts`; the other pairs [`EngineFlags`] refuses, each named.
    pub fn for_game<G: Players>(&self) -> Result<CheckedFlags, FlagsError> {
        let mut out = self.clone();
        if let Some(text) = &self.engine {
            let mut spec = resolve_engine::<G>(text)?;
            if let Some(level) = self.level {
                spec = spec
                    .with_level(level)
                    .map_err(|e| FlagsError::Engine(format!("--level {level}: {e}")))?;
            }
            if spec.algo == Algorithm::Mcts && (self.depth.is_some() || self.level.is_some()) {
                return Err(FlagsError::Conflict(format!(
                    "--engine {text} is an MCTS engine: --depth and --level are for alpha-beta \
                     and the multi-player searches (MCTS takes --nodes or --time-ms)"
                )));
            }
            out.algo = Some(spec.algo);
            return Ok(CheckedFlags {
                flags: out,
                resolved: Some(spec),
            });
        }
        if let Some(level) = self.level {
            out.depth = Some(level);
            out.exact_empties = Some(ExactEmpties::Upto(super::level::level_exact_empties(level)));
        }
        let algo = self.algo.unwrap_or(G::ALGORITHMS[0]);
        if !G::ALGORITHMS.contains(&algo) {
            let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(FlagsError::Conflict(format!(
                "--algo {} is not for {} (its algorithms: {})",
                algo.name(),
                G::ID,
                names.join(", ")
            )));
        }
        out.algo = Some(algo);
        check::<G>(self, algo, out.depth)?;
        Ok(CheckedFlags {
            flags: out,
            resolved: None,
        })
    }
}

impl CheckedFlags {
    /// The chosen algorithm.
    #[must_use]
    pub fn algo(&self) -> Algorithm {
        self.flags.algo()
    }

    /// The search limits; `default_time_ms` when no limit was given (for MCTS,
    /// `--iterations` is a limit too).
    #[must_use]
    pub fn limits(&self, default_time_ms: u64) -> Limits {
        if let Some(spec) = &self.resolved {
            let mut limits = self.spec_with_flags(spec).limits();
            if limits.depth.is_none() && limits.nodes.is_none() && limits.time_ms.is_none() {
                // A spec with only a game clock (`tc`): one move gets the default budget.
                limits.time_ms = Some(default_time_ms);
            }
            return limits;
        }
        let mut limits = Limits {
            depth: self.flags.depth,
            nodes: self.flags.nodes,
            time_ms: self.flags.time_ms,
            stop: None,
            clock: None,
        };
        if self.flags.depth.is_none()
            && self.flags.nodes.is_none()
            && self.flags.time_ms.is_none()
            && (self.flags.algo() != Algorithm::Mcts || self.flags.iterations.is_none())
        {
            limits.time_ms = Some(default_time_ms);
        }
        limits
    }

    /// The engine spec these settings describe for game `G` (after
    /// [`EngineFlags::for_game`]): [`EngineSpec::front_end_default`] with the flags given;
    /// MCTS as its own spec (`tessera-mcts`).
    ///
    /// # Errors
    /// A bad `--book` file (named as `--book` reads it) or MCTS settings a spec refuses.
    pub fn spec<G: Players>(&self) -> Result<EngineSpec, FlagsError> {
        if let Some(spec) = &self.resolved {
            return Ok(self.spec_with_flags(spec));
        }
        if self.flags.algo() == Algorithm::Mcts {
            return self.mcts_spec(G::ID);
        }
        let mut spec =
            EngineSpec::front_end_default(G::ID).map_err(|e| FlagsError::Engine(e.into()))?;
        spec.algo = self.flags.algo();
        spec.depth = self.flags.depth;
        spec.nodes = self.flags.nodes;
        spec.time_ms = self.flags.time_ms;
        spec.tt_mb = self.flags.tt_mb;
        spec.threads = Some(self.flags.threads as usize);
        if let Some(w) = &self.flags.weights {
            spec.weights = Some(w.clone());
        }
        if G::ID == "othello" {
            // The default spec's settings stay unless a flag replaces them: its
            // Multi-ProbCut is fitted with its own evaluation, and levels search full width
            // (as Egaroucid's below 11) unless --mpc is given.
            if self.flags.exact_empties.is_some() {
                spec.exact_empties = self.flags.exact_empties;
            }
            if self.flags.mpc.is_some() {
                spec.mpc.clone_from(&self.flags.mpc);
                spec.mpc_t = self.flags.mpc_t;
            } else if self.flags.weights.is_some() || self.flags.level.is_some() {
                spec = spec.full_width();
            }
            spec.level = self.flags.level;
            // Checked here so a bad file reads as `--book` says it.
            book_arg(self.flags.book.as_deref())?;
            spec.book.clone_from(&self.flags.book);
        }
        Ok(spec)
    }

    /// The engine these settings describe for game `G` ([`CheckedFlags::spec`] built by
    /// [`Players::make_player`]).
    ///
    /// # Errors
    /// As [`CheckedFlags::spec`], and an unreadable weights or MPC file.
    pub fn engine<G: Players>(&self) -> Result<Box<dyn Player<G>>, FlagsError> {
        let spec = self.spec::<G>()?;
        G::make_player(&spec).map_err(FlagsError::Build)
    }

    /// `--engine`'s spec with the limits of `--depth`, `--time-ms` and `--nodes` (which
    /// replace all of its limits, as in `gtp`; `--level` was applied when resolved); a book
    /// set by the command itself (`analyze` searches every move) replaces the spec's.
    fn spec_with_flags(&self, spec: &EngineSpec) -> EngineSpec {
        let mut spec = spec.clone();
        if self.flags.depth.is_some() || self.flags.time_ms.is_some() || self.flags.nodes.is_some()
        {
            spec = spec.with_limits(self.flags.depth, self.flags.time_ms, self.flags.nodes);
        }
        if self.flags.book.is_some() && spec.game == "othello" {
            spec.book.clone_from(&self.flags.book);
        }
        spec
    }

    /// The MCTS engine spec of these settings (`--c`, `--threads`, `--seed`, `--tt-mb` as
    /// the node arena, `--mcts-parallel`, `--iterations`).
    fn mcts_spec(&self, game: &str) -> Result<EngineSpec, FlagsError> {
        let parallel = self.flags.mcts_parallel.unwrap_or_default();
        let mut text = format!(
            "name=tessera-mcts,algo=mcts,c={},threads={},seed={},tt-mb={}",
            self.flags.c.unwrap_or(1.0),
            self.flags.threads,
            self.flags.seed(),
            self.flags.tt_mb
        );
        if parallel != Parallelism::Root {
            text.push_str(&format!(",parallel={}", parallel.name()));
        }
        if let Some(n) = self.flags.iterations {
            text.push_str(&format!(",iterations={n}"));
        }
        EngineSpec::from_inline(&text, game).map_err(|e| FlagsError::Build(e.into()))
    }
}

impl EngineFlags {
    /// These settings for a per-move analysis of game `G` ([`super::analyze::analyze_moves`]):
    /// [`EngineFlags::for_game`] with no book (every move is searched), alpha-beta only.
    ///
    /// # Errors
    /// A game of three sides or more (no single score per move), an algorithm other than
    /// alpha-beta, and as [`EngineFlags::for_game`].
    pub fn for_analysis<G: Players>(&self) -> Result<CheckedFlags, FlagsError> {
        if !G::ALGORITHMS.contains(&Algorithm::Alphabeta) {
            return Err(FlagsError::Conflict(format!(
                "per-move analysis needs a two-sided game; {} has three sides (no single score per move)",
                G::ID
            )));
        }
        let mut checked = self.for_game::<G>()?;
        // Every move is searched: the book answers `book show`.
        checked.flags.book = Some("none".into());
        if checked.algo() != Algorithm::Alphabeta {
            return Err(FlagsError::Conflict(format!(
                "analyze searches with alpha-beta (--algo {} has no per-move scores to compare)",
                checked.algo().name()
            )));
        }
        Ok(checked)
    }
}

/// The spec `--engine TEXT` names for game `G`: an inline spec when the text has a `=`,
/// else a preset name or `.toml` file.
///
/// # Errors
/// An unknown preset, a bad file or spec, or an engine of another game.
fn resolve_engine<G: Players>(text: &str) -> Result<EngineSpec, FlagsError> {
    let spec = EngineSpec::from_arg(text, G::ID)
        .map_err(|e| FlagsError::Engine(format!("--engine: {e}")))?;
    if let Err(e) = spec.expect_game(G::ID) {
        return Err(FlagsError::Engine(match e.root() {
            unknown @ super::SpecError::UnknownGame { .. } => {
                format!("--engine {text}: {unknown}")
            }
            _ => format!("--engine {text} is for {}, not {}", spec.game, G::ID),
        }));
    }
    Ok(spec)
}

/// Checks `args` for game `G` searching with `algo` (`depth`: the depth after `--level`).
///
/// # Errors
/// A flag the game or algorithm does not take, or two flags that do not go together.
fn check<G: Players>(
    args: &EngineFlags,
    algo: Algorithm,
    depth: Option<u32>,
) -> Result<(), FlagsError> {
    let refuse = |m: String| Err(FlagsError::Conflict(m));
    if args.mpc.as_deref() == Some("off") && args.mpc_t.is_some() {
        return refuse(
            "--mpc-t sets the confidence of MPC: give --mpc builtin or a parameter file too, not --mpc off"
                .into(),
        );
    }
    if let Some(m) = args.mpc.as_deref().filter(|m| *m != "off") {
        if G::ID != "othello" || algo != Algorithm::Alphabeta {
            return refuse("--mpc is for othello's alpha-beta search".into());
        }
        if args.level.is_some_and(|l| l < 11) {
            return refuse(format!(
                "levels below 11 search full width (no MPC, as Egaroucid): --mpc {m} needs --level 11 or more"
            ));
        }
    }
    if G::ID != "othello" && args.book.as_deref().is_some_and(|b| b != "none") {
        return refuse(format!(
            "--book is for othello (there is no {} book)",
            G::ID
        ));
    }
    if algo == Algorithm::Mcts && depth.is_some() {
        return refuse(
            "--depth is for alpha-beta and the multi-player searches (MCTS takes --iterations, --nodes or --time-ms)"
                .into(),
        );
    }
    if algo == Algorithm::Mcts && args.iterations.is_some() && args.nodes.is_some() {
        return refuse(
            "--iterations and --nodes are the same budget for MCTS (a node is an iteration): give one"
                .into(),
        );
    }
    if algo == Algorithm::Mcts && args.weights.is_some() {
        return refuse(
            "--weights is for the searches with an evaluation (MCTS plays random playouts)".into(),
        );
    }
    if G::ID != "othello" && args.exact_empties.is_some() {
        return refuse(format!(
            "--exact-empties is for othello ({} has no exact endgame solver in bestmove)",
            G::ID
        ));
    }
    if algo != Algorithm::Alphabeta && args.exact_empties.is_some() {
        return refuse(format!(
            "--exact-empties is for --algo alphabeta (the {} search does not solve endgames)",
            algo.name()
        ));
    }
    if algo != Algorithm::Mcts {
        let mcts_only = [
            ("--iterations", args.iterations.is_some()),
            ("--seed", args.seed.is_some() && !G::SEEDED_SETUP),
            ("--c", args.c.is_some()),
            ("--mcts-parallel", args.mcts_parallel.is_some()),
        ];
        if let Some((flag, _)) = mcts_only.iter().find(|(_, set)| *set) {
            return refuse(format!(
                "{flag} is for --algo mcts (the {} search takes --depth, --nodes or --time-ms)",
                algo.name()
            ));
        }
    }
    if algo.multi().is_some() && args.threads != 1 {
        // Say whether the user chose the algorithm or got the game's default.
        let chosen = if args.algo.is_some() {
            format!("--algo {}", algo.name())
        } else {
            format!("{}'s default search ({})", G::ID, algo.name())
        };
        return refuse(format!(
            "{chosen} searches on one thread (--threads must be 1; --algo mcts uses \
             several)"
        ));
    }
    Ok(())
}
