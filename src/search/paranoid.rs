//! Paranoid search (Sturtevant & Korf, "On pruning techniques for multi-player games",
//! AAAI 2000): the root seat maximises its own utility and assumes every other seat plays
//! to minimise it, which turns an n-seat game into a two-sided one that alpha-beta prunes
//! as well as a two-player game.
//!
//! This module also holds the two-sided alpha-beta these searches share with best-reply
//! search ([`super::brs`](mod@super::brs)): they differ only in the children of a MIN node (paranoid: the
//! moves of the seat to move; BRS: every opponent's moves). Fail-soft alpha-beta with
//! iterative deepening, a transposition table (keys salted by algorithm and root seat,
//! scores = the root seat's utility), the table move first, then killers/history and the
//! evaluator's [`SeatEvaluator::move_order`].
//!
//! Table cut-offs need an entry of exactly the remaining depth (not "at least"): the value
//! returned is then the fixed-depth value, independent of what the table held, which is
//! what the tests check against plain minimax.

use super::brs_moves::{brs_after, brs_branch, plus_after, plus_branch};
use super::multi::{
    Core, Iterative, MAX_CHILDREN, MultiAlgo, at_ply, deepen, from_tt, select, table_key, to_tt,
};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{INFINITY, Limits, MAX_PLY, Score, SearchInfo, SearchResult, SeatEvaluator};
use crate::game::{Game, MAX_SEATS, MoveCode, Seat};

/// The shared two-sided searcher: MAX nodes where the root seat moves, MIN nodes elsewhere.
pub(crate) struct TwoSided<'a, G: Game, E: SeatEvaluator<G>> {
    pub eval: &'a E,
    pub tt: &'a TranspositionTable,
    pub algo: MultiAlgo,
    pub root: Seat,
    pub seats: usize,
    pub root_pos: G,
    pub core: Core<G::Move>,
}

impl<G: Game, E: SeatEvaluator<G>> TwoSided<'_, G, E> {
    /// The root seat's utility of `pos` searched `depth` plies deep within `(alpha, beta)`
    /// (fail-soft: outside the window the value is a bound on the true one).
    pub fn value(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        if self.core.enter(ply) {
            return 0;
        }
        let mut own = G::Moves::default();
        pos.generate_moves(&mut own);
        if own.is_empty() {
            let outcome = pos.outcome().expect("a position without moves is finished");
            return at_ply(self.eval.terminal_seats(pos, &outcome)[self.root], ply);
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.eval.evaluate_seats(pos)[self.root];
        }
        let maximize = pos.to_move() == self.root;
        let key = table_key(pos.key(), self.algo, self.root);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if ply > 0 && u32::from(e.depth) == depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Children: (seat that moves, move). At a BRS MIN node, every opponent's moves,
        // each played from that opponent's branch position.
        let mut children = [(0u8, G::Move::default()); MAX_CHILDREN];
        let mut n = 0;
        let mut branch: [Option<G>; MAX_SEATS] = Default::default();
        let merged = !maximize && self.algo != MultiAlgo::Paranoid;
        if merged {
            let mut moves = G::Moves::default();
            for s in 0..self.seats as u8 {
                let seat = Seat(s);
                if seat == self.root {
                    continue;
                }
                let b = if self.algo == MultiAlgo::Brs {
                    brs_branch(pos, seat)
                } else {
                    plus_branch(self.eval, pos, seat, self.root)
                };
                if let Some(b) = b {
                    b.generate_moves(&mut moves);
                    for &m in moves.iter() {
                        assert!(n < MAX_CHILDREN, "more than {MAX_CHILDREN} children");
                        children[n] = (s, m);
                        n += 1;
                    }
                    branch[seat.index()] = Some(b);
                }
            }
        } else {
            let s = pos.to_move().0;
            for &m in own.iter() {
                assert!(n < MAX_CHILDREN, "more than {MAX_CHILDREN} children");
                children[n] = (s, m);
                n += 1;
            }
        }
        let children = &mut children[..n];

        let mut keys = [0i32; MAX_CHILDREN];
        let keys = &mut keys[..n];
        for (k, &(s, m)) in keys.iter_mut().zip(children.iter()) {
            let code = m.code();
            let from = branch[usize::from(s)].as_ref().unwrap_or(pos);
            *k = if Some(code) == tt_move {
                i32::MAX
            } else {
                self.core
                    .ordering
                    .score(ply, code)
                    .saturating_add(self.eval.move_order(from, m))
            };
        }

        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximize { -INFINITY } else { INFINITY };
        let mut best_move = children[0].1;
        for i in 0..n {
            select(keys, children, i);
            let (s, m) = children[i];
            let child = if merged {
                let b = branch[usize::from(s)]
                    .as_ref()
                    .expect("a branch per replying seat");
                let q = b.play(m);
                if self.algo == MultiAlgo::Brs {
                    brs_after(q, self.root)
                } else {
                    plus_after(self.eval, q, self.root)
                }
            } else {
                pos.play(m)
            };
            let v = self.value(&child, depth - 1, ply + 1, alpha, beta);
            if self.core.clock.stopped() {
                return 0;
            }
            let improves = if maximize { v > best } else { v < best };
            if improves {
                best = v;
                best_move = m;
                let inside = if maximize { v > alpha } else { v < beta };
                if inside {
                    if maximize {
                        alpha = v;
                    } else {
                        beta = v;
                    }
                    self.core.set_pv(ply, m);
                }
                if alpha >= beta {
                    self.core.ordering.cutoff(ply, m.code(), depth);
                    break;
                }
            }
        }
        let bound = if best >= beta0 {
            Bound::Lower
        } else if best <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            Entry {
                mv: Some(best_move.code()),
                score: to_tt(best, ply),
                depth: depth.min(255) as u8,
                bound,
            },
        );
        best
    }
}

impl<G: Game, E: SeatEvaluator<G>> Iterative<G::Move> for TwoSided<'_, G, E> {
    type Extra = ();
    fn core(&mut self) -> &mut Core<G::Move> {
        &mut self.core
    }
    fn iteration(&mut self, depth: u32) -> (Score, ()) {
        let pos = self.root_pos.clone();
        (self.value(&pos, depth, 0, -INFINITY, INFINITY), ())
    }
}

/// Runs the two-sided search `algo` (paranoid, BRS or BRS+) from `pos` for its seat to move.
pub(crate) fn run_two_sided<G: Game, E: SeatEvaluator<G>>(
    algo: MultiAlgo,
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let root = pos.to_move();
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        let score = pos
            .outcome()
            .map_or(0, |o| eval.terminal_seats(pos, &o)[root]);
        return SearchResult {
            best_move: None,
            score,
            depth: 0,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            pv: Vec::new(),
        };
    }
    tt.new_search();
    let mut s = TwoSided {
        eval,
        tt,
        algo,
        root,
        seats: pos.seats(),
        root_pos: pos.clone(),
        core: Core::new(limits, G::MOVE_CODES),
    };
    deepen(&mut s, limits, moves[0], true, on_iteration).0
}

/// Paranoid alpha-beta from `pos` for its seat to move (the root seat) within `limits`,
/// calling `on_iteration` after each finished depth.
///
/// Scores are the root seat's utility ([`SeatEvaluator`] entry of the root seat, in the
/// evaluator's unit); a forced win `n` plies away scores `WIN - n`. The best move and PV
/// come from the last finished iteration. `tt` may be shared between searches, seats and
/// algorithms (keys are salted by both); for two seats this is ordinary alpha-beta and
/// returns the value [`super::search`] returns for the same utilities.
pub fn paranoid<G: Game, E: SeatEvaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    run_two_sided(MultiAlgo::Paranoid, pos, eval, tt, limits, on_iteration)
}
