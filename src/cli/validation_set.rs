//! `tessera validation-set othello`: draws diverse positions and labels every legal move of
//! each with its exact score ([`tessera::tuning::validation`]), appending OBF lines to a file
//! that a later run resumes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tessera::tuning::summaries::label_line;
use tessera::tuning::validation::{self, DrawConfig, LabelRun};

use super::GameId;
use super::output::{CliError, EXIT_UNFINISHED, at_least_one_u64, say, seed, tt_mib};

/// Arguments of `tessera validation-set`.
#[derive(Args, Debug)]
#[command(
    about = "Build an Othello truth set: diverse positions with every legal move's exact score (OBF)",
    long_about = "Build an Othello truth set for `tessera accuracy`: COUNT distinct positions \
                  (board symmetries counted as one) at EMPTIES empties, each from a game of 2-20 \
                  random opening plies played on by a mix of engines (depth 1-4, one move in 16 \
                  random) and kept when a depth-4 search scores it within +-20 discs, every legal move labelled with its exact final disc difference by \
                  the endgame solver. Written as Edax writes its problem sets: one OBF line per \
                  position, moves best first, '--:-127' at the end.\n\nThe positions depend on \
                  --empties, --count and --seed only: --shard I/N labels positions I-1, I-1+N, \
                  ... of the same list, so N machines (or processes) can share a set. Each line \
                  is appended when done; running the same command again resumes (lines already \
                  in --out are skipped, an unfinished last line is dropped). Ctrl-C stops at \
                  once and loses only the position being solved (exit code 1).",
    after_help = "Examples:\n  \
                  tessera validation-set othello --empties 20-24 --count 2000 --seed 1 --out v20-24.obf\n  \
                  tessera validation-set othello --empties 20-24 --count 2000 --seed 1 --shard 2/4 --out v20-24-2.obf"
)]
pub struct ValidationSetArgs {
    /// The game (othello)
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Empty squares of the positions: LO-HI (inclusive, 1..=50) or one number
    #[arg(long, value_name = "LO-HI", value_parser = validation::parse_empties)]
    pub empties: (u32, u32),
    /// Positions in the whole set (all shards together)
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub count: u64,
    /// Master seed of the draw
    #[arg(long, value_name = "S", value_parser = seed, default_value = "1")]
    pub seed: u64,
    /// Label only shard I of N (I-1, I-1+N, ... of the set's positions)
    #[arg(long, value_name = "I/N", value_parser = tessera::tournament::schedule::parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// The OBF file written (appended to when it exists: the run resumes)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Solver threads, 1 to 256
    #[arg(long, value_name = "K", default_value = "1",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table, MiB (kept across positions)
    #[arg(long, value_name = "MIB", value_parser = tt_mib, default_value = "64")]
    pub tt_mb: usize,
}

/// Runs `tessera validation-set`.
///
/// # Errors
/// Bad arguments, another run's file, or a file that cannot be written (exit code 2).
pub fn run(args: &ValidationSetArgs) -> Result<ExitCode, CliError> {
    if args.game != GameId::Othello {
        return Err(CliError::input(
            "validation-set supports othello only (exact scores come from its endgame solver)",
        ));
    }
    let draw = DrawConfig {
        empties: args.empties,
        count: usize::try_from(args.count).unwrap_or(usize::MAX),
        seed: args.seed,
    };
    draw.validate().map_err(CliError::input)?;
    tessera::tuning::outputs::create_parent(&args.out)?;
    let stop = tessera::engine::signals::graceful_interrupt();
    let run = LabelRun {
        draw,
        shard: args.shard,
        out: &args.out,
        threads: args.threads as usize,
        tt_mib: args.tt_mb,
        stop: Some(stop),
    };
    let start = Instant::now();
    let summary = validation::label(&run, |done, total, pos, scores| {
        say(label_line(
            (done, total),
            pos,
            scores,
            start.elapsed().as_secs_f64(),
        ));
    })
    .map_err(CliError::input)?;
    say(summary.line(&args.out, start.elapsed().as_secs_f64()));
    Ok(if summary.stopped {
        say("stopped: run the same command again to resume");
        ExitCode::from(EXIT_UNFINISHED)
    } else {
        ExitCode::SUCCESS
    })
}
