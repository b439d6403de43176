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

/// One row per sample: the baseline evaluation's [`baseline_coefficients`], labelled with
/// the sign of the exact value where the solver reached the position, else of the game's
/// result (1 win, 0.5 draw, 0 loss).
///
/// [`baseline_coefficients`]: crate::games::othello::eval::baseline_coefficients
impl crate::tuning::texel::TexelGame for Position {
    const REGISTRY: &'static [crate::tuning::Param] = crate::games::othello::eval::PARAMS;
    const TITLE: &'static str = "Othello baseline evaluation weights";
    const UNIT: &'static str = "centi-discs";
    const LABEL: &'static str = "final disc difference (empties to the winner)";

    fn weights_of(spec: &crate::engine::EngineSpec) -> Result<Vec<i32>, String> {
        spec.eval_weights::<crate::games::othello::eval::Weights>()
            .map(|w| w.0)
    }

    fn add_rows(
        sample: &crate::tuning::selfplay::Sample,
        data: &mut crate::tuning::texel::TexelData,
    ) -> Result<(), String> {
        let pos: Position = sample.position.parse().map_err(|e| format!("{e}"))?;
        let c = crate::games::othello::eval::baseline_coefficients(pos.player(), pos.opponent());
        data.push(&c, crate::tuning::texel::result_of(sample.target()));
        Ok(())
    }
}
