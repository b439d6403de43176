//! The tier of boards with exactly one blank cube (5x5: `25 * 2^24` boards for the side to
//! move; the same tier of the 4x4 board, `16 * 2^15`, checks it against the full 4x4
//! solution), solved exactly by the retrograde pass of [`super::retro`].
//!
//! A move never creates a blank, so this tier's children are in the tier itself (a cube of
//! one's own taken: the blank may shift along the pushed line) or among the full boards (the
//! blank taken, when it lies on the border), whose table ([`FullBoardTable`]) is solved
//! first. Inside the tier the breadth-first retrograde analysis by increasing distance of
//! [`super::retro`] runs unchanged: every board gets its value and its distance to the end
//! under optimal play, one byte ([`Code`]).
//!
//! Numbering and symmetry reduction: the blank cell lies in one of the orbits of the cells
//! under the eight symmetries of the square (6 on the 5x5 board: corners, the cells next to
//! a corner, edge middles, the inner diagonal, the inner edge middles, the centre; 3 on the
//! 4x4 board). A canonical board has its blank on the smallest cell of its orbit (the class
//! representative) and the smallest side-to-move mask `me` among the images under the
//! symmetries fixing that cell; the other side has every other cell. Canonical boards are
//! numbered class by class, in increasing `me`, by a rank over a bitmap of the canonical
//! masks (the mask with the blank's bit squeezed out: `2^(cells - 1)` bits per class). On the
//! 5x5 board that is 52,470,288 canonical boards, about one in eight of the 419,430,400.

use rayon::prelude::*;

use super::geometry::{Geometry, geometry_of};
use super::retro::{Cell, Code, Counts, FullBoardTable, NextTier, Tier, Value, decode, solve_tier};
use super::symmetry::{SYMMETRIES, image};

/// One word of a class's bitmap of canonical masks, with the rank of its first mask.
#[derive(Clone, Copy, Default)]
struct RankBlock {
    bits: u64,
    base: u32,
}

/// Squeezed masks per parallel task (1024 rank blocks).
const GROUP_MASKS: usize = 1 << 16;

/// The boards whose blank lies in one orbit of cells.
struct BlankClass {
    /// The orbit's smallest cell (bit index).
    rep: u32,
    /// Index of the class's first board in the tier.
    off: usize,
    /// Canonical boards of the class.
    count: usize,
    /// Bitmap over the squeezed masks (`me` without the blank's bit).
    blocks: Vec<RankBlock>,
}

/// The one-blank tier of a 4x4 or 5x5 board: canonical boards and their numbering.
pub struct OneBlankTier {
    cells: u32,
    full: u32,
    /// `maps[s][h][b]`: image under symmetry `s` of byte `b` at byte position `h` of a mask.
    maps: Box<[[[u32; 256]; 4]; SYMMETRIES]>,
    /// Per cell: its class and the symmetries mapping it to the class's representative.
    cell_class: [(u8, u8); 25],
    classes: Vec<BlankClass>,
    len: usize,
}

#[inline(always)]
fn squeeze(me: u32, cell: u32) -> u32 {
    (me & ((1 << cell) - 1)) | (me >> (cell + 1)) << cell
}

#[inline(always)]
fn unsqueeze(v: u32, cell: u32) -> u32 {
    (v & ((1 << cell) - 1)) | (v >> cell) << (cell + 1)
}

impl OneBlankTier {
    /// The tier of board side `size` (4 or 5); builds the bitmaps on the current rayon pool
    /// (5x5: 2^24 masks per class, 6 classes, 24 MiB).
    ///
    /// # Panics
    /// A size other than 4 or 5.
    #[must_use]
    pub fn new(size: u8) -> Self {
        assert!(
            (4..=5).contains(&size),
            "one-blank tiers exist for sizes 4 and 5"
        );
        let n = usize::from(size);
        let cells = (n * n) as u32;
        let full = (1u32 << cells) - 1;
        let mut maps = Box::new([[[0u32; 256]; 4]; SYMMETRIES]);
        for (s, map) in maps.iter_mut().enumerate() {
            for (h, part) in map.iter_mut().enumerate() {
                for (b, out) in part.iter_mut().enumerate() {
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
        let cell_image = |s: usize, cell: usize| {
            let (r, c) = image(s, n, cell / n, cell % n);
            (r * n + c) as u32
        };
        let mut cell_class = [(0u8, 0u8); 25];
        let mut reps: Vec<u32> = Vec::new();
        for (cell, entry) in cell_class.iter_mut().enumerate().take(n * n) {
            let rep = (0..SYMMETRIES)
                .map(|s| cell_image(s, cell))
                .min()
                .unwrap_or(0);
            let to_rep = (0..SYMMETRIES)
                .filter(|&s| cell_image(s, cell) == rep)
                .fold(0u8, |acc, s| acc | 1 << s);
            let k = match reps.iter().position(|&r| r == rep) {
                Some(k) => k,
                None => {
                    reps.push(rep);
                    reps.len() - 1
                }
            };
            *entry = (k as u8, to_rep);
        }
        let mut tier = Self {
            cells,
            full,
            maps,
            cell_class,
            classes: Vec::new(),
            len: 0,
        };
        let squeezed = 1usize << (cells - 1);
        let mut off = 0;
        for &rep in &reps {
            let stab = tier.cell_class[rep as usize].1;
            let mut blocks = vec![RankBlock::default(); squeezed.div_ceil(64)];
            blocks
                .par_chunks_mut(GROUP_MASKS / 64)
                .enumerate()
                .for_each(|(gi, group)| {
                    for (j, b) in group.iter_mut().enumerate() {
                        let first = ((gi * GROUP_MASKS / 64 + j) * 64) as u32;
                        for i in 0..64u32 {
                            let v = first + i;
                            if (v as usize) < squeezed && tier.is_least(unsqueeze(v, rep), stab) {
                                b.bits |= 1 << i;
                            }
                        }
                    }
                });
            let mut count = 0u32;
            for b in &mut blocks {
                b.base = count;
                count += b.bits.count_ones();
            }
            tier.classes.push(BlankClass {
                rep,
                off,
                count: count as usize,
                blocks,
            });
            off += count as usize;
        }
        tier.len = off;
        tier
    }

    /// Image of mask `m` under symmetry `s`.
    #[inline(always)]
    fn map(&self, s: usize, m: u32) -> u32 {
        let t = &self.maps[s];
        t[0][(m & 255) as usize]
            | t[1][(m >> 8 & 255) as usize]
            | t[2][(m >> 16 & 255) as usize]
            | t[3][(m >> 24 & 255) as usize]
    }

    /// Whether `me` is the smallest of its images under the symmetries `syms`.
    #[inline(always)]
    fn is_least(&self, me: u32, syms: u8) -> bool {
        let mut rest = syms & !1;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.map(s, me) < me {
                return false;
            }
        }
        true
    }

    /// Number of canonical boards.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the tier is empty (never: every board size has boards).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of blank classes (orbits of cells): 6 on the 5x5 board, 3 on the 4x4.
    #[must_use]
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// Calls `f(index, me, opp)` for the canonical boards with an index in `range`, in
    /// index order.
    pub fn for_range(&self, range: std::ops::Range<usize>, f: &mut dyn FnMut(usize, u32, u32)) {
        let mut i = range.start;
        for class in &self.classes {
            if i >= range.end {
                return;
            }
            if i >= class.off + class.count {
                continue;
            }
            let blank = 1 << class.rep;
            let local = (i - class.off) as u32;
            // The block holding the `local`-th canonical mask, and that mask's place in it.
            let mut bi = class.blocks.partition_point(|b| b.base <= local) - 1;
            let mut skip = local - class.blocks[bi].base;
            while bi < class.blocks.len() && i < range.end && i < class.off + class.count {
                let mut bits = class.blocks[bi].bits;
                while bits != 0 && i < range.end {
                    let v = (bi * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    if skip > 0 {
                        skip -= 1;
                        continue;
                    }
                    let me = unsqueeze(v, class.rep);
                    f(i, me, self.full & !me & !blank);
                    i += 1;
                }
                bi += 1;
            }
        }
    }

    /// Wins, losses and draws for the side to move over every board of the tier (each
    /// canonical board counted once per image), from the codes of its canonical boards.
    #[must_use]
    pub fn counts(&self, codes: &[Code]) -> Counts {
        let mut c = Counts::default();
        self.for_each(&mut |i, me, opp| {
            let n = u64::from(self.canon(me, opp).2);
            match decode(codes[i]).0 {
                Value::Win => c.wins += n,
                Value::Loss => c.losses += n,
                Value::Draw => c.draws += n,
            }
        });
        c
    }

    /// The tier index of any board `(me, opp)` of the tier (side to move first, exactly one
    /// blank cell); `None` for a board with another number of blanks.
    #[must_use]
    pub fn locate(&self, me: u32, opp: u32) -> Option<usize> {
        if me & opp != 0
            || (me | opp) & !self.full != 0
            || (me | opp).count_ones() != self.cells - 1
        {
            return None;
        }
        let (m, o, _) = self.canon(me, opp);
        Some(self.index(m, o))
    }
}

impl Tier for OneBlankTier {
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn canon(&self, me: u32, opp: u32) -> (u32, u32, u32) {
        let blank = (self.full & !(me | opp)).trailing_zeros();
        let (k, mut syms) = self.cell_class[blank as usize];
        let rep = self.classes[k as usize].rep;
        let (mut best, mut fixed) = (u32::MAX, 0);
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            let x = self.map(s, me);
            if x < best {
                (best, fixed) = (x, 1);
            } else if x == best {
                fixed += 1;
            }
        }
        (
            best,
            self.full & !best & !(1 << rep),
            SYMMETRIES as u32 / fixed,
        )
    }

    #[inline(always)]
    fn index(&self, me: u32, opp: u32) -> usize {
        let blank = (self.full & !(me | opp)).trailing_zeros();
        let class = &self.classes[self.cell_class[blank as usize].0 as usize];
        debug_assert_eq!(blank, class.rep, "not a canonical board");
        let v = squeeze(me, blank);
        let b = &class.blocks[(v >> 6) as usize];
        debug_assert!(b.bits >> (v & 63) & 1 == 1, "{me:#x} is not canonical");
        class.off + b.base as usize + (b.bits & ((1u64 << (v & 63)) - 1)).count_ones() as usize
    }

    #[inline(always)]
    fn pack(&self, me: u32, opp: u32) -> u32 {
        me | (self.full & !(me | opp)).trailing_zeros() << 25
    }

    #[inline(always)]
    fn unpack(&self, v: u32) -> (u32, u32) {
        let me = v & ((1 << 25) - 1);
        (me, self.full & !me & !(1 << (v >> 25)))
    }

    fn for_each(&self, f: &mut dyn FnMut(usize, u32, u32)) {
        let mut i = 0;
        for class in &self.classes {
            let blank = 1 << class.rep;
            for (bi, b) in class.blocks.iter().enumerate() {
                let mut bits = b.bits;
                while bits != 0 {
                    let v = (bi * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    let me = unsqueeze(v, class.rep);
                    f(i, me, self.full & !me & !blank);
                    i += 1;
                }
            }
        }
    }

    fn init(&self, cells: &mut [Cell], f: &(dyn Fn(u32, u32) -> Cell + Sync)) {
        let mut parts = Vec::new();
        let mut rest = cells;
        for class in &self.classes {
            for (gi, group) in class.blocks.chunks(GROUP_MASKS / 64).enumerate() {
                let n: usize = group.iter().map(|b| b.bits.count_ones() as usize).sum();
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(n);
                parts.push((class, gi, head));
                rest = tail;
            }
        }
        parts.into_par_iter().for_each(|(class, gi, part)| {
            let blank = 1 << class.rep;
            let mut k = 0;
            let group = class
                .blocks
                .chunks(GROUP_MASKS / 64)
                .nth(gi)
                .unwrap_or_default();
            for (j, b) in group.iter().enumerate() {
                let first = ((gi * GROUP_MASKS / 64 + j) * 64) as u32;
                let mut bits = b.bits;
                while bits != 0 {
                    let me = unsqueeze(first + bits.trailing_zeros(), class.rep);
                    bits &= bits - 1;
                    part[k] = f(me, self.full & !me & !blank);
                    k += 1;
                }
            }
        });
    }
}

/// The one-blank tier solved: a code per canonical board.
pub struct OneBlankTable {
    tier: OneBlankTier,
    codes: Vec<Code>,
}

impl OneBlankTable {
    /// Solves the 5x5 one-blank tier from the full-board table on `threads` threads
    /// (52.4 M boards; about 530 MB at peak).
    ///
    /// # Errors
    /// A thread pool that cannot start.
    pub fn solve(full: &FullBoardTable, threads: usize) -> Result<(Self, Counts), String> {
        Self::solve_with(5, full, threads)
    }

    /// Solves the one-blank tier of board side `size` with `next` the solved full boards.
    pub(super) fn solve_with<N: NextTier>(
        size: u8,
        next: &N,
        threads: usize,
    ) -> Result<(Self, Counts), String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| e.to_string())?;
        let g: &'static Geometry = geometry_of(size);
        Ok(pool.install(|| {
            let tier = OneBlankTier::new(size);
            let (codes, counts) = solve_tier(g, &tier, Some(next));
            (Self { tier, codes }, counts)
        }))
    }

    /// A table from its codes (as stored); `None` when their number is not the tier's.
    #[must_use]
    pub fn from_codes(size: u8, codes: Vec<Code>) -> Option<Self> {
        let tier = OneBlankTier::new(size);
        (codes.len() == tier.len()).then_some(Self { tier, codes })
    }

    /// The codes, one per canonical board in tier order.
    #[must_use]
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// The numbering.
    #[must_use]
    pub fn tier(&self) -> &OneBlankTier {
        &self.tier
    }

    /// Code of board `(me, opp)` (side to move first), if it has exactly one blank.
    #[must_use]
    pub fn code(&self, me: u32, opp: u32) -> Option<Code> {
        self.tier.locate(me, opp).map(|i| self.codes[i])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::quixo::retro::SmallBoardTable;

    /// The full 4x4 boards' codes indexed by the side to move's mask (also the next tier
    /// of `tier_rounds`' tests).
    pub(crate) struct Full4(pub(crate) Vec<Code>);

    impl NextTier for Full4 {
        fn locate(&self, me: u32, _opp: u32) -> usize {
            me as usize
        }
        fn codes(&self) -> &[Code] {
            &self.0
        }
    }

    #[test]
    fn ranges_enumerate_the_numbering() {
        let t = OneBlankTier::new(4);
        let mut all = Vec::new();
        t.for_each(&mut |i, me, opp| all.push((i, me, opp)));
        for (a, b) in [
            (0, 10),
            (5, 60_000),
            (t.len() - 3, t.len()),
            (100, 100),
            (0, t.len()),
        ] {
            let mut got = Vec::new();
            t.for_range(a..b, &mut |i, me, opp| got.push((i, me, opp)));
            assert_eq!(got, all[a..b], "{a}..{b}");
        }
    }

    #[test]
    fn squeeze_round_trips() {
        for cell in 0..25 {
            for v in [0u32, 1, 0xabcdef, (1 << 24) - 1, 0x555555] {
                assert_eq!(squeeze(unsqueeze(v, cell), cell), v);
                assert_eq!(unsqueeze(v, cell) >> cell & 1, 0);
            }
        }
    }

    /// Every board of the tier is the image of exactly one canonical board, and the
    /// numbering is dense and in order.
    #[test]
    fn canonical_boards_cover_the_4x4_tier() {
        let t = OneBlankTier::new(4);
        assert_eq!(t.classes(), 3);
        let (mut n, mut covered) = (0usize, 0u64);
        t.for_each(&mut |i, me, opp| {
            assert_eq!(i, n);
            assert_eq!(t.index(me, opp), i);
            assert_eq!(t.unpack(t.pack(me, opp)), (me, opp));
            let (cm, co, orbit) = t.canon(me, opp);
            assert_eq!((cm, co), (me, opp));
            covered += u64::from(orbit);
            n += 1;
        });
        assert_eq!(n, t.len());
        assert_eq!(covered, 16 << 15);
        // Burnside over the one-blank 4x4 boards: identity 16 * 2^15; quarter turns fix no
        // board (no cell is fixed); the half turn none; the mirrors none (no fixed cell);
        // each diagonal reflection fixes 4 blank cells * 2^(3 + 6) boards.
        assert_eq!(n as u64, ((16u64 << 15) + 2 * 4 * (1 << 9)) / 8);
    }

    /// Burnside over the one-blank 5x5 boards: identity 25 * 2^24; the quarter turns fix the
    /// boards with the blank in the centre and 6 cycles of 4 cells (2^6); the half turn 12
    /// pairs (2^12); each of the 4 reflections 5 fixed cells for the blank, 4 other fixed
    /// cells and 10 pairs (5 * 2^14).
    #[test]
    fn canonical_count_of_the_5x5_tier() {
        let t = OneBlankTier::new(5);
        assert_eq!(t.classes(), 6);
        let burnside = (25u64 << 24) + 2 * (1 << 6) + (1 << 12) + 4 * 5 * (1 << 14);
        assert_eq!(t.len() as u64, burnside / 8);
        assert_eq!(t.len(), 52_470_288);
    }

    /// The one-blank 4x4 tier solved from the full 4x4 boards agrees board for board
    /// with the full retrograde solution of the 4x4 game.
    #[test]
    fn four_by_four_tier_matches_the_full_solution() {
        let small = SmallBoardTable::solve(4, 2).expect("4x4 solve");
        let full: Vec<Code> = (0..1u32 << 16)
            .map(|me| small.code(me, 0xffff & !me))
            .collect();
        let (table, counts) = OneBlankTable::solve_with(4, &Full4(full), 2).expect("tier");
        let mut total = 0u64;
        for blank in 0..16 {
            for v in 0..1u32 << 15 {
                let me = unsqueeze(v, blank);
                let opp = 0xffff & !me & !(1 << blank);
                assert_eq!(
                    table.code(me, opp),
                    Some(small.code(me, opp)),
                    "{me:#x} {opp:#x}"
                );
                total += 1;
            }
        }
        assert_eq!(counts.wins + counts.losses + counts.draws, total);
        assert_eq!(table.code(0, 0), None);
        // Random positions against the proving search, to 5 plies.
        use crate::game::{Game, Seat};
        use crate::games::quixo::{ProveLimits, Quixo, Verdict, prove};
        let limits = ProveLimits {
            max_plies: 5,
            time_ms: None,
            tt_mb: 1,
        };
        let (mut checked, mut proven, mut s) = (0, 0, 0x9e37_79b9_7f4a_7c15u64);
        while checked < 300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let blank = (s >> 40) as u32 % 16;
            let me = unsqueeze(s as u32 & 0x7fff, blank);
            let opp = 0xffff & !me & !(1 << blank);
            let pos = Quixo::from_masks(4, me, opp, 0, 0).expect("board");
            if pos.outcome().is_some() || pos.to_move() != Seat(0) {
                continue;
            }
            let (value, plies) = decode(table.code(me, opp).expect("in the tier"));
            let p = prove(&pos, &limits, None);
            let agrees = match p.value {
                Verdict::Win => value == Value::Win && plies == p.plies,
                Verdict::Loss => value == Value::Loss && plies == p.plies,
                Verdict::Draw => value == Value::Draw,
                Verdict::Unproven => value == Value::Draw || plies.is_some_and(|d| d > 5),
            };
            assert!(
                agrees,
                "{pos}: search {:?} {:?}, table {value} {plies:?}",
                p.value, p.plies
            );
            checked += 1;
            proven += usize::from(p.plies.is_some());
        }
        assert!(
            proven > 30,
            "only {proven} of 300 positions proven within 5 plies"
        );
    }
}
