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

/// Every 3x3 board's code (value and distance) against a naive fixed point built only from
/// the rules as [`Quixo`] plays them (no retrograde machinery): a board is won in `d` plies
/// if a move reaches a child lost in `d - 1`, lost in `d` if every move reaches a child won
/// and the longest such win is `d - 1`; boards never settled are draws.
#[test]
fn every_3x3_code_matches_a_naive_fixed_point() {
    use tessera::game::Game;
    use tessera::games::quixo::retro::{Code, DRAW, SmallBoardTable};
    let table = SmallBoardTable::solve(3, 2).unwrap();
    let index = |me: u32, opp: u32| -> usize {
        (0..9).fold(0, |i, c| {
            3 * i + (me >> (8 - c) & 1) as usize + 2 * (opp >> (8 - c) & 1) as usize
        })
    };
    // Every board with the side to move as X, and each child's index.
    let mut boards = Vec::new();
    for me in 0..512u32 {
        for opp in 0..512u32 {
            if me & opp == 0 {
                let pos = Quixo::from_masks(3, me, opp, 0, 0).unwrap();
                let mut moves = <Quixo as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                let kids: Vec<usize> = moves
                    .iter()
                    .map(|&m| {
                        let (a, b) = pos.play(m).own_other();
                        index(a, b)
                    })
                    .collect();
                boards.push((me, opp, pos, kids));
            }
        }
    }
    const UNSET: Code = 254;
    let mut codes = vec![UNSET; 3usize.pow(9)];
    for (me, opp, pos, _) in &boards {
        if let Some(o) = pos.outcome() {
            let won = o.score(pos.to_move()) == 1;
            codes[index(*me, *opp)] = Code::from(won);
        }
    }
    for d in 1u8.. {
        let old = codes.clone();
        let mut changed = false;
        for (me, opp, _, kids) in &boards {
            let i = index(*me, *opp);
            if old[i] != UNSET {
                continue;
            }
            if kids.iter().any(|&k| old[k] == 2 * (d - 1)) {
                codes[i] = 2 * d + 1;
                changed = true;
            } else if kids.iter().all(|&k| old[k] != UNSET && old[k] & 1 == 1)
                && kids.iter().map(|&k| old[k] >> 1).max() == Some(d - 1)
            {
                codes[i] = 2 * d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut checked = 0;
    for (me, opp, _, _) in &boards {
        let want = match codes[index(*me, *opp)] {
            UNSET => DRAW,
            c => c,
        };
        assert_eq!(table.code(*me, *opp), want, "me {me:#x} opp {opp:#x}");
        checked += 1;
    }
    assert_eq!(checked, 3usize.pow(9));
}

/// FNV-1a over the codes of every 4x4 board (side to move's mask major, the other side's
/// cubes as submasks of the free cells in descending order): pins the whole table, values
/// and distances, to the one the solver without symmetry reduction built.
#[test]
#[ignore = "slow: solves and reads all 43M 4x4 boards; run with cargo test --release -- --ignored"]
fn every_4x4_code_is_pinned() {
    use tessera::games::quixo::retro::SmallBoardTable;
    let table = SmallBoardTable::solve(4, 2).unwrap();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut n = 0u64;
    for me in 0..1u32 << 16 {
        let free = 0xffff & !me;
        let mut opp = free;
        loop {
            h = (h ^ u64::from(table.code(me, opp))).wrapping_mul(0x100_0000_01b3);
            n += 1;
            if opp == 0 {
                break;
            }
            opp = (opp - 1) & free;
        }
    }
    assert_eq!(n, 3u64.pow(16));
    eprintln!("4x4 codes FNV-1a: {h:#018x}");
    assert_eq!(h, 0x297e_cff7_f9a1_28fa);
}
