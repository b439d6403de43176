//! A proving search for two-player Quixo positions: iterative deepening on the distance to
//! the end, answering "can the side to move force a win within `d` plies?" and "must it
//! lose within `d` plies?" exactly, with full boards answered by the 5x5 full-board table
//! when one is given. Finds the exact value and distance of every forced result within
//! its ply limit; draws are proven only for full boards (from the table).
//!
//! Distances count plies to the end with the final move, as in `cases.txt`: a position
//! won by one move is a win in 1; one where every move completes the opponent's line is a
//! loss in 1.

use std::time::Instant;

use super::geometry::{Geometry, geometry_of};
use super::position::{Move, Quixo};
use super::retro::{FullBoardTable, Value, decode};
use crate::game::Game;

/// Limits of a proof attempt.
#[derive(Clone, Copy, Debug)]
pub struct ProveLimits {
    /// Deepest distance tried, plies.
    pub max_plies: u32,
    /// Wall-clock budget, milliseconds (`None`: unlimited).
    pub time_ms: Option<u64>,
    /// Transposition table size, MiB (0: none). Allocated lazily by the OS, so a large
    /// table costs only the pages a proof touches.
    pub tt_mb: usize,
}

/// Default [`ProveLimits::tt_mb`].
pub const DEFAULT_PROVE_TT_MB: usize = 64;

impl Default for ProveLimits {
    fn default() -> Self {
        Self {
            max_plies: 7,
            time_ms: None,
            tt_mb: DEFAULT_PROVE_TT_MB,
        }
    }
}

/// One transposition-table slot: the exact board (side to move first; `key == 0` means
/// empty) and what is known about its two monotone questions. `wins_within(d)` is true
/// for every `d >= win_yes` and false for every `d <= win_no`; the same for
/// `loses_within` with `loss_yes`/`loss_no`. Exact keys, so a hit is never wrong.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    win_yes: u8,
    win_no: u8,
    loss_yes: u8,
    loss_no: u8,
}

/// "Not known true at any depth" for `win_yes` / `loss_yes`.
const NEVER: u8 = u8::MAX;

/// A direct-mapped table of [`Slot`]s, always-replace: proofs re-ask the same boards at
/// growing depths (iterative deepening) and through transpositions (Quixo moves commute
/// often), so each answer is computed once per depth bound at most. Slots are stored as
/// `[key, win_yes | win_no << 8 | loss_yes << 16 | loss_no << 24]`, plain integers, so a
/// new table is zeroed memory the kernel hands out page by page on first touch instead of
/// all `tt_mb` being written before the search starts.
struct ProofTable {
    slots: Vec<[u64; 2]>,
    mask: usize,
}

impl Slot {
    fn pack(self) -> [u64; 2] {
        let b = u32::from_le_bytes([self.win_yes, self.win_no, self.loss_yes, self.loss_no]);
        [self.key, u64::from(b)]
    }

    fn unpack(s: [u64; 2]) -> Self {
        let [win_yes, win_no, loss_yes, loss_no] = (s[1] as u32).to_le_bytes();
        Slot {
            key: s[0],
            win_yes,
            win_no,
            loss_yes,
            loss_no,
        }
    }
}

impl ProofTable {
    fn new(mb: usize) -> Option<Self> {
        if mb == 0 {
            return None;
        }
        let want = mb.saturating_mul(1 << 20) / std::mem::size_of::<[u64; 2]>();
        let n = if want.is_power_of_two() {
            want
        } else {
            (want.next_power_of_two() / 2).max(1)
        };
        Some(Self {
            slots: vec![[0; 2]; n],
            mask: n - 1,
        })
    }

    #[inline(always)]
    fn key(me: u32, opp: u32) -> u64 {
        1 << 63 | u64::from(me) << 32 | u64::from(opp)
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        // Fibonacci hashing of the exact key.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 29) as usize & self.mask
    }

    #[inline(always)]
    fn get(&self, me: u32, opp: u32) -> Option<Slot> {
        let k = Self::key(me, opp);
        let s = self.slots[self.index(k)];
        (s[0] == k).then(|| Slot::unpack(s))
    }

    #[inline(always)]
    fn update(&mut self, me: u32, opp: u32, f: impl FnOnce(&mut Slot)) {
        let k = Self::key(me, opp);
        let i = self.index(k);
        let mut s = Slot::unpack(self.slots[i]);
        if s.key != k {
            s = Slot {
                key: k,
                win_yes: NEVER,
                win_no: 0,
                loss_yes: NEVER,
                loss_no: 0,
            };
        }
        f(&mut s);
        self.slots[i] = s.pack();
    }
}

/// A proof's verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forced win.
    Win,
    /// Forced loss.
    Loss,
    /// Neither side can force a win (proven only for full boards, from the table).
    Draw,
    /// Nothing proven within the limits.
    Unproven,
}

/// What [`prove`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The verdict for the side to move.
    pub value: Verdict,
    /// Plies to the end with best play for a win or loss: exact when `plies_exact`, else
    /// an upper bound (a forced result within that many plies).
    pub plies: Option<u32>,
    /// Whether `plies` is the exact distance (always for a proven win or loss from
    /// [`prove`]; from [`super::dfpn::prove_dfpn`] when the clock allowed shortening the
    /// proof to the end). `false` when `plies` is `None` (a draw or nothing proven).
    pub plies_exact: bool,
    /// Whether the time limit stopped the search: an unproven verdict then says nothing
    /// (a forced result within `max_plies` may exist); unproven with `stopped == false`
    /// means neither side can force a line within `max_plies` plies. A proven result with
    /// `stopped == true` is sound, but its distance may be only a bound.
    pub stopped: bool,
    /// A move achieving it: fastest win, slowest loss, or a drawing move; `None` when the
    /// game is over or nothing is proven.
    pub best_move: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// The stop signal of a search that ran out of time.
#[derive(Debug)]
pub struct OutOfTime;

/// The boolean searches behind [`prove`], usable on their own (tests derive `best_moves`
/// and `longest_resistance_moves` of `cases.txt` from them).
pub struct Prover<'a> {
    g: &'static Geometry,
    table: Option<&'a FullBoardTable>,
    tt: Option<ProofTable>,
    started: Instant,
    time_ms: Option<u64>,
    /// Positions visited so far.
    pub nodes: u64,
}

/// The child board after push `p`, as `(me, opp)` of the next side to move.
#[inline(always)]
fn child(me: u32, opp: u32, p: &super::geometry::Push) -> (u32, u32) {
    (p.apply(opp), p.apply(me) | p.dst)
}

/// The distinct boards after the safe moves of the side to move of `(me, opp)` (moves that
/// do not complete the other side's line), as `(mover, other)` from the next mover's view,
/// into `seen`; `None` when a move completes the mover's own line (it wins now).
pub(super) fn safe_children(
    g: &Geometry,
    me: u32,
    opp: u32,
    seen: &mut [(u32, u32); 44],
) -> Option<usize> {
    let mut n = 0;
    let mut s = g.border & !opp;
    while s != 0 {
        let cell = s.trailing_zeros();
        s &= s - 1;
        for p in g.pushes_from(cell) {
            let (cm, co) = child(me, opp, p);
            if g.has_line(cm) {
                continue; // completes the opponent's line: loses
            }
            if g.has_line(co) {
                return None;
            }
            if !seen[..n].contains(&(cm, co)) {
                seen[n] = (cm, co);
                n += 1;
            }
        }
    }
    Some(n)
}

impl<'a> Prover<'a> {
    /// A prover for boards of side `size`, with the full-board table for 5x5 if given.
    #[must_use]
    pub fn new(size: u8, table: Option<&'a FullBoardTable>, time_ms: Option<u64>) -> Self {
        Self {
            g: geometry_of(size),
            table: if size == 5 { table } else { None },
            tt: None,
            started: Instant::now(),
            time_ms,
            nodes: 0,
        }
    }

    /// Most cubes of `m` in one line. A ply (either side's push) changes at most one cell
    /// of a line that crosses its row or column, and a push along a line only adds the
    /// mover's cube, so this count grows by at most one per ply: a side whose best line
    /// holds `c` cubes cannot have a line within fewer than `size - c` plies (an exact
    /// cut-off, not a heuristic).
    #[inline(always)]
    fn best_line(&self, m: u32) -> u32 {
        self.g.lines[..usize::from(self.g.n_lines)]
            .iter()
            .map(|&l| (m & l).count_ones())
            .max()
            .unwrap_or(0)
    }

    /// The same prover with a transposition table of `mb` MiB (0: none).
    #[must_use]
    pub fn with_tt(mut self, mb: usize) -> Self {
        self.tt = ProofTable::new(mb);
        self
    }

    /// Number of safe replies of the side to move of `(me, opp)` (moves that do not
    /// complete the other side's line), or `None` if it has a winning move: the proof
    /// number of that board as an AND node one ply deep, used to try the most forcing
    /// moves first.
    fn replies(&self, me: u32, opp: u32) -> Option<u32> {
        let g = self.g;
        let mut n = 0;
        let mut s = g.border & !opp;
        while s != 0 {
            let cell = s.trailing_zeros();
            s &= s - 1;
            for p in g.pushes_from(cell) {
                let (cm, co) = child(me, opp, p);
                if g.has_line(cm) {
                    continue;
                }
                if g.has_line(co) {
                    return None;
                }
                n += 1;
            }
        }
        Some(n)
    }

    fn tick(&mut self) -> Result<(), OutOfTime> {
        self.nodes += 1;
        if self.nodes & 4095 == 0
            && let Some(t) = self.time_ms
            && self.started.elapsed().as_millis() as u64 >= t
        {
            return Err(OutOfTime);
        }
        Ok(())
    }

    /// The table's code for a full board, if there is a table.
    fn table_code(&self, me: u32, opp: u32) -> Option<(Value, Option<u32>)> {
        let t = self.table?;
        (me | opp == self.g.full).then(|| decode(t.code(me)))
    }

    /// Whether the side to move (`me`) of an unfinished board can force a win within `d`
    /// plies.
    ///
    /// # Errors
    /// [`OutOfTime`] when the time budget ran out.
    pub fn wins_within(&mut self, me: u32, opp: u32, d: u32) -> Result<bool, OutOfTime> {
        self.proves(me, opp, d, Value::Win)
    }

    /// Whether the side to move of an unfinished board loses within `d` plies whatever it
    /// plays.
    ///
    /// # Errors
    /// [`OutOfTime`] when the time budget ran out.
    pub fn loses_within(&mut self, me: u32, opp: u32, d: u32) -> Result<bool, OutOfTime> {
        self.proves(me, opp, d, Value::Loss)
    }

    /// Whether the side to move of `(me, opp)` reaches `goal` (a win or a loss, from its
    /// view) within `d` plies: the full-board table when it has the board, the cut-off when
    /// the line that `goal` needs cannot be finished in `d` plies, the proof table's
    /// bounds, else the search.
    fn proves(&mut self, me: u32, opp: u32, d: u32, goal: Value) -> Result<bool, OutOfTime> {
        self.tick()?;
        if d == 0 {
            return Ok(false);
        }
        if let Some((v, dist)) = self.table_code(me, opp) {
            return Ok(v == goal && dist.is_some_and(|x| x <= d));
        }
        let liner = if goal == Value::Win { me } else { opp };
        if self.best_line(liner) + d < u32::from(self.g.size) {
            return Ok(false);
        }
        let search = |s: &mut Self| {
            if goal == Value::Win {
                s.wins_within_search(me, opp, d)
            } else {
                s.loses_within_search(me, opp, d)
            }
        };
        // Distances past a slot's range (never reached through the CLI's 64) skip the table.
        if d >= u32::from(NEVER) {
            return search(self);
        }
        let dd = d as u8;
        if let Some(tt) = &self.tt
            && let Some(e) = tt.get(me, opp)
        {
            let (yes, no) = if goal == Value::Win {
                (e.win_yes, e.win_no)
            } else {
                (e.loss_yes, e.loss_no)
            };
            if dd >= yes {
                return Ok(true);
            }
            if dd <= no {
                return Ok(false);
            }
        }
        let r = search(self)?;
        if let Some(tt) = &mut self.tt {
            tt.update(me, opp, |e| {
                let (yes, no) = if goal == Value::Win {
                    (&mut e.win_yes, &mut e.win_no)
                } else {
                    (&mut e.loss_yes, &mut e.loss_no)
                };
                if r {
                    *yes = (*yes).min(dd);
                } else {
                    *no = (*no).max(dd);
                }
            });
        }
        Ok(r)
    }

    fn wins_within_search(&mut self, me: u32, opp: u32, d: u32) -> Result<bool, OutOfTime> {
        let mut seen = [(0u32, 0u32); 44];
        let Some(n) = safe_children(self.g, me, opp, &mut seen) else {
            return Ok(true);
        };
        if d == 1 {
            return Ok(false);
        }
        if d >= 3 {
            // Proof-number ordering: the replies that leave the opponent the fewest safe
            // answers first; replies that let it win at once last (they cannot prove).
            let mut keyed = [(0u32, 0u32, 0u32); 44];
            for (k, &(cm, co)) in keyed.iter_mut().zip(&seen[..n]) {
                *k = (self.replies(cm, co).unwrap_or(u32::MAX), cm, co);
            }
            keyed[..n].sort_unstable_by_key(|k| k.0);
            for (i, k) in keyed[..n].iter().enumerate() {
                seen[i] = (k.1, k.2);
            }
        }
        for &(cm, co) in &seen[..n] {
            if self.loses_within(cm, co, d - 1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn loses_within_search(&mut self, me: u32, opp: u32, d: u32) -> Result<bool, OutOfTime> {
        let mut seen = [(0u32, 0u32); 44];
        let Some(n) = safe_children(self.g, me, opp, &mut seen) else {
            return Ok(false); // it wins at once
        };
        if d == 1 {
            return Ok(n == 0);
        }
        for &(cm, co) in &seen[..n] {
            if !self.wins_within(cm, co, d - 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The exact distance class of the move `(me, opp) -> child`, from the mover's view:
    /// `Some(Win, k)` if the move wins in exactly `k` plies counting itself (`k <= d`),
    /// `Some(Loss, k)` if it loses in exactly `k` (`k <= d`), else `None`.
    ///
    /// # Errors
    /// [`OutOfTime`].
    pub fn move_result(
        &mut self,
        pos: &Quixo,
        mv: Move,
        d: u32,
    ) -> Result<Option<(Value, u32)>, OutOfTime> {
        let c = pos.play(mv);
        if let Some(o) = c.outcome() {
            let won = o.score(pos.to_move()) == 1;
            return Ok(Some((if won { Value::Win } else { Value::Loss }, 1)));
        }
        let (cm, co) = c.own_other();
        for k in 1..d {
            if self.loses_within(cm, co, k)? {
                return Ok(Some((Value::Win, k + 1)));
            }
            if self.wins_within(cm, co, k)? {
                return Ok(Some((Value::Loss, k + 1)));
            }
        }
        Ok(None)
    }
}

/// Proves `pos` within `limits`, using `table` for full 5x5 boards when given.
#[must_use]
pub fn prove(pos: &Quixo, limits: &ProveLimits, table: Option<&FullBoardTable>) -> Proof {
    let mut pr = Prover::new(pos.size(), table, limits.time_ms).with_tt(limits.tt_mb);
    let (me, opp) = pos.own_other();
    let mut proof = Proof {
        value: Verdict::Unproven,
        plies: None,
        plies_exact: false,
        best_move: None,
        nodes: 0,
        stopped: false,
    };
    if let Some(o) = pos.outcome() {
        proof.value = if o.score(pos.to_move()) == 1 {
            Verdict::Win
        } else {
            Verdict::Loss
        };
        proof.plies = Some(0);
        proof.plies_exact = true;
        return proof;
    }
    let mut moves = <Quixo as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    if let Some((v, dist)) = pr.table_code(me, opp) {
        // Exact from the table; the best move is the child with the matching code.
        let t = table.expect("table_code implies a table");
        proof.value = match v {
            Value::Win => Verdict::Win,
            Value::Loss => Verdict::Loss,
            Value::Draw => Verdict::Draw,
        };
        proof.plies = dist;
        proof.plies_exact = dist.is_some();
        proof.best_move = moves.iter().copied().find(|&m| {
            let c = pos.play(m);
            let (cv, cd) = match c.outcome() {
                Some(o) if o.score(c.to_move()) == 1 => (Value::Win, Some(0)),
                Some(_) => (Value::Loss, Some(0)),
                None => decode(t.code(c.own_other().0)),
            };
            match v {
                Value::Win => cv == Value::Loss && cd.map(|x| x + 1) == dist,
                Value::Loss => cv == Value::Win && cd.map(|x| x + 1) == dist,
                Value::Draw => cv == Value::Draw,
            }
        });
        proof.nodes = 1;
        return proof;
    }
    let result = (|| -> Result<(), OutOfTime> {
        for d in 1..=limits.max_plies {
            if pr.wins_within(me, opp, d)? {
                proof.value = Verdict::Win;
                proof.plies = Some(d);
                proof.plies_exact = true;
                for &m in moves.iter() {
                    if pr.move_result(pos, m, d)? == Some((Value::Win, d)) {
                        proof.best_move = Some(m);
                        break;
                    }
                }
                return Ok(());
            }
            if pr.loses_within(me, opp, d)? {
                proof.value = Verdict::Loss;
                proof.plies = Some(d);
                proof.plies_exact = true;
                for &m in moves.iter() {
                    if pr.move_result(pos, m, d)? == Some((Value::Loss, d)) {
                        proof.best_move = Some(m);
                        break;
                    }
                }
                return Ok(());
            }
        }
        Ok(())
    })();
    if result.is_err() {
        proof = Proof {
            value: Verdict::Unproven,
            plies: None,
            plies_exact: false,
            best_move: None,
            nodes: 0,
            stopped: true,
        };
    }
    proof.nodes = pr.nodes;
    proof
}
