//! The exact frozen-board test against a brute force written here from the rules text.
//!
//! The brute force enumerates, depth-first with a `HashSet`, every position reachable on
//! one board by steps alone (one square straight or diagonally forward onto an empty
//! square, either player, any order), and calls the board live when one of them has a legal
//! capture (an adjacent opposing tower straight ahead, diagonally ahead or sideways that the
//! mover may capture by the rules' strength relation). It shares no code with the engine
//! except the `Board` container being tested.

use crate::common;

use std::collections::HashSet;

use common::Rng;
use tessera::game::Game;
use tessera::games::talat::freeze::{cheap_live, is_frozen, one_mover_live, reachable_capture};
use tessera::games::talat::{Board, BoardId, SetupOptions, Talat, TowerSetup};

/// A tower for the brute force: (side 0 lower / 1 upper, row 0..5, file 0..5, kind index).
type T = (u8, i32, i32, u8);

/// The rules' capture relation, from the text: heights 1..3 = index / 3 + 1, sides of
/// T/S/H = 3/4/6 by index % 3.
fn may_capture(a: u8, d: u8) -> bool {
    let (ha, hd) = (a / 3 + 1, d / 3 + 1);
    let sides = |k: u8| [3, 4, 6][usize::from(k % 3)];
    let david_goliath = a == 0 && d == 8;
    (ha == hd && sides(a) > sides(d)) || ha == hd + 1 || david_goliath
}

fn forward(side: u8) -> i32 {
    if side == 0 { 1 } else { -1 }
}

fn capture_exists(ts: &[T]) -> bool {
    for &(s, r, f, k) in ts {
        for &(s2, r2, f2, k2) in ts {
            if s2 == s || !may_capture(k, k2) {
                continue;
            }
            let ahead = r2 == r + forward(s) && (f2 - f).abs() <= 1;
            let beside = r2 == r && (f2 - f).abs() == 1;
            if ahead || beside {
                return true;
            }
        }
    }
    false
}

/// Brute force: is a position with a legal capture reachable by steps alone?
/// (Depth-first: on live boards it reaches a capture sooner than breadth-first would.)
fn brute_live(start: Vec<T>) -> bool {
    let mut seen = HashSet::new();
    let mut stack = Vec::new();
    seen.insert(start.clone());
    stack.push(start);
    while let Some(ts) = stack.pop() {
        if capture_exists(&ts) {
            return true;
        }
        for i in 0..ts.len() {
            let (s, r, f, _) = ts[i];
            for df in [-1, 0, 1] {
                let (nr, nf) = (r + forward(s), f + df);
                if !(0..5).contains(&nr) || !(0..5).contains(&nf) {
                    continue;
                }
                if ts.iter().any(|&(_, r2, f2, _)| (r2, f2) == (nr, nf)) {
                    continue;
                }
                let mut next = ts.clone();
                next[i].1 = nr;
                next[i].2 = nf;
                if seen.insert(next.clone()) {
                    stack.push(next);
                }
            }
        }
    }
    false
}

fn towers_of(b: &Board) -> Vec<T> {
    let mut v = Vec::new();
    for sq in 0..25 {
        if let Some((side, kind)) = b.at(sq) {
            v.push((
                side as u8,
                (sq / 5) as i32,
                (sq % 5) as i32,
                kind.index() as u8,
            ));
        }
    }
    v
}

/// A random board: 1..=5 towers per side with distinct kinds, on random squares; when
/// `crowded`, Lower has 3..=5 towers and Upper 1..=2, all on rows 4 and 5, where Lower towers
/// get stuck and block, with both sides' kinds from one random pool of 4 kinds so that few
/// pairs are related (the frozen boards the cheap test calls live).
fn random_board(rng: &mut Rng, crowded: bool) -> Board {
    let mut b = Board::default();
    let mut pool: Vec<u8> = (0..9).collect();
    for i in 0..9 {
        let j = i + rng.below(9 - i);
        pool.swap(i, j);
    }
    for side in 0..2 {
        let n = match (crowded, side) {
            (false, _) => 1 + rng.below(5),
            (true, 0) => 3 + rng.below(3),
            (true, _) => 1 + rng.below(2),
        };
        let mut kinds: Vec<u8> = if crowded {
            pool[..5].to_vec()
        } else {
            (0..9).collect()
        };
        for i in 0..n {
            let j = i + rng.below(kinds.len() - i);
            kinds.swap(i, j);
            let sq = loop {
                let sq = if crowded {
                    15 + rng.below(10)
                } else {
                    rng.below(25)
                };
                if b.occupied() >> sq & 1 == 0 {
                    break sq;
                }
            };
            b.occ[side] |= 1 << sq;
            b.kind[sq] = kinds[i];
        }
    }
    b
}

#[test]
fn exact_freeze_test_matches_brute_force_on_random_boards() {
    let mut rng = Rng::new(0xF12E_E2E5);
    let (mut frozen_cheap_live, mut live_later, mut frozen_cheap) = (0, 0, 0);
    let mut live_by_search = 0;
    for i in 0..40_000 {
        let crowded = i % 20 != 0;
        let b = random_board(&mut rng, crowded);
        // Crowded boards are brute-checked only where the exact search has work to do.
        if crowded && (!cheap_live(&b) || b.any_capture()) {
            continue;
        }
        let exact = !is_frozen(&b);
        let brute = brute_live(towers_of(&b));
        assert_eq!(exact, brute, "board {b:?}");
        if !cheap_live(&b) {
            frozen_cheap += 1;
            assert!(!brute, "the cheap test is necessary: {b:?}");
        } else if !brute {
            frozen_cheap_live += 1;
        } else if !b.any_capture() {
            live_later += 1;
            // Live, but no single tower walking alone reaches a capture: only the full
            // search (several towers moving, or one unblocking another) finds it.
            if !one_mover_live(&b) {
                live_by_search += 1;
            }
        }
        // The search alone (without the shortcuts in front of it) agrees as well.
        if b.any_capture() || cheap_live(&b) {
            assert_eq!(reachable_capture(&b), brute, "search alone on {b:?}");
        }
        if one_mover_live(&b) {
            assert!(brute, "one-mover test is sufficient: {b:?}");
        }
    }
    println!(
        "cheap-frozen {frozen_cheap}, frozen but cheap-live {frozen_cheap_live}, live later {live_later} ({live_by_search} found only by the search)"
    );
    // The sample must exercise every branch: boards the cheap test freezes, frozen boards
    // it calls live (blocking), live boards with no capture yet, and live boards that
    // only the full search proves live.
    assert!(frozen_cheap > 100, "{frozen_cheap}");
    assert!(frozen_cheap_live > 20, "{frozen_cheap_live}");
    assert!(live_later > 100, "{live_later}");
    assert!(live_by_search > 20, "{live_by_search}");
}

#[test]
fn exact_freeze_test_matches_brute_force_in_random_games() {
    let mut rng = Rng::new(0x6A3E);
    let (mut checked, mut blocked) = (0, 0);
    for g in 0..5u64 {
        let mut pos = Talat::new(&SetupOptions {
            towers: TowerSetup::Random(g),
            ..SetupOptions::default()
        });
        let mut list = <Talat as Game>::Moves::default();
        loop {
            for b in BoardId::ALL {
                let board = pos.board(b);
                blocked += usize::from(cheap_live(board) && pos.is_frozen(b));
                assert_eq!(
                    pos.is_frozen(b),
                    !brute_live(towers_of(board)),
                    "{b} in {pos}"
                );
                checked += 1;
            }
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos = pos.play(list[rng.below(list.len())]);
        }
    }
    println!("{checked} boards checked, {blocked} frozen by blocking");
    assert!(checked > 200, "{checked}");
}

/// A board from `(side, square, kind)` triples (`"a4"`, `"S1"`).
fn board_of(towers: &[(usize, &str, &str)]) -> Board {
    use tessera::games::talat::{Kind, parse_square};
    let mut b = Board::default();
    for &(side, sq, kind) in towers {
        let sq = parse_square(sq).unwrap();
        b.occ[side] |= 1 << sq;
        b.kind[sq] = Kind::parse(kind).unwrap().index() as u8;
    }
    b
}

#[test]
fn blocked_pair_is_frozen_though_the_cheap_test_says_live() {
    // Lower S1 on a4 may capture Upper T1 on c5 (same height, 4 sides > 3): g = 5 - 4 = 1,
    // |a - c| = 2 <= g + 1, so the cheap test passes. But S1's forward squares a5, b5 hold
    // Lower's T1 and T3 (stuck on their goal row), Lower's S3 on b4 is boxed in by a5, b5
    // and c5; T1 (Upper) can only step to c4 or d4, after which it is on S1's row two
    // files away or further and only moves on down. T1 (Upper) is unrelated to T1, T3 and
    // S3 (equal, or two heights apart): no capture is ever possible.
    let b = board_of(&[
        (0, "a4", "S1"),
        (0, "a5", "T1"),
        (0, "b5", "T3"),
        (0, "b4", "S3"),
        (1, "c5", "T1"),
    ]);
    assert!(cheap_live(&b));
    assert!(!b.any_capture());
    assert!(!brute_live(towers_of(&b)));
    assert!(is_frozen(&b));
    // Free b4 (remove S3) and T1 steps c5-b4 next to S1 on a4: live.
    let b = board_of(&[
        (0, "a4", "S1"),
        (0, "a5", "T1"),
        (0, "b5", "T3"),
        (1, "c5", "T1"),
    ]);
    assert!(brute_live(towers_of(&b)));
    assert!(!is_frozen(&b));
}
