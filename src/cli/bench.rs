//! `tessera bench`: a fixed search workload with a node-count signature (Stockfish's
//! `bench`): the total changes exactly when search behaviour changes, and the time gives
//! nodes per second and, across `--threads`, the parallel speed-up.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tessera::search::Limits;

use super::games::CliGame;
use super::output::{CliError, at_least_one_u64, print_json, say, si};
use super::{Algo, EngineArgs, GameId};

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
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Alpha-beta depth per position when `--depth` is not given.
const DEFAULT_DEPTH: u32 = 9;

/// MCTS iterations per position when `--iterations` is not given.
const DEFAULT_ITERATIONS: u64 = 10_000;

/// Runs `tessera bench`.
///
/// # Errors
/// An engine failure.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, bench(args))
}

fn bench<G: CliGame>(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let positions = G::bench_positions()?;
    let algo = args.algo.unwrap_or(G::ALGORITHMS[0]);
    if algo != Algo::Mcts && args.iterations.is_some() {
        return Err(CliError::input(format!(
            "--iterations applies to --algo mcts only (this bench runs {}: its workload is --depth)",
            algo.name()
        )));
    }
    if algo == Algo::Mcts && args.depth.is_some() {
        return Err(CliError::input(
            "--depth applies to alpha-beta searches (--algo mcts runs --iterations per position)",
        ));
    }
    if algo != Algo::Mcts && args.mcts_parallel.is_some() {
        return Err(CliError::input(format!(
            "--mcts-parallel applies to --algo mcts only (this bench runs {})",
            algo.name()
        )));
    }
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let parallel = args.mcts_parallel.unwrap_or_default();
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
    let engine_args = EngineArgs {
        engine: None,
        resolved: None,
        depth: (algo != Algo::Mcts).then_some(depth),
        level: None,
        time_ms: None,
        nodes: None,
        tt_mb: 16,
        // No exact solving inside the bench (its FFO positions would be solved).
        exact_empties: (G::ID == "othello" && algo == Algo::Alphabeta)
            .then_some(tessera::engine::spec::ExactEmpties::Upto(0)),
        weights: None,
        algo: args.algo,
        iterations: (algo == Algo::Mcts).then_some(iterations),
        threads: args.threads,
        mcts_parallel: (algo == Algo::Mcts).then_some(parallel),
        seed: None,
        c: None,
        book: Some("none".into()),
        // Full width, as before the front ends' default turned MPC on: the bench's node
        // signature stays comparable across versions.
        mpc: (G::ID == "othello" && algo == Algo::Alphabeta).then(|| "off".to_string()),
        mpc_t: None,
    }
    .for_game::<G>()?;
    let limits = match algo {
        Algo::Mcts => Limits::default(),
        _ => Limits::depth(depth),
    };
    let mut total_nodes = 0u64;
    // Summed search time of the rows; the wall time also counts each position's engine
    // and table set-up (a fresh table per position) and the printing.
    let mut search_secs = 0.0f64;
    let mut signature = 0i64;
    let mut rows = Vec::new();
    let started = Instant::now();
    if !args.json {
        say(format!(
            "{:<24} {:>12} {:>9} {:>12}  move",
            "position", "nodes", "seconds", "nodes/s"
        ));
    }
    for (name, pos) in &positions {
        let mut engine = engine_args.engine::<G>(false)?;
        let t = engine.choose(pos, &limits).map_err(CliError::failure)?;
        let secs = t.elapsed.as_secs_f64();
        search_secs += secs;
        total_nodes += t.nodes;
        let best = t.best_move.map(|m| m.to_string());
        signature += i64::from(t.score)
            + best
                .as_deref()
                .map_or(0, |m| m.bytes().map(i64::from).sum::<i64>());
        if !args.json {
            say(format!(
                "{name:<24} {:>12} {secs:>9.3} {:>12}  {}",
                t.nodes,
                si(t.nps()),
                best.as_deref().unwrap_or("-")
            ));
        }
        rows.push(
            serde_json::json!({"position": name, "nodes": t.nodes, "seconds": secs,
            "move": best, "score": t.score}),
        );
    }
    let wall = started.elapsed().as_secs_f64();
    let secs = search_secs;
    let nps = total_nodes as f64 / secs.max(1e-9);
    let algo_name = algo.name();
    if args.json {
        print_json(&serde_json::json!({"game": G::ID, "algo": algo_name,
            "depth": (algo != Algo::Mcts).then_some(depth),
            "iterations": (algo == Algo::Mcts).then_some(iterations), "threads": args.threads,
            "mcts_parallel": (algo == Algo::Mcts).then(|| parallel.name()), "nodes": total_nodes,
            "signature": signature, "seconds": secs, "wall_seconds": wall, "nps": nps,
            "positions": rows}));
    } else {
        let workload = match algo {
            Algo::Mcts => format!(
                "{iterations} iterations, signature {signature}, {}-parallel",
                parallel.name()
            ),
            _ => format!("depth {depth}"),
        };
        say(format!(
            "Bench: {total_nodes} nodes, {secs:.3} s ({wall:.3} s wall), {} nodes/s, {workload}, \
             {} thread(s)",
            si(nps),
            args.threads
        ));
    }
    Ok(ExitCode::SUCCESS)
}
