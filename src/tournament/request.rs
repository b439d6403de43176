//! A tournament as a front end asks for it ([`Request`]: engines by preset name or inline
//! spec, a clock, openings by file or random plies, SPRT, shard, adjudication rules, all as
//! text), turned into the runner's [`Settings`] and [`RunOptions`] and played or resumed in
//! its folder ([`play`]), the seats of the report named for people.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::{EngineSpec, Players, TimeControl};
use crate::game::{Game, Seat};
use crate::present::Present;

use super::adjudicate::{self, Adjudication};
use super::openings::{self, OpeningSource, OpeningsOrder, OpeningsRepeat};
use super::report::{Report, SprtSettings};
use super::runner::{self, Outcome, RunOptions};
use super::schedule::{self, Format};
use super::settings::Settings;

/// Why a tournament could not be set up, run or read; `Display` gives the one-line message
/// (each kind is bad input: the front ends exit with code 2).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TournamentError {
    /// An engine that cannot be resolved, or one for another game.
    Engine(String),
    /// A setting that does not parse: the clock, SPRT, shard, adjudication rules or
    /// openings file (the message names it).
    Setting(String),
    /// The runner refused the tournament or could not go on (its message).
    Run(String),
    /// A tournament folder that cannot be read, merged or exported, or a tournament of a
    /// game tessera does not know.
    Records(String),
}

impl std::fmt::Display for TournamentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Engine(m) | Self::Setting(m) | Self::Run(m) | Self::Records(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for TournamentError {}

/// A tournament in a front end's terms (`tessera tournament GAME ...`): every field as
/// the command line gives it.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Engine presets: names (built in or from `engines/`) or paths to `.toml` files.
    pub engines: Vec<String>,
    /// Inline engine specs (`name=fast,depth=3`), or without `=` a preset as in
    /// [`Request::engines`]; these come after all of the presets.
    pub inline: Vec<String>,
    /// Pairing format.
    pub format: Format,
    /// Games per pairing, rounded up to whole seat rotations (takes precedence over
    /// [`Request::rounds`]).
    pub games: Option<u64>,
    /// Rounds (one opening in every seat rotation per pairing); `None` with no
    /// [`Request::games`]: 10.
    pub rounds: Option<u64>,
    /// Games played at the same time; `None`: the number of CPUs.
    pub concurrency: Option<usize>,
    /// An openings file (one position or move sequence per line).
    pub openings: Option<PathBuf>,
    /// Order of the openings file's lines.
    pub openings_order: OpeningsOrder,
    /// Random openings of this many plies (0: the start position); `None` and no file: 8.
    pub random_plies: Option<u32>,
    /// Master seed.
    pub seed: u64,
    /// Output folder (`tournament.json`, `games.jsonl`, `report.json`).
    pub out: PathBuf,
    /// SPRT settings as text (`elo0=..,elo1=..`, see [`SprtSettings::parse`]).
    pub sprt: Option<String>,
    /// Games longer than this many plies are draws; `None`: the game's
    /// [`Game::DEFAULT_MAX_PLIES`].
    pub max_plies: Option<u64>,
    /// Only the I-th of N slices of the schedule, as `I/N`.
    pub shard: Option<String>,
    /// Engine rated 0 in the rating list (else the pool mean).
    pub anchor: Option<String>,
    /// Folder for each external engine's protocol traffic.
    pub engine_log: Option<PathBuf>,
    /// Game clock for every engine without its own (cutechess `tc`: `[MOVES/]BASE[+INC]`).
    pub tc: Option<String>,
    /// Fixed time per move, seconds, for every engine without its own clock.
    pub st: Option<f64>,
    /// Milliseconds a clocked engine may overrun its clock.
    pub timemargin: Option<u64>,
    /// Adjudication rules (`exact=N`, `resign=SCORE,MOVES`, `draw=SCORE,MOVES[,FROM]`).
    pub adjudicate: Vec<String>,
    /// Resume even when an engine's weights, book or MPC file changed.
    pub allow_changed_files: bool,
    /// What to do when the rounds need more openings than the file holds.
    pub openings_repeat: OpeningsRepeat,
    /// Show a progress bar.
    pub progress: bool,
    /// Raised to stop starting games (the games in progress finish and are saved).
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// The engines of `request` for game `game`: the presets, then the inline specs.
fn engines(request: &Request, game: &str) -> Result<Vec<EngineSpec>, TournamentError> {
    let mut engines = Vec::new();
    for name in &request.engines {
        engines.push(EngineSpec::resolve(name).map_err(|e| TournamentError::Engine(e.into()))?);
    }
    for text in &request.inline {
        // As selfplay's and gtp's --engine: without '=' it names a preset.
        let spec = if text.contains('=') {
            EngineSpec::from_inline(text, game)
        } else {
            EngineSpec::resolve(text)
        };
        engines.push(spec.map_err(|e| TournamentError::Engine(e.into()))?);
    }
    for e in &engines {
        e.expect_game(game)
            .map_err(|e| TournamentError::Engine(e.into()))?;
    }
    Ok(engines)
}

impl Request {
    /// The runner's settings and options for game `G`.
    ///
    /// # Errors
    /// An engine that cannot be resolved or is for another game, then (in this order) a
    /// bad clock, adjudication rule, openings file, SPRT or shard.
    pub fn settings<G: Game>(&self) -> Result<(Settings, RunOptions), TournamentError> {
        let game = G::ID;
        let mut engines = engines(self, game)?;
        let tc = self
            .tc
            .as_deref()
            .map(|t| t.parse::<TimeControl>().map_err(|e| format!("--tc: {e}")))
            .transpose()
            .map_err(TournamentError::Setting)?;
        super::settings::apply_clock(&mut engines, tc, self.st, self.timemargin)
            .map_err(TournamentError::Setting)?;
        let adjudicate = Adjudication::parse(&self.adjudicate).map_err(TournamentError::Setting)?;
        // Team games are scheduled by teams (one engine per team).
        let start = G::start();
        let n_seats = (0..start.seats())
            .map(|s| usize::from(start.team(Seat(s as u8))) + 1)
            .max()
            .unwrap_or(2);
        let rounds = match (self.games, self.rounds) {
            (Some(g), _) => g.div_ceil(n_seats as u64) as usize,
            (None, Some(r)) => r as usize,
            (None, None) => 10,
        };
        let openings = match (&self.openings, self.random_plies) {
            (Some(path), _) => openings::read_file::<G>(path).map_err(TournamentError::Setting)?,
            (None, Some(0)) => OpeningSource::Start,
            (None, Some(n)) => OpeningSource::RandomPlies(n),
            (None, None) => OpeningSource::RandomPlies(8),
        };
        let sprt = self
            .sprt
            .as_deref()
            .map(SprtSettings::parse)
            .transpose()
            .map_err(TournamentError::Setting)?;
        let shard = self
            .shard
            .as_deref()
            .map(schedule::parse_shard)
            .transpose()
            .map_err(TournamentError::Setting)?;
        let settings = Settings {
            game: game.into(),
            engines,
            format: self.format,
            rounds,
            openings,
            seed: self.seed,
            max_plies: self.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES) as usize,
            sprt,
            anchor: self.anchor.clone(),
            adjudicate,
            openings_order: self.openings_order,
        };
        let options = RunOptions {
            out: self.out.clone(),
            concurrency: self.concurrency.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            shard,
            progress: self.progress,
            interrupt: self.interrupt.clone(),
            allow_changed_files: self.allow_changed_files,
            openings_repeat: self.openings_repeat,
        };
        Ok((settings, options))
    }
}

/// Plays (or resumes) the tournament `request` describes for game `G` in its folder, with
/// the game's exact solver for `exact=N` adjudication ([`adjudicate::exact_solver`]); the
/// report's seats are named ([`super::seat_names::name_seats`]) and `report.json` is
/// written again with the names.
///
/// # Errors
/// As [`Request::settings`]; an engine log folder that cannot be made; the runner's
/// refusals (fewer engines than seats, a folder holding another tournament, unreadable
/// openings, unwritable records).
pub fn play<G: Present + Players>(request: &Request) -> Result<Outcome, TournamentError> {
    let (settings, options) = request.settings::<G>()?;
    if let Some(dir) = &request.engine_log {
        crate::engine::engine_log::set_dir(dir.clone()).map_err(TournamentError::Setting)?;
    }
    let exact = adjudicate::exact_solver::<G>();
    let mut outcome = runner::run::<G>(&settings, &options, &G::make_player, exact.as_ref())
        .map_err(TournamentError::Run)?;
    super::seat_names::name_seats::<G>(&mut outcome.report);
    // The runner wrote report.json before the seats had names: write it again with them.
    if let Ok(text) = serde_json::to_string_pretty(&outcome.report) {
        let _ = std::fs::write(request.out.join("report.json"), text);
    }
    Ok(outcome)
}

impl Outcome {
    /// The report as one JSON object, with the run's counts (`played`, `resumed`,
    /// `skipped`, `interrupted`) and the folder (`out`) added.
    ///
    /// # Errors
    /// The report cannot be serialised.
    pub fn to_json(&self, out: &std::path::Path) -> Result<serde_json::Value, serde_json::Error> {
        let mut v = serde_json::to_value(&self.report)?;
        v["played"] = self.played.into();
        v["resumed"] = self.resumed.into();
        v["skipped"] = self.skipped.into();
        v["interrupted"] = self.interrupted.into();
        v["out"] = out.display().to_string().into();
        Ok(v)
    }

    /// The line said before the report: the games played, resumed and skipped in folder
    /// `out`, or how to resume an interrupted run.
    #[must_use]
    pub fn summary_line(&self, out: &std::path::Path) -> String {
        if self.interrupted {
            return format!(
                "interrupted: {} games played and saved in {}; run the same command to resume",
                self.played,
                out.display()
            );
        }
        format!(
            "played {} games; {} more were already in {} from an earlier run{}",
            self.played,
            self.resumed,
            out.display(),
            if self.skipped > 0 {
                format!(", {} skipped after the SPRT stopped", self.skipped)
            } else {
                String::new()
            }
        )
    }

    /// The report as text ([`super::report::render`]).
    #[must_use]
    pub fn render(&self) -> String {
        super::report::render(&self.report)
    }
}

/// The report of `records` with the seats named for the game of `settings`.
///
/// # Errors
/// The game id of `settings` is unknown.
pub fn game_report(
    settings: &Settings,
    records: &[super::record::GameRecord],
) -> Result<Report, TournamentError> {
    fn named<G: Present>(settings: &Settings, records: &[super::record::GameRecord]) -> Report {
        super::seat_names::named_report::<G>(settings, records)
    }
    let id = settings.game.parse::<crate::games::GameId>().map_err(|_| {
        TournamentError::Records(format!(
            "the tournament is of unknown game '{}'",
            settings.game
        ))
    })?;
    Ok(crate::for_game!(id, named(settings, records)))
}

/// Merges the shard folders `dirs` into the new folder `out` ([`super::merge::merge_dirs`])
/// and writes its `report.json` (seats named); returns the merged records and the report.
///
/// # Errors
/// As [`super::merge::merge_dirs`]; a tournament of a game tessera does not know.
pub fn merge_folders(
    dirs: &[PathBuf],
    out: &std::path::Path,
) -> Result<(super::merge::Merged, Report), TournamentError> {
    let merged = super::merge::merge_dirs(dirs, out).map_err(TournamentError::Records)?;
    let rep = game_report(&merged.settings, &merged.records)?;
    let _ = std::fs::write(
        out.join("report.json"),
        serde_json::to_string_pretty(&rep).unwrap_or_default(),
    );
    Ok((merged, rep))
}
