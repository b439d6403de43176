//! Move ordering of the exact search: square classes, the fastest-first key, and the
//! midgame-evaluation searches that order deep nodes.

use super::{INF, Solver};
use crate::games::othello::movegen::{flips, legal_moves, neighbours};
use crate::games::othello::position::final_score;

/// From this many empties up, moves are ordered with the help of the midgame evaluation.
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;
pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// C-squares: edge squares next to a corner.
pub(super) const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// X-squares: diagonal neighbours of the corners.
pub(super) const X_SQUARES: u64 = 0x0042_0000_0000_4200;
pub(super) const EDGES: u64 = 0xFF81_8181_8181_81FF;
/// Square classes in the order the few-empties search tries them within a parity group
/// (Edax's pre-sorted empties): corners, other edge squares, inner squares, C-squares,
/// X-squares.
pub(super) const SQUARE_CLASSES: [u64; 5] = [
    CORNERS,
    EDGES & !CORNERS & !C_SQUARES,
    !EDGES & !X_SQUARES,
    C_SQUARES,
    X_SQUARES,
];

/// Ordering key of the move to `sq` whose child is (`cp` to move, `co`): lower is searched
/// first. Fastest first (the opponent's weighted mobility, corners counted twice), then the
/// opponent's potential mobility (empties next to our discs), then parity.
#[inline]
pub(super) fn order_key(cp: u64, co: u64, sq: usize, odd: u64) -> i32 {
    let m = legal_moves(cp, co);
    let empty = !(cp | co);
    let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    let potential = (neighbours(co) & empty).count_ones() as i32;
    let parity = i32::from((odd >> sq) & 1 == 1);
    mobility * 64 + potential * 4 - parity * 2
}

/// Depth of the midgame search that orders moves at a node with `n_empty` empties (from
/// `EVAL_ORDER_EMPTIES` up). Measured on FFO #40-#44: 314 M nodes with this table against
/// 386 M with the static evaluation alone; uniformly deeper or shallower tables did worse.
pub(super) fn sort_depth(n_empty: u32) -> u32 {
    match n_empty {
        0..=15 => 1,
        16..=19 => 2,
        20..=23 => 3,
        _ => 4,
    }
}

impl Solver<'_> {
    /// Negamax alpha-beta on the midgame evaluation to `depth` plies, for move ordering
    /// (centi-discs, `p`'s view). Its nodes count towards the solver's.
    pub(super) fn shallow_value(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if depth == 0 {
            return self.eval.score(p, o);
        }
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            return -self.shallow_value(o, p, depth - 1, -beta, -alpha);
        }
        let mut best = -INF;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let v = -self.shallow_value(o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
