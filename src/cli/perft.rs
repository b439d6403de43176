//! `tessera perft`: leaf counts of the move tree at each depth, with time and speed.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::games::CliGame;
use tessera::present::{perft_header, perft_line};

use super::output::{CliError, print_json, rate, say};
use super::{GameId, PositionArgs};

/// Arguments of `tessera perft`.
#[derive(Args, Debug)]
#[command(
    about = "Count the leaf positions of the move tree at each depth 1..N (passes count as a ply)",
    after_help = "Example: tessera perft othello --depth 9\n\
                  Othello from the start: depth 4 = 244, depth 9 = 3005288 leaves."
)]
pub struct PerftArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Count depths 1 up to N plies (1..=60)
    #[arg(long, value_name = "N", value_parser = super::output::search_depth)]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera perft`.
///
/// # Errors
/// Bad position input.
pub fn run(args: &PerftArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, perft(args))
}

fn perft<G: CliGame>(args: &PerftArgs) -> Result<ExitCode, CliError> {
    let pos = G::load(&args.position, 0)?.position;
    report(args, G::ID, &pos.to_string(), |d| pos.perft(d));
    Ok(ExitCode::SUCCESS)
}

/// Times `count` at each depth and prints the table (rows as they finish) or the JSON.
fn report(args: &PerftArgs, game: &str, position: &str, count: impl Fn(u32) -> u64) {
    if !args.json {
        perft_header(game, position).into_iter().for_each(say);
    }
    let mut rows = Vec::new();
    for depth in 1..=args.depth {
        let start = Instant::now();
        let leaves = count(depth);
        let seconds = start.elapsed().as_secs_f64();
        if args.json {
            rows.push(serde_json::json!({
                "depth": depth,
                "leaves": leaves,
                "seconds": seconds,
                "leaves_per_second": rate(leaves, seconds),
            }));
        } else {
            say(perft_line(depth, leaves, seconds));
        }
    }
    if args.json {
        print_json(&serde_json::json!({
            "game": game,
            "position": position,
            "depths": rows,
        }));
    }
}
