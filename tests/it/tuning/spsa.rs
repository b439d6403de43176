//! SPSA matches: antisymmetric in the two sides, exactly even between identical engines (in
//! every seating), and won by the stronger engine, for two- and three-seat games.

use tessera::engine::talat::{make_player, make_player_2p};
use tessera::engine::{EngineSpec, Player};
use tessera::game::Game;
use tessera::games::talat::{Talat, Talat2p};
use tessera::search::Limits;
use tessera::tournament::openings::OpeningSource;
use tessera::tuning::spsa::play_match;

/// A three-player engine and its limits (the spec's depth).
fn talat(spec: &str) -> (Box<dyn Player<Talat>>, Limits) {
    let spec = EngineSpec::from_inline(spec, "talat").unwrap();
    (make_player(&spec).unwrap(), spec.limits())
}

/// A talat-2p engine and its limits.
fn talat_2p(spec: &str) -> (Box<dyn Player<Talat2p>>, Limits) {
    let spec = EngineSpec::from_inline(spec, "talat-2p").unwrap();
    (make_player_2p(&spec).unwrap(), spec.limits())
}

fn opening<G: Game>(round: usize) -> G {
    OpeningSource::RandomPlies(12)
        .opening::<G>(round, 5)
        .unwrap()
        .position
}

#[test]
fn three_seat_matches_are_antisymmetric_even_for_twins_and_won_by_the_stronger() {
    let (mut strong, ls) = talat("name=s,algo=brs-plus,depth=3,tt-mb=1");
    let (mut weak, lw) = talat("name=w,algo=brs-plus,depth=1,tt-mb=1");
    let (mut third, lt) = talat("name=m,algo=brs-plus,depth=2,tt-mb=1");
    let mut total = 0.0;
    for round in 0..4 {
        let start: Talat = opening(round);
        let r = play_match(
            strong.as_mut(),
            weak.as_mut(),
            Some(third.as_mut()),
            [&ls, &lw, &lt],
            &start,
            1000,
        )
        .unwrap();
        let back = play_match(
            weak.as_mut(),
            strong.as_mut(),
            Some(third.as_mut()),
            [&lw, &ls, &lt],
            &start,
            1000,
        )
        .unwrap();
        assert!((-1.0..=1.0).contains(&r));
        // Deterministic engines: swapping the sides negates the result exactly.
        assert!((r + back).abs() < 1e-12, "{r} vs {back}");
        // Twins: in every seating each side has the other's seat once, so exactly even.
        let (mut twin, _) = talat("name=w2,algo=brs-plus,depth=1,tt-mb=1");
        let even = play_match(
            weak.as_mut(),
            twin.as_mut(),
            Some(third.as_mut()),
            [&lw, &lw, &lt],
            &start,
            1000,
        )
        .unwrap();
        assert!(even.abs() < 1e-12, "{even}");
        total += r;
    }
    assert!(total > 0.0, "depth 3 did not beat depth 1: {total}");
    // Three seats need the third engine.
    let start: Talat = opening(0);
    assert!(
        play_match(
            strong.as_mut(),
            weak.as_mut(),
            None,
            [&ls, &lw, &lt],
            &start,
            1000
        )
        .is_err()
    );
}

#[test]
fn two_seat_matches_are_colour_swapped_pairs() {
    let (mut strong, ls) = talat_2p("name=s,depth=4,tt-mb=1");
    let (mut weak, lw) = talat_2p("name=w,depth=1,tt-mb=1");
    let mut total = 0.0;
    for round in 0..6 {
        let start: Talat2p = opening(round);
        let r = play_match(
            strong.as_mut(),
            weak.as_mut(),
            None,
            [&ls, &lw, &lw],
            &start,
            1000,
        )
        .unwrap();
        let back = play_match(
            weak.as_mut(),
            strong.as_mut(),
            None,
            [&lw, &ls, &ls],
            &start,
            1000,
        )
        .unwrap();
        assert!((r + back).abs() < 1e-12, "{r} vs {back}");
        // A pair's result is a multiple of 1/2: each game is won, drawn or lost.
        assert!((r * 2.0).fract().abs() < 1e-12, "{r}");
        total += r;
    }
    assert!(total > 0.0, "depth 4 did not beat depth 1: {total}");
}
