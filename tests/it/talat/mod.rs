//! Talat: rules cases, perft, the frozen-board test, seeded random games and the evaluation.

mod eval;
mod freeze;
mod perft;
mod random;
mod rules;
