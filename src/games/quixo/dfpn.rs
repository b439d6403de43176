//! Depth-first proof-number search (df-pn; Nagai 2002) for two-player Quixo, bounded by
//! the distance to the end: "can the attacker force a line within `d` plies?".
//!
//! **Soundness with repetitions.** Quixo positions repeat (a push can be undone), so an
//! unbounded proof-number search would meet the graph-history interaction: a value found
//! through one path is not valid for another. Here every node is the exact triple
//! (board, plies left `d`, who attacks), and `d` falls by one per ply, so the search
//! graph is acyclic and a node's answer does not depend on the path that reached it:
//! a proven "win within `d`" is a real forced win of at most `d` plies, and a disproof
//! only says "not within `d`". A line that is never finished within `d` plies (a
//! repetition, an endless game) is a disproof for the attacker at that bound.
//!
//! **Table.** Proof and disproof numbers live in a bounded table (`tt_mb` MiB, buckets of
//! four exact-key entries, the entry with the least search work replaced); the key holds
//! the board, `d` and the attacker, so a hit is never wrong, and lost entries only cost
//! work again. One table serves every bound and both attackers of a proof attempt.
//!
//! **Thresholds.** The 1+ε trick (Pawlewicz and Lew 2007): the best child's proof
//! threshold at an OR node is `min(th, pn2 * (1 + 1/4))` instead of `pn2 + 1` (and
//! likewise for disproof numbers at AND nodes), so the search stays longer in one subtree.
//!
//! **Leaves.** A new node's numbers start from its mobility (proof number = the
//! defender's safe replies at AND nodes, disproof number = the attacker's safe moves at
//! OR nodes); a node is decided at once when a move wins, when every move loses, when
//! `d` runs out, when the full-board table knows it, or when the attacker's best line is
//! too short to be finished within `d` plies (a line's count grows by at most one per ply).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::geometry::{Geometry, geometry_of};
use super::position::{Move, Quixo};
use super::prove::{OutOfTime, Proof, ProveLimits, Verdict, safe_children};
use super::retro::{FullBoardTable, Value, decode};
use crate::game::Game;

/// An infinite proof or disproof number (the node is decided).
const INF: u32 = u32::MAX;
/// Largest finite number: sums saturate here.
const BIG: u32 = INF - 1;
/// Deepest bound a key holds (7 bits).
pub const MAX_DFPN_PLIES: u32 = 127;

/// One table entry: `[key, pn | dn << 32, work]`, the exact key (0 = empty), the proof
/// and disproof numbers, the search work (at most `u32::MAX`). Plain integers, so a new
/// table is zeroed memory (`vec!` of zeros): the kernel hands its pages out on first touch
/// instead of the whole `tt_mb` being written before the search starts (a short proof
/// touches a few pages of the default 256 MiB).
type Entry = [u64; 3];

const WAYS: usize = 4;

/// The bounded proof-number table: buckets of [`WAYS`] entries.
struct PnTable {
    buckets: Vec<[Entry; WAYS]>,
    mask: usize,
}

impl PnTable {
    fn new(mb: usize) -> Self {
        let want = (mb.max(1) << 20) / std::mem::size_of::<[Entry; WAYS]>();
        let n = if want.is_power_of_two() {
            want
        } else {
            (want.next_power_of_two() / 2).max(1)
        };
        Self {
            buckets: vec![[[0; 3]; WAYS]; n],
            mask: n - 1,
        }
    }

    /// The key of node `(me, opp)` with `d` plies left, attacker to move (`or`) or not.
    #[inline(always)]
    fn key(me: u32, opp: u32, d: u32, or: bool) -> u64 {
        1 << 63 | u64::from(me) << 33 | u64::from(opp) << 8 | u64::from(d) << 1 | u64::from(or)
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| e[0] == key)
            .map(|e| (e[1] as u32, (e[1] >> 32) as u32))
    }

    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let i = bucket.iter().position(|e| e[0] == key).unwrap_or_else(|| {
            (0..WAYS)
                .min_by_key(|&i| (bucket[i][0] != 0, bucket[i][2]))
                .unwrap_or(0)
        });
        bucket[i] = [
            key,
            u64::from(pn) | u64::from(dn) << 32,
            work.min(u64::from(u32::MAX)),
        ];
    }
}

/// A node decided without search, or its starting numbers.
enum Quick {
    Proven,
    Disproven,
    /// Undecided, with this many distinct safe moves for the side to move.
    Open(u32),
}

/// The df-pn prover: one table, a clock, a node count.
pub struct Dfpn<'a> {
    g: &'static Geometry,
    table: Option<&'a FullBoardTable>,
    tt: PnTable,
    started: Instant,
    time_ms: Option<u64>,
    /// Raised by another thread to stop the search (as the clock does).
    stop: Option<Arc<AtomicBool>>,
    /// Nodes expanded (searched by `mid`) so far.
    pub nodes: u64,
}

/// `x * (1 + 1/4)`, at least `x + 1`, saturating at [`INF`].
#[inline(always)]
fn widen(x: u32) -> u32 {
    if x >= BIG {
        INF
    } else {
        x.saturating_add((x / 4).max(1))
    }
}

impl<'a> Dfpn<'a> {
    /// A prover for boards of side `size`, with the full-board table for 5x5 if given, a
    /// table of `tt_mb` MiB (at least 1) and a wall-clock budget.
    #[must_use]
    pub fn new(
        size: u8,
        table: Option<&'a FullBoardTable>,
        tt_mb: usize,
        time_ms: Option<u64>,
    ) -> Self {
        Self {
            g: geometry_of(size),
            table: if size == 5 { table } else { None },
            tt: PnTable::new(tt_mb),
            started: Instant::now(),
            time_ms,
            stop: None,
            nodes: 0,
        }
    }

    /// Most cubes of `m` in one line.
    #[inline(always)]
    fn best_line(&self, m: u32) -> u32 {
        self.g
            .lines()
            .iter()
            .map(|&l| (m & l).count_ones())
            .max()
            .unwrap_or(0)
    }

    /// Decides `(me, opp)` (side to move first, unfinished) with `d` plies left without
    /// search when it can; `or`: the side to move is the attacker.
    fn quick(&self, me: u32, opp: u32, d: u32, or: bool) -> Quick {
        if d == 0 {
            return Quick::Disproven;
        }
        if let Some(t) = self.table
            && me | opp == self.g.full
        {
            let (v, dist) = decode(t.code(me));
            let want = if or { Value::Win } else { Value::Loss };
            return if v == want && dist.is_some_and(|x| x <= d) {
                Quick::Proven
            } else {
                Quick::Disproven
            };
        }
        let attacker = if or { me } else { opp };
        if self.best_line(attacker) + d < u32::from(self.g.size) {
            return Quick::Disproven;
        }
        let mut kids = [(0u32, 0u32); 44];
        let Some(n) = safe_children(self.g, me, opp, &mut kids) else {
            // The side to move completes its own line now.
            return if or { Quick::Proven } else { Quick::Disproven };
        };
        if n == 0 {
            // Every move completes the other side's line.
            return if or { Quick::Disproven } else { Quick::Proven };
        }
        if d == 1 {
            return Quick::Disproven;
        }
        Quick::Open(n as u32)
    }

    /// Current numbers of a node: the table's, else its quick verdict or mobility.
    fn numbers(&self, me: u32, opp: u32, d: u32, or: bool) -> (u32, u32) {
        if let Some(x) = self.tt.get(PnTable::key(me, opp, d, or)) {
            return x;
        }
        match self.quick(me, opp, d, or) {
            Quick::Proven => (0, INF),
            Quick::Disproven => (INF, 0),
            Quick::Open(n) if or => (1, n),
            Quick::Open(n) => (n, 1),
        }
    }

    fn tick(&mut self) -> Result<(), OutOfTime> {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                || self
                    .time_ms
                    .is_some_and(|t| self.started.elapsed().as_millis() as u64 >= t))
        {
            return Err(OutOfTime);
        }
        Ok(())
    }

    /// The multiple iterative deepening step: searches the node until its proof number
    /// reaches `th_pn` or its disproof number `th_dn` (or it is decided); returns its
    /// numbers, also stored in the table.
    fn mid(
        &mut self,
        me: u32,
        opp: u32,
        d: u32,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<(u32, u32), OutOfTime> {
        let key = PnTable::key(me, opp, d, or);
        if let Some((pn, dn)) = self.tt.get(key)
            && (pn >= th_pn || dn >= th_dn)
        {
            return Ok((pn, dn));
        }
        match self.quick(me, opp, d, or) {
            Quick::Proven => return Ok((0, INF)),
            Quick::Disproven => return Ok((INF, 0)),
            Quick::Open(_) => {}
        }
        self.tick()?;
        let start = self.nodes;
        let mut kids = [(0u32, 0u32); 44];
        let n = safe_children(self.g, me, opp, &mut kids).unwrap_or(0);
        let mut nums = [(0u32, 0u32); 44];
        for i in 0..n {
            let (cm, co) = kids[i];
            nums[i] = self.numbers(cm, co, d - 1, !or);
        }
        loop {
            // From the attacker's side: at OR nodes the proof number is the smallest
            // child's and the disproof number the sum; at AND nodes the reverse. `a` is
            // the "min" number of each child, `b` the "sum" number.
            let pick = |x: (u32, u32)| if or { x } else { (x.1, x.0) };
            let (mut best, mut a1, mut a2, mut sum) = (0usize, INF, INF, 0u32);
            let mut sum_inf = false;
            for (i, &x) in nums[..n].iter().enumerate() {
                let (a, b) = pick(x);
                if a < a1 {
                    a2 = a1;
                    a1 = a;
                    best = i;
                } else if a < a2 {
                    a2 = a;
                }
                if b == INF {
                    sum_inf = true;
                }
                sum = sum.saturating_add(b).min(BIG);
            }
            let sum = if sum_inf { INF } else { sum };
            let (pn, dn) = if or { (a1, sum) } else { (sum, a1) };
            if pn >= th_pn || dn >= th_dn {
                self.tt.put(key, pn, dn, self.nodes - start);
                return Ok((pn, dn));
            }
            let (th_a, th_b) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let (_, b_best) = pick(nums[best]);
            let child_a = th_a.min(widen(a2));
            // th_b - sum + b_best, in u64 so an infinite threshold stays infinite.
            let child_b =
                (u64::from(th_b) - u64::from(sum) + u64::from(b_best)).min(u64::from(INF)) as u32;
            let (c_pn, c_dn) = if or {
                (child_a, child_b)
            } else {
                (child_b, child_a)
            };
            let (cm, co) = kids[best];
            nums[best] = self.mid(cm, co, d - 1, !or, c_pn, c_dn)?;
        }
    }

    /// The length (plies) of the proof of "the attacker wins within `d`" that the table
    /// holds: the attacker's shortest proven move, the defender's longest reply, through
    /// the table's proven entries; `None` when the node is not proven or an entry of its
    /// proof was replaced. An upper bound on the exact distance, at most `d`.
    fn proof_length(&self, me: u32, opp: u32, d: u32, or: bool) -> Option<u32> {
        let mut memo = std::collections::HashMap::new();
        self.proof_length_memo(me, opp, d, or, &mut memo)
    }

    fn proof_length_memo(
        &self,
        me: u32,
        opp: u32,
        d: u32,
        or: bool,
        memo: &mut std::collections::HashMap<u64, Option<u32>>,
    ) -> Option<u32> {
        let key = PnTable::key(me, opp, d, or);
        if let Some(&r) = memo.get(&key) {
            return r;
        }
        let r = match self.quick(me, opp, d, or) {
            Quick::Disproven => None,
            Quick::Proven => {
                if let Some(t) = self.table
                    && me | opp == self.g.full
                {
                    decode(t.code(me)).1
                } else {
                    // A move wins at once, or every move loses at once.
                    Some(1)
                }
            }
            Quick::Open(_) if self.tt.get(key).is_none_or(|(pn, _)| pn != 0) => None,
            Quick::Open(_) => {
                let mut kids = [(0u32, 0u32); 44];
                let n = safe_children(self.g, me, opp, &mut kids).unwrap_or(0);
                let mut best: Option<u32> = None;
                let mut failed = false;
                for &(cm, co) in &kids[..n] {
                    let c = self.proof_length_memo(cm, co, d - 1, !or, memo);
                    if or {
                        if let Some(l) = c {
                            best = Some(best.map_or(l + 1, |b| b.min(l + 1)));
                        }
                    } else if let Some(l) = c {
                        best = Some(best.map_or(l + 1, |b| b.max(l + 1)));
                    } else {
                        failed = true;
                        break;
                    }
                }
                if failed { None } else { best }
            }
        };
        memo.insert(key, r);
        r
    }

    /// What the table or a quick look says of "the attacker wins within `d`", without
    /// search.
    fn known(&self, me: u32, opp: u32, d: u32, or: bool) -> Option<bool> {
        match self.numbers(me, opp, d, or) {
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        }
    }

    /// Whether the attacker forces a line within `d` plies from `(me, opp)` (side to move
    /// first, unfinished board); the attacker is the side to move when `or`.
    ///
    /// # Errors
    /// [`OutOfTime`] when the budget ran out.
    pub fn attacker_wins(
        &mut self,
        me: u32,
        opp: u32,
        d: u32,
        or: bool,
    ) -> Result<bool, OutOfTime> {
        let d = d.min(MAX_DFPN_PLIES);
        let (pn, _) = self.mid(me, opp, d, or, INF, INF)?;
        Ok(pn == 0)
    }
}

/// Proves `pos` by df-pn within `limits` (the table for full 5x5 boards when given):
/// first "the side to move wins within `max_plies`", then "it loses within `max_plies`";
/// a proof found is cut to the length of its proof tree, and then the exact distance is
/// the first bound from 1 up that proves, while time remains: `plies` is the exact
/// distance when [`Proof::plies_exact`] is set and an upper bound otherwise.
#[must_use]
pub fn prove_dfpn(pos: &Quixo, limits: &ProveLimits, table: Option<&FullBoardTable>) -> Proof {
    prove_dfpn_until(pos, limits, table, None)
}

/// [`prove_dfpn`] that also stops, as when out of time, once `stop` is raised (by another
/// thread: a user's interrupt).
#[must_use]
pub fn prove_dfpn_until(
    pos: &Quixo,
    limits: &ProveLimits,
    table: Option<&FullBoardTable>,
    stop: Option<Arc<AtomicBool>>,
) -> Proof {
    let (me, opp) = pos.own_other();
    let full = pos.size() == 5 && me | opp == pos.geometry().full;
    if pos.outcome().is_some() || (full && table.is_some()) {
        // Game over or a table look-up: nothing to search.
        return super::prove::prove(pos, limits, table);
    }
    let mut s = Dfpn::new(pos.size(), table, limits.tt_mb, limits.time_ms);
    s.stop = stop;
    let max = limits.max_plies.min(MAX_DFPN_PLIES);
    let mut proof = Proof {
        value: Verdict::Unproven,
        plies: None,
        plies_exact: false,
        best_move: None,
        nodes: 0,
        stopped: false,
    };
    // or = true: the side to move attacks (a win); false: the opponent does (a loss).
    let mut found = None;
    for or in [true, false] {
        match s.attacker_wins(me, opp, max, or) {
            Ok(true) => {
                found = Some(or);
                break;
            }
            Ok(false) => {}
            Err(OutOfTime) => {
                proof.stopped = true;
                break;
            }
        }
    }
    if let Some(or) = found {
        proof.value = if or { Verdict::Win } else { Verdict::Loss };
        // The bound found, cut to the length of the proof tree the table holds; then the
        // exact distance: the first bound from 1 up that proves (the table is kept, and
        // disproofs of short bounds are cheap). Measured on seven 18-21-cube positions
        // against shortening from above and bisection: 37 CPU-s in all against 45 and 47.
        let found_len = s.proof_length(me, opp, max, or).unwrap_or(max);
        let (mut k, mut exact) = (found_len, found_len == 1);
        for d in 1..found_len {
            match s.attacker_wins(me, opp, d, or) {
                Ok(true) => {
                    k = d;
                    exact = true;
                    break;
                }
                Ok(false) => exact = d + 1 == found_len,
                Err(OutOfTime) => {
                    proof.stopped = true;
                    break;
                }
            }
        }
        proof.plies = Some(k);
        proof.plies_exact = exact;
        proof.best_move = best_move(&mut s, pos, or, k, exact);
        // A proven position always has a move realising it: none means the clock stopped.
        proof.stopped |= proof.best_move.is_none();
    }
    proof.nodes = s.nodes;
    proof
}

/// A move realising a proof of `k` plies: for a win, a move after which the opponent
/// loses within `k - 1`; for a loss, the slowest: a move after which the opponent does
/// not win within `k - 2` when `k` is exact, else any. `None` if the clock stops it.
fn best_move(s: &mut Dfpn, pos: &Quixo, win: bool, k: u32, exact: bool) -> Option<Move> {
    let mut moves = <Quixo as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    // First the moves the last searches already settled (no new search).
    for &m in moves.iter() {
        let c = pos.play(m);
        if c.outcome().is_some() || k < 2 {
            continue;
        }
        let (cm, co) = c.own_other();
        let settled = if win {
            s.known(cm, co, k - 1, false) == Some(true)
        } else {
            exact && s.known(cm, co, k - 2, true) == Some(false)
        };
        if settled {
            return Some(m);
        }
    }
    let mut fallback = None;
    for &m in moves.iter() {
        let c = pos.play(m);
        if let Some(o) = c.outcome() {
            let mover_won = o.score(pos.to_move()) == 1;
            if win && mover_won {
                return Some(m);
            }
            if !win && k == 1 {
                return Some(m);
            }
            continue;
        }
        let (cm, co) = c.own_other();
        if win {
            // The opponent (to move in the child) defends; the mover attacks.
            if s.attacker_wins(cm, co, k - 1, false).ok()? {
                return Some(m);
            }
        } else {
            fallback.get_or_insert(m);
            if !exact || k < 2 {
                return Some(m);
            }
            if !s.attacker_wins(cm, co, k - 2, true).ok()? {
                return Some(m);
            }
        }
    }
    fallback
}
