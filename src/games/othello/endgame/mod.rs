//! The exact endgame solver: searches to the end of the game on the final disc difference
//! (empties to the winner), Edax style.
//!
//! - Many empties ([`TT_MIN_EMPTIES`] and up): PVS with the transposition table, a
//!   stability cut-off (down to 4 empties), fastest-first ordering (the move that leaves the opponent the fewest
//!   moves, corners counted twice, then the mover's corner-anchored discs, parity and potential
//!   mobility), from 11 empties
//!   enhanced transposition cut-off (children found in the table searched earlier), from
//!   14 the midgame evaluation in the ordering (by default the shipped pattern evaluation).
//! - Middle ([`SHALLOW_EMPTIES`] + 1 up): null windows, the same ordering, no table.
//! - Few empties: no move generation; the empty squares are tried directly, those in
//!   quadrants with an odd number of empties first (parity), down to a dedicated
//!   last-empty count.
//! - Root, from [`LADDER_MIN_EMPTIES`] up: selective passes first ([`SELECTIVITY`]: ProbCut
//!   at 73 %, 87 % and 95 % confidence), each giving the next its guess for the aspiration
//!   window and its best move, and leaving best moves in the table for the exact pass
//!   (Edax's selectivity ladder). Selective results are kept in the table apart from exact
//!   ones and never cut off a more exact pass.
//!
//! Scores are disc differences from the side to move's view, in `-64..=64`.
//!
//! Modules: `last` (the last empties without move generation), `last_flip` (the last
//! empty's flip count), `nws` (the null-window search below the table), `order` (move ordering and
//! the ordering searches), `stability_cut`, `ladder` (the selective passes), `parallel`
//! (the split search), `root` (the root, aspiration and PV), `hash` (table keys), `visit`
//! (the few-empties search's square order as a bit order).

pub mod cost;
mod hash;
mod ladder;
mod last;
mod last_flip;
mod nws;
mod order;
mod parallel;
mod parity;
mod root;
mod stability_cut;
mod table;
mod visit;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use smallvec::SmallVec;

pub use hash::hash;
pub use ladder::{LADDER_MIN_EMPTIES, SELECTIVITY};
pub use parallel::SPLIT_MIN_EMPTIES;

use super::eval::Eval;
use super::movegen::{flips, legal_moves};
use super::patterns::PatternIndices;
use super::position::{Move, Position, final_score};
use crate::search::tt::TranspositionTable;
use crate::search::{Clock, ExactSolver, Limits, SearchResult, Unsolved};
use ladder::{MPC_MIN_EMPTIES, tt_usable};
use order::{
    EVAL_ORDER_EMPTIES, SORT_ALPHA_DELTA, child_view, order_key, order_key_with_moves, sort_depth,
};
use parallel::{AbortFlag, YOUNG_BROTHERS};
use parity::{odd_quadrants, parity_of};
use stability_cut::{STABILITY_THRESHOLD, stability_cap};

/// From this many empties up, nodes probe and store the transposition table. On FFO
/// #40-#44 and #47 (1 thread, load ~3.4, min of 2 runs): 131.2 M nodes and 10.49 user
/// CPU-s from 11, 123.2 M and 10.11 s from 10, 116.6 M and 10.24 s from 9.
pub const TT_MIN_EMPTIES: u32 = 10;
/// At or below this many empties, the parity-ordered search without move generation runs.
pub const SHALLOW_EMPTIES: u32 = 6;
/// From this many empties up, children are probed in the table before the search
/// (enhanced transposition cut-off). Measured on FFO #40-#42: about 3 % fewer nodes at 14;
/// on FFO #40-#44 and #47, 123.1 M nodes from 14, 120.2 M from 12 (fewer on each of the
/// six), 118.0 M from 10 but more CPU-s (the probes of children at 10-11 empties miss the
/// cache). FFO #40-#49 (1 thread) without [`TABLE_CHILD_BONUS`]: 599.7 M nodes from 12,
/// 588.3 M from 11, 603.3 M from 13, 615.9 M from 14; with it (the probe's answer also
/// orders the children) 583.6 M from 12 -> 572.7 M from 11, fewer on each of the ten.
const ETC_MIN_EMPTIES: u32 = 11;
/// Ordering-key bonus (subtracted: searched earlier) of a child that the enhanced
/// transposition cut-off's probe finds in the table, whatever its bounds: a child searched
/// before (by a selective pass, or through a transposition) is a move some search thought
/// worth going into (Edax's `w_hash`). Worth 6 discs of the evaluation key from
/// [`EVAL_ORDER_EMPTIES`] up; below, about 9 moves of the fastest-first key (64 each), so
/// such children go first. FFO #40-#49 (1 thread, ETC from 12): 599.68 M nodes -> 583.6 M
/// (-2.7 %; #49 222.5 -> 208.1 M, #43 46.7 -> 45.1 M, #47 12.50 -> 12.65 M); 200: 599.6 M,
/// 400: 584.7 M, 1000: 584.8 M, 2000: 589.3 M. Measured and not kept: a bonus or a malus
/// by the child's bounds against alpha on top (300: 584.7 M, 1500: 600.0 M); a second
/// best move kept in the entry and searched second (Edax's two moves): 599.9 M against
/// 599.7 M without the bonus, 583.8 M against 583.6 M with it.
const TABLE_CHILD_BONUS: i32 = 600;
const INF: i32 = 1 << 20;

/// Result of an exact solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Exact final disc difference for the side to move (empties to the winner);
    /// `None` if a limit stopped the solve first.
    pub score: Option<i32>,
    /// A best move (the pass when forced; `None` if the game is over or unsolved).
    pub best_move: Option<Move>,
    /// Principal variation (from the transposition table), best move first.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The finished root passes, in order: the selective ones of the ladder (from
    /// [`LADDER_MIN_EMPTIES`] empties up), then the exact one.
    pub passes: Vec<Pass>,
}

/// One finished pass of a solve at the root: a selective pass of the ladder or the exact one
/// (Edax's `depth@probability` lines).
#[derive(Clone, Debug)]
pub struct Pass {
    /// Depth of the pass: the empties, searched to the end of the game.
    pub depth: u32,
    /// Confidence of the pass in percent: ProbCut's for a selective pass ([`SELECTIVITY`]),
    /// 100 for the exact one.
    pub probability: u32,
    /// Score found (discs, side to move's view); exact only when `probability` is 100.
    pub score: i32,
    /// Best move found.
    pub best_move: Move,
    /// Nodes of the solve up to the end of this pass.
    pub nodes: u64,
    /// Wall-clock seconds from the start of the solve to the end of this pass.
    pub seconds: f64,
}

/// Called with each finished root pass of a solve (see [`Solver::with_progress`]).
pub type PassCallback<'a> = &'a mut (dyn FnMut(&Pass) + Send + Sync);

/// The endgame solver; holds the node count and the stop clock of one solve.
///
/// With [`Solver::with_threads`] above 1 the solve is parallel (Young Brothers Wait: a node
/// with at least [`SPLIT_MIN_EMPTIES`] empties searches its first two children alone (the
/// root its first), then the others on all threads of a rayon pool, each thread taking
/// the next child from a shared cursor, sharing the transposition table, the current
/// alpha and an abort flag set by a beta cut-off).
pub struct Solver<'a> {
    /// Selectivity level of the current pass: 0 is exact, above 0 a ProbCut pass
    /// ([`SELECTIVITY`]).
    level: u32,
    eval: Eval,
    tt: &'a TranspositionTable,
    clock: Clock,
    nodes: u64,
    threads: usize,
    /// Abort flag of the innermost parallel split this (helper) solver searches under,
    /// linked to the enclosing splits' flags (`None` outside any split).
    aborts: Option<Arc<AbortFlag>>,
    /// Told of each finished root pass (`None` for helpers and by default).
    progress: Option<PassCallback<'a>>,
}

impl<'a> Solver<'a> {
    /// A solver using `tt` and stopping at `limits` (depth is ignored), ordering moves
    /// with the shipped pattern evaluation ([`super::patterns::shipped`]): on FFO #40-#44
    /// 131 M nodes against 293 M with the baseline evaluation.
    #[must_use]
    pub fn new(tt: &'a TranspositionTable, limits: &Limits) -> Self {
        Self::with_eval(tt, limits, Eval::with_patterns(super::patterns::shipped()))
    }

    /// A solver that orders moves with `eval` (the value is exact whatever it is).
    #[must_use]
    pub fn with_eval(tt: &'a TranspositionTable, limits: &Limits, eval: Eval) -> Self {
        Self {
            level: 0,
            eval,
            tt,
            clock: Clock::start(limits),
            nodes: 0,
            threads: 1,
            aborts: None,
            progress: None,
        }
    }

    /// The same solver calling `progress` with each root pass as it finishes (the
    /// passes are also in [`Solution::passes`]).
    #[must_use]
    pub fn with_progress(mut self, progress: PassCallback<'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    /// The same solver searching on `threads` threads (at least 1; 1 is sequential).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Whether the search must stop now (a limit, or the innermost enclosing split was cut
    /// off); counts as a clock check. Called at every node, so it reads only the innermost
    /// split's flag; a cut-off of an outer split is seen by [`Solver::halted`], which
    /// `search` calls after each child (within one child of 9 or fewer empties).
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.clock.should_stop(self.nodes)
            || self
                .aborts
                .as_deref()
                .is_some_and(|f| f.cut.load(Ordering::Relaxed))
    }

    /// Whether a limit stopped the search or an enclosing split was cut off: the values
    /// being computed are then meaningless and must not be stored.
    #[inline]
    fn halted(&self) -> bool {
        self.clock.stopped() || self.aborted()
    }

    #[inline]
    fn aborted(&self) -> bool {
        let mut flag = self.aborts.as_deref();
        while let Some(f) = flag {
            if f.cut.load(Ordering::Relaxed) {
                return true;
            }
            flag = f.parent.as_deref();
        }
        false
    }

    /// Nodes searched so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Fastest-first search with move generation; uses the table from
    /// [`TT_MIN_EMPTIES`] up.
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
        let empty = !(p | o);
        let n_empty = empty.count_ones();
        if n_empty <= SHALLOW_EMPTIES {
            return self.search_shallow(p, o, alpha, beta, n_empty, parity_of(empty));
        }
        if n_empty < TT_MIN_EMPTIES && beta == alpha + 1 {
            return self.nws_below_tt(p, o, alpha, n_empty);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) != 0 {
                return -self.search(o, p, -beta, -alpha);
            }
            return final_score(p, o);
        }

        // Stability cut-off: the opponent's stable discs cap our final score. Only worth
        // computing when alpha is high enough for a few stable discs to matter.
        if alpha >= STABILITY_THRESHOLD[n_empty as usize]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }

        let use_tt = n_empty >= TT_MIN_EMPTIES;
        let key = if use_tt { hash(p, o) } else { 0 };
        let mut tt_move = 64usize;
        let mut beta = beta;
        if use_tt && let Some(e) = self.tt_probe(key) {
            tt_move = e.mv;
            if tt_usable(e.depth, self.level) {
                if e.lower >= beta || e.lower == e.upper {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }

        // Selective passes: ProbCut on a shallow search of the node.
        if self.level > 0
            && n_empty >= MPC_MIN_EMPTIES
            && let Some(v) = self.probcut(p, o, alpha, beta, n_empty)
        {
            return v;
        }

        // The window actually searched (after the table narrowed it) decides the bound type.
        let alpha0 = alpha;
        let mut best = -65;
        let mut best_sq = 64usize;

        // The table's move first, before the others are generated and ordered: when it
        // cuts off, their ordering (mobility, evaluation) is never paid for. Measured on
        // FFO #40-#44 (1 thread, A,B,A,B under load 4): 121.0 M -> 120.8 M nodes, 10.75 ->
        // 10.19 user CPU-s (min of 2).
        let mut searched = 0;
        if tt_move < 64 && moves >> tt_move & 1 == 1 {
            let f = flips(p, o, tt_move);
            let v = -self.search(o ^ f, p ^ f ^ (1 << tt_move), -beta, -alpha);
            if self.halted() {
                return 0;
            }
            best = v;
            best_sq = tt_move;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    self.tt_store(key, n_empty, (alpha0, beta), best, best_sq);
                    return best;
                }
            }
            searched = 1;
        }

        // Generate children with their ordering keys (lower = searched first).
        let odd = odd_quadrants(empty);
        let mut list = [(0i32, 0u8, 0u64); 32];
        let mut n = 0;
        let mut bits = moves;
        if searched == 1 {
            bits &= !(1u64 << tt_move);
        }
        // Enhanced transposition cut-off probes every child: their table lines are
        // prefetched first, so that the probes wait on memory once rather than child after
        // child (each child's ordering search runs between two probes).
        let etc = n_empty >= ETC_MIN_EMPTIES;
        // Each child's ordering search starts from this node's pattern indices.
        let eval_depth = sort_depth(n_empty);
        let view = if n_empty >= EVAL_ORDER_EMPTIES {
            self.ordering_view(p, o, eval_depth + 1)
        } else {
            PatternIndices::default()
        };
        let mut children = [(0u8, 0u64, 0u64); 32];
        let mut n_children = 0;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let f = flips(p, o, sq);
            let child_key = if etc {
                let k = hash(o ^ f, p ^ f ^ (1 << sq));
                self.tt.prefetch(k);
                k
            } else {
                0
            };
            children[n_children] = (sq as u8, f, child_key);
            n_children += 1;
        }
        for &(sq, f, child_key) in &children[..n_children] {
            let sq = sq as usize;
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            // Enhanced transposition cut-off: a child already proven good enough for us;
            // any other child found in the table is ordered earlier.
            let mut bonus = 0;
            if etc && let Some(e) = self.tt_probe(child_key) {
                if tt_usable(e.depth, self.level) && -e.upper >= beta {
                    return -e.upper;
                }
                bonus = TABLE_CHILD_BONUS;
            }
            let key = if sq == tt_move {
                i32::MIN
            } else {
                if n_empty >= EVAL_ORDER_EMPTIES {
                    // Deep nodes are few and costly: order them by the midgame evaluation
                    // of the child (the opponent's view: lower is better for us).
                    // The child's moves serve its ordering search and its key.
                    // Only moves near alpha need a precise value: the child's search
                    // (at least one ply: `sort_depth`) may cut once it refutes ours by
                    // SORT_ALPHA_DELTA.
                    let cm = legal_moves(cp, co);
                    let hi = -100 * (alpha - SORT_ALPHA_DELTA);
                    let cview = child_view(&view, eval_depth + 1, sq, f);
                    let v = self.shallow_value_with_moves(cp, co, &cview, cm, eval_depth, -INF, hi);
                    v + order_key_with_moves(cm, cp, co, sq, odd) * 4 - bonus
                } else {
                    order_key(cp, co, sq, odd) - bonus
                }
            };
            list[n] = (key, sq as u8, f);
            n += 1;
        }

        if self.halted() {
            return 0;
        }
        let split = self.threads > 1 && n_empty >= SPLIT_MIN_EMPTIES;
        for i in 0..n {
            if i + searched == YOUNG_BROTHERS && split {
                list[i..n].sort_unstable_by_key(|m| m.0);
                let rest: SmallVec<[(u8, u64); 32]> =
                    list[i..n].iter().map(|&(_, sq, f)| (sq, f)).collect();
                (best, best_sq) = self.split(p, o, &rest, (alpha, beta), (best, best_sq));
                if self.halted() {
                    return 0;
                }
                break;
            }
            let mut j = i;
            for k in i + 1..n {
                if list[k].0 < list[j].0 {
                    j = k;
                }
            }
            list.swap(i, j);
            let (_, sq, f) = list[i];
            let sq = sq as usize;
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            let v = if i + searched == 0 {
                -self.search(cp, co, -beta, -alpha)
            } else {
                let v = -self.search(cp, co, -alpha - 1, -alpha);
                if v > alpha && v < beta {
                    -self.search(cp, co, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.halted() {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_tt {
            self.tt_store(key, n_empty, (alpha0, beta), best, best_sq);
        }
        best
    }

    /// Exact value of `pos` within the window (`alpha`, `beta`): fail-soft, so a result
    /// `<= alpha` is an upper bound and `>= beta` a lower bound.
    pub fn solve_window(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        self.search(pos.player(), pos.opponent(), alpha, beta)
    }
}

/// The solver as the alpha-beta engine's [`ExactSolver`] hook: positions with at most
/// `max_empties` empty squares are solved exactly; scores in centi-discs.
///
/// The solver orders its moves as [`Solver::new`] does (the shipped pattern evaluation),
/// whatever evaluation the engine plays with: the value is exact either way, and the
/// ordering is the solver's own concern. Measured on FFO #40 (20 empties): `bestmove othello
/// --ffo 40 --time-ms 120000` 6.48 M nodes, of which the solve is the 6.26 M of `tessera
/// solve` and the rest the engine's depth-10 quick search.
#[derive(Clone, Debug)]
pub struct ExactBelow {
    /// Largest number of empties solved exactly.
    pub max_empties: u32,
    /// Threads of each solve (1: sequential; see [`Solver::with_threads`]).
    pub threads: usize,
}

/// Deepest iteration of the engine's quick midgame search before a budgeted solve, as a
/// fraction of the empties: half. On FFO #40 (20 empties) depth 10 takes about 0.2 s,
/// while an unlimited quarter of a 120 s budget went to depth 17+ in 22 s before a 1 s
/// solve.
const QUICK_DEPTH_DIVISOR: u32 = 2;

impl ExactSolver<Position> for ExactBelow {
    fn applies(&self, pos: &Position) -> bool {
        pos.empties() <= self.max_empties
    }

    fn plies_to_end(&self, pos: &Position) -> u32 {
        pos.empties()
    }

    fn quick_depth(&self, pos: &Position) -> Option<u32> {
        Some((pos.empties() / QUICK_DEPTH_DIVISOR).max(1))
    }

    fn solve_cost(&self, pos: &Position) -> Option<crate::search::SolveCost> {
        Some(cost::solve_cost(pos))
    }

    fn timed_moves_left(&self, pos: &Position) -> Option<u32> {
        Some(cost::timed_moves_left(pos.empties()))
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    fn solve(
        &self,
        pos: &Position,
        tt: &TranspositionTable,
        limits: &Limits,
    ) -> Result<SearchResult<Move>, Unsolved<Move>> {
        let mut solver = Solver::new(tt, limits).with_threads(self.threads);
        let sol = solver.solve(pos);
        let elapsed = std::time::Duration::from_secs_f64(sol.seconds);
        let Some(score) = sol.score else {
            // The deepest selective pass that finished (the ladder's passes are in
            // increasing confidence), as a best move short of exact.
            let partial = sol.passes.last().map(|p| SearchResult {
                best_move: Some(p.best_move),
                score: 100 * p.score,
                depth: pos.empties(),
                nodes: sol.nodes,
                elapsed,
                pv: vec![p.best_move],
            });
            return Err(Unsolved {
                nodes: sol.nodes,
                partial,
            });
        };
        Ok(SearchResult {
            best_move: sol.best_move,
            score: 100 * score,
            depth: pos.empties(),
            nodes: sol.nodes,
            elapsed,
            pv: sol.pv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Plain minimax to the end over the Game trait: the reference.
    pub(super) fn minimax(pos: &Position) -> i32 {
        let mut moves = <Position as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return pos.final_disc_difference();
        }
        moves
            .iter()
            .map(|&m| {
                let c = pos.play(m);
                -minimax(&c)
            })
            .max()
            .unwrap()
    }

    /// Random positions with `empties` empty squares, played from the start by a xorshift
    /// walk seeded with `seed`.
    pub(super) fn random_endgames(mut seed: u64, empties: u32, count: usize) -> Vec<Position> {
        random_endgames_from(&mut seed, empties, count)
    }

    /// As [`random_endgames`], continuing the xorshift state `seed` (left where the walk ended).
    pub(super) fn random_endgames_from(
        seed: &mut u64,
        empties: u32,
        count: usize,
    ) -> Vec<Position> {
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::start();
            while pos.empties() > empties {
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                pos = pos.play(moves[(*seed % moves.len() as u64) as usize]);
            }
            if pos.empties() == empties && pos.outcome().is_none() {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn solver_matches_minimax_on_small_endgames() {
        let tt = TranspositionTable::new(4);
        let mut seed = 0xABCD_EF01_2345_6789u64;
        let mut checked = 0;
        while checked < 300 {
            let target = 1 + (checked % 8) as u32;
            let mut pos = Position::start();
            while pos.empties() > target {
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
            }
            let sol = Solver::new(&tt, &Limits::default()).solve(&pos);
            assert_eq!(sol.score, Some(minimax(&pos)), "{pos}");
            if let Some(m) = sol.best_move {
                assert_eq!(
                    -minimax(&pos.play(m)),
                    minimax(&pos),
                    "best move {m} in {pos}"
                );
            }
            checked += 1;
        }
    }

    /// The principal variation runs to the end of the game (passes included) and playing
    /// it out gives the solved score, below the table (6-9 empties) and through it
    /// (12-16 empties: table moves first, then solved children).
    #[test]
    fn principal_variation_plays_out_to_the_solved_score() {
        for empties in [6, 9, 12, 16] {
            for pos in random_endgames(0x9E37_79B9 + u64::from(empties), empties, 6) {
                let tt = TranspositionTable::new(4);
                let sol = Solver::new(&tt, &Limits::default()).solve(&pos);
                let score = sol.score.unwrap();
                let mut cur = pos;
                let mut sign = 1;
                for &m in &sol.pv {
                    assert!(cur.is_legal(m), "{m} in {cur} (pv of {pos})");
                    cur = if m.is_pass() { cur.pass() } else { cur.play(m) };
                    sign = -sign;
                }
                assert!(
                    cur.outcome().is_some(),
                    "pv of {pos} stops before the end at {cur}"
                );
                assert_eq!(sign * cur.final_disc_difference(), score, "pv of {pos}");
            }
        }
    }
}
