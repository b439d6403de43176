//! Othello: rules cases, perft, the searches against exact truth, MPC, FFO and OBF, tools, weights.

mod ffo;
mod mpc;
mod obf;
mod odd_even;
mod perft;
mod rules;
mod search;
mod tools;
mod weights_files;
