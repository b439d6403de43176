//! Engine flags of `bestmove`, `play` and `analyze` (`--depth`, `--level`, `--weights`,
//! `--algo`, ...) as the library's [`EngineFlags`], which checks them for the game and
//! turns them into an engine spec built as every front end builds one.

use std::path::PathBuf;

use clap::Args;
use tessera::engine::flags::{CheckedFlags, EngineFlags, FlagsError};
use tessera::engine::spec::ExactEmpties;
use tessera::engine::{Player, Players};
use tessera::present::Present;

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
    #[arg(long, value_name = "E|auto", value_parser = output::exact_empties)]
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
    #[arg(long, value_name = "root|tree", value_parser = output::mcts_parallel)]
    pub mcts_parallel: Option<tessera::search::mcts::Parallelism>,
    /// MCTS: random seed (with one thread a search is deterministic for its seed);
    /// talat-2p: also the seed of the random Djinn setup of the start position [default: 0]
    #[arg(long, value_name = "S", value_parser = output::seed)]
    pub seed: Option<u64>,
    /// MCTS: UCT exploration constant (rewards lie in [0, 1]) [default: 1]
    #[arg(long = "c", value_name = "X", value_parser = output::non_negative_f64)]
    pub c: Option<f64>,
    /// Othello opening book: builtin (compiled in), a book file, or none [default: none]
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
    /// Othello alpha-beta: Multi-ProbCut in the midgame search with the shipped
    /// parameters fitted with the evaluation in use (builtin: tuning/othello-mpc2.txt for
    /// format-2 weights, the default, else tuning/othello-mpc.txt), a parameter file, or
    /// off (docs/mpc.md) [default: builtin with the default evaluation and no --level, else
    /// off]
    #[arg(long, value_name = "builtin|FILE|off", value_parser = output::mpc_source)]
    pub mpc: Option<String>,
    /// Multi-ProbCut confidence t: a cut needs the shallow score t residual standard
    /// deviations past the bound [default: 1.0 with the default MPC, 1.5 with --mpc]
    #[arg(long, value_name = "T", requires = "mpc", value_parser = output::mpc_confidence)]
    pub mpc_t: Option<f64>,
}

impl EngineArgs {
    /// `--seed`, 0 when not given.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(0)
    }

    /// These flags for game `G`, checked ([`EngineFlags::for_game`]).
    ///
    /// # Errors
    /// Flags the game or its algorithm does not take, or an `--engine` of another game.
    pub fn for_game<G: Players>(&self) -> Result<CheckedFlags, output::CliError> {
        Ok(self.flags().for_game::<G>()?)
    }

    /// The flags as the library takes them.
    pub fn flags(&self) -> EngineFlags {
        EngineFlags {
            engine: self.engine.clone(),
            depth: self.depth,
            level: self.level,
            time_ms: self.time_ms,
            nodes: self.nodes,
            tt_mb: self.tt_mb,
            exact_empties: self.exact_empties,
            weights: self.weights.clone(),
            algo: self.algo,
            iterations: self.iterations,
            threads: self.threads,
            mcts_parallel: self.mcts_parallel,
            seed: self.seed,
            c: self.c,
            book: self.book.clone(),
            mpc: self.mpc.clone(),
            mpc_t: self.mpc_t,
        }
    }
}

/// `player` printing an `info` line per finished iteration on stdout.
pub fn show_progress<G: Present>(player: &mut dyn Player<G>) {
    player.set_progress(Box::new(|info| {
        output::say(tessera::present::info_line(info, G::SCORE_UNIT));
    }));
}

impl From<FlagsError> for output::CliError {
    /// Every kind is bad input (exit 2).
    fn from(e: FlagsError) -> Self {
        output::CliError::input(e.to_string())
    }
}
