//! Tournaments between game-playing engines and the statistics to judge them.
//!
//! - [`balanced`]: balanced opening suites (the XOT idea); [`balanced_file`]: one searched
//!   and written as an openings file (`tessera openings`); [`bench_positions`]: the
//!   positions of `tessera bench`;
//! - [`adjudicate`]: ending games early by a solver or both engines' scores;
//! - [`fairness`]: seat fairness over tournaments of identical engines: the experiment
//!   (levels, rules variants, opening suites), its rows, trend and verdict;
//! - [`schedule`]: who meets whom, on which opening, in which seats (pairs, blocks, shards);
//! - [`head_to_head`]: pairwise comparisons in games of three or more sides;
//! - [`lock`]: one run at a time per output directory;
//! - [`merge`]: the shards of one tournament combined, games compared by what was played;
//! - [`move_times`]: each engine's time per move (mean, median, 90th percentile, max);
//! - [`openings`]: openings from a file or random plies from a seed;
//! - [`openings_file`]: an openings file indexed by line, never held whole;
//! - [`runner`]: parallel games, records appended as games end, resume, SPRT stop;
//! - [`record`]: the JSON-lines game records; [`export`]: records as GGF;
//! - [`request`]: a tournament as a front end asks for it, set up and played in its folder;
//! - [`report`]: head-to-head statistics, rating list, time per move, results by seat, SPRT
//!   state, from records alone;
//! - [`seats`]: results by seat (score, win/draw/loss shares with 95 % intervals);
//!   [`seat_names`]: the report's seats named for people (`Black (X)`, `team X (A1+A2)`);
//! - [`stats`]: the rating mathematics (Elo, SPRT, Bradley-Terry / Plackett-Luce);
//! - [`validate`]: every record checked against its tournament and replayed.
//!
//! # Example: a two-engine match
//!
//! Depth 1 against depth 2, four random 8-ply openings each played with both colours, the
//! records in a scratch directory, then the report `tessera tournament` prints:
//!
//! ```
//! use tessera::engine::{EngineSpec, Players};
//! use tessera::games::othello::Position;
//! use tessera::tournament::{openings::OpeningSource, report, runner, schedule::Format};
//! use tessera::tournament::settings::Settings;
//!
//! let settings = Settings {
//!     game: "othello".into(),
//!     engines: vec![EngineSpec::resolve("othello-ab-d1")?, EngineSpec::resolve("othello-ab-d2")?],
//!     format: Format::RoundRobin,
//!     rounds: 4,
//!     openings: OpeningSource::RandomPlies(8),
//!     openings_order: Default::default(),
//!     seed: 1,
//!     max_plies: 1000,
//!     sprt: None,
//!     anchor: None,
//!     adjudicate: Default::default(),
//! };
//! let out = std::env::temp_dir().join(format!("tessera-doc-match-{}", std::process::id()));
//! let options = runner::RunOptions {
//!     out: out.clone(),
//!     concurrency: 2,
//!     shard: None,
//!     progress: false,
//!     interrupt: None,
//!     allow_changed_files: false,
//!     openings_repeat: Default::default(),
//! };
//! let outcome = runner::run::<Position>(&settings, &options, &Position::make_player, None)?;
//! std::fs::remove_dir_all(&out).map_err(|e| e.to_string())?;
//! assert_eq!(outcome.report.games, 8);
//! print!("{}", report::render(&outcome.report));
//! # Ok::<(), String>(())
//! ```

pub mod adjudicate;
pub mod balanced;
pub mod balanced_file;
pub mod bench_positions;
pub mod export;
pub mod fairness;
pub mod files;
pub mod folder;
pub mod head_to_head;
pub mod lock;
pub mod merge;
pub mod move_times;
pub mod openings;
pub mod openings_file;
pub mod record;
pub mod report;
pub mod request;
pub mod runner;
pub mod schedule;
pub mod seat_names;
pub mod seats;
pub mod settings;
pub mod stats;
pub mod validate;
