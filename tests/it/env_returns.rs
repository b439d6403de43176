//! The environments' returns are the tournament's points: `env::returns::points` against
//! `GameRecord::points_from_ranks` and `share_team_points` (what the tournament runner
//! writes) over every outcome of small score ranges, for each game's seats and teams.

use tessera::env::returns::points;
use tessera::game::{BySeat, Game, Outcome, Seat};
use tessera::games::{othello, quixo, talat};
use tessera::tournament::record::{GameRecord, Reason};

fn record_points<G: Game>(pos: &G, outcome: &Outcome) -> Vec<f64> {
    let n = pos.seats();
    let ranks: Vec<usize> = (0..n).map(|s| outcome.rank(Seat(s as u8))).collect();
    let teams: Vec<u8> = (0..n).map(|s| pos.team(Seat(s as u8))).collect();
    let mut distinct = teams.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let mut rec = GameRecord {
        id: 0,
        block: 0,
        round: 0,
        game: G::ID.into(),
        seed: 0,
        engines: vec![String::new(); n],
        opening: String::new(),
        start: pos.to_string(),
        moves: Vec::new(),
        scores: outcome.scores.as_slice().to_vec(),
        points: GameRecord::points_from_ranks(&ranks),
        ranks,
        reason: Reason::Normal,
        detail: None,
        seconds: 0.0,
        move_ms: Vec::new(),
        clock_ms: Vec::new(),
        overrun_ms: None,
        teams: if distinct.len() == n {
            Vec::new()
        } else {
            teams
        },
        move_stats: Vec::new(),
    };
    rec.share_team_points();
    rec.points
}

/// Every score vector with values in `0..3` per seat (team games: teammates equal, as the
/// rules give them).
fn check_all<G: Game>(pos: &G) {
    let n = pos.seats();
    let mut checked = 0;
    for code in 0..3usize.pow(n as u32) {
        let scores: Vec<i32> = (0..n)
            .map(|s| (code / 3usize.pow(s as u32) % 3) as i32)
            .collect();
        let teammates_agree = (0..n).all(|a| {
            (0..n).all(|b| {
                pos.team(Seat(a as u8)) != pos.team(Seat(b as u8)) || scores[a] == scores[b]
            })
        });
        if !teammates_agree {
            continue;
        }
        let outcome = Outcome::new(BySeat::from_slice(&scores));
        let mut ours = vec![0.0; n];
        points(pos, Some(&outcome), &mut ours);
        assert_eq!(
            ours,
            record_points(pos, &outcome),
            "{} scores {scores:?}",
            G::ID
        );
        checked += 1;
    }
    assert!(checked >= 9, "{}", G::ID);
}

#[test]
fn returns_equal_the_tournament_points_for_every_game() {
    check_all(&othello::Position::start());
    check_all(&quixo::Quixo::start());
    check_all(&quixo::Quixo4p::start());
    check_all(&talat::Talat::start());
    check_all(&talat::Talat2p::start());
}
