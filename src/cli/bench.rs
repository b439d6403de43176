//! `tessera bench`: a fixed search workload with a node-count signature (Stockfish's
//! `bench`): the total changes exactly when search behaviour changes, and the time gives
//! nodes per second and, across `--threads`, the parallel speed-up.

use std::process::ExitCode;

use clap::Args;
use tessera::engine::bench::{Bench, BenchConfig, BenchError, bench_header};
use tessera::tournament::bench_positions::bench_positions;

use super::games::CliGame;
use super::output::{CliError, at_least_one_u64, print_json, say};
use super::{Algo, GameId};

/// Arguments of `tessera bench`.
#[derive(Args, Debug)]
#[command(
    about = "Search a fixed set of positions with a fixed workload: total nodes (a signature \
             of the search), time and nodes/s",
    after_help = "The positions: random openings of 0-26 plies (seed 2026; fewer for games \
                  that end sooner) and, for Othello, the 20 FFO positions #40-#59. Alpha-beta \
                  searches each to --depth (no exact solver) with a fresh 16 MiB table; MCTS \
                  runs --iterations per position from seed 0. With --threads 1 the totals are \
                  deterministic: nodes for alpha-beta; for MCTS the signature is the sum of \
                  the root scores and the chosen moves. The total's seconds and nodes/s are \
                  the searches summed; its wall time also counts each position's set-up.\n\
                  Examples:\n  tessera bench othello --depth 10 --threads 2\n  \
                  tessera bench othello --algo mcts --iterations 20000\n  \
                  tessera bench othello --engine othello-best-t100 --depth 12\n  \
                  tessera bench quixo --algo mcts --threads 2 --mcts-parallel tree"
)]
pub struct BenchArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Alpha-beta search depth per position, plies (1..=20; each ply costs about 3x the one before)
    /// [default: 9]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: Option<u32>,
    /// Search threads (Lazy SMP; MCTS: see --mcts-parallel)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// MCTS: root (one tree per thread, root statistics merged) or tree (one shared tree
    /// with virtual loss) [default: root]
    #[arg(long, value_name = "root|tree", value_parser = super::mcts_parallel)]
    pub mcts_parallel: Option<tessera::search::mcts::Parallelism>,
    /// Search algorithm [default: the game's first: alphabeta; talat: brs-plus]
    #[arg(long, value_parser = super::AlgoParser)]
    pub algo: Option<Algo>,
    /// MCTS iterations per position (with --algo mcts only) [default: 10000]
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub iterations: Option<u64>,
    /// Bench this engine (a preset, a .toml or an inline spec) at --depth instead of the
    /// built-in one: its own settings otherwise, no book
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera bench`.
///
/// # Errors
/// An engine failure.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, bench(args))
}

fn bench<G: CliGame>(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let positions = bench_positions::<G>().map_err(CliError::failure)?;
    let bench = Bench::new::<G>(&BenchConfig {
        algo: args.algo,
        depth: args.depth,
        threads: args.threads,
        mcts_parallel: args.mcts_parallel,
        iterations: args.iterations,
        engine: args.engine.clone(),
    })
    .map_err(bench_error)?;
    if !args.json {
        say(bench_header());
    }
    let summary = bench
        .run(&positions, &mut |row| {
            if !args.json {
                say(row.line());
            }
        })
        .map_err(bench_error)?;
    if args.json {
        print_json(&bench.to_json(&summary));
    } else {
        say(bench.summary_line(&summary));
    }
    Ok(ExitCode::SUCCESS)
}

/// Bad settings exit 2, a failed search 1.
fn bench_error(e: BenchError) -> CliError {
    match e {
        BenchError::Search(m) => CliError::failure(m),
        e => CliError::input(e.to_string()),
    }
}
