//! Frozen boards (rules file, "Frozen boards and the end").
//!
//! A board is frozen when no sequence of non-capturing moves (steps) of its two players on
//! that board, in any order and any number each, with the other towers blocking as they
//! stand, reaches a position where some tower could capture. [`is_frozen`] decides it
//! exactly in two stages:
//!
//! 1. [`cheap_live`], the necessary condition of the rules file: some related pair (a
//!    capture relation either way) of a Lower tower `x` at (row `rx`, file `fx`) and an
//!    Upper tower `y` at (`ry`, `fy`) has `g = ry - rx >= 0` and `|fx - fy| <= g + 1`. It
//!    ignores blocking. Steps only ever shrink `g + 1 - |fx - fy|` (a straight step by 1,
//!    a diagonal step by 0 or 2) and `g`, so a pair that fails it fails forever: when no
//!    pair passes, the board is frozen.
//! 2. A legal capture now, or one tower able to walk alone next to a related tower (a
//!    flood fill of its forward cone over empty squares), proves the board live.
//! 3. Otherwise an exact depth-first search over the board's step sequences, which stops at
//!    the first position with a legal capture (live; each node first looks one step ahead,
//!    where only the moved tower can make a new capture), prunes positions where no pair passes
//!    the cheap test any more, and memoises visited positions in a reused per-thread table
//!    (exact 50-bit keys: 5 bits of square per tower, at most 10 towers; no hashing
//!    collisions can lie).
//!
//! `tests/it/talat/freeze.rs` compares it with a breadth-first brute force over the same moves.

use std::cell::RefCell;

use super::board::{Board, REACH, STEPS, Side, file, row};
use super::tower::CAPTURES;

/// Most towers on one board: 5 start squares per side.
const MAX_TOWERS: usize = 10;

/// Whether two kinds (indices) have a capture relation either way.
#[inline]
fn related(a: usize, b: usize) -> bool {
    (CAPTURES[a] >> b | CAPTURES[b] >> a) & 1 != 0
}

/// The cheap necessary test of pair (`x` Lower on `sx`, `y` Upper on `sy`): may these two
/// squares ever become capture-adjacent by steps alone?
#[inline]
fn pair_may_meet(sx: usize, sy: usize) -> bool {
    let g = row(sy) - row(sx);
    g >= 0 && (file(sx) - file(sy)).abs() <= g + 1
}

/// The rules file's necessary condition for a live board (see the module docs): `false`
/// proves the board frozen; `true` says nothing.
#[must_use]
pub fn cheap_live(board: &Board) -> bool {
    let mut xs = board.occ[0];
    while xs != 0 {
        let sx = xs.trailing_zeros() as usize;
        xs &= xs - 1;
        let mut ys = board.occ[1];
        while ys != 0 {
            let sy = ys.trailing_zeros() as usize;
            ys &= ys - 1;
            if related(board.kind_at(sx), board.kind_at(sy)) && pair_may_meet(sx, sy) {
                return true;
            }
        }
    }
    false
}

/// Whether the board is frozen (exact: the cheap test, a legal capture now, the one-mover
/// test, then the search of the module docs).
#[must_use]
pub fn is_frozen(board: &Board) -> bool {
    if !cheap_live(board) {
        return true;
    }
    if board.any_capture() || one_mover_live(board) {
        return false;
    }
    !reachable_capture(board)
}

/// Squares of file a and file e.
const FILE_A: u32 = 0x0010_8421;
const FILE_E: u32 = FILE_A << 4;

/// Every square a tower of `side` on `sq` can reach by steps alone over the `empty`
/// squares, the others standing still (not counting `sq`).
#[inline]
fn flood(side: Side, sq: usize, empty: u32) -> u32 {
    let mut frontier = 1u32 << sq;
    let mut reached = 0;
    for _ in 0..4 {
        frontier = match side {
            Side::Lower => {
                (frontier << 5) | ((frontier & !FILE_A) << 4) | ((frontier & !FILE_E) << 6)
            }
            Side::Upper => {
                (frontier >> 5) | ((frontier & !FILE_A) >> 6) | ((frontier & !FILE_E) >> 4)
            }
        } & empty;
        if frontier == 0 {
            break;
        }
        reached |= frontier;
    }
    reached
}

/// A sufficient test for a live board: some tower can walk, alone, to a square next to a
/// related tower (capture adjacency is symmetric: `x` may capture `y`, or `y` `x`, exactly
/// when `y` is in `REACH[Lower][x]`, i.e. `x` is in `REACH[Upper][y]`). `false` says
/// nothing; the exact search decides then.
#[must_use]
pub fn one_mover_live(board: &Board) -> bool {
    let empty = !board.occupied() & super::board::ALL_SQUARES;
    let mut xs = board.occ[0];
    while xs != 0 {
        let sx = xs.trailing_zeros() as usize;
        xs &= xs - 1;
        let fx = flood(Side::Lower, sx, empty);
        let mut ys = board.occ[1];
        while ys != 0 {
            let sy = ys.trailing_zeros() as usize;
            ys &= ys - 1;
            if !related(board.kind_at(sx), board.kind_at(sy)) || !pair_may_meet(sx, sy) {
                continue;
            }
            if fx & REACH[1][sy] != 0 || flood(Side::Upper, sy, empty) & REACH[0][sx] != 0 {
                return true;
            }
        }
    }
    false
}

/// The towers of a board as the search sees them.
struct Search<'a> {
    n: usize,
    /// Lower towers are `0..n_lower`, Upper towers `n_lower..n`.
    n_lower: usize,
    /// `rel[i]`: bit `j` set when towers `i` and `j` (opposite sides) are related.
    rel: [u16; MAX_TOWERS],
    visited: &'a mut Visited,
}

impl Search<'_> {
    /// Whether a capture is legal now (`pos` squares of every tower).
    fn capture_now(&self, pos: &[u8; MAX_TOWERS]) -> bool {
        for i in 0..self.n_lower {
            let reach = REACH[0][pos[i] as usize];
            let mut js = self.rel[i];
            while js != 0 {
                let j = js.trailing_zeros() as usize;
                js &= js - 1;
                if reach >> pos[j] & 1 != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether some related pair still passes the cheap test.
    fn may_meet(&self, pos: &[u8; MAX_TOWERS]) -> bool {
        for i in 0..self.n_lower {
            let mut js = self.rel[i];
            while js != 0 {
                let j = js.trailing_zeros() as usize;
                js &= js - 1;
                if pair_may_meet(pos[i] as usize, pos[j] as usize) {
                    return true;
                }
            }
        }
        false
    }

    fn key(&self, pos: &[u8; MAX_TOWERS]) -> u64 {
        let mut k = 0u64;
        for (i, &p) in pos.iter().enumerate().take(self.n) {
            k |= u64::from(p) << (5 * i);
        }
        k
    }

    /// Squares of the towers related to tower `i`.
    fn partners(&self, pos: &[u8; MAX_TOWERS], i: usize) -> u32 {
        let mut m = 0;
        let mut js = self.rel[i];
        while js != 0 {
            let j = js.trailing_zeros() as usize;
            js &= js - 1;
            m |= 1 << pos[j];
        }
        m
    }

    /// Depth-first: is a position with a legal capture reachable from `pos`, where no
    /// capture is legal? A step creates a capture only if it puts the moved tower next to
    /// a related one (the other towers' geometry is unchanged, and capture adjacency is
    /// symmetric), so every child is first checked that way — shallow captures end the
    /// search at once — before any child is searched.
    fn dfs(&mut self, pos: &mut [u8; MAX_TOWERS], occ: u32) -> bool {
        if !self.may_meet(pos) {
            return false;
        }
        if !self.visited.insert(self.key(pos)) {
            return false;
        }
        for i in 0..self.n {
            let side = usize::from(i >= self.n_lower);
            let partners = self.partners(pos, i);
            let mut to = STEPS[side][pos[i] as usize] & !occ;
            while to != 0 {
                let t = to.trailing_zeros() as usize;
                to &= to - 1;
                if REACH[side][t] & partners != 0 {
                    return true;
                }
            }
        }
        for i in 0..self.n {
            let side = usize::from(i >= self.n_lower);
            let from = pos[i];
            let mut to = STEPS[side][from as usize] & !occ;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                pos[i] = t as u8;
                let found = self.dfs(pos, occ ^ (1 << from) ^ (1 << t));
                pos[i] = from;
                if found {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether a position with a legal capture is reachable by steps alone (the exact search).
#[must_use]
pub fn reachable_capture(board: &Board) -> bool {
    let mut pos = [0u8; MAX_TOWERS];
    let mut kind = [0u8; MAX_TOWERS];
    let mut n = 0;
    for side in Side::BOTH {
        let mut t = board.occ[side.index()];
        while t != 0 {
            let sq = t.trailing_zeros() as usize;
            t &= t - 1;
            pos[n] = sq as u8;
            kind[n] = board.kind[sq];
            n += 1;
        }
    }
    let n_lower = board.occ[0].count_ones() as usize;
    let mut rel = [0u16; MAX_TOWERS];
    for i in 0..n_lower {
        for j in n_lower..n {
            if related(kind[i] as usize, kind[j] as usize) {
                rel[i] |= 1 << j;
                rel[j] |= 1 << i;
            }
        }
    }
    VISITED.with(|v| {
        let mut v = v.borrow_mut();
        v.reset();
        let mut s = Search {
            n,
            n_lower,
            rel,
            visited: &mut v,
        };
        s.capture_now(&pos) || s.dfs(&mut pos, board.occupied())
    })
}

thread_local! {
    static VISITED: RefCell<Visited> = RefCell::new(Visited::with_capacity(1 << 10));
}

/// An open-addressing set of 50-bit position keys, cleared in O(1) by a generation stamp
/// and reused between searches (it grows, rarely, and never shrinks).
struct Visited {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    generation: u32,
    len: usize,
}

impl Visited {
    fn with_capacity(cap: usize) -> Self {
        Self {
            keys: vec![0; cap],
            stamps: vec![0; cap],
            generation: 1,
            len: 0,
        }
    }

    fn reset(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    /// Inserts `key`; false if it was already there.
    fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        loop {
            if self.stamps[i] != self.generation {
                self.stamps[i] = self.generation;
                self.keys[i] = key;
                self.len += 1;
                return true;
            }
            if self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let live: Vec<u64> = (0..self.keys.len())
            .filter(|&i| self.stamps[i] == self.generation)
            .map(|i| self.keys[i])
            .collect();
        let cap = self.keys.len() * 2;
        *self = Self {
            keys: vec![0; cap],
            stamps: vec![0; cap],
            generation: 1,
            len: 0,
        };
        for k in live {
            self.insert(k);
        }
    }
}
