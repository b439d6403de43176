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

/// Squares whose neighbour in the direction of shift `+9` (one file right, one rank up)
/// is off the board, and so on for `-9`, `+7` (one file left, one rank up) and `-7`.
const EDGE_UP_9: u64 = FILE_H | RANK_8;
const EDGE_DOWN_9: u64 = FILE_A | RANK_1;
const EDGE_UP_7: u64 = FILE_A | RANK_8;
const EDGE_DOWN_7: u64 = FILE_H | RANK_1;

/// Occupied squares from which every square on towards higher bits by steps of `d` (up to
/// the board's edge; `edge` holds the squares whose next step leaves the board) is
/// occupied: a Kogge-Stone fill from the occupied edge squares back along the line. The
/// fill never crosses a file edge: a square of `edge` never propagates.
#[inline]
fn filled_up(occ: u64, edge: u64, d: u32) -> u64 {
    fill_down(occ & edge, occ & !edge, d)
}

/// [`filled_up`] towards lower bits.
#[inline]
fn filled_down(occ: u64, edge: u64, d: u32) -> u64 {
    fill_up(occ & edge, occ & !edge, d)
}

/// Squares whose four lines are all full are handled line by line:
/// returns (full horizontal, full vertical, full a1-h8 diagonal, full h1-a8 diagonal) masks.
/// The diagonals by [`filled_up`] and [`filled_down`]: branch-free, where a loop over the
/// 30 diagonals took about a third of `stable_discs`.
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
    let d9 = filled_up(occ, EDGE_UP_9, 9) & filled_down(occ, EDGE_DOWN_9, 9);
    let d7 = filled_up(occ, EDGE_UP_7, 7) & filled_down(occ, EDGE_DOWN_7, 7);
    [h, v, d9, d7]
}

/// Kogge-Stone fill of `g` along `pp` by steps of `d` towards higher bits (`pp` must not
/// hold a square whose step crosses a file edge into another square of `pp`).
#[inline]
fn fill_up(mut g: u64, mut pp: u64, d: u32) -> u64 {
    g |= pp & (g << d);
    pp &= pp << d;
    g |= pp & (g << (2 * d));
    pp &= pp << (2 * d);
    g | (pp & (g << (4 * d)))
}

/// [`fill_up`] towards lower bits.
#[inline]
fn fill_down(mut g: u64, mut pp: u64, d: u32) -> u64 {
    g |= pp & (g >> d);
    pp &= pp >> d;
    g |= pp & (g >> (2 * d));
    pp &= pp >> (2 * d);
    g | (pp & (g >> (4 * d)))
}

const A1: u64 = 1;
const H1: u64 = 1 << 7;
const A8: u64 = 1 << 56;
const H8: u64 = 1 << 63;

/// `p`'s discs on the edges that are stable: the runs of `p` from each corner it holds
/// along both edges, and every `p` disc of a full edge. Exactly the edge discs of the
/// fixed point [`stable_discs`] computes (an edge disc's other three lines are protected
/// by the edge, so only its edge decides), in a few independent fills instead of one
/// iteration per disc of a run.
#[inline]
fn stable_edges(p: u64, full_h: u64, full_v: u64) -> u64 {
    let rows = p & (RANK_1 | RANK_8);
    let cols = p & (FILE_A | FILE_H);
    let right = fill_up(p & (A1 | A8), rows, 1);
    let left = fill_down(p & (H1 | H8), rows, 1);
    let up = fill_up(p & (A1 | H1), cols, 8);
    let down = fill_down(p & (A8 | H8), cols, 8);
    right | left | up | down | (rows & full_h) | (cols & full_v)
}

/// Stable discs of `p` (against `o`).
///
/// Seeded with the stable edge discs (`stable_edges`) and the discs whose four lines
/// are full, then iterated over the inner discs until nothing changes: the same fixed
/// point as iterating all discs from none (tested against that), without the one
/// iteration per disc that a corner's run along an edge took (FFO #45: 6.0 iterations per
/// call from none; most calls come from the stability cut-off at 4 empties).
#[must_use]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    stable_discs_up_to(p, o, 65)
}

/// Some of `p`'s stable discs: all of them ([`stable_discs`]) when they are fewer than
/// `enough`, else at least `enough` of them (the iteration stops once it has found
/// `enough`: the stability cut-off only asks whether there are that many).
#[must_use]
pub fn stable_discs_up_to(p: u64, o: u64, enough: u32) -> u64 {
    let [fh, fv, f9, f7] = full_lines(p | o);
    let edges = stable_edges(p, fh, fv);
    let inner = p & !EDGE;
    let mut stable = edges | (inner & fh & fv & f9 & f7);
    if stable == 0 {
        // Every disc of the fixed point is first found by one of these rules.
        return 0;
    }
    // Shifts that wrap around a file always land on an edge square, which the inner
    // mask leaves out, so no wrap masks are needed.
    loop {
        if stable.count_ones() >= enough {
            return stable;
        }
        let h = fh | (stable << 1) | (stable >> 1);
        let v = fv | (stable << 8) | (stable >> 8);
        let d9 = f9 | (stable << 9) | (stable >> 9);
        let d7 = f7 | (stable << 7) | (stable >> 7);
        let next = edges | (inner & h & v & d9 & d7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The definition [`stable_discs`] computes: every disc iterated from none.
#[cfg(test)]
fn stable_discs_from_none(p: u64, o: u64) -> u64 {
    let [fh, fv, f9, f7] = full_lines(p | o);
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

    /// A xorshift64 generator started at `seed`.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

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

    /// The full-diagonal masks against the 30 diagonals checked one by one, on random
    /// occupancies of every density (sparse to full).
    #[test]
    fn full_diagonals_match_the_diagonals_one_by_one() {
        let mut diagonals = [[0u64; 15]; 2];
        for sq in 0..64 {
            let (f, r) = (sq % 8, sq / 8);
            diagonals[0][7 + r - f] |= 1u64 << sq;
            diagonals[1][r + f] |= 1u64 << sq;
        }
        let mut next = xorshift(0x0D1A_6047_5EEDu64);
        for i in 0..20_000 {
            // OR-ing 0 to 3 random words makes occupancies from half full to nearly full,
            // AND-ing gives the sparse ones.
            let mut occ = next();
            for _ in 0..i % 4 {
                occ |= next();
            }
            if i % 5 == 0 {
                occ &= next();
            }
            if i % 7 == 0 {
                occ = !(1u64 << (next() % 64));
            }
            let [_, _, d9, d7] = full_lines(occ);
            let mut want = [0u64; 2];
            for (w, lines) in want.iter_mut().zip(&diagonals) {
                for &m in lines {
                    if occ & m == m {
                        *w |= m;
                    }
                }
            }
            assert_eq!([d9, d7], want, "occ={occ:#x}");
        }
        assert_eq!(full_lines(!0)[2..], [!0, !0]);
        assert_eq!(full_lines(0)[2..], [0, 0]);
    }

    /// The seeded iteration reaches the fixed point of the plain one, on random boards from
    /// sparse to nearly full and on boards with full or nearly full edges.
    #[test]
    fn seeded_iteration_matches_iteration_from_none() {
        let mut next = xorshift(0x57AB_1E00_D15Cu64);
        let mut nonzero = 0;
        for i in 0..200_000 {
            let mut occ = next();
            for _ in 0..i % 5 {
                occ |= next();
            }
            if i % 3 == 0 {
                occ |= EDGE & next() | if i % 2 == 0 { RANK_1 } else { FILE_H };
            }
            if i % 11 == 0 {
                occ &= next();
            }
            let p = occ & next();
            let o = occ & !p;
            let want = stable_discs_from_none(p, o);
            assert_eq!(stable_discs(p, o), want, "p={p:#x} o={o:#x}");
            let enough = (i % 40) as u32;
            let some = stable_discs_up_to(p, o, enough);
            assert_eq!(some & !want, 0, "p={p:#x} o={o:#x}");
            assert!(
                some == want || some.count_ones() >= enough,
                "p={p:#x} o={o:#x}"
            );
            nonzero += usize::from(want != 0);
        }
        // The boards exercise the iteration, not only the empty answer.
        assert!(nonzero > 100_000, "{nonzero}");
    }

    #[test]
    fn lone_centre_disc_is_not_stable() {
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    }
}
