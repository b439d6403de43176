//! Pieces shared by the multi-player searches ([`super::paranoid()`], [`super::maxn()`],
//! [`super::brs()`]): the algorithm names, table-key salting, forced-win score handling,
//! the per-search state (clock, node count, killers/history, triangular PV) and the
//! iterative-deepening driver.
//!
//! All three see the position only through [`Game`] and score it only through
//! [`super::SeatEvaluator`]; the seat to move comes from the position at every node (no
//! rotation is assumed), so passes, setup placements and a seat moving twice need no
//! special case.

use std::fmt;

use super::limits::{Clock, Limits};
use super::ordering::MoveOrdering;
use super::{MAX_PLY, Score, SearchInfo, SearchResult, WIN_MIN};
use crate::game::{Game, MAX_SEATS, Seat};

/// Most children one node may have (for BRS: all opponents' moves together).
pub(crate) const MAX_CHILDREN: usize = 512;

/// Which multi-player search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiAlgo {
    /// Paranoid alpha-beta (Sturtevant & Korf 2000): the root seat maximises its utility,
    /// every other seat minimises it. See [`super::paranoid()`].
    Paranoid,
    /// Max-n (Luckhardt & Irani 1986) with Korf's shallow pruning: every seat maximises its
    /// own utility. See [`super::maxn()`].
    MaxN,
    /// Best-reply search (Schadd & Winands 2011): all opponents' moves merged into one MIN
    /// layer. Needs [`Game::with_turn`]. See [`super::brs()`].
    Brs,
    /// BRS+ (Esser et al. 2013): as BRS, but the opponents that do not give the best reply
    /// play their first ordered move in turn order instead of passing. Works for every game.
    /// See [`super::brs_plus()`].
    BrsPlus,
}

impl MultiAlgo {
    /// The name used in engine specs (`paranoid`, `maxn`, `brs`, `brs-plus`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Paranoid => "paranoid",
            Self::MaxN => "maxn",
            Self::Brs => "brs",
            Self::BrsPlus => "brs-plus",
        }
    }
}

impl fmt::Display for MultiAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The game does not provide what a search needs (BRS without [`Game::with_turn`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Unsupported {}

/// Whether `G` supports best-reply search in `pos` (see [`Game::with_turn`]).
#[must_use]
pub fn supports_brs<G: Game>(pos: &G) -> bool {
    pos.with_turn(pos.to_move()).is_some()
}

/// The error BRS reports for a game without [`Game::with_turn`].
pub(crate) fn brs_unsupported<G: Game>() -> Unsupported {
    Unsupported(format!(
        "best-reply search needs Game::with_turn, which {} does not provide (use brs-plus, paranoid or maxn)",
        G::ID
    ))
}

/// Fixed random salts (splitmix64 outputs) XORed into table keys: one per algorithm and
/// root seat, because a stored value is a root seat's utility under one algorithm's model,
/// so one table may serve every seat and algorithm without mixing their values.
const SALTS: [[u64; MAX_SEATS]; 4] = [
    [
        0xE220_A839_7B1D_CDAF,
        0x6E78_9E6A_A1B9_65F4,
        0x06C4_5D18_8009_454F,
        0xF88B_B8A8_724C_81EC,
    ],
    [
        0x1B39_896A_51A8_749B,
        0x53CB_9F0C_747E_A2EA,
        0x2C82_9ABE_1F45_32E1,
        0xC584_133A_C916_AB3C,
    ],
    [
        0x3EE5_789A_8D4C_F1A5,
        0x8A4B_DB6C_5C3E_16F0,
        0x9D2E_6F7A_B1C8_0453,
        0x47F1_92D3_6E0B_A8C7,
    ],
    [
        0xB5D0_3A41_F76E_29C8,
        0x0C6A_8E93_D2B1_57F4,
        0x71F3_C05B_A48D_E926,
        0xDA28_6B17_3CF9_8045,
    ],
];

/// The table key of `key` for `algo` searching for `root`.
#[inline]
pub(crate) fn table_key(key: u64, algo: MultiAlgo, root: Seat) -> u64 {
    let a = match algo {
        MultiAlgo::Paranoid => 0,
        MultiAlgo::MaxN => 1,
        MultiAlgo::Brs => 2,
        MultiAlgo::BrsPlus => 3,
    };
    key ^ SALTS[a][root.index()]
}

/// A terminal utility seen `ply` plies from the root: forced wins (`>= WIN_MIN`) lose a
/// point per ply and forced losses gain one, so sooner wins and later losses score better.
#[inline]
pub(crate) fn at_ply(v: Score, ply: usize) -> Score {
    if v >= WIN_MIN {
        v - ply as Score
    } else if v <= -WIN_MIN {
        v + ply as Score
    } else {
        v
    }
}

/// A score as stored in the table: forced-win scores relative to the node.
#[inline]
pub(crate) fn to_tt(v: Score, ply: usize) -> Score {
    if v >= WIN_MIN {
        v + ply as Score
    } else if v <= -WIN_MIN {
        v - ply as Score
    } else {
        v
    }
}

/// A stored score back at `ply` (inverse of [`to_tt`]).
#[inline]
pub(crate) fn from_tt(v: Score, ply: usize) -> Score {
    at_ply(v, ply)
}

/// One selection-sort step: brings the entry with the highest key among `i..` to `i`
/// (the first such entry on ties, so the order is deterministic).
#[inline]
pub(crate) fn select<T>(keys: &mut [i32], items: &mut [T], i: usize) {
    let mut j = i;
    for k in i + 1..keys.len() {
        if keys[k] > keys[j] {
            j = k;
        }
    }
    keys.swap(i, j);
    items.swap(i, j);
}

/// Per-search state: limits, node count, killers/history and the triangular PV table.
pub(crate) struct Core<M> {
    pub clock: Clock,
    pub nodes: u64,
    pub ordering: MoveOrdering,
    pv: Vec<[M; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
}

impl<M: Copy + Default> Core<M> {
    pub fn new(limits: &Limits, move_codes: usize) -> Self {
        Self {
            clock: Clock::start(limits),
            nodes: 0,
            ordering: MoveOrdering::new(move_codes),
            pv: vec![[M::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        }
    }

    /// Counts a node at `ply` and empties its PV; true when the search must stop.
    #[inline]
    pub fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        self.clock.should_stop(self.nodes)
    }

    /// The PV at `ply` becomes `m` followed by the child's PV.
    #[inline]
    pub fn set_pv(&mut self, ply: usize, m: M) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for p in ply + 1..child_len {
            self.pv[ply][p] = self.pv[ply + 1][p];
        }
        self.pv_len[ply] = child_len;
    }

    /// The root PV.
    pub fn root_pv(&self) -> Vec<M> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }
}

/// A search the iterative-deepening driver can run one depth at a time.
pub(crate) trait Iterative<M> {
    /// Extra result of an iteration (max-n: the root's utility vector).
    type Extra;
    /// The shared state.
    fn core(&mut self) -> &mut Core<M>;
    /// Searches the root to `depth`; returns the root seat's utility and the extra result.
    fn iteration(&mut self, depth: u32) -> (Score, Self::Extra);
}

/// Iterative deepening from depth 1 to the limit: after each finished iteration it records
/// the score and PV and calls `on_iteration`. Stops at a limit (an unfinished iteration is
/// discarded, but with none finished its best move so far replaces `first_move`), after a
/// forced win or loss when `stop_on_forced` (deeper iterations cannot change it), or when
/// half the time budget is spent (the next iteration would not finish).
pub(crate) fn deepen<M: Copy + Default, S: Iterative<M>>(
    s: &mut S,
    limits: &Limits,
    first_move: M,
    stop_on_forced: bool,
    mut on_iteration: impl FnMut(&SearchInfo<M>),
) -> (SearchResult<M>, Option<S::Extra>) {
    let mut result = SearchResult {
        best_move: Some(first_move),
        score: 0,
        depth: 0,
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
        pv: Vec::new(),
    };
    let mut extra = None;
    for depth in 1..=limits.max_depth() {
        let (score, x) = s.iteration(depth);
        let core = s.core();
        if core.clock.stopped() {
            if result.depth == 0 && core.pv_len[0] > 0 {
                result.best_move = Some(core.pv[0][0]);
            }
            break;
        }
        result.depth = depth;
        result.score = score;
        result.pv = core.root_pv();
        if let Some(&m) = result.pv.first() {
            result.best_move = Some(m);
        }
        extra = Some(x);
        on_iteration(&SearchInfo {
            depth,
            score,
            nodes: core.nodes,
            elapsed: core.clock.elapsed(),
            pv: result.pv.clone(),
        });
        if stop_on_forced && score.abs() >= WIN_MIN {
            break;
        }
        if core.clock.time_used() > 0.5 {
            break;
        }
    }
    let core = s.core();
    result.nodes = core.nodes;
    result.elapsed = core.clock.elapsed();
    (result, extra)
}
