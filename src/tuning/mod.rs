//! Tuning: parameter registries and weights files ([`params`], from `game`), self-play data
//! ([`selfplay`]), fits of evaluation weights to that data, and SPSA over tournament games.
//!
//! The algorithms ([`texel`], [`patterns`], [`mpc`], [`spsa`]) and the runs that drive them
//! over files ([`texel_run`], [`patterns_run`], [`mpc_run`], [`spsa_run`]): a run takes a
//! typed config, reports through a [`Progress`] (a run never prints; [`progress_bar`]
//! shows one on the terminal), writes its checkpoint and output, fails with a
//! [`TuneError`], and returns a summary with its line and JSON object for people and
//! programs. [`outputs`] checks a run's files before any work. Self-play data comes from
//! [`selfplay_run`], merged shards ([`selfplay_merge`]) and WTHOR databases
//! ([`wthor_import`]).
//!
//! # Example
//!
//! Labelled positions from two short self-play games of a depth-1 engine (what
//! `tessera selfplay` writes; without a solver, each label is the game's final margin):
//!
//! ```
//! use tessera::engine::{EngineSpec, Players};
//! use tessera::games::othello::Position;
//! use tessera::search::Limits;
//! use tessera::tuning::selfplay::{self, Config};
//!
//! let make = || Position::make_player(&EngineSpec::from_inline("name=d1,depth=1", "othello")?);
//! let cfg = Config {
//!     games: 2,
//!     seed: 1,
//!     random_plies: (4, 8),
//!     max_plies: 200,
//!     threads: 1,
//!     shard: None,
//!     progress: false,
//! };
//! let (samples, summary) = selfplay::generate::<Position>(&make, &Limits::depth(1), None, &cfg)?;
//! assert_eq!(summary.games, 2);
//! assert_eq!(samples.len(), summary.unique);
//! println!("{}\t{}", samples[0].position, samples[0].result);
//! # Ok::<(), String>(())
//! ```

pub mod checkpoint;
pub mod error;
pub mod mpc;
pub mod mpc_run;
pub mod othello;
pub mod outputs;
pub mod parity_run;
pub mod patterns;
pub mod patterns_run;
pub mod progress;
pub mod progress_bar;
pub mod quixo;
pub mod run;
pub mod selfplay;
pub mod selfplay_merge;
pub mod selfplay_request;
pub mod selfplay_run;
pub mod spsa;
pub mod spsa_request;
pub mod spsa_run;
pub mod summaries;
pub mod talat;
pub mod texel;
pub mod texel_run;
pub mod validation;
pub mod wthor;
pub mod wthor_import;

pub use error::TuneError;
pub use progress::{Progress, Silent};

/// The weights registry type and the weights file format live with the game abstraction
/// (games declare their evaluation weights with them); re-exported here for the tuners.
pub use crate::game::params::{self, Param};

/// Today's date in UTC as `YYYY-MM-DD` (for the headers of data and weights files).
#[must_use]
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The command line of this process, for file headers.
#[must_use]
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    let mut v = args;
    if let Some(first) = v.first_mut()
        && let Some(base) = std::path::Path::new(first.as_str())
            .file_name()
            .and_then(|s| s.to_str())
    {
        *first = base.to_string();
    }
    v.join(" ")
}
