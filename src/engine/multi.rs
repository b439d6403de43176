//! The multi-player engine: paranoid, max-n, BRS or BRS+ ([`crate::search::multi`]) over a
//! game's [`SeatEvaluator`], behind the [`Player`] interface.

use std::time::Instant;

use super::{EngineSpec, Player, Protocol, Thought};
use crate::game::Game;
use crate::search::multi::{brs_unsupported, supports_brs};
use crate::search::{
    Limits, MultiAlgo, SearchInfo, SearchResult, SeatEvaluator, TranspositionTable, brs, brs_plus,
    maxn, paranoid,
};

/// Called after each finished iteration with its [`SearchInfo`] (score: the root seat's
/// utility).
use super::ProgressFn;

/// A multi-player search engine owning its transposition table (one table for every seat:
/// the searches salt its keys by algorithm and root seat).
pub struct MultiEngine<G: Game, E: SeatEvaluator<G>> {
    name: String,
    eval: E,
    algo: MultiAlgo,
    tt: TranspositionTable,
    unit: &'static str,
    on_iteration: Option<ProgressFn<G::Move>>,
}

impl<G: Game, E: SeatEvaluator<G>> MultiEngine<G, E> {
    /// An engine named `name` searching with `algo` over evaluator `eval` (utilities in
    /// `unit`, e.g. `"centi-points"`) with a transposition table of `tt_mib` MiB.
    ///
    /// # Errors
    /// `algo` is [`MultiAlgo::Brs`] and the game does not implement
    /// [`Game::with_turn`] (checked on [`Game::start`]).
    pub fn new(
        name: impl Into<String>,
        eval: E,
        algo: MultiAlgo,
        unit: &'static str,
        tt_mib: usize,
    ) -> Result<Self, String> {
        let start = G::start();
        if algo == MultiAlgo::Brs && start.outcome().is_none() && !supports_brs(&start) {
            return Err(brs_unsupported::<G>().0);
        }
        Ok(Self {
            name: name.into(),
            eval,
            algo,
            tt: TranspositionTable::new(tt_mib),
            unit,
            on_iteration: None,
        })
    }

    /// The engine a spec describes: `algo` one of `paranoid`, `maxn`, `brs`, `brs-plus`,
    /// `game` equal to [`Game::ID`], built in; name and table size from the spec (its
    /// limits are [`EngineSpec::limits`], passed to [`Player::choose`] by the caller).
    ///
    /// # Errors
    /// A spec for another game, protocol or algorithm, or as [`MultiEngine::new`].
    pub fn from_spec(spec: &EngineSpec, eval: E, unit: &'static str) -> Result<Self, String> {
        spec.expect_game(G::ID)?;
        if spec.protocol != Protocol::Builtin {
            return Err(format!("engine '{}' is not built in", spec.name));
        }
        let algo = spec.algo.multi().ok_or_else(|| {
            format!(
                "engine '{}': algo {} is not a multi-player search (paranoid, maxn, brs, brs-plus)",
                spec.name,
                spec.algo.name()
            )
        })?;
        Self::new(spec.name.clone(), eval, algo, unit, spec.tt_mb)
    }

    /// Calls `f` after each finished iteration (for `info` lines while thinking).
    #[must_use]
    pub fn with_progress(mut self, f: impl FnMut(&SearchInfo<G::Move>) + Send + 'static) -> Self {
        self.on_iteration = Some(Box::new(f));
        self
    }

    /// The search algorithm.
    #[must_use]
    pub fn algo(&self) -> MultiAlgo {
        self.algo
    }

    fn run(
        &mut self,
        pos: &G,
        limits: &Limits,
        mut f: impl FnMut(&SearchInfo<G::Move>),
    ) -> Result<SearchResult<G::Move>, String> {
        let (eval, tt) = (&self.eval, &self.tt);
        Ok(match self.algo {
            MultiAlgo::Paranoid => paranoid(pos, eval, tt, limits, &mut f),
            MultiAlgo::MaxN => maxn(pos, eval, tt, limits, &mut f).search,
            MultiAlgo::Brs => brs(pos, eval, tt, limits, &mut f).map_err(|e| e.0)?,
            MultiAlgo::BrsPlus => brs_plus(pos, eval, tt, limits, &mut f),
        })
    }
}

impl<G: Game, E: SeatEvaluator<G>> Player<G> for MultiEngine<G, E> {
    fn set_progress(&mut self, progress: ProgressFn<G::Move>) {
        self.on_iteration = Some(progress);
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Searches `pos` for its seat to move. The thought's score is that seat's utility
    /// (the evaluator's unit), never marked exact.
    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String> {
        let started = Instant::now();
        let limits = &limits.for_move();
        let mut progress = self.on_iteration.take();
        let r = self.run(pos, limits, |i| {
            if let Some(f) = progress.as_mut() {
                f(i);
            }
        });
        self.on_iteration = progress;
        let r = r?;
        Ok(Thought {
            best_move: r.best_move,
            score: r.score,
            exact: false,
            depth: r.depth,
            nodes: r.nodes,
            elapsed: started.elapsed(),
            pv: r.pv,
            unit: self.unit,
        })
    }
}
