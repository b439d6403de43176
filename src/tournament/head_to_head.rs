//! Head-to-head comparisons in games of three or more sides (three-player Talat): for each
//! pair of engines, the games they played together, how often each finished ahead of the
//! other (a shared place is a tie), and the Elo difference implied by those comparisons
//! (each game one trinomial unit: ahead = win, tie = draw, behind = loss).
//!
//! The comparisons inside one game are not independent of the other seats' results, so the
//! error bar is that of the pairwise sample alone; the rating list's Plackett-Luce fit is the
//! model of whole finishing orders.

use serde::Serialize;

use super::record::GameRecord;
use super::stats::elo::Trinomial;

/// One pair of engines, from `a`'s view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// First engine (the view the numbers take).
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Games in which both took part.
    pub games: u64,
    /// Games in which `a` finished ahead of `b`.
    pub a_ahead: u64,
    /// Games in which `b` finished ahead of `a`.
    pub b_ahead: u64,
    /// Games in which they shared a place.
    pub tied: u64,
    /// `a`'s score over these comparisons, `(a_ahead + tied / 2) / games`.
    pub score: f64,
    /// Logistic Elo difference `a - b` of that score (`null` in JSON when infinite: one side
    /// was ahead every time).
    pub elo: f64,
    /// 95 % error bar of `elo` (`null` in JSON, with `note`, when there is none: see
    /// [`EloReport::absent_reason`](super::stats::elo::EloReport::absent_reason)).
    pub elo_error: f64,
    /// Why `elo_error` is absent, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The comparisons of every pair of `names` (in that order) over records of three or more
/// sides (team games collapsed to sides first); pairs that never met are left out.
#[must_use]
pub fn comparisons(names: &[String], records: &[GameRecord]) -> Vec<Comparison> {
    let mut out = Vec::new();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let mut t = Trinomial::default();
            for r in records.iter().filter(|r| r.engines.len() >= 3) {
                let seat = |n: &str| r.engines.iter().position(|e| e == n);
                let (Some(x), Some(y)) = (seat(&names[i]), seat(&names[j])) else {
                    continue;
                };
                let (Some(&rx), Some(&ry)) = (r.ranks.get(x), r.ranks.get(y)) else {
                    continue;
                };
                match rx.cmp(&ry) {
                    std::cmp::Ordering::Less => t.wins += 1,
                    std::cmp::Ordering::Greater => t.losses += 1,
                    std::cmp::Ordering::Equal => t.draws += 1,
                }
            }
            if t.games() == 0 {
                continue;
            }
            let rep = t.report();
            out.push(Comparison {
                a: names[i].clone(),
                b: names[j].clone(),
                games: t.games(),
                a_ahead: t.wins,
                b_ahead: t.losses,
                tied: t.draws,
                score: rep.score,
                elo: rep.elo,
                elo_error: if rep.elo.is_finite() && rep.has_spread() && rep.elo_error.is_finite() {
                    rep.elo_error
                } else {
                    f64::NAN
                },
                note: rep.absent_reason(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::Reason;

    fn game(engines: [&str; 3], ranks: [usize; 3]) -> GameRecord {
        GameRecord {
            id: 0,
            block: 0,
            round: 0,
            game: "talat".into(),
            seed: 1,
            engines: engines.map(String::from).to_vec(),
            opening: String::new(),
            start: String::new(),
            moves: Vec::new(),
            move_stats: Vec::new(),
            scores: Vec::new(),
            points: GameRecord::points_from_ranks(&ranks),
            ranks: ranks.to_vec(),
            reason: Reason::Normal,
            detail: None,
            seconds: 0.0,
            teams: Vec::new(),
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
            overrun_ms: None,
        }
    }

    #[test]
    fn pairs_count_who_finished_ahead() {
        let names: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let records = [
            game(["x", "y", "z"], [1, 2, 3]),
            game(["y", "z", "x"], [1, 3, 2]),
            game(["z", "x", "y"], [1, 1, 3]),
            game(["x", "z", "y"], [2, 2, 1]),
        ];
        let c = comparisons(&names, &records);
        assert_eq!(c.len(), 3);
        // x-y: x ahead in games 1 and 3, y ahead in games 2 and 4.
        assert_eq!((c[0].a.as_str(), c[0].b.as_str()), ("x", "y"));
        assert_eq!(
            (c[0].games, c[0].a_ahead, c[0].b_ahead, c[0].tied),
            (4, 2, 2, 0)
        );
        assert!(c[0].elo.abs() < 1e-9);
        // x-z: x ahead in games 1 and 2, tied in 3 and 4: score 3/4, Elo 400 log10(3).
        assert_eq!(
            (c[1].games, c[1].a_ahead, c[1].b_ahead, c[1].tied),
            (4, 2, 0, 2)
        );
        assert!((c[1].score - 0.75).abs() < 1e-12);
        assert!(
            (c[1].elo - 400.0 * 3f64.log10()).abs() < 1e-9,
            "{}",
            c[1].elo
        );
        // y-z: y ahead in games 1, 2 and 4; z ahead in game 3.
        assert_eq!((c[2].a_ahead, c[2].b_ahead, c[2].tied), (3, 1, 0));
        // Two-seat records have no comparisons here.
        let two = GameRecord {
            engines: vec!["x".into(), "y".into()],
            ranks: vec![1, 2],
            ..game(["x", "y", "z"], [1, 2, 3])
        };
        assert!(comparisons(&names, &[two]).is_empty());
    }
}
