//! The alpha-beta engine: iterative-deepening PVS over any game's [`Evaluator`], with an
//! optional exact solver for small positions.

use super::{Player, Thought};
use crate::game::Game;
use crate::search::{
    Evaluator, ExactSolver, Limits, SearchInfo, SearchResult, TranspositionTable, WIN_MIN,
    search_threads,
};

/// Called after each finished iteration with its [`SearchInfo`].
type ProgressFn<M> = Box<dyn FnMut(&SearchInfo<M>) + Send>;

/// Alpha-beta engine owning its transposition table.
pub struct AlphaBetaEngine<G: Game, E: Evaluator<G>> {
    name: String,
    eval: E,
    exact: Option<Box<dyn ExactSolver<G>>>,
    tt: TranspositionTable,
    unit: &'static str,
    on_iteration: Option<ProgressFn<G::Move>>,
    threads: usize,
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
            threads: 1,
        }
    }

    /// Adds an exact solver, used for the positions it [applies](ExactSolver::applies) to.
    #[must_use]
    pub fn with_exact(mut self, solver: impl ExactSolver<G> + 'static) -> Self {
        self.exact = Some(Box::new(solver));
        self
    }

    /// Searches the midgame on `threads` threads (Lazy SMP, see
    /// [`crate::search::search_threads`]); the exact solver stays single-threaded.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
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
    fn midgame(&mut self, pos: &G, limits: &Limits) -> SearchResult<G::Move> {
        let threads = self.threads;
        match self.on_iteration.as_mut() {
            Some(f) => search_threads(pos, &self.eval, &self.tt, limits, threads, |i| f(i)),
            None => search_threads(pos, &self.eval, &self.tt, limits, threads, |_| {}),
        }
    }

    /// A [`Thought`] from a search result, adding `extra_nodes` spent elsewhere and timing
    /// the whole move from `started`. A forced win or loss ([`WIN_MIN`] and beyond: only
    /// win/loss games such as Quixo reach it; Othello's scores stay below) is exact even
    /// from the midgame search: it was searched to the end of the game (was `exact: false`
    /// beside "forced win in 1 ply").
    fn thought(
        &self,
        r: SearchResult<G::Move>,
        exact: bool,
        extra_nodes: u64,
        started: std::time::Instant,
    ) -> Thought<G::Move> {
        Thought {
            best_move: r.best_move,
            exact: exact || r.score.abs() >= WIN_MIN,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes + extra_nodes,
            elapsed: started.elapsed(),
            pv: r.pv,
            unit: self.unit,
        }
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
        let started = std::time::Instant::now();
        let limits = &limits.for_move();
        // The exact solver runs when it applies and no depth limit short of the end was
        // asked for.
        let use_exact = self.exact.as_ref().is_some_and(|e| {
            e.applies(pos)
                && pos.outcome().is_none()
                && limits.depth.is_none_or(|d| d >= e.plies_to_end(pos))
        });
        if !use_exact {
            let r = self.midgame(pos, limits);
            return Ok(self.thought(r, false, 0, started));
        }
        let budgeted = limits.time_ms.is_some() || limits.nodes.is_some();
        // Under a time or node budget, a quick midgame search on a quarter of it (and no
        // deeper than the solver's quick depth) puts a move in hand; the exact solve gets
        // the rest and replaces it if it finishes.
        let quick_depth = self.exact.as_ref().and_then(|e| e.quick_depth(pos));
        let quick = budgeted.then(|| {
            let mut q = limits.clone();
            q.depth = quick_depth;
            q.time_ms = limits.time_ms.map(|t| (t / 4).max(1));
            q.nodes = limits.nodes.map(|n| (n / 4).max(1));
            self.midgame(pos, &q)
        });
        let mut rest = limits.clone();
        let used_ms = started.elapsed().as_millis() as u64;
        let used_nodes = quick.as_ref().map_or(0, |q| q.nodes);
        rest.time_ms = limits.time_ms.map(|t| t.saturating_sub(used_ms).max(1));
        rest.nodes = limits.nodes.map(|n| n.saturating_sub(used_nodes).max(1));
        let exact = self.exact.as_ref().expect("use_exact implies a solver");
        match exact.solve(pos, &self.tt, &rest) {
            Ok(r) => Ok(self.thought(r, true, used_nodes, started)),
            Err(solver_nodes) => {
                let r = match quick {
                    Some(q) => q,
                    // Unbudgeted solves stop only on an external stop: answer at once.
                    None => self.midgame(pos, &Limits::depth(1)),
                };
                Ok(self.thought(r, false, solver_nodes, started))
            }
        }
    }
}
