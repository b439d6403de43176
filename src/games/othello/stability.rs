//! Stable discs: discs that no sequence of moves can flip.
//!
//! A disc is stable when, on each of its four lines (horizontal, vertical, both diagonals),
//! it cannot be bracketed: the line is full, or a neighbour on that line is the board's edge
//! or a stable disc of the same colour. Iterated to a fixed point from the edges (the
//! "stable by contact" scheme of Edax). Sound (every disc reported is stable), not complete.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const EDGE: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Masks of the 15 diagonals in each direction (a1-h8 direction, then a8-h1 direction).
static DIAGONALS: [[u64; 15]; 2] = {
    let mut t = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        t[0][7 + r - f] |= 1u64 << sq; // r - f constant along a1-h8 lines
        t[1][r + f] |= 1u64 << sq; // r + f constant along h1-a8 lines
        sq += 1;
    }
    t
};

/// Squares whose four lines are all full are handled line by line:
/// returns (full horizontal, full vertical, full a1-h8 diagonal, full h1-a8 diagonal) masks.
#[inline]
fn full_lines(occ: u64) -> [u64; 4] {
    let mut h = occ;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & FILE_A).wrapping_mul(0xFF);
    let mut v = occ;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & RANK_1).wrapping_mul(FILE_A);
    let mut d9 = 0;
    let mut d7 = 0;
    for (&a, &b) in DIAGONALS[0].iter().zip(&DIAGONALS[1]) {
        if occ & a == a {
            d9 |= a;
        }
        if occ & b == b {
            d7 |= b;
        }
    }
    [h, v, d9, d7]
}

/// Stable discs of `p` (against `o`).
#[must_use]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let [fh, fv, f9, f7] = full_lines(p | o);
    // Shifts that wrap around a file always land on an edge square, which is already
    // counted as protected, so no wrap masks are needed.
    let mut stable = 0u64;
    loop {
        let h = fh | FILE_A | FILE_H | (stable << 1) | (stable >> 1);
        let v = fv | RANK_1 | RANK_8 | (stable << 8) | (stable >> 8);
        let d9 = f9 | EDGE | (stable << 9) | (stable >> 9);
        let d7 = f7 | EDGE | (stable << 7) | (stable >> 7);
        let next = p & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_and_edge_run_are_stable() {
        // Black: a1, b1, c1 and a2; White: d1. Empty e1..h1.
        let p = 0b111 | (1 << 8);
        let o = 1 << 3;
        let s = stable_discs(p, o);
        assert_eq!(s, p, "{s:#x}");
        // White's d1 can be flanked from e1 after ... no: d1 is next to stable c1 on the
        // row, but its column and diagonals lead to empty squares: not stable.
        assert_eq!(stable_discs(o, p), 0);
    }

    #[test]
    fn full_board_is_stable() {
        let p = 0x5555_5555_5555_5555;
        let o = !p;
        assert_eq!(stable_discs(p, o), p);
        assert_eq!(stable_discs(o, p), o);
    }

    #[test]
    fn lone_centre_disc_is_not_stable() {
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    }
}
