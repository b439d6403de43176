//! Quixo perft against `tests/data/quixo/solved.md` (copied from `../shared/data/quixo/`):
//! 44 / 1,836 / 76,596 / 3,018,100 / 118,928,388 move sequences from the empty 5x5 board
//! (depths 1-5 agree between two independent implementations; depth 6 from one), and the
//! generic perft over `Game` agreeing with the fast one on random positions and all sizes.

use crate::common;

use common::Rng;
use tessera::game::{Game, perft::perft as generic_perft};
use tessera::games::quixo::{Quixo, Quixo4p, perft};

/// Reads the perft line of solved.md, so the expected numbers come from the data file.
fn published() -> Vec<(u32, u64)> {
    let text = include_str!("../../data/quixo/solved.md");
    let line = text
        .lines()
        .skip_while(|l| !l.starts_with("## Perft"))
        .nth(1)
        .expect("perft line");
    line.split(", ")
        .map(|part| {
            let (d, n) = part.split_once(": ").expect("d: n");
            let n: String = n
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect();
            (
                d.trim().parse().unwrap(),
                n.replace(',', "").parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_1_to_5_from_empty_5x5() {
    let counts = published();
    assert_eq!(counts.len(), 6, "solved.md lists depths 1-6");
    let pos = Quixo::start();
    for &(d, n) in counts.iter().filter(|(d, _)| *d <= 5) {
        assert_eq!(perft::perft(&pos, d), n, "perft {d}");
    }
    // The generic perft agrees on the cheap depths.
    for &(d, n) in counts.iter().filter(|(d, _)| *d <= 3) {
        assert_eq!(generic_perft(&pos, d), n, "generic perft {d}");
    }
}

#[test]
#[ignore = "4.4e9 leaves: a few seconds on 2 cores"]
fn perft_6_from_empty_5x5() {
    let (_, n) = published()[5];
    assert_eq!(perft::perft_threads(&Quixo::start(), 6, 2), n);
}

#[test]
fn fast_and_generic_perft_agree_on_random_positions() {
    let mut rng = Rng::new(7);
    for size in [3u8, 4, 5] {
        for _ in 0..30 {
            let mut pos = Quixo::empty(size).unwrap();
            let plies = rng.below(30);
            let mut moves = <Quixo as Game>::Moves::default();
            for _ in 0..plies {
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            for d in 0..=3 {
                assert_eq!(perft::perft(&pos, d), generic_perft(&pos, d), "{pos} d{d}");
            }
        }
    }
}

#[test]
fn small_boards_first_ply() {
    // 4 corners x 2 + edges x 3: 3x3 20, 4x4 32 (cases.txt solved-initial-3x3/4x4).
    assert_eq!(perft::perft(&Quixo::empty(3).unwrap(), 1), 20);
    assert_eq!(perft::perft(&Quixo::empty(4).unwrap(), 1), 32);
    // Four players: each push with two dot directions.
    assert_eq!(generic_perft(&Quixo4p::start(), 1), 88);
    assert_eq!(generic_perft(&Quixo4p::start(), 2), 88 * 88 - count_4p_2());
}

/// Replies at ply 2 of the four-player game are fewer than 88 when the first cube (an X
/// cube, untakeable for B1) sits on the border: computed by hand below.
fn count_4p_2() -> u64 {
    // After A1's push the board has one X cube on its destination; B1 may not take it.
    // Each corner is the destination of 8 pushes (the other 4 cells of its row and of its
    // column), so 32 pushes x 2 dots leave the X on a corner (B1 loses its 2 pushes x 2
    // dots = 4 moves); each middle edge cell is the destination of 1 push (from the far end
    // of its perpendicular line), so 12 x 2 leave it on an edge (B1 loses 3 x 2 = 6).
    32 * 2 * 4 + 12 * 2 * 6
}
