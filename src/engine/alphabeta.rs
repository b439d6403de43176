//! The alpha-beta engine: iterative-deepening PVS over any game's [`Evaluator`], with an
//! optional exact solver for small positions.

use super::{Player, Thought};
use crate::game::Game;
use crate::search::{Evaluator, ExactSolver, Limits, SearchInfo, TranspositionTable, search};

/// Alpha-beta engine owning its transposition table.
pub struct AlphaBetaEngine<G: Game, E: Evaluator<G>> {
    name: String,
    eval: E,
    exact: Option<Box<dyn ExactSolver<G>>>,
    tt: TranspositionTable,
    unit: &'static str,
    on_iteration: Option<Box<dyn FnMut(&SearchInfo<G::Move>) + Send>>,
}

impl<G: Game, E: Evaluator<G>> AlphaBetaEngine<G, E> {
    /// An engine named `name` with evaluator `eval` (scores in `unit`) and a
    /// transposition table of `tt_mib` MiB.
    #[must_use]
    pub fn new(name: impl Into<String>, eval: E, unit: &'static str, tt_mib: usize) -> Self {
        Self {
            name: name.into(),
            eval,
            exact: None,
            tt: TranspositionTable::new(tt_mib),
            unit,
            on_iteration: None,
        }
    }

    /// Adds an exact solver, used for the positions it [applies](ExactSolver::applies) to.
    #[must_use]
    pub fn with_exact(mut self, solver: impl ExactSolver<G> + 'static) -> Self {
        self.exact = Some(Box::new(solver));
        self
    }

    /// Calls `f` after each finished iteration (for `info` lines while thinking).
    #[must_use]
    pub fn with_progress(mut self, f: impl FnMut(&SearchInfo<G::Move>) + Send + 'static) -> Self {
        self.on_iteration = Some(Box::new(f));
        self
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBetaEngine<G, E> {
    fn exact_depth_hint(&self, pos: &G) -> u32 {
        self.exact.as_ref().map_or(0, |e| e.plies_to_end(pos))
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for AlphaBetaEngine<G, E> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String> {
        // The exact solver runs when it applies and no depth limit short of the end was
        // asked for. Under a time or node limit it gets half the budget, and the midgame
        // search the rest if the solve does not finish.
        let mut limits = limits.clone();
        let plies_left = |l: &Limits| l.depth.is_none_or(|d| d >= self.exact_depth_hint(pos));
        if let Some(exact) = &self.exact
            && exact.applies(pos)
            && pos.outcome().is_none()
            && plies_left(&limits)
        {
            let mut half = limits.clone();
            half.time_ms = limits.time_ms.map(|t| t / 2);
            half.nodes = limits.nodes.map(|n| n / 2);
            let start = std::time::Instant::now();
            if let Some(r) = exact.solve(pos, &self.tt, &half) {
                return Ok(Thought {
                    best_move: r.best_move,
                    score: r.score,
                    exact: true,
                    depth: r.depth,
                    nodes: r.nodes,
                    elapsed: r.elapsed,
                    pv: r.pv,
                    unit: self.unit,
                });
            }
            let used = start.elapsed().as_millis() as u64;
            limits.time_ms = limits.time_ms.map(|t| t.saturating_sub(used).max(1));
        }
        let r = match self.on_iteration.as_mut() {
            Some(f) => search(pos, &self.eval, &self.tt, &limits, |i| f(i)),
            None => search(pos, &self.eval, &self.tt, &limits, |_| {}),
        };
        Ok(Thought {
            best_move: r.best_move,
            score: r.score,
            exact: false,
            depth: r.depth,
            nodes: r.nodes,
            elapsed: r.elapsed,
            pv: r.pv,
            unit: self.unit,
        })
    }
}
