//! `tessera openings`: balanced opening suites for tournaments (`--openings FILE`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tessera::tournament::balanced_file::{self, SuiteError, SuiteFile};

use super::GameId;
use super::games::CliGame;
use super::output::{self, CliError};

/// Write a suite of balanced openings: distinct positions N plies from the start whose
/// search score is within ±X.
#[derive(Args, Debug)]
#[command(
    about = "Write a suite of balanced openings for tournaments",
    long_about = "Write a suite of balanced openings for tournaments (the XOT idea, for every game).\n\n\
        Random legal move sequences of --plies N from the start position are drawn from --seed in a \
        fixed order; positions already taken (Othello and Quixo: also any rotation or reflection of \
        one) are skipped; each remaining position is searched by the game's alpha-beta engine \
        (Talat: BRS+) to --depth D, and kept when the score for the side to move is within \
        ±--max-abs-score (the engine's unit: Othello centi-discs, Quixo centi-cubes, Talat \
        centi-points). The file has one move sequence per line after '#' comment lines, and is \
        read by `tournament --openings FILE`.\n\nExample:\n  \
        tessera openings othello --plies 8 --count 100 --max-abs-score 100 --depth 6 --out openings/othello-8ply.txt"
)]
pub struct OpeningsArgs {
    /// Game
    #[arg(value_parser = super::GameIdParser)]
    game: GameId,
    /// Plies from the start position
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=200))]
    plies: u32,
    /// Openings to write
    #[arg(long, value_name = "K", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    count: u64,
    /// Largest |score| kept, in the engine's unit (Othello centi-discs: 100 = one disc)
    #[arg(long, value_name = "X", default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=30_000))]
    max_abs_score: u32,
    /// Search depth of the balance check, plies
    #[arg(long, value_name = "D", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Seed of the random move sequences
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (overwritten; a missing folder is created)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Runs the command.
pub fn run(args: &OpeningsArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, write_suite(args))
}

fn write_suite<G: CliGame>(a: &OpeningsArgs) -> Result<ExitCode, CliError> {
    // As selfplay's and tune's --out: a missing folder is created.
    tessera::tuning::outputs::create_parent(&a.out)?;
    tessera::tuning::outputs::check_writable(&a.out)?;
    let line = balanced_file::write_suite::<G>(&SuiteFile {
        plies: a.plies,
        count: a.count,
        max_abs_score: a.max_abs_score,
        depth: a.depth,
        seed: a.seed,
        square_symmetry: G::SQUARE_SYMMETRY,
        out: a.out.clone(),
    })
    .map_err(|e| match e {
        SuiteError::Engine(m) => CliError::failure(m),
        e => CliError::input(e.to_string()),
    })?;
    output::say(line);
    Ok(ExitCode::SUCCESS)
}
