//! Tournaments between game-playing engines and the statistics to judge them.
//!
//! - [`schedule`]: who meets whom, on which opening, in which seats (pairs, blocks, shards);
//! - [`openings`]: openings from a file or random plies from a seed;
//! - [`runner`]: parallel games, records appended as games end, resume, SPRT stop;
//! - [`record`]: the JSON-lines game records;
//! - [`report`]: head-to-head statistics, rating list, SPRT state, from records alone;
//! - [`stats`]: the rating mathematics (Elo, SPRT, Bradley-Terry / Plackett-Luce).

pub mod openings;
pub mod record;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
