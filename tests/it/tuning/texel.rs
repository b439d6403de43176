//! Texel tuning for Quixo and Talat: the evaluations are exactly linear in their weights
//! (feature counts dotted with the weights give the engine's score), hand-worked feature
//! counts, and the rows each sample gives. (Fits of known models, with and without a
//! constant term, are unit tests of `tuning::texel`.)

use crate::common;

use common::{Rng, moves_of};
use tessera::game::Game;
use tessera::games::quixo::eval::{Eval as QuixoEval, PARAMS as QUIXO_PARAMS, Weights as QW};
use tessera::games::quixo::{Quixo, Quixo4p};
use tessera::games::talat::eval::{Eval as TalatEval, FEATURES, Weights as TW, features};
use tessera::games::talat::{Talat, Talat2p};
use tessera::search::Evaluator;
use tessera::tuning::selfplay::Sample;
use tessera::tuning::texel::{TexelData, TexelGame};

/// Positions along seeded random games of `G` (at most `plies` plies each).
fn walk<G: Game>(games: u64, plies: usize) -> Vec<G> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = Rng::new(100 + g);
        let mut p = G::start_seeded(g);
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            out.push(p.clone());
            let ms = moves_of(&p);
            p = p.play(ms[rng.below(ms.len())]);
        }
    }
    out
}

/// Weights unlike the defaults (so a feature left out of the dot product shows).
fn odd_weights(registry: &[tessera::tuning::Param]) -> Vec<i32> {
    registry
        .iter()
        .enumerate()
        .map(|(i, p)| (p.default + 7 * i as i32 + 3).clamp(p.min, p.max))
        .collect()
}

#[test]
fn quixo_score_is_the_features_dotted_with_the_weights() {
    let w = odd_weights(QUIXO_PARAMS);
    let eval = QuixoEval::new(QW(w.clone()));
    let mut n = 0;
    for pos in walk::<Quixo>(40, 60) {
        let (own, other) = pos.own_other();
        let f = tessera::games::quixo::eval::features(pos.size(), own, other);
        let dot: i32 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
        assert_eq!(Evaluator::evaluate(&eval, &pos), dot, "{pos}");
        n += 1;
    }
    for pos in walk::<Quixo4p>(20, 60) {
        let (own, other) = pos.own_other();
        let f = tessera::games::quixo::eval::features(pos.size(), own, other);
        let dot: i32 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
        assert_eq!(Evaluator::evaluate(&eval, &pos), dot, "{pos}");
    }
    assert!(n > 1000);
}

/// Hand-worked from the rules (5x5, 12 lines: 5 rows, 5 columns, 2 diagonals; 16 border
/// cells; centre c3; 4 corners). X holds four cubes of one border row, from a corner; O one
/// cube in the far row's middle and the centre. X to move.
///
/// - X's row misses 1 cube and has no O: line_missing_1 +1. Of the four columns through
///   X's cubes, the middle one holds both O cubes (blocked), so three columns missing 4
///   (the 3+ bucket) count +3 for X; the diagonal through X's corner also passes the
///   centre (O): blocked. O: its far row and the centre's row hold no X: -2 (each misses
///   4); the middle column is blocked; the other diagonal holds the centre and no X (X
///   does not hold that corner): -1. So line_missing_3 = 3 - 3 = 0, line_missing_2 = 0.
/// - cubes 4 - 2 = 2; tempo: border cells X may take 16 - 1 (O's far cube) = 15, O may
///   take 16 - 4 = 12: +3; centre: O holds it: -1; corners: X 1, O 0: +1; to move: 1.
#[test]
fn quixo_features_of_a_hand_worked_board() {
    let pos: Quixo = "XXXX./...../..O../...../..O.. X".parse().unwrap();
    let (own, other) = pos.own_other();
    let f = tessera::games::quixo::eval::features(pos.size(), own, other);
    assert_eq!(f, [1, 0, 0, 2, 3, -1, 1, 1]);
    // From O's side (O to move) every side-owned count changes sign; to_move stays 1.
    let pos: Quixo = "XXXX./...../..O../...../..O.. O".parse().unwrap();
    let (own, other) = pos.own_other();
    let f = tessera::games::quixo::eval::features(pos.size(), own, other);
    assert_eq!(f, [-1, 0, 0, -2, -3, 1, -1, 1]);
}

#[test]
fn talat_estimates_are_the_realised_points_plus_the_weighted_features() {
    let w = odd_weights(tessera::games::talat::eval::PARAMS);
    let eval = TalatEval::new(TW(w.clone()));
    let mut live_terms = 0;
    let mut realised = 0;
    for pos in walk::<Talat>(12, 200) {
        let f = features(&pos);
        let est = eval.estimates(&pos);
        for s in 0..3 {
            let dot: i32 = f[s][1..].iter().zip(&w).map(|(a, b)| a * b).sum();
            assert_eq!(est[s], f[s][0] + dot, "{pos}");
            live_terms += usize::from(dot != 0);
            realised += usize::from(f[s][0] != 0);
        }
    }
    for pos in walk::<Talat2p>(12, 200) {
        let f = features(&pos);
        let est = eval.estimates(&pos);
        assert_eq!(f[2], [0; FEATURES], "no third seat in talat-2p");
        let me = pos.seat_to_move();
        let dot = |s: usize| -> i32 { f[s][1..].iter().zip(&w).map(|(a, b)| a * b).sum() };
        assert_eq!(est[me], f[me][0] + dot(me));
        // The two-player score is the side to move's estimate minus the other's.
        assert_eq!(
            Evaluator::evaluate(&eval, &pos),
            (est[me] - est[1 - me]).clamp(-29_999, 29_999)
        );
    }
    assert!(
        live_terms > 1000 && realised > 100,
        "{live_terms} {realised}"
    );
}

fn sample(position: String, result: i32, scores: Vec<i32>) -> Sample {
    Sample {
        position,
        result,
        exact: None,
        scores,
    }
}

#[test]
fn talat_rows_compare_seats_by_their_final_scores() {
    let pos = walk::<Talat>(1, 60).pop().unwrap();
    let f = features(&pos);
    // Seat 1 first, seats 0 and 2 level: rows (0,1) lost, (0,2) drawn, (1,2) won.
    let scores = vec![150, 171, 150];
    let me = pos.seat_to_move();
    let best_other = (0..3)
        .filter(|&o| o != me)
        .map(|o| scores[o])
        .max()
        .unwrap();
    let margin = scores[me] - best_other;
    let mut data = TexelData::new(Talat::REGISTRY.len());
    // A result that contradicts the scores is refused.
    let e = Talat::add_rows(
        &sample(pos.to_string(), margin + 10, scores.clone()),
        &mut data,
    )
    .unwrap_err();
    assert!(e.contains("best other"), "{e}");
    assert!(data.is_empty());
    Talat::add_rows(&sample(pos.to_string(), margin, scores), &mut data).unwrap();
    assert_eq!(data.result, vec![0.0, 0.5, 1.0]);
    let w = data.width;
    for (row, (a, b)) in [(0, 1), (0, 2), (1, 2)].into_iter().enumerate() {
        assert_eq!(data.offset[row], (f[a][0] - f[b][0]) as f32);
        for k in 0..w {
            assert_eq!(data.coef[row * w + k], (f[a][k + 1] - f[b][k + 1]) as f32);
        }
    }
    // Without the per-seat scores the sample is refused, by name.
    let e = Talat::add_rows(&sample(pos.to_string(), 0, vec![]), &mut data).unwrap_err();
    assert!(e.contains("every seat's final score"), "{e}");
    // A talat-2p sample: one row, side to move minus the other, labelled by the margin.
    let p2 = walk::<Talat2p>(1, 60).pop().unwrap();
    let f2 = features(&p2);
    let me = p2.seat_to_move();
    let mut d2 = TexelData::new(Talat2p::REGISTRY.len());
    Talat2p::add_rows(&sample(p2.to_string(), -30, vec![]), &mut d2).unwrap();
    assert_eq!(d2.result, vec![0.0]);
    assert_eq!(d2.offset[0], (f2[me][0] - f2[1 - me][0]) as f32);
    // A position of the other variant does not parse.
    assert!(Talat::add_rows(&sample(p2.to_string(), 0, vec![1, 2, 3]), &mut data).is_err());
}

#[test]
fn quixo_rows_are_the_side_to_moves_features_and_result() {
    let mut data = TexelData::new(Quixo::REGISTRY.len());
    let text = "XXXX./...../..O../...../..O.. X".to_string();
    for r in [1, 0, -1] {
        Quixo::add_rows(&sample(text.clone(), r, vec![]), &mut data).unwrap();
    }
    assert_eq!(data.result, vec![1.0, 0.5, 0.0]);
    assert_eq!(&data.coef[..8], &[1.0, 0.0, 0.0, 2.0, 3.0, -1.0, 1.0, 1.0]);
    assert!(data.offset.iter().all(|&o| o == 0.0));
    let e = Quixo::add_rows(&sample("nonsense".into(), 1, vec![]), &mut data).unwrap_err();
    assert!(!e.is_empty());
    let e = Quixo::add_rows(&sample(text, 5, vec![]), &mut data).unwrap_err();
    assert!(e.contains("1, 0 or -1"), "{e}");
}
