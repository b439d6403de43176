//! The root of a solve: the thread pool, the move order, the selective ladder, the
//! aspiration window and the principal variation.

use super::hash::hash;
use super::ladder::{LADDER_MIN_EMPTIES, SELECTIVITY};
use super::{INF, Pass, Solution, Solver, TT_MIN_EMPTIES};
use crate::games::othello::Square;
use crate::games::othello::movegen::{flips, legal_moves};
use crate::games::othello::position::{Move, Position, final_score};

/// Half-width (discs) of the exact pass's aspiration window around the last selective
/// pass's score: the window (guess - 3 - 1, guess + 3 + 1), so with an even guess the
/// exact values guess - 2, guess and guess + 2 (final scores are even). A bound just
/// above the true value lets the principal variation's subtree cut the opponent's poor
/// replies at once instead of valuing them exactly: on FFO #49 (guess 14, value 16) the
/// window (10, 18) takes 220 M nodes, (12, 20) or (5, 23) 287 M. A guess off by more
/// fails and is searched again with the half-open window, at little cost thanks to the
/// table: #42 (guess 1, value 6) 15.00 -> 15.28 M, #48 (guess 20, value 28) 82.0 ->
/// 82.4 M. The 95 % pass was within 2 discs on 8 of FFO #40-#49. Half-width 8 before
/// (on FFO #40-#44, 293 M nodes against 322 M for a full window, when the solver was
/// slower); 1 (the guess alone) with the same widening: #49 312 M; stepping the window
/// by 2 or 4 discs after a failure instead of opening it: #49 246 M / 312 M, #48 84.8 M.
const EXACT_ASPIRATION_HALF_WIDTH: i32 = 3;

/// A root search window (`lo`, `hi`), exclusive bounds in discs, -65..=65, and the
/// direction it was last widened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) lo: i32,
    pub(super) hi: i32,
    /// +1 after a fail-high opened the upper side, -1 after a fail-low opened the lower.
    widened: i32,
}

impl Window {
    /// The window of half-width `half` discs around `guess`: (guess - half - 1,
    /// guess + half + 1), clamped to the score range.
    pub(super) fn around(guess: i32, half: i32) -> Window {
        Window {
            lo: (guess - half).max(-64) - 1,
            hi: (guess + half).min(64) + 1,
            widened: 0,
        }
    }

    /// The window to search next after a fail-soft result `alpha`, or `None` when
    /// `alpha` lies inside this window (or the window is already full).
    ///
    /// A fail-low opens the lower side, (-65, lo + 1); a fail-high the upper, (hi - 1, 65).
    /// A result that then fails the other way (search instability: the selective ladder's
    /// cuts and table entries from other passes, or from midgame searches sharing the
    /// table, can contradict each other) gets the full window (-65, 65), which cannot
    /// fail: so at most three searches. Before, the two half-open windows could alternate
    /// forever (a tournament game hung at 18 empties).
    pub(super) fn widen(self, alpha: i32) -> Option<Window> {
        let (fail_low, fail_high) = (
            alpha <= self.lo && self.lo > -65,
            alpha >= self.hi && self.hi < 65,
        );
        let dir = if fail_low {
            -1
        } else if fail_high {
            1
        } else {
            return None;
        };
        Some(if self.widened == -dir {
            Window {
                lo: -65,
                hi: 65,
                widened: 2,
            }
        } else if dir < 0 {
            Window {
                lo: -65,
                hi: self.lo + 1,
                widened: -1,
            }
        } else {
            Window {
                lo: self.hi - 1,
                hi: 65,
                widened: 1,
            }
        })
    }
}

impl Solver<'_> {
    /// Solves `pos` exactly: the final disc difference with best play and a best move.
    /// With more than one thread the solve runs in its own rayon pool of that many threads,
    /// entered from a thread of its own: a caller that is itself a rayon worker (a
    /// tournament's game) would otherwise, while it waits for the pool, steal and start
    /// its own pool's other jobs (more games, nested inside this solve).
    pub fn solve(&mut self, pos: &Position) -> Solution {
        if self.threads > 1 {
            match rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build()
            {
                Ok(pool) => {
                    let this = &mut *self;
                    return std::thread::scope(|s| {
                        s.spawn(|| pool.install(|| this.solve_here(pos)))
                            .join()
                            .unwrap_or_else(|e| std::panic::resume_unwind(e))
                    });
                }
                Err(_) => self.threads = 1,
            }
        }
        self.solve_here(pos)
    }

    /// [`Solver::solve`] on the current thread (and the current rayon pool when parallel).
    pub(super) fn solve_here(&mut self, pos: &Position) -> Solution {
        let (p, o) = (pos.player(), pos.opponent());
        let moves = legal_moves(p, o);
        let mut sol = Solution {
            score: None,
            best_move: None,
            pv: Vec::new(),
            nodes: 0,
            seconds: 0.0,
            passes: Vec::new(),
        };
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                sol.score = Some(final_score(p, o));
                sol.seconds = self.clock.elapsed().as_secs_f64();
                return sol;
            }
            let v = -self.search(o, p, -64, 64);
            if !self.clock.stopped() {
                sol.score = Some(v);
                sol.best_move = Some(Move::PASS);
                self.record_pass(&mut sol, (!(p | o)).count_ones(), 100, v, Move::PASS);
            }
        } else {
            // Root: moves ordered by a deeper midgame search, then an aspiration window
            // around that search's estimate, widened on failure.
            let (mut root_order, mut guess) = self.root_order(p, o, moves);
            let n_empty = (!(p | o)).count_ones();
            if n_empty >= LADDER_MIN_EMPTIES {
                for level in (1..SELECTIVITY.len() as u32).rev() {
                    self.level = level;
                    let (v, sq) = self.aspiration(p, o, &root_order, guess, 8);
                    if self.clock.stopped() {
                        break;
                    }
                    guess = v;
                    let mv = Move::place(Square::new(sq as u8));
                    self.record_pass(&mut sol, n_empty, SELECTIVITY[level as usize].1, v, mv);
                    if let Some(i) = root_order.iter().position(|&s| s == sq) {
                        root_order[..=i].rotate_right(1);
                    }
                }
                self.level = 0;
            }
            let (alpha, best_sq) =
                self.aspiration(p, o, &root_order, guess, EXACT_ASPIRATION_HALF_WIDTH);
            if !self.clock.stopped() {
                sol.score = Some(alpha);
                let mv = Move::place(Square::new(best_sq as u8));
                sol.best_move = Some(mv);
                self.record_pass(&mut sol, n_empty, 100, alpha, mv);
                if n_empty >= TT_MIN_EMPTIES {
                    self.tt_store(hash(p, o), n_empty, (alpha - 1, alpha + 1), alpha, best_sq);
                }
            }
        }
        // The nodes are the solve's: completing the principal variation's tail is not.
        sol.nodes = self.nodes;
        if let (Some(score), Some(m)) = (sol.score, sol.best_move) {
            sol.pv = self.principal_variation(pos, score, m);
        }
        sol.seconds = self.clock.elapsed().as_secs_f64();
        sol
    }

    /// Adds a finished root pass to `sol` and tells the progress callback.
    fn record_pass(
        &mut self,
        sol: &mut Solution,
        depth: u32,
        probability: u32,
        score: i32,
        mv: Move,
    ) {
        let pass = Pass {
            depth,
            probability,
            score,
            best_move: mv,
            nodes: self.nodes,
            seconds: self.clock.elapsed().as_secs_f64(),
        };
        if let Some(progress) = self.progress.as_mut() {
            progress(&pass);
        }
        sol.passes.push(pass);
    }

    /// Root search with an aspiration window of half-width `window` discs around `guess`,
    /// widened on failure: fail-soft score and best square.
    pub(super) fn aspiration(
        &mut self,
        p: u64,
        o: u64,
        root_order: &[usize],
        guess: i32,
        window: i32,
    ) -> (i32, usize) {
        let mut window = Window::around(guess, window);
        loop {
            let (alpha, best_sq) = self.root_search(p, o, root_order, window.lo, window.hi);
            if self.clock.stopped() {
                return (alpha, best_sq);
            }
            match window.widen(alpha) {
                Some(next) => window = next,
                None => return (alpha, best_sq),
            }
        }
    }

    /// Root moves, best first by a midgame search of each child, and the estimated score
    /// (discs, even) of the best; the table's move, if any, goes first.
    pub(super) fn root_order(&mut self, p: u64, o: u64, moves: u64) -> (Vec<usize>, i32) {
        let tt_move = self.tt_probe(hash(p, o)).map_or(64, |e| e.mv);
        let n_empty = (!(p | o)).count_ones();
        let depth = if n_empty > 12 { 4 } else { 0 };
        let mut v: Vec<(i32, usize)> = Vec::new();
        let mut best = -INF;
        let mut bits = moves;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let f = flips(p, o, sq);
            let value = -self.shallow_value(o ^ f, p ^ f ^ (1 << sq), depth, -INF, INF);
            best = best.max(value);
            v.push((if sq == tt_move { i32::MIN } else { -value }, sq));
        }
        v.sort_unstable();
        // Centi-discs to an even disc difference (final scores are even).
        let guess = ((best as f64 / 200.0).round() as i32 * 2).clamp(-64, 64);
        (v.into_iter().map(|(_, s)| s).collect(), guess)
    }

    /// PVS over the root moves in `order` with window (`lo`, `hi`): fail-soft best score
    /// and its move.
    pub(super) fn root_search(
        &mut self,
        p: u64,
        o: u64,
        order: &[usize],
        lo: i32,
        hi: i32,
    ) -> (i32, usize) {
        let mut best = -65;
        let mut best_sq = order[0];
        let mut alpha = lo;
        for (i, &sq) in order.iter().enumerate() {
            if i == 1 && self.threads > 1 && best < hi {
                let rest: Vec<(u8, u64)> = order[1..]
                    .iter()
                    .map(|&s| (s as u8, flips(p, o, s)))
                    .collect();
                return self.split(p, o, &rest, (lo, hi), (best, best_sq));
            }
            let f = flips(p, o, sq);
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            let v = if i == 0 {
                -self.search(cp, co, -hi, -alpha)
            } else {
                let v = -self.search(cp, co, -alpha - 1, -alpha);
                if v > alpha && v < hi {
                    -self.search(cp, co, -hi, -alpha)
                } else {
                    v
                }
            };
            if self.halted() {
                break;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= hi {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// The principal variation of `pos`, whose exact value is `score`, after its best move
    /// `first`: at each node the table's move when a null-window search of its child
    /// confirms that it keeps the node's exact value, else the first move that does
    /// ([`Solver::move_keeping`]), so the line runs to the end of the game, passes
    /// included, as Edax prints it, and playing it out gives `score` even where the table
    /// lost a node of the line or holds a move of a bound only (a small table, an
    /// enhanced transposition cut-off). These searches are not added to
    /// [`Solver::nodes`]. Stops early only when the clock runs out.
    pub(super) fn principal_variation(
        &mut self,
        pos: &Position,
        score: i32,
        first: Move,
    ) -> Vec<Move> {
        use crate::game::Game;
        let nodes = self.nodes;
        let mut pv = vec![first];
        let mut cur = pos.play(first);
        // The exact value of `cur` for its side to move.
        let mut value = -score;
        while pv.len() < 64 {
            let (p, o) = (cur.player(), cur.opponent());
            if legal_moves(p, o) == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::PASS);
                cur = cur.pass();
                value = -value;
                continue;
            }
            // An entry may hold no move (64: a fail-low stores none); check before making
            // a square of it.
            let from_table = self
                .tt_probe(hash(p, o))
                .map(|e| e.mv)
                .filter(|&sq| sq < 64)
                .map(|sq| Move::place(Square::new(sq as u8)))
                .filter(|&m| cur.is_legal(m));
            let Some(m) = self.move_keeping(&cur, value, from_table) else {
                break;
            };
            if self.clock.stopped() {
                break;
            }
            pv.push(m);
            cur = cur.play(m);
            value = -value;
        }
        self.nodes = nodes;
        pv
    }

    /// Whether the legal move `m` of `pos` keeps `pos`'s exact value `value`: its child is
    /// worth at most `-value` (one null-window search).
    fn keeps_value(&mut self, pos: &Position, m: Move, value: i32) -> bool {
        use crate::game::Game;
        self.solve_window(&pos.play(m), -value, -value + 1) <= -value
    }

    /// A legal move of `pos` (which has one) that keeps its exact value `value`
    /// ([`Solver::keeps_value`]): `first` (a legal move, the table's) if it does, else the
    /// first in square order, each move tested once; `None` if the clock stops first.
    fn move_keeping(&mut self, pos: &Position, value: i32, first: Option<Move>) -> Option<Move> {
        let mut moves = legal_moves(pos.player(), pos.opponent());
        let mut next = first;
        if let Some(sq) = first.and_then(Move::square) {
            moves &= !(1u64 << sq.index());
        }
        while let Some(m) = next.take().or_else(|| {
            (moves != 0).then(|| {
                let sq = moves.trailing_zeros() as u8;
                moves &= moves - 1;
                Move::place(Square::new(sq))
            })
        }) {
            let keeps = self.keeps_value(pos, m, value);
            if self.clock.stopped() {
                return None;
            }
            if keeps {
                return Some(m);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Window;

    #[test]
    fn a_consistent_search_widens_once_per_side() {
        let w = Window::around(10, 3);
        assert_eq!((w.lo, w.hi), (6, 14));
        assert_eq!(w.widen(10), None);
        let low = w.widen(6).unwrap();
        assert_eq!((low.lo, low.hi), (-65, 7));
        assert_eq!(low.widen(-20), None);
        let high = w.widen(20).unwrap();
        assert_eq!((high.lo, high.hi), (13, 65));
        assert_eq!(high.widen(64), None);
    }

    #[test]
    fn an_unstable_search_ends_with_the_full_window() {
        // Fail low, then fail high in the opened window, as an unstable search can:
        // the third search gets the full window, and no result can widen that.
        let w = Window::around(0, 3);
        let low = w.widen(-4).unwrap();
        let full = low.widen(low.hi).unwrap();
        assert_eq!((full.lo, full.hi), (-65, 65));
        for alpha in [-65, -64, 0, 64, 65] {
            assert_eq!(full.widen(alpha), None);
        }
        let high = w.widen(4).unwrap();
        let full = high.widen(high.lo).unwrap();
        assert_eq!((full.lo, full.hi), (-65, 65));
    }

    #[test]
    fn any_sequence_of_results_stops_within_three_searches() {
        // Adversarial results: each one fails the current window where it can.
        for start in [-64, -10, 0, 7, 64] {
            for pattern in 0..8u32 {
                let mut w = Window::around(start, 3);
                let mut searches = 1;
                let mut k = 0;
                while let Some(next) = w.widen(if pattern >> (k % 3) & 1 == 0 {
                    w.lo
                } else {
                    w.hi
                }) {
                    w = next;
                    searches += 1;
                    k += 1;
                    assert!(searches <= 3, "start {start}, pattern {pattern}: {w:?}");
                }
            }
        }
    }
}
