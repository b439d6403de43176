//! The 46 pattern indices of a position kept along moves (Edax's and Egaroucid's
//! incremental evaluation): a move changes only the digits of its square and of the discs
//! it flips, so a child's indices are its parent's plus one precomputed row of powers of 3
//! per changed square, instead of reading all 46 instances from the bitboards again.
//!
//! [`PatternIndices`] holds the indices from one side's view (that side's discs are digit
//! 1, the other side's digit 2, as [`super::features`] reads them for the side to move),
//! without the patterns' table offsets, in the order of [`super::PATTERNS`] and their
//! instances, padded to [`LANES`] lanes of `u16` (three 256-bit vectors). Values are
//! exactly those of [`super::features`] (tested on random positions and all their
//! children), so [`super::PatternWeights::score_with_indices`] equals
//! [`super::PatternWeights::score`].

use super::{OFFSETS, PATTERNS, STAGE_SIZE, transform_square};

/// Lanes of a [`PatternIndices`]: the 46 instances and two unused lanes (always 0).
pub const LANES: usize = 48;

/// Number of pattern instances.
const INSTANCES: usize = 46;

/// `POWERS[sq][n]`: 3^j when square `sq` is digit `j` of instance `n`, else 0. A disc of the
/// viewing side on `sq` adds this row to the indices, a disc of the other side twice it.
static POWERS: [[u16; LANES]; 64] = powers::<LANES>(&PATTERNS, INSTANCES);

/// Builds [`POWERS`] for any pattern set of `instances` instances in `L >= instances`
/// lanes: digit `j` of instance `s` of a pattern is the square that symmetry `s` moves
/// onto the base square `squares[j]` (as [`super::features`] reads the image of the board
/// under `s`).
pub(super) const fn powers<const L: usize>(
    patterns: &[super::Pattern],
    instances: usize,
) -> [[u16; L]; 64] {
    let mut t = [[0u16; L]; 64];
    let mut n = 0;
    let mut k = 0;
    while k < patterns.len() {
        let pat = patterns[k];
        let mut i = 0;
        while i < pat.instances.len() {
            let s = pat.instances[i];
            let mut j = 0;
            while j < pat.squares.len() {
                let mut x = 0;
                while transform_square(x, s) != pat.squares[j] {
                    x += 1;
                }
                t[x as usize][n] = 3u16.pow(j as u32);
                j += 1;
            }
            n += 1;
            i += 1;
        }
        k += 1;
    }
    assert!(n == instances, "the instance count of the set");
    t
}

/// Per lane: the start of its pattern's table within a stage ([`OFFSETS`]).
pub(super) const LANE_OFFSETS: [usize; LANES] = lane_table(false);

/// Per lane: the largest index of its pattern (3^squares - 1; 0 for the unused lanes).
const LANE_MAX: [u16; LANES] = {
    let t = lane_table(true);
    let mut m = [0u16; LANES];
    let mut n = 0;
    while n < LANES {
        m[n] = t[n] as u16;
        n += 1;
    }
    m
};

/// Each lane's table offset, or (`max`) its largest index.
const fn lane_table(max: bool) -> [usize; LANES] {
    let mut t = [0usize; LANES];
    let mut n = 0;
    let mut k = 0;
    while k < PATTERNS.len() {
        let mut i = 0;
        while i < PATTERNS[k].instances.len() {
            t[n] = if max {
                PATTERNS[k].size() - 1
            } else {
                OFFSETS[k]
            };
            n += 1;
            i += 1;
        }
        k += 1;
    }
    t
}

/// The pattern indices of a position from one side's view (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct PatternIndices([u16; LANES]);

impl Default for PatternIndices {
    /// The indices of the empty board (every lane 0).
    fn default() -> Self {
        Self([0; LANES])
    }
}

impl PatternIndices {
    /// The indices of the position with discs `mine` (digit 1) and `theirs` (digit 2):
    /// [`super::features`]`(mine, theirs)` without the table offsets.
    #[must_use]
    pub fn of(mine: u64, theirs: u64) -> Self {
        let mut x = Self([0; LANES]);
        let mut b = mine;
        while b != 0 {
            x.add(b.trailing_zeros() as usize, 1);
            b &= b - 1;
        }
        let mut b = theirs;
        while b != 0 {
            x.add(b.trailing_zeros() as usize, 2);
            b &= b - 1;
        }
        x
    }

    /// `times` x the row of `sq` added to every lane (wrapping).
    #[inline(always)]
    fn add(&mut self, sq: usize, times: u16) {
        let row = &POWERS[sq];
        for (v, &d) in self.0.iter_mut().zip(row) {
            *v = v.wrapping_add(d.wrapping_mul(times));
        }
    }

    /// The indices after the other side plays `sq` and turns `flips` (the viewing side's
    /// discs) to its colour, from the same view: the viewing side is then to move.
    #[inline(always)]
    #[must_use]
    pub fn after_their_move(&self, sq: usize, flips: u64) -> Self {
        let mut x = *self;
        x.add(sq, 2);
        let mut b = flips;
        while b != 0 {
            // Digit 1 -> 2.
            x.add(b.trailing_zeros() as usize, 1);
            b &= b - 1;
        }
        x
    }

    /// The indices after the viewing side plays `sq` and turns `flips` (the other side's
    /// discs) to its colour, from the same view: the other side is then to move.
    #[inline(always)]
    #[must_use]
    pub fn after_my_move(&self, sq: usize, flips: u64) -> Self {
        let mut x = *self;
        x.add(sq, 1);
        let mut b = flips;
        while b != 0 {
            // Digit 2 -> 1.
            x.add(b.trailing_zeros() as usize, u16::MAX);
            b &= b - 1;
        }
        x
    }

    /// The lanes, each at most its pattern's largest index (so that a weight lookup stays
    /// inside its table whatever moves were applied; for a real position this changes
    /// nothing).
    #[inline(always)]
    pub(super) fn clamped(&self) -> Clamped {
        let mut out = [0u16; LANES];
        for ((o, &v), &m) in out.iter_mut().zip(&self.0).zip(&LANE_MAX) {
            *o = v.min(m);
        }
        Clamped(out)
    }

    /// The lanes as they are (index of each instance without its table offset).
    #[must_use]
    pub fn lanes(&self) -> &[u16; LANES] {
        &self.0
    }
}

/// Pattern indices each at most its pattern's largest index ([`PatternIndices::clamped`]).
pub(super) struct Clamped([u16; LANES]);

impl Clamped {
    /// Sum of the 46 pattern weights at these indices in `w`, one stage's weights. Not
    /// inlined, so that the lanes are read from memory one by one: inlined into
    /// [`super::PatternWeights::score_with_indices`], the compiler took them out of vector
    /// registers and spilled the loaded weights (271 instructions per evaluation, callgrind,
    /// FFO #48).
    #[inline(never)]
    pub(super) fn weight_sum(&self, w: &[i16; STAGE_SIZE]) -> i32 {
        let mut sum = 0;
        for (&off, &lane) in LANE_OFFSETS[..INSTANCES].iter().zip(&self.0) {
            // SAFETY: a clamped lane is at most its pattern's largest index, so `off +
            // lane` lies in the pattern's table inside the stage, and `w` holds
            // `STAGE_SIZE` weights.
            sum += i32::from(unsafe { *w.get_unchecked(off + usize::from(lane)) });
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::super::features;
    use super::*;
    use crate::games::othello::movegen::{flips, legal_moves};

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// `of` is `features` without the offsets on positions of random games, and every
    /// child's indices from both views follow from the parent's by `after_my_move` and
    /// `after_their_move`.
    #[test]
    fn indices_follow_moves_and_match_the_features() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut positions = 0;
        for _game in 0..30 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                let f = features(p, o);
                let mine = PatternIndices::of(p, o);
                let theirs = PatternIndices::of(o, p);
                for n in 0..INSTANCES {
                    assert_eq!(usize::from(mine.0[n]) + LANE_OFFSETS[n], f[n] as usize);
                    assert!(mine.0[n] <= LANE_MAX[n]);
                }
                assert_eq!(mine.0[INSTANCES..], [0, 0]);
                assert_eq!(mine.clamped().0, mine.0);
                positions += 1;
                let mut moves = legal_moves(p, o);
                let all = moves;
                while moves != 0 {
                    let sq = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    let fl = flips(p, o, sq);
                    let (cp, co) = (o ^ fl, p ^ fl ^ (1 << sq));
                    assert_eq!(theirs.after_their_move(sq, fl), PatternIndices::of(cp, co));
                    assert_eq!(mine.after_my_move(sq, fl), PatternIndices::of(co, cp));
                }
                if all == 0 {
                    if legal_moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                let mut pick = xorshift(&mut seed) % u64::from(all.count_ones());
                let mut b = all;
                while pick > 0 {
                    b &= b - 1;
                    pick -= 1;
                }
                let sq = b.trailing_zeros() as usize;
                let fl = flips(p, o, sq);
                (p, o) = (o ^ fl, p ^ fl ^ (1 << sq));
            }
        }
        assert!(positions > 1500, "{positions}");
    }

    /// Every square is a digit of at least 3 instances (a line, a column, a diagonal or a
    /// block), and the rows hold exactly the pattern squares.
    #[test]
    fn powers_cover_every_instance_square_once() {
        let total: usize = PATTERNS
            .iter()
            .map(|p| p.squares.len() * p.instances.len())
            .sum();
        let set = POWERS.iter().flatten().filter(|&&d| d != 0).count();
        assert_eq!(set, total);
        for row in &POWERS {
            assert!(row.iter().filter(|&&d| d != 0).count() >= 3);
        }
    }
}
