//! The last empties: no move generation, the empty squares tried directly (odd-parity
//! quadrants first, then by square class), dedicated solvers for 4, 3 and 2 empties and
//! the last empty's flip count by line lookup ([`super::last_flip`]).

use super::Solver;
use super::last_flip::last_flip_count;
use super::parity::{QUADRANT_BIT, QUADRANT_MASKS};
use super::stability_cut::{STABILITY_THRESHOLD, stability_cap};
use super::visit::{RANKED_QUADRANT_MASKS, SQUARE_OF_RANK, ranked};
use crate::games::othello::movegen::{NEIGHBOURS, flips, legal_moves, legal_moves_lanes};
use crate::games::othello::position::final_score;

/// Disc difference after the last empty square `sq` is played (by `p` if it can, else by
/// the opponent, who owns every other square, else nobody), `p`'s view; fail-soft against
/// `alpha`: when `p` cannot play and even the best case left is at most `alpha`, that
/// upper bound is returned without counting the opponent's flips.
#[inline(always)]
pub(super) fn solve_last(p: u64, sq: usize, alpha: i32) -> i32 {
    // `p` plays on `sq` flipping nothing: pc + 1 against 63 - pc discs.
    let score = 2 * p.count_ones() as i32 - 62;
    let n = last_flip_count(p, sq);
    if n > 0 {
        return score + 2 * n;
    }
    // `p` passes: the opponent plays (score - 2 - 2n) or nobody does (2pc - 63 discs, the
    // empty to the winner: `score` when `p` leads, else `score - 2`).
    let idle = if score > 0 { score } else { score - 2 };
    if idle <= alpha {
        return idle;
    }
    opponent_last(p, sq, score, idle)
}

/// [`solve_last`] when `p` cannot play on `sq` and the opponent's placement decides: out
/// of line (about 2 % of the calls on FFO #47), so the callers (inlined [`solve_last`]) no
/// longer keep the four line masks on the stack for it.
#[cold]
#[inline(never)]
fn opponent_last(p: u64, sq: usize, score: i32, idle: i32) -> i32 {
    let n = last_flip_count(!p, sq);
    if n > 0 { score - 2 - 2 * n } else { idle }
}
impl Solver<'_> {
    /// Parity-ordered search without move generation, for few empties (`n_empty` of them,
    /// quadrant parity word `parity`); 4 empties and fewer go to the dedicated solvers.
    pub(super) fn search_shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n_empty: u32,
        parity: u32,
    ) -> i32 {
        let empty = !(p | o);
        match n_empty {
            0 => return final_score(p, o),
            1 => {
                self.nodes += 1;
                return solve_last(p, empty.trailing_zeros() as usize, alpha);
            }
            2 => return self.search_2(p, o, alpha, beta, empty),
            3 => return self.solve_3::<false>(p, o, alpha, beta, empty, parity),
            4 => return self.solve_4(p, o, alpha, beta, empty, parity),
            _ => {}
        }
        self.nodes += 1;
        // Stability cut-off (as in `search`).
        if alpha >= STABILITY_THRESHOLD[n_empty as usize]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }
        // The legal moves up front (no test per empty square, whose outcome the branch
        // predictor cannot know), odd quadrants first, by square class within each
        // ([`super::visit`]).
        let moves = legal_moves_lanes(p, o);
        if moves == 0 {
            return self.pass_shallow(p, o, alpha, beta, n_empty, parity);
        }
        let moves = ranked(moves);
        let odd = RANKED_QUADRANT_MASKS[parity as usize];
        let mut best = -65;
        for set in [moves & odd, moves & !odd] {
            let mut bits = set;
            while bits != 0 {
                let sq = SQUARE_OF_RANK[bits.trailing_zeros() as usize & 63] as usize & 63;
                bits &= bits - 1;
                let f = flips(p, o, sq);
                let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
                let child_parity = parity ^ QUADRANT_BIT[sq];
                let v = if n_empty == 5 {
                    -self.solve_4(cp, co, -beta, -alpha, empty ^ (1 << sq), child_parity)
                } else {
                    -self.search_shallow(cp, co, -beta, -alpha, n_empty - 1, child_parity)
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    if v > alpha {
                        alpha = v;
                    }
                }
            }
        }
        best
    }

    /// [`Solver::search_shallow`] when `p` has no placement: pass if the opponent has
    /// one, else the game is over.
    #[cold]
    #[inline(never)]
    fn pass_shallow(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n_empty: u32,
        parity: u32,
    ) -> i32 {
        if legal_moves(o, p) != 0 {
            return -self.search_shallow(o, p, -beta, -alpha, n_empty, parity);
        }
        final_score(p, o)
    }

    /// Two empties: each placement leads straight to the last-square count. Inlined into
    /// [`Solver::solve_3`] (with [`solve_last`]): a call there spilled the flip routine's
    /// vector registers around every child.
    #[inline(always)]
    pub(super) fn search_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
        self.nodes += 1;
        let x1 = empty.trailing_zeros() as usize & 63;
        let x2 = (63 - empty.leading_zeros() as usize) & 63;
        let mut best = -65;
        if NEIGHBOURS[x1] & o != 0 {
            let f = flips(p, o, x1);
            if f != 0 {
                best = -solve_last(o ^ f, x2, -beta);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = flips(p, o, x2);
            if f != 0 {
                let v = -solve_last(o ^ f, x1, -beta);
                return v.max(best);
            }
        }
        if best > -65 {
            return best;
        }
        self.pass_2(p, o, alpha, empty)
    }

    /// [`Solver::search_2`] when `p` has no placement: the opponent plays if it can (a node,
    /// as its own `search_2` would count), else the game is over. Rare, kept out of line;
    /// each of the opponent's flips is computed once (not once to find that it can play
    /// and again to play). Its body is `search_2`'s with the sides swapped on purpose: one
    /// shared inline helper for both cost `solve_4`, where `search_2` is inlined, 0.4 % more
    /// instructions (callgrind, FFO #47: 3,548.2 M against 3,533.8 M, same nodes).
    #[cold]
    #[inline(never)]
    fn pass_2(&mut self, p: u64, o: u64, alpha: i32, empty: u64) -> i32 {
        let x1 = empty.trailing_zeros() as usize & 63;
        let x2 = (63 - empty.leading_zeros() as usize) & 63;
        // The opponent's view: beta -alpha (its alpha does not matter: each placement
        // leads straight to the last empty), best of its placements.
        let beta_o = -alpha;
        let mut best = -65;
        if NEIGHBOURS[x1] & p != 0 {
            let f = flips(o, p, x1);
            if f != 0 {
                best = -solve_last(p ^ f, x2, -beta_o);
                if best >= beta_o {
                    self.nodes += 1;
                    return -best;
                }
            }
        }
        if NEIGHBOURS[x2] & p != 0 {
            let f = flips(o, p, x2);
            if f != 0 {
                best = best.max(-solve_last(p ^ f, x1, -beta_o));
            }
        }
        if best == -65 {
            return final_score(p, o);
        }
        self.nodes += 1;
        -best
    }

    /// Three empties: the square alone in its quadrant first (the others share one), each
    /// placement into [`Solver::search_2`]. Inlined into [`Solver::solve_4`], which then
    /// calls nothing on its usual paths.
    #[inline(always)]
    fn solve_3<const PASSED: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        parity: u32,
    ) -> i32 {
        self.nodes += 1;
        let x1 = empty.trailing_zeros() as usize & 63;
        let rest = empty & (empty - 1);
        let x2 = rest.trailing_zeros() as usize & 63;
        let x3 = (63 - empty.leading_zeros() as usize) & 63;
        // Quadrants 3 or 1-1-1: all odd, bit order. 2-1: the odd one first. Straight-line
        // code, one copy of the move per square: no square array and no loop.
        let (a, b, c) = if parity & QUADRANT_BIT[x1] != 0 {
            (x1, x2, x3)
        } else if parity & QUADRANT_BIT[x2] != 0 {
            (x2, x1, x3)
        } else {
            (x3, x1, x2)
        };
        let mut best = -65;
        macro_rules! try_move {
            ($sq:expr) => {
                let sq = $sq & 63;
                if NEIGHBOURS[sq] & o != 0 {
                    let f = flips(p, o, sq);
                    if f != 0 {
                        let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
                        let v = -self.search_2(cp, co, -beta, -alpha, empty ^ (1 << sq));
                        if v > best {
                            best = v;
                            if v >= beta {
                                return v;
                            }
                            if v > alpha {
                                alpha = v;
                            }
                        }
                    }
                }
            };
        }
        try_move!(a);
        try_move!(b);
        try_move!(c);
        if best == -65 {
            if PASSED {
                // Neither side can play: the game is over, and this was not a node.
                self.nodes -= 1;
                return final_score(p, o);
            }
            return self.pass_3(p, o, alpha, beta, empty, parity);
        }
        best
    }

    /// [`Solver::solve_3`] when `p` has no placement: the opponent plays if it can, else
    /// the game is over (the opponent's `solve_3` finds which, without a move generation
    /// first).
    #[cold]
    #[inline(never)]
    fn pass_3(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, parity: u32) -> i32 {
        -self.solve_3::<true>(o, p, -beta, -alpha, empty, parity)
    }

    /// Four empties: odd-quadrant squares first (the "1-1-2" case: the two lone squares
    /// before the pair; 4, 2-2, 3-1 and 1-1-1-1 keep bit order), the stability cut-off
    /// first, the legal moves by one vector, each placement into [`Solver::solve_3`].
    fn solve_4(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        parity: u32,
    ) -> i32 {
        self.nodes += 1;
        if alpha >= STABILITY_THRESHOLD[4]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }
        // The legal moves up front (as in `search_shallow`). Bit order, except in the
        // 2-1-1 case (exactly two empties in odd quadrants: the two lone squares first);
        // with 4, 2-2, 3-1 or 1-1-1-1 every empty is in an odd quadrant or none is.
        let moves = legal_moves_lanes(p, o);
        if moves == 0 {
            return self.pass_4(p, o, alpha, beta, empty, parity);
        }
        let lone = empty & QUADRANT_MASKS[parity as usize];
        let first = if lone.count_ones() == 2 {
            moves & lone
        } else {
            moves
        };
        let mut best = -65;
        for set in [first, moves & !first] {
            let mut bits = set;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize & 63;
                bits &= bits - 1;
                let f = flips(p, o, sq);
                let v = -self.solve_3::<false>(
                    o ^ f,
                    p ^ f ^ (1 << sq),
                    -beta,
                    -alpha,
                    empty ^ (1 << sq),
                    parity ^ QUADRANT_BIT[sq],
                );
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    if v > alpha {
                        alpha = v;
                    }
                }
            }
        }
        best
    }

    /// [`Solver::solve_4`] when `p` has no placement: the opponent plays if it can, else
    /// the game is over.
    #[cold]
    #[inline(never)]
    fn pass_4(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, parity: u32) -> i32 {
        if legal_moves(o, p) != 0 {
            return -self.solve_4(o, p, -beta, -alpha, empty, parity);
        }
        final_score(p, o)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parity::parity_of;
    use super::super::tests::{minimax, random_endgames};
    use crate::games::othello::endgame::Solver;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// The few-empties solvers are fail-soft in every null window and in wide ones: a
    /// value at most alpha is an upper bound of the minimax value, one at least beta a
    /// lower bound, one between them the value itself. 1 to 6 empties, 25 random positions
    /// each, every null window from -65 to 64 and a few wide ones.
    #[test]
    fn shallow_solvers_are_fail_soft_in_every_window() {
        let tt = TranspositionTable::new(1);
        let mut s = Solver::new(&tt, &Limits::default());
        for empties in 1..=6u32 {
            for pos in random_endgames(0xF00D_0000 + u64::from(empties), empties, 25) {
                let exact = minimax(&pos);
                let (p, o) = (pos.player(), pos.opponent());
                let parity = parity_of(!(p | o));
                let windows = (-65..=64).map(|a| (a, a + 1)).chain([
                    (-65, 65),
                    (-10, 10),
                    (0, 30),
                    (-40, -2),
                ]);
                for (alpha, beta) in windows {
                    let v = s.search_shallow(p, o, alpha, beta, empties, parity);
                    let ok = if v <= alpha {
                        exact <= v
                    } else if v >= beta {
                        exact >= v
                    } else {
                        exact == v
                    };
                    assert!(ok, "{v} in ({alpha}, {beta}), exact {exact}: {pos}");
                }
            }
        }
    }
}
