//! Move ordering of the exact search: square classes, the fastest-first key, and the
//! midgame-evaluation searches that order deep nodes.

use super::parity::odd_quadrants;
use super::{INF, Solver};
use crate::games::othello::movegen::{flips, legal_moves, neighbours};
use crate::games::othello::patterns::PatternIndices;
use crate::games::othello::position::final_score;

/// From this many empties up, moves are ordered with the help of the midgame evaluation.
pub(super) const EVAL_ORDER_EMPTIES: u32 = 14;
/// Discs below alpha from which an ordering search ([`sort_depth`]) no longer needs a
/// child's exact midgame value (Edax's sort-alpha window): the child is searched with the
/// window (-inf, -(alpha - delta)) and may cut. On FFO #40-#44 and #47 (1 thread, load
/// ~4): 136.4 M -> 134.3 M nodes, 12.99 -> 11.72 user CPU-s; 4 or 12 discs about the same.
pub(super) const SORT_ALPHA_DELTA: i32 = 8;
/// From this depth up, the ordering searches order their own moves fastest first
/// ([`order_key`]). With [`SORT_ALPHA_DELTA`], on FFO #40-#44 and #47: 134.3 M -> 130.5 M
/// nodes, 11.72 -> 10.68 user CPU-s; from depth 1 or 3 about the same.
pub(super) const ORDER_SHALLOW_FROM_DEPTH: u32 = 2;
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

/// Weight in [`order_key`] of each of the mover's corner-anchored discs
/// ([`corner_stability`]), where one move of the opponent's weighted mobility weighs 64.
/// Replaces a flat bonus of 16 for a move to a corner (which the count includes: a move to
/// a corner adds at least that disc), as in Edax's fast ordering. Measured with
/// [`PARITY_WEIGHT`] 2 on FFO #40-#49 (1 thread, node counts): 572.92 M nodes with the
/// corner bonus -> 543.97 M at 12 (8: 543.39 M, 16: 543.39 M, 20: 548.57 M; with the
/// bonus kept on top: 16 552.85 M, 32 581.64 M).
const CORNER_STABILITY_WEIGHT: i32 = 12;

/// Weight in [`order_key`] of a move into a quadrant with an odd number of empties.
/// Measured with [`CORNER_STABILITY_WEIGHT`] 12 on FFO #40-#49 (1 thread, node counts):
/// 2: 543.97 M nodes, 0: 550.23 M, 8: 529.50 M, **12: 523.58 M**, 16: 530.62 M, 24: 533.76
/// M, 32: 528.47 M, 48: 539.90 M, 64: 564.69 M; (12, corner weight 8 or 16): 526.63 M,
/// 527.36 M. Checked outside the tuning set, FFO #50-#52: 779.16 M (the former key: parity
/// 2, corner bonus 16) -> 735.58 M, fewer on each of the three.
const PARITY_WEIGHT: i32 = 12;

/// Weight in [`order_key`] of each empty square next to the mover's discs (the opponent's
/// potential mobility). Measured with the weights above on FFO #40-#49 (1 thread, node
/// counts): 4: 523.58 M nodes, 2: 531.80 M, **8: 518.85 M**, 12: 523.61 M, 16: 526.35 M;
/// outside the tuning set, FFO #50-#52: 735.58 M at 4 -> 715.51 M at 8.
const POTENTIAL_WEIGHT: i32 = 8;

/// The mover's discs anchored at the corners: each corner `co` holds, and its two edge
/// neighbours when `co` holds them too (Edax's corner stability).
#[inline]
fn corner_stability(co: u64) -> i32 {
    let c = co & CORNERS;
    let anchored = c
        | (c & 0x0100_0000_0000_0001) << 1
        | (c & 0x8000_0000_0000_0080) >> 1
        | (c & 0x0000_0000_0000_0081) << 8
        | (c & 0x8100_0000_0000_0000) >> 8;
    (anchored & co).count_ones() as i32
}

/// Ordering key of the move to `sq` whose child is (`cp` to move, `co`): lower is searched
/// first. Fastest first (the opponent's weighted mobility, corners counted twice), then the
/// mover's discs anchored at corners ([`CORNER_STABILITY_WEIGHT`]), parity
/// ([`PARITY_WEIGHT`]) and the opponent's potential mobility (empties next to our discs).
#[inline]
pub(super) fn order_key(cp: u64, co: u64, sq: usize, odd: u64) -> i32 {
    order_key_with_moves(legal_moves(cp, co), cp, co, sq, odd)
}

/// [`order_key`] given `m`, the legal moves of the child (`cp` to move, `co`), for
/// callers that need them again (the child's ordering search).
#[inline]
pub(super) fn order_key_with_moves(m: u64, cp: u64, co: u64, sq: usize, odd: u64) -> i32 {
    let empty = !(cp | co);
    let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    let potential = (neighbours(co) & empty).count_ones() as i32;
    let parity = i32::from((odd >> sq) & 1 == 1);
    mobility * 64 + potential * POTENTIAL_WEIGHT
        - parity * PARITY_WEIGHT
        - corner_stability(co) * CORNER_STABILITY_WEIGHT
}

/// Depth of the midgame search that orders moves at a node with `n_empty` empties (from
/// `EVAL_ORDER_EMPTIES` up): 1 to 4 plies, never 0. Measured on FFO #40-#44: 314 M nodes with the table two
/// empties lower against 386 M with the static evaluation alone. With the window
/// ([`SORT_ALPHA_DELTA`]) and the ordered ordering searches, on FFO #40-#44 and #47
/// (1 thread, load ~3.8): two empties higher 131.2 M nodes, 9.2/9.75 user CPU-s against
/// 130.5 M, 10.68/11.21 (four higher: 137.8 M, 9.9 s; two lower: 138.2 M, 13.5 s).
pub(super) fn sort_depth(n_empty: u32) -> u32 {
    match n_empty {
        0..=17 => 1,
        18..=21 => 2,
        22..=25 => 3,
        _ => 4,
    }
}

/// Fail-soft best value for `p` (centi-discs) of the children of (`p` to move, `o`) by
/// `moves` (not empty), tried in square order within (`alpha`, `beta`), where
/// `leaf_value(sq, flips)` is the child's static value from its side to move's view; each
/// child evaluated counts one node.
#[inline(always)]
fn best_leaf(
    nodes: &mut u64,
    p: u64,
    o: u64,
    mut moves: u64,
    mut alpha: i32,
    beta: i32,
    mut leaf_value: impl FnMut(usize, u64) -> i32,
) -> i32 {
    let mut best = -INF;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        *nodes += 1;
        let v = -leaf_value(sq, f);
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

/// The pattern indices of the child by `sq` (flipping `f`) of an ordering search node
/// `depth` plies from its leaves that keeps `view` ([`Solver::ordering_view`]): the view
/// the child keeps `depth - 1` plies from its leaves.
#[inline]
pub(super) fn child_view(view: &PatternIndices, depth: u32, sq: usize, f: u64) -> PatternIndices {
    if depth % 2 == 1 {
        view.after_their_move(sq, f)
    } else {
        view.after_my_move(sq, f)
    }
}

impl Solver<'_> {
    /// Negamax alpha-beta on the midgame evaluation to `depth` plies, for move ordering
    /// (centi-discs, `p`'s view; fail-soft). From [`ORDER_SHALLOW_FROM_DEPTH`] plies up its
    /// moves are tried fastest first. Its nodes count towards the solver's.
    pub(super) fn shallow_value(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let view = self.ordering_view(p, o, depth);
        self.shallow_value_viewed(p, o, &view, depth, alpha, beta)
    }

    /// The pattern indices that a node of an ordering search `depth` plies from its leaves
    /// (`p` to move) keeps: `p`'s view at an even depth, `o`'s at an odd one, so that each
    /// leaf gets its side to move's view ([`child_view`] passes them down, a pass keeps
    /// them). The empty board's (unused) without a pattern evaluation.
    pub(super) fn ordering_view(&self, p: u64, o: u64, depth: u32) -> PatternIndices {
        match self.eval.patterns() {
            None => PatternIndices::default(),
            Some(_) if depth.is_multiple_of(2) => PatternIndices::of(p, o),
            Some(_) => PatternIndices::of(o, p),
        }
    }

    /// [`Solver::shallow_value`] given `view`, the node's [`Solver::ordering_view`].
    fn shallow_value_viewed(
        &mut self,
        p: u64,
        o: u64,
        view: &PatternIndices,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            self.nodes += 1;
            if self.should_stop() {
                return 0;
            }
            return match self.eval.patterns() {
                Some(pw) => pw.score_with_indices(view, p, o),
                None => self.eval.score(p, o),
            };
        }
        self.shallow_value_with_moves(p, o, view, legal_moves(p, o), depth, alpha, beta)
    }

    /// [`Solver::shallow_value`] at `depth` >= 1 given `view`, the node's
    /// [`Solver::ordering_view`], and `moves`, the legal moves of `p` (the caller computed
    /// them for its ordering key).
    #[allow(
        clippy::too_many_arguments,
        reason = "the node's window, depth and its caller's work"
    )]
    pub(super) fn shallow_value_with_moves(
        &mut self,
        p: u64,
        o: u64,
        view: &PatternIndices,
        mut moves: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        debug_assert!(depth >= 1);
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            return -self.shallow_value_viewed(o, p, view, depth - 1, -beta, -alpha);
        }
        let mut alpha = alpha;
        let mut best = -INF;
        let ordered = depth >= ORDER_SHALLOW_FROM_DEPTH;
        if depth == 1 && !ordered {
            // The leaves, in square order: each child's flips only once the previous
            // children did not cut, and no call per leaf. Each leaf counts as a node, as a
            // depth-0 search does; the stop clock was checked at this node. With the
            // pattern evaluation, each leaf's indices are this node's (`o`'s view, to move
            // at the leaves) plus its move's changed squares.
            if let Some(pw) = self.eval.patterns() {
                return best_leaf(&mut self.nodes, p, o, moves, alpha, beta, |sq, f| {
                    let leaf = view.after_their_move(sq, f);
                    pw.score_with_indices(&leaf, o ^ f, p ^ f ^ (1 << sq))
                });
            }
            let eval = &self.eval;
            return best_leaf(&mut self.nodes, p, o, moves, alpha, beta, |sq, f| {
                eval.score(o ^ f, p ^ f ^ (1 << sq))
            });
        }
        // Each child's legal moves serve its ordering key and its own search.
        let odd = if ordered { odd_quadrants(!(p | o)) } else { 0 };
        let mut list = [(0i32, 0u8, 0u64, 0u64); 32];
        let mut n = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            let m = legal_moves(cp, co);
            let key = if ordered {
                order_key_with_moves(m, cp, co, sq, odd)
            } else {
                0
            };
            list[n] = (key, sq as u8, f, m);
            n += 1;
        }
        if ordered {
            list[..n].sort_unstable_by_key(|m| m.0);
        }
        for &(_, sq, f, m) in &list[..n] {
            let sq = sq as usize;
            let (cp, co) = (o ^ f, p ^ f ^ (1 << sq));
            let cview = child_view(view, depth, sq, f);
            let v = if depth == 1 {
                -self.shallow_value_viewed(cp, co, &cview, 0, -beta, -alpha)
            } else {
                -self.shallow_value_with_moves(cp, co, &cview, m, depth - 1, -beta, -alpha)
            };
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

#[cfg(test)]
mod tests {
    use super::super::tests::random_endgames;
    use super::*;
    use crate::games::othello::eval::Eval;
    use crate::games::othello::patterns;
    use crate::search::Limits;
    use crate::search::tt::TranspositionTable;

    /// Plain negamax on `eval.score` to `depth` plies (a pass is a ply, the end of the
    /// game is 100 x the disc difference): the reference value.
    /// `passes` counts the passes met.
    fn negamax(eval: &Eval, p: u64, o: u64, depth: u32, passes: &mut u32) -> i32 {
        if depth == 0 {
            return eval.score(p, o);
        }
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            *passes += 1;
            return -negamax(eval, o, p, depth - 1, passes);
        }
        let mut best = -INF;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            best = best.max(-negamax(eval, o ^ f, p ^ f ^ (1 << sq), depth - 1, passes));
        }
        best
    }

    /// Corners held count, with their two edge neighbours when held too; a neighbour
    /// of a corner not held, an X-square or a farther edge disc does not.
    #[test]
    fn corner_stability_counts_corners_and_their_held_edge_neighbours() {
        let sq = |name: &str| {
            let b = name.as_bytes();
            1u64 << ((b[1] - b'1') * 8 + (b[0] - b'a'))
        };
        let discs = |names: &[&str]| names.iter().map(|n| sq(n)).fold(0, |a, b| a | b);
        // a1 with b1 and a2; h1 alone; h8 with g8; b2 (X-square) and c1 are not anchored.
        let co = discs(&["a1", "b1", "a2", "b2", "c1", "h1", "h8", "g8"]);
        assert_eq!(corner_stability(co), 6);
        // Neighbours of corners not held: nothing.
        assert_eq!(
            corner_stability(discs(&["b1", "a2", "g1", "h2", "b8", "a7", "g8", "h7"])),
            0
        );
        // All four corners and all eight neighbours.
        let all = discs(&[
            "a1", "b1", "a2", "h1", "g1", "h2", "a8", "b8", "a7", "h8", "g8", "h7",
        ]);
        assert_eq!(corner_stability(all), 12);
        assert_eq!(corner_stability(0), 0);
    }

    /// With a full window the ordering search's value is the negamax value, with the
    /// pattern indices kept along its moves (pattern evaluation) and without them (the
    /// baseline evaluation), at depths 0 to 3, from 14 empties and from 3 (where passes
    /// occur inside the searches).
    #[test]
    fn ordering_search_values_equal_plain_negamax() {
        let tt = TranspositionTable::new(1);
        let evals = [Eval::with_patterns(patterns::shipped()), Eval::default()];
        let (mut checked, mut passes) = (0, 0);
        for eval in evals {
            let mut solver = Solver::with_eval(&tt, &Limits::default(), eval.clone());
            for (i, pos) in random_endgames(0x5EED_0D0E_u64, 14, 24)
                .iter()
                .chain(&random_endgames(0xD1CE, 3, 12))
                .enumerate()
            {
                let (p, o) = (pos.player(), pos.opponent());
                for depth in 0..=(1 + i as u32 % 3) {
                    let want = negamax(&eval, p, o, depth, &mut passes);
                    assert_eq!(solver.shallow_value(p, o, depth, -INF, INF), want, "{pos}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 150 && passes > 0, "{checked} {passes}");
    }
}
