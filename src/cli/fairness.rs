//! `tessera fairness GAME`: is the game fair to its seats? Copies of one engine play each
//! other in every seat rotation, at several strengths, from the start position and from a
//! random opening suite (Talat: also under each `[choice]` rule), and the results are
//! reported per seat with 95 % intervals, the trend with strength and a verdict.
//!
//! Every row is an ordinary tournament in its own folder under `--out`, so records, resume
//! (run the same command again), concurrency and shards are the tournament's.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use tessera::engine::EngineSpec;
use tessera::game::{Game, Seat};
use tessera::tournament::fairness::{self, FairnessRow, Trend};
use tessera::tournament::openings::{self, OpeningSource, derive_seed};
use tessera::tournament::record;
use tessera::tournament::runner::{self, RunOptions, Settings};
use tessera::tournament::schedule::{self, Format};

use super::games::CliGame;
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

/// A strength level.
#[derive(Clone, Copy, Debug)]
enum Level {
    Depth(u32),
    TimeMs(u64),
    /// `level=N` (engine spec): depth N, Othello's exact solving from 2N empties.
    Strength(u32),
}

impl Level {
    fn label(self) -> String {
        match self {
            Level::Depth(d) => format!("depth {d}"),
            Level::TimeMs(t) => format!("{t} ms"),
            Level::Strength(n) => format!("level {n}"),
        }
    }
    fn slug(self) -> String {
        match self {
            Level::Depth(d) => format!("d{d}"),
            Level::TimeMs(t) => format!("t{t}"),
            Level::Strength(n) => format!("l{n}"),
        }
    }
    fn spec(self) -> String {
        match self {
            Level::Depth(d) => format!("depth={d}"),
            Level::TimeMs(t) => format!("time-ms={t}"),
            Level::Strength(n) => format!("level={n}"),
        }
    }
}

/// One opening suite of a variant.
struct Suite {
    name: String,
    source: OpeningSource,
    /// Rounds scheduled; `None`: the run's `--rounds`.
    rounds: Option<usize>,
}

/// A rules variant and its suites.
struct Variant {
    name: String,
    slug: String,
    suites: Vec<Suite>,
}

/// Exact results of solved boards.
#[derive(Debug, Serialize)]
struct Exact {
    board: String,
    value: String,
    plies: Option<u32>,
    seconds: f64,
    source: String,
}

/// Everything the command reports.
#[derive(Debug, Serialize)]
pub struct Summary {
    game: String,
    engine: String,
    out: String,
    rows: Vec<FairnessRow>,
    trends: Vec<Trend>,
    verdict: String,
    exact: Vec<Exact>,
    notes: Vec<String>,
    /// What a seat's points are (two sides or more).
    points: String,
    /// An interrupt stopped the run: the rows are partial.
    interrupted: bool,
}

/// Runs the command.
pub fn run(args: &FairnessArgs) -> Result<ExitCode, CliError> {
    tessera::for_game!(args.game, fairness(args))
}

/// `n` random legal plies from `root` with the seeded RNG, as a position line (retried until
/// the game goes on).
fn random_line<G: Game>(root: &G, plies: u32, seed: u64) -> Result<String, CliError> {
    for attempt in 0..1000u64 {
        let mut rng = StdRng::seed_from_u64(derive_seed(seed, attempt));
        let mut pos = root.clone();
        let mut list = G::Moves::default();
        let mut n = 0;
        while n < plies {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.play(list[rng.random_range(0..list.len())]);
            n += 1;
        }
        if n == plies && pos.outcome().is_none() {
            return Ok(pos.to_string());
        }
    }
    Err(CliError::input(format!(
        "no random opening of {plies} plies keeps the game going"
    )))
}

/// The rules variants of game `G` and their opening suites.
fn variants<G: CliGame>(args: &FairnessArgs, rounds: usize) -> Result<Vec<Variant>, CliError> {
    use tessera::games::talat::{DjinnSetup, SetupOptions, Talat, Talat2p, TowerSetup};
    let plies = args.random_plies.unwrap_or(8);
    let suite = match &args.openings {
        Some(path) => Suite {
            name: path
                .file_name()
                .map_or_else(|| "openings".into(), |f| f.to_string_lossy().into_owned()),
            source: openings::read_file::<G>(path).map_err(CliError::input)?,
            rounds: None,
        },
        None => Suite {
            name: format!("random-{plies}"),
            source: OpeningSource::RandomPlies(plies),
            rounds: None,
        },
    };
    let start = Suite {
        name: "start".into(),
        source: OpeningSource::Start,
        rounds: None,
    };
    let mut out = vec![Variant {
        name: "rules".into(),
        slug: "rules".into(),
        suites: vec![start, suite],
    }];
    let seed = args.seed;
    match G::ID {
        "talat" => {
            // [choice] Who moves first after setup: the rules say seat 0; the rows below
            // start every game from a random legal setup with each seat to move in turn.
            for (k, colour) in ["White", "Grey", "Black"].iter().enumerate() {
                let mut lines = Vec::with_capacity(rounds);
                for r in 0..rounds {
                    let p = Talat::new(&SetupOptions {
                        towers: TowerSetup::Random(derive_seed(seed, r as u64)),
                        ..SetupOptions::default()
                    });
                    let p = p.with_turn(Seat(k as u8)).ok_or_else(|| {
                        CliError::failure(format!("random setup {r} leaves {colour} no move"))
                    })?;
                    lines.push(p.to_string());
                }
                out.push(Variant {
                    name: format!("{colour} first after setup"),
                    slug: format!("first-{}", colour.to_ascii_lowercase()),
                    suites: vec![Suite {
                        name: "random-setup".into(),
                        source: OpeningSource::Lines(lines),
                        rounds: None,
                    }],
                });
            }
        }
        "talat-2p" => {
            // [choice] The Djinn set up by the players (English rules) instead of at random.
            let root = Talat2p::new(&SetupOptions {
                djinn: DjinnSetup::Chosen,
                towers: TowerSetup::Chosen,
            });
            let mut lines = Vec::with_capacity(rounds);
            for r in 0..rounds {
                lines.push(random_line(&root, plies, derive_seed(seed, r as u64))?);
            }
            out[0].name = "random Djinn".into();
            out.push(Variant {
                name: "chosen Djinn".into(),
                slug: "chosen-djinn".into(),
                suites: vec![
                    Suite {
                        name: "start".into(),
                        source: OpeningSource::Lines(vec![root.to_string()]),
                        rounds: Some(1),
                    },
                    Suite {
                        name: format!("random-{plies}"),
                        source: OpeningSource::Lines(lines),
                        rounds: None,
                    },
                ],
            });
        }
        _ => {}
    }
    Ok(out)
}

/// Default levels per game (full run).
fn default_depths(game: &str) -> Vec<u32> {
    match game {
        "othello" => vec![2, 4, 6],
        "quixo" | "talat-2p" => vec![2, 3, 4],
        _ => vec![1, 2, 3],
    }
}

/// The published value of 5x5 Quixo (not recomputed by the fairness run), as
/// `tests/data/quixo/solved.md` records it.
const QUIXO_5X5_SOLVED: &str = "5x5 Quixo is solved (published, not recomputed here): a draw: \
     neither side can force a win, and all 44 first moves keep the draw (S. Tanaka, F. Bonnet, \
     S. Tixeuil, Y. Tamura, \"Quixo Is Solved\", arXiv:2007.15895, 2020; \
     tests/data/quixo/solved.md)";

/// Quixo's solved boards: 3x3 always, 4x4 unless quick (about 30 s of CPU).
fn exact_results(game: &str, quick: bool) -> Result<(Vec<Exact>, Vec<String>), CliError> {
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
        let s = tessera::games::quixo::solve_size(size, threads).map_err(CliError::failure)?;
        let value = match s.value {
            tessera::games::quixo::retro::Value::Win => "first player (X) wins",
            tessera::games::quixo::retro::Value::Loss => "second player (O) wins",
            tessera::games::quixo::retro::Value::Draw => "draw",
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

fn fairness<G: super::games::CliGame>(args: &FairnessArgs) -> Result<ExitCode, CliError> {
    let game = G::ID;
    if let Some(path) = &args.html {
        super::output::check_html_target(path)?;
    }
    let levels: Vec<Level> = if !args.times_ms.is_empty() {
        args.times_ms.iter().map(|&t| Level::TimeMs(t)).collect()
    } else if !args.depths.is_empty() {
        args.depths.iter().map(|&d| Level::Depth(d)).collect()
    } else if !args.levels.is_empty() {
        args.levels.iter().map(|&n| Level::Strength(n)).collect()
    } else if args.quick {
        vec![Level::Depth(1), Level::Depth(2), Level::Depth(3)]
    } else {
        default_depths(game).into_iter().map(Level::Depth).collect()
    };
    // The trend and the verdict read the levels as weakest to strongest.
    let strengths: Vec<u64> = levels
        .iter()
        .map(|l| match *l {
            Level::Depth(d) | Level::Strength(d) => u64::from(d),
            Level::TimeMs(t) => t,
        })
        .collect();
    if strengths.windows(2).any(|w| w[0] >= w[1]) {
        let list: Vec<String> = strengths.iter().map(ToString::to_string).collect();
        return Err(CliError::input(format!(
            "--{} {}: the levels must increase from the weakest to the strongest, each once",
            if !args.times_ms.is_empty() {
                "times-ms"
            } else if !args.levels.is_empty() {
                "levels"
            } else {
                "depths"
            },
            list.join(",")
        )));
    }
    let rounds = args
        .rounds
        .map_or(if args.quick { 100 } else { 50 }, |r| r as usize);
    let algo = args.algo.unwrap_or(G::ALGORITHMS[0]);
    if !G::ALGORITHMS.contains(&algo) {
        let names: Vec<&str> = G::ALGORITHMS.iter().map(|a| a.name()).collect();
        return Err(CliError::input(format!(
            "--algo {} is not for {game} (its algorithms: {})",
            algo.name(),
            names.join(", ")
        )));
    }
    if algo == Algo::Mcts && levels.iter().any(|l| !matches!(l, Level::TimeMs(_))) {
        return Err(CliError::input(
            "--algo mcts needs --times-ms levels (MCTS has no depth or level)",
        ));
    }
    let shard = args
        .shard
        .as_deref()
        .map(schedule::parse_shard)
        .transpose()
        .map_err(CliError::input)?;
    let variants = variants::<G>(args, rounds)?;
    let start = G::start();
    let sides = (0..start.seats())
        .map(|s| usize::from(start.team(Seat(s as u8))) + 1)
        .max()
        .unwrap_or(2);
    let deterministic = |l: Level| !matches!(l, Level::TimeMs(_));
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |k| k as usize,
    );
    let mut rows = Vec::new();
    let mut records_of_rows = Vec::new();
    let interrupt = super::tournament::interrupt_flag();
    let mut interrupted = false;
    // Every row is planned and checked (settings, engines, openings, and the records of a
    // row already on disk) before the first game of any row, so bad input costs no games.
    let mut plan = Vec::new();
    for v in &variants {
        for suite in &v.suites {
            for (li, &level) in levels.iter().enumerate() {
                // Deterministic engines from one fixed start play the same game every round.
                let fixed_start = matches!(suite.source, OpeningSource::Start) && !G::SEEDED_SETUP;
                let r = suite
                    .rounds
                    .unwrap_or(if fixed_start && deterministic(level) {
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
                    if let Some(w) = &args.weights {
                        text.push_str(&format!(",weights={}", w.display()));
                    }
                    engines.push(EngineSpec::from_inline(&text, game).map_err(CliError::input)?);
                }
                let settings = Settings {
                    game: game.into(),
                    engines,
                    format: Format::RoundRobin,
                    rounds: r,
                    openings: suite.source.clone(),
                    seed: args.seed,
                    max_plies: args.max_plies.unwrap_or(G::DEFAULT_MAX_PLIES) as usize,
                    sprt: None,
                    anchor: None,
                    adjudicate: Default::default(),
                    openings_order: Default::default(),
                };
                let dir = args.out.join(&v.slug).join(&suite.name).join(level.slug());
                let options = RunOptions {
                    out: dir,
                    concurrency,
                    shard,
                    progress: !args.no_progress && !args.json,
                    interrupt: Some(interrupt.clone()),
                };
                runner::check::<G>(&settings, &options, &G::make_player, None)
                    .map_err(CliError::input)?;
                plan.push((v, suite, li, level, settings, options));
            }
        }
    }
    for (v, suite, li, level, settings, options) in &plan {
        let dir = &options.out;
        if !args.json {
            eprintln!(
                "{} / {} / {}: {} rounds",
                v.name,
                suite.name,
                level.label(),
                settings.rounds
            );
        }
        let outcome =
            runner::run::<G>(settings, options, &G::make_player, None).map_err(CliError::input)?;
        let records = record::load(&dir.join("games.jsonl")).map_err(CliError::input)?;
        let mut rep = outcome.report;
        tessera::report::name_seats::<G>(&mut rep);
        let distinct: std::collections::HashSet<(&str, &[String])> = records
            .iter()
            .map(|r| (r.start.as_str(), r.moves.as_slice()))
            .collect();
        rows.push(FairnessRow {
            variant: v.name.clone(),
            openings: suite.name.clone(),
            level: level.label(),
            level_index: *li,
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
        exact_results(game, args.quick)?
    };
    if game == "othello" {
        notes.push(
            "8x8 Othello: a draw with perfect play is claimed by Takizawa (2023, arXiv:2310.19387); not checked here"
                .into(),
        );
    }
    let summary = Summary {
        game: game.into(),
        engine: format!(
            "{} copies of {} ({})",
            sides,
            algo.name(),
            levels
                .iter()
                .map(|l| l.label())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        out: args.out.display().to_string(),
        trends: fairness::trends(&rows),
        verdict: fairness::verdict(&rows),
        points: fairness::points_rule(rows.first().map_or(2, |r| r.seats.len())),
        rows,
        exact,
        notes,
        interrupted,
    };
    if let Some(path) = &args.html {
        let page = tessera::report::fairness_page::<G>(&summary_json(&summary)?, &records_of_rows)?;
        tessera::report::write_page(path, &page)?;
    }
    if args.json {
        output::print_json(&summary_json(&summary)?);
    } else {
        output::say(render(&summary));
        if let Some(path) = &args.html {
            output::say(format!("page written to {}", path.display()));
        }
    }
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn summary_json(s: &Summary) -> Result<serde_json::Value, CliError> {
    serde_json::to_value(s).map_err(|e| CliError::failure(e.to_string()))
}

/// The summary as text.
fn render(s: &Summary) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Fairness of {}: {} in every seat rotation; score = mean points ({}), 95 % Wilson \
         intervals over blocks; W/D/L = sole first / shared first / other place",
        s.game, s.engine, s.points
    );
    out.push_str(&fairness::render(&s.rows));
    if !s.trends.is_empty() {
        let _ = writeln!(
            out,
            "\nTrend with strength (score change from the weakest to the strongest level, 95 %; \
             grows / shrinks: the seat's distance from the fair 50 %)"
        );
        for t in &s.trends {
            let _ = writeln!(
                out,
                "{} / {} / {}: {:.1} % ({}) -> {:.1} % ({}), change {:+.1} [{:+.1}, {:+.1}]: {}{}",
                t.variant,
                t.openings,
                t.name,
                100.0 * t.from.1,
                t.from.0,
                100.0 * t.to.1,
                t.to.0,
                100.0 * t.change,
                100.0 * t.lower,
                100.0 * t.upper,
                t.direction,
                match t.reading() {
                    r if r.is_empty() => r,
                    r => format!(" ({r})"),
                }
            );
        }
    }
    if s.rows.iter().any(|r| r.distinct < r.games) {
        let _ = writeln!(
            out,
            "\n'distinct' < 'games': copies of a deterministic engine replay the same game in every \
             seat rotation of an opening; the seat statistics count each distinct game once"
        );
    }
    if !s.exact.is_empty() {
        out.push('\n');
    }
    for e in &s.exact {
        let _ = writeln!(
            out,
            "Exact: Quixo {}: {}{} ({}, {:.1} s)",
            e.board,
            e.value,
            e.plies.map_or(String::new(), |p| format!(" in {p} plies")),
            e.source,
            e.seconds
        );
    }
    for n in &s.notes {
        let _ = writeln!(out, "note: {n}");
    }
    if s.interrupted {
        let _ = writeln!(
            out,
            "\nINTERRUPTED: the rows above are partial (run the same command again to resume)"
        );
    }
    let _ = writeln!(out, "\nVerdict: {}", s.verdict);
    let _ = write!(
        out,
        "Records: one tournament folder per row under {} (`tessera tournament report DIR` reads any)",
        s.out
    );
    out
}
