//! Running a tournament: games in parallel (rayon), each record appended as the game ends,
//! resume from the records of an earlier run, SPRT early stop, a progress bar.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::adjudicate::{ExactAttempt, ExactSolve, ScoreWatch, Verdict};
use super::files::{CHANGES_KEY, DependedFile, FILES_KEY, FileChange};
use super::lock::OutLock;
use super::openings::{Opening, OpeningsRepeat};
use super::record::{self, GameRecord, MoveStat, Reason};
use super::report::{self, Report};
use super::schedule::{self, Slot};
use super::validate;
use crate::engine::mcts::{MCTS_MARGIN_UNIT, MCTS_UNIT};
use crate::engine::{EngineSpec, PlayerFactory, Protocol};
use crate::game::{BySeat, Game, Outcome as GameOutcome, Seat};

pub use super::settings::Settings;

/// Most games one run schedules (use `--shard` beyond).
pub const MAX_GAMES: usize = 1_000_000;
/// Most games played at once.
pub const MAX_CONCURRENCY: usize = 1024;

/// How to run (does not change which games are played or how).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Output directory (records, settings, report).
    pub out: PathBuf,
    /// Games played at once.
    pub concurrency: usize,
    /// Play only this shard `(I, N)` of the schedule.
    pub shard: Option<(usize, usize)>,
    /// Show a progress bar (on stderr, when it is a terminal).
    pub progress: bool,
    /// Raised (e.g. by Ctrl-C) to start no new game; games in progress finish and are
    /// recorded.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Resume even when a file an engine depends on changed since the directory was
    /// started (`--allow-changed-files`); the change is recorded in `tournament.json`.
    pub allow_changed_files: bool,
    /// What to do when the schedule needs more openings than the file holds.
    pub openings_repeat: OpeningsRepeat,
}

/// The key of `DIR/tournament.json` that names the shard a run played (`"3/16"`), absent for
/// a run of the whole schedule. [`Settings`] does not hold it (every shard of one tournament
/// has the same settings); `tournament merge` reads it with [`saved_shard`].
pub const SHARD_KEY: &str = "shard";

/// What `DIR/tournament.json` will hold once a run's checks pass: the settings, the shard
/// (under [`SHARD_KEY`]), the stamps of the files the tournament depends on and the
/// changes `--allow-changed-files` accepted (see [`super::files`]).
pub(super) fn settings_value(
    settings: &Settings,
    shard: Option<(usize, usize)>,
    files: &[DependedFile],
    changes: &[FileChange],
) -> Result<serde_json::Value, String> {
    let mut value = serde_json::to_value(settings).map_err(|e| e.to_string())?;
    if let Some(map) = value.as_object_mut() {
        if let Some((i, n)) = shard {
            map.insert(SHARD_KEY.into(), format!("{i}/{n}").into());
        }
        if !files.is_empty() {
            map.insert(
                FILES_KEY.into(),
                serde_json::to_value(files).map_err(|e| e.to_string())?,
            );
        }
        if !changes.is_empty() {
            map.insert(
                CHANGES_KEY.into(),
                serde_json::to_value(changes).map_err(|e| e.to_string())?,
            );
        }
    }
    Ok(value)
}

/// Writes `value` to `DIR/tournament.json` through a temporary file and a rename, so the
/// directory never holds half a settings file.
pub(super) fn write_settings(dir: &Path, value: &serde_json::Value) -> Result<(), String> {
    let path = dir.join("tournament.json");
    let tmp = dir.join("tournament.json.tmp");
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The stamps and accepted changes `DIR/tournament.json` holds (empty for a directory
/// written before files were stamped).
///
/// # Errors
/// A malformed `files` or `changed_files` value.
pub fn saved_files(dir: &Path) -> Result<(Vec<DependedFile>, Vec<FileChange>), String> {
    let path = dir.join("tournament.json");
    let text = crate::game::files::read_text(&path, "tournament settings file", MAX_SETTINGS_FILE)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a tournament settings file: {e}", path.display()))?;
    let get = |key: &str| value.get(key).cloned().unwrap_or(serde_json::Value::Null);
    let files: Option<Vec<DependedFile>> = serde_json::from_value(get(FILES_KEY))
        .map_err(|e| format!("{}: bad '{FILES_KEY}': {e}", path.display()))?;
    let changes: Option<Vec<FileChange>> = serde_json::from_value(get(CHANGES_KEY))
        .map_err(|e| format!("{}: bad '{CHANGES_KEY}': {e}", path.display()))?;
    Ok((files.unwrap_or_default(), changes.unwrap_or_default()))
}

/// The largest `tournament.json` read: 16 MiB (settings are a few KB; openings files are
/// stamped, not copied, since files are pinned; older directories copied their lines).
pub const MAX_SETTINGS_FILE: u64 = 16 * crate::game::files::MIB;

/// The shard `(I, N)` whose games `DIR/tournament.json` says the directory holds, `None` for
/// the whole schedule (or a directory written before shards were recorded).
///
/// # Errors
/// An unreadable file, or a malformed `shard` value.
pub fn saved_shard(dir: &Path) -> Result<Option<(usize, usize)>, String> {
    let path = dir.join("tournament.json");
    let text = crate::game::files::read_text(&path, "tournament settings file", MAX_SETTINGS_FILE)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a tournament settings file: {e}", path.display()))?;
    match value.get(SHARD_KEY) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v
            .as_str()
            .map(schedule::parse_shard)
            .unwrap_or_else(|| Err(format!("bad --shard {v}")))
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
    }
}

/// `"shard I/N"`, or `"the whole schedule"`, for messages.
fn shard_name(shard: Option<(usize, usize)>) -> String {
    shard.map_or_else(
        || "the whole schedule (no --shard)".to_string(),
        |(i, n)| format!("shard {i}/{n}"),
    )
}

/// Reads `DIR/tournament.json`: the settings it holds, `None` when it is missing. They may
/// differ from `settings` only in the rounds and the anchor (both may change between runs).
///
/// # Errors
/// The file holds another tournament (anything else would mix different games in one
/// record file) or another shard of it, is not a settings file, or cannot be read.
fn saved_settings(
    dir: &Path,
    settings: &Settings,
    shard: Option<(usize, usize)>,
) -> Result<Option<Settings>, String> {
    let path = dir.join("tournament.json");
    match crate::game::files::read_text_if_exists(
        &path,
        "tournament settings file",
        MAX_SETTINGS_FILE,
    )? {
        Some(text) => {
            let old: Settings = serde_json::from_str(&text).map_err(|e| {
                format!("{} is not a tournament settings file: {e}", path.display())
            })?;
            let same_games = Settings {
                rounds: settings.rounds,
                anchor: settings.anchor.clone(),
                ..old.clone()
            };
            if &same_games != settings {
                return Err(format!(
                    "{} holds a different tournament (engines, openings, seed, SPRT or limits differ); \
                     resume with the same arguments (--rounds may change) or use another --out",
                    dir.display()
                ));
            }
            let old_shard = saved_shard(dir)?;
            if old_shard != shard {
                return Err(format!(
                    "{} holds {} of this tournament, not {}; resume it with the same --shard \
                     or use another --out",
                    dir.display(),
                    shard_name(old_shard),
                    shard_name(shard)
                ));
            }
            Ok(Some(old))
        }
        None => Ok(None),
    }
}

/// The checks of a resume against what `dir` holds, before anything is written: the
/// settings ([`saved_settings`]), fewer rounds than the records reach, files changed since
/// the directory was started, and every record. Returns the loaded records (empty for a
/// new directory) and what `tournament.json` is to hold.
fn check_dir<G: Game>(
    dir: &Path,
    settings: &Settings,
    options: &RunOptions,
    files: &[DependedFile],
    exact: Option<&ExactSolve<G>>,
) -> Result<(record::Loaded, serde_json::Value), String> {
    let records_path = dir.join("games.jsonl");
    let Some(old) = saved_settings(dir, settings, options.shard)? else {
        let loaded = record::Loaded {
            records: Vec::new(),
            tail: record::Tail::Clean,
        };
        return Ok((loaded, settings_value(settings, options.shard, files, &[])?));
    };
    let loaded = record::load_numbered(&records_path)?;
    let beyond = loaded
        .records
        .iter()
        .filter(|(_, r)| r.round >= settings.rounds)
        .count();
    if settings.rounds < old.rounds && beyond > 0 {
        // The last round a record is in (1-based): the fewest rounds a resume may ask for.
        let reach = loaded
            .records
            .iter()
            .map(|(_, r)| r.round + 1)
            .max()
            .unwrap_or(old.rounds);
        let first = settings.rounds + 1;
        let rounds = if reach == first {
            format!("round {reach}")
        } else {
            format!("rounds {first}-{reach}")
        };
        return Err(format!(
            "{} holds {} rounds, more than --rounds {}: {beyond} of its games are in {rounds}; \
             give --rounds {reach} or more to resume (`tessera tournament report {}` reports \
             what it holds)",
            dir.display(),
            old.rounds,
            settings.rounds,
            dir.display()
        ));
    }
    let (old_files, mut accepted) = saved_files(dir)?;
    let names: Vec<&str> = settings.engines.iter().map(|e| e.name.as_str()).collect();
    let changed = super::files::changes(&old_files, files, &names, loaded.records.len());
    if let Some(c) = changed.first()
        && !options.allow_changed_files
    {
        return Err(super::files::refusal(dir, c));
    }
    // The openings file was read (and stamped) by this run: no note to give.
    validate::check_records::<G>(settings, &records_path, &loaded.records, exact)?;
    accepted.extend(changed);
    let value = settings_value(settings, options.shard, files, &accepted)?;
    Ok((loaded, value))
}

/// What to say before the first game when the schedule replays file openings: how many
/// of its games (`per_round` a round) do.
fn reuse_message(settings: &Settings, per_round: usize) -> Option<String> {
    let (openings, reused) = settings.openings.reused_rounds(settings.rounds)?;
    Some(format!(
        "the openings file holds {openings} openings for {} rounds: {} of the {} games replay \
         an opening already played, and deterministic engines repeat those games move for \
         move (the report's error bars assume independent games); use more openings or \
         fewer rounds, or --openings-repeat allow",
        settings.rounds,
        reused * per_round,
        settings.rounds * per_round
    ))
}

/// The number of sides of a game whose seats play for the teams `team_of_seat`
/// (team ids are `0..sides`).
fn sides(team_of_seat: &[u8]) -> usize {
    team_of_seat
        .iter()
        .map(|&t| usize::from(t) + 1)
        .max()
        .unwrap_or(0)
}

/// Plays one game of the schedule (no exact adjudication; see [`play_game_with`]).
///
/// # Errors
/// As [`play_game_with`].
pub fn play_game<G: Game>(
    settings: &Settings,
    slot: &Slot,
    opening: &Opening<G>,
    factory: &PlayerFactory<G>,
) -> Result<GameRecord, String> {
    play_game_with(settings, slot, opening, factory, None)
}

/// Whether an engine's score unit is a margin around 0 that the score rules of
/// `--adjudicate` can read (not MCTS's probabilities, not an external program's "none").
fn margin_unit(unit: &str) -> bool {
    unit != "none" && unit != MCTS_UNIT && unit != MCTS_MARGIN_UNIT
}

/// Plays one game of the schedule; `exact` is the game's solver for
/// `--adjudicate exact=N`. Each engine with a clock (`tc`, `st`) is told its clock with
/// every request and loses on time when a reply comes later than the time left plus its
/// margin; the record keeps each move's time and the clock after it.
///
/// An external program that fails (cannot start, crashes, answers nonsense) loses the
/// game (`engine-error`); a built-in engine cannot fail so, and if one does (its files
/// were pinned at the start, so this is a defect, not bad input) the game is not a result
/// of the tournament.
///
/// # Errors
/// A built-in engine failed: the message names it and the game.
pub fn play_game_with<G: Game>(
    settings: &Settings,
    slot: &Slot,
    opening: &Opening<G>,
    factory: &PlayerFactory<G>,
    exact: Option<&ExactSolve<G>>,
) -> Result<GameRecord, String> {
    let started = Instant::now();
    let specs: Vec<&EngineSpec> = slot.seats.iter().map(|&e| &settings.engines[e]).collect();
    let mut rec = GameRecord {
        id: slot.index,
        block: slot.block,
        round: slot.round,
        game: settings.game.clone(),
        seed: settings.seed,
        engines: specs.iter().map(|s| s.name.clone()).collect(),
        opening: opening.text.clone(),
        start: opening.position.to_string(),
        moves: Vec::new(),
        move_stats: Vec::new(),
        scores: Vec::new(),
        points: Vec::new(),
        ranks: Vec::new(),
        reason: Reason::Normal,
        detail: None,
        seconds: 0.0,
        teams: Vec::new(),
        move_ms: Vec::new(),
        clock_ms: Vec::new(),
        overrun_ms: None,
    };
    let n = opening.position.seats();
    let team_of_seat: Vec<u8> = (0..n)
        .map(|s| opening.position.team(Seat(s as u8)))
        .collect();
    if sides(&team_of_seat) != n {
        rec.teams.clone_from(&team_of_seat);
    }
    // A forfeit loses for the seat's whole team (every seat is its own team outside team
    // games): its team's seats are ranked last, the others share first place.
    let forfeit = |rec: &mut GameRecord, seat: usize, reason: Reason, detail: String| {
        let ranks: Vec<usize> = (0..n)
            .map(|s| {
                if team_of_seat[s] == team_of_seat[seat] {
                    n
                } else {
                    1
                }
            })
            .collect();
        rec.points = GameRecord::points_from_ranks(&ranks);
        rec.ranks = ranks;
        rec.reason = reason;
        rec.detail = Some(detail);
    };
    let mut players = Vec::with_capacity(n);
    for (seat, spec) in specs.iter().enumerate() {
        match factory(spec) {
            Ok(p) => players.push(p),
            Err(e) if spec.protocol == Protocol::Builtin => {
                return Err(builtin_failure(spec, slot, &e));
            }
            Err(e) => {
                forfeit(
                    &mut rec,
                    seat,
                    Reason::EngineError,
                    format!("{}: {e}", spec.name),
                );
                rec.seconds = started.elapsed().as_secs_f64();
                rec.share_team_points();
                return Ok(rec);
            }
        }
    }
    let limits: Vec<_> = specs.iter().map(|s| s.limits()).collect();
    let mut clocks: Vec<_> = specs.iter().map(|s| s.seat_clock()).collect();
    let timed = clocks.iter().any(Option::is_some);
    let rules = &settings.adjudicate;
    let mut watch = ScoreWatch::default();
    // Engines see the whole history from the opening's root (external programs replay it);
    // the record lists only the moves played after the opening.
    let start = opening.root.clone();
    let mut pos = opening.position.clone();
    let mut moves: Vec<G::Move> = opening.moves.clone();
    let opening_len = moves.len();
    // Occurrences of each position (by key, which includes the seat to move) since the
    // start of the game, for games that draw by threefold repetition.
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    if G::REPETITION_DRAWS {
        let mut p = start.clone();
        *seen.entry(p.key()).or_default() += 1;
        for &m in &opening.moves {
            p = p.play(m);
            *seen.entry(p.key()).or_default() += 1;
        }
    }
    // Set when the exact solver ran out of its budget: the game is played out.
    let mut exact_given_up = false;
    loop {
        if let Some(outcome) = pos.outcome() {
            let seats: Vec<Seat> = (0..n).map(|s| Seat(s as u8)).collect();
            rec.scores = seats.iter().map(|&s| outcome.score(s)).collect();
            rec.ranks = seats.iter().map(|&s| outcome.rank(s)).collect();
            rec.points = GameRecord::points_from_ranks(&rec.ranks);
            break;
        }
        if moves.len() - opening_len >= settings.max_plies {
            rec.ranks = vec![1; n];
            rec.points = vec![0.5; n];
            rec.reason = Reason::PlyCap;
            break;
        }
        if let (Some(limit), Some(ex)) = (rules.exact, exact)
            && !exact_given_up
        {
            let scores = match (ex.solve)(&pos, limit) {
                ExactAttempt::Solved(scores) => Some(scores),
                ExactAttempt::NotYet => None,
                ExactAttempt::GiveUp => {
                    exact_given_up = true;
                    None
                }
            };
            if let Some(scores) = scores {
                let outcome = GameOutcome::new(BySeat::from_slice(&scores));
                rec.ranks = (0..n).map(|s| outcome.rank(Seat(s as u8))).collect();
                rec.points = GameRecord::points_from_ranks(&rec.ranks);
                rec.scores = scores;
                rec.reason = Reason::AdjudicatedExact;
                break;
            }
        }
        let seat = pos.to_move().index();
        let name = &specs[seat].name;
        let mut seat_limits = limits[seat].clone();
        seat_limits.clock = clocks[seat].map(|c| c.game_clock());
        let asked = Instant::now();
        let reply = players[seat].choose_in_game(&start, &moves, &pos, &seat_limits);
        let used = asked.elapsed();
        let mut clock_left = None;
        if let Some(c) = clocks[seat].as_mut() {
            let before = c.left_ms();
            match c.charge(used) {
                Ok(left_us) => clock_left = Some(left_us / 1000),
                Err(over_us) => {
                    let over_ms = over_us.div_ceil(1000);
                    forfeit(
                        &mut rec,
                        seat,
                        Reason::TimeForfeit,
                        format!(
                            "{name}: used {} ms with {before} ms on its clock and a {} ms margin: {over_ms} ms over",
                            used.as_millis(),
                            specs[seat].timemargin.unwrap_or(0)
                        ),
                    );
                    rec.overrun_ms = Some(over_ms);
                    break;
                }
            }
        }
        match reply {
            Err(e) if specs[seat].protocol == Protocol::Builtin => {
                return Err(builtin_failure(specs[seat], slot, &e));
            }
            Err(e) => {
                forfeit(&mut rec, seat, Reason::EngineError, format!("{name}: {e}"));
                break;
            }
            Ok(t) => match t.best_move {
                Some(m) if pos.is_legal(m) => {
                    moves.push(m);
                    rec.moves.push(m.to_string());
                    rec.move_stats.push(MoveStat {
                        score: t.score,
                        seconds: t.elapsed.as_secs_f64(),
                    });
                    rec.move_ms
                        .push(u64::try_from(used.as_millis()).unwrap_or(u64::MAX));
                    if timed {
                        // A seat without a clock shows 0.
                        rec.clock_ms.push(clock_left.unwrap_or(0));
                    }
                    pos = pos.play(m);
                    if (rules.resign.is_some() || rules.draw.is_some()) && pos.outcome().is_none() {
                        let score = margin_unit(t.unit).then_some(t.score);
                        // Scores count per side (a team's seats share one count).
                        let side = usize::from(team_of_seat[seat]);
                        match watch.observe(rules, side, score, moves.len()) {
                            Some(Verdict::Resign(side)) => {
                                let loser = team_of_seat
                                    .iter()
                                    .position(|&t| usize::from(t) == side)
                                    .unwrap_or(side);
                                forfeit(
                                    &mut rec,
                                    loser,
                                    Reason::AdjudicatedResign,
                                    format!(
                                        "{} was lost by both engines' scores",
                                        specs[loser].name
                                    ),
                                );
                                break;
                            }
                            Some(Verdict::Draw) => {
                                rec.ranks = vec![1; n];
                                rec.points = vec![0.5; n];
                                rec.reason = Reason::AdjudicatedDraw;
                                break;
                            }
                            None => {}
                        }
                    }
                    if G::REPETITION_DRAWS && pos.outcome().is_none() {
                        let count = seen.entry(pos.key()).or_default();
                        *count += 1;
                        if *count >= 3 {
                            rec.ranks = vec![1; n];
                            rec.points = vec![0.5; n];
                            rec.reason = Reason::Repetition;
                            break;
                        }
                    }
                }
                Some(m) => {
                    forfeit(
                        &mut rec,
                        seat,
                        Reason::IllegalMove,
                        format!("{name} played {m}"),
                    );
                    break;
                }
                None => {
                    forfeit(
                        &mut rec,
                        seat,
                        Reason::IllegalMove,
                        format!("{name} returned no move"),
                    );
                    break;
                }
            },
        }
    }
    rec.seconds = started.elapsed().as_secs_f64();
    rec.share_team_points();
    Ok(rec)
}

/// The error of a built-in engine that failed in game `slot` (see [`play_game_with`]).
fn builtin_failure(spec: &EngineSpec, slot: &Slot, err: &str) -> String {
    let named = spec.named_error(err);
    let prefix = format!("engine '{}': ", spec.name);
    format!(
        "engine '{}' (built in) failed in game {}: {}",
        spec.name,
        slot.index,
        named.strip_prefix(&prefix).unwrap_or(&named)
    )
}

/// Summary of a run.
#[derive(Debug)]
pub struct Outcome {
    /// Games played by this run.
    pub played: usize,
    /// Games found already finished in the records (resumed).
    pub resumed: usize,
    /// Games of the (shard's) schedule not played (SPRT stopped the run, or an interrupt).
    pub skipped: usize,
    /// Whether an interrupt stopped the run before the schedule was done.
    pub interrupted: bool,
    /// The report over every record in the directory.
    pub report: Report,
}

/// Runs (or resumes) a tournament of game `G`; `exact` is the game's solver for
/// `--adjudicate exact=N` (`None` if it has none).
///
/// # Errors
/// Bad settings (fewer engines than seats, SPRT with other than two engines, adjudication
/// rules the game cannot take), an output directory holding a different tournament,
/// unreadable openings or unwritable records.
pub fn run<G: Game>(
    settings: &Settings,
    options: &RunOptions,
    factory: &PlayerFactory<G>,
    exact: Option<&ExactSolve<G>>,
) -> Result<Outcome, String> {
    run_or_check(settings, options, factory, exact, false)
        .map(|o| o.expect("a run that is not a check has an outcome"))
}

/// Checks everything [`run`] would check before its first game, reading only: the
/// settings, the engines (each built once), the openings, and, when `options.out` already
/// holds a tournament, that its settings match and its records are valid. Writes nothing;
/// for commands that run several tournaments (`fairness`) and must refuse bad input before
/// the first game of any of them.
///
/// # Errors
/// As [`run`], without the errors of writing.
pub fn check<G: Game>(
    settings: &Settings,
    options: &RunOptions,
    factory: &PlayerFactory<G>,
    exact: Option<&ExactSolve<G>>,
) -> Result<(), String> {
    run_or_check(settings, options, factory, exact, true).map(|_| ())
}

/// [`run`], or with `check_only` [`check`]: `None` then.
fn run_or_check<G: Game>(
    settings: &Settings,
    options: &RunOptions,
    factory: &PlayerFactory<G>,
    exact: Option<&ExactSolve<G>>,
    check_only: bool,
) -> Result<Option<Outcome>, String> {
    let start = G::start();
    let team_of_seat: Vec<u8> = (0..start.seats())
        .map(|s| start.team(Seat(s as u8)))
        .collect();
    // Team games (four-seat Quixo) are scheduled by teams: one engine per team, playing
    // every seat of its team; "seats" below counts the sides of the schedule.
    let seats = sides(&team_of_seat);
    if settings.engines.len() < seats {
        return Err(format!(
            "a tournament of {} needs at least {seats} engines, got {}",
            settings.game,
            settings.engines.len()
        ));
    }
    let mut names: Vec<&str> = settings.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "engine name '{}' is used twice; give each engine its own name",
            w[0]
        ));
    }
    settings.adjudicate.check(&settings.game, seats, exact)?;
    if settings.sprt.is_some() && settings.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    if settings.sprt.is_some() && options.shard.is_some() {
        return Err(
            "--sprt cannot be combined with --shard: each shard would stop on its own partial \
             LLR; run an SPRT in one piece (--concurrency uses every core of one machine)"
                .into(),
        );
    }
    if let Some(a) = &settings.anchor
        && !settings.engines.iter().any(|e| &e.name == a)
    {
        return Err(format!(
            "anchor '{a}' is not one of the engines ({})",
            names.join(", ")
        ));
    }
    let groups = schedule::groups(settings.engines.len(), seats, settings.format).len();
    let total = groups.saturating_mul(settings.rounds).saturating_mul(seats);
    if total > MAX_GAMES {
        return Err(format!(
            "{total} games in one tournament is more than the {MAX_GAMES} one run schedules; \
             use fewer rounds (a larger tournament is several runs with different seeds and --out)"
        ));
    }
    if options.concurrency > MAX_CONCURRENCY {
        return Err(format!(
            "--concurrency {} is more than {MAX_CONCURRENCY}",
            options.concurrency
        ));
    }
    // The files the engines name, pinned and stamped before any engine is built from them,
    // and compared with the stamps of a directory being resumed: a changed file is named
    // as changed (with both hashes) even when its new content would not load.
    // The openings file was indexed when it was read: its stamp joins them (a changed
    // openings file is refused even with --allow-changed-files: the records' openings
    // come from the old one).
    let mut files = super::files::stamp_engines(&settings.engines)?;
    if let super::openings::OpeningSource::File(f) = &settings.openings {
        files.push(DependedFile {
            engine: None,
            kind: "openings".into(),
            stamp: f.stamp(),
        });
    }
    if options.out.join("tournament.json").is_file() {
        let (old_files, _) = saved_files(&options.out)?;
        let names: Vec<&str> = settings.engines.iter().map(|e| e.name.as_str()).collect();
        if let Some(c) = super::files::changes(&old_files, &files, &names, 0)
            .iter()
            .find(|c| !options.allow_changed_files || c.before.engine.is_none())
        {
            return Err(super::files::refusal(&options.out, c));
        }
    }
    // The warning waits until every check has passed: a refused run prints one line.
    let mut reuse_warning = None;
    if let Some(msg) = reuse_message(settings, groups * seats) {
        match options.openings_repeat {
            OpeningsRepeat::Error => return Err(format!("{msg} (--openings-repeat error)")),
            OpeningsRepeat::Warn if !check_only => reuse_warning = Some(msg),
            OpeningsRepeat::Warn | OpeningsRepeat::Allow => {}
        }
    }
    // Every engine is built once before anything is written, so a bad weights file or a
    // missing program is an error now, not a forfeit in every game.
    for spec in &settings.engines {
        factory(spec).map_err(|e| spec.named_error(&e))?;
    }
    let mut all = schedule::schedule(
        settings.engines.len(),
        seats,
        settings.format,
        settings.rounds,
    );
    if seats != team_of_seat.len() {
        for slot in &mut all {
            slot.seats = team_of_seat
                .iter()
                .map(|&t| slot.seats[usize::from(t)])
                .collect();
        }
    }
    let mine: Vec<&Slot> = all
        .iter()
        .filter(|s| schedule::in_shard(s, options.shard))
        .collect();
    // Openings are built up front (deterministic from the seed and the round).
    let mut openings: std::collections::HashMap<usize, Opening<G>> =
        std::collections::HashMap::new();
    let order =
        settings
            .openings
            .line_order(settings.openings_order, settings.seed, settings.rounds);
    for s in &mine {
        if let std::collections::hash_map::Entry::Vacant(e) = openings.entry(s.round) {
            e.insert(settings.openings.opening_in::<G>(
                s.round,
                settings.seed,
                order.as_deref(),
            )?);
        }
    }
    // External programs learn the game only as moves from the start position.
    if let Some(gtp) = settings
        .engines
        .iter()
        .find(|e| e.protocol == Protocol::Gtp)
        && let Some(o) = openings
            .values()
            .find(|o| o.root.to_string() != G::start().to_string())
    {
        return Err(format!(
            "engine '{}' speaks GTP, which cannot set up the position-only opening '{}'; \
             give openings as move sequences",
            gtp.name, o.text
        ));
    }
    if check_only {
        check_dir::<G>(&options.out, settings, options, &files, exact)?;
        return Ok(None);
    }
    // Everything above only read; from here on the directory is ours alone.
    std::fs::create_dir_all(&options.out)
        .map_err(|e| format!("cannot create {}: {e}", options.out.display()))?;
    let _lock = OutLock::acquire(&options.out)?;
    let records_path = options.out.join("games.jsonl");
    // Every check passes before tournament.json is written: a refused resume leaves the
    // directory as it was.
    let (loaded, value) = check_dir::<G>(&options.out, settings, options, &files, exact)?;
    if let Some(msg) = reuse_warning {
        eprintln!("warning: {msg}");
    }
    write_settings(&options.out, &value)?;
    // This run holds the lock: it may make the file ready for appending, and says so.
    if let Some(note) = record::repair_tail(&records_path, &loaded)? {
        eprintln!("{note}");
    }
    let done: Vec<GameRecord> = loaded.records.into_iter().map(|(_, r)| r).collect();
    let done_ids: std::collections::HashSet<usize> = done.iter().map(|r| r.id).collect();
    let todo: Vec<&Slot> = mine
        .iter()
        .copied()
        .filter(|s| !done_ids.contains(&s.index))
        .collect();
    let resumed = mine.len() - todo.len();

    let writer = Mutex::new((record::Writer::append(&records_path)?, done));
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let bar = if options.progress {
        ProgressBar::new(mine.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}, ETA {eta}]",
        )
        .map_err(|e| e.to_string())?,
    );
    bar.set_position(resumed as u64);
    if settings.sprt.is_some() {
        let w = writer
            .lock()
            .map_err(|_| "records lock poisoned".to_string())?;
        if report::sprt_decided(settings, &w.1) {
            stop.store(true, Ordering::Relaxed);
        }
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.concurrency.max(1))
        .build()
        .map_err(|e| format!("cannot start {} game threads: {e}", options.concurrency))?;
    let played = std::sync::atomic::AtomicUsize::new(0);
    pool.install(|| {
        todo.par_iter().with_max_len(1).for_each(|slot| {
            let interrupted = options
                .interrupt
                .as_ref()
                .is_some_and(|i| i.load(Ordering::Relaxed));
            if stop.load(Ordering::Relaxed) || interrupted {
                return;
            }
            let rec = match play_game_with(settings, slot, &openings[&slot.round], factory, exact) {
                Ok(rec) => rec,
                Err(e) => {
                    let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
                    f.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
            };
            let Ok(mut w) = writer.lock() else { return };
            let (file, records) = &mut *w;
            if let Err(e) = file.write(&rec) {
                *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                stop.store(true, Ordering::Relaxed);
                return;
            }
            records.push(rec);
            played.fetch_add(1, Ordering::Relaxed);
            bar.inc(1);
            bar.set_message(report::progress_line(settings, records));
            if settings.sprt.is_some() && report::sprt_decided(settings, records) {
                stop.store(true, Ordering::Relaxed);
            }
        });
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        // Every game that finished is in games.jsonl (the games in progress were played
        // out); the directory reports and resumes as it is.
        return Err(format!(
            "{e}; the run stopped: {} finished games are kept in {} (`tessera tournament \
             report` reads them; the same command resumes)",
            resumed + played.load(Ordering::Relaxed),
            options.out.display()
        ));
    }
    let (_, records) = writer
        .into_inner()
        .map_err(|_| "records lock poisoned".to_string())?;
    let played = played.into_inner();
    let report = report::build::<G>(settings, &records);
    // The games are safe in games.jsonl; a report file that cannot be written is only a
    // warning (the report is printed, and `tournament report DIR` rebuilds it).
    let path = options.out.join("report.json");
    let written = serde_json::to_string_pretty(&report)
        .map_err(|e| e.to_string())
        .and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string()));
    if let Err(e) = written {
        eprintln!("warning: cannot write {}: {e}", path.display());
    }
    let interrupted = options
        .interrupt
        .as_ref()
        .is_some_and(|i| i.load(Ordering::Relaxed));
    Ok(Some(Outcome {
        played,
        resumed,
        skipped: todo.len() - played,
        interrupted,
        report,
    }))
}
