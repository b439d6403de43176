//! Lazy SMP: several threads sharing the transposition table must still return legal moves
//! and, when the search reaches the end of the game, the exact value.

use tessera::game::Game;
use tessera::games::othello::endgame::Solver;
use tessera::games::othello::{Position, eval::Eval};
use tessera::search::{Limits, TranspositionTable, search_threads};

use crate::common;
use common::Rng;

fn random_position(rng: &mut Rng, empties: u32) -> Option<Position> {
    common::random_position(rng, empties).filter(|p| !p.is_game_over())
}

/// `m` is legal in `pos` and keeps its exact value `exact` (disc difference, side to move).
fn assert_optimal(pos: &Position, m: <Position as Game>::Move, exact: i32) {
    assert!(pos.is_legal(m), "{m} is not legal in {pos}");
    let after = Solver::new(&TranspositionTable::new(8), &Limits::default())
        .solve(&pos.play(m))
        .score
        .unwrap();
    let same_side = pos.play(m).side() == pos.side();
    assert_eq!(
        if same_side { after } else { -after },
        exact,
        "move {m} is not optimal in {pos}"
    );
}

#[test]
fn two_and_three_threads_find_exact_values_at_the_end_of_the_game() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut checked = 0;
    while checked < 40 {
        let Some(pos) = random_position(&mut rng, 9) else {
            continue;
        };
        let exact = Solver::new(&TranspositionTable::new(1), &Limits::default())
            .solve(&pos)
            .score
            .unwrap();
        for threads in [2, 3] {
            let tt = TranspositionTable::new(4);
            // Depth 20 > empties + passes: every line reaches the end of the game.
            let r = search_threads(
                &pos,
                &Eval::default(),
                &tt,
                &Limits::depth(20),
                threads,
                |_| {},
            );
            assert_eq!(r.score, 100 * exact, "{threads} threads on {pos}");
            assert_optimal(&pos, r.best_move.unwrap(), exact);
        }
        checked += 1;
    }
}

#[test]
fn threads_respect_a_time_limit_and_return_legal_moves() {
    let pos = Position::from_transcript("f5d6c3d3c4f4f6f3e6e7").unwrap();
    let tt = TranspositionTable::new(8);
    let t = std::time::Instant::now();
    let r = search_threads(
        &pos,
        &Eval::default(),
        &tt,
        &Limits::time_ms(200),
        2,
        |_| {},
    );
    assert!(t.elapsed().as_millis() < 1500, "{:?}", t.elapsed());
    assert!(pos.is_legal(r.best_move.unwrap()));
    assert!(r.depth >= 1);
}

/// The engine's exact solves run on its threads too (`AlphaBetaEngine::with_threads` hands
/// them to the solver, before or after `with_exact`): two threads give the solver's exact
/// value and an optimal move, as one thread does.
#[test]
fn an_engine_on_two_threads_solves_exactly_in_parallel() {
    use tessera::engine::Player;
    use tessera::engine::othello::alphabeta_engine_with;
    let mut rng = Rng(0x5EED_1234_ABCD_0002);
    let mut checked = 0;
    while checked < 6 {
        // 16 empties: above the parallel solver's split threshold.
        let Some(pos) = random_position(&mut rng, 16) else {
            continue;
        };
        let exact = Solver::new(&TranspositionTable::new(8), &Limits::default())
            .solve(&pos)
            .score
            .unwrap();
        let mut engine = alphabeta_engine_with("t2", Eval::default(), 8, 20).with_threads(2);
        let t = engine.choose(&pos, &Limits::default()).unwrap();
        assert!(t.exact, "{pos}: not solved exactly");
        assert_eq!(t.score, 100 * exact, "{pos}");
        assert_optimal(&pos, t.best_move.unwrap(), exact);
        checked += 1;
    }
}

/// A parallel solve started from a rayon worker (a tournament plays its games on a rayon
/// pool) must not let that worker start the pool's other jobs while it waits: with the
/// solver's pool entered from the worker itself, the worker stole the next game and played
/// it nested inside the solve, so games never finished and memory grew without bound.
#[test]
fn a_parallel_solve_on_a_rayon_worker_does_not_start_other_jobs() {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut rng = Rng(0x5EED_1234_ABCD_0003);
    let mut positions = Vec::new();
    while positions.len() < 4 {
        if let Some(pos) = random_position(&mut rng, 16) {
            positions.push(pos);
        }
    }
    let running = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        positions.par_iter().for_each(|pos| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            let tt = TranspositionTable::new(4);
            let sol = Solver::new(&tt, &Limits::default())
                .with_threads(2)
                .solve(pos);
            assert!(sol.score.is_some());
            running.fetch_sub(1, Ordering::SeqCst);
        });
    });
    // One worker: one job at a time.
    assert_eq!(most.load(Ordering::SeqCst), 1);
}
