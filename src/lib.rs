//! tessera: a game-AI engine for Othello, Quixo and Talat.
//!
//! Layers, bottom to top (`ARCHITECTURE.md` has what each may import and the rules,
//! checked by `tests/it/architecture.rs`):
//! - [`game`]: the game abstraction (seats, moves, outcomes, evaluation weight registries);
//! - [`games`]: the rules of each game on bitboards, its evaluation and its own solvers;
//! - [`formats`]: game records other programs share (GGF);
//! - [`present`]: how games are shown to people (seat names, diagrams, results, clicks);
//! - [`search`]: game-agnostic search (alpha-beta with PVS, iterative deepening and a
//!   transposition table; MCTS; the multi-player searches);
//! - [`wire`]: the text protocols' wire level (GTP commands and responses, per game);
//! - [`engine`]: players, and each game's players put together (the registry by game);
//! - [`mod@env`]: games by run-time id for scripting and learning (observations, actions, a
//!   vectorised environment, engines by position text): what the Python package binds;
//! - [`protocol`]: tessera as an engine for other programs (the GTP and NBoard servers);
//! - [`play`]: games between people and engines (history, the terminal game);
//! - [`tournament`] and [`tuning`]: games between engines, and fitting weights;
//! - [`report`] and [`web`]: the HTML pages of tournament folders, and `tessera serve`;
//! - `cli` (binary only): the `tessera` command line.
//!
//! The user guide (`docs/`, an mdBook) describes the command line; `examples/` has small
//! programs that use this library (`cargo run --release --example match`).
//!
//! # Example: play a game
//!
//! Two built-in engine presets (the files of `engines/`, also compiled into the library)
//! play a whole game of Othello through the [`engine::Player`] interface, each with its
//! preset's limits:
//!
//! ```
//! use tessera::engine::{EngineSpec, Players};
//! use tessera::game::{Game, Seat};
//! use tessera::games::othello::Position;
//!
//! let specs = [EngineSpec::resolve("othello-ab-d1")?, EngineSpec::resolve("othello-ab-d2")?];
//! let mut players = [Position::make_player(&specs[0])?, Position::make_player(&specs[1])?];
//! let mut pos = Position::start();
//! let mut plies = 0;
//! while pos.outcome().is_none() {
//!     let seat = pos.to_move().index(); // Black 0, White 1; a forced pass is a move too
//!     let thought = players[seat].choose(&pos, &specs[seat].limits())?;
//!     pos = pos.play(thought.best_move.expect("a game that is not over has a move"));
//!     plies += 1;
//! }
//! let result = pos.outcome().expect("the loop ran to the end");
//! let (black, white) = (result.score(Seat(0)), result.score(Seat(1)));
//! println!("{plies} plies: Black {black}, White {white}");
//! assert_eq!(black + white, 64); // final discs, the empty squares given to the winner
//! # Ok::<(), String>(())
//! ```

pub mod engine;
pub mod env;
pub mod formats;
pub mod game;
pub mod games;
pub mod play;
pub mod present;
pub mod protocol;
pub mod report;
pub mod search;
pub mod tournament;
pub mod tuning;
pub mod web;
pub mod wire;
