//! Flip count of the last empty square by line lookup, without building the flip mask
//! (Edax's `count_last_flip` idea, written here as four table lookups).
//!
//! With one empty square every other square holds a disc, so the opponent's discs are all
//! the squares not the mover's: the flips on each of the four lines through the square
//! depend only on the mover's discs on that line. Each line is gathered into a byte (its
//! squares in file order, or rank order for the vertical line) and [`FLIP_COUNT`] gives the
//! discs flipped on it.

/// All squares of file a.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Discs flipped on one line of 8 squares by a placement at position `pos` (0..8) when the
/// mover's discs on the line are the bits of `line` and every other square of the line
/// is the opponent's (the placement square's own bit is ignored).
const fn line_flips(pos: i32, line: u32) -> u8 {
    let mut total = 0;
    let mut d = -1;
    while d <= 1 {
        let mut k = pos + d;
        let mut run = 0;
        while k >= 0 && k < 8 {
            if line >> k & 1 == 1 {
                total += run;
                break;
            }
            run += 1;
            k += d;
        }
        d += 2;
    }
    total
}

/// `FLIP_COUNT[pos][line]`: [`line_flips`] for every position and line byte.
static FLIP_COUNT: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            t[pos][line] = line_flips(pos as i32, line as u32);
            line += 1;
        }
        pos += 1;
    }
    t
};

/// The two diagonals through each square: a1-h8 direction, then h1-a8 direction.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (g, s) = (other % 8, other / 8);
            if s - g == r - f {
                t[sq][0] |= 1u64 << other;
            }
            if s + g == r + f {
                t[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// The four lines through each square as `pext` masks, with the row of [`FLIP_COUNT`] for
/// the square's position in each line's gathered byte: rank (position = file), file
/// (position = rank), a1-h8 diagonal (position = min(file, rank)), h1-a8 diagonal
/// (position = min(rank, 7 - file)). `pext` gathers a line's squares in square order, which
/// is the order along the line. The row itself (not its position) is stored, so a lookup
/// is one load indexed by the line byte (no position byte to extract and scale, no bounds
/// check). With the opponent's count out of line in `solve_last`, callgrind instructions
/// (`solve othello --ffo N --json`, same nodes): #47 3,656.9 M -> 3,570.6 M (-2.4 %), #41
/// 3,492.2 M -> 3,402.2 M (-2.6 %). Not kept: a flat table indexed by `pos * 256 | line`
/// with the offsets in `u16` (#47 +24 M: the offsets were spilled like the masks).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[derive(Clone, Copy)]
struct LastLines {
    masks: [u64; 4],
    rows: [&'static [u8; 256]; 4],
}

/// [`LastLines`] of every square.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
static LAST_LINES: [LastLines; 64] = {
    let mut t = [LastLines {
        masks: [0; 4],
        rows: [&FLIP_COUNT[0]; 4],
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        t[sq].masks = [
            0xFF << (sq & 56),
            FILE_A << f,
            DIAGONALS[sq][0],
            DIAGONALS[sq][1],
        ];
        let d1 = if f < r { f } else { r };
        let d2 = if r < 7 - f { r } else { 7 - f };
        t[sq].rows = [
            &FLIP_COUNT[f],
            &FLIP_COUNT[r],
            &FLIP_COUNT[d1],
            &FLIP_COUNT[d2],
        ];
        sq += 1;
    }
    t
};

/// Discs flipped when the owner of `p` plays on `sq`, the board's only empty square (the
/// opponent owns every other square not in `p`; bit `sq` of `p` is ignored). 0 when the
/// placement is illegal.
///
/// With BMI2 (the build targets the host CPU) each line is gathered by one `pext`
/// ([`LAST_LINES`]); without it by shifts and multiplications
/// ([`last_flip_count_portable`]).
#[inline]
#[must_use]
pub(super) fn last_flip_count(p: u64, sq: usize) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        use std::arch::x86_64::_pext_u64;
        let l = &LAST_LINES[sq & 63];
        let mut n = 0;
        for k in 0..4 {
            // SAFETY: compiled only when BMI2 is enabled for the target.
            let line = unsafe { _pext_u64(p, l.masks[k]) } as u8;
            n += i32::from(l.rows[k][usize::from(line)]);
        }
        n
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        last_flip_count_portable(p, sq)
    }
}

/// [`last_flip_count`] without BMI2: each line gathered into a byte by shifts and a
/// multiplication.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "bmi2", not(test)),
    allow(dead_code)
)]
#[inline]
#[must_use]
fn last_flip_count_portable(p: u64, sq: usize) -> i32 {
    let sq = sq & 63;
    let (f, r) = (sq & 7, sq >> 3);
    let row = (p >> (sq & 56)) as u8;
    // File to byte: rank k of the file lands on bit k of the top byte (no carries: every
    // partial product has its own bit).
    let col = (((p >> f) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    // A diagonal has one square per file: summing its bytes gathers it in file order.
    let [d1, d2] = DIAGONALS[sq];
    let diag1 = ((p & d1).wrapping_mul(FILE_A) >> 56) as u8;
    let diag2 = ((p & d2).wrapping_mul(FILE_A) >> 56) as u8;
    // Squares beyond a diagonal's ends read as 0 (opponent): a run reaching them finds no
    // mover's disc, so it flips nothing, as at the board's edge.
    i32::from(FLIP_COUNT[f][row as usize])
        + i32::from(FLIP_COUNT[r][col as usize])
        + i32::from(FLIP_COUNT[f][diag1 as usize])
        + i32::from(FLIP_COUNT[f][diag2 as usize])
}

#[cfg(test)]
mod tests {
    use super::{last_flip_count, last_flip_count_portable};
    use crate::games::othello::movegen::flips;

    /// Against the flip mask of the move generator on random full boards, every square as
    /// the last empty one, for both sides; the BMI2 and the portable gathering alike.
    #[test]
    fn last_flip_count_matches_the_flip_mask() {
        let mut seed = 0x5EED_1A57_F11Bu64;
        for _ in 0..3_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for sq in 0..64 {
                let p = seed & !(1u64 << sq);
                let o = !seed & !(1u64 << sq);
                assert_eq!(
                    last_flip_count(p, sq),
                    flips(p, o, sq).count_ones() as i32,
                    "p={p:#x} sq={sq}"
                );
                assert_eq!(
                    last_flip_count(o, sq),
                    flips(o, p, sq).count_ones() as i32,
                    "o={o:#x} sq={sq}"
                );
                assert_eq!(last_flip_count_portable(p, sq), last_flip_count(p, sq));
                assert_eq!(last_flip_count_portable(o, sq), last_flip_count(o, sq));
            }
        }
    }

    /// Hand-worked: a1 empty, the mover owns h8 and everything else is the opponent's: the
    /// long diagonal b2..g7 flips (6 discs), the rank and file end on no mover's disc.
    #[test]
    fn last_flip_count_hand_worked() {
        let p = 1u64 << 63;
        assert_eq!(last_flip_count(p, 0), 6);
        // Adding the mover's h1 and a8 flips b1..g1 and a2..a7 too.
        assert_eq!(last_flip_count(p | 1 << 7 | 1 << 56, 0), 18);
        // The mover owning a2 and b1 and b2: nothing to flip.
        assert_eq!(last_flip_count(1 << 8 | 1 << 1 | 1 << 9, 0), 0);
    }
}
