//! Null-window search between the parity-ordered last empties and the transposition table
//! (more than [`SHALLOW_EMPTIES`], fewer than [`TT_MIN_EMPTIES`] empties): Edax's
//! `NWS_endgame` with its shallow table: a small table per thread
//! ([`super::shallow_table`]) instead of the shared one. Measured on FFO #40-#49 (1
//! thread): 599,680,550 -> 518,162,182 nodes (-13.6 %); callgrind instructions #47
//! 3,656.9 M -> 3,367.2 M (-7.9 %), #41 -12.5 %.
//!
//! The general [`Solver::search`] pays at every node for what only deep nodes use (the
//! table's move, enhanced transposition cut-off, ProbCut, the parallel split, the
//! re-search of PVS, a 32-move list). Here a node with window (`alpha`, `alpha + 1`)
//! generates its moves once, orders them fastest first with the same key
//! ([`order_key`](super::order::order_key): the same node counts) and searches each with
//! the same null window; a child below the table gets its legal moves from its key.

use super::order::order_key_with_moves;
use super::parity::{QUADRANT_BIT, QUADRANT_MASKS, parity_of};
use super::shallow_table::{Entry, SHALLOW_TABLE, ShallowTable};
use super::stability_cut::{STABILITY_THRESHOLD, stability_cap};
use super::{SHALLOW_EMPTIES, Solver};
use crate::games::othello::movegen::{flips, legal_moves, legal_moves_x4};
use crate::games::othello::position::final_score;

/// Most moves a node below the table can have: one per empty square.
const MAX_MOVES: usize = 16;

impl Solver<'_> {
    /// Exact value of (`p` to move, `o`) against the null window (`alpha`, `alpha + 1`),
    /// fail-soft: a result `<= alpha` is an upper bound, `> alpha` a lower bound.
    /// `n_empty` is the number of empty squares, above [`SHALLOW_EMPTIES`] and below
    /// [`MAX_MOVES`]. The main table is neither read nor written; every node probes and
    /// stores this thread's [shallow table](super::shallow_table) (the board's bounds
    /// cut it off, or its best move is tried first).
    pub(super) fn nws_below_tt(&mut self, p: u64, o: u64, alpha: i32, n_empty: u32) -> i32 {
        let moves = legal_moves(p, o);
        SHALLOW_TABLE.with_borrow_mut(|t| {
            let t = t.get_or_insert_with(ShallowTable::new);
            self.nws_with_moves(t, p, o, moves, alpha, n_empty)
        })
    }

    /// [`Solver::nws_below_tt`] given `moves`, the legal moves of `p` (a parent below the
    /// table computed them for this child's ordering key), and `t`, this thread's shallow
    /// table.
    fn nws_with_moves(
        &mut self,
        t: &mut ShallowTable,
        p: u64,
        o: u64,
        moves: u64,
        alpha: i32,
        n_empty: u32,
    ) -> i32 {
        debug_assert!(n_empty > SHALLOW_EMPTIES && (n_empty as usize) < MAX_MOVES);
        debug_assert_eq!(moves, legal_moves(p, o));
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if moves == 0 {
            let theirs = legal_moves(o, p);
            if theirs != 0 {
                return -self.nws_with_moves(t, o, p, theirs, -alpha - 1, n_empty);
            }
            return final_score(p, o);
        }
        // The shallow table: a bound that decides the null window, else a move to try first.
        let slot = ShallowTable::slot(p, o);
        let e = t.entry(slot);
        let mut table_move = 64;
        if e.p == p && e.o == o {
            if i32::from(e.lower) > alpha {
                return i32::from(e.lower);
            }
            if i32::from(e.upper) <= alpha {
                return i32::from(e.upper);
            }
            table_move = usize::from(e.mv);
        }
        if alpha >= STABILITY_THRESHOLD[n_empty as usize]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }

        let empty = !(p | o);
        let parity = parity_of(empty);
        let odd = QUADRANT_MASKS[parity as usize];
        // The children, then their legal moves four at a time (each child's `replies`
        // serve its ordering key and its own node when it is below the table too).
        let mut squares = [0usize; MAX_MOVES];
        let mut cps = [0u64; MAX_MOVES];
        let mut cos = [0u64; MAX_MOVES];
        let mut n = 0;
        let mut bits = moves;
        while bits != 0 && n < MAX_MOVES {
            let sq = bits.trailing_zeros() as usize & 63;
            bits &= bits - 1;
            let f = flips(p, o, sq);
            squares[n] = sq;
            cps[n] = o ^ f;
            cos[n] = p ^ f ^ (1 << sq);
            n += 1;
        }
        let mut replies = [0u64; MAX_MOVES];
        let mut c = 0;
        while c < n {
            // Four children per vector; one or two left over are cheaper one by one.
            if n - c >= 3 && c + 4 <= MAX_MOVES {
                let at = c..c + 4;
                let m = legal_moves_x4(
                    cps[at.clone()].try_into().expect("four children"),
                    cos[at.clone()].try_into().expect("four children"),
                );
                replies[at].copy_from_slice(&m);
                c += 4;
            } else {
                replies[c] = legal_moves(cps[c], cos[c]);
                c += 1;
            }
        }
        // Each entry: the ordering key times 16 plus the move's index.
        let mut keys = [0i32; MAX_MOVES];
        for i in 0..n {
            let key = if squares[i] == table_move {
                -(1 << 20)
            } else {
                order_key_with_moves(replies[i], cps[i], cos[i], squares[i], odd)
            };
            keys[i] = key * 16 + i as i32;
        }

        let mut best = -65;
        let mut best_sq = 64;
        for i in 0..n {
            // Selection of the lowest key left (the first of equal keys in the array, as
            // `search` does: the index bits do not take part).
            let mut j = i;
            for k in i + 1..n {
                if keys[k] >> 4 < keys[j] >> 4 {
                    j = k;
                }
            }
            keys.swap(i, j);
            let at = (keys[i] & 15) as usize;
            let (sq, cp, co) = (squares[at] & 63, cps[at], cos[at]);
            let v = if n_empty - 1 > SHALLOW_EMPTIES {
                -self.nws_with_moves(t, cp, co, replies[at], -alpha - 1, n_empty - 1)
            } else {
                -self.search_shallow(
                    cp,
                    co,
                    -alpha - 1,
                    -alpha,
                    n_empty - 1,
                    parity ^ QUADRANT_BIT[sq],
                )
            };
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    break;
                }
            }
        }
        // A halted search's values are meaningless; the table outlives it.
        if !self.halted() {
            let e = t.entry_mut(slot);
            if e.p != p || e.o != o {
                *e = Entry {
                    p,
                    o,
                    lower: -64,
                    upper: 64,
                    mv: 64,
                };
            }
            // A bound the entry had would have cut this node off: `best` narrows it.
            if best > alpha {
                e.lower = best as i8;
                e.mv = best_sq as u8;
            } else {
                e.upper = best as i8;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{minimax, random_endgames};
    use super::super::{SHALLOW_EMPTIES, Solver, TT_MIN_EMPTIES};
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// Fail-soft against minimax in every null window from -65 to 64, on random positions
    /// with every number of empties the routine serves (3 positions each). The thread's
    /// shallow table keeps its entries from one window to the next, so later windows are
    /// answered from bounds and moves the earlier ones stored.
    #[test]
    fn nws_below_tt_is_fail_soft_in_every_null_window() {
        let tt = TranspositionTable::new(1);
        let mut s = Solver::new(&tt, &Limits::default());
        for empties in SHALLOW_EMPTIES + 1..TT_MIN_EMPTIES {
            for pos in random_endgames(0x0A11_0000 + u64::from(empties), empties, 3) {
                let exact = minimax(&pos);
                for alpha in -65..=64 {
                    let v = s.nws_below_tt(pos.player(), pos.opponent(), alpha, empties);
                    let ok = if v <= alpha { exact <= v } else { exact >= v };
                    assert!(ok, "{v} against alpha {alpha}, exact {exact}: {pos}");
                }
            }
        }
    }
}
