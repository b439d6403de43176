//! The last empties: no move generation, the empty squares tried directly (odd-parity
//! quadrants first, then by square class), down to a dedicated last-empty count.

use super::Solver;
use super::order::SQUARE_CLASSES;
use super::stability_cut::{STABILITY_MIN_EMPTIES, STABILITY_THRESHOLD, stability_cap};
use crate::games::othello::movegen::{NEIGHBOURS, flips, legal_moves};
use crate::games::othello::position::final_score;

pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares of the odd-parity quadrants of `empty`.
#[inline]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    QUADRANT_MASKS[parity_of(empty) as usize]
}

/// Parity word of `empty`: bit q set when quadrant q holds an odd number of empties.
#[inline]
pub(super) fn parity_of(empty: u64) -> u32 {
    let mut parity = 0;
    for (q, &m) in QUADRANTS.iter().enumerate() {
        parity |= ((empty & m).count_ones() & 1) << q;
    }
    parity
}

/// Quadrant bit of each square, XORed into the parity word when the square fills.
pub(super) static QUADRANT_BIT: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << (((sq >> 2) & 1) | ((sq >> 4) & 2));
        sq += 1;
    }
    t
};

/// Union of the quadrants whose bits are set in a parity word.
pub(super) static QUADRANT_MASKS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut w = 0;
    while w < 16 {
        let mut q = 0;
        while q < 4 {
            if w >> q & 1 == 1 {
                t[w] |= QUADRANTS[q];
            }
            q += 1;
        }
        w += 1;
    }
    t
};

/// Disc difference after the last empty square `sq` is played (by `p` if it can, else by
/// `o`, else nobody), `p`'s view.
#[inline]
pub(super) fn solve_last(p: u64, o: u64, sq: usize) -> i32 {
    let pc = p.count_ones() as i32;
    // The empty square's neighbours are all discs: opponent neighbours are needed to flip.
    let n = if NEIGHBOURS[sq] & o != 0 {
        flips(p, o, sq).count_ones() as i32
    } else {
        0
    };
    if n > 0 {
        return 2 * (pc + 1 + n) - 64;
    }
    let n = if NEIGHBOURS[sq] & p != 0 {
        flips(o, p, sq).count_ones() as i32
    } else {
        0
    };
    if n > 0 {
        return 2 * (pc - n) - 64;
    }
    // Nobody can play the last square: the empty goes to the winner.
    final_score(p, o)
}
impl Solver<'_> {
    /// Parity-ordered search without move generation, for few empties.
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
                return solve_last(p, o, empty.trailing_zeros() as usize);
            }
            2 => return self.search_2(p, o, alpha, beta, empty),
            _ => {}
        }
        self.nodes += 1;
        // Stability cut-off (as in `search`), from STABILITY_MIN_EMPTIES up.
        if n_empty >= STABILITY_MIN_EMPTIES
            && alpha >= STABILITY_THRESHOLD[n_empty as usize]
            && let Some(cap) = stability_cap(p, o, alpha)
        {
            return cap;
        }
        let odd = QUADRANT_MASKS[parity as usize];
        let mut best = -65;
        for set in [empty & odd, empty & !odd] {
            for class in SQUARE_CLASSES {
                let mut bits = set & class;
                while bits != 0 {
                    let sq = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if NEIGHBOURS[sq] & o == 0 {
                        continue;
                    }
                    let f = flips(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let v = -self.search_shallow(
                        o ^ f,
                        p ^ f ^ (1 << sq),
                        -beta,
                        -alpha,
                        n_empty - 1,
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
        }
        if best == -65 {
            // No placement: pass if the opponent has one, else the game is over.
            if legal_moves(o, p) != 0 {
                return -self.search_shallow(o, p, -beta, -alpha, n_empty, parity);
            }
            return final_score(p, o);
        }
        best
    }

    /// Two empties: each placement leads straight to the last-square count.
    #[inline]
    pub(super) fn search_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
        self.nodes += 1;
        let x1 = empty.trailing_zeros() as usize;
        let x2 = 63 - empty.leading_zeros() as usize;
        let mut best = -65;
        if NEIGHBOURS[x1] & o != 0 {
            let f = flips(p, o, x1);
            if f != 0 {
                best = -solve_last(o ^ f, p ^ f ^ (1 << x1), x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = flips(p, o, x2);
            if f != 0 {
                let v = -solve_last(o ^ f, p ^ f ^ (1 << x2), x1);
                return v.max(best);
            }
        }
        if best > -65 {
            return best;
        }
        // We must pass: the opponent plays if it can.
        let can = |a: u64, b: u64, x: usize| NEIGHBOURS[x] & b != 0 && flips(a, b, x) != 0;
        if can(o, p, x1) || can(o, p, x2) {
            return -self.search_2(o, p, -beta, -alpha, empty);
        }
        final_score(p, o)
    }
}
