//! The multi-player searches (paranoid, max-n, BRS, BRS+) against brute-force references
//! written here over the `Game` trait only (no table, no ordering, no pruning):
//!
//! - paranoid (iterative deepening, table, killers/history, fail-soft alpha-beta) returns
//!   the plain paranoid minimax value at the same depth, and a move of that value;
//! - max-n with shallow pruning returns the plain max-n vector and move (ties to the first
//!   generated move), the same as without pruning, in fewer nodes;
//! - BRS and BRS+ return the values of naive best-reply searches;
//! - a warm table (searched before, other seats, other algorithms) changes no value;
//! - two seats: paranoid equals the negamax `search` (toy heap to the end; Othello);
//! - node limit, stop flag and time limit are honoured; results are deterministic;
//! - BRS on a game without `Game::with_turn` reports it; the engine reports thoughts.
//!
//! Games: a random hash-defined 3-seat tree (forced passes, a seat moving twice or skipped,
//! constant-sum or not; also 4 seats) and 3-seat Nim with scores (passes when full, taking
//! 3 moves again, many transpositions), see `tests/it/search/multi_toys.rs`.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tessera::engine::{EngineSpec, MultiEngine, Player};
use tessera::game::{BySeat, Game, Outcome, Seat};
use tessera::games::othello::{Position, eval::Eval};
use tessera::search::multi::supports_brs;
use tessera::search::{
    Evaluator, Limits, MultiAlgo, Score, SeatEvaluator, TranspositionTable, WIN, WIN_MIN, brs,
    brs_plus, maxn, paranoid, search,
};

use crate::common;
use crate::search::multi_toys;
use common::{Rng, moves_of};
use multi_toys::{Cells, CellsEval, Heap, HeapEval, Tree, TreeEval};

// ---------------------------------------------------------------------------------------
// References

/// Plain paranoid minimax: the root seat's utility, max where it moves, min elsewhere.
fn paranoid_ref<G: Game, E: SeatEvaluator<G>>(e: &E, pos: &G, root: Seat, depth: u32) -> Score {
    let moves = moves_of(pos);
    if moves.is_empty() {
        return e.terminal_seats(pos, &pos.outcome().unwrap())[root];
    }
    if depth == 0 {
        return e.evaluate_seats(pos)[root];
    }
    let vals = moves
        .iter()
        .map(|&m| paranoid_ref(e, &pos.play(m), root, depth - 1));
    if pos.to_move() == root {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

/// Plain max-n: the vector of the first generated move best for the seat to move; also
/// the index of that move.
fn maxn_ref<G: Game, E: SeatEvaluator<G>>(e: &E, pos: &G, depth: u32) -> (BySeat<Score>, usize) {
    let moves = moves_of(pos);
    if moves.is_empty() {
        return (e.terminal_seats(pos, &pos.outcome().unwrap()), 0);
    }
    if depth == 0 {
        return (e.evaluate_seats(pos), 0);
    }
    let me = pos.to_move();
    let mut best: Option<(BySeat<Score>, usize)> = None;
    for (i, &m) in moves.iter().enumerate() {
        let v = maxn_ref(e, &pos.play(m), depth - 1).0;
        if best.as_ref().is_none_or(|(b, _)| v[me] > b[me]) {
            best = Some((v, i));
        }
    }
    best.unwrap()
}

/// BRS+ ordered move: highest `move_order`, first generated among equals.
fn ordered<G: Game, E: SeatEvaluator<G>>(e: &E, pos: &G) -> Option<G::Move> {
    let moves = moves_of(pos);
    let best = moves.iter().map(|&m| e.move_order(pos, m)).max()?;
    moves.into_iter().find(|&m| e.move_order(pos, m) == best)
}

/// Naive best-reply search (`plus`: BRS+), as described in `src/search/brs.rs`: MAX layers
/// of the root seat's real moves; MIN layers of every opponent's moves from its branch
/// position, then back to the root seat.
fn brs_ref<G: Game, E: SeatEvaluator<G>>(
    e: &E,
    pos: &G,
    root: Seat,
    depth: u32,
    plus: bool,
) -> Score {
    const WALK: usize = tessera::search::brs::WALK_LIMIT;
    let moves = moves_of(pos);
    if moves.is_empty() {
        return e.terminal_seats(pos, &pos.outcome().unwrap())[root];
    }
    if depth == 0 {
        return e.evaluate_seats(pos)[root];
    }
    if pos.to_move() == root {
        return moves
            .iter()
            .map(|&m| brs_ref(e, &pos.play(m), root, depth - 1, plus))
            .max()
            .unwrap();
    }
    let mut best = Score::MAX;
    for o in (0..pos.seats() as u8).map(Seat).filter(|&s| s != root) {
        let branch = if plus {
            // Others play ordered moves until `o` moves (not if the root seat comes first).
            let mut q = pos.clone();
            let mut found = None;
            for _ in 0..WALK {
                if q.to_move() == root {
                    break;
                }
                if q.to_move() == o {
                    found = q.outcome().is_none().then(|| q.clone());
                    break;
                }
                match ordered(e, &q) {
                    Some(m) => q = q.play(m),
                    None => break,
                }
            }
            found
        } else if pos.to_move() == o {
            Some(pos.clone())
        } else {
            pos.with_turn(o)
        };
        let Some(b) = branch else { continue };
        for m in moves_of(&b) {
            let mut q = b.play(m);
            if plus {
                for _ in 1..WALK {
                    if q.to_move() == root {
                        break;
                    }
                    match ordered(e, &q) {
                        Some(m) => q = q.play(m),
                        None => break,
                    }
                }
            } else if q.to_move() != root && q.outcome().is_none() {
                q = q.with_turn(root).unwrap();
            }
            best = best.min(brs_ref(e, &q, root, depth - 1, plus));
        }
    }
    best
}

// ---------------------------------------------------------------------------------------
// Positions

/// Roots of random trees: 3 seats (constant-sum and not) and some with 4 seats.
fn trees() -> Vec<Tree> {
    let mut out = Vec::new();
    for seed in 0..24u64 {
        let seats = if seed % 6 == 5 { 4 } else { 3 };
        let t = Tree::new(seed, seats, seed % 2 == 0);
        // Also start a few plies in, with another seat to move.
        let t = if seed % 3 == 1 {
            let m = moves_of(&t)[0];
            t.play(m)
        } else {
            t
        };
        if t.outcome().is_none() {
            out.push(t);
        }
    }
    out
}

/// 3-seat heaps after a few random moves (one with a full seat that must pass).
fn heaps() -> Vec<Heap> {
    let mut rng = Rng::new(0x4EA9);
    let mut out = vec![Heap::new(10, 3), Heap::new(9, 3)];
    let mut full = Heap::new(12, 3);
    full.taken = [6, 1, 0, 0];
    full.to_move = 1;
    out.push(full);
    for pile in [12u8, 13, 14, 15] {
        let mut h = Heap::new(pile, 3);
        for _ in 0..rng.below(4) {
            let ms = moves_of(&h);
            h = h.play(ms[rng.below(ms.len())]);
        }
        if h.outcome().is_none() {
            out.push(h);
        }
    }
    out
}

fn fresh() -> TranspositionTable {
    TranspositionTable::new(1)
}

/// The toy games really have forced passes, a seat moving twice and a skipped seat.
#[test]
fn toy_games_cover_passes_and_irregular_turns() {
    let (mut passes, mut twice, mut skipped) = (0, 0, 0);
    for t in trees() {
        let mut stack = vec![t];
        while let Some(p) = stack.pop() {
            for m in moves_of(&p) {
                let c = p.play(m);
                passes += usize::from(m.0 == 0);
                twice += usize::from(c.to_move == p.to_move);
                skipped += usize::from(c.to_move == (p.to_move + 2) % p.seats);
                if c.ply < 6 {
                    stack.push(c);
                }
            }
        }
    }
    assert!(
        passes > 50 && twice > 50 && skipped > 50,
        "{passes} {twice} {skipped}"
    );
    let full = heaps()[2];
    assert_eq!(
        moves_of(&full.with_turn(Seat(0)).unwrap()),
        vec![multi_toys::Mv(0)]
    );
    let again = Heap::new(10, 3).play(multi_toys::Mv(3));
    assert_eq!(again.to_move, 0);
}

// ---------------------------------------------------------------------------------------
// Paranoid

#[test]
fn paranoid_equals_plain_minimax() {
    let e = TreeEval::plain(false);
    for t in trees() {
        let root = t.to_move();
        for depth in 1..=6 {
            let want = paranoid_ref(&e, &t, root, depth);
            let r = paranoid(&t, &e, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(r.score, want, "tree {t} depth {depth}");
            assert_eq!(r.depth, depth);
            let m = r.best_move.unwrap();
            assert_eq!(r.pv.first(), Some(&m));
            assert_eq!(
                paranoid_ref(&e, &t.play(m), root, depth - 1),
                want,
                "{t} {m}"
            );
        }
    }
    let e = HeapEval { prune: false };
    for h in heaps() {
        let root = h.to_move();
        for depth in [1, 2, 4, 7, 9, 40] {
            let want = paranoid_ref(&e, &h, root, depth);
            let r = paranoid(&h, &e, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(r.score, want, "heap {h} depth {depth}");
            let m = r.best_move.unwrap();
            assert_eq!(
                paranoid_ref(&e, &h.play(m), root, depth - 1),
                want,
                "{h} {m}"
            );
            // The PV is a legal line.
            let mut p = h;
            for &m in &r.pv {
                assert!(p.is_legal(m), "pv {:?} of {h}", r.pv);
                p = p.play(m);
            }
        }
    }
}

/// Result-only utilities: `WIN` for an outright winner, `-WIN` for the others; static
/// utilities are the token margins (well below `WIN_MIN`).
struct WinLoss;

impl SeatEvaluator<Heap> for WinLoss {
    fn evaluate_seats(&self, pos: &Heap) -> BySeat<Score> {
        HeapEval { prune: false }.evaluate_seats(pos)
    }
    fn terminal_seats(&self, _pos: &Heap, outcome: &Outcome) -> BySeat<Score> {
        let mut u = BySeat::new(outcome.scores.len());
        for (s, _) in outcome.scores.iter() {
            u[s] = if outcome.margin(s) > 0 { WIN } else { -WIN };
        }
        u
    }
}

/// Paranoid minimax with forced results scored by distance: a win `n` plies from the root
/// scores `WIN - n`, a loss `-WIN + n`.
fn paranoid_win_ref(pos: &Heap, root: Seat, depth: u32, ply: i32) -> Score {
    let moves = moves_of(pos);
    if moves.is_empty() {
        let v = WinLoss.terminal_seats(pos, &pos.outcome().unwrap())[root];
        return if v > 0 { v - ply } else { v + ply };
    }
    if depth == 0 {
        return WinLoss.evaluate_seats(pos)[root];
    }
    let vals = moves
        .iter()
        .map(|&m| paranoid_win_ref(&pos.play(m), root, depth - 1, ply + 1));
    if pos.to_move() == root {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

/// Forced wins and losses score by distance, through the table too, and a forced result
/// ends iterative deepening early without changing the value.
#[test]
fn forced_results_score_by_distance() {
    let (mut forced, mut early) = (0, 0);
    for h in heaps()
        .into_iter()
        .chain([Heap::new(5, 3), Heap::new(7, 3), Heap::new(8, 3)])
    {
        let root = h.to_move();
        for depth in [2, 4, 6, 9, 14] {
            let want = paranoid_win_ref(&h, root, depth, 0);
            let r = paranoid(&h, &WinLoss, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(r.score, want, "{h} depth {depth}");
            if want.abs() >= WIN_MIN {
                forced += 1;
                early += usize::from(r.depth < depth);
                assert!(r.depth <= depth);
            } else {
                assert_eq!(r.depth, depth);
            }
        }
    }
    assert!(forced >= 5 && early >= 3, "{forced} forced, {early} early");
}

/// A table already holding entries of other searches (other seats, algorithms, depths)
/// changes no value: entries are salted and cut only at their exact depth.
#[test]
fn warm_table_changes_no_value() {
    let e = HeapEval { prune: true };
    let tt = TranspositionTable::new(1);
    for h in heaps() {
        for depth in [3, 6, 8] {
            let root = h.to_move();
            // Other seats to move in the same tree, other algorithms.
            for s in 0..3 {
                let other = h.with_turn(Seat(s)).unwrap();
                let _ = brs_plus(&other, &e, &tt, &Limits::depth(depth + 1), |_| {});
                let _ = maxn(&other, &e, &tt, &Limits::depth(depth), |_| {});
                let _ = brs(&other, &e, &tt, &Limits::depth(depth - 1), |_| {});
            }
            for algo_round in 0..2 {
                let r = paranoid(&h, &e, &tt, &Limits::depth(depth), |_| {});
                assert_eq!(
                    r.score,
                    paranoid_ref(&e, &h, root, depth),
                    "{h} depth {depth} round {algo_round}"
                );
                let r = brs(&h, &e, &tt, &Limits::depth(depth), |_| {}).unwrap();
                assert_eq!(r.score, brs_ref(&e, &h, root, depth, false), "{h} {depth}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Max-n

#[test]
fn maxn_with_shallow_pruning_equals_plain_maxn() {
    let mut totals = (0u64, 0u64);
    let check = |pruned: u64, plain: u64, totals: &mut (u64, u64)| {
        assert!(pruned <= plain, "{pruned} > {plain}");
        totals.0 += pruned;
        totals.1 += plain;
    };
    for t in trees() {
        for depth in 1..=6 {
            let (want, idx) = maxn_ref(&TreeEval::plain(false), &t, depth);
            let want_move = moves_of(&t)[idx];
            let mut nodes = [0; 2];
            for (k, prune) in [true, false].into_iter().enumerate() {
                // Only constant-sum trees may promise a sum bound.
                let e = TreeEval::plain(prune && t.constant_sum);
                let r = maxn(&t, &e, &fresh(), &Limits::depth(depth), |_| {});
                assert_eq!(r.values, want, "tree {t} depth {depth} prune {prune}");
                assert_eq!(r.search.score, want[t.to_move()]);
                assert_eq!(r.search.best_move, Some(want_move), "{t} {depth}");
                assert_eq!(r.search.pv.first(), Some(&want_move));
                nodes[k] = r.search.nodes;
            }
            if t.constant_sum {
                check(nodes[0], nodes[1], &mut totals);
            } else {
                assert_eq!(nodes[0], nodes[1], "no bound, no pruning");
            }
        }
    }
    // Shallow pruning really prunes: constant-sum utilities in 0..=100 give a tight bound.
    assert!(totals.0 * 10 < totals.1 * 9, "trees: {totals:?}");
    totals = (0, 0);
    for h in heaps() {
        for depth in [1, 3, 5, 8, 40] {
            let (want, idx) = maxn_ref(&HeapEval { prune: false }, &h, depth);
            let mut nodes = [0; 2];
            for (k, prune) in [true, false].into_iter().enumerate() {
                let r = maxn(
                    &h,
                    &HeapEval { prune },
                    &fresh(),
                    &Limits::depth(depth),
                    |_| {},
                );
                assert_eq!(r.values, want, "heap {h} depth {depth} prune {prune}");
                assert_eq!(r.search.best_move, Some(moves_of(&h)[idx]));
                nodes[k] = r.search.nodes;
            }
            check(nodes[0], nodes[1], &mut totals);
        }
    }
    // Margins bounded below by -190 prune less, but still.
    assert!(totals.0 < totals.1, "heaps: {totals:?}");
}

/// Coarse utilities (many ties: the first generated move must still win them) and
/// negative ones (the `(n - 2) * min_utility` term of the bound matters) on 3-seat trees.
#[test]
fn maxn_pruning_with_ties_and_negative_utilities() {
    let mut totals = (0u64, 0u64);
    for t in trees()
        .into_iter()
        .filter(|t| t.seats == 3 && t.constant_sum)
    {
        for (step, shift) in [(25, 0), (50, 0), (20, -50), (1, -30), (50, -100)] {
            let e = |prune| TreeEval { prune, step, shift };
            for depth in 1..=7 {
                let (want, idx) = maxn_ref(&e(false), &t, depth);
                let r = maxn(&t, &e(true), &fresh(), &Limits::depth(depth), |_| {});
                assert_eq!(
                    r.values, want,
                    "tree {t} depth {depth} step {step} shift {shift}"
                );
                assert_eq!(r.search.best_move, Some(moves_of(&t)[idx]), "{t} {depth}");
                let plain = maxn(&t, &e(false), &fresh(), &Limits::depth(depth), |_| {});
                assert_eq!(plain.values, want);
                totals.0 += r.search.nodes;
                totals.1 += plain.search.nodes;
            }
        }
    }
    assert!(totals.0 * 10 < totals.1 * 9, "{totals:?}");
}

/// Searches along random games with one table kept throughout (entries of every depth,
/// window and seat), each result checked against the reference.
#[test]
fn tables_kept_along_games_change_no_value() {
    let e = HeapEval { prune: true };
    let mut rng = Rng::new(0x7AB1E);
    for game in 0..6 {
        let tt = TranspositionTable::new(1);
        let mut h = Heap::new(13 + game % 3, 3);
        let mut i = 0;
        while h.outcome().is_none() {
            let root = h.to_move();
            let depth = 1 + (i % 8);
            let r = paranoid(&h, &e, &tt, &Limits::depth(depth), |_| {});
            assert_eq!(
                r.score,
                paranoid_ref(&e, &h, root, depth),
                "paranoid {h} {depth}"
            );
            let r = brs(&h, &e, &tt, &Limits::depth(depth), |_| {}).unwrap();
            assert_eq!(
                r.score,
                brs_ref(&e, &h, root, depth, false),
                "brs {h} {depth}"
            );
            let r = brs_plus(&h, &e, &tt, &Limits::depth(depth), |_| {});
            assert_eq!(
                r.score,
                brs_ref(&e, &h, root, depth, true),
                "brs+ {h} {depth}"
            );
            let ms = moves_of(&h);
            h = h.play(ms[rng.below(ms.len())]);
            i += 1;
        }
    }
    // Forced results kept in the table are relative to the node: the next search, one ply
    // later and one ply shallower, meets the same nodes at the same remaining depth.
    for game in 0..8 {
        let tt = TranspositionTable::new(1);
        let mut h = Heap::new(8 + game % 4, 3);
        let mut depth = 10;
        while h.outcome().is_none() && depth > 0 {
            let r = paranoid(&h, &WinLoss, &tt, &Limits::depth(depth), |_| {});
            let want = paranoid_win_ref(&h, h.to_move(), depth, 0);
            assert_eq!(r.score, want, "{h} depth {depth}");
            let ms = moves_of(&h);
            h = h.play(ms[rng.below(ms.len())]);
            depth -= 1;
        }
    }
    // Cells: moves commute, so the table cuts off often. Every position of two random
    // games, one table per game.
    for _ in 0..2 {
        let tt = TranspositionTable::new(1);
        let mut c = Cells::new();
        while c.outcome().is_none() {
            let root = c.to_move();
            for depth in 1..=5 {
                let r = paranoid(&c, &CellsEval, &tt, &Limits::depth(depth), |_| {});
                assert_eq!(
                    r.score,
                    paranoid_ref(&CellsEval, &c, root, depth),
                    "{c} {depth}"
                );
                if depth <= 4 {
                    let r = brs(&c, &CellsEval, &tt, &Limits::depth(depth), |_| {}).unwrap();
                    let want = brs_ref(&CellsEval, &c, root, depth, false);
                    assert_eq!(r.score, want, "{c} {depth}");
                }
            }
            let ms = moves_of(&c);
            c = c.play(ms[rng.below(ms.len())]);
        }
    }
}

// ---------------------------------------------------------------------------------------
// BRS and BRS+

#[test]
fn brs_and_brs_plus_equal_naive_best_reply_search() {
    let e = TreeEval::plain(false);
    for t in trees() {
        let root = t.to_move();
        for depth in 1..=6 {
            let r = brs(&t, &e, &fresh(), &Limits::depth(depth), |_| {}).unwrap();
            assert_eq!(
                r.score,
                brs_ref(&e, &t, root, depth, false),
                "brs {t} {depth}"
            );
            assert!(t.is_legal(r.best_move.unwrap()));
            let r = brs_plus(&t, &e, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(
                r.score,
                brs_ref(&e, &t, root, depth, true),
                "brs+ {t} {depth}"
            );
            assert!(t.is_legal(r.best_move.unwrap()));
        }
    }
    let e = HeapEval { prune: false };
    for h in heaps() {
        let root = h.to_move();
        for depth in [1, 2, 3, 5, 8, 12] {
            let r = brs(&h, &e, &fresh(), &Limits::depth(depth), |_| {}).unwrap();
            assert_eq!(
                r.score,
                brs_ref(&e, &h, root, depth, false),
                "brs {h} {depth}"
            );
            let r = brs_plus(&h, &e, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(
                r.score,
                brs_ref(&e, &h, root, depth, true),
                "brs+ {h} {depth}"
            );
        }
    }
}

/// BRS and BRS+ really differ from paranoid and from each other (else the tests above
/// would not tell them apart).
#[test]
fn the_searches_model_different_opponents() {
    let e = TreeEval::plain(false);
    let (mut brs_differs, mut plus_differs) = (0, 0);
    for t in trees() {
        let root = t.to_move();
        let p = paranoid_ref(&e, &t, root, 5);
        let b = brs_ref(&e, &t, root, 5, false);
        let bp = brs_ref(&e, &t, root, 5, true);
        brs_differs += usize::from(b != p);
        plus_differs += usize::from(bp != b);
    }
    assert!(
        brs_differs >= 3 && plus_differs >= 3,
        "{brs_differs} {plus_differs}"
    );
}

#[test]
fn brs_needs_with_turn_and_says_so() {
    let e = HeapEval { prune: false };
    let mut h = Heap::new(10, 3);
    h.turnable = false;
    assert!(!supports_brs(&h));
    let err = brs(&h, &e, &fresh(), &Limits::depth(3), |_| {}).unwrap_err();
    assert!(
        err.0.contains("with_turn") && err.0.contains("toy-heap"),
        "{err}"
    );
    // BRS+ needs only `play`.
    let r = brs_plus(&h, &e, &fresh(), &Limits::depth(5), |_| {});
    assert_eq!(r.score, brs_ref(&e, &h, Seat(0), 5, true));
    // The engine refuses BRS for a game without it up front (Tree::start is turnable).
    assert!(
        MultiEngine::<Tree, _>::new("b", TreeEval::plain(false), MultiAlgo::Brs, "u", 1).is_ok()
    );
    let mut engine =
        MultiEngine::<Heap, _>::new("b", HeapEval { prune: false }, MultiAlgo::Brs, "u", 1)
            .unwrap();
    let err = engine.choose(&h, &Limits::depth(2)).unwrap_err();
    assert!(err.contains("with_turn"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Two seats: paranoid is negamax

struct HeapNegamax;

impl Evaluator<Heap> for HeapNegamax {
    fn evaluate(&self, pos: &Heap) -> Score {
        HeapEval { prune: false }.evaluate_seats(pos)[pos.to_move()]
    }
    fn terminal(&self, pos: &Heap, outcome: &Outcome) -> Score {
        10 * outcome.margin(pos.to_move())
    }
}

/// Othello's evaluator as per-seat utilities: the side to move's score and its negation.
struct OthelloSeats(Eval);

impl SeatEvaluator<Position> for OthelloSeats {
    fn evaluate_seats(&self, pos: &Position) -> BySeat<Score> {
        let v = self.0.evaluate(pos);
        let mut u = BySeat::new(2);
        u[pos.to_move()] = v;
        u[Seat(1 - pos.to_move().0)] = -v;
        u
    }
    fn terminal_seats(&self, pos: &Position, outcome: &Outcome) -> BySeat<Score> {
        let v = self.0.terminal(pos, outcome);
        let mut u = BySeat::new(2);
        u[pos.to_move()] = v;
        u[Seat(1 - pos.to_move().0)] = -v;
        u
    }
    fn move_order(&self, pos: &Position, mv: <Position as Game>::Move) -> i32 {
        self.0.move_order(pos, mv)
    }
}

#[test]
fn two_seat_paranoid_equals_negamax() {
    for pile in 6..=14 {
        let h = Heap::new(pile, 2);
        let want = search(&h, &HeapNegamax, &fresh(), &Limits::depth(40), |_| {}).score;
        let r = paranoid(
            &h,
            &HeapEval { prune: false },
            &fresh(),
            &Limits::depth(40),
            |_| {},
        );
        assert_eq!(r.score, want, "pile {pile}");
        assert_eq!(
            want,
            paranoid_ref(&HeapEval { prune: false }, &h, Seat(0), 40)
        );
    }
    let mut rng = Rng::new(0x0002_5EA7);
    let seats = OthelloSeats(Eval::default());
    let mut checked = 0;
    while checked < 12 {
        let empties = 20 + rng.below(30) as u32;
        let Some(pos) = common::random_position(&mut rng, empties) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        for depth in 1..=4 {
            let want = search(
                &pos,
                &Eval::default(),
                &fresh(),
                &Limits::depth(depth),
                |_| {},
            );
            let r = paranoid(&pos, &seats, &fresh(), &Limits::depth(depth), |_| {});
            assert_eq!(r.score, want.score, "{pos} depth {depth}");
            assert_eq!(r.score, paranoid_ref(&seats, &pos, pos.to_move(), depth));
        }
        checked += 1;
    }
}

// ---------------------------------------------------------------------------------------
// Limits, determinism, engine

#[test]
fn limits_are_honoured() {
    let h = Heap::new(20, 3);
    let e = HeapEval { prune: true };
    for algo in [
        MultiAlgo::Paranoid,
        MultiAlgo::MaxN,
        MultiAlgo::Brs,
        MultiAlgo::BrsPlus,
    ] {
        // Node limit.
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        let r = run(algo, &h, &e, &limits);
        assert_eq!(r.nodes, 3000, "{algo}: the limit stops the search");
        assert!(r.depth >= 1 && r.depth < 40, "{algo}: depth {}", r.depth);
        assert!(h.is_legal(r.best_move.unwrap()));
        // A raised stop flag: no iteration finishes, a legal move still comes back.
        let limits = Limits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        let r = run(algo, &h, &e, &limits);
        assert_eq!(r.depth, 0, "{algo}");
        assert!(r.nodes <= 1, "{algo}: {}", r.nodes);
        assert!(h.is_legal(r.best_move.unwrap()));
        // Time, on a tree of games up to 60 plies (too big to finish).
        let t = Tree::with_len(99, 3, true, 60);
        let started = Instant::now();
        let r = run(algo, &t, &TreeEval::plain(true), &Limits::time_ms(30));
        assert!(started.elapsed() < Duration::from_millis(1000), "{algo}");
        assert!(r.depth >= 1 && r.depth < 40, "{algo}: depth {}", r.depth);
        assert!(t.is_legal(r.best_move.unwrap()));
    }
}

fn run<G: Game, E: SeatEvaluator<G>>(
    algo: MultiAlgo,
    pos: &G,
    e: &E,
    limits: &Limits,
) -> tessera::search::SearchResult<G::Move> {
    let tt = fresh();
    match algo {
        MultiAlgo::Paranoid => paranoid(pos, e, &tt, limits, |_| {}),
        MultiAlgo::MaxN => maxn(pos, e, &tt, limits, |_| {}).search,
        MultiAlgo::Brs => brs(pos, e, &tt, limits, |_| {}).unwrap(),
        MultiAlgo::BrsPlus => brs_plus(pos, e, &tt, limits, |_| {}),
    }
}

#[test]
fn results_are_deterministic() {
    let h = Heap::new(16, 3);
    let e = HeapEval { prune: true };
    for algo in [
        MultiAlgo::Paranoid,
        MultiAlgo::MaxN,
        MultiAlgo::Brs,
        MultiAlgo::BrsPlus,
    ] {
        let a = run(algo, &h, &e, &Limits::depth(9));
        let b = run(algo, &h, &e, &Limits::depth(9));
        assert_eq!(
            (a.best_move, a.score, a.nodes, &a.pv),
            (b.best_move, b.score, b.nodes, &b.pv),
            "{algo}"
        );
    }
}

#[test]
fn finished_positions_return_no_move() {
    let mut h = Heap::new(3, 3);
    h = h.play(multi_toys::Mv(3)); // seat 0 takes all and would move again
    assert!(h.outcome().is_some());
    let e = HeapEval { prune: false };
    for algo in [
        MultiAlgo::Paranoid,
        MultiAlgo::MaxN,
        MultiAlgo::Brs,
        MultiAlgo::BrsPlus,
    ] {
        let r = run(algo, &h, &e, &Limits::depth(3));
        assert_eq!((r.best_move, r.score, r.depth), (None, 10 * 9, 0), "{algo}");
    }
}

#[test]
fn engine_from_spec() {
    let spec = EngineSpec::from_inline("name=p,algo=paranoid,depth=5,tt-mb=2", "toy-heap").unwrap();
    let mut engine =
        MultiEngine::<Heap, _>::from_spec(&spec, HeapEval { prune: true }, "u").unwrap();
    assert_eq!((engine.algo(), engine.name()), (MultiAlgo::Paranoid, "p"));
    let h = Heap::new(12, 3);
    let th = engine.choose(&h, &spec.limits()).unwrap();
    assert_eq!(th.depth, 5);
    assert_eq!(
        th.score,
        paranoid_ref(&HeapEval { prune: true }, &h, Seat(0), 5)
    );
    let bad = |text: &str, game: &str| {
        let spec = EngineSpec::from_inline(text, game).unwrap();
        MultiEngine::<Heap, _>::from_spec(&spec, HeapEval { prune: true }, "u")
            .err()
            .unwrap()
    };
    assert!(bad("name=x,algo=maxn", "othello").contains("not toy-heap"));
    assert!(bad("name=x,algo=alphabeta", "toy-heap").contains("not a multi-player search"));
    assert!(bad("name=x,algo=brs,protocol=gtp,command=y", "toy-heap").contains("not built in"));
    for name in ["paranoid", "maxn", "brs", "brs-plus"] {
        let spec = EngineSpec::from_inline(&format!("name=x,algo={name}"), "toy-heap").unwrap();
        let e = MultiEngine::<Heap, _>::from_spec(&spec, HeapEval { prune: true }, "u").unwrap();
        assert_eq!(e.algo().name(), name);
    }
}

#[test]
fn engine_reports_thoughts_and_progress() {
    let h = Heap::new(14, 3);
    for algo in [
        MultiAlgo::Paranoid,
        MultiAlgo::MaxN,
        MultiAlgo::Brs,
        MultiAlgo::BrsPlus,
    ] {
        let depths = Arc::new(Mutex::new(Vec::new()));
        let d2 = Arc::clone(&depths);
        let mut engine = MultiEngine::new("m", HeapEval { prune: true }, algo, "centi-tokens", 1)
            .unwrap()
            .with_progress(move |i| d2.lock().unwrap().push((i.depth, i.score)));
        assert_eq!(engine.algo(), algo);
        let th = engine.choose(&h, &Limits::depth(6)).unwrap();
        let want = run(algo, &h, &HeapEval { prune: true }, &Limits::depth(6));
        assert_eq!(
            (th.best_move, th.score, th.depth),
            (want.best_move, want.score, 6)
        );
        assert_eq!(
            (th.unit, th.exact, th.pv.first()),
            ("centi-tokens", false, th.best_move.as_ref())
        );
        let seen = depths.lock().unwrap().clone();
        assert_eq!(
            seen.iter().map(|d| d.0).collect::<Vec<_>>(),
            (1..=6).collect::<Vec<_>>()
        );
        assert_eq!(seen.last().unwrap().1, th.score);
        // The next move reuses the table; a new game clears it; values do not change.
        let next = h.play(th.best_move.unwrap());
        let a = engine.choose(&next, &Limits::depth(5)).unwrap();
        engine.new_game();
        let b = engine.choose(&next, &Limits::depth(5)).unwrap();
        assert_eq!(a.score, b.score, "{algo}");
        assert_eq!(engine.name(), "m");
    }
}
