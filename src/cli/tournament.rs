//! `tessera tournament`: AI-vs-AI matches with records, resume, ratings and SPRT;
//! `tessera tournament report DIR`, `tessera tournament merge DIR... --out DIR` and
//! `tessera tournament export DIR --format ggf`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{Args, Subcommand};
use tessera::engine::{EngineSpec, TimeControl};
use tessera::tournament::adjudicate::Adjudication;
use tessera::tournament::merge;
use tessera::tournament::openings::{self, OpeningSource, OpeningsOrder, OpeningsRepeat};
use tessera::tournament::record::GameRecord;
use tessera::tournament::report::{self, SprtSettings};
use tessera::tournament::runner::{self, RunOptions, Settings};
use tessera::tournament::schedule::{self, Format};

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
    #[arg(long, value_enum, default_value_t = FormatArg::RoundRobin)]
    format: FormatArg,
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
    #[arg(long, value_enum, value_name = "ORDER", requires = "openings", default_value_t = OrderArg::Sequential)]
    openings_order: OrderArg,
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
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = RepeatArg::Warn)]
    openings_repeat: RepeatArg,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OrderArg {
    Sequential,
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum RepeatArg {
    Error,
    Warn,
    Allow,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FormatArg {
    RoundRobin,
    Gauntlet,
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
    let (_, records) = load_dir(dir)?;
    let text = tessera::tournament::export::records_to_ggf(&records).map_err(CliError::input)?;
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

fn play_tournament<G: CliGame>(a: &PlayArgs) -> Result<ExitCode, CliError> {
    let game = G::ID;
    let mut engines = Vec::new();
    for name in &a.engines {
        engines.push(EngineSpec::resolve(name).map_err(CliError::input)?);
    }
    for text in &a.inline {
        // As selfplay's and gtp's --engine: without '=' it names a preset.
        let spec = if text.contains('=') {
            EngineSpec::from_inline(text, game)
        } else {
            EngineSpec::resolve(text)
        };
        engines.push(spec.map_err(CliError::input)?);
    }
    for e in &engines {
        e.expect_game(game).map_err(CliError::input)?;
    }
    apply_clock(&mut engines, a).map_err(CliError::input)?;
    let adjudicate = Adjudication::parse(&a.adjudicate).map_err(CliError::input)?;
    // Team games are scheduled by teams (one engine per team).
    let start = G::start();
    let n_seats = (0..start.seats())
        .map(|s| usize::from(start.team(tessera::game::Seat(s as u8))) + 1)
        .max()
        .unwrap_or(2);
    let rounds = match (a.games, a.rounds) {
        (Some(g), _) => g.div_ceil(n_seats as u64) as usize,
        (None, Some(r)) => r as usize,
        (None, None) => 10,
    };
    let openings = match (&a.openings, a.random_plies) {
        (Some(path), _) => openings::read_file::<G>(path).map_err(CliError::input)?,
        (None, Some(0)) => OpeningSource::Start,
        (None, Some(n)) => OpeningSource::RandomPlies(n),
        (None, None) => OpeningSource::RandomPlies(8),
    };
    let sprt = a
        .sprt
        .as_deref()
        .map(SprtSettings::parse)
        .transpose()
        .map_err(CliError::input)?;
    let shard = a
        .shard
        .as_deref()
        .map(schedule::parse_shard)
        .transpose()
        .map_err(CliError::input)?;
    let settings = Settings {
        game: game.into(),
        engines,
        format: match a.format {
            FormatArg::RoundRobin => Format::RoundRobin,
            FormatArg::Gauntlet => Format::Gauntlet,
        },
        rounds,
        openings,
        seed: a.seed,
        max_plies: a.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES) as usize,
        sprt,
        anchor: a.anchor.clone(),
        adjudicate,
        openings_order: match a.openings_order {
            OrderArg::Sequential => OpeningsOrder::Sequential,
            OrderArg::Random => OpeningsOrder::Random,
        },
    };
    let concurrency = a.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |k| k as usize,
    );
    let options = RunOptions {
        out: a.out.clone(),
        concurrency,
        shard,
        progress: !a.no_progress && !a.json,
        interrupt: Some(interrupt_flag()),
        allow_changed_files: a.allow_changed_files,
        openings_repeat: match a.openings_repeat {
            RepeatArg::Error => OpeningsRepeat::Error,
            RepeatArg::Warn => OpeningsRepeat::Warn,
            RepeatArg::Allow => OpeningsRepeat::Allow,
        },
    };
    if let Some(dir) = &a.engine_log {
        tessera::engine::engine_log::set_dir(dir.clone()).map_err(CliError::input)?;
    }
    let exact = G::exact_solve();
    let mut outcome = runner::run::<G>(&settings, &options, &G::make_player, exact.as_ref())
        .map_err(CliError::input)?;
    tessera::report::name_seats::<G>(&mut outcome.report);
    // The runner wrote report.json before the seats had names: write it again with them.
    if let Ok(text) = serde_json::to_string_pretty(&outcome.report) {
        let _ = std::fs::write(a.out.join("report.json"), text);
    }
    if a.json {
        let mut v =
            serde_json::to_value(&outcome.report).map_err(|e| CliError::failure(e.to_string()))?;
        v["played"] = outcome.played.into();
        v["resumed"] = outcome.resumed.into();
        v["skipped"] = outcome.skipped.into();
        v["interrupted"] = outcome.interrupted.into();
        v["out"] = a.out.display().to_string().into();
        output::print_json(&v);
    } else if outcome.interrupted {
        output::say(format!(
            "interrupted: {} games played and saved in {}; run the same command to resume",
            outcome.played,
            a.out.display()
        ));
        output::say(report::render(&outcome.report));
    } else {
        output::say(format!(
            "played {} games; {} more were already in {} from an earlier run{}",
            outcome.played,
            outcome.resumed,
            a.out.display(),
            if outcome.skipped > 0 {
                format!(", {} skipped after the SPRT stopped", outcome.skipped)
            } else {
                String::new()
            }
        ));
        output::say(report::render(&outcome.report));
    }
    Ok(if outcome.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--tc`, `--st` and `--timemargin` for every engine that has no clock of its own.
fn apply_clock(engines: &mut [EngineSpec], a: &PlayArgs) -> Result<(), String> {
    let tc =
        a.tc.as_deref()
            .map(|t| t.parse::<TimeControl>().map_err(|e| format!("--tc: {e}")))
            .transpose()?;
    tessera::tournament::settings::apply_clock(engines, tc, a.st, a.timemargin)
}

/// The graceful interrupt of tournaments (see [`super::signals::graceful_interrupt`]).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    super::signals::graceful_interrupt()
}

/// The folder `dir` read and checked by the one reader every command and the web page use
/// ([`tessera::tournament::folder::read`]); a torn last line is noted on stderr.
fn load_dir(dir: &Path) -> Result<(Settings, Vec<GameRecord>), CliError> {
    let folder = tessera::tournament::folder::read(dir).map_err(CliError::input)?;
    if let Some(note) = &folder.note {
        eprintln!("{note}");
    }
    Ok((folder.settings, folder.records))
}

/// [`named_report`] for the game of `settings`.
///
/// # Errors
/// The game id of `settings` is unknown.
fn game_report(settings: &Settings, records: &[GameRecord]) -> Result<report::Report, CliError> {
    fn named<G: CliGame>(
        settings: &Settings,
        records: &[GameRecord],
    ) -> Result<report::Report, CliError> {
        Ok(tessera::report::named_report::<G>(settings, records))
    }
    let id = &settings.game.parse::<GameId>().map_err(|_| {
        CliError::input(format!(
            "the tournament is of unknown game '{}'",
            settings.game
        ))
    })?;
    tessera::for_game!(id, named(settings, records))
}

fn print_report(settings: &Settings, records: &[GameRecord], json: bool) -> Result<(), CliError> {
    let rep = game_report(settings, records)?;
    if json {
        output::print_json(&serde_json::to_value(&rep).unwrap_or_default());
    } else {
        output::say(report::render(&rep));
    }
    Ok(())
}

fn report_dir(dir: &Path, json: bool, html: Option<&Path>) -> Result<ExitCode, CliError> {
    if let Some(path) = html {
        super::output::check_html_target(path)?;
    }
    let (settings, records) = load_dir(dir)?;
    if let Some(path) = html {
        let id = &settings.game.parse::<GameId>().map_err(|_| {
            CliError::input(format!(
                "{} is a tournament of unknown game '{}'",
                dir.display(),
                settings.game
            ))
        })?;
        tessera::for_game!(id, write_html(dir, path, &settings, &records))?;
    }
    print_report(&settings, &records, json)?;
    if let Some(path) = html
        && !json
    {
        output::say(format!("page written to {}", path.display()));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the HTML page of a tournament directory's records.
fn write_html<G: CliGame>(
    dir: &Path,
    path: &Path,
    settings: &Settings,
    records: &[GameRecord],
) -> Result<(), CliError> {
    let page = tessera::report::tournament_page::<G>(dir, settings, records)?;
    Ok(tessera::report::write_page(path, &page)?)
}

fn merge(dirs: &[PathBuf], out: &Path, json: bool) -> Result<ExitCode, CliError> {
    let merged = merge::merge_dirs(dirs, out).map_err(CliError::input)?;
    let rep = game_report(&merged.settings, &merged.records)?;
    let _ = std::fs::write(
        out.join("report.json"),
        serde_json::to_string_pretty(&rep).unwrap_or_default(),
    );
    if let Some(note) = &merged.note {
        eprintln!("{note}");
    }
    print_report(&merged.settings, &merged.records, json)?;
    Ok(ExitCode::SUCCESS)
}
