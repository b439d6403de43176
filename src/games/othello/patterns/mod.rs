//! Pattern evaluation (Logistello / Edax style): the board is cut into 46 overlapping
//! lines and blocks, each read as a base-3 number (empty 0, side to move 1, opponent 2)
//! that indexes a table of fitted weights, plus two mobility tables and a bias, per game
//! stage. Scores are centi-discs of final disc difference, side to move's view.
//!
//! Patterns (Edax's set; squares listed in digit order, least significant first):
//!
//! | name | squares of the base instance | instances | table |
//! |------|------------------------------|-----------|-------|
//! | `corner3x3` | a1 b1 c1 a2 b2 c2 a3 b3 c3 | 4 | 3^9 |
//! | `corner2x5` | a1..e1, a2..e2 | 8 | 3^10 |
//! | `edge2x` | a1..h1, b2, g2 | 4 | 3^10 |
//! | `line2`, `line3`, `line4` | a2..h2 / a3..h3 / a4..h4 | 4 each | 3^8 |
//! | `diag8` | a1 b2 .. h8 | 2 | 3^8 |
//! | `diag7` .. `diag4` | b1 c2 .. h7, c1 .. h6, d1 .. h5, e1 .. h4 | 4 each | 3^7 .. 3^4 |
//!
//! Every instance is the base pattern read on one of the 8 images of the board under the
//! symmetries of the square (rotations and reflections), so all instances of a pattern share
//! one table. A pattern that some symmetry maps onto itself (an edge under its mirror, a
//! corner block under its diagonal) has the weights of mirrored configurations tied
//! together; together these make the evaluation exactly invariant under the 8 symmetries.
//! Indices come from the bitboards by shifts and masks (a multiply gathers a diagonal), and a
//! 1024-entry table turns the bits of one side into base-3 digits; nothing allocates.
//!
//! Stages: [`STAGES`] buckets of [`STAGE_PLIES`] plies by the number of empties.
//!
//! File format (`tuning/othello-patterns.bin`): the text line `tessera-othello-patterns
//! 1`, `#` header lines saying how the weights were made, the line `end`, then
//! `STAGES x STAGE_SIZE` little-endian `i16` weights in centi-discs, stage by stage, each
//! stage's tables in the order of [`PATTERNS`], then the mobility tables and the bias.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

mod incremental;
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod pext;
pub mod v2;

pub use incremental::{LANES, PatternIndices};

use super::movegen::legal_moves;
use super::symmetry::{apply, mirror_files as flip_h, transpose};

/// Number of game stages, each with its own weights.
pub const STAGES: usize = 10;
/// Plies per stage: stage `min((60 - empties) / STAGE_PLIES, STAGES - 1)`.
pub const STAGE_PLIES: u32 = 6;

/// The stage of a position with `empties` empty squares.
#[inline]
#[must_use]
pub fn stage(empties: u32) -> usize {
    ((60u32.saturating_sub(empties) / STAGE_PLIES) as usize).min(STAGES - 1)
}

/// One pattern: its name, base squares (digit order) and the symmetries whose board images
/// give its distinct instances.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Name (for reports).
    pub name: &'static str,
    /// Squares of the base instance, least significant digit first.
    pub squares: &'static [u8],
    /// Symmetries (see [`transform`]) giving the distinct instances.
    pub instances: &'static [u8],
}

impl Pattern {
    /// Table size: 3 to the number of squares.
    #[must_use]
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The pattern set, in table order.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        instances: &[0, 1, 2, 3],
    },
    Pattern {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        instances: &[0, 1, 2, 3, 4, 5, 6, 7],
    },
    Pattern {
        name: "edge2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        instances: &[0, 2, 4, 6],
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
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        instances: &[0, 1],
    },
    Pattern {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
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
    Pattern {
        name: "diag4",
        squares: &[4, 13, 22, 31],
        instances: &[0, 1, 2, 3],
    },
];

/// Size of the mobility tables (moves 0..=31, more counted as 31).
pub const MOBILITY_SIZE: usize = 32;

/// Offsets of each pattern's table within a stage, then of the two mobility tables (side
/// to move's, opponent's) and the bias.
pub(super) const OFFSETS: [usize; 15] = {
    let mut t = [0usize; 15];
    let mut i = 0;
    while i < PATTERNS.len() {
        t[i + 1] = t[i] + PATTERNS[i].size();
        i += 1;
    }
    t[12] = t[11] + MOBILITY_SIZE;
    t[13] = t[12] + MOBILITY_SIZE;
    t[14] = t[13] + 1;
    t
};

/// Weights per stage.
pub const STAGE_SIZE: usize = OFFSETS[14];
/// Weights (features) per position: the 46 pattern instances, two mobilities, the bias.
pub const FEATURES: usize = 46 + 3;

/// Total weights of a pattern evaluation.
pub const TOTAL_WEIGHTS: usize = STAGES * STAGE_SIZE;

/// `B3[b]`: the base-3 number whose digits are the bits of `b` (bit j -> 3^j).
static B3: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut j = 0;
        while j < 10 {
            if b >> j & 1 == 1 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The image of bitboard `b` under symmetry `s` (0..8): bit 2 transposes (a1-h8
/// diagonal) first, then bit 0 mirrors the files (a <-> h), bit 1 the ranks (1 <-> 8).
#[inline]
#[must_use]
pub fn transform(b: u64, s: u8) -> u64 {
    apply(b, s)
}

/// The square that `sq` moves to under symmetry `s` (as [`transform`] moves bits).
#[must_use]
pub const fn transform_square(sq: u8, s: u8) -> u8 {
    let (mut f, mut r) = (sq % 8, sq / 8);
    if s & 4 != 0 {
        (f, r) = (r, f);
    }
    if s & 1 != 0 {
        f = 7 - f;
    }
    if s & 2 != 0 {
        r = 7 - r;
    }
    r * 8 + f
}

/// The 8 images of a bitboard, indexed by symmetry.
#[inline]
fn images(b: u64) -> [u64; 8] {
    let t = transpose(b);
    let h = flip_h(b);
    let th = flip_h(t);
    [
        b,
        h,
        b.swap_bytes(),
        h.swap_bytes(),
        t,
        th,
        t.swap_bytes(),
        th.swap_bytes(),
    ]
}

/// The bits of pattern `k`'s base squares in `t`, bit j = square `PATTERNS[k].squares[j]`.
#[inline(always)]
fn gather(k: usize, t: u64) -> usize {
    const SPREAD: u64 = 0x0101_0101_0101_0101;
    (match k {
        0 => (t & 7) | ((t >> 5) & 0x38) | ((t >> 10) & 0x1c0),
        1 => (t & 0x1f) | ((t >> 3) & 0x3e0),
        2 => (t & 0xff) | ((t >> 1) & 0x100) | ((t >> 5) & 0x200),
        3 => (t >> 8) & 0xff,
        4 => (t >> 16) & 0xff,
        5 => (t >> 24) & 0xff,
        6 => (t & 0x8040_2010_0804_0201).wrapping_mul(SPREAD) >> 56,
        7 => (t & 0x0080_4020_1008_0402).wrapping_mul(SPREAD) >> 57,
        8 => (t & 0x0000_8040_2010_0804).wrapping_mul(SPREAD) >> 58,
        9 => (t & 0x0000_0080_4020_1008).wrapping_mul(SPREAD) >> 59,
        _ => (t & 0x0000_0000_8040_2010).wrapping_mul(SPREAD) >> 60,
    }) as usize
}

/// The in-stage weight indices of (`p` to move, `o`): 46 pattern instances, then the
/// mobility of each side and the bias, in the order of [`FEATURES`].
#[inline]
#[must_use]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let pi = images(p);
    let oi = images(o);
    let mut out = [0u32; FEATURES];
    let mut n = 0;
    for (k, pat) in PATTERNS.iter().enumerate() {
        for &s in pat.instances {
            let s = s as usize;
            let idx = usize::from(B3[gather(k, pi[s])]) + 2 * usize::from(B3[gather(k, oi[s])]);
            out[n] = (OFFSETS[k] + idx) as u32;
            n += 1;
        }
    }
    let (mp, mo) = mobilities(p, o);
    out[n] = (OFFSETS[11] + mp) as u32;
    out[n + 1] = (OFFSETS[12] + mo) as u32;
    out[n + 2] = OFFSETS[13] as u32;
    out
}

/// The mobility features: the move counts of `p` and of `o`, at most `MOBILITY_SIZE - 1`.
#[inline]
fn mobilities(p: u64, o: u64) -> (usize, usize) {
    let mp = (legal_moves(p, o).count_ones() as usize).min(MOBILITY_SIZE - 1);
    let mo = (legal_moves(o, p).count_ones() as usize).min(MOBILITY_SIZE - 1);
    (mp, mo)
}

/// The evaluation from a stage's weights `w` and its pattern sum: plus both sides' mobility
/// weights and the stage's bias, clamped to +-6400 centi-discs.
#[inline]
fn with_mobility(w: &[i16; STAGE_SIZE], patterns: i32, p: u64, o: u64) -> i32 {
    let (mp, mo) = mobilities(p, o);
    let sum = patterns
        + i32::from(w[OFFSETS[11] + mp])
        + i32::from(w[OFFSETS[12] + mo])
        + i32::from(w[OFFSETS[13]]);
    sum.clamp(-6400, 6400)
}

/// Sum of the 46 pattern weights of (`p` to move, `o`) in `w` (one stage's weights) from
/// the 8 images of the boards, for CPUs without BMI2 (see [`pext`]).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "bmi2"),
    allow(dead_code, reason = "the portable path, tested against the pext path")
)]
#[inline]
fn pattern_sum_portable(w: &[i16], p: u64, o: u64) -> i32 {
    let pi = images(p);
    let oi = images(o);
    let mut sum = 0i32;
    for (k, pat) in PATTERNS.iter().enumerate() {
        for &s in pat.instances {
            let s = s as usize;
            let idx = usize::from(B3[gather(k, pi[s])]) + 2 * usize::from(B3[gather(k, oi[s])]);
            sum += i32::from(w[OFFSETS[k] + idx]);
        }
    }
    sum
}

/// Sum of the 46 pattern weights: with BMI2 `pext` straight from the bitboards, else from
/// the images.
#[inline]
fn pattern_sum(w: &[i16; STAGE_SIZE], p: u64, o: u64) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        pext::pattern_sum(w, p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pattern_sum_portable(w, p, o)
    }
}

/// For every in-stage index, the index whose weight it shares: the smallest index among
/// the configurations that a self-symmetry of its pattern maps it to (itself for most).
/// Fits work on these canonical indices; [`PatternWeights`] stores the expanded tables.
#[must_use]
pub fn canonical() -> &'static [u32] {
    static CANON: OnceLock<Vec<u32>> = OnceLock::new();
    CANON.get_or_init(|| canonical_of(&PATTERNS, &OFFSETS, STAGE_SIZE))
}

/// [`canonical`] for any pattern set: `patterns` with tables at `offsets` in a stage of
/// `stage_size` weights (the entries after the tables map to themselves).
#[must_use]
pub fn canonical_of(patterns: &[Pattern], offsets: &[usize], stage_size: usize) -> Vec<u32> {
    let mut c: Vec<u32> = (0..stage_size as u32).collect();
    for (k, pat) in patterns.iter().enumerate() {
        // Permutations of the digit positions by the symmetries that map the pattern
        // onto itself: digit j moves to position perm[j].
        let mut perms: Vec<Vec<usize>> = Vec::new();
        for s in 0..8u8 {
            let image: Vec<u8> = pat
                .squares
                .iter()
                .map(|&q| transform_square(q, s))
                .collect();
            let perm: Option<Vec<usize>> = image
                .iter()
                .map(|q| pat.squares.iter().position(|x| x == q))
                .collect();
            if let Some(perm) = perm {
                perms.push(perm);
            }
        }
        // Digit i moves to position perm[i]: the image's index adds digit i times
        // 3^perm[i]. The identity (always present) gives the index itself.
        let powers: Vec<Vec<usize>> = perms
            .iter()
            .filter(|perm| perm.iter().enumerate().any(|(i, &t)| i != t))
            .map(|perm| perm.iter().map(|&t| 3usize.pow(t as u32)).collect())
            .collect();
        for idx in 0..pat.size() {
            let mut best = idx;
            for pw in &powers {
                let mut x = idx;
                let mut v = 0;
                for &p in pw {
                    v += x % 3 * p;
                    x /= 3;
                }
                best = best.min(v);
            }
            c[offsets[k] + idx] = (offsets[k] + best) as u32;
        }
    }
    c
}

/// Fitted pattern weights for every stage (centi-discs, `i16`), with the header lines of
/// the file they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    w: Box<[i16]>,
    header: Vec<String>,
}

/// The shipped weights (`tuning/othello-patterns.bin`), compiled into the binary.
static SHIPPED: &[u8] = include_bytes!("../../../../tuning/othello-patterns.bin");

/// The shipped pattern weights (`tuning/othello-patterns.bin`, embedded in the binary and
/// parsed once). They order the exact solver's moves by default.
///
/// # Panics
/// Never for the committed file (`tests/it/tuning/files.rs` loads it).
#[must_use]
pub fn shipped() -> Arc<PatternWeights> {
    static W: OnceLock<Arc<PatternWeights>> = OnceLock::new();
    Arc::clone(W.get_or_init(|| {
        Arc::new(
            PatternWeights::from_bytes(SHIPPED, "tuning/othello-patterns.bin (embedded)")
                .expect("the shipped pattern weights parse"),
        )
    }))
}

/// A loaded weights file and its path (see [`load_cached`]).
type Cached<T> = (std::path::PathBuf, Arc<T>);

/// The weights file at `path` parsed by `parse` (bytes, the path for errors), or the copy
/// `cache` already holds: engines built for every tournament game share one.
///
/// # Errors
/// An unreadable file (over [`crate::game::params::MAX_WEIGHTS_FILE`]), or `parse`'s error.
fn load_cached<T>(
    cache: &Mutex<Vec<Cached<T>>>,
    path: &Path,
    parse: impl Fn(&[u8], &str) -> Result<T, String>,
) -> Result<Arc<T>, String> {
    let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, w)) = c.iter().find(|(p, _)| p == path) {
        return Ok(Arc::clone(w));
    }
    let pinned = crate::game::pinned::read_bytes(
        path,
        "pattern weights file",
        crate::game::params::MAX_WEIGHTS_FILE,
    )?;
    let w = Arc::new(parse(&pinned.bytes, &path.display().to_string())?);
    c.push((path.to_path_buf(), Arc::clone(&w)));
    Ok(w)
}

/// Checks `stages x stage_size` weights (stage-major) for their count and for equal values
/// on the configurations `canon` ties together (see [`canonical`]).
///
/// # Errors
/// A wrong length, or the first pair of tied configurations whose values differ.
fn check_weights(w: &[i16], canon: &[u32], stages: usize, stage_size: usize) -> Result<(), String> {
    if w.len() != stages * stage_size {
        return Err(format!(
            "{} pattern weights, expected {} ({stages} stages x {stage_size})",
            w.len(),
            stages * stage_size
        ));
    }
    for (s, stage) in w.chunks_exact(stage_size).enumerate() {
        for (i, &c) in canon.iter().enumerate() {
            if stage[i] != stage[c as usize] {
                return Err(format!(
                    "pattern weights are not symmetric (stage {s}, index {i} vs {c})"
                ));
            }
        }
    }
    Ok(())
}

/// Expands weights in units of 1 (indexed by stage-major canonical ids, as a fit holds
/// them) to the file form: centi-units, rounded, clamped to `i16`, each canonical value
/// copied to the configurations `canon` ties to it.
#[must_use]
pub fn expand_canonical(w: &[f32], canon: &[u32], stages: usize, stage_size: usize) -> Vec<i16> {
    let mut out = vec![0i16; stages * stage_size];
    for (s, stage) in out.chunks_exact_mut(stage_size).enumerate() {
        let base = s * stage_size;
        for (o, &c) in stage.iter_mut().zip(canon) {
            let v = (w[base + c as usize] * 100.0).round();
            *o = v.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        }
    }
    out
}

/// First line of a pattern weights file.
pub const MAGIC: &str = "tessera-othello-patterns 1";

impl PatternWeights {
    /// Weights from `STAGES x STAGE_SIZE` values (stage-major), which must already be
    /// tied across mirrored configurations (see [`canonical`]).
    ///
    /// # Errors
    /// A wrong length, or values that differ between configurations sharing a weight.
    pub fn new(w: Vec<i16>, header: Vec<String>) -> Result<Self, String> {
        check_weights(&w, canonical(), STAGES, STAGE_SIZE)?;
        Ok(Self {
            w: w.into_boxed_slice(),
            header,
        })
    }

    /// All weights zero.
    #[must_use]
    pub fn zero() -> Self {
        Self {
            w: vec![0; TOTAL_WEIGHTS].into_boxed_slice(),
            header: Vec::new(),
        }
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
        let w = self.stage_weights(p, o);
        with_mobility(w, pattern_sum(w, p, o), p, o)
    }

    /// [`PatternWeights::score`] of (`p` to move, `o`) given `idx`, the pattern indices of
    /// the position from `p`'s view ([`PatternIndices::of`]`(p, o)` or kept along the moves
    /// that led to it): the same value without reading the 46 instances from the boards.
    #[inline]
    #[must_use]
    pub fn score_with_indices(&self, idx: &PatternIndices, p: u64, o: u64) -> i32 {
        let w = self.stage_weights(p, o);
        with_mobility(w, idx.clamped().weight_sum(w), p, o)
    }

    /// The weights of the stage of (`p`, `o`) (by its number of empty squares).
    #[inline]
    fn stage_weights(&self, p: u64, o: u64) -> &[i16; STAGE_SIZE] {
        let empties = (!(p | o)).count_ones();
        self.w[stage(empties) * STAGE_SIZE..][..STAGE_SIZE]
            .try_into()
            .expect("a stage's weights")
    }

    /// The file form (see the module docs).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC}");
        for h in &self.header {
            let _ = writeln!(s, "# {h}");
        }
        s.push_str("end\n");
        let mut out = s.into_bytes();
        out.reserve(2 * self.w.len());
        for &v in &*self.w {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Parses the file form; `origin` names the file in errors.
    ///
    /// # Errors
    /// One line naming `origin`: a missing magic line or `end` line, a wrong size, or
    /// weights that are not symmetric.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Self, String> {
        let err = |m: String| format!("pattern weights file {origin}: {m}");
        let (header, data) = split_header(bytes, MAGIC).map_err(err)?;
        if data.len() != 2 * TOTAL_WEIGHTS {
            return Err(err(format!(
                "{} bytes of weights, expected {}",
                data.len(),
                2 * TOTAL_WEIGHTS
            )));
        }
        let w = data
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Self::new(w, header).map_err(err)
    }

    /// Reads a pattern weights file. Files are cached by path: engines built for every
    /// tournament game share one copy.
    ///
    /// # Errors
    /// As [`PatternWeights::from_bytes`], or an unreadable file.
    pub fn load(path: &Path) -> Result<Arc<Self>, String> {
        static CACHE: Mutex<Vec<Cached<PatternWeights>>> = Mutex::new(Vec::new());
        load_cached(&CACHE, path, Self::from_bytes)
    }

    /// Whether `bytes` start like a pattern weights file.
    #[must_use]
    pub fn is_pattern_file(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC.as_bytes())
    }
}

/// Splits a weights file into its `#` header lines (without the `# `) and the bytes after
/// its `end` line, checking that the first line is `magic`.
///
/// # Errors
/// One line (without the file's name): a wrong first line, a `#` line that is not UTF-8, or
/// no `end` line (naming the first line that is neither `#` nor `end`: the weights, when the
/// `end` line was lost).
fn split_header<'a>(bytes: &'a [u8], magic: &str) -> Result<(Vec<String>, &'a [u8]), String> {
    let mut header = Vec::new();
    let mut pos = 0;
    let mut number = 0;
    loop {
        number += 1;
        let Some(nl) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            let lines = number - usize::from(pos == bytes.len());
            return Err(format!(
                "no 'end' line after the header (the file ends on line {lines})"
            ));
        };
        let raw = &bytes[pos..pos + nl];
        pos += nl + 1;
        let line = std::str::from_utf8(raw);
        if number == 1 {
            if line != Ok(magic) {
                return Err(format!("first line is not '{magic}'"));
            }
        } else if raw == b"end" {
            return Ok((header, &bytes[pos..]));
        } else if raw.starts_with(b"#") {
            let h = line.map_err(|_| format!("header line {number} is not UTF-8 text"))?;
            let h = &h[1..];
            header.push(h.strip_prefix(' ').unwrap_or(h).to_string());
        } else {
            let what = match line {
                Ok(text) => format!(
                    "'{}' is neither a '#' header line nor 'end'",
                    crate::game::shown(text)
                ),
                Err(_) => "is binary data (the weights?), not a '#' header line".to_string(),
            };
            return Err(format!(
                "no 'end' line after the header: line {number} {what}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::othello::Position;
    use crate::games::othello::symmetry::symmetric_images;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn random_positions(n: usize) -> Vec<Position> {
        crate::games::othello::random_game_positions(n, 0x1234_5678_9ABC_DEF1)
    }

    #[test]
    fn table_layout() {
        assert_eq!(
            PATTERNS.iter().map(|p| p.instances.len()).sum::<usize>(),
            46
        );
        assert_eq!(STAGE_SIZE, 167_265 + 2 * MOBILITY_SIZE + 1);
        assert_eq!(stage(60), 0);
        assert_eq!(stage(55), 0);
        assert_eq!(stage(54), 1);
        assert_eq!(stage(0), STAGES - 1);
    }

    #[test]
    fn transform_moves_bits_like_squares() {
        for s in 0..8u8 {
            for sq in 0..64u8 {
                assert_eq!(
                    transform(1u64 << sq, s),
                    1u64 << transform_square(sq, s),
                    "s {s} sq {sq}"
                );
            }
            let b = 0x0123_4567_89AB_CDEFu64;
            let im = images(b);
            assert_eq!(im[s as usize], transform(b, s));
        }
    }

    /// The instances of each pattern are all its distinct images under the symmetries:
    /// no instance repeats another's squares and none is missing.
    #[test]
    fn instances_are_the_distinct_symmetric_images() {
        for pat in &PATTERNS {
            let squares_of = |s: u8| -> u64 {
                // Original squares read by instance s: those that s maps onto the base.
                (0..64u8)
                    .filter(|&x| pat.squares.contains(&transform_square(x, s)))
                    .fold(0u64, |m, x| m | 1 << x)
            };
            let mine: Vec<u64> = pat.instances.iter().map(|&s| squares_of(s)).collect();
            let mut dedup = mine.clone();
            dedup.sort_unstable();
            dedup.dedup();
            assert_eq!(dedup.len(), mine.len(), "{}: repeated instance", pat.name);
            for s in 0..8 {
                assert!(
                    mine.contains(&squares_of(s)),
                    "{}: image {s} missing",
                    pat.name
                );
            }
        }
    }

    /// The shift-and-mask gathers read exactly the base squares, in digit order.
    #[test]
    fn gathers_match_the_square_lists() {
        let mut seed = 99u64;
        for _ in 0..2000 {
            let b = xorshift(&mut seed);
            for (k, pat) in PATTERNS.iter().enumerate() {
                let slow = pat
                    .squares
                    .iter()
                    .enumerate()
                    .fold(0usize, |m, (j, &q)| m | (((b >> q) & 1) as usize) << j);
                assert_eq!(gather(k, b), slow, "{} on {b:#x}", pat.name);
            }
        }
    }

    /// Symmetric instances agree: the index a pattern instance reads on a board equals the
    /// index of the mirrored instance on the mirrored board, up to the pattern's own
    /// symmetry (the canonical indices agree).
    #[test]
    fn symmetric_instances_give_equal_canonical_indices() {
        let canon = canonical();
        for pos in random_positions(300) {
            let f0 = features(pos.player(), pos.opponent());
            let mut base: Vec<u32> = f0.iter().map(|&i| canon[i as usize]).collect();
            base.sort_unstable();
            for s in 0..8 {
                let (p, o) = (transform(pos.player(), s), transform(pos.opponent(), s));
                let mut v: Vec<u32> = features(p, o).iter().map(|&i| canon[i as usize]).collect();
                v.sort_unstable();
                assert_eq!(v, base, "{pos} under symmetry {s}");
            }
        }
    }

    #[test]
    fn canonical_ties_mirrored_edges() {
        let canon = canonical();
        // edge2x: a1 only (digit 0 = 1) and h1 only (digit 7 = 1) share a weight.
        let off = OFFSETS[2];
        assert_eq!(canon[off + 1], canon[off + 3usize.pow(7)]);
        // b2 only (digit 8) and g2 only (digit 9).
        assert_eq!(canon[off + 3usize.pow(8)], canon[off + 3usize.pow(9)]);
        // corner3x3: b1 (digit 1) and a2 (digit 3).
        assert_eq!(canon[OFFSETS[0] + 3], canon[OFFSETS[0] + 27]);
        // corner2x5 has no self-symmetry: b1 and a2 differ.
        assert_ne!(canon[OFFSETS[1] + 3], canon[OFFSETS[1] + 3usize.pow(5)]);
        // Canonical indices are fixed points.
        for (i, &c) in canon.iter().enumerate() {
            assert_eq!(canon[c as usize], c, "index {i}");
            assert!(c as usize <= i);
        }
    }

    /// `canonical()` against its definition computed digit by digit: the smallest index
    /// over the self-symmetries of each pattern, each image built by placing every digit
    /// where the symmetry moves its square.
    #[test]
    fn canonical_is_the_smallest_self_symmetric_image() {
        let canon = canonical();
        for (k, pat) in PATTERNS.iter().enumerate() {
            let n = pat.squares.len();
            let images: Vec<Vec<usize>> = (0..8u8)
                .filter_map(|s| {
                    // Position in the base pattern of the square each digit moves to.
                    pat.squares
                        .iter()
                        .map(|&q| {
                            pat.squares
                                .iter()
                                .position(|&x| x == transform_square(q, s))
                        })
                        .collect()
                })
                .collect();
            assert!(!images.is_empty());
            for idx in 0..pat.size() {
                let digits: Vec<usize> = (0..n).map(|j| idx / 3usize.pow(j as u32) % 3).collect();
                let best = images
                    .iter()
                    .map(|to| {
                        let mut placed = vec![0; n];
                        for (j, &t) in to.iter().enumerate() {
                            placed[t] = digits[j];
                        }
                        placed.iter().rev().fold(0, |v, &d| v * 3 + d)
                    })
                    .min()
                    .unwrap();
                assert_eq!(
                    canon[OFFSETS[k] + idx] as usize,
                    OFFSETS[k] + best,
                    "{}",
                    pat.name
                );
            }
        }
    }

    fn random_weights(seed: u64) -> PatternWeights {
        let canon = canonical();
        let mut s = seed;
        let mut w = vec![0i16; TOTAL_WEIGHTS];
        for st in 0..STAGES {
            let base = st * STAGE_SIZE;
            for i in 0..STAGE_SIZE {
                let c = canon[i] as usize;
                if c == i {
                    w[base + i] = (xorshift(&mut s) % 201) as i16 - 100;
                } else {
                    w[base + i] = w[base + c];
                }
            }
        }
        PatternWeights::new(w, vec!["test".into()]).unwrap()
    }

    #[test]
    fn evaluation_is_invariant_under_the_8_symmetries() {
        let w = random_weights(0xFEED);
        for pos in random_positions(400) {
            let v = w.score(pos.player(), pos.opponent());
            for img in symmetric_images(&pos) {
                assert_eq!(w.score(img.player(), img.opponent()), v, "{img} vs {pos}");
            }
        }
    }

    /// Independent reference: the in-stage index of every instance, digit by digit from the
    /// square lists (digit j of instance s is the square that symmetry s moves onto
    /// `squares[j]`), without bitboard tricks.
    fn reference_indices(p: u64, o: u64) -> Vec<usize> {
        let mut out = Vec::new();
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
                out.push(OFFSETS[k] + idx);
            }
        }
        out
    }

    /// Positions for the reference checks: every ply of random games (all stages, passes)
    /// under all 8 symmetries, the finished positions, an empty and a full board.
    fn reference_positions() -> Vec<(u64, u64)> {
        let mut out = vec![(0, 0), (0x00FF_00FF_00FF_00FF, !0x00FF_00FF_00FF_00FF)];
        let mut seed = 0xC0FF_EE12_3456_789Bu64;
        for _ in 0..6 {
            let mut pos = Position::start();
            loop {
                for s in 0..8 {
                    out.push((transform(pos.player(), s), transform(pos.opponent(), s)));
                }
                let mut moves = <Position as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[(xorshift(&mut seed) % moves.len() as u64) as usize]);
            }
        }
        out
    }

    fn reference_score(w: &PatternWeights, p: u64, o: u64) -> i32 {
        let st = &w.values()[stage((!(p | o)).count_ones()) * STAGE_SIZE..][..STAGE_SIZE];
        let mp = (legal_moves(p, o).count_ones() as usize).min(MOBILITY_SIZE - 1);
        let mo = (legal_moves(o, p).count_ones() as usize).min(MOBILITY_SIZE - 1);
        let patterns: i32 = reference_indices(p, o)
            .iter()
            .map(|&i| i32::from(st[i]))
            .sum();
        (patterns
            + i32::from(st[OFFSETS[11] + mp])
            + i32::from(st[OFFSETS[12] + mo])
            + i32::from(st[OFFSETS[13]]))
        .clamp(-6400, 6400)
    }

    #[test]
    fn features_match_a_square_by_square_reference() {
        let positions = reference_positions();
        assert!(positions.len() > 300);
        let stages: std::collections::BTreeSet<usize> = positions
            .iter()
            .map(|&(p, o)| stage((!(p | o)).count_ones()))
            .collect();
        assert_eq!(stages.len(), STAGES, "every stage is covered");
        let no_moves = positions
            .iter()
            .filter(|&&(p, o)| legal_moves(p, o) == 0 && legal_moves(o, p) != 0)
            .count();
        assert!(no_moves > 0, "positions where the side to move passes");
        for &(p, o) in &positions {
            let f = features(p, o);
            let want: Vec<u32> = reference_indices(p, o).iter().map(|&i| i as u32).collect();
            assert_eq!(&f[..46], &want[..], "{p:#x} {o:#x}");
            assert_eq!(
                f[46] as usize,
                OFFSETS[11] + (legal_moves(p, o).count_ones() as usize).min(MOBILITY_SIZE - 1)
            );
            assert_eq!(
                f[47] as usize,
                OFFSETS[12] + (legal_moves(o, p).count_ones() as usize).min(MOBILITY_SIZE - 1)
            );
            assert_eq!(f[48] as usize, OFFSETS[13]);
        }
    }

    /// `score` (the BMI2 path on this build if the CPU has it) and the portable sum equal
    /// the reference sum for the shipped weights and random symmetric weights.
    #[test]
    fn score_matches_the_reference_sum() {
        let positions = reference_positions();
        let weights = [
            (*shipped()).clone(),
            random_weights(0xABCD),
            random_weights(3),
        ];
        for w in &weights {
            for &(p, o) in &positions {
                let want = reference_score(w, p, o);
                assert_eq!(w.score(p, o), want, "{p:#x} {o:#x}");
                let idx = PatternIndices::of(p, o);
                assert_eq!(w.score_with_indices(&idx, p, o), want, "indices");
                let st: &[i16; STAGE_SIZE] = w.values()
                    [stage((!(p | o)).count_ones()) * STAGE_SIZE..][..STAGE_SIZE]
                    .try_into()
                    .unwrap();
                let reference: i32 = reference_indices(p, o)
                    .iter()
                    .map(|&i| i32::from(st[i]))
                    .sum();
                assert_eq!(pattern_sum_portable(st, p, o), reference, "portable");
                assert_eq!(pattern_sum(st, p, o), reference, "dispatched");
            }
        }
    }

    #[test]
    fn file_round_trip_and_errors() {
        let w = random_weights(7);
        let bytes = w.to_bytes();
        assert!(PatternWeights::is_pattern_file(&bytes));
        assert_eq!(PatternWeights::from_bytes(&bytes, "w.bin").unwrap(), w);
        let e = PatternWeights::from_bytes(b"nope\nend\n", "w.bin").unwrap_err();
        assert!(e.contains("w.bin") && e.contains("first line"), "{e}");
        let e = PatternWeights::from_bytes(&bytes[..bytes.len() - 2], "w.bin").unwrap_err();
        assert!(e.contains("bytes of weights"), "{e}");
        // A header without its `end` line, and a `#` line that is not UTF-8.
        let e =
            PatternWeights::from_bytes(b"tessera-othello-patterns 1\n# ok\n", "w.bin").unwrap_err();
        assert!(
            e.ends_with("no 'end' line after the header (the file ends on line 2)"),
            "{e}"
        );
        let e = PatternWeights::from_bytes(b"tessera-othello-patterns 1\n# \xff\nend\n", "w.bin")
            .unwrap_err();
        assert!(e.ends_with("header line 2 is not UTF-8 text"), "{e}");
        // Break the symmetry of one tied pair.
        let mut v = w.values().to_vec();
        let i = (0..STAGE_SIZE)
            .find(|&i| canonical()[i] as usize != i)
            .unwrap();
        v[i] = v[i].wrapping_add(1);
        let e = PatternWeights::new(v, Vec::new()).unwrap_err();
        assert!(e.contains("not symmetric"), "{e}");
    }
}
