//! Exact retrograde solving: every board of the 3x3 and 4x4 games, and every full board
//! (no blank cube) of the 5x5 game.
//!
//! Positions are normalised to the side to move ("me") against the other side ("opp"),
//! so a board is `(me, opp)` masks and its children are `(opp', me')`. A value is packed
//! in one byte ([`Code`]): the game-theoretic value for the side to move and the plies to
//! the end under optimal play (the winner hurries, the loser resists), counting the final
//! move, 0 for a board that already has a line (side to move with a line wins, else the
//! side with a line wins; a move completing both lines loses for the mover).
//!
//! Method: boards are grouped in tiers by their number of cubes, which a move never
//! lowers (taking a blank adds one, taking one's own keeps it). Tiers are solved from the
//! fullest down. Inside a tier a breadth-first retrograde analysis by increasing distance
//! runs over predecessors (unmoves: [`super::geometry::Push::unapply`]) with a counter of
//! unresolved moves per board; moves into the next tier (already solved) seed each board's
//! state. Boards never resolved are draws. Tier setup and each distance level of the
//! analysis run on `threads` threads (rayon; board states are atomic words).
//!
//! Symmetry reduction: the rules commute with the eight symmetries of the
//! square (the `symmetry` module), so only canonical boards are stored and solved (about one
//! in eight); every other board reads its canonical image's code. Each predecessor found by
//! an unmove is replaced by its canonical image. The counter of unresolved moves must still
//! reach zero exactly when every move of the board is refuted, although an unmove expansion
//! of one canonical child `C` does not hit a canonical predecessor `P` once per move of `P`
//! into `C`'s orbit. Counting over the whole group `G` (`|G| = 8`, `Stab` the symmetries
//! fixing a board, `N` the number of moves of `P` whose child lies in `C`'s orbit): the
//! unmoves of `C` landing on some image of `P` number `N |Stab(C)| / |Stab(P)|` (both
//! sides count the pairs (symmetry `s`, move `m` of `P` with `m(P) = s(C)`), the left one
//! grouped by the image of `P`, the right one by the image of `C`). So the counter of `P`
//! starts at its number of unresolved moves times `|orbit(P)| = 8 / |Stab(P)|`, and each
//! unmove hit from a child `C` won by the opponent subtracts `|orbit(C)| = 8 / |Stab(C)|`:
//! the hits from `C`'s orbit subtract `N |orbit(P)|` in total, and the counter is zero
//! exactly when all the moves are refuted, as without the reduction. Tentative wins need
//! no count (one child lost for the opponent suffices). The full 5x5 boards are reduced
//! the same way (`symmetry::FullSymmetry`), and the finished table is expanded to
//! all 2^25 boards.

use std::time::Instant;

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::geometry::{Geometry, MAX_PUSHES, geometry_of};
use super::symmetry::{FullSymmetry, Symmetry};

/// A packed value: `2d` = loss in `d` plies, `2d + 1` = win in `d` plies, [`DRAW`] = draw
/// (neither side can force a win). `d <= 126`.
pub type Code = u8;
/// The draw code.
pub const DRAW: Code = 255;
pub(super) const UNKNOWN: Code = 254;
/// Largest distance a code can hold.
const MAX_DEPTH: u32 = 126;

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move can force a win.
    Win,
    /// The other side can force a win.
    Loss,
    /// Neither side can force a win (the game goes on forever under best play).
    Draw,
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Value::Win => "WIN",
            Value::Loss => "LOSS",
            Value::Draw => "DRAW",
        })
    }
}

/// Unpacks a code: the value and, for a win or loss, the plies to the end.
#[must_use]
pub fn decode(c: Code) -> (Value, Option<u32>) {
    match c {
        DRAW => (Value::Draw, None),
        c if c & 1 == 1 => (Value::Win, Some(u32::from(c >> 1))),
        c => (Value::Loss, Some(u32::from(c >> 1))),
    }
}

pub(crate) const fn win(d: u32) -> Code {
    (2 * d + 1) as Code
}
pub(crate) const fn loss(d: u32) -> Code {
    (2 * d) as Code
}

/// Working state of one board while its tier is solved.
#[derive(Clone, Copy)]
pub(super) struct Cell {
    /// Final code, or `UNKNOWN`.
    code: Code,
    /// Moves inside the tier whose child is not yet a proven win for the opponent, times
    /// `orbit` (see the module doc), in bits 0-8; [`NO_LOSS`] set = this board can no
    /// longer be a loss (a child is a loss or a draw for the opponent, or a tentative win
    /// is recorded in `aux`).
    cnt: u16,
    /// With [`NO_LOSS`]: tentative win distance (255 none). Without: the longest win
    /// among the children in the next tier (for the loss distance).
    aux: u8,
    /// Size of the board's orbit under the tier's symmetries (1, 2, 4 or 8; 1 without
    /// symmetry reduction); 0 = not a canonical board (an unused entry).
    orbit: u8,
}

const NO_LOSS: u16 = 0x200;

/// An entry of a tier that holds no canonical board.
const UNUSED: Cell = Cell {
    code: DRAW,
    cnt: 0,
    aux: 0,
    orbit: 0,
};

/// How the boards of one tier are numbered.
pub(super) trait Tier: Sync {
    /// Number of boards.
    fn len(&self) -> usize;
    /// The canonical image of board `(me, opp)` and the size of its orbit (the board
    /// itself and 1 for a tier without symmetry reduction).
    fn canon(&self, me: u32, opp: u32) -> (u32, u32, u32);
    /// Index of the canonical board `(me, opp)` (an image from [`Tier::canon`]).
    fn index(&self, me: u32, opp: u32) -> usize;
    /// A board packed in 32 bits (queue entries).
    fn pack(&self, me: u32, opp: u32) -> u32;
    /// The board of [`Tier::pack`].
    fn unpack(&self, v: u32) -> (u32, u32);
    /// Calls `f(index, me, opp)` for every entry in index order (every canonical board,
    /// and boards sharing a row with one).
    fn for_each(&self, f: &mut dyn FnMut(usize, u32, u32));
    /// Fills `cells` (indexed like the tier) by calling `f(me, opp)` for every entry, on
    /// the current rayon pool.
    fn init(&self, cells: &mut [Cell], f: &(dyn Fn(u32, u32) -> Cell + Sync));
}

/// Binomial coefficients up to 25.
const fn binomials() -> [[usize; 26]; 26] {
    let mut b = [[0usize; 26]; 26];
    let mut n = 0;
    while n < 26 {
        b[n][0] = 1;
        let mut k = 1;
        while k <= n {
            b[n][k] = b[n - 1][k - 1] + if k < n { b[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    b
}
static BINOM: [[usize; 26]; 26] = binomials();

/// Colex rank of every 16-bit mask among the masks of its popcount:
/// `sum C(p_i, i + 1)` over its set bits `p_0 < p_1 < ...`.
fn rank16() -> &'static [u16] {
    static T: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        (0..1u32 << 16)
            .map(|m| {
                let mut r = 0usize;
                let mut i = 0;
                let mut b = m;
                while b != 0 {
                    let p = b.trailing_zeros() as usize;
                    i += 1;
                    r += BINOM[p][i];
                    b &= b - 1;
                }
                r as u16
            })
            .collect()
    })
}

/// `pext` of 8-bit values by 8-bit masks: `[mask][value]`.
fn pext8() -> &'static [u8] {
    static T: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![0u8; 1 << 16];
        for mask in 0..256u32 {
            for v in 0..256u32 {
                let (mut r, mut k, mut m) = (0u32, 0, mask);
                while m != 0 {
                    let low = m.trailing_zeros();
                    r |= (v >> low & 1) << k;
                    k += 1;
                    m &= m - 1;
                }
                t[(mask << 8 | v) as usize] = r as u8;
            }
        }
        t
    })
}

/// Scatters the low bits of `v` onto the set bits of `mask` (software `pdep`).
fn pdep(mut v: u32, mut mask: u32) -> u32 {
    let mut r = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if v & 1 != 0 {
            r |= low;
        }
        v >>= 1;
        mask ^= low;
    }
    r
}

/// Next larger number with the same popcount (Gosper's hack); `v != 0`.
fn next_combination(v: u32) -> u32 {
    let t = v | (v - 1);
    (t + 1) | (((!t & (!t).wrapping_neg()) - 1) >> (v.trailing_zeros() + 1))
}

/// The canonical boards with `k` cubes on a 3x3 or 4x4 board, class by class (`a` cubes
/// for the side to move, `k - a` for the other), each class numbered by the rank of `me`
/// among the canonical rows ([`Symmetry::row`]) and the colex rank of `opp` squeezed onto
/// the cells `me` leaves free. A row whose `me` has a non-trivial stabiliser also holds
/// some boards that are not canonical (unused entries).
struct ClassTier {
    cells: usize,
    k: usize,
    /// Offset of class `a`; `off[k + 1]` = the tier size.
    off: [usize; 18],
    rank: &'static [u16],
    pext: &'static [u8],
    sym: &'static Symmetry,
}

impl ClassTier {
    fn new(size: u8, k: usize) -> Self {
        let cells = usize::from(size * size);
        let sym = Symmetry::of(size);
        let mut off = [0usize; 18];
        for a in 0..=k {
            off[a + 1] = off[a] + sym.rows(a) * BINOM[cells - a][k - a];
        }
        Self {
            cells,
            k,
            off,
            rank: rank16(),
            pext: pext8(),
            sym,
        }
    }

    /// The canonical rows with `a` cubes (masks `me`), in index order.
    fn rows(&self, a: usize) -> Vec<u32> {
        let mut mes = Vec::with_capacity(self.sym.rows(a));
        let mut me = (1u32 << a) - 1;
        while me <= self.full() {
            if self.sym.row(me).is_some() {
                mes.push(me);
            }
            if me == 0 {
                break;
            }
            me = next_combination(me);
        }
        mes
    }

    #[inline(always)]
    fn pext16(&self, v: u32, mask: u32) -> u32 {
        let lo = u32::from(self.pext[((mask & 255) << 8 | (v & 255)) as usize]);
        let hi = u32::from(self.pext[((mask >> 8 & 255) << 8 | (v >> 8 & 255)) as usize]);
        lo | hi << (mask & 255).count_ones()
    }

    fn full(&self) -> u32 {
        (1u32 << self.cells) - 1
    }
}

impl Tier for ClassTier {
    fn len(&self) -> usize {
        self.off[self.k + 1]
    }

    #[inline(always)]
    fn canon(&self, me: u32, opp: u32) -> (u32, u32, u32) {
        self.sym.canon(me, opp)
    }

    #[inline(always)]
    fn index(&self, me: u32, opp: u32) -> usize {
        let a = me.count_ones() as usize;
        let inner = BINOM[self.cells - a][self.k - a];
        let free = self.full() & !me;
        let row = self.sym.row(me);
        debug_assert!(row.is_some(), "{me:#x} is not a canonical row");
        self.off[a]
            + row.unwrap_or(usize::MAX >> 8) * inner
            + self.rank[self.pext16(opp, free) as usize] as usize
    }

    #[inline(always)]
    fn pack(&self, me: u32, opp: u32) -> u32 {
        me | opp << 16
    }

    #[inline(always)]
    fn unpack(&self, v: u32) -> (u32, u32) {
        (v & 0xffff, v >> 16)
    }

    fn for_each(&self, f: &mut dyn FnMut(usize, u32, u32)) {
        let mut i = 0;
        for a in 0..=self.k {
            let b = self.k - a;
            for me in self.rows(a) {
                let free = self.full() & !me;
                let mut t = (1u32 << b) - 1;
                for _ in 0..BINOM[self.cells - a][b] {
                    f(i, me, pdep(t, free));
                    i += 1;
                    if t != 0 {
                        t = next_combination(t);
                    }
                }
            }
        }
    }

    fn init(&self, cells: &mut [Cell], f: &(dyn Fn(u32, u32) -> Cell + Sync)) {
        for a in 0..=self.k {
            let b = self.k - a;
            let inner = BINOM[self.cells - a][b];
            let mes = self.rows(a);
            let slice = &mut cells[self.off[a]..self.off[a + 1]];
            slice
                .par_chunks_mut(inner)
                .zip(mes.par_iter())
                .for_each(|(chunk, &me)| {
                    let free = self.full() & !me;
                    let mut t = (1u32 << b) - 1;
                    for c in chunk.iter_mut() {
                        *c = f(me, pdep(t, free));
                        if t != 0 {
                            t = next_combination(t);
                        }
                    }
                });
        }
    }
}

/// The canonical full boards of the 5x5 game ([`FullSymmetry`]: `me` the smallest of its
/// images; `opp` is its complement), numbered in increasing `me` by a rank over a bitmap
/// of the canonical masks (about one in eight of the 2^25).
struct FullTier {
    full: u32,
    sym: &'static FullSymmetry,
    /// Per 64 consecutive masks: which are canonical and how many canonical masks precede.
    blocks: Vec<RankBlock>,
    len: usize,
}

/// One word of [`FullTier`]'s bitmap with the rank of its first mask.
#[derive(Clone, Copy, Default)]
struct RankBlock {
    bits: u64,
    base: u32,
}

/// Rank blocks per parallel task of [`FullTier`] (65,536 masks).
const BLOCK_GROUP: usize = 1024;

impl FullTier {
    fn new(full: u32) -> Self {
        let sym = FullSymmetry::get();
        let mut blocks = vec![RankBlock::default(); (full as usize + 1).div_ceil(64)];
        blocks
            .par_chunks_mut(BLOCK_GROUP)
            .enumerate()
            .for_each(|(gi, group)| {
                for (j, b) in group.iter_mut().enumerate() {
                    let first = ((gi * BLOCK_GROUP + j) * 64) as u32;
                    for i in 0..64 {
                        if sym.is_least(first + i) {
                            b.bits |= 1 << i;
                        }
                    }
                }
            });
        let mut total = 0u32;
        for b in &mut blocks {
            b.base = total;
            total += b.bits.count_ones();
        }
        Self {
            full,
            sym,
            blocks,
            len: total as usize,
        }
    }
}

impl Tier for FullTier {
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn canon(&self, me: u32, _opp: u32) -> (u32, u32, u32) {
        let (m, orbit) = self.sym.least(me);
        (m, self.full & !m, orbit)
    }
    #[inline(always)]
    fn index(&self, me: u32, _opp: u32) -> usize {
        let b = &self.blocks[(me >> 6) as usize];
        debug_assert!(b.bits >> (me & 63) & 1 == 1, "{me:#x} is not canonical");
        b.base as usize + (b.bits & ((1u64 << (me & 63)) - 1)).count_ones() as usize
    }
    #[inline(always)]
    fn pack(&self, me: u32, _opp: u32) -> u32 {
        me
    }
    #[inline(always)]
    fn unpack(&self, v: u32) -> (u32, u32) {
        (v, self.full & !v)
    }
    fn for_each(&self, f: &mut dyn FnMut(usize, u32, u32)) {
        let mut i = 0;
        for (bi, b) in self.blocks.iter().enumerate() {
            let mut bits = b.bits;
            while bits != 0 {
                let me = (bi * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                f(i, me, self.full & !me);
                i += 1;
            }
        }
    }
    fn init(&self, cells: &mut [Cell], f: &(dyn Fn(u32, u32) -> Cell + Sync)) {
        // The cells of each group of blocks, split off in order.
        let mut parts = Vec::new();
        let mut rest = cells;
        for (gi, group) in self.blocks.chunks(BLOCK_GROUP).enumerate() {
            let n: usize = group.iter().map(|b| b.bits.count_ones() as usize).sum();
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(n);
            parts.push((gi, head));
            rest = tail;
        }
        parts.into_par_iter().for_each(|(gi, part)| {
            let mut k = 0;
            let group = self.blocks.chunks(BLOCK_GROUP).nth(gi).unwrap_or_default();
            for (j, b) in group.iter().enumerate() {
                let first = ((gi * BLOCK_GROUP + j) * 64) as u32;
                let mut bits = b.bits;
                while bits != 0 {
                    let me = first + bits.trailing_zeros();
                    bits &= bits - 1;
                    part[k] = f(me, self.full & !me);
                    k += 1;
                }
            }
        });
    }
}

/// A solved tier one cube fuller than the tier being solved, as [`solve_tier`] reads it:
/// where the code of a board is, and the codes.
pub(super) trait NextTier: Sync {
    /// Position in [`NextTier::codes`] of the code of board `(me, opp)` (any board of
    /// the tier, canonical or not).
    fn locate(&self, me: u32, opp: u32) -> usize;
    /// The codes.
    fn codes(&self) -> &[Code];
}

/// A solved [`ClassTier`] with its codes.
struct ClassNext<'a>(&'a ClassTier, &'a [Code]);

impl NextTier for ClassNext<'_> {
    #[inline(always)]
    fn locate(&self, me: u32, opp: u32) -> usize {
        let (a, b, _) = self.0.canon(me, opp);
        self.0.index(a, b)
    }
    fn codes(&self) -> &[Code] {
        self.1
    }
}

impl NextTier for FullBoardTable {
    #[inline(always)]
    fn locate(&self, me: u32, _opp: u32) -> usize {
        me as usize
    }
    fn codes(&self) -> &[Code] {
        &self.codes
    }
}

/// The line test of the retrograde passes: [`Geometry::has_line`], answered from a bit
/// table over every mask on boards of at most 16 cells (one load instead of a loop over
/// the lines).
struct LineTest {
    g: &'static Geometry,
    /// Bit `m` set = mask `m` holds a line; empty for the 5x5 board.
    bits: Vec<u64>,
}

impl LineTest {
    fn new(g: &'static Geometry) -> Self {
        let bits = if g.cells <= 16 {
            let mut bits = vec![0u64; 1 << 10];
            for m in 0..1u32 << 16 {
                if g.has_line(m) {
                    bits[(m >> 6) as usize] |= 1 << (m & 63);
                }
            }
            bits
        } else {
            Vec::new()
        };
        Self { g, bits }
    }

    #[inline(always)]
    fn has(&self, m: u32) -> bool {
        if self.bits.is_empty() {
            self.g.has_line(m)
        } else {
            self.bits[(m >> 6) as usize] >> (m & 63) & 1 != 0
        }
    }
}

/// Solves one tier; `next` is the next tier (one more cube) with its codes, `None` for
/// a tier whose boards have no blank on the border (the full boards). Returns the codes
/// (indexed like the tier; unused entries are [`DRAW`]) and the counts over every board
/// of the tier (each canonical board counted once per image).
pub(super) fn solve_tier<T: Tier, N: NextTier>(
    g: &'static Geometry,
    tier: &T,
    next: Option<&N>,
) -> (Vec<Code>, Counts) {
    let lines = LineTest::new(g);
    let lines = &lines;
    let init = |me: u32, opp: u32| -> Cell {
        let (cm, co, orbit) = tier.canon(me, opp);
        if (cm, co) != (me, opp) {
            return UNUSED;
        }
        let orbit = orbit as u8;
        if lines.has(me) {
            return Cell {
                code: win(0),
                cnt: 0,
                aux: 0,
                orbit,
            };
        }
        if lines.has(opp) {
            return Cell {
                code: loss(0),
                cnt: 0,
                aux: 0,
                orbit,
            };
        }
        let mut cnt = g.count_pushes(g.border & me) as u16;
        let mut blanks = g.border & !(me | opp);
        let (mut best_win, mut no_loss, mut max_win) = (255u8, false, 0u8);
        // Moves inside the tier that end the game are settled here, by the line test
        // alone, instead of by expanding every finished board from level 0 (its
        // predecessors are scattered over the tier: one cache miss each). A child where
        // the opponent (to move there) has a line is lost for us in 1 ply: one fewer
        // unresolved move, longest win 0 for the opponent; a child where only we have a
        // line is won in 1 ply.
        let mut own = g.border & me;
        while own != 0 {
            let cell = own.trailing_zeros();
            own &= own - 1;
            for p in g.pushes_from(cell) {
                if lines.has(p.apply(opp)) {
                    cnt -= 1;
                } else if lines.has(p.apply(me) | p.dst) {
                    no_loss = true;
                    best_win = 1;
                }
            }
        }
        if let Some(next) = next {
            let codes = next.codes();
            // The children's indices first, prefetched, then their codes: the misses
            // overlap.
            let mut kids = [0usize; MAX_PUSHES];
            let mut n = 0;
            while blanks != 0 {
                let cell = blanks.trailing_zeros();
                blanks &= blanks - 1;
                for p in g.pushes_from(cell) {
                    let i = next.locate(p.apply(opp), p.apply(me) | p.dst);
                    prefetch(&codes[i]);
                    kids[n] = i;
                    n += 1;
                }
            }
            for &i in &kids[..n] {
                match decode(codes[i]) {
                    (Value::Draw, _) => no_loss = true,
                    (Value::Loss, Some(d)) => {
                        no_loss = true;
                        best_win = best_win.min(d as u8 + 1);
                    }
                    (_, d) => max_win = max_win.max(d.unwrap_or(0) as u8),
                }
            }
        } else {
            assert_eq!(blanks, 0, "a board with a blank needs the next tier");
        }
        let cnt = cnt * u16::from(orbit);
        if no_loss {
            Cell {
                code: UNKNOWN,
                cnt: cnt | NO_LOSS,
                aux: best_win,
                orbit,
            }
        } else {
            Cell {
                code: UNKNOWN,
                cnt,
                aux: max_win,
                orbit,
            }
        }
    };
    let mut cells = vec![UNUSED; tier.len()];
    tier.init(&mut cells, &init);

    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); MAX_DEPTH as usize + 2];
    tier.for_each(&mut |i, me, opp| {
        let c = &mut cells[i];
        let v = tier.pack(me, opp);
        if c.code != UNKNOWN {
            // A finished board: its predecessors were settled by their own line tests.
        } else if c.cnt & NO_LOSS != 0 {
            if c.aux != 255 {
                buckets[c.aux as usize].push(v);
            }
        } else if c.cnt == 0 {
            // Every move is known (a blank taken, or a finished child) and every child is
            // a win for the opponent.
            let d = u32::from(c.aux) + 1;
            c.code = loss(d);
            buckets[d as usize].push(v);
        }
    });
    // The analysis runs level by level (distance d); the boards of one level are expanded
    // in parallel, each board's state packed in one atomic word updated by
    // compare-and-swap. Results do not depend on the order within a level: every win found
    // at level d has distance d + 1, and a loss's distance is fixed by its last child.
    let atoms: Vec<AtomicU32> = cells
        .into_iter()
        .map(|c| AtomicU32::new(pack_cell(c)))
        .collect();
    for d in 0..=MAX_DEPTH {
        let mut bucket = std::mem::take(&mut buckets[d as usize]);
        if bucket.is_empty() {
            continue;
        }
        // Sorted by packed board (the other side's cubes `opp` major): boards sharing `opp`
        // are expanded together, and their predecessors share each push's side-to-move
        // mask `q`, so they fall in the same few rows of the tier (cache locality).
        bucket.par_sort_unstable();
        let found: Vec<(u8, u32)> = bucket
            .par_chunks(4096)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for (j, &v) in chunk.iter().enumerate() {
                    if let Some(&w) = chunk.get(j + 4) {
                        let (me, opp) = tier.unpack(w);
                        prefetch(&atoms[tier.index(me, opp)]);
                    }
                    expand(g, lines, tier, &atoms, d, v, &mut out);
                }
                out
            })
            .collect();
        for (e, v) in found {
            buckets[e as usize].push(v);
        }
    }
    let mut counts = Counts::default();
    let codes = atoms
        .into_iter()
        .map(|a| {
            let c = unpack_cell(a.into_inner());
            let code = if c.code == UNKNOWN { DRAW } else { c.code };
            let n = u64::from(c.orbit);
            match decode(code).0 {
                Value::Win => counts.wins += n,
                Value::Loss => counts.losses += n,
                Value::Draw => counts.draws += n,
            }
            code
        })
        .collect();
    (codes, counts)
}

/// A [`Cell`] in one atomic word: code in bits 0-7, `cnt` 8-17, `aux` 18-25, `orbit` 26-29.
fn pack_cell(c: Cell) -> u32 {
    u32::from(c.code) | u32::from(c.cnt) << 8 | u32::from(c.aux) << 18 | u32::from(c.orbit) << 26
}

fn unpack_cell(x: u32) -> Cell {
    Cell {
        code: x as u8,
        cnt: (x >> 8 & 0x3ff) as u16,
        aux: (x >> 18) as u8,
        orbit: (x >> 26) as u8,
    }
}

/// Hints the CPU to fetch the cache line of `r` (no effect on results).
#[inline(always)]
fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; `r` is a valid reference and nothing is read
    // through the pointer by this instruction.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(r).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// Expands board `v` of level `d` if it is resolved at this level: updates its
/// predecessors and appends `(distance, board)` for each board it resolves.
///
/// The predecessors' indices are computed and prefetched first, so their cache misses
/// overlap instead of being paid one after the other.
fn expand<T: Tier>(
    g: &Geometry,
    lines: &LineTest,
    tier: &T,
    atoms: &[AtomicU32],
    d: u32,
    v: u32,
    out: &mut Vec<(u8, u32)>,
) {
    let (me, opp) = tier.unpack(v);
    // Predecessors: the other side made a push within the tier whose destination now
    // shows its symbol.
    let mut preds = [(0u32, 0usize); MAX_PUSHES];
    let mut n = 0;
    for p in g.pushes() {
        if p.dst & opp == 0 {
            continue;
        }
        let q = p.unapply(opp) | p.src;
        let r = p.unapply(me);
        if lines.has(q) || lines.has(r) {
            continue;
        }
        let (q, r, _) = tier.canon(q, r);
        let i = tier.index(q, r);
        prefetch(&atoms[i]);
        preds[n] = (tier.pack(q, r), i);
        n += 1;
    }
    let a = &atoms[tier.index(me, opp)];
    // Level 0 (finished boards) is never queued: their predecessors are settled in setup.
    debug_assert!(d > 0);
    let mut x = a.load(Relaxed);
    let (won, orbit) = loop {
        let c = unpack_cell(x);
        if c.code == UNKNOWN && c.cnt & NO_LOSS != 0 && u32::from(c.aux) == d {
            let new = pack_cell(Cell { code: win(d), ..c });
            match a.compare_exchange_weak(x, new, Relaxed, Relaxed) {
                Ok(_) => break (true, u16::from(c.orbit)),
                Err(y) => x = y,
            }
        } else if c.code == loss(d) {
            break (false, u16::from(c.orbit));
        } else {
            return;
        }
    };
    for &(packed, i) in &preds[..n] {
        let pa = &atoms[i];
        let mut x = pa.load(Relaxed);
        loop {
            let mut c = unpack_cell(x);
            if c.code != UNKNOWN {
                break;
            }
            let mut push = None;
            if won {
                if c.cnt & NO_LOSS != 0 {
                    break;
                }
                // A hit from a child won by the opponent: its orbit size (module doc).
                debug_assert!(c.cnt >= orbit, "counter below a child's weight");
                c.cnt -= orbit;
                if c.cnt == 0 {
                    let e = d.max(u32::from(c.aux)) + 1;
                    assert!(e <= MAX_DEPTH, "distance {e} exceeds the code range");
                    c.code = loss(e);
                    push = Some(e);
                }
            } else {
                let e = d + 1;
                assert!(e <= MAX_DEPTH, "distance {e} exceeds the code range");
                if c.cnt & NO_LOSS != 0 && u32::from(c.aux) <= e {
                    break;
                }
                c.cnt |= NO_LOSS;
                c.aux = e as u8;
                push = Some(e);
            }
            match pa.compare_exchange_weak(x, pack_cell(c), Relaxed, Relaxed) {
                Ok(_) => {
                    if let Some(e) = push {
                        out.push((e as u8, packed));
                    }
                    break;
                }
                Err(y) => x = y,
            }
        }
    }
}

/// Wins, losses and draws for the side to move over a set of boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Boards the side to move wins.
    pub wins: u64,
    /// Boards the side to move loses.
    pub losses: u64,
    /// Drawn boards.
    pub draws: u64,
}

impl Counts {
    fn of(codes: &[Code]) -> Self {
        let mut c = Counts::default();
        for &v in codes {
            match decode(v).0 {
                Value::Win => c.wins += 1,
                Value::Loss => c.losses += 1,
                Value::Draw => c.draws += 1,
            }
        }
        c
    }

    fn add(&mut self, o: Counts) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
}

/// Every board of a 3x3 or 4x4 game solved: `3^(n*n)` codes, by tier.
pub struct SmallBoardTable {
    size: u8,
    /// Per number of cubes: the tier and the codes of its canonical boards.
    tiers: Vec<(ClassTier, Vec<Code>)>,
    counts: Counts,
}

impl SmallBoardTable {
    /// Solves every board of side `size` (3 or 4) on `threads` threads.
    ///
    /// # Errors
    /// A size other than 3 or 4, or a thread pool that cannot start.
    pub fn solve(size: u8, threads: usize) -> Result<Self, String> {
        if !(3..=4).contains(&size) {
            return Err(format!("full solving covers sizes 3 and 4, not {size}"));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| e.to_string())?;
        let g = geometry_of(size);
        let cells = usize::from(g.cells);
        let mut tiers: Vec<(ClassTier, Vec<Code>)> = Vec::with_capacity(cells + 1);
        let mut counts = Counts::default();
        pool.install(|| {
            for k in (0..=cells).rev() {
                let tier = ClassTier::new(size, k);
                let next = tiers.last().map(|(t, c)| ClassNext(t, c.as_slice()));
                let (codes, c) = solve_tier(g, &tier, next.as_ref());
                counts.add(c);
                tiers.push((tier, codes));
            }
        });
        tiers.reverse();
        Ok(Self {
            size,
            tiers,
            counts,
        })
    }

    /// Board side.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Code of board `(me, opp)` (side to move first; bits as in [`super::geometry`]).
    #[must_use]
    pub fn code(&self, me: u32, opp: u32) -> Code {
        let (t, c) = &self.tiers[(me | opp).count_ones() as usize];
        let (me, opp, _) = t.canon(me, opp);
        c[t.index(me, opp)]
    }

    /// Counts over every board.
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

/// Every full 5x5 board (no blank) solved: `2^25` codes indexed by the side to move's mask.
pub struct FullBoardTable {
    codes: Vec<Code>,
}

impl FullBoardTable {
    /// Solves the 2^25 full 5x5 boards on `threads` threads: the canonical ones under the
    /// board's symmetries, then every board copies its canonical image's code. 32 MiB
    /// kept.
    ///
    /// # Errors
    /// A thread pool that cannot start.
    pub fn solve(threads: usize) -> Result<Self, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| e.to_string())?;
        let g = geometry_of(5);
        let codes = pool.install(|| {
            let tier = FullTier::new(g.full);
            let (canonical, _) = solve_tier::<_, FullBoardTable>(g, &tier, None);
            let mut codes = vec![DRAW; 1 << 25];
            codes
                .par_chunks_mut(1 << 16)
                .enumerate()
                .for_each(|(ci, chunk)| {
                    for (j, c) in chunk.iter_mut().enumerate() {
                        let me = ((ci << 16) + j) as u32;
                        let (m, _, _) = tier.canon(me, g.full & !me);
                        *c = canonical[tier.index(m, 0)];
                    }
                });
            codes
        });
        Ok(Self { codes })
    }

    /// A table from its `2^25` codes (as stored by [`super::table_file`]).
    pub(crate) fn from_codes(codes: Vec<Code>) -> Self {
        debug_assert_eq!(codes.len(), 1 << 25);
        Self { codes }
    }

    /// All codes, indexed by the side to move's mask.
    #[must_use]
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// Code of the full board where the side to move has cubes `me` (the rest are the
    /// other side's).
    #[must_use]
    pub fn code(&self, me: u32) -> Code {
        self.codes[me as usize]
    }

    /// Counts over every full board.
    #[must_use]
    pub fn counts(&self) -> Counts {
        Counts::of(&self.codes)
    }

    /// Counts over the full boards where the side to move has `mine` cubes.
    #[must_use]
    pub fn counts_with(&self, mine: u32) -> Counts {
        let mut c = Counts::default();
        for (me, &v) in self.codes.iter().enumerate() {
            if (me as u32).count_ones() == mine {
                c.add(Counts::of(&[v]));
            }
        }
        c
    }

    /// Longest distance of a forced result and how many boards are lost / won in it:
    /// `(plies, boards)` for losses then wins.
    #[must_use]
    pub fn longest(&self) -> ((u32, u64), (u32, u64)) {
        let mut best = [(0u32, 0u64); 2];
        for &v in &self.codes {
            if let (val, Some(d)) = decode(v) {
                let b = &mut best[usize::from(val == Value::Win)];
                if d > b.0 {
                    *b = (d, 1);
                } else if d == b.0 {
                    b.1 += 1;
                }
            }
        }
        (best[0], best[1])
    }
}

/// What [`solve_size`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveSummary {
    /// Board side.
    pub size: u8,
    /// Value of the empty board for the first player.
    pub value: Value,
    /// Plies to the end with best play from the empty board (`None` for a draw).
    pub plies: Option<u32>,
    /// Boards (side to move's view) won, lost and drawn, over all `3^(n*n)` boards.
    pub counts: Counts,
    /// Wall-clock seconds of the solve.
    pub seconds: f64,
}

/// Solves every board of side `size` (3 or 4) on `threads` threads and summarises.
///
/// # Errors
/// As [`SmallBoardTable::solve`].
pub fn solve_size(size: u8, threads: usize) -> Result<SolveSummary, String> {
    let t = Instant::now();
    let table = SmallBoardTable::solve(size, threads)?;
    let seconds = t.elapsed().as_secs_f64();
    let (value, plies) = decode(table.code(0, 0));
    Ok(SolveSummary {
        size,
        value,
        plies,
        counts: table.counts(),
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip() {
        let t = ClassTier::new(3, 5);
        let (mut n, mut boards) = (0, 0);
        t.for_each(&mut |i, me, opp| {
            assert_eq!(t.unpack(t.pack(me, opp)), (me, opp));
            assert_eq!((me | opp).count_ones(), 5);
            assert_eq!(me & opp, 0);
            assert_eq!(t.index(me, opp), i);
            let (cm, co, orbit) = t.canon(me, opp);
            if (cm, co) == (me, opp) {
                boards += orbit as usize;
            }
            n += 1;
        });
        assert_eq!(n, t.len());
        // Every 3x3 board with 5 cubes is the image of exactly one canonical board.
        assert_eq!(boards, BINOM[9][5] * 32);
    }

    /// The canonical boards are one per symmetry class: as many as Burnside's lemma counts
    /// (the average number of boards each symmetry fixes), and their orbits cover every
    /// board once.
    #[test]
    fn canonical_boards_are_one_per_class() {
        // 4x4, three states per cell: the identity fixes 3^16 boards, the quarter turns
        // 3^4 (4 cycles of cells), the half turn and the two mirrors 3^8, the two diagonal
        // reflections 3^10.
        let (mut classes, mut boards) = (0u64, 0u64);
        for k in 0..=16 {
            let t = ClassTier::new(4, k);
            t.for_each(&mut |_, me, opp| {
                let (cm, co, orbit) = t.canon(me, opp);
                if (cm, co) == (me, opp) {
                    classes += 1;
                    boards += u64::from(orbit);
                }
            });
        }
        let burnside = (3u64.pow(16) + 2 * 3u64.pow(4) + 3 * 3u64.pow(8) + 2 * 3u64.pow(10)) / 8;
        assert_eq!((classes, boards), (burnside, 3u64.pow(16)));
        assert_eq!(classes, 5_398_083);
        // Full 5x5 boards, two states per cell: cycles 25, 7 (quarter turns), 13 (half
        // turn), 15 (mirrors and diagonals).
        let t = FullTier::new(geometry_of(5).full);
        let burnside = (1u64 << 25) + 2 * (1 << 7) + (1 << 13) + 4 * (1 << 15);
        assert_eq!(t.len() as u64, burnside / 8);
        let mut covered = 0u64;
        t.for_each(&mut |i, me, opp| {
            assert_eq!(t.index(me, opp), i);
            covered += u64::from(t.canon(me, opp).2);
        });
        assert_eq!(covered, 1 << 25);
    }
}
