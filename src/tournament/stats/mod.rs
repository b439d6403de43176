//! Rating statistics for AI-vs-AI tournaments, as computed by fastchess, cutechess and fishtest.
//!
//! One concept per module:
//! - [`elo`]: head-to-head match statistics from trinomial (W/D/L) or pentanomial
//!   (colour-swapped pair) counts: score, Elo with error bar, normalized Elo, LOS, draw ratio;
//! - [`sprt`]: the generalized sequential probability ratio test (GSPRT) with logistic or
//!   normalized Elo hypotheses;
//! - [`proportion`]: Wilson intervals of a share of games and of a mean score;
//! - [`ratings`]: rating lists over many players (Bradley-Terry / Plackett-Luce by Hunter's MM
//!   iteration) with block-bootstrap error bars.
//!
//! Golden values for all of these are in `tests/data/ratings/golden.md`.

pub mod elo;
pub mod proportion;
pub mod ratings;
pub mod sprt;

#[cfg(test)]
mod sprt_brute_force;
