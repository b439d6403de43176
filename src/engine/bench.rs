//! The bench (Stockfish's `bench`): a fixed search workload over named positions whose
//! total node count is a signature of the search (it changes exactly when search behaviour
//! changes), with time and nodes per second. Alpha-beta searches each position to a depth
//! with a fresh 16 MiB table and no exact solver, MCTS runs a number of iterations from
//! seed 0 (its signature: the root scores and chosen moves summed).

use std::time::Instant;

use super::flags::{CheckedFlags, EngineFlags, FlagsError};
use super::spec::ExactEmpties;
use super::{Algorithm, Players};
use crate::present::{rate, si};
use crate::search::Limits;
use crate::search::mcts::Parallelism;

/// Alpha-beta depth per position when none is given.
pub const DEFAULT_DEPTH: u32 = 9;

/// MCTS iterations per position when none are given.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// Why a bench did not run or did not finish; `Display` gives the one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BenchError {
    /// Settings that do not go together (bad input).
    Settings(FlagsError),
    /// A search failed (the engine's message).
    Search(String),
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Settings(e) => e.fmt(f),
            Self::Search(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for BenchError {}

/// What the bench runs.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The algorithm; `None`: the game's first.
    pub algo: Option<Algorithm>,
    /// Alpha-beta depth per position, plies; `None`: [`DEFAULT_DEPTH`].
    pub depth: Option<u32>,
    /// Search threads.
    pub threads: u32,
    /// MCTS parallelism; `None`: root.
    pub mcts_parallel: Option<Parallelism>,
    /// MCTS iterations per position; `None`: [`DEFAULT_ITERATIONS`].
    pub iterations: Option<u64>,
    /// An engine spec benched instead of the built-in engine (a preset name, a `.toml`
    /// path or an inline spec, as `--engine` takes): alpha-beta and the multi-player
    /// searches go to `depth` on every position, MCTS runs the spec's own iterations
    /// ([`DEFAULT_ITERATIONS`] if it sets none); everything else (Multi-ProbCut, exact
    /// solving, threads) is the spec's, except that no opening book is used. `algo`,
    /// `iterations`, `mcts_parallel` and `threads` other than 1 are refused with it.
    pub engine: Option<String>,
}

/// One position searched.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The position's name.
    pub name: String,
    /// Nodes searched (MCTS: iterations).
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// The chosen move, if any.
    pub best: Option<String>,
    /// The score of the chosen move, in the game's unit.
    pub score: i32,
}

impl BenchRow {
    /// The table line (see [`bench_header`]).
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{:<24} {:>12} {:>9.3} {:>12}  {}",
            self.name,
            self.nodes,
            self.seconds,
            si(rate(self.nodes, self.seconds)),
            self.best.as_deref().unwrap_or("-")
        )
    }
}

/// The header line of the bench table.
#[must_use]
pub fn bench_header() -> String {
    format!(
        "{:<24} {:>12} {:>9} {:>12}  move",
        "position", "nodes", "seconds", "nodes/s"
    )
}

/// A bench's settings checked for game `G`, ready to run.
#[derive(Clone, Debug)]
pub struct Bench {
    algo: Algorithm,
    depth: u32,
    iterations: u64,
    parallel: Parallelism,
    threads: u32,
    flags: CheckedFlags,
}

/// A finished bench.
#[derive(Clone, Debug)]
pub struct BenchSummary {
    /// The game id.
    pub game: &'static str,
    /// Every position searched, in order.
    pub rows: Vec<BenchRow>,
    /// Total nodes: the signature of an alpha-beta search.
    pub nodes: u64,
    /// The MCTS signature: the root scores and the chosen moves' bytes summed.
    pub signature: i64,
    /// Seconds of search summed over the rows.
    pub seconds: f64,
    /// Wall seconds, each position's engine and table set-up included.
    pub wall_seconds: f64,
}

impl Bench {
    /// `config` checked for game `G`.
    ///
    /// # Errors
    /// `--iterations` or `--mcts-parallel` without MCTS, `--depth` with it, and the engine
    /// flags [`EngineFlags::for_game`] refuses.
    pub fn new<G: Players>(config: &BenchConfig) -> Result<Self, BenchError> {
        let refuse = |m: String| Err(BenchError::Settings(FlagsError::Conflict(m)));
        if let Some(text) = &config.engine {
            return Self::of_engine::<G>(text, config);
        }
        let algo = config.algo.unwrap_or(G::ALGORITHMS[0]);
        let mcts = algo == Algorithm::Mcts;
        if !mcts && config.iterations.is_some() {
            return refuse(format!(
                "--iterations applies to --algo mcts only (this bench runs {}: its workload is --depth)",
                algo.name()
            ));
        }
        if mcts && config.depth.is_some() {
            return refuse(
                "--depth applies to alpha-beta searches (--algo mcts runs --iterations per position)"
                    .into(),
            );
        }
        if !mcts && config.mcts_parallel.is_some() {
            return refuse(format!(
                "--mcts-parallel applies to --algo mcts only (this bench runs {})",
                algo.name()
            ));
        }
        let depth = config.depth.unwrap_or(DEFAULT_DEPTH);
        let parallel = config.mcts_parallel.unwrap_or_default();
        let iterations = config.iterations.unwrap_or(DEFAULT_ITERATIONS);
        let othello_ab = G::ID == "othello" && algo == Algorithm::Alphabeta;
        let flags = EngineFlags {
            depth: (!mcts).then_some(depth),
            tt_mb: 16,
            // No exact solving inside the bench (its FFO positions would be solved).
            exact_empties: othello_ab.then_some(ExactEmpties::Upto(0)),
            algo: config.algo,
            iterations: mcts.then_some(iterations),
            threads: config.threads,
            mcts_parallel: mcts.then_some(parallel),
            book: Some("none".into()),
            // Full width, as before the front ends' default turned MPC on: the bench's
            // node signature stays comparable across versions.
            mpc: othello_ab.then(|| "off".to_string()),
            ..EngineFlags::default()
        }
        .for_game::<G>()
        .map_err(BenchError::Settings)?;
        Ok(Self {
            algo,
            depth,
            iterations,
            parallel,
            threads: config.threads,
            flags,
        })
    }

    /// The bench of the engine `text` names (see [`BenchConfig::engine`]).
    fn of_engine<G: Players>(text: &str, config: &BenchConfig) -> Result<Self, BenchError> {
        if config.algo.is_some()
            || config.iterations.is_some()
            || config.mcts_parallel.is_some()
            || config.threads != 1
        {
            return Err(BenchError::Settings(FlagsError::Conflict(format!(
                "--engine {text} is the engine benched: --algo, --iterations, --mcts-parallel \
                 and --threads are for the built-in one (give them in the spec, e.g. \
                 algo=mcts,iterations=20000,threads=2)"
            ))));
        }
        let mut flags = EngineFlags {
            engine: Some(text.to_string()),
            book: Some("none".into()),
            ..EngineFlags::default()
        }
        .for_game::<G>()
        .map_err(BenchError::Settings)?;
        let algo = flags.algo();
        let depth = config.depth.unwrap_or(DEFAULT_DEPTH);
        // Read once: the depth set below does not change what is taken from it.
        let spec = flags.spec::<G>().map_err(BenchError::Settings)?;
        if spec.protocol != crate::engine::Protocol::Builtin {
            return Err(BenchError::Settings(FlagsError::Conflict(format!(
                "--engine {text} is an external program: bench searches bare positions, which a \
                 GTP engine cannot take (measure it with tournament or gtp)"
            ))));
        }
        if algo == Algorithm::Mcts {
            if config.depth.is_some() {
                return Err(BenchError::Settings(FlagsError::Conflict(format!(
                    "--engine {text} is an MCTS engine: --depth is for alpha-beta and the \
                     multi-player searches (it runs the spec's iterations)"
                ))));
            }
        } else {
            flags.flags.depth = Some(depth);
        }
        Ok(Self {
            algo,
            depth,
            iterations: spec.iterations.unwrap_or(DEFAULT_ITERATIONS),
            parallel: spec.mcts_config().parallel,
            threads: u32::try_from(spec.threads.unwrap_or(1)).unwrap_or(u32::MAX),
            flags,
        })
    }

    /// Searches every position of `positions` with a fresh engine, calling `on_row` after
    /// each.
    ///
    /// # Errors
    /// An engine that cannot be built ([`BenchError::Settings`]) or a failed search.
    pub fn run<G: Players>(
        &self,
        positions: &[(String, G)],
        on_row: &mut dyn FnMut(&BenchRow),
    ) -> Result<BenchSummary, BenchError> {
        let limits = match self.algo {
            Algorithm::Mcts => Limits::default(),
            _ => Limits::depth(self.depth),
        };
        let mut summary = BenchSummary {
            game: G::ID,
            rows: Vec::new(),
            nodes: 0,
            signature: 0,
            seconds: 0.0,
            wall_seconds: 0.0,
        };
        let started = Instant::now();
        for (name, pos) in positions {
            let mut engine = self.flags.engine::<G>().map_err(BenchError::Settings)?;
            let t = engine.choose(pos, &limits).map_err(BenchError::Search)?;
            let row = BenchRow {
                name: name.clone(),
                nodes: t.nodes,
                seconds: t.elapsed.as_secs_f64(),
                best: t.best_move.map(|m| m.to_string()),
                score: t.score,
            };
            summary.seconds += row.seconds;
            summary.nodes += row.nodes;
            summary.signature += i64::from(t.score)
                + row
                    .best
                    .as_deref()
                    .map_or(0, |m| m.bytes().map(i64::from).sum::<i64>());
            on_row(&row);
            summary.rows.push(row);
        }
        summary.wall_seconds = started.elapsed().as_secs_f64();
        Ok(summary)
    }

    /// The summary as one JSON object (the settings, totals and every row).
    #[must_use]
    pub fn to_json(&self, s: &BenchSummary) -> serde_json::Value {
        let mcts = self.algo == Algorithm::Mcts;
        let rows: Vec<serde_json::Value> = s
            .rows
            .iter()
            .map(|r| {
                serde_json::json!({"position": r.name, "nodes": r.nodes, "seconds": r.seconds,
                    "move": r.best, "score": r.score})
            })
            .collect();
        serde_json::json!({"game": s.game, "algo": self.algo.name(),
            "depth": (!mcts).then_some(self.depth),
            "iterations": mcts.then_some(self.iterations), "threads": self.threads,
            "mcts_parallel": mcts.then(|| self.parallel.name()), "nodes": s.nodes,
            "signature": s.signature, "seconds": s.seconds, "wall_seconds": s.wall_seconds,
            "nps": rate(s.nodes, s.seconds), "positions": rows})
    }

    /// The summary line (`Bench: N nodes, ...`).
    #[must_use]
    pub fn summary_line(&self, s: &BenchSummary) -> String {
        let workload = match self.algo {
            Algorithm::Mcts => format!(
                "{} iterations, signature {}, {}-parallel",
                self.iterations,
                s.signature,
                self.parallel.name()
            ),
            _ => format!("depth {}", self.depth),
        };
        format!(
            "Bench: {} nodes, {:.3} s ({:.3} s wall), {} nodes/s, {workload}, {} thread(s)",
            s.nodes,
            s.seconds,
            s.wall_seconds,
            si(rate(s.nodes, s.seconds)),
            self.threads
        )
    }
}
