//! Negamax alpha-beta with principal variation search (PVS), iterative deepening, a
//! transposition table and killer/history move ordering, for any two-team game.
//!
//! Two-team: seats are grouped by [`Game::team`] into teams 0 and 1; a score is from the
//! team to move's view and is negated only when a move hands the turn to the other team
//! (so a seat that moves again, or a partner, keeps the sign).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::busy::BusyTable;
use super::limits::{Clock, Limits};
use super::ordering::MoveOrdering;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Evaluator, INFINITY, MAX_PLY, ProbCut, Score, WIN_MIN};
use crate::game::{Game, MoveCode};

/// Most moves a position may have for the ordering buffer.
const MAX_ORDERED: usize = 256;

/// With several threads, nodes deeper than this (plies left) share their later moves
/// through the [`BusyTable`] (ABDADA); shallower ones are too cheap for the marks.
const SHARE_MIN_DEPTH: u32 = 3;

/// Progress report after each finished iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Depth of the finished iteration, plies.
    pub depth: u32,
    /// Score of the best move, side to move's view, evaluator units.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<M>,
}

/// Outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// Best move of the last finished iteration; `None` only when the game is over.
    pub best_move: Option<M>,
    /// Its score, side to move's view, evaluator units.
    pub score: Score,
    /// Depth of the last finished iteration, plies (0 if none finished).
    pub depth: u32,
    /// Nodes searched (each position visited counts once).
    pub nodes: u64,
    /// Wall-clock time used.
    pub elapsed: Duration,
    /// Principal variation of the last finished iteration.
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

struct Searcher<'a, G: Game, E: Evaluator<G>> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    clock: Clock,
    nodes: u64,
    ordering: MoveOrdering,
    pv: Vec<[G::Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Keys of the positions on the current path, by ply (used only when
    /// [`Game::REPETITION_DRAWS`]).
    path: [u64; MAX_PLY + 1],
    /// A helper's view of the main thread's depth: the helper's iteration at `depth` is
    /// abandoned (`superseded`) once the main thread has gone past it.
    main_depth: Option<&'a AtomicU32>,
    /// Depth of the current iteration.
    depth: u32,
    /// The last iteration's depth: a helper there is never abandoned (it keeps helping
    /// the main thread's last, most expensive iteration).
    max_depth: u32,
    /// The current iteration was abandoned (see `main_depth`); not a stop.
    superseded: bool,
    /// With several threads, the positions they are searching now (ABDADA): a node's
    /// later moves whose child another thread is inside are deferred to the end.
    busy: Option<&'a BusyTable>,
    /// Multi-ProbCut probes on the current path (their shallow searches may probe once more).
    probcut_nesting: u32,
    /// The root move the current iteration searched first (the last iteration's best,
    /// ordered first by the table).
    root_first: Option<G::Move>,
    /// In the current iteration, a root move after the first proved better than it (the
    /// triangular PV's first line holds that move, its line and `root_score`).
    root_improved: bool,
    /// The exact score of the current iteration's best root move so far.
    root_score: Score,
}

/// Converts a score to its form in the table: forced-win scores relative to the node.
fn to_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_MIN {
        score + ply as Score
    } else if score <= -WIN_MIN {
        score - ply as Score
    } else {
        score
    }
}

fn from_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_MIN {
        score - ply as Score
    } else if score <= -WIN_MIN {
        score + ply as Score
    } else {
        score
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Value of `child` (reached from a node of team `team`) from that node's view,
    /// searched with window (alpha, beta) in the parent's view.
    #[inline]
    fn child_value(
        &mut self,
        child: &G,
        team: u8,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        if child.team(child.to_move()) == team {
            self.negamax(child, depth, ply, alpha, beta)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha)
        }
    }

    /// The Multi-ProbCut probes of a node (see [`ProbCut`]): `Some(beta)` when the shallow
    /// search clears the high bound, `Some(alpha)` when it stays under the low bound (or
    /// 0 when the clock stopped it), `None` to search the node in full.
    fn probcut(
        &mut self,
        pos: &G,
        pc: &ProbCut,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        self.probcut_nesting += 1;
        let mut found = None;
        let high = pc.high_bound(beta);
        if beta < WIN_MIN && high < WIN_MIN {
            let v = self.negamax(pos, pc.shallow, ply, high - 1, high);
            if v >= high {
                found = Some(beta);
            }
        }
        let low = pc.low_bound(alpha);
        if found.is_none() && alpha > -WIN_MIN && low > -WIN_MIN {
            let v = self.negamax(pos, pc.shallow, ply, low, low + 1);
            if v <= low {
                found = Some(alpha);
            }
        }
        self.probcut_nesting -= 1;
        if self.clock.stopped() || self.superseded {
            return Some(0);
        }
        found
    }

    fn negamax(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.clock.should_stop(self.nodes) || self.superseded {
            return 0;
        }
        if self.nodes & 1023 == 0
            && let Some(d) = self.main_depth
            && d.load(AtomicOrdering::Relaxed) > self.depth
            && self.depth < self.max_depth
        {
            self.superseded = true;
            return 0;
        }
        if G::REPETITION_DRAWS {
            // A position already on the path (same board, same seat to move) is a draw:
            // the side that repeats can keep repeating.
            let key = pos.key();
            if self.path[..ply].contains(&key) {
                return 0;
            }
            self.path[ply] = key;
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            let outcome = pos.outcome().expect("a position without moves is finished");
            let v = self.eval.terminal(pos, &outcome);
            return if v >= WIN_MIN {
                v - ply as Score
            } else if v <= -WIN_MIN {
                v + ply as Score
            } else {
                v
            };
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }

        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if !pv_node && u32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Multi-ProbCut: a shallow null-window search that predicts, with the evaluator's
        // regression and margin, that the full search would fail high (low). Not at PV
        // nodes, and at most two probes nested (a probe's own nodes may probe once more).
        if !pv_node
            && self.probcut_nesting < 2
            && let Some(pc) = self.eval.probcut(pos, depth)
            && pc.shallow < depth
            && let Some(v) = self.probcut(pos, &pc, ply, alpha, beta)
        {
            self.pv_len[ply] = ply;
            return v;
        }

        // Ordering scores: TT move, then killers/history, then the evaluator's hint.
        let n = moves.len();
        assert!(n <= MAX_ORDERED, "{n} moves exceed the ordering buffer");
        let mut keys = [0i32; MAX_ORDERED];
        for (i, &m) in moves.iter().enumerate() {
            let code = m.code();
            keys[i] = if Some(code) == tt_move {
                i32::MAX
            } else {
                self.ordering
                    .score(ply, code)
                    .saturating_add(self.eval.move_order(pos, m))
            };
        }

        let team = pos.team(pos.to_move());
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        // ABDADA: children at least this deep are marked while searched, and a later
        // move whose child another thread is inside waits until the others are done.
        let busy = self.busy.filter(|_| depth > SHARE_MIN_DEPTH);
        let mut deferred = [0u8; MAX_ORDERED];
        let (mut n_deferred, mut next_deferred) = (0, 0);
        let mut i = 0;
        loop {
            let (idx, child) = if i < n {
                // Selection sort step: bring the best remaining move to position i.
                let mut j = i;
                for k in i + 1..n {
                    if keys[k] > keys[j] {
                        j = k;
                    }
                }
                moves.swap(i, j);
                keys.swap(i, j);
                let child = pos.play(moves[i]);
                i += 1;
                if i > 1
                    && let Some(b) = busy
                    && b.is_busy(child.key())
                {
                    deferred[n_deferred] = (i - 1) as u8;
                    n_deferred += 1;
                    continue;
                }
                (i - 1, child)
            } else if next_deferred < n_deferred {
                let idx = usize::from(deferred[next_deferred]);
                next_deferred += 1;
                (idx, pos.play(moves[idx]))
            } else {
                break;
            };
            let m = moves[idx];
            let marked = busy.is_some_and(|b| b.enter(child.key()));
            let v = if idx == 0 {
                self.child_value(&child, team, depth - 1, ply + 1, alpha, beta)
            } else {
                let v = self.child_value(&child, team, depth - 1, ply + 1, alpha, alpha + 1);
                if v > alpha && v < beta && pv_node {
                    self.child_value(&child, team, depth - 1, ply + 1, alpha, beta)
                } else {
                    v
                }
            };
            if marked && let Some(b) = busy {
                b.leave(child.key());
            }
            if self.clock.stopped() || self.superseded {
                return 0;
            }
            if ply == 0 && idx == 0 {
                self.root_first = Some(m);
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if ply == 0 {
                        // The root's window is full, so a better move's score is exact.
                        self.root_improved |= idx > 0;
                        self.root_score = v;
                    }
                    // Triangular PV: this move, then the child's line.
                    self.pv[ply][ply] = m;
                    let child_len = self.pv_len[ply + 1].max(ply + 1);
                    for p in ply + 1..child_len {
                        self.pv[ply][p] = self.pv[ply + 1][p];
                    }
                    self.pv_len[ply] = child_len;
                    if alpha >= beta {
                        self.ordering.cutoff(ply, m.code(), depth);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                mv: Some(best_move.code()),
                score: to_tt(best, ply),
                depth: depth.min(255) as u8,
                bound,
            },
        );
        best
    }
}

/// Searches `pos` by iterative deepening within `limits`, calling `on_iteration` after each
/// finished depth. Returns the best move of the last finished iteration (if a stop comes
/// before the first iteration finishes, the best move found so far in it).
///
/// `tt` may be shared with other searches and keeps its contents; call
/// [`TranspositionTable::new_search`] between unrelated searches if wanted.
pub fn search<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    iterate(pos, eval, tt, limits, Role::Alone, None, on_iteration)
}

/// [`search`] on `threads` threads: Lazy SMP with ABDADA-style work sharing. Every
/// thread runs the same iterative deepening on the shared lock-free transposition table;
/// the helpers search the main thread's iteration beside it, and at each node deeper than
/// 3 plies a thread defers a later move whose child another thread is
/// searching (the [`BusyTable`]) until it has searched the others, so the threads split a
/// node's later moves between them instead of searching them twice (the first move is
/// never deferred: young brothers wait). The main thread publishes the depth it starts; a
/// helper the main thread has gone past abandons its iteration and joins the main
/// thread's. The result is the deepest finished iteration of any thread (a helper's only
/// when deeper than the main thread's last, as when the main thread's last iteration is
/// cut by the clock after a helper finished it; `on_iteration` sees the main thread's
/// alone), with the nodes of all threads. A node limit applies to the main thread; the
/// helpers stop when it finishes. With one thread this is [`search`].
///
/// Against helpers staggered one ply ahead of the main thread (the Lazy SMP of stop 54),
/// the main thread searches about 6 % fewer nodes to the same depth on 2 threads
/// (docs/measurements.md, "Two threads at equal time").
pub fn search_threads<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    threads: usize,
    on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    if threads <= 1 {
        return search(pos, eval, tt, limits, on_iteration);
    }
    tt.new_search();
    let done = Arc::new(AtomicBool::new(false));
    let helper_nodes = AtomicU64::new(0);
    let main_depth = AtomicU32::new(1);
    let busy = BusyTable::new();
    // The helpers' deepest finished iteration.
    let deepest: Mutex<Option<SearchInfo<G::Move>>> = Mutex::new(None);
    let mut result = std::thread::scope(|scope| {
        for _ in 1..threads {
            let mut l = limits.clone();
            l.nodes = None;
            l.stop = Some(Arc::clone(&done));
            let helper_nodes = &helper_nodes;
            let deepest = &deepest;
            let busy = &busy;
            let main_depth = &main_depth;
            scope.spawn(move || {
                let publish = |i: &SearchInfo<G::Move>| {
                    let mut d = deepest.lock().unwrap_or_else(PoisonError::into_inner);
                    if d.as_ref().is_none_or(|x| i.depth > x.depth) && !i.pv.is_empty() {
                        *d = Some(i.clone());
                    }
                };
                let plan = Role::Helper(main_depth);
                let r = iterate(pos, eval, tt, &l, plan, Some(busy), publish);
                helper_nodes.fetch_add(r.nodes, AtomicOrdering::Relaxed);
            });
        }
        let r = iterate(
            pos,
            eval,
            tt,
            limits,
            Role::Main(&main_depth),
            Some(&busy),
            on_iteration,
        );
        done.store(true, AtomicOrdering::Relaxed);
        r
    });
    result.nodes += helper_nodes.into_inner();
    let deepest = deepest.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(h) = deepest.filter(|h| h.depth > result.depth) {
        result.best_move = h.pv.first().copied();
        result.score = h.score;
        result.depth = h.depth;
        result.pv = h.pv;
    }
    result
}

/// A thread's part in the iterations of a multi-threaded search (see [`search_threads`]).
#[derive(Clone, Copy)]
enum Role<'a> {
    /// A single-threaded search: depths one after the other.
    Alone,
    /// The main thread: publishes the depth it starts.
    Main(&'a AtomicU32),
    /// A helper: searches the main thread's iteration beside it, sharing the later moves
    /// of each node through the [`BusyTable`] (ABDADA); abandons its iteration when the
    /// main thread has moved past it, and goes on at the main thread's depth or one past
    /// its own, whichever is deeper.
    Helper(&'a AtomicU32),
}

impl Role<'_> {
    /// Called when `depth` starts.
    fn started(self, depth: u32) {
        if let Role::Main(d) = self {
            d.store(depth, AtomicOrdering::Relaxed);
        }
    }

    /// The depth to search after finishing (or abandoning) `depth`, at most `max` unless
    /// `depth` was `max` (then `max + 1`: done).
    fn next(self, depth: u32, max: u32) -> u32 {
        match self {
            Role::Helper(d) if depth < max => {
                (depth + 1).max(d.load(AtomicOrdering::Relaxed)).min(max)
            }
            _ => depth + 1,
        }
    }
}

fn iterate<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    tt: &TranspositionTable,
    limits: &Limits,
    role: Role<'_>,
    busy: Option<&BusyTable>,
    mut on_iteration: impl FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let mut s = Searcher {
        eval,
        tt,
        clock: Clock::start(limits),
        nodes: 0,
        ordering: MoveOrdering::new(G::MOVE_CODES),
        pv: vec![[G::Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
        pv_len: [0; MAX_PLY + 1],
        path: [0; MAX_PLY + 1],
        main_depth: match role {
            Role::Helper(d) => Some(d),
            _ => None,
        },
        busy,
        probcut_nesting: 0,
        depth: 0,
        max_depth: limits.max_depth(),
        superseded: false,
        root_first: None,
        root_improved: false,
        root_score: 0,
    };
    let mut result = SearchResult {
        best_move: None,
        score: 0,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: Vec::new(),
    };
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        if let Some(o) = pos.outcome() {
            result.score = eval.terminal(pos, &o);
        }
        return result;
    }
    result.best_move = Some(moves[0]);
    let mut depth = 1;
    while depth <= limits.max_depth() {
        role.started(depth);
        s.depth = depth;
        s.root_first = None;
        s.root_improved = false;
        let score = s.negamax(pos, depth, 0, -INFINITY, INFINITY);
        if s.superseded {
            // A helper the main thread caught up with: on to a deeper iteration.
            s.superseded = false;
            depth = role.next(depth, limits.max_depth());
            continue;
        }
        if s.clock.stopped() {
            // An unfinished iteration: keep the last finished one, except that with none
            // finished, a move the partial iteration proved best so far is better than
            // the first generated move.
            if result.depth == 0 && s.pv_len[0] > 0 {
                result.best_move = Some(s.pv[0][0]);
            } else if s.root_improved && s.root_first == result.best_move && s.pv_len[0] > 0 {
                // The unfinished iteration searched the last best move first and then
                // proved another better at the new depth: that move is the better answer
                // (its score is exact at that depth; the depth reported stays the last
                // finished one).
                result.pv = s.pv[0][..s.pv_len[0]].to_vec();
                result.best_move = Some(s.pv[0][0]);
                result.score = s.root_score;
            }
            break;
        }
        result.depth = depth;
        result.score = score;
        result.pv = s.pv[0][..s.pv_len[0]].to_vec();
        if let Some(&m) = result.pv.first() {
            result.best_move = Some(m);
        }
        let info = SearchInfo {
            depth,
            score,
            nodes: s.nodes,
            elapsed: s.clock.elapsed(),
            pv: result.pv.clone(),
        };
        on_iteration(&info);
        // A forced result is final; deeper iterations cannot change it.
        if score.abs() >= WIN_MIN {
            break;
        }
        // Don't start an iteration that cannot finish: each costs several times the last.
        // (Searching on to a fixed move time's deadline instead did not gain: see
        // docs/measurements.md, "Two threads at equal time".)
        if s.clock.time_used() > 0.5 {
            break;
        }
        depth = role.next(depth, limits.max_depth());
    }
    result.nodes = s.nodes;
    result.elapsed = s.clock.elapsed();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_join_the_main_threads_iteration_within_the_depth_limit() {
        let main = AtomicU32::new(1);
        let helper = Role::Helper(&main);
        // Level with or behind the main thread: the next depth.
        assert_eq!(helper.next(2, 10), 3);
        // Overtaken (the main thread is at 6): its depth, to search it beside it.
        main.store(6, AtomicOrdering::Relaxed);
        assert_eq!(helper.next(3, 10), 6);
        // Never past the limit while below it; done after the limit itself.
        main.store(10, AtomicOrdering::Relaxed);
        assert_eq!(helper.next(8, 10), 10);
        assert_eq!(helper.next(10, 10), 11);
        // The main thread and a lone search go one ply at a time.
        Role::Main(&main).started(4);
        assert_eq!(main.load(AtomicOrdering::Relaxed), 4);
        assert_eq!(Role::Main(&main).next(4, 10), 5);
        assert_eq!(Role::Alone.next(4, 10), 5);
    }
}
