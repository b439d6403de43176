//! Seat fairness: is a game fair to its seats? Copies of one engine play each other in every
//! seat rotation, at several strengths, from the start position and from an opening suite
//! (three-player Talat also under each `[choice]` rule), and each seat's results are
//! reported with 95 % intervals, the trend with strength and a verdict.
//!
//! - [`experiment`]: the run: [`FairnessConfig`] in, one tournament folder per row, a
//!   [`Summary`] out (`tessera fairness` is this with flags);
//! - [`error`]: why a run stopped ([`FairnessError`]);
//! - [`plan`]: strength levels, rules variants and opening suites of a game;
//! - [`stats`]: rows, trends, verdicts and the per-seat table;
//! - [`summary`]: the summary as text and JSON.

pub mod error;
pub mod experiment;
pub mod plan;
pub mod stats;
pub mod summary;

pub use error::FairnessError;
pub use experiment::{FairnessConfig, FairnessRun, run};
pub use plan::Level;
pub use stats::*;
pub use summary::{Exact, Summary};
