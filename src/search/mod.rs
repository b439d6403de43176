//! Game-agnostic search. It sees positions only through [`crate::game::Game`] and scores
//! them only through an [`Evaluator`] (two sides: [`alphabeta`], [`mcts`]) or a
//! [`SeatEvaluator`] (more than two sides: [`paranoid`](paranoid()), [`maxn`](maxn()),
//! [`brs`](brs()) and [`brs_plus`], sharing [`multi`]).
//!
//! # Example: search a position
//!
//! Alpha-beta to depth 8 on the Othello position after f5 d6 c3, with the baseline
//! evaluation (scores in centi-discs for the side to move), one line per iteration:
//!
//! ```
//! use tessera::game::Game;
//! use tessera::games::othello::{Position, eval::Eval};
//! use tessera::search::{Limits, TranspositionTable, search};
//!
//! let mut pos = Position::start();
//! for mv in ["f5", "d6", "c3"] {
//!     pos = pos.play(pos.parse_move(mv).map_err(|e| e.to_string())?);
//! }
//! let tt = TranspositionTable::new(16); // MiB
//! let result = search(&pos, &Eval::default(), &tt, &Limits::depth(8), |info| {
//!     println!("depth {} score {} nodes {}", info.depth, info.score, info.nodes);
//! });
//! let best = result.best_move.expect("the position has moves");
//! assert!(pos.is_legal(best));
//! assert_eq!(result.depth, 8);
//! println!("best {best}, score {}, pv {:?}", result.score, result.pv);
//! # Ok::<(), String>(())
//! ```

pub mod alphabeta;
pub mod brs;
mod brs_moves;
pub mod busy;
pub mod limits;
pub mod maxn;
pub mod mcts;
mod mcts_common;
mod mcts_tree_parallel;
pub mod multi;
pub mod ordering;
pub mod paranoid;
pub mod time;
pub mod tt;
mod zeroed;

pub use alphabeta::{SearchInfo, SearchResult, search, search_threads};
pub use brs::{brs, brs_plus};
pub use limits::{Clock, Limits};
pub use maxn::{MaxnResult, SumBound, maxn};
#[doc(hidden)]
pub use mcts_tree_parallel::{HOT_VISITS, check_flushed_statistics};
pub use multi::{MultiAlgo, Unsupported};
pub use paranoid::paranoid;
pub use time::GameClock;
pub use tt::TranspositionTable;

use crate::game::{BySeat, Game, Outcome};

/// A score from the side to move's (team's) view, in the evaluator's unit
/// (Othello: centi-discs).
pub type Score = i32;

/// Larger than any score.
pub const INFINITY: Score = 32_000;
/// A won game found `n` plies from the root scores `WIN - n`: scores at or above
/// [`WIN_MIN`] (or at or below `-WIN_MIN`) are forced wins (losses) in a known number of
/// plies. Evaluators that report only win/loss (Quixo) return `WIN`/`-WIN` from
/// [`Evaluator::terminal`]; evaluators with a margin (Othello) stay below `WIN_MIN`.
pub const WIN: Score = 31_000;
/// Threshold of forced-win scores (see [`WIN`]).
pub const WIN_MIN: Score = WIN - 1_000;

/// Deepest ply a search may reach (root = 0).
pub const MAX_PLY: usize = 128;

/// Scores positions for the search.
pub trait Evaluator<G: Game>: Send + Sync {
    /// Static score of a position that is not finished, for the side to move's team,
    /// in this evaluator's unit; must stay within `(-WIN_MIN, WIN_MIN)`.
    fn evaluate(&self, pos: &G) -> Score;

    /// Score of a finished game for the side to move's team: a margin in the evaluator's
    /// unit, or `WIN` / `-WIN` / 0 for games scored by result only.
    fn terminal(&self, pos: &G, outcome: &Outcome) -> Score;

    /// A static ordering hint for `mv` in `pos` (higher is tried earlier), used after the
    /// transposition-table move and the killers. Default: none.
    fn move_order(&self, _pos: &G, _mv: G::Move) -> i32 {
        0
    }

    /// Multi-ProbCut at a node of `pos` searched to `depth` plies: the shallow search and
    /// the regression that predicts the deep score from it (see [`ProbCut`]), or `None`
    /// to search the node in full. Default: `None` (no selective search).
    fn probcut(&self, _pos: &G, _depth: u32) -> Option<ProbCut> {
        None
    }
}

/// Multi-ProbCut (Buro 1997, 1999) at one node: a search to `shallow` plies predicts the
/// score of the search to the node's depth as `deep = a * shallow_score + b` with the
/// residual's standard deviation `sigma` (evaluator units), fitted on positions like this
/// one (same depth pair, same game phase). When the shallow score proves, with `margin`
/// (the confidence `t` times `sigma`) to spare, that the deep score is at least beta (at
/// most alpha), the node returns beta (alpha) without the deep search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// Depth of the shallow search, plies; below the node's depth.
    pub shallow: u32,
    /// Slope of the regression deep = a x shallow + b; positive.
    pub a: f32,
    /// Intercept, evaluator units.
    pub b: f32,
    /// Safety margin `t x sigma`, evaluator units: larger cuts less often and errs less.
    pub margin: f32,
}

impl ProbCut {
    /// The shallow score at or above which the deep score is taken to be `>= beta`:
    /// `ceil((beta + margin - b) / a)`.
    #[must_use]
    pub fn high_bound(&self, beta: Score) -> Score {
        ((beta as f32 + self.margin - self.b) / self.a).ceil() as Score
    }

    /// The shallow score at or below which the deep score is taken to be `<= alpha`:
    /// `floor((alpha - margin - b) / a)`.
    #[must_use]
    pub fn low_bound(&self, alpha: Score) -> Score {
        ((alpha as f32 - self.margin - self.b) / self.a).floor() as Score
    }
}

/// Scores positions with one utility per seat, for the multi-player searches (paranoid,
/// max-n, best-reply search) of games with more than two sides (Talat).
///
/// A seat's utility is its (estimated) final score minus the best opponent's, in the
/// evaluator's unit; every value must stay within `(-WIN_MIN, WIN_MIN)` except terminal
/// values of games scored by result only.
pub trait SeatEvaluator<G: Game>: Send + Sync {
    /// Static utilities of a position that is not finished, one per seat
    /// (`len() == pos.seats()`).
    fn evaluate_seats(&self, pos: &G) -> BySeat<Score>;

    /// Utilities of a finished game, one per seat (usually each seat's
    /// [`Outcome::margin`] scaled to the evaluator's unit).
    fn terminal_seats(&self, pos: &G, outcome: &Outcome) -> BySeat<Score>;

    /// A static ordering hint for `mv` in `pos` (higher is tried earlier). Default: none.
    /// BRS+ also uses it to pick the move of the opponents that do not give the best reply
    /// (the highest hint, the first generated among equals).
    fn move_order(&self, _pos: &G, _mv: G::Move) -> i32 {
        0
    }

    /// The bound that lets max-n prune (Korf's shallow pruning): `Some(b)` promises that
    /// every utility vector this evaluator returns (static and terminal) has each entry
    /// `>= b.min_utility` and entries summing to `<= b.max_sum`. Default `None`: max-n
    /// searches without pruning. Margins over the best opponent (score minus the best
    /// other score) always sum to `<= 0`, so `max_sum = 0` with `min_utility` = minus the
    /// largest possible score suits them. A wrong promise makes max-n return wrong values.
    fn sum_bound(&self) -> Option<SumBound> {
        None
    }
}

/// A game-specific exact solver the alpha-beta engine hands positions to when they are
/// small enough (Othello: few empties). The search layer calls it only through this trait.
pub trait ExactSolver<G: Game>: Send + Sync {
    /// Whether `pos` is small enough to solve.
    fn applies(&self, pos: &G) -> bool;

    /// Most plies left to the end of the game from `pos` (Othello: the empties), so a
    /// depth-limited search shorter than that skips the solver.
    fn plies_to_end(&self, pos: &G) -> u32;

    /// Deepest iteration of the quick midgame search that puts a move in hand before a
    /// budgeted solve of `pos` (used only if the solve does not finish); `None` leaves it
    /// limited by its share of the budget alone.
    fn quick_depth(&self, _pos: &G) -> Option<u32> {
        None
    }

    /// Expected cost of solving `pos` (a cost model measured on positions from real games),
    /// for engines that start the solve when its cost fits their budget (Othello's
    /// `exact-empties = "auto"`); `None` when the solver has no model.
    fn solve_cost(&self, _pos: &G) -> Option<SolveCost> {
        None
    }

    /// Moves of the side to move still to play from `pos` that need time, this one
    /// included, for splitting a game clock: Othello counts its moves until the exact solve
    /// is cheap, plus one for that solve. `None`: the engine counts to the end of the game.
    fn timed_moves_left(&self, _pos: &G) -> Option<u32> {
        None
    }

    /// Solves on `threads` threads from now on (at least 1), as the engine's midgame
    /// search does ([`crate::engine::AlphaBetaEngine::with_threads`]); a solver that
    /// cannot search in parallel ignores it.
    fn set_threads(&mut self, _threads: usize) {}

    /// Solves `pos` within `limits` using `tt`. The score is in the evaluator's unit
    /// (Othello: centi-discs, so 100 x the disc difference).
    ///
    /// # Errors
    /// [`Unsolved`] when a limit stopped the solve first: the nodes searched and the
    /// result of the last less exact pass that finished, if any.
    fn solve(
        &self,
        pos: &G,
        tt: &TranspositionTable,
        limits: &Limits,
    ) -> Result<SearchResult<G::Move>, Unsolved<G::Move>>;
}

/// Expected cost of an exact solve, in nodes ([`ExactSolver::solve_cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveCost {
    /// Expected nodes of the whole exact solve (a median: about half the solves take more).
    pub exact: u64,
    /// Expected nodes to the solve's first answer short of exact (Othello: the first
    /// selective pass of the endgame ladder), or `exact` when it has none.
    pub first: u64,
}

/// An exact solve stopped by a limit before it finished.
#[derive(Clone, Debug)]
pub struct Unsolved<M> {
    /// Nodes searched.
    pub nodes: u64,
    /// The last finished pass short of exact (Othello: the deepest selective ProbCut pass
    /// of the endgame ladder, a best move at 73-95 % confidence), if one finished; its
    /// `depth` is the plies to the end and its score not exact.
    pub partial: Option<SearchResult<M>>,
}
