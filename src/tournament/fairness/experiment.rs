//! The fairness experiment: for every rules variant, opening suite and strength level, a
//! tournament of copies of one engine in its own folder, then the rows, trends and verdict.
//!
//! Every row is an ordinary tournament (see [`crate::tournament::runner`]), so records,
//! resume (run the same configuration again), concurrency and shards are the tournament's.
//! Every row is planned and checked (settings, engines, openings, and the records of a row
//! already on disk) before the first game of any row, so bad input costs no games.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::{Algorithm, EngineSpec, Players};
use crate::game::Seat;
use crate::present::Present;
use crate::tournament::openings::OpeningSource;
use crate::tournament::record::{self, GameRecord};
use crate::tournament::runner::{self, RunOptions};
use crate::tournament::schedule::Format;
use crate::tournament::settings::Settings;

use super::error::FairnessError;
use super::plan::{self, Level};
use super::stats::{self, FairnessRow};
use super::summary::{Exact, Summary};

/// What to run. [`FairnessConfig::new`] gives the defaults `tessera fairness` has.
#[derive(Clone, Debug)]
pub struct FairnessConfig {
    /// Strength levels, weakest first; empty: depths 1,2,3 when `quick`, else
    /// [`plan::default_depths`].
    pub levels: Vec<Level>,
    /// A small run: depths 1,2,3 by default, 100 rounds, no 4x4 Quixo solve.
    pub quick: bool,
    /// The engines' algorithm; `None`: the game's first ([`Players::ALGORITHMS`]).
    pub algo: Option<Algorithm>,
    /// The engines' weights file.
    pub weights: Option<PathBuf>,
    /// Rounds of the opening suite per level; `None`: 50 (`quick`: 100).
    pub rounds: Option<usize>,
    /// Random openings of this many plies (default 8), unless `openings` is given.
    pub random_plies: Option<u32>,
    /// An openings file, one position or move sequence per line.
    pub openings: Option<PathBuf>,
    /// Master seed (openings, random setups).
    pub seed: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Play only the I-th (from 1) of N slices of every row's schedule.
    pub shard: Option<(usize, usize)>,
    /// Games longer than this many plies end as draws; `None`: [`crate::game::Game::DEFAULT_MAX_PLIES`].
    pub max_plies: Option<usize>,
    /// Output folder: one tournament folder per row under it.
    pub out: PathBuf,
    /// Progress bars on stderr.
    pub progress: bool,
    /// Set to stop after the games being played (the summary is then partial).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl FairnessConfig {
    /// The defaults of `tessera fairness` writing under `out`: the game's default levels and
    /// algorithm, random 8-ply openings, seed 1, one game per CPU, no progress bars.
    #[must_use]
    pub fn new(out: impl Into<PathBuf>) -> Self {
        Self {
            levels: Vec::new(),
            quick: false,
            algo: None,
            weights: None,
            rounds: None,
            random_plies: None,
            openings: None,
            seed: 1,
            concurrency: std::thread::available_parallelism().map_or(1, |n| n.get()),
            shard: None,
            max_plies: None,
            out: out.into(),
            progress: false,
            interrupt: None,
        }
    }
}

/// A finished (or interrupted) run: the summary and each row's records, in row order.
#[derive(Clone, Debug)]
pub struct FairnessRun {
    /// What the run found.
    pub summary: Summary,
    /// The records of each row of [`Summary::rows`].
    pub records: Vec<Vec<GameRecord>>,
}

/// The published value of 5x5 Quixo (not recomputed by the fairness run), as
/// `tests/data/quixo/solved.md` records it.
const QUIXO_5X5_SOLVED: &str = "5x5 Quixo is solved (published, not recomputed here): a draw: \
     neither side can force a win, and all 44 first moves keep the draw (S. Tanaka, F. Bonnet, \
     S. Tixeuil, Y. Tamura, \"Quixo Is Solved\", arXiv:2007.15895, 2020; \
     tests/data/quixo/solved.md)";

/// Quixo's solved boards: 3x3 always, 4x4 unless `quick`; notes for other games.
fn exact_results(game: &str, quick: bool) -> Result<(Vec<Exact>, Vec<String>), FairnessError> {
    use crate::games::quixo::retro::Value;
    let mut exact = Vec::new();
    let mut notes = Vec::new();
    if game != "quixo" {
        if game == "quixo-4p" {
            notes.push("four-player Quixo has no exact solution here".into());
        }
        return Ok((exact, notes));
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sizes: &[u8] = if quick { &[3] } else { &[3, 4] };
    for &size in sizes {
        let s = crate::games::quixo::solve_size(size, threads).map_err(FairnessError::Failure)?;
        let value = match s.value {
            Value::Win => "first player (X) wins",
            Value::Loss => "second player (O) wins",
            Value::Draw => "draw",
        };
        exact.push(Exact {
            board: format!("{size}x{size}"),
            value: value.into(),
            plies: s.plies,
            seconds: s.seconds,
            source: "retrograde analysis of every board (tessera solve quixo --size N)".into(),
        });
    }
    if quick {
        notes.push("4x4 Quixo is solved in the full run (without --quick)".into());
    }
    notes.push(QUIXO_5X5_SOLVED.into());
    Ok((exact, notes))
}

/// One planned row: its variant and suite names, level, tournament settings and options.
struct Row {
    variant: String,
    suite: String,
    level_index: usize,
    level: Level,
    settings: Settings,
    options: RunOptions,
}

/// Runs the fairness experiment `config` for game `G`; `on_row` hears one line as each row
/// starts (`rules / random-8 / depth 2: 50 rounds`).
///
/// # Errors
/// Bad input (levels out of order, an algorithm the game lacks, MCTS without time levels,
/// an engine, openings or row folder the tournament refuses) before any game; a tournament
/// or solve that fails.
pub fn run<G: Present + Players>(
    config: &FairnessConfig,
    on_row: &mut dyn FnMut(&str),
) -> Result<FairnessRun, FairnessError> {
    let game = G::ID;
    let levels: Vec<Level> = if !config.levels.is_empty() {
        config.levels.clone()
    } else if config.quick {
        vec![Level::Depth(1), Level::Depth(2), Level::Depth(3)]
    } else {
        plan::default_depths(game)
            .into_iter()
            .map(Level::Depth)
            .collect()
    };
    // The trend and the verdict read the levels as weakest to strongest.
    let strengths: Vec<u64> = levels.iter().map(|l| l.strength()).collect();
    if strengths.windows(2).any(|w| w[0] >= w[1]) {
        return Err(FairnessError::LevelsOutOfOrder(strengths));
    }
    let rounds = config.rounds.unwrap_or(if config.quick { 100 } else { 50 });
    let algo = config.algo.unwrap_or(G::ALGORITHMS[0]);
    if !G::ALGORITHMS.contains(&algo) {
        let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
        return Err(FairnessError::Input(format!(
            "--algo {} is not for {game} (its algorithms: {})",
            algo.name(),
            names.join(", ")
        )));
    }
    if algo == Algorithm::Mcts && levels.iter().any(|l| l.deterministic()) {
        return Err(FairnessError::Input(
            "--algo mcts needs --times-ms levels (MCTS has no depth or level)".into(),
        ));
    }
    let plies = config.random_plies.unwrap_or(8);
    let variants = plan::variants::<G>(config.openings.as_deref(), plies, rounds, config.seed)?;
    let start = G::start();
    let sides = (0..start.seats())
        .map(|s| usize::from(start.team(Seat(s as u8))) + 1)
        .max()
        .unwrap_or(2);
    let mut plan = Vec::new();
    for v in &variants {
        for suite in &v.suites {
            for (level_index, &level) in levels.iter().enumerate() {
                // Deterministic engines from one fixed start play the same game every round.
                let fixed_start = matches!(suite.source, OpeningSource::Start) && !G::SEEDED_SETUP;
                let r = suite
                    .rounds
                    .unwrap_or(if fixed_start && level.deterministic() {
                        1
                    } else {
                        rounds
                    });
                let mut engines = Vec::with_capacity(sides);
                for i in 1..=sides {
                    let mut text = format!(
                        "name={}#{i},{},algo={}",
                        level.slug(),
                        level.spec(),
                        algo.name()
                    );
                    if let Some(w) = &config.weights {
                        text.push_str(&format!(",weights={}", w.display()));
                    }
                    engines.push(
                        EngineSpec::from_inline(&text, game)
                            .map_err(|e| FairnessError::Input(e.into()))?,
                    );
                }
                let settings = Settings {
                    game: game.into(),
                    engines,
                    format: Format::RoundRobin,
                    rounds: r,
                    openings: suite.source.clone(),
                    seed: config.seed,
                    max_plies: config.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES as usize),
                    sprt: None,
                    anchor: None,
                    adjudicate: Default::default(),
                    openings_order: Default::default(),
                };
                let options = RunOptions {
                    out: config
                        .out
                        .join(&v.slug)
                        .join(&suite.name)
                        .join(level.slug()),
                    concurrency: config.concurrency,
                    shard: config.shard,
                    progress: config.progress,
                    interrupt: config.interrupt.clone(),
                    allow_changed_files: false,
                    openings_repeat: Default::default(),
                };
                runner::check::<G>(&settings, &options, &G::make_player, None)
                    .map_err(FairnessError::Input)?;
                plan.push(Row {
                    variant: v.name.clone(),
                    suite: suite.name.clone(),
                    level_index,
                    level,
                    settings,
                    options,
                });
            }
        }
    }
    let mut rows = Vec::new();
    let mut records_of_rows = Vec::new();
    let mut interrupted = false;
    for row in &plan {
        on_row(&format!(
            "{} / {} / {}: {} rounds",
            row.variant,
            row.suite,
            row.level.label(),
            row.settings.rounds
        ));
        let outcome = runner::run::<G>(&row.settings, &row.options, &G::make_player, None)
            .map_err(FairnessError::Input)?;
        let dir = &row.options.out;
        let records = record::load(&dir.join("games.jsonl")).map_err(FairnessError::Input)?;
        let mut rep = outcome.report;
        crate::tournament::seat_names::name_seats::<G>(&mut rep);
        let distinct: HashSet<(&str, &[String])> = records
            .iter()
            .map(|r| (r.start.as_str(), r.moves.as_slice()))
            .collect();
        rows.push(FairnessRow {
            variant: row.variant.clone(),
            openings: row.suite.clone(),
            level: row.level.label(),
            level_index: row.level_index,
            dir: dir.display().to_string(),
            games: records.len(),
            distinct: distinct.len(),
            seats: rep.seats,
        });
        records_of_rows.push(records);
        if outcome.interrupted {
            interrupted = true;
            break;
        }
    }
    let (exact, mut notes) = if interrupted {
        (Vec::new(), Vec::new())
    } else {
        exact_results(game, config.quick)?
    };
    if game == "othello" {
        notes.push(
            "8x8 Othello: a draw with perfect play is claimed by Takizawa (2023, arXiv:2310.19387); not checked here"
                .into(),
        );
    }
    let labels: Vec<String> = levels.iter().map(|l| l.label()).collect();
    let summary = Summary {
        game: game.into(),
        engine: format!(
            "{} copies of {} ({})",
            sides,
            algo.name(),
            labels.join(", ")
        ),
        out: config.out.display().to_string(),
        trends: stats::trends(&rows),
        verdict: stats::verdict(&rows),
        points: stats::points_rule(rows.first().map_or(2, |r| r.seats.len())),
        rows,
        exact,
        notes,
        interrupted,
    };
    Ok(FairnessRun {
        summary,
        records: records_of_rows,
    })
}
