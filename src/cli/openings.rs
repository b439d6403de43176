//! `tessera openings`: balanced opening suites for tournaments (`--openings FILE`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tessera::engine::EngineSpec;
use tessera::tournament::balanced::{self, SuiteSpec};

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
    output::check_writable(&a.out)?;
    let spec = EngineSpec::from_inline(
        &format!("name=openings-d{},depth={},tt-mb=16", a.depth, a.depth),
        G::ID,
    )
    .map_err(CliError::input)?;
    let mut player = G::make_player(&spec).map_err(CliError::failure)?;
    let suite_spec = SuiteSpec {
        plies: a.plies,
        count: a.count as usize,
        max_abs_score: a.max_abs_score as i32,
        seed: a.seed,
        max_tries: a.count.saturating_mul(200).max(10_000),
    };
    let class = |p: &G| {
        let text = p.to_string();
        if G::SQUARE_SYMMETRY {
            balanced::square_symmetry_class(&text)
        } else {
            text
        }
    };
    let suite = balanced::find(&suite_spec, player.as_mut(), &spec.limits(), &class)
        .map_err(CliError::input)?;
    let scores: Vec<i32> = suite.openings.iter().map(|o| o.score).collect();
    let mean = f64::from(scores.iter().sum::<i32>()) / scores.len().max(1) as f64;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# tessera openings {} --plies {} --count {} --max-abs-score {} --depth {} --seed {}",
        G::ID,
        a.plies,
        a.count,
        a.max_abs_score,
        a.depth,
        a.seed
    );
    let _ = writeln!(text, "# game: {}", G::ID);
    let _ = writeln!(
        text,
        "# {} openings from {} random sequences ({} duplicates{}, {} outside ±{}); scores for the side to move in {} at depth {}: min {}, max {}, mean {mean:+.1}",
        suite.openings.len(),
        suite.tries,
        suite.duplicates,
        if G::SQUARE_SYMMETRY {
            " up to symmetry"
        } else {
            ""
        },
        suite.unbalanced,
        a.max_abs_score,
        G::SCORE_UNIT,
        a.depth,
        scores.iter().min().copied().unwrap_or(0),
        scores.iter().max().copied().unwrap_or(0),
    );
    for o in &suite.openings {
        let _ = writeln!(text, "{}", o.moves);
    }
    std::fs::write(&a.out, text)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", a.out.display())))?;
    output::say(format!(
        "wrote {} {} openings of {} plies to {} ({} random sequences tried, {} duplicates, {} outside ±{} {}; mean score {mean:+.1})",
        suite.openings.len(),
        G::ID,
        a.plies,
        a.out.display(),
        suite.tries,
        suite.duplicates,
        suite.unbalanced,
        a.max_abs_score,
        G::SCORE_UNIT
    ));
    Ok(ExitCode::SUCCESS)
}
