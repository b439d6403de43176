//! Exact solving against the published results (`tests/data/quixo/solved.md`, from
//! Tanaka, Bonnet, Tixeuil, Tamura, "Quixo Is Solved", arXiv:2007.15895, and the authors'
//! result file): W/L/D counts over all boards and the value and length from the empty board.

use std::sync::Arc;

use tessera::engine::Player;
use tessera::engine::quixo::alphabeta_engine;
use tessera::games::quixo::eval::Weights;
use tessera::games::quixo::retro::{Counts, FullBoardTable, Value, solve_size};
use tessera::games::quixo::{FullBoardExact, Quixo};
use tessera::search::{Limits, WIN};

#[test]
fn solve_3x3_matches_published() {
    let s = solve_size(3, 2).unwrap();
    assert_eq!(
        s.counts,
        Counts {
            wins: 12_748,
            losses: 6_935,
            draws: 0
        }
    );
    assert_eq!((s.value, s.plies), (Value::Win, Some(7)));
}

#[test]
#[ignore = "43M boards: seconds to a minute on 2 cores"]
fn solve_4x4_matches_published() {
    let s = solve_size(4, 2).unwrap();
    eprintln!("4x4 solve: {:.2} s", s.seconds);
    assert_eq!(
        s.counts,
        Counts {
            wins: 26_434_489,
            losses: 15_003_736,
            draws: 1_608_496
        }
    );
    assert_eq!((s.value, s.plies), (Value::Win, Some(21)));
}

#[test]
#[ignore = "2^25 full boards: seconds, ~100 MB"]
fn full_board_table_matches_published() {
    let t = std::time::Instant::now();
    let table = FullBoardTable::solve(2).unwrap();
    eprintln!("5x5 full-board table: {:.2} s", t.elapsed().as_secs_f64());
    assert_eq!(
        table.counts(),
        Counts {
            wins: 20_073_427,
            losses: 13_326_948,
            draws: 154_057
        }
    );
    assert_eq!(
        table.counts_with(12),
        Counts {
            wins: 2_572_251,
            losses: 2_519_395,
            draws: 108_654
        }
    );
    assert_eq!(table.longest(), ((70, 48), (69, 40)));

    // The table as the alpha-beta engine's exact solver (cases.txt full-win-in-5 and
    // full-draw): the unique winning move with its mate score, the only drawing move.
    let mut engine = alphabeta_engine::<false>("exact", Weights::default(), 1)
        .with_exact(FullBoardExact::new(Arc::new(table)));
    for (text, best, score) in [
        ("XOOOO/OOXXX/OXXXX/XXXXO/OOOXO X", "d5-d1", WIN - 5),
        ("OOOOX/XXXXO/XXXXO/OOOXO/OOOXO X", "a3-e3", 0),
    ] {
        let pos: Quixo = text.parse().unwrap();
        let t = engine.choose(&pos, &Limits::depth(1)).unwrap();
        assert!(t.exact);
        assert_eq!(
            (t.best_move.unwrap().to_string().as_str(), t.score),
            (best, score)
        );
    }
}
