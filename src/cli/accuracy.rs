//! `tessera accuracy othello FILE.obf`: how close an engine's moves and scores come to the
//! exact scores of a truth set ([`tessera::engine::accuracy`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use tessera::engine::accuracy::{self, Answer, DEFAULT_ENGINE, Overrides};
use tessera::engine::accuracy_text;
use tessera::games::quixo::tier_truth::tier_truth;

use super::GameId;
use super::output::{CliError, at_least_one_u64, print_json, say, search_depth};

/// Arguments of `tessera accuracy`.
#[derive(Args, Debug)]
#[command(
    about = "Measure an engine's moves and scores against exact scores (an OBF truth set)",
    long_about = "Measure an engine against a truth set: an OBF file whose every line scores \
                  every legal move exactly (Edax's problem/*.obf sets, or what `tessera \
                  validation-set` writes). For each position the engine chooses a move (a new \
                  game each time: a cleared table); reported per number of empties and overall: \
                  the share of best moves, the mean disc loss of the chosen move, the score's \
                  mean absolute error (MAE) against the exact score in discs, the share within \
                  +-3 and +-6 discs, the mean signed error (positive: optimistic for the side to \
                  move), nodes and nodes/s.\n\nThe engine is othello-best-t100 unless --engine \
                  names another (a preset, a .toml file or an inline spec); --depth and/or \
                  --time-ms replace its limits together (--depth 15 alone: a fixed-depth search), \
                  --threads its threads. A line that does not score every legal move, or a \
                  malformed line, is refused with a one-line error naming the file and line \
                  (exit code 2).",
    after_help = "Examples:\n  \
                  tessera accuracy othello tests/data/othello/edax-hard-20.obf --depth 10\n  \
                  tessera accuracy othello tests/data/othello/edax-hard-25.obf --depth 15 --json\n  \
                  tessera accuracy othello set.obf --engine othello-pat-t100 --time-ms 100 --limit 50"
)]
pub struct AccuracyArgs {
    /// The game (othello)
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// The truth set: an OBF file scoring every legal move of each position (othello), or a
    /// finished one-blank tier table from `tessera quixo-tier` (quixo)
    pub file: PathBuf,
    /// Quixo: the full-board table file [default: the cache file of `solve quixo`]
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Quixo: seed of the random positions [default: 1]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The engine: a preset name, a .toml file or an inline spec (key=value,...)
    /// [default: othello-best-t100: format-2 patterns, MPC t = 1.0, exact-empties auto, 100 ms]
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Search depth, plies (replaces the engine's limits; with --time-ms both apply)
    #[arg(long, value_name = "N", value_parser = search_depth)]
    pub depth: Option<u32>,
    /// Time per position, milliseconds (replaces the engine's limits; with --depth both apply)
    #[arg(long, value_name = "MS", value_parser = at_least_one_u64)]
    pub time_ms: Option<u64>,
    /// Search threads, 1 to 256 [default: the engine's]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Only the first N positions of the file
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub limit: Option<u64>,
    /// Print one JSON object (every answer, each bucket and the overall figures)
    #[arg(long)]
    pub json: bool,
}

/// Runs `tessera accuracy`.
///
/// # Errors
/// Bad arguments, an unreadable or unusable truth set, an engine that cannot be built
/// (exit code 2); an engine failing during the run (exit code 1).
pub fn run(args: &AccuracyArgs) -> Result<ExitCode, CliError> {
    if args.game == GameId::Quixo {
        return run_quixo(args);
    }
    if args.game != GameId::Othello {
        return Err(CliError::input(
            "accuracy supports othello (OBF truth sets) and quixo (the solved tiers) only",
        ));
    }
    let overrides = Overrides {
        depth: args.depth,
        time_ms: args.time_ms,
        threads: args.threads.map(|t| t as usize),
    };
    let engine = args.engine.as_deref().unwrap_or(DEFAULT_ENGINE);
    let spec = accuracy::resolve_spec(engine, "othello", overrides).map_err(CliError::input)?;
    // Bad input (the file) is found before the first search; a failure after it is the
    // engine's.
    accuracy::read_othello_truth(&args.file).map_err(CliError::input)?;
    let limit = args.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    if !args.json {
        let settings = accuracy_text::settings_text(&spec);
        say(format!("accuracy of {settings} on {}", args.file.display()));
        say(accuracy_text::answer_header());
    }
    let json = args.json;
    let report = accuracy::measure_othello_file(&args.file, &spec, limit, |a: &Answer| {
        if !json {
            say(accuracy_text::answer_line(a));
        }
    })
    .map_err(CliError::failure)?;
    if json {
        print_json(&accuracy_text::to_json(&args.file, &spec, &report));
    } else {
        accuracy_text::summary_lines(&report)
            .into_iter()
            .for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}

/// `tessera accuracy quixo TIER-FILE`: random positions of the solved tiers (`--limit`
/// of them, default 1000), each move judged by whether it keeps the exact value.
fn run_quixo(args: &AccuracyArgs) -> Result<ExitCode, CliError> {
    let overrides = Overrides {
        depth: args.depth,
        time_ms: args.time_ms,
        threads: args.threads.map(|t| t as usize),
    };
    let engine = args
        .engine
        .as_deref()
        .unwrap_or(accuracy::DEFAULT_QUIXO_ENGINE);
    let spec = accuracy::resolve_spec(engine, "quixo", overrides).map_err(CliError::input)?;
    let count = args
        .limit
        .map_or(1000, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let (one, full) = tier_truth(&args.file, args.table.as_deref(), &mut |l| eprintln!("{l}"))
        .map_err(CliError::input)?;
    let json = args.json;
    let report = accuracy::measure_quixo_tiers(
        one,
        full,
        &spec,
        count,
        args.seed.unwrap_or(1),
        |a: &Answer| {
            if !json {
                say(accuracy_text::quixo_answer_line(a));
            }
        },
    )
    .map_err(CliError::failure)?;
    if json {
        print_json(&accuracy_text::quixo_json(&args.file, &spec, &report));
    } else {
        accuracy_text::quixo_summary_lines(&report)
            .into_iter()
            .for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}
