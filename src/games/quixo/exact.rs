//! The full-board table as the alpha-beta engine's exact solver: a full 5x5 board (no
//! blank cube, so the game stays on full boards) is answered from the table, with its
//! value as a mate score (`WIN - plies`, `-(WIN - plies)`, 0 for a draw) and the move that
//! achieves it.

use std::sync::Arc;
use std::time::Instant;

use super::position::{Move, Quixo};
use super::prove::{ProveLimits, Verdict, prove};
use super::retro::FullBoardTable;
use crate::search::{ExactSolver, Limits, SearchResult, TranspositionTable, Unsolved, WIN};

/// [`ExactSolver`] for full 5x5 boards from a shared [`FullBoardTable`]; use it as
/// `alphabeta_engine(..).with_exact(FullBoardExact::new(table))`.
#[derive(Clone)]
pub struct FullBoardExact {
    table: Arc<FullBoardTable>,
}

impl FullBoardExact {
    /// A solver answering from `table`.
    #[must_use]
    pub fn new(table: Arc<FullBoardTable>) -> Self {
        Self { table }
    }
}

impl ExactSolver<Quixo> for FullBoardExact {
    fn applies(&self, pos: &Quixo) -> bool {
        pos.size() == 5 && pos.x() | pos.o() == pos.geometry().full
    }

    /// A table lookup needs no depth: always 0, so any depth limit uses it.
    fn plies_to_end(&self, _pos: &Quixo) -> u32 {
        0
    }

    fn solve(
        &self,
        pos: &Quixo,
        _tt: &TranspositionTable,
        _limits: &Limits,
    ) -> Result<SearchResult<Move>, Unsolved<Move>> {
        let started = Instant::now();
        let p = prove(pos, &ProveLimits::default(), Some(&self.table));
        let plies = p.plies.unwrap_or(0) as i32;
        let score = match p.value {
            Verdict::Win => WIN - plies,
            Verdict::Loss => -(WIN - plies),
            Verdict::Draw => 0,
            Verdict::Unproven => {
                return Err(Unsolved {
                    nodes: p.nodes,
                    partial: None,
                });
            }
        };
        Ok(SearchResult {
            best_move: p.best_move,
            score,
            depth: p.plies.unwrap_or(0),
            nodes: p.nodes,
            elapsed: started.elapsed(),
            pv: p.best_move.into_iter().collect(),
        })
    }
}
