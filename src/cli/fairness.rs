//! `tessera fairness GAME`: is the game fair to its seats? Copies of one engine play each
//! other in every seat rotation, at several strengths, from the start position and from a
//! random opening suite (Talat: also under each `[choice]` rule), and the results are
//! reported per seat with 95 % intervals, the trend with strength and a verdict.
//!
//! The experiment is the library's ([`tessera::tournament::fairness`]); this file turns the
//! flags into its configuration and prints the summary.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tessera::engine::Players;
use tessera::present::Present;
use tessera::tournament::fairness::{self, FairnessConfig, FairnessError, Level};
use tessera::tournament::schedule;

use super::output::{self, CliError};
use super::{Algo, GameId};

/// Seat fairness of a game: identical engines in every seat rotation.
#[derive(Args, Debug)]
#[command(
    about = "Is the game fair? Seat advantage from self-play of identical engines",
    long_about = "Is the game fair to its seats? Copies of one engine play each other in every \
        seat rotation at several strengths (--depths, --levels or --times-ms), from the start position \
        and from a random opening suite; three-player Talat also under each [choice] rule \
        (which seat moves first after a random setup), talat-2p with the Djinn set up at \
        random (the seed's rule) and chosen by the players (the English rules). Per seat: the \
        score and the win/draw/loss shares with 95 % intervals; the trend of each seat's \
        score from the weakest to the strongest level; a verdict; Quixo 3x3 (and 4x4 unless \
        --quick) solved exactly. Every row is a tournament in its own folder under --out: \
        run the same command again to resume.\n\nExamples:\n  tessera fairness othello --quick\n  \
        tessera fairness othello --depths 2,4,6 --rounds 100 --concurrency 1 --out fair-othello\n  \
        tessera fairness talat --times-ms 25,100 --json"
)]
pub struct FairnessArgs {
    /// Game
    #[arg(value_parser = super::GameIdParser)]
    game: GameId,
    /// A small run (depths 1,2,3, 100 random-opening rounds, no 4x4 Quixo solve)
    #[arg(long)]
    quick: bool,
    /// Strength levels as search depths, weakest first [default: othello 2,4,6; quixo 2,3,4;
    /// quixo-4p 1,2,3; talat 1,2,3; talat-2p 2,3,4]
    #[arg(long, value_delimiter = ',', value_name = "D,D,...", conflicts_with_all = ["times_ms", "levels"],
          value_parser = output::search_depth)]
    depths: Vec<u32>,
    /// Strength levels as `level=N` engines (as `bestmove --level`: depth N and, in Othello,
    /// exact solving from 2N empties, at most 24), weakest first
    #[arg(long, value_delimiter = ',', value_name = "N,N,...", conflicts_with = "times_ms",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    levels: Vec<u32>,
    /// Strength levels as time per move, milliseconds, weakest first
    #[arg(long, value_delimiter = ',', value_name = "MS,MS,...", value_parser = output::at_least_one_u64)]
    times_ms: Vec<u64>,
    /// Search algorithm of the engines [default: the game's, as in `play`]
    #[arg(long, value_parser = super::AlgoParser)]
    algo: Option<Algo>,
    /// Evaluation weights file of the engines (as `play --weights`)
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Rounds of the opening suite per level (each round: one opening in every seat
    /// rotation) [default: 50; --quick 100]
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    rounds: Option<u64>,
    /// The opening suite: random openings of N legal plies [default: 8]
    #[arg(long, value_name = "N", conflicts_with = "openings",
          value_parser = clap::value_parser!(u32).range(1..=200))]
    random_plies: Option<u32>,
    /// The opening suite from a file (one position or move sequence per line)
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Master seed (openings, random setups)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time [default: number of CPUs]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: Option<u64>,
    /// Play only the I-th of N disjoint slices of every row's schedule
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Games longer than this many plies end as draws [default: the game's, as tournament]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_plies: Option<u64>,
    /// Output folder: one tournament folder per row
    #[arg(long, value_name = "DIR", default_value = "fairness-out")]
    out: PathBuf,
    /// Also write the report as one self-contained HTML page (charts and a game viewer)
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// No progress bars
    #[arg(long)]
    no_progress: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: &FairnessArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, fairness(args))
}

/// The flags as the library's configuration.
fn config(args: &FairnessArgs) -> Result<FairnessConfig, CliError> {
    let levels: Vec<Level> = if !args.times_ms.is_empty() {
        args.times_ms.iter().map(|&t| Level::TimeMs(t)).collect()
    } else if !args.depths.is_empty() {
        args.depths.iter().map(|&d| Level::Depth(d)).collect()
    } else {
        args.levels.iter().map(|&n| Level::Strength(n)).collect()
    };
    let mut config = FairnessConfig::new(&args.out);
    config.levels = levels;
    config.quick = args.quick;
    config.algo = args.algo;
    config.weights.clone_from(&args.weights);
    config.rounds = args.rounds.map(|r| r as usize);
    config.random_plies = args.random_plies;
    config.openings.clone_from(&args.openings);
    config.seed = args.seed;
    if let Some(k) = args.concurrency {
        config.concurrency = k as usize;
    }
    config.shard = args
        .shard
        .as_deref()
        .map(schedule::parse_shard)
        .transpose()
        .map_err(CliError::input)?;
    config.max_plies = args.max_plies.map(|p| p as usize);
    config.progress = !args.no_progress && !args.json;
    config.interrupt = Some(tessera::engine::signals::graceful_interrupt());
    Ok(config)
}

/// The library's error as the command's: the levels named by their flag.
fn cli_error(args: &FairnessArgs, e: FairnessError) -> CliError {
    match e {
        FairnessError::LevelsOutOfOrder(levels) => CliError::input(format!(
            "--{} {}: the levels must increase from the weakest to the strongest, each once",
            if !args.times_ms.is_empty() {
                "times-ms"
            } else if !args.levels.is_empty() {
                "levels"
            } else {
                "depths"
            },
            fairness::error::join(&levels)
        )),
        e if e.is_failure() => CliError::failure(e.to_string()),
        e => CliError::input(e.to_string()),
    }
}

fn fairness<G: Present + Players>(args: &FairnessArgs) -> Result<ExitCode, CliError> {
    if let Some(path) = &args.html {
        tessera::report::check_target(path, Some(&args.out))?;
    }
    let config = config(args)?;
    let json = args.json;
    let done = fairness::run::<G>(&config, &mut |line| {
        if !json {
            eprintln!("{line}");
        }
    })
    .map_err(|e| cli_error(args, e))?;
    let summary = &done.summary;
    if let Some(path) = &args.html {
        let page = tessera::report::fairness_page::<G>(summary, &done.records)?;
        tessera::report::write_page(path, &page)?;
    }
    if json {
        output::print_json(&summary.to_json());
    } else {
        output::say(summary.render());
        if let Some(path) = &args.html {
            output::say(format!("page written to {}", path.display()));
        }
    }
    Ok(if summary.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}
