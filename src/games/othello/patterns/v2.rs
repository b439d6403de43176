//! The second pattern evaluation (file format 2, `builtin:patterns2`): a wider, Egaroucid-class
//! pattern set in finer stages, plus mobility, potential mobility and parity. Scores are
//! centi-discs of final disc difference, side to move's view, as for [`super`] (format 1).
//!
//! | name | squares of the base instance (digit order) | instances | table |
//! |------|---------------------------------------------|-----------|-------|
//! | `corner2x5` | a1..e1, a2..e2 | 8 | 3^10 |
//! | `edge+2x` | a1..h1, b2, g2 | 4 | 3^10 |
//! | `edge+2y` | a1..h1, c2, f2 | 4 | 3^10 |
//! | `diag8+2c` | a1 b2 .. h8, b1, a2 | 4 | 3^10 |
//! | `triangle` | a1 b1 c1 d1 a2 b2 c2 a3 b3 a4 | 4 | 3^10 |
//! | `corner3x3` | a1 b1 c1 a2 b2 c2 a3 b3 c3 | 4 | 3^9 |
//! | `line2`, `line3`, `line4` | a2..h2 / a3..h3 / a4..h4 | 4 each | 3^8 |
//! | `diag7` | b1 c2 .. h7 | 4 | 3^7 |
//! | `diag3+4` | c1 b2 a3, d1 c2 b3 a4 | 4 | 3^7 |
//! | `diag6`, `diag5` | c1 .. h6, d1 .. h5 | 4 each | 3^6, 3^5 |
//!
//! (Tables run from the largest to the smallest: `pext` indices of impossible boards, a disc
//! of both sides on one square, may run up to half a table past its end, which must stay
//! inside the stage.)
//!
//! Every line of 3 or more squares of the board (ranks, files, both diagonal directions) lies
//! in some instance; the corner blocks, the edges with their X- and C-adjacent squares and the
//! triangle read the corner regions whole. 56 instances, each one of the 8 symmetric images of
//! its pattern's base squares (as in format 1), so the evaluation is exactly invariant under
//! the symmetries of the board and a fit sees every sample in all 8 orientations at once.
//!
//! Besides the patterns, per stage: a table by the side to move's mobility and one by the
//! opponent's (0..=31 moves), one by each side's potential mobility (empty squares next to
//! the other side's discs, 0..=47), and a bias by the parity of the empties. [`STAGES`] = 30
//! stages of 2 plies.
//!
//! File format (`tuning/othello-patterns2.bin`): the text line `tessera-othello-patterns 2`,
//! `#` header lines saying how the weights were made, the line `end`, then a zlib stream of
//! the `STAGES x STAGE_SIZE` `i16` weights (centi-discs, stage-major, each stage's tables in
//! the order of [`PATTERNS`], then the five small tables): first every weight's low byte,
//! then every high byte (most high bytes are 0 or 255, which compresses well).

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use super::{Pattern, canonical_of};
use crate::games::othello::movegen::{legal_moves, neighbours};

/// Number of game stages, each with its own weights.
pub const STAGES: usize = 30;
/// Plies per stage: stage `min((60 - empties) / STAGE_PLIES, STAGES - 1)`.
pub const STAGE_PLIES: u32 = 2;

/// The stage of a position with `empties` empty squares.
#[inline]
#[must_use]
pub fn stage(empties: u32) -> usize {
    ((60u32.saturating_sub(empties) / STAGE_PLIES) as usize).min(STAGES - 1)
}

/// The pattern set, in table order (see the module docs).
pub const PATTERNS: [Pattern; 13] = [
    Pattern {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        instances: &[0, 1, 2, 3, 4, 5, 6, 7],
    },
    Pattern {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        instances: &[0, 2, 4, 6],
    },
    Pattern {
        name: "edge+2y",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 10, 13],
        instances: &[0, 2, 4, 6],
    },
    Pattern {
        name: "diag8+2c",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63, 1, 8],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "triangle",
        squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "line2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        instances: &[0, 2, 4, 6],
    },
    Pattern {
        name: "line3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        instances: &[0, 2, 4, 6],
    },
    Pattern {
        name: "line4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        instances: &[0, 2, 4, 6],
    },
    Pattern {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "diag3+4",
        squares: &[2, 9, 16, 3, 10, 17, 24],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
        instances: &[0, 1, 2, 3],
    },
];

/// Number of pattern instances.
pub const INSTANCES: usize = 56;
/// Size of each mobility table (moves 0..=31, more counted as 31).
pub const MOBILITY_SIZE: usize = 32;
/// Size of each potential-mobility table (0..=47 squares, more counted as 47).
pub const POTENTIAL_SIZE: usize = 48;

/// Start of each pattern's table within a stage; the last entry is the end of the tables.
pub const OFFSETS: [usize; PATTERNS.len() + 1] = {
    let mut t = [0usize; PATTERNS.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        t[i + 1] = t[i] + PATTERNS[i].size();
        i += 1;
    }
    t
};
/// Start of the side to move's mobility table within a stage.
pub const MOBILITY_MINE: usize = OFFSETS[PATTERNS.len()];
/// Start of the opponent's mobility table.
pub const MOBILITY_THEIRS: usize = MOBILITY_MINE + MOBILITY_SIZE;
/// Start of the side to move's potential-mobility table.
pub const POTENTIAL_MINE: usize = MOBILITY_THEIRS + MOBILITY_SIZE;
/// Start of the opponent's potential-mobility table.
pub const POTENTIAL_THEIRS: usize = POTENTIAL_MINE + POTENTIAL_SIZE;
/// The two parity weights (even, odd number of empties).
pub const PARITY: usize = POTENTIAL_THEIRS + POTENTIAL_SIZE;
/// Weights per stage.
pub const STAGE_SIZE: usize = PARITY + 2;
/// Weights (features) per position: the 56 instances, 2 mobilities, 2 potential mobilities,
/// the parity.
pub const FEATURES: usize = INSTANCES + 5;
/// Total weights of the evaluation.
pub const TOTAL_WEIGHTS: usize = STAGES * STAGE_SIZE;

/// Lanes of the index vector (the instances).
const LANES: usize = INSTANCES;

/// `POWERS[sq][n]`: 3^j when square `sq` is digit `j` of instance `n`, else 0.
static POWERS: [[u16; LANES]; 64] = super::incremental::powers::<LANES>(&PATTERNS, INSTANCES);

/// Per instance: the start of its pattern's table.
const LANE_OFFSETS: [u32; LANES] = {
    let mut t = [0u32; LANES];
    let mut n = 0;
    let mut k = 0;
    while k < PATTERNS.len() {
        let mut i = 0;
        while i < PATTERNS[k].instances.len() {
            t[n] = OFFSETS[k] as u32;
            n += 1;
            i += 1;
        }
        k += 1;
    }
    t
};

/// The in-table index of every instance of (`p` to move, `o`): digit 1 for `p`'s discs, 2
/// for `o`'s, summed square by square from [`POWERS`].
#[inline]
fn indices(p: u64, o: u64) -> [u16; LANES] {
    let mut x = [0u16; LANES];
    let mut add = |mut b: u64, times: u16| {
        while b != 0 {
            let row = &POWERS[b.trailing_zeros() as usize];
            for (v, &d) in x.iter_mut().zip(row) {
                *v += d * times;
            }
            b &= b - 1;
        }
    };
    add(p, 1);
    add(o, 2);
    x
}

/// The small tables' in-stage indices of (`p` to move, `o`): both mobilities, both
/// potential mobilities and the parity.
#[inline]
fn extras(p: u64, o: u64) -> [usize; 5] {
    let empty = !(p | o);
    let mp = (legal_moves(p, o).count_ones() as usize).min(MOBILITY_SIZE - 1);
    let mo = (legal_moves(o, p).count_ones() as usize).min(MOBILITY_SIZE - 1);
    let pp = ((neighbours(o) & empty).count_ones() as usize).min(POTENTIAL_SIZE - 1);
    let po = ((neighbours(p) & empty).count_ones() as usize).min(POTENTIAL_SIZE - 1);
    [
        MOBILITY_MINE + mp,
        MOBILITY_THEIRS + mo,
        POTENTIAL_MINE + pp,
        POTENTIAL_THEIRS + po,
        PARITY + (empty.count_ones() & 1) as usize,
    ]
}

/// The in-stage weight indices of (`p` to move, `o`): the 56 instances, then the five small
/// tables, in the order of [`FEATURES`].
#[must_use]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let mut out = [0u32; FEATURES];
    for ((f, &i), &off) in out.iter_mut().zip(&indices(p, o)).zip(&LANE_OFFSETS) {
        *f = off + u32::from(i);
    }
    for (f, e) in out[INSTANCES..].iter_mut().zip(extras(p, o)) {
        *f = e as u32;
    }
    out
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod fast {
    use super::super::pext::{MAX_TABLES, Plan, Reading, indices_fit, plan, unrolled_sum};
    use super::{INSTANCES, OFFSETS, PATTERNS, STAGE_SIZE};

    const PLAN: Plan<INSTANCES> = plan::<INSTANCES>(&PATTERNS, &OFFSETS);
    const READINGS: [Reading; INSTANCES] = PLAN.readings;
    static DIGITS: [[u16; 1024]; MAX_TABLES] = PLAN.digits;
    const _: () = assert!(indices_fit(&READINGS, STAGE_SIZE));

    /// Sum of the 56 pattern weights of (`p` to move, `o`) in one stage's weights `w`.
    #[inline]
    pub(super) fn pattern_sum(w: &[i16; STAGE_SIZE], p: u64, o: u64) -> i32 {
        use crate::games::othello::symmetry::transpose;
        let (pt, ot) = (transpose(p), transpose(o));
        unrolled_sum!(READINGS, &DIGITS, w, p, o, pt, ot; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
            16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42
            43 44 45 46 47 48 49 50 51 52 53 54 55)
    }
}

/// Sum of the 56 pattern weights from the index vector (CPUs without BMI2, and the
/// reference for the `pext` path).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "bmi2"),
    allow(dead_code, reason = "the portable path, tested against the pext path")
)]
fn pattern_sum_portable(w: &[i16; STAGE_SIZE], p: u64, o: u64) -> i32 {
    indices(p, o)
        .iter()
        .zip(&LANE_OFFSETS)
        .map(|(&i, &off)| i32::from(w[off as usize + usize::from(i)]))
        .sum()
}

/// Sum of the 56 pattern weights: `pext` with BMI2, else from the index vector.
#[inline]
fn pattern_sum(w: &[i16; STAGE_SIZE], p: u64, o: u64) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        fast::pattern_sum(w, p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pattern_sum_portable(w, p, o)
    }
}

/// The in-stage indices that share a weight (see [`super::canonical`]) for this set.
#[must_use]
pub fn canonical() -> &'static [u32] {
    static CANON: OnceLock<Vec<u32>> = OnceLock::new();
    CANON.get_or_init(|| canonical_of(&PATTERNS, &OFFSETS, STAGE_SIZE))
}

/// First line of a format-2 pattern weights file.
pub const MAGIC: &str = "tessera-othello-patterns 2";

/// Fitted weights of the format-2 evaluation (centi-discs, `i16`, stage-major), with the
/// header lines of the file they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights2 {
    w: Box<[i16]>,
    header: Vec<String>,
}

/// The shipped weights (`tuning/othello-patterns2.bin`), compiled into the binary.
static SHIPPED: &[u8] = include_bytes!("../../../../tuning/othello-patterns2.bin");

/// The shipped format-2 weights (`builtin:patterns2`), decompressed once.
///
/// # Panics
/// Never for the committed file (`tests/it/tuning/files.rs` loads it).
#[must_use]
pub fn shipped() -> Arc<PatternWeights2> {
    static W: OnceLock<Arc<PatternWeights2>> = OnceLock::new();
    Arc::clone(W.get_or_init(|| {
        Arc::new(
            PatternWeights2::from_bytes(SHIPPED, "tuning/othello-patterns2.bin (embedded)")
                .expect("the shipped pattern weights parse"),
        )
    }))
}

impl PatternWeights2 {
    /// Weights from `STAGES x STAGE_SIZE` values (stage-major), tied across mirrored
    /// configurations (see [`canonical`]).
    ///
    /// # Errors
    /// A wrong length, or values that differ between configurations sharing a weight.
    pub fn new(w: Vec<i16>, header: Vec<String>) -> Result<Self, String> {
        super::check_weights(&w, canonical(), STAGES, STAGE_SIZE)?;
        Ok(Self {
            w: w.into_boxed_slice(),
            header,
        })
    }

    /// The weights, stage-major.
    #[must_use]
    pub fn values(&self) -> &[i16] {
        &self.w
    }

    /// The header lines of the file (how the weights were made).
    #[must_use]
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Score of (`p` to move, `o`) in centi-discs for `p`, clamped to +-6400.
    #[inline]
    #[must_use]
    pub fn score(&self, p: u64, o: u64) -> i32 {
        let empties = (!(p | o)).count_ones();
        let w: &[i16; STAGE_SIZE] = self.w[stage(empties) * STAGE_SIZE..][..STAGE_SIZE]
            .try_into()
            .expect("a stage's weights");
        let small: i32 = extras(p, o).iter().map(|&i| i32::from(w[i])).sum();
        (pattern_sum(w, p, o) + small).clamp(-6400, 6400)
    }

    /// The file form (see the module docs).
    ///
    /// # Panics
    /// Never: compressing into memory cannot fail.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{MAGIC}\n").into_bytes();
        for h in &self.header {
            out.extend_from_slice(format!("# {h}\n").as_bytes());
        }
        out.extend_from_slice(b"end\n");
        let mut planes = Vec::with_capacity(2 * self.w.len());
        planes.extend(self.w.iter().map(|v| v.to_le_bytes()[0]));
        planes.extend(self.w.iter().map(|v| v.to_le_bytes()[1]));
        let mut z = flate2::write::ZlibEncoder::new(out, flate2::Compression::best());
        z.write_all(&planes).expect("writing to memory");
        z.finish().expect("writing to memory")
    }

    /// Parses the file form; `origin` names the file in errors.
    ///
    /// # Errors
    /// One line naming `origin`: a missing magic or `end` line, a corrupt or cut compressed
    /// stream, bytes after the stream, a wrong number of weights, or weights that are not
    /// symmetric.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Self, String> {
        let err = |m: String| format!("pattern weights file {origin}: {m}");
        let (header, data) = super::split_header(bytes, MAGIC).map_err(err)?;
        let mut planes = Vec::with_capacity(2 * TOTAL_WEIGHTS);
        let mut z = flate2::bufread::ZlibDecoder::new(data);
        (&mut z)
            .take(2 * TOTAL_WEIGHTS as u64 + 1)
            .read_to_end(&mut planes)
            .map_err(|e| {
                err(format!(
                    "the compressed weights are corrupt or cut short ({e})"
                ))
            })?;
        if planes.len() != 2 * TOTAL_WEIGHTS {
            return Err(err(format!(
                "{} bytes of weights, expected {} ({STAGES} stages x {STAGE_SIZE} weights x 2)",
                planes.len(),
                2 * TOTAL_WEIGHTS
            )));
        }
        // The stream ended (the read above reached its end): what the decoder left unread
        // follows it.
        let rest = z.into_inner().len();
        if rest > 0 {
            return Err(err(format!(
                "{rest} bytes after the end of the compressed weights"
            )));
        }
        let (lo, hi) = planes.split_at(TOTAL_WEIGHTS);
        let w = lo
            .iter()
            .zip(hi)
            .map(|(&l, &h)| i16::from_le_bytes([l, h]))
            .collect();
        Self::new(w, header).map_err(err)
    }

    /// Reads a format-2 weights file, cached by path (engines of every tournament game share
    /// one copy).
    ///
    /// # Errors
    /// As [`PatternWeights2::from_bytes`], or an unreadable file.
    pub fn load(path: &Path) -> Result<Arc<Self>, String> {
        static CACHE: Mutex<Vec<super::Cached<PatternWeights2>>> = Mutex::new(Vec::new());
        super::load_cached(&CACHE, path, Self::from_bytes)
    }

    /// Whether `bytes` start like a format-2 pattern weights file.
    #[must_use]
    pub fn is_pattern_file(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::super::transform_square;
    use super::*;
    use crate::games::othello::symmetry::symmetric_images;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn layout() {
        let n: usize = PATTERNS.iter().map(|p| p.instances.len()).sum();
        assert_eq!(n, INSTANCES);
        assert_eq!(stage(60), 0);
        assert_eq!(stage(59), 0);
        assert_eq!(stage(58), 1);
        assert_eq!(stage(2), 29);
        assert_eq!(stage(0), 29);
        assert!(PATTERNS.iter().all(|p| p.squares.len() <= 10));
    }

    /// The instances of each pattern are exactly its distinct images under the 8 symmetries.
    #[test]
    fn instances_are_the_distinct_symmetric_images() {
        for pat in &PATTERNS {
            let squares_of = |s: u8| -> u64 {
                (0..64u8)
                    .filter(|&x| pat.squares.contains(&transform_square(x, s)))
                    .fold(0u64, |m, x| m | 1 << x)
            };
            let mut mine: Vec<u64> = pat.instances.iter().map(|&s| squares_of(s)).collect();
            let n = mine.len();
            mine.sort_unstable();
            mine.dedup();
            assert_eq!(mine.len(), n, "{}: repeated instance", pat.name);
            for s in 0..8 {
                assert!(mine.contains(&squares_of(s)), "{}: image {s}", pat.name);
            }
        }
    }

    /// Every line of 3 or more squares (ranks, files, diagonals, anti-diagonals) lies inside
    /// some instance.
    #[test]
    fn every_line_of_three_or_more_squares_is_covered() {
        let instance_masks: Vec<u64> = PATTERNS
            .iter()
            .flat_map(|pat| {
                pat.instances.iter().map(move |&s| {
                    (0..64u8)
                        .filter(|&x| pat.squares.contains(&transform_square(x, s)))
                        .fold(0u64, |m, x| m | 1 << x)
                })
            })
            .collect();
        let mut lines: Vec<u64> = Vec::new();
        for i in 0..8 {
            lines.push(0xFF << (8 * i));
            lines.push(0x0101_0101_0101_0101 << i);
        }
        for d in -7i32..=7 {
            let (mut diag, mut anti) = (0u64, 0u64);
            for f in 0..8i32 {
                let r = f + d;
                if (0..8).contains(&r) {
                    diag |= 1 << (r * 8 + f);
                    anti |= 1 << (r * 8 + 7 - f);
                }
            }
            lines.push(diag);
            lines.push(anti);
        }
        let long: Vec<u64> = lines.into_iter().filter(|l| l.count_ones() >= 3).collect();
        assert_eq!(long.len(), 16 + 2 * 11);
        for l in long {
            assert!(
                instance_masks.iter().any(|m| m & l == l),
                "line {l:#018x} is in no instance"
            );
        }
    }

    fn random_weights(seed: u64) -> PatternWeights2 {
        let canon = canonical();
        let mut s = seed;
        let mut w = vec![0i16; TOTAL_WEIGHTS];
        for st in 0..STAGES {
            let base = st * STAGE_SIZE;
            for i in 0..STAGE_SIZE {
                let c = canon[i] as usize;
                w[base + i] = if c == i {
                    (xorshift(&mut s) % 201) as i16 - 100
                } else {
                    w[base + c]
                };
            }
        }
        PatternWeights2::new(w, vec!["test".into()]).unwrap()
    }

    /// Independent reference: each instance's index digit by digit from the square lists.
    fn reference_score(w: &PatternWeights2, p: u64, o: u64) -> i32 {
        let empty = !(p | o);
        let st = &w.values()[stage(empty.count_ones()) * STAGE_SIZE..][..STAGE_SIZE];
        let mut sum = 0i32;
        for (k, pat) in PATTERNS.iter().enumerate() {
            for &s in pat.instances {
                let mut idx = 0;
                for &q in pat.squares.iter().rev() {
                    let x = (0..64u8).find(|&x| transform_square(x, s) == q).unwrap();
                    let digit = if p >> x & 1 == 1 {
                        1
                    } else if o >> x & 1 == 1 {
                        2
                    } else {
                        0
                    };
                    idx = idx * 3 + digit;
                }
                sum += i32::from(st[OFFSETS[k] + idx]);
            }
        }
        let mp = (legal_moves(p, o).count_ones() as usize).min(31);
        let mo = (legal_moves(o, p).count_ones() as usize).min(31);
        // Potential mobility by its definition: empty squares with a neighbour of the
        // other side.
        let pot = |them: u64| {
            (0..64i32)
                .filter(|&q| empty >> q & 1 == 1)
                .filter(|&q| {
                    (-1..=1).any(|dr| {
                        (-1..=1).any(|df| {
                            let (r, f) = (q / 8 + dr, q % 8 + df);
                            (dr, df) != (0, 0)
                                && (0..8).contains(&r)
                                && (0..8).contains(&f)
                                && them >> (r * 8 + f) & 1 == 1
                        })
                    })
                })
                .count()
                .min(47)
        };
        sum += i32::from(st[MOBILITY_MINE + mp]) + i32::from(st[MOBILITY_THEIRS + mo]);
        sum += i32::from(st[POTENTIAL_MINE + pot(o)]) + i32::from(st[POTENTIAL_THEIRS + pot(p)]);
        sum += i32::from(st[PARITY + (empty.count_ones() % 2) as usize]);
        sum.clamp(-6400, 6400)
    }

    #[test]
    fn score_matches_the_reference_and_is_symmetric() {
        let weights = [random_weights(1), random_weights(0xBEEF)];
        let positions = crate::games::othello::random_game_positions(600, 0x5EED_2222);
        for w in &weights {
            for pos in &positions {
                let (p, o) = (pos.player(), pos.opponent());
                let want = reference_score(w, p, o);
                assert_eq!(w.score(p, o), want, "{pos}");
                let st: &[i16; STAGE_SIZE] = w.values()
                    [stage((!(p | o)).count_ones()) * STAGE_SIZE..][..STAGE_SIZE]
                    .try_into()
                    .unwrap();
                assert_eq!(pattern_sum_portable(st, p, o), pattern_sum(st, p, o));
                let f = features(p, o);
                let via_features: i32 = f.iter().map(|&i| i32::from(st[i as usize])).sum();
                assert_eq!(via_features.clamp(-6400, 6400), want, "features");
                for img in symmetric_images(pos) {
                    assert_eq!(w.score(img.player(), img.opponent()), want, "{img}");
                }
            }
        }
    }

    #[test]
    fn file_round_trip_and_errors() {
        let w = random_weights(7);
        let bytes = w.to_bytes();
        assert!(PatternWeights2::is_pattern_file(&bytes));
        assert_eq!(PatternWeights2::from_bytes(&bytes, "w.bin").unwrap(), w);
        let e = PatternWeights2::from_bytes(&bytes[..bytes.len() - 40], "w.bin").unwrap_err();
        assert!(e.contains("w.bin") && e.contains("cut short"), "{e}");
        let e = PatternWeights2::from_bytes(b"tessera-othello-patterns 1\nend\n", "v1.bin")
            .unwrap_err();
        assert!(e.contains("v1.bin") && e.contains("first line"), "{e}");
        let short = PatternWeights2 {
            w: vec![0; 10].into_boxed_slice(),
            header: Vec::new(),
        };
        let e = PatternWeights2::from_bytes(&short.to_bytes(), "s.bin").unwrap_err();
        assert!(e.contains("20 bytes of weights"), "{e}");
        let mut v = w.values().to_vec();
        let i = (0..STAGE_SIZE)
            .find(|&i| canonical()[i] as usize != i)
            .unwrap();
        v[i] = v[i].wrapping_add(1);
        assert!(
            PatternWeights2::new(v, Vec::new())
                .unwrap_err()
                .contains("not symmetric")
        );
    }
}
