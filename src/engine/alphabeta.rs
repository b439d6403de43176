//! The alpha-beta engine: iterative-deepening PVS over any game's [`Evaluator`], with an
//! optional exact solver for small positions.

use super::{Player, Thought};
use crate::game::Game;
use crate::search::{
    Evaluator, ExactSolver, GameClock, Limits, Score, SearchInfo, SearchResult, SolveCost,
    TranspositionTable, Unsolved, WIN_MIN, search_threads,
};

/// Called after each finished iteration with its [`SearchInfo`].
use super::ProgressFn;

/// Alpha-beta engine owning its transposition table.
pub struct AlphaBetaEngine<G: Game, E: Evaluator<G>> {
    name: String,
    eval: E,
    exact: Option<Box<dyn ExactSolver<G>>>,
    tt: TranspositionTable,
    unit: &'static str,
    on_iteration: Option<ProgressFn<G::Move>>,
    threads: usize,
    /// Starts the exact solve when its expected cost fits the budget
    /// ([`AlphaBetaEngine::with_exact_auto`]).
    exact_auto: bool,
    /// The exact solver's measured speed, nodes per millisecond (a moving average over
    /// this engine's solves), for turning the cost model's nodes into time.
    solve_rate: f64,
    /// Reports the mean of the last two finished iterations' scores
    /// ([`AlphaBetaEngine::with_odd_even_mean`]).
    odd_even_mean: bool,
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
            exact_auto: false,
            solve_rate: INITIAL_SOLVE_RATE,
            odd_even_mean: false,
        }
    }

    /// Reports as the midgame search's score the mean of its last two finished
    /// iterations' scores (depths `d - 1` and `d`, rounded towards zero), not the last
    /// one's: the odd-even effect. In Othello the side that moves last in the searched
    /// tree is favoured, so odd and even depths err in opposite directions (measured in
    /// `docs/measurements.md`, "Accuracy against exact scores"). The move, the depth and
    /// the principal variation stay the last iteration's; a score of a won or lost game
    /// ([`WIN_MIN`] and beyond), a result from a Lazy SMP helper's deeper iteration, an
    /// unfinished iteration's better move and a search of one iteration keep their own score.
    #[must_use]
    pub fn with_odd_even_mean(mut self) -> Self {
        self.odd_even_mean = true;
        self
    }

    /// Starts the exact solve as early as its cost allows: a position the solver
    /// [applies](ExactSolver::applies) to is solved when the solver's
    /// [cost model](ExactSolver::solve_cost), at the solver speed measured on this
    /// engine's own solves, fits the move's budget (see [`auto_solve_plan`]); others get the
    /// whole budget for the midgame search. A solve that does not finish answers with its
    /// last selective pass, or else a midgame search on the time left.
    #[must_use]
    pub fn with_exact_auto(mut self) -> Self {
        self.exact_auto = true;
        self
    }

    /// Adds an exact solver, used for the positions it [applies](ExactSolver::applies) to.
    #[must_use]
    pub fn with_exact(mut self, solver: impl ExactSolver<G> + 'static) -> Self {
        let mut solver: Box<dyn ExactSolver<G>> = Box::new(solver);
        solver.set_threads(self.threads);
        self.exact = Some(solver);
        self
    }

    /// Searches on `threads` threads: the midgame by Lazy SMP (see
    /// [`crate::search::search_threads`]), exact solves as the solver does in parallel
    /// ([`ExactSolver::set_threads`]; Othello's: Young Brothers Wait).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        if let Some(exact) = self.exact.as_mut() {
            exact.set_threads(self.threads);
        }
        self
    }

    /// Calls `f` after each finished iteration (for `info` lines while thinking).
    #[must_use]
    pub fn with_progress(mut self, f: impl FnMut(&SearchInfo<G::Move>) + Send + 'static) -> Self {
        self.on_iteration = Some(Box::new(f));
        self
    }
}

/// Solver speed assumed before an engine's first solve, nodes per millisecond (15 M
/// nodes/s): below the 17-30 M nodes/s measured on 2 loaded cores, as a speed too high
/// starts solves that cannot finish.
pub const INITIAL_SOLVE_RATE: f64 = 15_000.0;

/// Weight of the newest solve in the moving average of the solver's speed.
const RATE_WEIGHT: f64 = 0.25;

/// Expected nodes an auto engine with no time or node budget solves up to (about 20-30 s
/// here, 24 empties by the cost model): without a budget it solves only what ends.
pub const UNBUDGETED_SOLVE_NODES: u64 = 500_000_000;

/// The exact solve's share of a move's budget, eighths: the last eighth is kept for a
/// midgame search when the solve stops with no result.
const SOLVE_EIGHTHS: u64 = 7;

/// A score fall between the last two iterations that counts as unstable, in the
/// evaluator's unit: 100 (one disc in Othello's centi-discs; Quixo's scores are
/// win/loss and a fall from a win is far more).
pub const SCORE_DROP: Score = 100;

/// Whether a search whose last two finished iterations found (best move, score) `prev`
/// then `last` is unstable enough to deserve more time: the best move changed, or the
/// score fell by `drop` or more. Fewer than two iterations: not unstable (no evidence).
#[must_use]
pub fn unstable<M: PartialEq>(
    prev: Option<(M, Score)>,
    last: Option<(M, Score)>,
    drop: Score,
) -> bool {
    match (prev, last) {
        (Some((pm, ps)), Some((lm, ls))) => pm != lm || ps - ls >= drop,
        _ => false,
    }
}

/// The score [`AlphaBetaEngine::with_odd_even_mean`] reports for `r`, whose search's last
/// two finished iterations were `prev` then `last` (best move, score, depth): their mean
/// (rounded towards zero) when `r` is `last`'s result (same move, score and depth), `prev`
/// is one ply shallower and neither score is a won or lost game; otherwise `r.score`.
#[must_use]
pub fn odd_even_score<M: PartialEq>(
    r: &SearchResult<M>,
    prev: Option<(M, Score, u32)>,
    last: Option<(M, Score, u32)>,
) -> Score {
    match (prev, last) {
        (Some((_, ps, pd)), Some((lm, ls, ld)))
            if r.best_move.as_ref() == Some(&lm)
                && r.score == ls
                && r.depth == ld
                && pd + 1 == ld
                && ps.abs() < WIN_MIN
                && ls.abs() < WIN_MIN =>
        {
            (ps + ls) / 2
        }
        _ => r.score,
    }
}

/// What a time-managed engine does with a position its exact solver applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvePlan {
    /// The solve's expected cost does not fit: search the midgame with the whole budget.
    Midgame,
    /// Solve within these limits (`None`: unlimited).
    Solve {
        /// Time limit of the solve, milliseconds.
        time_ms: Option<u64>,
        /// Node limit of the solve.
        nodes: Option<u64>,
    },
}

/// How much cheaper than the solve's share of the budget its first answer must be
/// expected to be when the exact solve itself is not expected to fit: a quarter, so the
/// later selective passes (2-3 times the first's nodes) are likely to finish too.
const FIRST_ANSWER_MARGIN: u64 = 4;

/// The plan for a position whose solve is expected to cost `cost`, at `rate` nodes per
/// millisecond, under a budget of `time_ms` and/or `nodes`. The solve gets
/// `SOLVE_EIGHTHS`/8 of each budget (its share, in nodes: the time share at `rate`, or
/// the node share, the smaller), and runs when the exact solve is expected to fit the share
/// (the model is a median: at the edge about half the solves finish; the others answer
/// with a selective pass) or its first answer a `FIRST_ANSWER_MARGIN`th of it. With no
/// budget it runs when the exact solve is expected to take at most
/// `UNBUDGETED_SOLVE_NODES`.
#[must_use]
pub fn auto_solve_plan(
    cost: SolveCost,
    rate: f64,
    time_ms: Option<u64>,
    nodes: Option<u64>,
) -> SolvePlan {
    let share = |b: u64| (b * SOLVE_EIGHTHS / 8).max(1);
    let time_share = time_ms.map(share);
    let node_share = nodes.map(share);
    let by_time = time_share.map(|t| (t as f64 * rate) as u64);
    let share_nodes = match (by_time, node_share) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => UNBUDGETED_SOLVE_NODES,
    };
    let budgeted = time_ms.is_some() || nodes.is_some();
    let fits = cost.exact <= share_nodes
        || (budgeted && cost.first.saturating_mul(FIRST_ANSWER_MARGIN) <= share_nodes);
    if fits {
        SolvePlan::Solve {
            time_ms: time_share,
            nodes: node_share,
        }
    } else {
        SolvePlan::Midgame
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBetaEngine<G, E> {
    /// A move of a time-managed engine where the solver applies: the exact solve if its
    /// expected cost (`expected` nodes) fits the budget ([`auto_solve_plan`]), else the
    /// midgame search with the whole budget. A solve that stops answers with its last
    /// selective pass, or else a midgame search on what is left of the budget.
    fn choose_auto(
        &mut self,
        pos: &G,
        limits: &Limits,
        clock: Option<GameClock>,
        expected: SolveCost,
        started: std::time::Instant,
    ) -> Thought<G::Move> {
        let (time_ms, nodes) =
            match auto_solve_plan(expected, self.solve_rate, limits.time_ms, limits.nodes) {
                SolvePlan::Midgame => {
                    let r = self.midgame_managed(pos, limits, clock, started);
                    return self.thought(r, false, 0, started);
                }
                SolvePlan::Solve { time_ms, nodes } => (time_ms, nodes),
            };
        let mut solve_limits = limits.clone();
        solve_limits.time_ms = time_ms;
        solve_limits.nodes = nodes;
        let exact = self.exact.as_ref().expect("auto plans need a solver");
        let t0 = std::time::Instant::now();
        let solved = exact.solve(pos, &self.tt, &solve_limits);
        let solve_nodes = match &solved {
            Ok(r) => r.nodes,
            Err(u) => u.nodes,
        };
        self.measure_solve_rate(solve_nodes, t0.elapsed());
        match solved {
            Ok(r) => self.thought(r, true, 0, started),
            Err(Unsolved {
                partial: Some(p), ..
            }) => self.thought(p, false, 0, started),
            Err(Unsolved {
                nodes: spent,
                partial: None,
            }) => {
                let mut rest = limits.clone();
                let used_ms = started.elapsed().as_millis() as u64;
                rest.time_ms = limits.time_ms.map(|t| t.saturating_sub(used_ms).max(1));
                rest.nodes = limits.nodes.map(|n| n.saturating_sub(spent).max(1));
                if rest.time_ms.is_none() && rest.nodes.is_none() {
                    // Stopped from outside: answer at once.
                    rest.depth = Some(1);
                }
                let r = self.midgame(pos, &rest);
                self.thought(r, false, spent, started)
            }
        }
    }

    /// Folds a solve of `nodes` in `elapsed` into the solver's measured speed (solves
    /// under 2 ms or 20 000 nodes measure start-up more than speed and are skipped).
    fn measure_solve_rate(&mut self, nodes: u64, elapsed: std::time::Duration) {
        let ms = elapsed.as_secs_f64() * 1000.0;
        if ms >= 2.0 && nodes >= 20_000 {
            let rate = nodes as f64 / ms;
            self.solve_rate = (1.0 - RATE_WEIGHT) * self.solve_rate + RATE_WEIGHT * rate;
        }
    }

    fn midgame(&mut self, pos: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.midgame_watched(pos, limits).0
    }

    /// The midgame search, and whether its last two finished iterations were unstable
    /// ([`unstable`]).
    fn midgame_watched(&mut self, pos: &G, limits: &Limits) -> (SearchResult<G::Move>, bool) {
        let threads = self.threads;
        let mut last: [Option<(G::Move, Score, u32)>; 2] = [None, None];
        let mut watch = |i: &SearchInfo<G::Move>| {
            if let Some(&m) = i.pv.first() {
                last = [last[1], Some((m, i.score, i.depth))];
            }
        };
        let mut r = match self.on_iteration.as_mut() {
            Some(f) => search_threads(pos, &self.eval, &self.tt, limits, threads, |i| {
                watch(i);
                f(i);
            }),
            None => search_threads(pos, &self.eval, &self.tt, limits, threads, watch),
        };
        if self.odd_even_mean {
            r.score = odd_even_score(&r, last[0], last[1]);
        }
        let drop = |x: Option<(G::Move, Score, u32)>| x.map(|(m, s, _)| (m, s));
        (r, unstable(drop(last[0]), drop(last[1]), SCORE_DROP))
    }

    /// The midgame move of a time-managed engine: a forced move (the only legal one) is
    /// played after a depth-1 search; otherwise the search runs on the budget, and on a
    /// game clock an unstable result ([`unstable`]) gets a second search on up to as much
    /// again ([`GameClock::extension_ms`]), which the table lets reach deeper.
    fn midgame_managed(
        &mut self,
        pos: &G,
        limits: &Limits,
        clock: Option<GameClock>,
        started: std::time::Instant,
    ) -> SearchResult<G::Move> {
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.len() == 1 {
            let mut l = limits.clone();
            l.depth = Some(1);
            return self.midgame(pos, &l);
        }
        let (r, shaky) = self.midgame_watched(pos, limits);
        let (Some(clock), Some(budget), true) = (clock, limits.time_ms, shaky) else {
            return r;
        };
        let used = started.elapsed().as_millis() as u64;
        let extra = clock.extension_ms(budget, used);
        if extra == 0 {
            return r;
        }
        let mut l = limits.clone();
        l.time_ms = Some(extra);
        let more = self.midgame(pos, &l);
        if more.depth >= r.depth {
            SearchResult {
                nodes: r.nodes + more.nodes,
                ..more
            }
        } else {
            SearchResult {
                nodes: r.nodes + more.nodes,
                ..r
            }
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
    fn set_progress(&mut self, progress: ProgressFn<G::Move>) {
        self.on_iteration = Some(progress);
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String> {
        let started = std::time::Instant::now();
        // A time-managed engine knows how many of its moves still need time when it splits
        // a game clock: the solver's count, or its moves to the end of the game.
        let moves_left = self.exact.as_ref().filter(|_| self.exact_auto).map(|e| {
            e.timed_moves_left(pos)
                .unwrap_or_else(|| e.plies_to_end(pos).div_ceil(2))
        });
        let clock = limits.clock.filter(|_| self.exact_auto);
        let limits = &limits.for_move_within(moves_left);
        // The exact solver runs when it applies and no depth limit short of the end was
        // asked for.
        let use_exact = self.exact.as_ref().is_some_and(|e| {
            e.applies(pos)
                && pos.outcome().is_none()
                && limits.depth.is_none_or(|d| d >= e.plies_to_end(pos))
        });
        if !use_exact {
            let r = if self.exact_auto {
                self.midgame_managed(pos, limits, clock, started)
            } else {
                self.midgame(pos, limits)
            };
            return Ok(self.thought(r, false, 0, started));
        }
        if self.exact_auto
            && let Some(expected) = self.exact.as_ref().and_then(|e| e.solve_cost(pos))
        {
            return Ok(self.choose_auto(pos, limits, clock, expected, started));
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
            Err(Unsolved {
                nodes: solver_nodes,
                ..
            }) => {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn result(best: u8, score: Score, depth: u32) -> SearchResult<u8> {
        SearchResult {
            best_move: Some(best),
            score,
            depth,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            pv: vec![best],
        }
    }

    #[test]
    fn odd_even_score_is_the_mean_of_two_consecutive_iterations_only() {
        // Depths 7 then 8, the result is depth 8's: the mean, rounded towards zero.
        let r = result(3, -107, 8);
        assert_eq!(
            odd_even_score(&r, Some((5, 158, 7)), Some((3, -107, 8))),
            25
        );
        assert_eq!(
            odd_even_score(&r, Some((3, -100, 7)), Some((3, -107, 8))),
            -103
        );
        // One iteration only, or none.
        assert_eq!(odd_even_score(&r, None, Some((3, -107, 8))), -107);
        assert_eq!(odd_even_score(&r, None, None), -107);
        // A Lazy SMP helper's deeper result, or an unfinished iteration's better move.
        assert_eq!(
            odd_even_score(&result(3, 40, 9), Some((5, 158, 7)), Some((3, -107, 8))),
            40
        );
        assert_eq!(
            odd_even_score(&result(4, 60, 8), Some((5, 158, 7)), Some((3, -107, 8))),
            60
        );
        // Iterations that are not consecutive depths.
        assert_eq!(
            odd_even_score(&r, Some((5, 158, 6)), Some((3, -107, 8))),
            -107
        );
        // A won or lost game keeps its own score.
        let won = result(3, WIN_MIN + 5, 8);
        assert_eq!(
            odd_even_score(&won, Some((3, 300, 7)), Some((3, WIN_MIN + 5, 8))),
            WIN_MIN + 5
        );
        assert_eq!(
            odd_even_score(&r, Some((3, -WIN_MIN, 7)), Some((3, -107, 8))),
            -107
        );
    }
}
