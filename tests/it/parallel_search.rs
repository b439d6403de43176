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
            let m = r.best_move.unwrap();
            assert!(pos.is_legal(m));
            let after = Solver::new(&TranspositionTable::new(1), &Limits::default())
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
