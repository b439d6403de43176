//! Othello perft against the published counts in `tests/data/othello/perft.txt`
//! (Aart Bik; Egaroucid "mode 1": a pass is a ply, finished games are leaves).

use tessera::game::{Game, perft::perft as generic_perft};
use tessera::games::othello::{Position, perft::perft};

/// `(depth, leaves)` rows of the data file's mode-1 column.
fn reference() -> Vec<(u32, u64)> {
    let text = include_str!("../../data/othello/perft.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let d = f.next().unwrap().parse().unwrap();
            let n = f.next().unwrap().parse().unwrap();
            (d, n)
        })
        .collect()
}

fn check_up_to(max_depth: u32, min_depth: u32) {
    let start = Position::start();
    let rows = reference();
    assert!(rows.len() >= 15, "data file lost rows: {}", rows.len());
    for (d, n) in rows
        .into_iter()
        .filter(|&(d, _)| d >= min_depth && d <= max_depth)
    {
        assert_eq!(perft(&start, d), n, "perft({d})");
    }
}

#[test]
fn perft_depths_1_to_10() {
    check_up_to(10, 1);
}

#[test]
fn generic_perft_agrees_with_fast_perft() {
    // The Game-trait path (move lists, copy-make, Zobrist upkeep) against the raw one.
    let start = Position::start();
    for d in 1..=8 {
        assert_eq!(generic_perft(&start, d), perft(&start, d), "depth {d}");
    }
    assert_eq!(start.seats(), 2);
}

#[test]
#[ignore = "slow: depths 11-13 take about a minute in release"]
fn perft_depths_11_to_13() {
    check_up_to(13, 11);
}
