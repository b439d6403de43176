//! Move generation and flips on two bitboards (`p` = discs of the side to move,
//! `o` = the opponent's), by directional shifts: no per-square loops.
//!
//! Bit layout: bit = rank*8 + file with `a1` = bit 0; a shift by 1 moves one file right
//! (towards h), by 8 one rank down (towards rank 8).

/// All squares except files a and h: masks horizontal and diagonal wrap-around.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Legal placements for the side owning `p` against `o`: empty squares from which a line
/// of one or more `o` discs, ended by a `p` disc, runs in some direction.
///
/// Kogge-Stone style fill in each of the 8 directions (the doubling of Edax's
/// `get_moves`); about 60 integer operations, branch-free.
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn dir(p: u64, m: u64, s: u32) -> u64 {
        // Towards higher bits.
        let mut fl = m & (p << s);
        fl |= m & (fl << s);
        let pre_l = m & (m << s);
        fl |= pre_l & (fl << (2 * s));
        fl |= pre_l & (fl << (2 * s));
        // Towards lower bits.
        let mut fr = m & (p >> s);
        fr |= m & (fr >> s);
        let pre_r = m & (m >> s);
        fr |= pre_r & (fr >> (2 * s));
        fr |= pre_r & (fr >> (2 * s));
        (fl << s) | (fr >> s)
    }
    let inner = o & NOT_EDGE_FILES;
    let moves = dir(p, inner, 1) | dir(p, o, 8) | dir(p, inner, 7) | dir(p, inner, 9);
    moves & !(p | o)
}

/// [`legal_moves`] with AVX2 by one vector, the four direction pairs (shifts 1, 8, 7, 9
/// both ways) in its four 64-bit lanes, the same fills as [`legal_moves`]; without AVX2,
/// [`legal_moves`].
#[inline(always)]
#[must_use]
pub fn legal_moves_lanes(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        legal_moves_lanes_avx2(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves(p, o)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn legal_moves_lanes_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: compiled only when AVX2 is enabled for the target, so every intrinsic here
    // is supported by the CPU; registers only.
    unsafe {
        let pv = _mm256_set1_epi64x(p as i64);
        let inner = (o & NOT_EDGE_FILES) as i64;
        // Lanes: shifts 1 (horizontal), 8 (vertical), 7 and 9 (diagonals); runs of `o`
        // discs off files a and h except vertically.
        let m = _mm256_set_epi64x(inner, inner, o as i64, inner);
        let s1 = _mm256_set_epi64x(9, 7, 8, 1);
        let s2 = _mm256_set_epi64x(18, 14, 16, 2);
        let mut fl = _mm256_and_si256(m, _mm256_sllv_epi64(pv, s1));
        fl = _mm256_or_si256(fl, _mm256_and_si256(m, _mm256_sllv_epi64(fl, s1)));
        let pre_l = _mm256_and_si256(m, _mm256_sllv_epi64(m, s1));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, s2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, s2)));
        let mut fr = _mm256_and_si256(m, _mm256_srlv_epi64(pv, s1));
        fr = _mm256_or_si256(fr, _mm256_and_si256(m, _mm256_srlv_epi64(fr, s1)));
        let pre_r = _mm256_srlv_epi64(pre_l, s1);
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, s2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, s2)));
        let all = _mm256_or_si256(_mm256_sllv_epi64(fl, s1), _mm256_srlv_epi64(fr, s1));
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        let all = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(all) as u64) & !(p | o)
    }
}

/// [`legal_moves`] of four positions at once: `[legal_moves(p[i], o[i]); 4]` (for the
/// ordering keys of a node's children).
///
/// With AVX2 (the build targets the host CPU) the four positions run in the four lanes of
/// one vector, the four directions one after the other (the same fills as
/// [`legal_moves`], which runs the directions in the lanes); without it, four calls of
/// [`legal_moves`].
#[inline]
#[must_use]
pub fn legal_moves_x4(p: &[u64; 4], o: &[u64; 4]) -> [u64; 4] {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        legal_moves_x4_avx2(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        std::array::from_fn(|i| legal_moves(p[i], o[i]))
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
fn legal_moves_x4_avx2(p: &[u64; 4], o: &[u64; 4]) -> [u64; 4] {
    use std::arch::x86_64::*;
    // SAFETY: compiled only when AVX2 is enabled for the target, so every intrinsic here
    // is supported by the CPU; the loads read the 32 bytes of `p` and `o`, the store
    // writes the 32 bytes of `out` (unaligned loads and store).
    unsafe {
        let pv = _mm256_loadu_si256(p.as_ptr().cast());
        let ov = _mm256_loadu_si256(o.as_ptr().cast());
        let inner = _mm256_and_si256(ov, _mm256_set1_epi64x(NOT_EDGE_FILES as i64));
        // One direction pair (shift `$s` and `2 * $s` = `$s2`) over the run mask `$m`.
        macro_rules! dir {
            ($m:expr, $s:literal, $s2:literal) => {{
                let m = $m;
                let mut fl = _mm256_and_si256(m, _mm256_slli_epi64::<$s>(pv));
                fl = _mm256_or_si256(fl, _mm256_and_si256(m, _mm256_slli_epi64::<$s>(fl)));
                let pre_l = _mm256_and_si256(m, _mm256_slli_epi64::<$s>(m));
                fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_slli_epi64::<$s2>(fl)));
                fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_slli_epi64::<$s2>(fl)));
                let mut fr = _mm256_and_si256(m, _mm256_srli_epi64::<$s>(pv));
                fr = _mm256_or_si256(fr, _mm256_and_si256(m, _mm256_srli_epi64::<$s>(fr)));
                let pre_r = _mm256_srli_epi64::<$s>(pre_l);
                fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srli_epi64::<$s2>(fr)));
                fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srli_epi64::<$s2>(fr)));
                _mm256_or_si256(_mm256_slli_epi64::<$s>(fl), _mm256_srli_epi64::<$s>(fr))
            }};
        }
        let all = _mm256_or_si256(
            _mm256_or_si256(dir!(inner, 1, 2), dir!(ov, 8, 16)),
            _mm256_or_si256(dir!(inner, 7, 14), dir!(inner, 9, 18)),
        );
        let moves = _mm256_andnot_si256(_mm256_or_si256(pv, ov), all);
        let mut out = [0u64; 4];
        _mm256_storeu_si256(out.as_mut_ptr().cast(), moves);
        out
    }
}

/// Squares on the ray from `sq` in direction (df, dr), `sq` excluded.
const fn ray(sq: usize, df: i32, dr: i32) -> u64 {
    let mut f = (sq % 8) as i32 + df;
    let mut r = (sq / 8) as i32 + dr;
    let mut m = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        m |= 1u64 << (r * 8 + f);
        f += df;
        r += dr;
    }
    m
}

/// Rays towards higher bit indices: E, SW, S, SE (per square).
static RAYS_UP: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [ray(sq, 1, 0), ray(sq, -1, 1), ray(sq, 0, 1), ray(sq, 1, 1)];
        sq += 1;
    }
    t
};

/// Rays towards lower bit indices: W, NE, N, NW (per square).
static RAYS_DOWN: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [
            ray(sq, -1, 0),
            ray(sq, 1, -1),
            ray(sq, 0, -1),
            ray(sq, -1, -1),
        ];
        sq += 1;
    }
    t
};

/// Discs flipped when the side owning `p` plays on the empty square `sq` (0..64) against
/// `o`; 0 if the placement brackets nothing (is illegal).
///
/// With AVX2 (the build targets the host CPU): the four directions towards higher bits run
/// in the four lanes of one vector and the four towards lower bits in another. Towards
/// higher bits the first square of each ray (`RAYS_UP`) that is not an `o` disc is
/// isolated as the lowest set bit (`x & -x`); towards lower bits a Kogge-Stone fill grows
/// the run of `o` discs next to `sq`; a run flips if a `p` disc ends it. Without AVX2, the
/// scalar routine [`flips_scalar`].
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        flips_avx2(p, o, sq)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
fn flips_avx2(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: compiled only when AVX2 is enabled for the target, so every intrinsic here
    // is supported by the CPU; the one load reads the 32 bytes of `RAYS_UP[sq & 63]`
    // (unaligned load), all else operates on registers.
    unsafe {
        let pp = _mm256_set1_epi64x(p as i64);
        let inner = (o & NOT_EDGE_FILES) as i64;
        // Lane order: shifts 1 (horizontal), 8 (vertical), 7 and 9 (diagonals).
        let om = _mm256_set_epi64x(inner, inner, o as i64, inner);
        let s1 = _mm256_set_epi64x(9, 7, 8, 1);
        let s2 = _mm256_add_epi64(s1, s1);
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let zero = _mm256_setzero_si256();

        // Towards higher bits, as in `flips_scalar`: the lowest square of each ray that is
        // not an `o` disc, if it holds a `p` disc, ends the run that flips.
        let ray = _mm256_loadu_si256(RAYS_UP[sq & 63].as_ptr().cast());
        let stop = _mm256_andnot_si256(_mm256_set1_epi64x(o as i64), ray);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let outflank = _mm256_and_si256(first, pp);
        let below = _mm256_add_epi64(outflank, _mm256_cmpeq_epi64(zero, zero));
        let up = _mm256_andnot_si256(
            _mm256_cmpeq_epi64(outflank, zero),
            _mm256_and_si256(below, ray),
        );

        // Towards lower bits.
        let mut f = _mm256_and_si256(om, _mm256_srlv_epi64(x, s1));
        f = _mm256_or_si256(f, _mm256_and_si256(om, _mm256_srlv_epi64(f, s1)));
        let pre = _mm256_and_si256(om, _mm256_srlv_epi64(om, s1));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, s2)));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, s2)));
        let end = _mm256_and_si256(_mm256_srlv_epi64(f, s1), pp);
        let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(end, zero), f);

        let all = _mm256_or_si256(up, down);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256(all, 1),
        );
        (_mm_cvtsi128_si64(half) | _mm_extract_epi64(half, 1)) as u64
    }
}

/// Scalar flips (see [`flips`]): per direction, the first square on the ray from `sq` that
/// is not an `o` disc is the "outflank" square; if it holds a `p` disc, every ray square
/// before it flips. Towards higher bits that square is the lowest set bit of `!o & ray`,
/// towards lower bits the highest.
#[inline]
#[must_use]
pub fn flips_scalar(p: u64, o: u64, sq: usize) -> u64 {
    let mut f = 0u64;
    let up = &RAYS_UP[sq];
    let down = &RAYS_DOWN[sq];
    let not_o = !o;
    for d in 0..4 {
        let ray = up[d];
        let stop = not_o & ray;
        let outflank = stop & stop.wrapping_neg() & p;
        f |= outflank.wrapping_sub(1) & ray & ((outflank != 0) as u64).wrapping_neg();

        let ray = down[d];
        let stop = not_o & ray;
        // Highest set bit of `stop` (0 if none).
        let hi = (1u64 << 63).checked_shr(stop.leading_zeros()).unwrap_or(0);
        let outflank = hi & p;
        // Ray squares above the outflank square.
        f |= ray & !(outflank << 1).wrapping_sub(1) & ((outflank != 0) as u64).wrapping_neg();
    }
    f
}

/// The 8-neighbourhood of each square: a placement on `sq` can only be legal if
/// `NEIGHBOURS[sq]` holds an opponent disc.
pub static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    t
};

/// Empty squares adjacent (8-neighbourhood) to a disc in `b`: the "potential mobility"
/// frontier around `b`.
#[inline]
#[must_use]
pub fn neighbours(b: u64) -> u64 {
    let l = (b >> 1) & 0x7F7F_7F7F_7F7F_7F7F; // to the west: never lands on file h
    let r = (b << 1) & 0xFEFE_FEFE_FEFE_FEFE; // to the east: never lands on file a
    let row = b | l | r;
    (row | (row << 8) | (row >> 8)) & !b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference implementation: walk each direction square by square.
    fn flips_slow(p: u64, o: u64, sq: usize) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut all = 0;
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut line = 0u64;
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + f);
                if o & b != 0 {
                    line |= b;
                } else {
                    if p & b != 0 {
                        all |= line;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        all
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn flips_and_moves_match_reference_on_random_boards() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let a = xorshift(&mut seed);
            let b = xorshift(&mut seed);
            let p = a & b;
            let o = a & !b & xorshift(&mut seed) | (!a & b & xorshift(&mut seed));
            let o = o & !p;
            let mut moves = 0;
            for sq in 0..64 {
                let slow = flips_slow(p, o, sq);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(p, o, sq), slow, "p={p:#x} o={o:#x} sq={sq}");
                    assert_eq!(flips_scalar(p, o, sq), slow, "p={p:#x} o={o:#x} sq={sq}");
                }
                if slow != 0 {
                    moves |= 1 << sq;
                }
            }
            assert_eq!(legal_moves(p, o), moves, "p={p:#x} o={o:#x}");
        }
    }

    /// The four-position move generation against [`legal_moves`] one by one, on random
    /// boards of every density (the AVX2 lanes and the portable calls alike).
    #[test]
    fn legal_moves_x4_matches_legal_moves() {
        let mut seed = 0x00C0_FFEE_1234_5678u64;
        for i in 0..20_000 {
            let mut p = [0u64; 4];
            let mut o = [0u64; 4];
            for k in 0..4 {
                let a = xorshift(&mut seed);
                let b = xorshift(&mut seed);
                let c = if i % 3 == 0 { !0 } else { xorshift(&mut seed) };
                p[k] = a & b & c;
                o[k] = !a & c & !p[k];
            }
            let want: [u64; 4] = std::array::from_fn(|k| legal_moves(p[k], o[k]));
            assert_eq!(legal_moves_x4(&p, &o), want, "p={p:x?} o={o:x?}");
        }
    }

    #[test]
    fn start_position_moves() {
        // d5 (35) and e4 (28) Black; d4 (27) and e5 (36) White.
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        let m = legal_moves(black, white);
        // d3 (19), c4 (26), f5 (37), e6 (44).
        assert_eq!(m, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(black, white, 37), 1 << 36);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(neighbours(1 << 7), (1 << 6) | (1 << 14) | (1 << 15));
        assert_eq!(
            neighbours(1 << 8),
            (1 << 0) | (1 << 1) | (1 << 9) | (1 << 16) | (1 << 17)
        );
    }
}
