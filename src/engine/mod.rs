//! Players: "given a position and limits, return a move and what the search found".
//!
//! Every built-in algorithm implements [`Player`]; `bestmove`, `play`, tournaments and
//! tuning all drive engines through it (an external GTP program will too).
//!
//! # Example
//!
//! An engine from an inline specification (the `--engine` syntax of the command line; a
//! preset name or a `.toml` file works through [`EngineSpec::resolve`]), asked for a move:
//!
//! ```
//! use tessera::engine::{EngineSpec, Players};
//! use tessera::game::Game;
//! use tessera::games::othello::Position;
//!
//! let spec = EngineSpec::from_inline("name=quick,depth=4,tt-mb=4", "othello")?;
//! let mut player = Position::make_player(&spec)?;
//! let thought = player.choose(&Position::start(), &spec.limits())?;
//! assert_eq!(thought.depth, 4);
//! println!("{} plays {} ({} {})", player.name(), thought.best_move.unwrap(), thought.score, thought.unit);
//! # Ok::<(), String>(())
//! ```

pub mod accuracy;
pub mod accuracy_text;
mod alphabeta;
pub mod analyze;
pub mod bench;
pub mod book;
pub mod book_build;
pub mod catalog;
pub mod engine_log;
pub mod external;
pub mod flag_values;
pub mod flags;
pub mod level;
pub mod mcts;
pub mod multi;
pub mod notes;
pub mod othello;
pub mod protocol_flags;
pub mod quixo;
pub mod quixo_tables;
pub mod registry;
pub mod signals;
pub mod spec;
mod spec_error;
pub mod tables_setting;
pub mod talat;
pub mod thought_text;
pub mod time_control;

pub use alphabeta::{
    AlphaBetaEngine, INITIAL_SOLVE_RATE, SCORE_DROP, SolvePlan, auto_solve_plan, unstable,
};
pub use mcts::MctsEngine;
pub use multi::MultiEngine;
pub use registry::Players;
pub use spec::{Algorithm, EngineSpec, Protocol, SpecError};
pub use time_control::{SeatClock, TimeControl};

use std::time::Duration;

use crate::game::Game;
use crate::search::{Limits, Score};

/// What an engine reports with its move.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    /// The chosen move; `None` only when the game is over.
    pub best_move: Option<M>,
    /// Score of the position for the side to move, in [`Thought::unit`].
    pub score: Score,
    /// Whether `score` is proven exact (solved to the end of the game).
    pub exact: bool,
    /// Depth reached, plies (for an exact solve: the plies to the end, empties in Othello).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<M>,
    /// Unit of `score`, e.g. `"centi-discs"`.
    pub unit: &'static str,
}

impl<M> Thought<M> {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A player: any engine that picks moves.
pub trait Player<G: Game>: Send {
    /// A name for reports.
    fn name(&self) -> &str;

    /// Reports each finished iteration (depth, score, nodes, PV) to `progress` from now
    /// on, for `info` lines while thinking. Engines that search no iterations (MCTS,
    /// external programs) ignore it; wrappers (a level, an opening book) pass it on.
    fn set_progress(&mut self, progress: ProgressFn<G::Move>) {
        let _ = progress;
    }

    /// Forgets anything learned from a previous game (e.g. clears the table).
    fn new_game(&mut self) {}

    /// Chooses a move in `pos` within `limits`.
    ///
    /// # Errors
    /// A message when the engine fails (an external program crashed or answered nonsense).
    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String>;

    /// Chooses a move in a game that began at `start` and continued with `moves` to `pos`.
    /// Engines that need the history (an external program fed move by move) override it;
    /// the default looks at `pos` only.
    ///
    /// # Errors
    /// As [`Player::choose`].
    fn choose_in_game(
        &mut self,
        start: &G,
        moves: &[G::Move],
        pos: &G,
        limits: &Limits,
    ) -> Result<Thought<G::Move>, String> {
        let _ = (start, moves);
        self.choose(pos, limits)
    }
}

/// A callback given each finished iteration of a search ([`Player::set_progress`]).
pub type ProgressFn<M> = Box<dyn FnMut(&crate::search::SearchInfo<M>) + Send>;

/// Builds a player from its specification (one per game, so each game starts fresh).
pub type PlayerFactory<G> = dyn Fn(&EngineSpec) -> Result<Box<dyn Player<G>>, String> + Send + Sync;
