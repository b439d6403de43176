//! Board geometry for the 3x3, 4x4 and 5x5 boards, computed at compile time: cell masks,
//! the lines that win, and every legal (source, destination) push with the masks that
//! perform it by shifts.
//!
//! Bit layout: cell (column `c`, row `r`), both from 0 at the top-left, is bit `n*r + c`
//! of a `u32`, so `a1` is bit 0 and on 5x5 `e5` is bit 24:
//!
//! ```text
//!   a  b  c  d  e
//! 1  0  1  2  3  4
//! 2  5  6  7  8  9
//! 3 10 11 12 13 14
//! 4 15 16 17 18 19
//! 5 20 21 22 23 24
//! ```
//!
//! Moves are named in size-independent "canonical" cells `5*r + c` (see [`super::Move`]),
//! so a move's text does not depend on the board it is played on.

/// Smallest supported board side.
pub const MIN_SIZE: u8 = 3;
/// Largest supported board side (the standard game).
pub const MAX_SIZE: u8 = 5;
/// Most (source, destination) pushes of any size: 4 corners x 2 + 12 edges x 3 on 5x5.
pub const MAX_PUSHES: usize = 44;

/// One (source, destination) push on a given board size, as masks: applying it to a
/// symbol mask `m` gives `(m & !range) | ((m & seg) << shl >> shr)`, after which the
/// destination cell is empty and receives the mover's cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    /// The source cell's bit (where the cube is taken).
    pub src: u32,
    /// The destination cell's bit (where the cube is put back).
    pub dst: u32,
    /// Every cell from `src` to `dst` inclusive.
    pub range: u32,
    /// The cells that slide one step toward `src`: `range` without `src`.
    pub seg: u32,
    /// Left shift of the slide (1 or the board side, or 0).
    pub shl: u8,
    /// Right shift of the slide (1 or the board side, or 0).
    pub shr: u8,
    /// Canonical source cell `5*row + col`.
    pub from: u8,
    /// Canonical destination cell `5*row + col`.
    pub to: u8,
}

impl Push {
    const NONE: Push = Push {
        src: 0,
        dst: 0,
        range: 0,
        seg: 0,
        shl: 0,
        shr: 0,
        from: 0,
        to: 0,
    };

    /// Slides the cubes of one symbol mask `m` (`dst` is left empty).
    #[inline(always)]
    #[must_use]
    pub const fn apply(&self, m: u32) -> u32 {
        (m & !self.range) | ((m & self.seg) << self.shl >> self.shr)
    }

    /// The inverse slide of [`Push::apply`]: the cells of `range` other than `dst` slide
    /// one step back toward `dst` (the cube at `dst` is dropped, `src` is left empty).
    /// Used by the retrograde solver to generate predecessors.
    #[inline(always)]
    #[must_use]
    pub const fn unapply(&self, m: u32) -> u32 {
        (m & !self.range) | ((m & (self.range ^ self.dst)) >> self.shl << self.shr)
    }
}

/// Everything about one board size that move generation, line tests and notation need.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Board side `n` (3, 4 or 5); a line of `n` wins.
    pub size: u8,
    /// `n * n`.
    pub cells: u8,
    /// All cells.
    pub full: u32,
    /// The `4n - 4` border cells (the only ones that may be taken).
    pub border: u32,
    /// The four corners (2 destinations each).
    pub corners: u32,
    /// Border cells that are not corners (3 destinations each).
    pub edges: u32,
    /// Winning lines: `n` rows, `n` columns, the two long diagonals.
    pub lines: [u32; 12],
    /// Number of valid entries of `lines` (`2n + 2`).
    pub n_lines: u8,
    /// Every legal push, sorted by source bit, then destination bit.
    pub pushes: [Push; MAX_PUSHES],
    /// Number of valid entries of `pushes` (20, 32, 44).
    pub n_pushes: u8,
    /// For each cell bit: index of its first push in `pushes` and how many it has.
    pub cell_pushes: [(u8, u8); 25],
    /// Push index by canonical (from, to) cells; 255 when not a legal push on this size.
    pub index: [[u8; 25]; 25],
}

const fn bit(n: usize, col: usize, row: usize) -> u32 {
    1u32 << (n * row + col)
}

const fn geometry(n: usize) -> Geometry {
    let mut full = 0u32;
    let mut border = 0u32;
    let mut corners = 0u32;
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            full |= bit(n, c, r);
            let on_row_edge = r == 0 || r == n - 1;
            let on_col_edge = c == 0 || c == n - 1;
            if on_row_edge || on_col_edge {
                border |= bit(n, c, r);
            }
            if on_row_edge && on_col_edge {
                corners |= bit(n, c, r);
            }
            c += 1;
        }
        r += 1;
    }
    let mut lines = [0u32; 12];
    let mut k = 0;
    while k < n {
        let mut i = 0;
        while i < n {
            lines[k] |= bit(n, i, k); // row k
            lines[n + k] |= bit(n, k, i); // column k
            i += 1;
        }
        k += 1;
    }
    let mut i = 0;
    while i < n {
        lines[2 * n] |= bit(n, i, i);
        lines[2 * n + 1] |= bit(n, n - 1 - i, i);
        i += 1;
    }

    let mut pushes = [Push::NONE; MAX_PUSHES];
    let mut index = [[255u8; 25]; 25];
    let mut cell_pushes = [(0u8, 0u8); 25];
    let mut np = 0usize;
    let mut cell = 0;
    while cell < n * n {
        let (sr, sc) = (cell / n, cell % n);
        cell_pushes[cell].0 = np as u8;
        if border >> cell & 1 == 1 {
            // Candidate destinations, in increasing bit order: column top, row left,
            // row right, column bottom.
            let cands = [(sc, 0usize), (0usize, sr), (n - 1, sr), (sc, n - 1)];
            let mut j = 0;
            while j < 4 {
                let (dc, dr) = cands[j];
                j += 1;
                if dc == sc && dr == sr {
                    continue;
                }
                let mut range = 0u32;
                let (shl, shr);
                if dr == sr {
                    // Along the row: stride 1.
                    let (lo, hi) = if dc < sc { (dc, sc) } else { (sc, dc) };
                    let mut x = lo;
                    while x <= hi {
                        range |= bit(n, x, sr);
                        x += 1;
                    }
                    if dc < sc {
                        (shl, shr) = (1u8, 0u8);
                    } else {
                        (shl, shr) = (0u8, 1u8);
                    }
                } else {
                    let (lo, hi) = if dr < sr { (dr, sr) } else { (sr, dr) };
                    let mut y = lo;
                    while y <= hi {
                        range |= bit(n, sc, y);
                        y += 1;
                    }
                    if dr < sr {
                        (shl, shr) = (n as u8, 0u8);
                    } else {
                        (shl, shr) = (0u8, n as u8);
                    }
                }
                let src = bit(n, sc, sr);
                let from = (5 * sr + sc) as u8;
                let to = (5 * dr + dc) as u8;
                pushes[np] = Push {
                    src,
                    dst: bit(n, dc, dr),
                    range,
                    seg: range & !src,
                    shl,
                    shr,
                    from,
                    to,
                };
                index[from as usize][to as usize] = np as u8;
                np += 1;
            }
        }
        cell_pushes[cell].1 = np as u8 - cell_pushes[cell].0;
        cell += 1;
    }
    Geometry {
        size: n as u8,
        cells: (n * n) as u8,
        full,
        border,
        corners,
        edges: border & !corners,
        lines,
        n_lines: (2 * n + 2) as u8,
        pushes,
        n_pushes: np as u8,
        cell_pushes,
        index,
    }
}

static GEOMETRY: [Geometry; 3] = [geometry(3), geometry(4), geometry(5)];

/// The geometry of board side `size` (3, 4 or 5).
///
/// # Panics
/// On any other size (sizes are validated when positions are built).
#[inline(always)]
#[must_use]
pub fn geometry_of(size: u8) -> &'static Geometry {
    &GEOMETRY[(size - MIN_SIZE) as usize]
}

impl Geometry {
    /// Whether symbol mask `m` contains a complete line.
    #[inline(always)]
    #[must_use]
    pub fn has_line(&self, m: u32) -> bool {
        // All 12 slots without an early exit (the unused ones are 0 and never count): a
        // fixed-length, branch-free loop the compiler turns into a few vector compares.
        // It runs twice per ply of every playout.
        let mut hit = false;
        for &l in &self.lines {
            hit |= (m & l == l) & (l != 0);
        }
        hit
    }

    /// The legal pushes, sorted by source then destination bit.
    #[inline(always)]
    #[must_use]
    pub fn pushes(&self) -> &[Push] {
        &self.pushes[..self.n_pushes as usize]
    }

    /// The pushes whose source is bit `cell`.
    #[inline(always)]
    #[must_use]
    pub fn pushes_from(&self, cell: u32) -> &[Push] {
        let (start, len) = self.cell_pushes[cell as usize];
        &self.pushes[start as usize..(start + len) as usize]
    }

    /// Number of pushes whose source is in `sources` (a subset of the border): 2 per
    /// corner, 3 per other border cell; bulk move counting without generating moves.
    #[inline(always)]
    #[must_use]
    pub fn count_pushes(&self, sources: u32) -> u32 {
        2 * (sources & self.corners).count_ones() + 3 * (sources & self.edges).count_ones()
    }

    /// The winning lines (rows, columns, the two diagonals).
    pub fn lines(&self) -> &[u32] {
        &self.lines[..self.n_lines as usize]
    }

    /// Bit of canonical cell `5*row + col`, if it lies on this board.
    #[must_use]
    pub fn cell_bit(&self, canonical: u8) -> Option<u32> {
        let (r, c) = (canonical / 5, canonical % 5);
        (r < self.size && c < self.size).then(|| r as u32 * self.size as u32 + c as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_size() {
        for (size, pushes) in [(3u8, 20u8), (4, 32), (5, 44)] {
            let g = geometry_of(size);
            assert_eq!(g.n_pushes, pushes);
            assert_eq!(g.border.count_ones(), 4 * size as u32 - 4);
            assert_eq!(g.count_pushes(g.border), pushes as u32);
            for p in g.pushes() {
                // Inverse: unapply(apply(m)) restores every cell but src.
                let m = 0x1ff_ffff & g.full & 0x0155_5555;
                assert_eq!(p.unapply(p.apply(m)) & !p.src, m & !p.src);
                assert_eq!(p.apply(m) & p.dst, 0);
            }
        }
    }
}
