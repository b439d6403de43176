//! The integration tests: one crate (one binary, one link) with a folder per area. They use
//! the library's public API and run the built `tessera` binary as a user would.
//!
//! `cargo test --release` runs them all except the slow checks marked `#[ignore]`;
//! `cargo test --release -- --ignored` runs those (see docs/contributing.md). A single area:
//! `cargo test --release --test it othello::`; a single file: `othello::perft::`.

mod common;

mod architecture;
mod cli;
mod engine;
mod env_returns;
mod input;
mod othello;
mod protocol;
mod quixo;
mod search;
mod talat;
mod tournament;
mod tuning;
mod web;
