//! Fast Othello perft on raw bitboards, bulk-counting at the last ply. Two plies above the
//! leaves, with AVX2, four children per vector from the move's bit to the count of their
//! legal moves (`children_leaves`); three plies above, four children per vector to their
//! own legal moves (`perft_3_avx2`); a node's own moves by one vector
//! ([`legal_moves_lanes`]).
//!
//! Convention ("mode 1" of Aart Bik and Egaroucid, `tests/data/othello/perft.txt`): a pass
//! is a move and consumes a ply; a finished game is a leaf counted at every depth at or
//! below the ply where it ended.

use super::movegen::{flips, legal_moves, legal_moves_lanes};
use super::position::Position;

impl crate::game::perft::Perft for Position {
    /// The fast count ([`perft`]).
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// Leaves of the game tree `depth` plies below `pos`.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_raw(pos.player(), pos.opponent(), depth)
}

/// Perft on (`p` to move, `o`), `depth >= 1`.
fn perft_raw(p: u64, o: u64, depth: u32) -> u64 {
    match depth {
        2 => return perft_2(p, o),
        3 => return perft_3(p, o),
        _ => {}
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        // Pass if the opponent can move, else the game is over: a leaf either way at depth 1.
        if depth == 1 || legal_moves(o, p) == 0 {
            return 1;
        }
        return perft_raw(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += perft_raw(o ^ f, p ^ f ^ (1u64 << sq), depth - 1);
    }
    n
}

/// Perft 3 on (`p` to move, `o`): with AVX2 four children per vector from the move's bit
/// to their own legal moves ([`perft_3_avx2`]), then [`children_leaves`] of each.
fn perft_3(p: u64, o: u64) -> u64 {
    let moves = legal_moves_lanes(p, o);
    if moves == 0 {
        if legal_moves_lanes(o, p) == 0 {
            return 1;
        }
        return perft_2(o, p);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        perft_3_avx2(p, o, moves)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        children_perft_2(p, o, moves)
    }
}

/// [`perft_2`] of each child of (`p` to move, `o`) reached by the legal `moves`, summed.
#[inline(always)]
fn children_perft_2(p: u64, o: u64, mut moves: u64) -> u64 {
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += perft_2(o ^ f, p ^ f ^ (1u64 << sq));
    }
    n
}

/// [`perft_3`] with the legal `moves` (not empty) of (`p` to move, `o`): while three or
/// more moves are left, four children per vector ([`flips_x4`], then
/// [`legal_moves_x4`](super::movegen::legal_moves_x4)) and each child's leaves from its
/// moves ([`children_leaves`], or the pass); the last one or two by [`children_perft_2`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
fn perft_3_avx2(p: u64, o: u64, mut moves: u64) -> u64 {
    use std::arch::x86_64::*;
    let mut n = 0;
    // SAFETY: compiled only when AVX2 is enabled for the target, so every intrinsic here
    // is supported by the CPU; no pointer is read or written (the transmutes are between
    // a vector and four u64 of the same 32 bytes).
    unsafe {
        let pv = _mm256_set1_epi64x(p as i64);
        let ov = _mm256_set1_epi64x(o as i64);
        while moves.count_ones() >= 3 {
            let mut x = [0u64; 4];
            for b in &mut x {
                *b = moves & moves.wrapping_neg();
                moves &= moves.wrapping_sub(1);
            }
            let xv: __m256i = std::mem::transmute(x);
            let f = flips_x4(pv, ov, xv);
            let cp: [u64; 4] = std::mem::transmute(_mm256_xor_si256(ov, _mm256_xor_si256(f, xv)));
            let co: [u64; 4] = std::mem::transmute(_mm256_xor_si256(pv, f));
            let m = super::movegen::legal_moves_x4(&cp, &co);
            for k in 0..4 {
                if x[k] == 0 {
                    break;
                }
                n += if m[k] == 0 {
                    // The child passes (or the game is over): its opponent's moves are
                    // the leaves.
                    leaves_1(legal_moves_lanes(co[k], cp[k]))
                } else {
                    children_leaves(cp[k], co[k], m[k])
                };
            }
        }
    }
    n + children_perft_2(p, o, moves)
}

/// Leaves one ply below a position with the legal moves `moves`: their count, or 1 when
/// there is none (a pass or the end of the game, a leaf either way).
#[inline(always)]
fn leaves_1(moves: u64) -> u64 {
    u64::from(moves.count_ones().max(1))
}

/// Perft 2 on (`p` to move, `o`): each child's leaves are its legal moves counted
/// ([`leaves_1`]).
#[inline(always)]
fn perft_2(p: u64, o: u64) -> u64 {
    let moves = legal_moves_lanes(p, o);
    if moves == 0 {
        // The pass (or the end of the game) consumes the ply: the opponent's moves are
        // the leaves.
        return leaves_1(legal_moves_lanes(o, p));
    }
    children_leaves(p, o, moves)
}

/// All squares except files a and h: masks horizontal and diagonal wrap-around.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Leaves one ply below each child of (`p` to move, `o`) reached by the legal `moves`
/// (not empty), summed: with AVX2 four children per vector ([`children_leaves_avx2`]) while
/// three or more moves are left, the last one or two one by one (cheaper than a vector);
/// without AVX2 one by one ([`children_leaves_scalar`]).
#[inline(always)]
fn children_leaves(p: u64, o: u64, moves: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        children_leaves_avx2(p, o, moves)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        children_leaves_scalar(p, o, moves)
    }
}

/// [`children_leaves`] one child at a time: flips, the child, its legal moves counted.
#[inline(always)]
fn children_leaves_scalar(p: u64, o: u64, mut moves: u64) -> u64 {
    let mut n = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        n += leaves_1(legal_moves_lanes(o ^ f, p ^ f ^ (1u64 << sq)));
    }
    n
}

/// [`children_leaves`] four children per AVX2 vector, one child in each 64-bit lane from
/// the move's bit to the leaf count: the four moves' flips ([`flips_x4`]), the children
/// made by XORs, their legal moves by
/// [`legal_moves_x4`](super::movegen::legal_moves_x4) (inlined: its arrays stay in
/// registers), and the counts by a nibble-table popcount (`vpshufb`, `vpsadbw`), a child
/// without moves counting 1 and a lane without a move 0. One or two moves left over go
/// through [`children_leaves_scalar`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn children_leaves_avx2(p: u64, o: u64, mut moves: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: compiled only when AVX2 is enabled for the target, so every intrinsic here
    // is supported by the CPU; no pointer is read or written (the transmutes are between
    // a vector and four u64 of the same 32 bytes).
    unsafe {
        let pv = _mm256_set1_epi64x(p as i64);
        let ov = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let nibble = _mm256_set1_epi8(0x0f);
        let bits = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let mut sum = zero;
        while moves.count_ones() >= 3 {
            // The next four moves' bits, 0 in a lane past the last move.
            let mut x = [0u64; 4];
            for b in &mut x {
                *b = moves & moves.wrapping_neg();
                moves &= moves.wrapping_sub(1);
            }
            let x: __m256i = std::mem::transmute(x);
            // Flips and the move's own bit (every legal move flips in some direction).
            let f = flips_x4(pv, ov, x);
            let cp: [u64; 4] = std::mem::transmute(_mm256_xor_si256(ov, _mm256_xor_si256(f, x)));
            let co: [u64; 4] = std::mem::transmute(_mm256_xor_si256(pv, f));
            let m: __m256i = std::mem::transmute(super::movegen::legal_moves_x4(&cp, &co));
            let count = _mm256_sad_epu8(
                _mm256_add_epi8(
                    _mm256_shuffle_epi8(bits, _mm256_and_si256(m, nibble)),
                    _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi64::<4>(m), nibble)),
                ),
                zero,
            );
            // No move: a pass or the end of the game, one leaf (`count - (-1)`).
            let leaves = _mm256_sub_epi64(count, _mm256_cmpeq_epi64(m, zero));
            sum = _mm256_add_epi64(
                sum,
                _mm256_andnot_si256(_mm256_cmpeq_epi64(x, zero), leaves),
            );
        }
        let half = _mm_add_epi64(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        (_mm_cvtsi128_si64(half) + _mm_extract_epi64::<1>(half)) as u64
            + children_leaves_scalar(p, o, moves)
    }
}

/// Flips of four legal moves from one position, one move per 64-bit lane, with the move's
/// own bit: `pv` and `ov` hold the side to move's and the opponent's discs in every lane,
/// `x` each lane's move as a single bit (or 0: then 0). Per lane and direction, a
/// Kogge-Stone fill from the move grows over the run of `o` discs next to it (by one, two,
/// four squares: up to seven); the run flips if a `p` disc ends it, and the move's bit
/// comes with every such run. Horizontal and diagonal runs stay on files b-g, so no shift
/// wraps round an edge.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn flips_x4(
    pv: std::arch::x86_64::__m256i,
    ov: std::arch::x86_64::__m256i,
    x: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    // SAFETY: compiled only when AVX2 is enabled for the target; registers only.
    unsafe {
        let zero = _mm256_setzero_si256();
        let inner = _mm256_and_si256(ov, _mm256_set1_epi64x(NOT_EDGE_FILES as i64));
        // One direction: shifts of one (`$s`), two (`$s2`) and four (`$s4`) squares by
        // `$sh` over the run mask `$m`; `$pre` (`$pre2`): squares of `$m` whose one (three)
        // squares behind are in `$m` too.
        macro_rules! run {
            ($m:expr, $pre:expr, $pre2:expr, $s:literal, $s2:literal, $s4:literal, $sh:ident) => {{
                let mut g = _mm256_or_si256(x, _mm256_and_si256($m, $sh::<$s>(x)));
                g = _mm256_or_si256(g, _mm256_and_si256($pre, $sh::<$s2>(g)));
                g = _mm256_or_si256(g, _mm256_and_si256($pre2, $sh::<$s4>(g)));
                let end = _mm256_and_si256($sh::<$s>(g), pv);
                _mm256_andnot_si256(_mm256_cmpeq_epi64(end, zero), g)
            }};
        }
        // Both directions of a line (shift `$s3`: three squares); the masks towards lower
        // bits are those towards higher bits shifted back.
        macro_rules! pair {
            ($m:expr, $s:literal, $s2:literal, $s3:literal, $s4:literal) => {{
                let m = $m;
                let pre = _mm256_and_si256(m, _mm256_slli_epi64::<$s>(m));
                let pre2 = _mm256_and_si256(pre, _mm256_slli_epi64::<$s2>(pre));
                _mm256_or_si256(
                    run!(m, pre, pre2, $s, $s2, $s4, _mm256_slli_epi64),
                    run!(
                        m,
                        _mm256_srli_epi64::<$s>(pre),
                        _mm256_srli_epi64::<$s3>(pre2),
                        $s,
                        $s2,
                        $s4,
                        _mm256_srli_epi64
                    ),
                )
            }};
        }
        _mm256_or_si256(
            _mm256_or_si256(pair!(inner, 1, 2, 3, 4), pair!(ov, 8, 16, 24, 32)),
            _mm256_or_si256(pair!(inner, 7, 14, 21, 28), pair!(inner, 9, 18, 27, 36)),
        )
    }
}

/// Perft with the children of the root counted in parallel threads is left to the search
/// layer's thread pool; this function splits the root moves for callers that want it:
/// returns `(move, leaves)` for each root move in square order (a pass appears as the
/// single entry when forced).
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(super::position::Move, u64)> {
    use crate::game::Game;
    let mut moves = <Position as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            (
                m,
                if depth == 0 {
                    1
                } else {
                    perft(&pos.play(m), depth - 1)
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::random_game_positions;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// The one-vector move generation against [`legal_moves`] on random boards of every
    /// density.
    #[test]
    fn legal_moves_lanes_matches_legal_moves() {
        let mut seed = 0x05EE_D0F1_A4E5_u64;
        for i in 0..20_000 {
            let a = xorshift(&mut seed);
            let b = xorshift(&mut seed);
            let c = if i % 3 == 0 { !0 } else { xorshift(&mut seed) };
            let p = a & b & c;
            let o = !a & c & !p;
            assert_eq!(
                legal_moves_lanes(p, o),
                legal_moves(p, o),
                "p={p:#x} o={o:#x}"
            );
            assert_eq!(
                legal_moves_lanes(o, p),
                legal_moves(o, p),
                "p={o:#x} o={p:#x}"
            );
        }
    }

    /// The children's leaves four per vector (and one by one) against each child made by
    /// [`flips`] and its moves counted by [`legal_moves`], over positions of random games
    /// (passes and finished games among the children), for every subset size of the moves
    /// (a lane past the last move, the one or two left over).
    #[test]
    fn children_leaves_match_one_by_one() {
        for pos in random_game_positions(3_000, 0xC0FF_EE00_D15C) {
            let (p, o) = (pos.player(), pos.opponent());
            let all = legal_moves(p, o);
            let mut moves = all;
            // Drop the moves one by one from the top: every count from all to one.
            while moves != 0 {
                let mut want = 0;
                let mut m = moves;
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = flips(p, o, sq);
                    want += u64::from(legal_moves(o ^ f, p ^ f ^ (1 << sq)).count_ones().max(1));
                }
                assert_eq!(
                    children_leaves(p, o, moves),
                    want,
                    "p={p:#x} o={o:#x} moves={moves:#x}"
                );
                assert_eq!(
                    children_leaves_scalar(p, o, moves),
                    want,
                    "p={p:#x} o={o:#x}"
                );
                moves &= !(1u64 << (63 - moves.leading_zeros()));
            }
        }
    }

    /// The fast perft against the generic one (move lists, copy-make) from positions of
    /// random games, through passes and finished games, at depths 1-4.
    #[test]
    fn perft_matches_generic_perft_from_random_positions() {
        for (i, pos) in random_game_positions(600, 0x0DD_BA11).iter().enumerate() {
            let depth = 1 + (i % 4) as u32;
            assert_eq!(
                perft(pos, depth),
                crate::game::perft::perft(pos, depth),
                "{pos:?} depth {depth}"
            );
        }
    }
}
