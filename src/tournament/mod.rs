//! Tournaments between game-playing engines and the statistics to judge them.
//!
//! - [`balanced`]: balanced opening suites (the XOT idea) for `tessera openings`;
//! - [`adjudicate`]: ending games early by a solver or both engines' scores;
//! - [`fairness`]: seat fairness over tournaments of identical engines (rows, trend, verdict);
//! - [`schedule`]: who meets whom, on which opening, in which seats (pairs, blocks, shards);
//! - [`head_to_head`]: pairwise comparisons in games of three or more sides;
//! - [`lock`]: one run at a time per output directory;
//! - [`openings`]: openings from a file or random plies from a seed;
//! - [`runner`]: parallel games, records appended as games end, resume, SPRT stop;
//! - [`record`]: the JSON-lines game records; [`export`]: records as GGF;
//! - [`report`]: head-to-head statistics, rating list, results by seat, SPRT state, from
//!   records alone;
//! - [`seats`]: results by seat (score, win/draw/loss shares with 95 % intervals);
//! - [`stats`]: the rating mathematics (Elo, SPRT, Bradley-Terry / Plackett-Luce);
//! - [`validate`]: every record checked against its tournament and replayed.

pub mod adjudicate;
pub mod balanced;
pub mod export;
pub mod fairness;
pub mod head_to_head;
pub mod lock;
pub mod openings;
pub mod record;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod seats;
pub mod settings;
pub mod stats;
pub mod validate;
