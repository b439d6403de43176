//! Talat perft: hand-counted numbers for the setup plies, and a cross-check of the move
//! generator against a deliberately naive second generator written here from the rules
//! text (coordinates and board names, no bit masks, no shared tables), on perft trees from
//! random full setups and along random games.

use crate::common;

use std::collections::BTreeSet;

use common::Rng;
use tessera::game::Game;
use tessera::game::perft::perft;
use tessera::games::talat::{
    BoardId, DjinnSetup, Move, Phase, Position, SetupOptions, Talat, Talat2p, TowerSetup,
};

const BOARD_NAMES: [&str; 3] = ["WG", "GB", "BW"];
const COLOURS: [char; 3] = ['W', 'G', 'B'];
const KINDS: [&str; 9] = ["T1", "S1", "H1", "T2", "S2", "H2", "T3", "S3", "H3"];

/// The rules' strength relation from the text: same height and more sides, one level
/// taller, or T1 on H3.
fn may_capture(a: &str, d: &str) -> bool {
    let h = |k: &str| k.as_bytes()[1] - b'0';
    let sides = |k: &str| match &k[..1] {
        "T" => 3,
        "S" => 4,
        _ => 6,
    };
    (h(a) == h(d) && sides(a) > sides(d)) || h(a) == h(d) + 1 || (a == "T1" && d == "H3")
}

fn sq_name(r: i32, f: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Every legal move's text, by the rules text.
fn naive_moves<const TWO: bool>(p: &Position<TWO>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let seat = p.seat_to_move();
    match p.phase() {
        Phase::Over => return out,
        Phase::Setup => {
            // Two players: the Djinn's towers first while any of its placements remain.
            let colour = if TWO && p.unplaced(2) != 0 { 2 } else { seat };
            let c = COLOURS[colour];
            for (k, kind) in KINDS.iter().enumerate() {
                if p.unplaced(colour) >> k & 1 == 0 {
                    continue;
                }
                for (b, name) in BOARD_NAMES.iter().enumerate() {
                    let chars: Vec<char> = name.chars().collect();
                    // Row 1 of XY is X's start row, row 5 is Y's.
                    for (row, who) in [(0, chars[0]), (4, chars[1])] {
                        if who != c {
                            continue;
                        }
                        for f in 0..5 {
                            if p.board(BoardId::from_index(b)).at(row * 5 + f).is_none() {
                                out.insert(format!(
                                    "{kind}@{name}:{}",
                                    sq_name(row as i32, f as i32)
                                ));
                            }
                        }
                    }
                }
            }
            return out;
        }
        Phase::Play => {}
    }
    for (b, name) in BOARD_NAMES.iter().enumerate() {
        let id = BoardId::from_index(b);
        if p.is_frozen(id) {
            continue;
        }
        let chars: Vec<char> = name.chars().collect();
        let board = p.board(id);
        let cell = |r: i32, f: i32| -> Option<(char, String)> {
            if !(0..5).contains(&r) || !(0..5).contains(&f) {
                return None;
            }
            board.at((r * 5 + f) as usize).map(|(side, k)| {
                let owner = if side as u8 == 0 { chars[0] } else { chars[1] };
                (owner, k.to_string())
            })
        };
        for r in 0..5 {
            for f in 0..5 {
                let Some((owner, kind)) = cell(r, f) else {
                    continue;
                };
                // Who moves it: its owner; in the two-player game the Djinn (B) is moved by
                // the colour that is not on this board.
                let mover = if TWO && owner == 'B' {
                    COLOURS
                        .iter()
                        .copied()
                        .find(|c| !chars.contains(c))
                        .unwrap()
                } else {
                    owner
                };
                if mover != COLOURS[seat] {
                    continue;
                }
                let dr = if owner == chars[0] { 1 } else { -1 };
                let from = sq_name(r, f);
                let mut targets = vec![(r + dr, f - 1), (r + dr, f), (r + dr, f + 1)];
                for &(tr, tf) in &targets {
                    if !(0..5).contains(&tr) || !(0..5).contains(&tf) {
                        continue;
                    }
                    if cell(tr, tf).is_none() {
                        out.insert(format!("{name}:{from}-{}", sq_name(tr, tf)));
                    }
                }
                targets.push((r, f - 1));
                targets.push((r, f + 1));
                for (tr, tf) in targets {
                    if let Some((o2, k2)) = cell(tr, tf)
                        && o2 != owner
                        && may_capture(&kind, &k2)
                    {
                        out.insert(format!("{name}:{from}x{}", sq_name(tr, tf)));
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.insert("pass".into());
    }
    out
}

fn engine_moves<const TWO: bool>(p: &Position<TWO>) -> Vec<Move> {
    let mut list = <Position<TWO> as Game>::Moves::default();
    p.generate_moves(&mut list);
    list.to_vec()
}

/// Perft by the naive generator (the engine plays the moves), checking at every node that
/// both generators agree.
fn naive_perft<const TWO: bool>(p: &Position<TWO>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let naive = naive_moves(p);
    let engine = engine_moves(p);
    let names: BTreeSet<String> = engine.iter().map(ToString::to_string).collect();
    assert_eq!(names, naive, "{p}");
    assert_eq!(names.len(), engine.len(), "duplicates in {p}");
    if naive.is_empty() {
        return 1;
    }
    naive
        .iter()
        .map(|m| naive_perft(&p.play(p.parse_move(m).unwrap()), depth - 1))
        .sum()
}

#[test]
fn setup_perft_by_hand() {
    // talat: White places 9 kinds x 10 squares = 90; Grey's squares are untouched by it:
    // 90 x 90; Black likewise: 90^3.
    let s = Talat::start();
    assert_eq!(
        (1..=3).map(|d| perft(&s, d)).collect::<Vec<_>>(),
        [90, 8_100, 729_000]
    );
    // talat-2p, random Djinn: White 90, Grey 90, then White 8 kinds x 9 squares = 72.
    let s = Talat2p::start();
    assert_eq!(
        (1..=3).map(|d| perft(&s, d)).collect::<Vec<_>>(),
        [90, 8_100, 583_200]
    );
    // talat-2p, chosen Djinn: the Djinn's 10 squares shared: 9 x 10, then 8 x 9, 7 x 8.
    let s = Talat2p::new(&SetupOptions {
        djinn: DjinnSetup::Chosen,
        towers: TowerSetup::Chosen,
    });
    assert_eq!(
        (1..=3).map(|d| perft(&s, d)).collect::<Vec<_>>(),
        [90, 6_480, 362_880]
    );
    assert_eq!(naive_perft(&Talat::start(), 2), 8_100);
    // The split per move adds up, and each placement of White's leaves 90 x 90.
    let split = tessera::games::talat::perft::divide(&Talat::start(), 3);
    assert_eq!(split.len(), 90);
    assert!(split.iter().all(|&(_, n)| n == 8_100));
}

#[test]
fn perft_from_random_setups_matches_the_naive_generator() {
    for seed in 0..4 {
        let opts = SetupOptions {
            djinn: DjinnSetup::Random(seed),
            towers: TowerSetup::Random(seed),
        };
        let p = Talat::new(&opts);
        assert_eq!(naive_perft(&p, 3), perft(&p, 3), "{p}");
        let p = Talat2p::new(&opts);
        assert_eq!(naive_perft(&p, 3), perft(&p, 3), "{p}");
    }
    let p = Talat::new(&SetupOptions {
        djinn: DjinnSetup::Random(9),
        towers: TowerSetup::Random(9),
    });
    let n = naive_perft(&p, 4);
    println!("talat perft 4 from random setup 9: {n}");
    assert_eq!(n, perft(&p, 4));
}

#[test]
fn naive_generator_agrees_along_random_games() {
    fn game<const TWO: bool>(start: Position<TWO>, rng: &mut Rng) -> usize {
        let mut p = start;
        let mut n = 0;
        loop {
            let moves = engine_moves(&p);
            let names: BTreeSet<String> = moves.iter().map(ToString::to_string).collect();
            assert_eq!(names, naive_moves(&p), "{p}");
            n += 1;
            if moves.is_empty() {
                return n;
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
    let mut rng = Rng::new(77);
    let mut positions = 0;
    for g in 0..100u64 {
        positions += game(Talat::start(), &mut rng);
        let djinn = if g % 2 == 0 {
            DjinnSetup::Random(g)
        } else {
            DjinnSetup::Chosen
        };
        positions += game(
            Talat2p::new(&SetupOptions {
                djinn,
                towers: TowerSetup::Chosen,
            }),
            &mut rng,
        );
    }
    assert!(positions > 10_000, "{positions}");
}

/// `(id, position, depth, leaves)` lines of `tests/data/talat/perft.txt`.
fn perft_file() -> Vec<(String, String, u32, u64)> {
    include_str!("../../data/talat/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_file_positions() {
    let lines = perft_file();
    assert_eq!(lines.len(), 32);
    for (id, text, depth, leaves) in lines {
        let (got, naive) = match id.as_str() {
            "talat" => {
                let p: Talat = text.parse().unwrap();
                (
                    perft(&p, depth),
                    (depth <= 3).then(|| naive_perft(&p, depth)),
                )
            }
            "talat-2p" => {
                let p: Talat2p = text.parse().unwrap();
                (
                    perft(&p, depth),
                    (depth <= 3).then(|| naive_perft(&p, depth)),
                )
            }
            _ => panic!("unknown id {id}"),
        };
        assert_eq!(got, leaves, "{id} {text} depth {depth}");
        if let Some(n) = naive {
            assert_eq!(n, leaves, "naive: {id} {text} depth {depth}");
        }
    }
}
