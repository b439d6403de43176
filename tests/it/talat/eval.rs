//! The Talat evaluation and the two-player alpha-beta engine: weights files, symmetry of
//! the evaluation under relabelling the colours and mirroring the boards, terminal values,
//! and the engine finding free captures and finishing games.

use crate::common;

use common::Rng;
use tessera::engine::Player;
use tessera::engine::talat::alphabeta_engine;
use tessera::game::{Game, Seat};
use tessera::games::talat::eval::{Eval, Weights};
use tessera::games::talat::{
    DjinnSetup, Position, SCORE_UNIT, SetupOptions, Talat, Talat2p, TowerSetup,
};
use tessera::search::{Evaluator, Limits, SeatEvaluator};

fn setup(seed: u64) -> SetupOptions {
    SetupOptions {
        djinn: DjinnSetup::Random(seed),
        towers: TowerSetup::Random(seed),
    }
}

/// Positions along seeded random games.
fn sample<const TWO: bool>(games: u64) -> Vec<Position<TWO>> {
    let mut rng = Rng::new(5);
    let mut out = Vec::new();
    for g in 0..games {
        let mut p = Position::<TWO>::new(&setup(g));
        let mut moves = <Position<TWO> as Game>::Moves::default();
        loop {
            out.push(p);
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// The text of `p` with every board mirrored left to right (file a <-> e).
fn mirrored(text: &str) -> String {
    text.split(' ')
        .map(|t| match t.split_once(':') {
            Some((b @ ("WG" | "GB" | "BW"), rows)) => {
                let rows: Vec<String> = rows
                    .split('/')
                    .map(|r| {
                        let mut cells = Vec::new();
                        let mut cs = r.chars();
                        while let Some(c) = cs.next() {
                            if c == '.' {
                                cells.push(".".to_string());
                            } else {
                                cells.push(format!("{c}{}", cs.next().unwrap()));
                            }
                        }
                        cells.reverse();
                        cells.concat()
                    })
                    .collect();
                format!("{b}:{}", rows.join("/"))
            }
            _ => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text of a three-player position with colours relabelled W -> G -> B -> W: board
/// WG becomes GB, GB becomes BW, BW becomes WG; seat s's captures become seat s+1's.
fn rotated(text: &str) -> String {
    let rot = |c: char| match c {
        'W' => 'G',
        'G' => 'B',
        'B' => 'W',
        c => c,
    };
    let f: Vec<&str> = text.split(' ').collect();
    let board = |name: &str| f.iter().find(|t| t.starts_with(name)).unwrap()[3..].to_string();
    let taken: Vec<String> = f[4]["taken:".len()..]
        .split('/')
        .map(|g| g.chars().map(rot).collect())
        .collect();
    let score: Vec<&str> = f[8]["score:".len()..].split(',').collect();
    let frozen: String = if f[7] == "frozen:-" {
        "-".into()
    } else {
        let mut names: Vec<String> = f[7]["frozen:".len()..]
            .split(',')
            .map(|n| n.chars().map(rot).collect())
            .collect();
        let order = ["WG", "GB", "BW"];
        names.sort_by_key(|n| order.iter().position(|o| o == n));
        names.join(",")
    };
    format!(
        "talat WG:{} GB:{} BW:{} taken:{}/{}/{} to:{} {} frozen:{frozen} score:{},{},{}",
        board("BW:"),
        board("WG:"),
        board("GB:"),
        taken[2],
        taken[0],
        taken[1],
        rot(f[5].chars().last().unwrap()),
        f[6],
        score[2],
        score[0],
        score[1]
    )
}

#[test]
fn evaluation_is_symmetric() {
    let e = Eval::default();
    let mut checked = 0;
    for p in sample::<false>(20) {
        if p.outcome().is_some() {
            continue;
        }
        let v = e.evaluate_seats(&p);
        let m: Talat = mirrored(&p.to_string()).parse().unwrap();
        assert_eq!(e.evaluate_seats(&m), v, "mirror of {p}");
        let r: Talat = rotated(&p.to_string()).parse().unwrap();
        let rv = e.evaluate_seats(&r);
        for s in 0..3u8 {
            assert_eq!(rv[Seat((s + 1) % 3)], v[Seat(s)], "rotation of {p}");
        }
        checked += 1;
    }
    assert!(checked > 1000);
    for p in sample::<true>(20) {
        if p.outcome().is_some() {
            continue;
        }
        let m: Talat2p = mirrored(&p.to_string()).parse().unwrap();
        assert_eq!(e.evaluate(&m), e.evaluate(&p), "mirror of {p}");
    }
}

#[test]
fn terminal_values_are_outcome_margins_in_centi_points() {
    let e = Eval::default();
    let mut ended = 0;
    for p in sample::<false>(10) {
        if let Some(out) = p.outcome() {
            let t = e.terminal_seats(&p, &out);
            for s in 0..3u8 {
                // OUTCOME_SCALE is 10 per point, so centi-points are 10 x the margin.
                assert_eq!(t[Seat(s)], 10 * out.margin(Seat(s)));
            }
            ended += 1;
        } else {
            let v = e.evaluate_seats(&p);
            // Utilities are "my estimate minus the best other": at most one positive.
            assert!(v.as_slice().iter().filter(|&&x| x > 0).count() <= 1, "{p}");
        }
    }
    assert_eq!(ended, 10);
    for p in sample::<true>(10) {
        if let Some(out) = p.outcome() {
            let me = p.to_move();
            assert_eq!(e.terminal(&p, &out), 10 * out.margin(me));
        }
    }
}

#[test]
fn weights_json_round_trip_and_errors() {
    let w = Weights::default();
    assert_eq!(Weights::from_json(&w.to_json()).unwrap(), w);
    let e = Weights::from_json("{\"nope\": 1}").unwrap_err();
    assert!(
        e.contains("unknown weight 'nope'") && e.contains("goal_live"),
        "{e}"
    );
    let e = Weights::from_json("{\"threat\": 99999}").unwrap_err();
    assert!(e.contains("outside"), "{e}");
    let w2 = Weights::from_json("{\"threat\": 200}").unwrap();
    assert_ne!(w2, w);
    assert_eq!(SCORE_UNIT, "centi-points");
}

#[test]
fn engine_takes_a_free_capture() {
    // Grey to move (see tests/it/talat/rules.rs, djinn_moves_and_scoring): the Djinn's S3 on
    // BW b2 may take White's H2 on c3 and Grey's H2 on GB c2 may take the Djinn's S2 on
    // c3; neither capturer can be taken back. Any other move lets White's H2 step away or
    // leaves the Djinn's S2 where White can move it off.
    let text = "talat-2p WG:T1..../...../...../...../h3.... GB:....t2/..H2../..s2../...../S1...t3 \
                BW:...../.S3.../..h2../...../...S1. taken:-/- to:G phase:play frozen:- score:3,6";
    let p: Talat2p = text.parse().unwrap();
    let mut engine = alphabeta_engine("ab", Weights::default(), 4);
    let t = engine.choose(&p, &Limits::depth(3)).unwrap();
    let mv = t.best_move.unwrap();
    assert!(mv.is_capture(), "{mv}");
    assert_eq!(t.unit, "centi-points");
}

#[test]
fn engine_plays_whole_games() {
    for seed in 0..2 {
        let mut p = Talat2p::new(&setup(seed));
        let mut engine = alphabeta_engine("ab", Weights::default(), 4);
        let mut plies = 0;
        while p.outcome().is_none() {
            let t = engine.choose(&p, &Limits::depth(2)).unwrap();
            let mv = t.best_move.unwrap();
            assert!(p.is_legal(mv), "{mv} in {p}");
            p = p.play(mv);
            plies += 1;
            assert!(plies < 300);
        }
        assert_eq!(p.outcome().unwrap().scores.len(), 2);
    }
}

#[test]
fn engines_from_specs() {
    use tessera::engine::EngineSpec;
    use tessera::engine::talat::{make_player_2p, mcts_engine};
    // MCTS plays the three-player game (per-seat rewards) legally to the end.
    let spec = EngineSpec::from_inline("name=m,algo=mcts,iterations=60,seed=1", "talat").unwrap();
    let mut p = Talat::new(&setup(3));
    let mut players = [
        mcts_engine::<false>(&spec),
        mcts_engine::<false>(&spec),
        mcts_engine::<false>(&spec),
    ];
    while p.outcome().is_none() {
        let seat = p.to_move().index();
        let mv = players[seat]
            .choose(&p, &Limits::default())
            .unwrap()
            .best_move
            .unwrap();
        assert!(p.is_legal(mv));
        p = p.play(mv);
    }
    let spec = EngineSpec::from_inline("name=a,depth=2", "talat-2p").unwrap();
    let mut ab = make_player_2p(&spec).unwrap();
    let p = Talat2p::new(&setup(4));
    assert!(p.is_legal(ab.choose(&p, &Limits::depth(2)).unwrap().best_move.unwrap()));
    let spec = EngineSpec::from_inline("name=o,depth=2", "othello").unwrap();
    assert!(
        make_player_2p(&spec)
            .err()
            .unwrap()
            .contains("not talat-2p")
    );
}

#[test]
fn alphabeta_beats_random_play() {
    // A sign check of the evaluation and terminal scores: depth-2 alpha-beta against a
    // uniformly random player, seats alternating, 8 games from random setups.
    let mut rng = Rng::new(31);
    let mut wins = 0;
    for g in 0..8u64 {
        let me = (g % 2) as u8;
        let mut p = Talat2p::new(&setup(100 + g));
        let mut engine = alphabeta_engine("ab", Weights::default(), 4);
        let mut moves = <Talat2p as Game>::Moves::default();
        while p.outcome().is_none() {
            let mv = if p.to_move() == Seat(me) {
                engine
                    .choose(&p, &Limits::depth(2))
                    .unwrap()
                    .best_move
                    .unwrap()
            } else {
                p.generate_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            p = p.play(mv);
        }
        let out = p.outcome().unwrap();
        wins += usize::from(out.rank(Seat(me)) == 1 && out.margin(Seat(me)) > 0);
    }
    assert!(wins >= 7, "{wins} of 8");
}

#[test]
fn two_player_tie_break() {
    // 10 points each: White captured Grey's H1 and T1 (9 sides), Grey captured White's S1
    // and the Djinn's S2 (8 sides): White wins the tie-break, 101 to 100.
    let e = "talat-2p WG:...../...../...../...../..... GB:...../...../...../...../..... \
             BW:...../...../...../...../..... taken:GT1,GH1/WS1,BS2 to:W phase:over \
             frozen:WG,GB,BW score:10,10";
    let p: Talat2p = e.parse().unwrap();
    let out = p.outcome().unwrap();
    assert_eq!(out.scores.as_slice(), &[101, 100]);
    assert_eq!(out.ranking().as_slice(), &[1, 2]);
    let eval = Eval::default();
    assert_eq!(eval.terminal(&p, &out), 10);
}
