//! Engine settings of `bestmove`, `play`, `analyze` and `bench` (`--depth`, `--level`,
//! `--weights`, `--algo`, ...), checked for the game and turned into an engine spec: the
//! engine is then built as every front end builds one ([`Players::make_player`]).

use std::path::PathBuf;

use clap::Args;
use tessera::engine::spec::ExactEmpties;
use tessera::engine::{EngineSpec, Player};

use super::games::CliGame;
use super::{Algo, AlgoParser, output};

/// Engine settings shared by `bestmove`, `play` and `analyze`.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// The engine: a preset name (`tessera engines` lists them), a preset .toml file, or an
    /// inline spec (`name=x,depth=8,weights=FILE`), as `tournament --engine` and `gtp
    /// --engine` take; --depth, --time-ms, --nodes or --level replace its limits
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["exact_empties", "weights", "algo",
          "iterations", "mcts_parallel", "c", "book", "mpc", "mpc_t", "tt_mb", "threads"])]
    pub engine: Option<String>,
    /// The spec of `--engine`, resolved by [`EngineArgs::for_game`].
    #[arg(skip)]
    pub(super) resolved: Option<EngineSpec>,
    /// Deepest iteration, in plies (1..=60)
    #[arg(long, value_name = "N", value_parser = output::search_depth)]
    pub depth: Option<u32>,
    /// Strength level (as Edax's -l): search to depth N and, in Othello, solve exactly from
    /// 2N empties (at most 24); replaces --depth and --exact-empties
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "exact_empties"],
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// Time budget per move, milliseconds [default when no limit is given: bestmove 2000,
    /// play 1000]
    #[arg(long, value_name = "MS", value_parser = output::at_least_one_u64)]
    pub time_ms: Option<u64>,
    /// Node budget per move
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    pub nodes: Option<u64>,
    /// Transposition table size, MiB (1..=16384)
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = output::tt_mib)]
    pub tt_mb: usize,
    /// Othello alpha-beta: solve exactly (to the end of the game) at this many empty
    /// squares or fewer, or auto: where the solver's measured cost fits the move's budget
    /// (at most 24 empties; docs/time.md) [default: 20]
    #[arg(long, value_name = "E|auto", value_parser = super::parse::exact_empties)]
    pub exact_empties: Option<ExactEmpties>,
    /// Evaluation weights file (text "name value [min max]" lines or a JSON object; Othello
    /// also a pattern file, builtin:patterns2 or builtin:patterns), or builtin:texel (the
    /// tuned weights in tuning/, embedded) or builtin:baseline (the hand-set defaults);
    /// default: Othello builtin:patterns2, Quixo and Talat builtin:texel
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Search algorithm: alpha-beta (two-sided games), Monte-Carlo tree search (UCT with
    /// MCTS-Solver; --tt-mb is then its node-arena budget), or a multi-player search for
    /// three-player Talat [default: alphabeta; talat: brs-plus]
    #[arg(long, value_parser = AlgoParser)]
    pub algo: Option<Algo>,
    /// MCTS: iterations (playouts) per move, all threads together [default when no limit
    /// is given: the time budget]
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    pub iterations: Option<u64>,
    /// Search threads: Lazy SMP for alpha-beta (the exact solver stays single-threaded);
    /// for MCTS, root-parallel trees with merged root statistics or one shared tree (see
    /// --mcts-parallel)
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// MCTS: how the threads share the work: root (one tree per thread, root statistics
    /// merged; with one thread the tree is kept between moves) or tree (one shared tree,
    /// lock-free, virtual loss)
    /// [default: root]
    #[arg(long, value_name = "root|tree", value_parser = super::parse::mcts_parallel)]
    pub mcts_parallel: Option<tessera::search::mcts::Parallelism>,
    /// MCTS: random seed (with one thread a search is deterministic for its seed);
    /// talat-2p: also the seed of the random Djinn setup of the start position [default: 0]
    #[arg(long, value_name = "S", value_parser = output::seed)]
    pub seed: Option<u64>,
    /// MCTS: UCT exploration constant (rewards lie in [0, 1]) [default: 1]
    #[arg(long = "c", value_name = "X", value_parser = super::parse::non_negative_f64)]
    pub c: Option<f64>,
    /// Othello opening book: builtin (compiled in), a book file, or none [default: none]
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
    /// Othello alpha-beta: Multi-ProbCut in the midgame search with the shipped
    /// parameters fitted with the evaluation in use (builtin: tuning/othello-mpc2.txt for
    /// format-2 weights, the default, else tuning/othello-mpc.txt), a parameter file, or
    /// off (docs/mpc.md) [default: builtin with the default evaluation and no --level, else
    /// off]
    #[arg(long, value_name = "builtin|FILE|off", value_parser = super::parse::mpc_source)]
    pub mpc: Option<String>,
    /// Multi-ProbCut confidence t: a cut needs the shallow score t residual standard
    /// deviations past the bound [default: 1.0 with the default MPC, 1.5 with --mpc]
    #[arg(long, value_name = "T", requires = "mpc", value_parser = super::parse::mpc_confidence)]
    pub mpc_t: Option<f64>,
}

impl EngineArgs {
    /// The chosen algorithm (alpha-beta when none was resolved).
    pub fn algo(&self) -> Algo {
        self.algo.unwrap_or(Algo::Alphabeta)
    }

    /// `--seed`, 0 when not given.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(0)
    }

    /// `--c`, the UCT exploration constant; 1 when not given.
    pub fn c(&self) -> f64 {
        self.c.unwrap_or(1.0)
    }

    /// `--mcts-parallel`, root parallelism when not given.
    pub fn mcts_parallel(&self) -> tessera::search::mcts::Parallelism {
        self.mcts_parallel.unwrap_or_default()
    }

    /// The search limits; `default_time_ms` when no limit was given (for MCTS,
    /// `--iterations` is a limit too).
    pub fn limits(&self, default_time_ms: u64) -> tessera::search::Limits {
        if let Some(spec) = &self.resolved {
            let mut limits = self.spec_with_flags(spec).limits();
            if limits.depth.is_none() && limits.nodes.is_none() && limits.time_ms.is_none() {
                // A spec with only a game clock (`tc`): one move gets the default budget.
                limits.time_ms = Some(default_time_ms);
            }
            return limits;
        }
        let mut limits = tessera::search::Limits {
            depth: self.depth,
            nodes: self.nodes,
            time_ms: self.time_ms,
            stop: None,
            clock: None,
        };
        if self.depth.is_none()
            && self.nodes.is_none()
            && self.time_ms.is_none()
            && (self.algo() != Algo::Mcts || self.iterations.is_none())
        {
            limits.time_ms = Some(default_time_ms);
        }
        limits
    }

    /// The engine spec these settings describe for game `G` (after
    /// [`EngineArgs::for_game`]): [`EngineSpec::front_end_default`] with the flags given;
    /// MCTS as its own spec (`tessera-mcts`).
    ///
    /// # Errors
    /// A bad `--book` file (named as `--book` reads it) or MCTS settings a spec refuses.
    pub fn spec<G: CliGame>(&self) -> Result<EngineSpec, output::CliError> {
        if let Some(spec) = &self.resolved {
            return Ok(self.spec_with_flags(spec));
        }
        if self.algo() == Algo::Mcts {
            return self.mcts_spec(G::ID);
        }
        let mut spec = EngineSpec::front_end_default(G::ID).map_err(output::CliError::input)?;
        spec.algo = self.algo();
        spec.depth = self.depth;
        spec.nodes = self.nodes;
        spec.time_ms = self.time_ms;
        spec.tt_mb = self.tt_mb;
        spec.threads = Some(self.threads as usize);
        if let Some(w) = &self.weights {
            spec.weights = Some(w.clone());
        }
        if G::ID == "othello" {
            // The default spec's settings stay unless a flag replaces them: its
            // Multi-ProbCut is fitted with its own evaluation, and levels search full width
            // (as Egaroucid's below 11) unless --mpc is given.
            if self.exact_empties.is_some() {
                spec.exact_empties = self.exact_empties;
            }
            if self.mpc.is_some() {
                spec.mpc.clone_from(&self.mpc);
                spec.mpc_t = self.mpc_t;
            } else if self.weights.is_some() || self.level.is_some() {
                spec.mpc = None;
                spec.mpc_t = None;
            }
            spec.level = self.level;
            // Checked here so a bad file reads as `--book` says it.
            super::book_arg::book_arg(self.book.as_deref())?;
            spec.book.clone_from(&self.book);
        }
        Ok(spec)
    }

    /// The engine these settings describe for game `G`, printing an `info` line per
    /// finished iteration on stderr when `verbose`.
    ///
    /// # Errors
    /// As [`EngineArgs::spec`], and an unreadable weights or MPC file.
    pub fn engine<G: CliGame>(
        &self,
        verbose: bool,
    ) -> Result<Box<dyn Player<G>>, output::CliError> {
        let spec = self.spec::<G>()?;
        let mut player = G::make_player(&spec).map_err(output::CliError::input)?;
        if verbose {
            player.set_progress(Box::new(|info| {
                output::say(tessera::present::info_line(info, G::SCORE_UNIT));
            }));
        }
        Ok(player)
    }

    /// `--engine`'s spec with the limits of `--depth`, `--time-ms` and `--nodes` (which
    /// replace all of its limits, as in `gtp`; `--level` was applied when resolved); a book set by the command
    /// itself (`analyze` searches every move) replaces the spec's.
    fn spec_with_flags(&self, spec: &EngineSpec) -> EngineSpec {
        let mut spec = spec.clone();
        if self.depth.is_some() || self.time_ms.is_some() || self.nodes.is_some() {
            spec = spec.with_limits(self.depth, self.time_ms, self.nodes);
        }
        if self.book.is_some() && spec.game == "othello" {
            spec.book.clone_from(&self.book);
        }
        spec
    }

    /// The MCTS engine spec of these settings (`--c`, `--threads`, `--seed`, `--tt-mb` as
    /// the node arena, `--mcts-parallel`, `--iterations`).
    fn mcts_spec(&self, game: &str) -> Result<EngineSpec, output::CliError> {
        let mut text = format!(
            "name=tessera-mcts,algo=mcts,c={},threads={},seed={},tt-mb={}",
            self.c(),
            self.threads,
            self.seed(),
            self.tt_mb
        );
        if self.mcts_parallel() != tessera::search::mcts::Parallelism::Root {
            text.push_str(&format!(",parallel={}", self.mcts_parallel().name()));
        }
        if let Some(n) = self.iterations {
            text.push_str(&format!(",iterations={n}"));
        }
        EngineSpec::from_inline(&text, game).map_err(output::CliError::input)
    }
}

/// The spec `--engine TEXT` names for game `G`: an inline spec when the text has a `=`,
/// else a preset name or `.toml` file.
///
/// # Errors
/// An unknown preset, a bad file or spec, or an engine of another game.
pub(super) fn resolve_engine<G: CliGame>(text: &str) -> Result<EngineSpec, output::CliError> {
    let spec = EngineSpec::from_arg(text, G::ID)
        .map_err(|e| output::CliError::input(format!("--engine: {e}")))?;
    if spec.game != G::ID {
        return Err(output::CliError::input(format!(
            "--engine {text} is for {}, not {}",
            spec.game,
            G::ID
        )));
    }
    Ok(spec)
}
