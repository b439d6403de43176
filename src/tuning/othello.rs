//! Othello specifics of tuning: exact labels from the endgame solver.

use crate::games::othello::endgame::Solver;
use crate::games::othello::{Move, Position};
use crate::search::{Limits, TranspositionTable};

/// Table size of each thread's solver for labels, MiB.
const LABEL_TT_MIB: usize = 16;

thread_local! {
    /// One table per worker thread, kept across positions and games: entries are exact
    /// values keyed by the position, so reuse is sound and saves the re-search of the
    /// positions one game passes through.
    static LABEL_TT: TranspositionTable = TranspositionTable::new(LABEL_TT_MIB);
}

/// The exact value (discs, side to move's view, empties to the winner) and a best move of
/// `pos` when it has at most `max_empties` empties and the game is not over; `None`
/// otherwise.
#[must_use]
pub fn solve_label(pos: &Position, max_empties: u32) -> Option<(i32, Move)> {
    if pos.empties() > max_empties || pos.is_game_over() {
        return None;
    }
    LABEL_TT.with(|tt| {
        let sol = Solver::new(tt, &Limits::default()).solve(pos);
        Some((sol.score?, sol.best_move?))
    })
}

/// SPSA registry of the Othello MCTS engine: the UCT exploration constant in hundredths
/// (`c = mcts_c_centi / 100`; the engine's default is 1.0).
pub const MCTS_PARAMS: &[crate::tuning::Param] = &[crate::tuning::Param {
    name: "mcts_c_centi",
    default: 100,
    min: 5,
    max: 400,
    step: 15,
}];
