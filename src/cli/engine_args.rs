//! Engine settings of `bestmove`, `play`, `analyze` and `bench` (`--depth`, `--level`,
//! `--weights`, `--algo`, ...), checked for the game and turned into an engine spec: the
//! engine is then built as every front end builds one ([`Players::make_player`]).

use std::path::PathBuf;

use clap::Args;
use tessera::engine::spec::ExactEmpties;
use tessera::engine::{EngineSpec, Player};

use super::games::CliGame;
use super::{Algo, AlgoParser, output};

/// Engine settings shared by `bestmove` and `play`.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
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
    /// squares or fewer [default: 20]
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub exact_empties: Option<u32>,
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
    #[arg(long, value_name = "root|tree", value_parser = mcts_parallel)]
    pub mcts_parallel: Option<tessera::search::mcts::Parallelism>,
    /// MCTS: random seed (with one thread a search is deterministic for its seed);
    /// talat-2p: also the seed of the random Djinn setup of the start position [default: 0]
    #[arg(long, value_name = "S", value_parser = output::seed)]
    pub seed: Option<u64>,
    /// MCTS: UCT exploration constant (rewards lie in [0, 1]) [default: 1]
    #[arg(long = "c", value_name = "X", value_parser = non_negative_f64)]
    pub c: Option<f64>,
    /// Othello opening book: builtin (compiled in), a book file, or none [default: none]
    #[arg(long, value_name = "builtin|FILE|none")]
    pub book: Option<String>,
    /// Othello alpha-beta: Multi-ProbCut in the midgame search with the shipped
    /// parameters fitted with the evaluation in use (builtin: tuning/othello-mpc2.txt for
    /// format-2 weights, the default, else tuning/othello-mpc.txt), a parameter file, or
    /// off (docs/mpc.md) [default: off]
    #[arg(long, value_name = "builtin|FILE|off", value_parser = mpc_source)]
    pub mpc: Option<String>,
    /// Multi-ProbCut confidence t: a cut needs the shallow score t residual standard
    /// deviations past the bound [default: 1.5]
    #[arg(long, value_name = "T", requires = "mpc", value_parser = mpc_confidence)]
    pub mpc_t: Option<f64>,
}

/// clap value parser: an MCTS parallelism (`root` or `tree`).
pub fn mcts_parallel(text: &str) -> Result<tessera::search::mcts::Parallelism, String> {
    tessera::search::mcts::Parallelism::parse(text.trim())
}

/// clap value parser: a finite number >= 0.
fn non_negative_f64(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a finite number >= 0")),
        Err(e) => Err(format!("not a number ({e})")),
    }
}

/// clap value parser for `--mpc`: refuses an empty value, which would be read as a file
/// named "".
fn mpc_source(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("empty: give builtin, off or a parameter file".into())
    } else {
        Ok(text.to_string())
    }
}

/// clap value parser: a Multi-ProbCut confidence `t`, a number in (0, 10] (the range
/// `probcut::MpcParams::load` and engine specs accept).
fn mpc_confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 10.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a number in (0, 10]")),
        Err(e) => Err(format!("not a number ({e})")),
    }
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

    /// `--exact-empties` (or the level's), Othello's default when not given.
    pub fn exact_empties(&self) -> u32 {
        self.exact_empties
            .unwrap_or(tessera::games::othello::DEFAULT_EXACT_EMPTIES)
    }

    /// These settings for game `G`: the game's default algorithm when none was given,
    /// checked against the algorithms the game has, and MCTS-only options checked.
    ///
    /// # Errors
    /// An algorithm the game does not have; `--iterations`, `--seed` (except where it sets
    /// up the position) or `--c` without `--algo mcts`.
    pub fn for_game<G: CliGame>(&self) -> Result<Self, output::CliError> {
        let mut out = self.clone();
        if let Some(level) = self.level {
            out.depth = Some(level);
            out.exact_empties = Some(tessera::engine::level::level_exact_empties(level));
        }
        let algo = self.algo.unwrap_or(G::ALGORITHMS[0]);
        if !G::ALGORITHMS.contains(&algo) {
            let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
            return Err(output::CliError::input(format!(
                "--algo {} is not for {} (its algorithms: {})",
                algo.name(),
                G::ID,
                names.join(", ")
            )));
        }
        out.algo = Some(algo);
        if self.mpc.as_deref() == Some("off") && self.mpc_t.is_some() {
            return Err(output::CliError::input(
                "--mpc-t sets the confidence of MPC: give --mpc builtin or a parameter file too, not --mpc off",
            ));
        }
        if let Some(m) = self.mpc.as_deref().filter(|m| *m != "off") {
            if G::ID != "othello" || algo != Algo::Alphabeta {
                return Err(output::CliError::input(
                    "--mpc is for othello's alpha-beta search",
                ));
            }
            if self.level.is_some_and(|l| l < 11) {
                return Err(output::CliError::input(format!(
                    "levels below 11 search full width (no MPC, as Egaroucid): --mpc {m} needs --level 11 or more"
                )));
            }
        }
        if G::ID != "othello" && self.book.as_deref().is_some_and(|b| b != "none") {
            return Err(output::CliError::input(format!(
                "--book is for othello (there is no {} book)",
                G::ID
            )));
        }
        if algo == Algo::Mcts && out.depth.is_some() {
            return Err(output::CliError::input(
                "--depth is for alpha-beta and the multi-player searches (MCTS takes --iterations, --nodes or --time-ms)",
            ));
        }
        if algo == Algo::Mcts && self.iterations.is_some() && self.nodes.is_some() {
            return Err(output::CliError::input(
                "--iterations and --nodes are the same budget for MCTS (a node is an iteration): give one",
            ));
        }
        if algo == Algo::Mcts && self.weights.is_some() {
            return Err(output::CliError::input(
                "--weights is for the searches with an evaluation (MCTS plays random playouts)",
            ));
        }
        if G::ID != "othello" && self.exact_empties.is_some() {
            return Err(output::CliError::input(format!(
                "--exact-empties is for othello ({} has no exact endgame solver in bestmove)",
                G::ID
            )));
        }
        if algo != Algo::Alphabeta && self.exact_empties.is_some() {
            return Err(output::CliError::input(format!(
                "--exact-empties is for --algo alphabeta (the {} search does not solve endgames)",
                algo.name()
            )));
        }
        if algo != Algo::Mcts {
            let mcts_only = [
                ("--iterations", self.iterations.is_some()),
                ("--seed", self.seed.is_some() && !G::SEEDED_SETUP),
                ("--c", self.c.is_some()),
                ("--mcts-parallel", self.mcts_parallel.is_some()),
            ];
            if let Some((flag, _)) = mcts_only.iter().find(|(_, set)| *set) {
                return Err(output::CliError::input(format!(
                    "{flag} is for --algo mcts (the {} search takes --depth, --nodes or --time-ms)",
                    algo.name()
                )));
            }
        }
        if algo.multi().is_some() && self.threads != 1 {
            // Say whether the user chose the algorithm or got the game's default.
            let chosen = if self.algo.is_some() {
                format!("--algo {}", algo.name())
            } else {
                format!("{}'s default search ({})", G::ID, algo.name())
            };
            return Err(output::CliError::input(format!(
                "{chosen} searches on one thread (--threads must be 1; --algo mcts uses \
                 several)"
            )));
        }
        Ok(out)
    }

    /// The search limits; `default_time_ms` when no limit was given (for MCTS,
    /// `--iterations` is a limit too).
    pub fn limits(&self, default_time_ms: u64) -> tessera::search::Limits {
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
            spec.exact_empties = Some(ExactEmpties::Upto(self.exact_empties()));
            spec.mpc.clone_from(&self.mpc);
            spec.mpc_t = self.mpc_t;
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
                output::say(super::bestmove::info_line(info, G::SCORE_UNIT));
            }));
        }
        Ok(player)
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
