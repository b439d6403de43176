//! Tournaments between game-playing engines and the statistics to judge them.

pub mod stats;
