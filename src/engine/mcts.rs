//! The MCTS engine: [`crate::search::mcts`] behind the [`Player`] interface, plus playout
//! policies for the games that have one.

use std::time::Instant;

use rand::RngExt;
use rand::rngs::StdRng;

use super::{Player, Thought};
use crate::game::Game;
use crate::search::Limits;
use crate::search::mcts::{
    MctsConfig, PlayoutPolicy, Proven, Retained, UniformPlayout, mcts_reusing,
};

/// Unit of MCTS scores when rewards are places: the mean reward of the chosen move for the
/// side to move, x 1000 (1000 = sure win, 500 = even / draw, 0 = sure loss).
pub const MCTS_UNIT: &str = "win-probability x 1000";

/// Unit of MCTS scores when rewards are score margins ([`crate::search::mcts::RewardMode::Margin`],
/// Talat): the mean margin reward x 1000 (500 = level with the best opponent).
pub const MCTS_MARGIN_UNIT: &str = "margin-reward x 1000";

/// Iterations per move when neither the engine nor the limits set any budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// Monte-Carlo tree search engine with playout policy `P`. With one thread it keeps its tree
/// between moves and starts the next search from the subtree of the position reached
/// (unless [`MctsEngine::with_reuse`] turns that off); [`Player::new_game`] drops it.
pub struct MctsEngine<G: Game, P: PlayoutPolicy<G> = UniformPlayout> {
    name: String,
    cfg: MctsConfig,
    policy: P,
    reuse: bool,
    kept: Option<Retained<G>>,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> MctsEngine<G, UniformPlayout> {
    /// An engine with uniformly random playouts.
    #[must_use]
    pub fn new(name: impl Into<String>, cfg: MctsConfig) -> Self {
        Self::with_policy(name, cfg, UniformPlayout)
    }
}

impl<G: Game, P: PlayoutPolicy<G>> MctsEngine<G, P> {
    /// An engine with playout policy `policy`.
    #[must_use]
    pub fn with_policy(name: impl Into<String>, cfg: MctsConfig, policy: P) -> Self {
        Self {
            name: name.into(),
            cfg,
            policy,
            reuse: true,
            kept: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Whether to reuse the tree between moves (default on; only with one thread).
    #[must_use]
    pub fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self.kept = None;
        self
    }

    /// Nodes of the tree kept from the last search (0 when none is kept).
    #[must_use]
    pub fn kept_nodes(&self) -> usize {
        self.kept.as_ref().map_or(0, Retained::len)
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.cfg
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Player<G> for MctsEngine<G, P> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.kept = None;
    }

    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String> {
        let started = Instant::now();
        let limits = &limits.for_move();
        let mut cfg = self.cfg.clone();
        if cfg.iterations.is_none()
            && limits.nodes.is_none()
            && limits.time_ms.is_none()
            && limits.stop.is_none()
        {
            cfg.iterations = Some(DEFAULT_ITERATIONS);
        }
        if !self.reuse {
            self.kept = None;
        }
        let r = mcts_reusing(pos, &cfg, &self.policy, limits, &mut self.kept);
        if !self.reuse {
            self.kept = None;
        }
        let score = match r.proven {
            Some(Proven::Win) => 1000,
            Some(Proven::Draw) => 500,
            Some(Proven::Loss) => 0,
            None => (r.value * 1000.0).round() as i32,
        };
        Ok(Thought {
            best_move: r.best_move,
            score,
            exact: r.proven.is_some(),
            depth: r.depth,
            nodes: r.iterations,
            elapsed: started.elapsed(),
            pv: r.pv,
            unit: match self.cfg.reward {
                crate::search::mcts::RewardMode::Margin { .. } => MCTS_MARGIN_UNIT,
                crate::search::mcts::RewardMode::Place => MCTS_UNIT,
            },
        })
    }
}

/// Othello playouts: a corner when one is legal (chosen at random among them), else a
/// uniformly random move.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthelloCornersFirst;

impl PlayoutPolicy<crate::games::othello::Position> for OthelloCornersFirst {
    fn pick(
        &self,
        _pos: &crate::games::othello::Position,
        moves: &[crate::games::othello::Move],
        rng: &mut StdRng,
    ) -> usize {
        const CORNERS: u64 = 0x8100_0000_0000_0081;
        let mut corners = [0usize; 4];
        let mut n = 0;
        for (i, m) in moves.iter().enumerate() {
            if m.square().is_some_and(|sq| CORNERS >> sq.index() & 1 == 1) {
                corners[n] = i;
                n += 1;
            }
        }
        if n > 0 {
            corners[rng.random_range(0..n)]
        } else {
            rng.random_range(0..moves.len())
        }
    }
}
