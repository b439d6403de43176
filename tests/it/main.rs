//! The integration tests: one crate (one binary, one link) with a module per area. They use
//! the library's public API and run the built `tessera` binary as a user would.
//!
//! `cargo test --release` runs them all except the slow checks marked `#[ignore]`;
//! `cargo test --release -- --ignored` runs those (see docs/contributing.md). A single area:
//! `cargo test --release --test it othello_perft::`.

mod common;
mod multi_toys;

mod accuracy;
mod architecture;
mod bounded_reads;
mod cli;
mod clock;
mod cluster;
mod engine_builder;
mod env_returns;
mod fairness;
mod gtp;
mod input_limits;
mod levels;
mod mcts;
mod mcts_tree_parallel;
mod multiplayer_search;
mod nboard;
mod othello_ffo;
mod othello_mpc;
mod othello_obf;
mod othello_perft;
mod othello_rules;
mod othello_search;
mod othello_tools;
mod othello_weights_files;
mod parallel_search;
mod quixo_cases;
mod quixo_dfpn;
mod quixo_perft;
mod quixo_rules;
mod quixo_search;
mod quixo_solve;
mod quixo_speedups;
mod quixo_table;
mod quixo_tables;
mod quixo_tier;
mod rating_stats;
mod schemas;
mod selfplay_shards;
mod serve;
mod serve_browser;
mod shards;
mod signals;
mod talat_eval;
mod talat_freeze;
mod talat_perft;
mod talat_random;
mod talat_rules;
mod time_management;
mod tournament;
mod tournament_files;
mod tournament_records;
mod tournament_safety;
mod tuning_files;
mod tuning_gain;
mod tuning_selfplay;
mod tuning_spsa;
mod tuning_texel;
mod wthor;
