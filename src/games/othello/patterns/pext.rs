//! Pattern instances read straight from the bitboards with BMI2 `pext`, summed into one
//! stage's weights without building the 8 symmetric images or the feature index list: the
//! 46 instances of [`super`] (`patterns`), and by the same [`plan`] the 56 of [`super::v2`].
//!
//! Instance `s` of a pattern reads the image of the board under symmetry `s`. When `s`
//! transposes (bit 2), it reads the transposed board under the flips `s & 3`; the flips
//! only move squares, so each instance is one fixed set of squares of the board or of its
//! transpose (a [`Reading`]). `pext` returns those squares' bits in square order, not in
//! the pattern's digit order: a 1024-entry row of [`DIGITS`] per distinct order turns them
//! into the base-3 digits of the pattern (11 rows: straight order, the reversed diagonals,
//! and the flipped corner blocks and edge). Values are exactly those of
//! [`super::features`] (tested against a square-by-square reference).

use super::{OFFSETS, PATTERNS, Pattern, STAGE_SIZE, transform_square};

/// One pattern instance as squares of the board or of its transpose.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reading {
    /// Read from the transposed boards.
    pub transposed: bool,
    /// The squares read, as a bitboard.
    pub mask: u64,
    /// Row of [`DIGITS`] giving the base-3 digits of the bits `pext` returns.
    pub table: usize,
    /// Start of the pattern's weights within a stage.
    pub offset: usize,
}

/// Most distinct digit orders a plan may hold.
pub(super) const MAX_TABLES: usize = 24;

/// The readings of all `N` instances of a pattern set and the digit tables they use.
pub(super) struct Plan<const N: usize> {
    /// One reading per instance, in the order of the patterns and their instances.
    pub readings: [Reading; N],
    /// `digits[t][bits]`: the base-3 value of the bits `pext` returned, for digit order `t`.
    pub digits: [[u16; 1024]; MAX_TABLES],
}

/// Builds the [`Plan`] of `patterns` (`N` instances in all, at most 10 squares each), whose
/// tables start at `offsets` within a stage, at compile time.
pub(super) const fn plan<const N: usize>(patterns: &[Pattern], offsets: &[usize]) -> Plan<N> {
    let mut readings = [Reading {
        transposed: false,
        mask: 0,
        table: 0,
        offset: 0,
    }; N];
    let mut digits = [[0u16; 1024]; MAX_TABLES];
    // Digit order of each table: digit of the i-th square in ascending order.
    let mut orders = [[0u8; 10]; MAX_TABLES];
    let mut lens = [0usize; MAX_TABLES];
    let mut tables = 0;
    let mut n = 0;
    let mut k = 0;
    while k < patterns.len() {
        let pat = patterns[k];
        let len = pat.squares.len();
        let mut i = 0;
        while i < pat.instances.len() {
            let s = pat.instances[i];
            // Square of digit j on the board (or its transpose): the flips are involutions.
            let mut sq = [0u8; 10];
            let mut mask = 0u64;
            let mut j = 0;
            while j < len {
                sq[j] = transform_square(pat.squares[j], s & 3);
                mask |= 1 << sq[j];
                j += 1;
            }
            // Digit order: the digit of each set bit of `mask`, lowest square first.
            let mut order = [0u8; 10];
            let mut bit = 0;
            let mut q = 0;
            while q < 64 {
                if mask >> q & 1 == 1 {
                    let mut d = 0;
                    while sq[d] != q {
                        d += 1;
                    }
                    order[bit] = d as u8;
                    bit += 1;
                }
                q += 1;
            }
            // A table whose order agrees on the common length serves both (entries below
            // 2^len only depend on the first len digits); a longer order extends it.
            let mut t = 0;
            while t < tables {
                let common = if len < lens[t] { len } else { lens[t] };
                let mut same = true;
                let mut b = 0;
                while same && b < common {
                    same = orders[t][b] == order[b];
                    b += 1;
                }
                if same {
                    break;
                }
                t += 1;
            }
            if t == tables || len > lens[t] {
                assert!(t < MAX_TABLES, "too many digit orders");
                orders[t] = order;
                lens[t] = len;
                let mut x = 0;
                while x < 1 << len {
                    let mut v = 0u32;
                    let mut b = 0;
                    while b < len {
                        if x >> b & 1 == 1 {
                            v += 3u32.pow(order[b] as u32);
                        }
                        b += 1;
                    }
                    digits[t][x] = v as u16;
                    x += 1;
                }
                if t == tables {
                    tables += 1;
                }
            }
            readings[n] = Reading {
                transposed: s & 4 != 0,
                mask,
                table: t,
                offset: offsets[k],
            };
            n += 1;
            i += 1;
        }
        k += 1;
    }
    assert!(n == N, "the instance count of the set");
    Plan { readings, digits }
}

const PLAN: Plan<46> = plan::<46>(&PATTERNS, &OFFSETS);

/// The 46 instances in the order of [`PATTERNS`] and their instances.
pub(super) const READINGS: [Reading; 46] = PLAN.readings;

/// `DIGITS[t][bits]`: the base-3 value (in the pattern's digit order) of the squares whose
/// bits `pext` returned, for digit order `t`.
pub(super) static DIGITS: [[u16; 1024]; MAX_TABLES] = PLAN.digits;

/// The in-stage weight index of reading `r` with `bp`/`bo` the boards it reads (the
/// transposed ones if `r.transposed`): `digits(p bits) + 2 * digits(o bits)`, with `digits`
/// the plan's digit tables.
#[inline(always)]
pub(super) fn index(r: &Reading, digits: &[[u16; 1024]; MAX_TABLES], bp: u64, bo: u64) -> usize {
    use std::arch::x86_64::_pext_u64;
    let d = &digits[r.table];
    // SAFETY: this module is compiled only when BMI2 is enabled for the target, so the
    // CPU supports `pext`; it works on registers only.
    let (xp, xo) = unsafe { (_pext_u64(bp, r.mask), _pext_u64(bo, r.mask)) };
    // pext of a mask of at most 10 squares is below 1024.
    let (xp, xo) = (xp as usize & 1023, xo as usize & 1023);
    r.offset + usize::from(d[xp]) + 2 * usize::from(d[xo])
}

/// Whether every index [`index`] can return for `readings` is inside a stage of
/// `stage_size` weights, even for overlapping `p` and `o`: each digit row holds at most
/// `(3^n - 1) / 2`. Checked at compile time for each plan.
pub(super) const fn indices_fit(readings: &[Reading], stage_size: usize) -> bool {
    let mut i = 0;
    while i < readings.len() {
        let r = readings[i];
        let n = r.mask.count_ones();
        if r.offset + 3 * ((3usize.pow(n) - 1) / 2) >= stage_size {
            return false;
        }
        i += 1;
    }
    true
}

const _: () = assert!(indices_fit(&READINGS, STAGE_SIZE));

/// Sum of the weights (an `i32`) at the indices of the readings `$r` (a constant array path)
/// numbered by the literals, with digit tables `$d`, in one stage's weights `$w` (a slice
/// of at least the stage size that [`indices_fit`] checked) of boards `$p` (to move), `$o`
/// and their transposes `$pt`, `$ot`. A macro, so that each reading is a constant (its
/// mask an immediate) in an unrolled sum.
macro_rules! unrolled_sum {
    ($r:path, $d:expr, $w:expr, $p:expr, $o:expr, $pt:expr, $ot:expr; $($i:literal)*) => {
        0 $(+ {
            const R: $crate::games::othello::patterns::pext::Reading = $r[$i];
            let (bp, bo) = if R.transposed { ($pt, $ot) } else { ($p, $o) };
            let i = $crate::games::othello::patterns::pext::index(&R, $d, bp, bo);
            // SAFETY: `i` is below the stage size for every reading and any boards (the
            // plan's constant `indices_fit` assertion), and `$w` holds a stage's weights.
            // Unchecked, the compiler no longer computes all the indices (and spills them)
            // before the first weight load.
            i32::from(unsafe { *$w.get_unchecked(i) })
        })*
    };
}
pub(super) use unrolled_sum;

/// Sum of the 46 pattern weights of (`p` to move, `o`) in `w`, one stage's weights (the
/// mobility and bias weights are not included).
#[inline]
pub(super) fn pattern_sum(w: &[i16; STAGE_SIZE], p: u64, o: u64) -> i32 {
    use crate::games::othello::symmetry::transpose;
    let (pt, ot) = (transpose(p), transpose(o));
    unrolled_sum!(READINGS, &DIGITS, w, p, o, pt, ot; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
        17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reading covers its pattern's number of squares, and its digit row maps the
    /// `pext` bits of a single square to a distinct power of 3 (a permutation of digits).
    #[test]
    fn readings_are_digit_permutations() {
        let tables = READINGS.iter().map(|r| r.table).max().unwrap() + 1;
        // Straight order, 3 flipped corner blocks, 3 flipped 2x5 blocks (the h1 one also
        // reads the reversed diag5), the edge with b7/g7 first, reversed diag7/6/4.
        assert_eq!(tables, 11);
        let mut n = 0;
        for pat in &PATTERNS {
            for _ in pat.instances {
                let r = READINGS[n];
                let len = pat.squares.len();
                assert_eq!(r.mask.count_ones() as usize, len, "{} #{n}", pat.name);
                let mut powers: Vec<u16> = (0..len).map(|b| DIGITS[r.table][1 << b]).collect();
                powers.sort_unstable();
                let want: Vec<u16> = (0..len as u32).map(|j| 3u16.pow(j)).collect();
                assert_eq!(powers, want, "{} #{n}", pat.name);
                assert_eq!(
                    usize::from(DIGITS[r.table][(1 << len) - 1]),
                    (pat.size() - 1) / 2
                );
                n += 1;
            }
        }
        assert_eq!(n, 46);
    }
}
