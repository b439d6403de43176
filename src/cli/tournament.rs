//! `tessera tournament`: AI-vs-AI matches with records, resume, ratings and SPRT;
//! `tessera tournament report DIR`, `tessera tournament merge DIR... --out DIR` and
//! `tessera tournament export DIR --format ggf`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tessera::tournament::folder::Folder;
use tessera::tournament::openings::{OpeningsOrder, OpeningsRepeat};
use tessera::tournament::report;
use tessera::tournament::request::{self, Request};
use tessera::tournament::schedule::Format;

use super::GameId;
use super::games::CliGame;
use super::output::{self, CliError};

/// Play engines against each other and rate them (round-robin or gauntlet, colour-swapped
/// pairs, parallel games, resumable records, Elo with error bars, SPRT).
#[derive(Args, Debug)]
#[command(
    about = "Play AI-vs-AI tournaments and rate the engines",
    long_about = "Play AI-vs-AI tournaments and rate the engines.\n\n\
        Every opening is played twice with the seats swapped (a pair; three-player Talat: in \
        all three seat rotations; four-player Quixo: one engine per team, teams swapped). Each finished game is \
        appended to DIR/games.jsonl at once; running the same command again with the same \
        --out resumes without losing or repeating a game. The report (also DIR/report.json) \
        gives per pairing W/D/L, pentanomial pair counts, Elo and normalized Elo with 95 % \
        error bars, LOS and draw ratio, and a Bradley-Terry rating list with bootstrap \
        intervals.\n\nExamples:\n  tessera tournament othello --engines othello-ab-d2,othello-ab-d4 --rounds 20\n  \
        tessera tournament othello --engines othello-ab-d3 --engine name=d3-small,depth=3,tt-mb=1 --sprt elo0=-10,elo1=0\n  \
        tessera tournament report tournament-out",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct TournamentArgs {
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    play: Option<PlayArgs>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Print the report of a tournament directory from its records
    Report {
        /// Tournament directory (holds tournament.json and games.jsonl)
        dir: PathBuf,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
        /// Also write the report as one self-contained HTML page (charts, game viewer)
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Write a tournament's Othello games in another format (GGF: one game per line)
    Export {
        /// Tournament directory (holds games.jsonl)
        dir: PathBuf,
        /// Output format
        #[arg(long, value_enum, default_value_t = ExportFormat::Ggf)]
        format: ExportFormat,
        /// File to write (default: standard output)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Combine the records of several shards of one tournament into one directory
    Merge {
        /// Shard directories (each from a run with --shard I/N and the same other settings)
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Directory to write the merged records and report to (must not hold records)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Game
    #[arg(value_parser = super::GameIdParser)]
    game: GameId,
    /// Engine presets (names from engines/ or built in, or paths to .toml files), comma-separated
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    engines: Vec<String>,
    /// An inline engine, e.g. name=fast,depth=3,tt-mb=4 or name=b,time-ms=100,book=builtin
    /// (repeatable; fields as in engines/*.toml, listed in docs/tournament.md), or without
    /// '=' a preset as in --engines; these come after all of --engines
    #[arg(long = "engine", value_name = "SPEC")]
    inline: Vec<String>,
    /// Pairing format: every engine against every other, or the first against the rest
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    /// Games per pairing (rounded up to whole colour-swapped pairs)
    #[arg(long, value_name = "N", conflicts_with = "rounds", value_parser = output::at_least_one_u64)]
    games: Option<u64>,
    /// Rounds: each pairing plays one opening in both colours per round [default: 10]
    #[arg(long, value_name = "N", value_parser = output::at_least_one_u64)]
    rounds: Option<u64>,
    /// Games played at the same time [default: number of CPUs]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: Option<u64>,
    /// Openings file: one position or move sequence per line, used in order
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Order of the openings file's lines: in file order, or shuffled once from --seed
    #[arg(long, value_enum, value_name = "ORDER", requires = "openings", default_value_t = OpeningsOrder::Sequential)]
    openings_order: OpeningsOrder,
    /// Random openings of N legal plies from the seed [default: 8; 0 = start position]
    #[arg(long, value_name = "N")]
    random_plies: Option<u32>,
    /// Master seed: the same seed and settings give the same games at any concurrency
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory for tournament.json, games.jsonl and report.json
    #[arg(long, value_name = "DIR", default_value = "tournament-out")]
    out: PathBuf,
    /// Stop early by a GSPRT on pentanomial pairs: elo0=..,elo1=..[,alpha=0.05][,beta=0.05][,model=normalized|logistic].
    /// Tested from the first engine's view: the first of --engines, or the first --engine
    /// when --engines is not given (presets come before inline engines, whatever the order
    /// on the command line)
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Games longer than this many plies end as draws [default: Othello 1000, Quixo 200]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_plies: Option<u64>,
    /// Play only the I-th of N disjoint slices of the schedule (then `tournament merge`)
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Anchor the rating list at this engine (rated 0) instead of the pool mean
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// Write each external engine's protocol traffic to DIR/NAME-PID.log
    #[arg(long, value_name = "DIR")]
    engine_log: Option<PathBuf>,
    /// Game clock for every engine without its own: [MOVES/]BASE[+INC], BASE in seconds or m:ss (cutechess tc); running out loses the game
    #[arg(long, value_name = "TC", conflicts_with = "st")]
    tc: Option<String>,
    /// Fixed time per move in seconds for every engine without its own clock; exceeding it loses the game
    #[arg(long, value_name = "SECONDS")]
    st: Option<f64>,
    /// Milliseconds every clocked engine may overrun its clock without losing [default: 0]
    #[arg(long, value_name = "MS")]
    timemargin: Option<u64>,
    /// End games early: exact=N (Othello: solve at N empties or fewer; Quixo: a win proven within N plies), resign=SCORE,MOVES, draw=SCORE,MOVES[,FROM] (repeatable)
    #[arg(long, value_name = "RULE")]
    adjudicate: Vec<String>,
    /// Resume even when a weights, book or MPC file of an engine changed since DIR was
    /// started (the change is recorded in DIR/tournament.json)
    #[arg(long)]
    allow_changed_files: bool,
    /// When the rounds need more openings than the file holds (games replay openings):
    /// refuse, warn before the first game, or play without a word
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = OpeningsRepeat::Warn)]
    openings_repeat: OpeningsRepeat,
    /// No progress bar
    #[arg(long)]
    no_progress: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// Formats of `tournament export`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ExportFormat {
    /// GGF (GGS / NBoard / Edax): players, result, per-move eval (discs) and time
    Ggf,
}

/// `tournament export DIR --format ggf [--out FILE]`: every Othello record as GGF, after the
/// checks `report` makes (a record that does not follow from its tournament is refused).
fn export(dir: &Path, format: ExportFormat, out: Option<&Path>) -> Result<ExitCode, CliError> {
    let ExportFormat::Ggf = format;
    let path = dir.join("games.jsonl");
    if !path.is_file() {
        return Err(CliError::input(format!(
            "{} not found (is {} a tournament directory?)",
            path.display(),
            dir.display()
        )));
    }
    // The records are checked against their tournament as `report` checks them: an
    // edited or foreign record is refused, not exported.
    let folder = load_dir(dir)?;
    let text =
        tessera::tournament::export::records_to_ggf(&folder.records).map_err(CliError::input)?;
    match out {
        Some(file) => std::fs::write(file, text)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", file.display())))?,
        None => output::say(text.trim_end()),
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(args: &TournamentArgs) -> Result<ExitCode, CliError> {
    match (&args.action, &args.play) {
        (Some(Action::Report { dir, json, html }), _) => report_dir(dir, *json, html.as_deref()),
        (Some(Action::Merge { dirs, out, json }), _) => merge(dirs, out, *json),
        (Some(Action::Export { dir, format, out }), _) => export(dir, *format, out.as_deref()),
        (None, Some(play)) => tessera::for_game!(play.game, play_tournament(play)),
        (None, None) => Err(CliError::input(
            "give a game (e.g. `tessera tournament othello --engines A,B`) or `report DIR`",
        )),
    }
}

/// The flags as the library's request.
fn request(a: &PlayArgs) -> Request {
    Request {
        engines: a.engines.clone(),
        inline: a.inline.clone(),
        format: a.format,
        games: a.games,
        rounds: a.rounds,
        concurrency: a.concurrency.map(|k| k as usize),
        openings: a.openings.clone(),
        openings_order: a.openings_order,
        random_plies: a.random_plies,
        seed: a.seed,
        out: a.out.clone(),
        sprt: a.sprt.clone(),
        max_plies: a.max_plies,
        shard: a.shard.clone(),
        anchor: a.anchor.clone(),
        engine_log: a.engine_log.clone(),
        tc: a.tc.clone(),
        st: a.st,
        timemargin: a.timemargin,
        adjudicate: a.adjudicate.clone(),
        allow_changed_files: a.allow_changed_files,
        openings_repeat: a.openings_repeat,
        progress: !a.no_progress && !a.json,
        interrupt: Some(tessera::engine::signals::graceful_interrupt()),
    }
}

fn play_tournament<G: CliGame>(a: &PlayArgs) -> Result<ExitCode, CliError> {
    let outcome = request::play::<G>(&request(a))?;
    if a.json {
        let v = outcome
            .to_json(&a.out)
            .map_err(|e| CliError::failure(e.to_string()))?;
        output::print_json(&v);
    } else {
        output::say(outcome.summary_line(&a.out));
        output::say(outcome.render());
    }
    Ok(if outcome.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// The folder `dir` read and checked by the one reader every command and the web page use
/// ([`tessera::tournament::folder::read`]); a torn last line is noted on stderr.
fn load_dir(dir: &Path) -> Result<Folder, CliError> {
    let folder = tessera::tournament::folder::read(dir).map_err(CliError::input)?;
    if let Some(note) = &folder.note {
        eprintln!("{note}");
    }
    Ok(folder)
}

fn print_report(rep: &report::Report, json: bool) {
    if json {
        output::print_json(&serde_json::to_value(rep).unwrap_or_default());
    } else {
        output::say(report::render(rep));
    }
}

fn report_dir(dir: &Path, json: bool, html: Option<&Path>) -> Result<ExitCode, CliError> {
    if let Some(path) = html {
        tessera::report::check_target(path)?;
    }
    let folder = load_dir(dir)?;
    if let Some(path) = html {
        let page = tessera::report::folder_page(dir, &folder)?;
        tessera::report::write_page(path, &page)?;
    }
    print_report(
        &request::game_report(&folder.settings, &folder.records)?,
        json,
    );
    if let Some(path) = html
        && !json
    {
        output::say(format!("page written to {}", path.display()));
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(dirs: &[PathBuf], out: &Path, json: bool) -> Result<ExitCode, CliError> {
    let (merged, rep) = request::merge_folders(dirs, out)?;
    if let Some(note) = &merged.note {
        eprintln!("{note}");
    }
    print_report(&rep, json);
    Ok(ExitCode::SUCCESS)
}
