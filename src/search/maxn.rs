//! Max-n search (Luckhardt & Irani, "An algorithmic solution of N-person games", AAAI 1986)
//! with shallow pruning (Korf, "Multi-player alpha-beta pruning", Artificial Intelligence
//! 48, 1991).
//!
//! Every node returns a utility vector, one entry per seat; the seat to move picks the
//! child whose vector is best for itself. Ties go to the move generated first
//! ([`Game::generate_moves`] order), whatever order the search tries moves in, so the
//! root vector is a function of the position and depth only.
//!
//! Shallow pruning: when the evaluator promises a [`SumBound`] (each utility
//! `>= min_utility`, each vector summing to `<= max_sum`), a node of seat `k` whose best
//! child so far gives `k` the utility `x` caps the utility of the parent's seat `j != k`
//! at `max_sum - x - (n - 2) * min_utility`; when that cannot beat what `j` already has,
//! the node returns at once (its vector is then only an upper bound for `j`, which the
//! parent never picks). Deep pruning is unsound for max-n (Korf 1991) and not done.
//! Terminal utilities are used as given (no ply adjustment), so the bound stays valid.
//!
//! The transposition table (keys salted for max-n and the root seat) only orders moves:
//! its 16-bit score cannot hold a vector, and pruned vectors are not values.

use super::multi::{Core, Iterative, MAX_CHILDREN, MultiAlgo, deepen, select, table_key};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Limits, MAX_PLY, Score, SearchInfo, SearchResult, SeatEvaluator};
use crate::game::{BySeat, Game, MoveCode, Seat};

/// The promise behind shallow pruning: every utility vector the evaluator returns has
/// each entry `>= min_utility` and entries summing to `<= max_sum` (evaluator units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumBound {
    /// Lowest utility any seat can have.
    pub min_utility: Score,
    /// Highest sum of one vector's utilities.
    pub max_sum: Score,
}

/// Result of a max-n search.
#[derive(Clone, Debug)]
pub struct MaxnResult<M> {
    /// Best move, score (the root seat's utility), depth, nodes, time and PV.
    pub search: SearchResult<M>,
    /// The root's utility vector of the last finished iteration (the terminal utilities
    /// when the game is over; all zero when no iteration finished).
    pub values: BySeat<Score>,
}

struct MaxN<'a, G: Game, E: SeatEvaluator<G>> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    bound: Option<SumBound>,
    root: Seat,
    seats: usize,
    root_pos: G,
    core: Core<G::Move>,
}

impl<G: Game, E: SeatEvaluator<G>> MaxN<'_, G, E> {
    /// The utility vector of `pos` searched `depth` plies deep. `parent` is the parent's
    /// seat and the utility its child must exceed to matter (for shallow pruning).
    fn node(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        parent: Option<(Seat, Score)>,
    ) -> BySeat<Score> {
        if self.core.enter(ply) {
            return BySeat::new(self.seats);
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            let outcome = pos.outcome().expect("a position without moves is finished");
            return self.eval.terminal_seats(pos, &outcome);
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.eval.evaluate_seats(pos);
        }
        let me = pos.to_move();
        let key = table_key(pos.key(), MultiAlgo::MaxN, self.root);
        let tt_move = self.tt.probe(key).and_then(|e| e.mv);

        let n = moves.len();
        assert!(n <= MAX_CHILDREN, "{n} moves exceed the ordering buffer");
        // (generation index, move), ordered by key.
        let mut order = [(0u16, G::Move::default()); MAX_CHILDREN];
        let mut keys = [0i32; MAX_CHILDREN];
        for (i, &m) in moves.iter().enumerate() {
            order[i] = (i as u16, m);
            let code = m.code();
            keys[i] = if Some(code) == tt_move {
                i32::MAX
            } else {
                self.core
                    .ordering
                    .score(ply, code)
                    .saturating_add(self.eval.move_order(pos, m))
            };
        }
        let (order, keys) = (&mut order[..n], &mut keys[..n]);

        // Cap on the parent seat's utility once `me` has `x`: max_sum - x - (n-2) min.
        let cap = match (parent, self.bound) {
            (Some((j, need)), Some(b)) if j != me => Some((
                need,
                i64::from(b.max_sum) - (self.seats as i64 - 2) * i64::from(b.min_utility),
            )),
            _ => None,
        };

        let mut best = BySeat::new(self.seats);
        let mut best_index = u16::MAX;
        let mut best_move = order[0].1;
        for i in 0..n {
            select(keys, order, i);
            let (gi, m) = order[i];
            let need = if best_index == u16::MAX {
                None
            } else if gi < best_index {
                // An earlier-generated move wins ties: it matters at best[me] already.
                Some((me, best[me] - 1))
            } else {
                Some((me, best[me]))
            };
            let v = self.node(&pos.play(m), depth - 1, ply + 1, need);
            if self.core.clock.stopped() {
                return best;
            }
            if best_index == u16::MAX || v[me] > best[me] || (v[me] == best[me] && gi < best_index)
            {
                best = v;
                best_index = gi;
                best_move = m;
                self.core.set_pv(ply, m);
                if let Some((need, rest)) = cap
                    && rest - i64::from(best[me]) <= i64::from(need)
                {
                    self.core.ordering.cutoff(ply, m.code(), depth);
                    break;
                }
            }
        }
        self.tt.store(
            key,
            Entry {
                mv: Some(best_move.code()),
                score: 0,
                depth: depth.min(255) as u8,
                bound: Bound::Exact,
            },
        );
        best
    }
}

impl<G: Game, E: SeatEvaluator<G>> Iterative<G::Move> for MaxN<'_, G, E> {
    type Extra = BySeat<Score>;
    fn core(&mut self) -> &mut Core<G::Move> {
        &mut self.core
    }
    fn iteration(&mut self, depth: u32) -> (Score, BySeat<Score>) {
        let pos = self.root_pos.clone();
        let v = self.node(&pos, depth, 0, None);
        (v[self.root], v)
    }
}

/// Max-n search from `pos` for its seat to move within `limits`, calling `on_iteration`
/// after each finished depth (with the root seat's utility as the score).
///
/// Prunes (shallow pruning) only when [`SeatEvaluator::sum_bound`] gives a bound; the
/// result is the same either way. The best move is the root seat's best (first generated
/// among equals) in the last finished iteration; `values` is the root's vector.
pub fn maxn<G: Game, E: SeatEvaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> MaxnResult<G::Move> {
    let root = pos.to_move();
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        let values = pos.outcome().map_or_else(
            || BySeat::new(pos.seats()),
            |o| eval.terminal_seats(pos, &o),
        );
        return MaxnResult {
            search: SearchResult {
                best_move: None,
                score: values[root],
                depth: 0,
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                pv: Vec::new(),
            },
            values,
        };
    }
    tt.new_search();
    let mut s = MaxN {
        eval,
        tt,
        bound: eval.sum_bound(),
        root,
        seats: pos.seats(),
        root_pos: pos.clone(),
        core: Core::new(limits, G::MOVE_CODES),
    };
    let (search, values) = deepen(&mut s, limits, moves[0], false, on_iteration);
    MaxnResult {
        search,
        values: values.unwrap_or_else(|| BySeat::new(pos.seats())),
    }
}
