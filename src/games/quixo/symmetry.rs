//! The eight symmetries of a square board (four rotations, four reflections: the dihedral
//! group of order 8) on the 3x3 and 4x4 boards, and the canonical form of a board under
//! them that the retrograde solver ([`super::retro`]) stores.
//!
//! Quixo's rules commute with every one of them: a symmetry maps rows to rows or columns,
//! the two diagonals to each other, the border to the border, corners to corners, and a
//! push from `src` to `dst` to the push from the image of `src` to the image of `dst`. So
//! a board and its images have the same value and distance.
//!
//! Canonical form of a board `(me, opp)` (side to move first): the image with the smallest
//! `me`, ties broken by the smallest `opp`. Ordering by `me` first means a board is
//! canonical only if its `me` mask is the smallest of that mask's orbit, so the canonical
//! boards fill whole rows `me` of a tier (about one row in eight); inside a row only a mask
//! with a non-trivial stabiliser excludes some `opp`.
//!
//! Masks use the bit layout of [`super::geometry`] (`n*row + col`).
//!
//! [`FullSymmetry`] is the same group on the full 5x5 boards (no blank cube: the board is
//! the side to move's mask alone, the other side has the rest), for the full-board table.

use std::sync::OnceLock;

/// Number of symmetries.
pub const SYMMETRIES: usize = 8;

/// The symmetry tables of one board size (3 or 4).
pub struct Symmetry {
    /// `maps[s][h][b]`: image under symmetry `s` of the byte `b` at byte position `h` of a
    /// mask (bit `8h + i` set for each set bit `i` of `b`); a mask's image is the OR of its
    /// two bytes' images.
    maps: [[[u16; 256]; 2]; SYMMETRIES],
    /// For each mask: its rank among the masks of its popcount that are the smallest of
    /// their orbit (the canonical rows), in increasing order; `u16::MAX` for other masks.
    row: Vec<u16>,
    /// Number of canonical rows per popcount.
    rows: [usize; 17],
    /// For each mask: the smallest of its images (bits 0-15) and the set of symmetries
    /// that give it (bit `16 + s` for symmetry `s`).
    least: Vec<u32>,
}

/// Cell `(row, col)`'s image under symmetry `s` on an `n x n` board.
pub(super) const fn image(s: usize, n: usize, r: usize, c: usize) -> (usize, usize) {
    let m = n - 1;
    match s {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

impl Symmetry {
    fn new(size: u8) -> Self {
        let n = usize::from(size);
        let mut maps = [[[0u16; 256]; 2]; SYMMETRIES];
        for (s, map) in maps.iter_mut().enumerate() {
            for (h, half) in map.iter_mut().enumerate() {
                for (b, out) in half.iter_mut().enumerate() {
                    for i in 0..8 {
                        let cell = 8 * h + i;
                        if b >> i & 1 == 1 && cell < n * n {
                            let (r, c) = image(s, n, cell / n, cell % n);
                            *out |= 1 << (r * n + c);
                        }
                    }
                }
            }
        }
        let mut sym = Self {
            maps,
            row: vec![u16::MAX; 1 << (n * n)],
            rows: [0; 17],
            least: vec![0; 1 << (n * n)],
        };
        for m in 0..1u32 << (n * n) {
            let best = (0..SYMMETRIES).map(|s| sym.map(s, m)).min().unwrap_or(m);
            let by = (0..SYMMETRIES)
                .filter(|&s| sym.map(s, m) == best)
                .fold(0, |set, s| set | 1 << (16 + s));
            sym.least[m as usize] = best | by;
            if best == m {
                let a = m.count_ones() as usize;
                sym.row[m as usize] = sym.rows[a] as u16;
                sym.rows[a] += 1;
            }
        }
        sym
    }

    /// The tables of board side `size` (3 or 4), built once.
    ///
    /// # Panics
    /// On a size other than 3 or 4.
    #[must_use]
    pub fn of(size: u8) -> &'static Symmetry {
        static T: [OnceLock<Symmetry>; 2] = [OnceLock::new(), OnceLock::new()];
        assert!(
            (3..=4).contains(&size),
            "symmetry tables cover sizes 3 and 4"
        );
        T[usize::from(size - 3)].get_or_init(|| Symmetry::new(size))
    }

    /// Image of mask `m` under symmetry `s` (`s < 8`; 0 is the identity).
    #[inline(always)]
    #[must_use]
    pub fn map(&self, s: usize, m: u32) -> u32 {
        u32::from(self.maps[s][0][(m & 255) as usize] | self.maps[s][1][(m >> 8 & 255) as usize])
    }

    /// The canonical form of board `(me, opp)` and the size of its orbit (1, 2, 4 or 8:
    /// 8 divided by the number of symmetries that fix the board).
    #[inline(always)]
    #[must_use]
    pub fn canon(&self, me: u32, opp: u32) -> (u32, u32, u32) {
        let least = self.least[me as usize];
        let mut by = least >> 16;
        if by & (by - 1) == 0 {
            // One symmetry gives the smallest `me` (most masks): the board's only image
            // with that `me`, and no symmetry but the identity fixes the board.
            let s = by.trailing_zeros() as usize;
            return (least & 0xffff, self.map(s, opp), SYMMETRIES as u32);
        }
        let (mut best_opp, mut fixed) = (u32::MAX, 0);
        while by != 0 {
            let s = by.trailing_zeros() as usize;
            by &= by - 1;
            let y = self.map(s, opp);
            if y < best_opp {
                (best_opp, fixed) = (y, 1);
            } else if y == best_opp {
                fixed += 1;
            }
        }
        (least & 0xffff, best_opp, SYMMETRIES as u32 / fixed)
    }

    /// Rank of mask `me` among the canonical rows of its popcount, if it is one (the
    /// smallest mask of its orbit).
    #[inline(always)]
    #[must_use]
    pub fn row(&self, me: u32) -> Option<usize> {
        match self.row[me as usize] {
            u16::MAX => None,
            r => Some(usize::from(r)),
        }
    }

    /// Number of canonical rows with `a` cubes.
    #[must_use]
    pub fn rows(&self, a: usize) -> usize {
        self.rows[a]
    }
}

/// The eight symmetries on 25-bit masks (5x5 boards), for the full boards.
pub struct FullSymmetry {
    /// `maps[s][h][b]`: image under symmetry `s` of the byte `b` at byte position `h`.
    maps: [[[u32; 256]; 4]; SYMMETRIES],
}

impl FullSymmetry {
    /// The tables, built once.
    #[must_use]
    pub fn get() -> &'static FullSymmetry {
        static T: OnceLock<FullSymmetry> = OnceLock::new();
        T.get_or_init(|| {
            let mut maps = [[[0u32; 256]; 4]; SYMMETRIES];
            for (s, map) in maps.iter_mut().enumerate() {
                for (h, part) in map.iter_mut().enumerate() {
                    for (b, out) in part.iter_mut().enumerate() {
                        for i in 0..8 {
                            let cell = 8 * h + i;
                            if b >> i & 1 == 1 && cell < 25 {
                                let (r, c) = image(s, 5, cell / 5, cell % 5);
                                *out |= 1 << (r * 5 + c);
                            }
                        }
                    }
                }
            }
            FullSymmetry { maps }
        })
    }

    /// Image of the 25-bit mask `m` under symmetry `s` (`s < 8`).
    #[inline(always)]
    #[must_use]
    pub fn map(&self, s: usize, m: u32) -> u32 {
        let t = &self.maps[s];
        t[0][(m & 255) as usize]
            | t[1][(m >> 8 & 255) as usize]
            | t[2][(m >> 16 & 255) as usize]
            | t[3][(m >> 24 & 255) as usize]
    }

    /// The smallest image of `m` and the size of `m`'s orbit (1, 2, 4 or 8).
    #[inline(always)]
    #[must_use]
    pub fn least(&self, m: u32) -> (u32, u32) {
        let (mut best, mut fixed) = (m, 1);
        for s in 1..SYMMETRIES {
            let x = self.map(s, m);
            if x < best {
                (best, fixed) = (x, 1);
            } else if x == best {
                fixed += 1;
            }
        }
        (best, SYMMETRIES as u32 / fixed)
    }

    /// Whether `m` is the smallest of its images (stops at the first smaller one).
    #[inline(always)]
    #[must_use]
    pub fn is_least(&self, m: u32) -> bool {
        (1..SYMMETRIES).all(|s| self.map(s, m) >= m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quixo::geometry::geometry_of;

    /// The eight maps are distinct permutations of the cells, closed under composition,
    /// and carry lines to lines, the border to the border and pushes to pushes.
    #[test]
    fn symmetries_preserve_the_rules() {
        for size in [3u8, 4] {
            let sym = Symmetry::of(size);
            let g = geometry_of(size);
            let mut seen = std::collections::HashSet::new();
            for s in 0..SYMMETRIES {
                assert!(seen.insert((0..g.cells).map(|c| sym.map(s, 1 << c)).collect::<Vec<_>>()));
                assert_eq!(sym.map(s, g.full), g.full);
                assert_eq!(sym.map(s, g.border), g.border);
                assert_eq!(sym.map(s, g.corners), g.corners);
                for &l in g.lines() {
                    assert!(g.lines().contains(&sym.map(s, l)));
                }
                for p in g.pushes() {
                    let (src, dst) = (sym.map(s, p.src), sym.map(s, p.dst));
                    let q = g.pushes().iter().find(|q| q.src == src && q.dst == dst);
                    let q = q.expect("a push's image is a push");
                    for m in [0x5a5a & g.full, 0x0f31 & g.full, 0x1ff & g.full] {
                        assert_eq!(sym.map(s, p.apply(m)), q.apply(sym.map(s, m)));
                    }
                }
                for t in 0..SYMMETRIES {
                    let st: Vec<_> = (0..g.cells)
                        .map(|c| sym.map(s, sym.map(t, 1 << c)))
                        .collect();
                    assert!((0..SYMMETRIES).any(|u| {
                        (0..g.cells)
                            .map(|c| sym.map(u, 1 << c))
                            .eq(st.iter().copied())
                    }));
                }
            }
        }
    }

    /// The 5x5 maps: distinct permutations carrying lines to lines and pushes to pushes;
    /// `least` is the smallest image with the number of distinct images as orbit size.
    #[test]
    fn full_board_symmetries_preserve_the_rules() {
        let sym = FullSymmetry::get();
        let g = geometry_of(5);
        let mut seen = std::collections::HashSet::new();
        for s in 0..SYMMETRIES {
            assert!(seen.insert((0..25).map(|c| sym.map(s, 1 << c)).collect::<Vec<_>>()));
            assert_eq!(sym.map(s, g.full), g.full);
            for &l in g.lines() {
                assert!(g.lines().contains(&sym.map(s, l)));
            }
            for p in g.pushes() {
                let (src, dst) = (sym.map(s, p.src), sym.map(s, p.dst));
                let q = g.pushes().iter().find(|q| q.src == src && q.dst == dst);
                let q = q.expect("a push's image is a push");
                for m in [0x0155_5555u32, 0x01f0_7c1f, 0x00ab_cdef] {
                    assert_eq!(sym.map(s, p.apply(m)), q.apply(sym.map(s, m)));
                }
            }
        }
        let mut canonical = 0u64;
        for i in 0..1u32 << 16 {
            let m = i.wrapping_mul(0x9e37_79b9) >> 7;
            let imgs: std::collections::BTreeSet<u32> =
                (0..SYMMETRIES).map(|s| sym.map(s, m)).collect();
            let (least, orbit) = sym.least(m);
            assert_eq!(Some(&least), imgs.first());
            assert_eq!(orbit as usize, imgs.len());
            assert_eq!(sym.is_least(m), least == m);
            canonical += u64::from(sym.is_least(m));
        }
        assert!((7_000..10_000).contains(&canonical), "{canonical}");
        // One cube: 6 orbits of cells (centre, corners, border middles, border cells next
        // to a corner, inner diagonal cells, inner middles).
        let singles = (0..25).filter(|&c| sym.is_least(1 << c)).count();
        assert_eq!(singles, 6);
    }

    /// Canonical forms: the same for every image, the smallest image, and an orbit size
    /// equal to the number of distinct images.
    #[test]
    fn canonical_form_is_the_smallest_image() {
        let sym = Symmetry::of(3);
        let mut rows = [0usize; 10];
        for me in 0..512u32 {
            if sym.row(me).is_some() {
                rows[me.count_ones() as usize] += 1;
            }
            let free = 511 & !me;
            let mut opp = free;
            loop {
                let imgs: std::collections::BTreeSet<(u32, u32)> = (0..SYMMETRIES)
                    .map(|s| (sym.map(s, me), sym.map(s, opp)))
                    .collect();
                let (cm, co, orbit) = sym.canon(me, opp);
                assert_eq!(Some(&(cm, co)), imgs.first());
                assert_eq!(orbit as usize, imgs.len());
                for &(m, o) in &imgs {
                    assert_eq!(sym.canon(m, o), (cm, co, orbit));
                }
                assert!(sym.row(cm).is_some());
                if opp == 0 {
                    break;
                }
                opp = (opp - 1) & free;
            }
        }
        // Orbits of cell sets on 3x3 under the dihedral group: 1, 3, 8, 16, 23, 23, 16, 8, 3, 1.
        assert_eq!(rows, [1, 3, 8, 16, 23, 23, 16, 8, 3, 1]);
        for (a, &r) in rows.iter().enumerate() {
            assert_eq!(sym.rows(a), r);
        }
        // 4x4: every `me` with two `opp` drawn from its free cells (a fixed scramble).
        let sym = Symmetry::of(4);
        let mut total_rows = 0;
        for me in 0..1u32 << 16 {
            total_rows += usize::from(sym.row(me).is_some());
            for salt in [0x9e37_79b9u32, 0x5bd1_e995] {
                let opp = me.wrapping_mul(salt).rotate_left(7) & 0xffff & !me;
                let imgs: std::collections::BTreeSet<(u32, u32)> = (0..SYMMETRIES)
                    .map(|s| (sym.map(s, me), sym.map(s, opp)))
                    .collect();
                let (cm, co, orbit) = sym.canon(me, opp);
                assert_eq!(Some(&(cm, co)), imgs.first());
                assert_eq!(orbit as usize, imgs.len());
            }
        }
        // 4x4 binary matrices up to rotation and reflection (OEIS A054247): 8,548.
        assert_eq!(total_rows, 8_548);
    }
}
