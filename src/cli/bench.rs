//! `tessera bench`: a fixed search workload with a node-count signature (Stockfish's
//! `bench`): the total changes exactly when search behaviour changes, and the time gives
//! nodes per second and, across `--threads`, the parallel speed-up.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tessera::engine::Player;
use tessera::games::othello::{self, Position, eval::Weights};
use tessera::search::Limits;
use tessera::tournament::openings::OpeningSource;

use super::output::{CliError, print_json, say, si};
use super::{GameId, othello as cli_othello};

/// Arguments of `tessera bench`.
#[derive(Args, Debug)]
#[command(
    about = "Search a fixed set of positions to a fixed depth: total nodes (a signature of the \
             search), time and nodes/s",
    after_help = "The positions: seven random openings of 0-26 plies (seed 2026) and the 20 FFO \
                  positions #40-#59, searched by the midgame alpha-beta (no exact solver) with a \
                  fresh 64 MiB table each. With --threads 1 the node total is deterministic.\n\
                  Example: tessera bench othello --depth 10 --threads 2"
)]
pub struct BenchArgs {
    /// The game
    pub game: GameId,
    /// Search depth per position, plies (1..=20; each ply costs about 3x the one before)
    #[arg(long, value_name = "N", default_value_t = 9,
          value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Search threads (Lazy SMP)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Lengths (plies) of the random openings in the bench, each drawn from seed 2026.
const OPENING_PLIES: &[u32] = &[0, 6, 10, 14, 18, 22, 26];

/// Runs `tessera bench`.
///
/// # Errors
/// None beyond argument parsing; kept for symmetry with the other commands.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let GameId::Othello = args.game;
    let mut positions: Vec<(String, Position)> = Vec::new();
    for &n in OPENING_PLIES {
        let o = OpeningSource::RandomPlies(n)
            .opening::<Position>(0, 2026)
            .map_err(CliError::failure)?;
        positions.push((format!("random-{n}-plies"), o.position));
    }
    for p in cli_othello::ffo_suite() {
        positions.push((format!("ffo-{}", p.id), p.position));
    }
    let threads = args.threads as usize;
    let limits = Limits::depth(args.depth);
    let mut total_nodes = 0u64;
    let mut rows = Vec::new();
    let started = Instant::now();
    if !args.json {
        say(format!(
            "{:<24} {:>12} {:>9} {:>12}",
            "position", "nodes", "seconds", "nodes/s"
        ));
    }
    for (name, pos) in &positions {
        let mut engine =
            othello::alphabeta_engine("bench", Weights::default(), 16, 0).with_threads(threads);
        let t = engine.choose(pos, &limits).map_err(CliError::failure)?;
        let secs = t.elapsed.as_secs_f64();
        total_nodes += t.nodes;
        if !args.json {
            say(format!(
                "{name:<24} {:>12} {secs:>9.3} {:>12}",
                t.nodes,
                si(t.nps())
            ));
        }
        rows.push(
            serde_json::json!({"position": name, "nodes": t.nodes, "seconds": secs,
            "move": t.best_move.map(|m| m.to_string())}),
        );
    }
    let secs = started.elapsed().as_secs_f64();
    let nps = total_nodes as f64 / secs.max(1e-9);
    if args.json {
        print_json(
            &serde_json::json!({"game": "othello", "depth": args.depth, "threads": threads,
            "nodes": total_nodes, "seconds": secs, "nps": nps, "positions": rows}),
        );
    } else {
        say(format!(
            "Bench: {total_nodes} nodes, {secs:.3} s, {} nodes/s, depth {}, {threads} thread(s)",
            si(nps),
            args.depth
        ));
    }
    Ok(ExitCode::SUCCESS)
}
