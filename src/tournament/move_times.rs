//! Time per move by engine, from the records alone: who made each move (found by replaying
//! the game with the rules, as the runner asked the seat to move), the seconds the engine
//! reported for it (`move_stats`), and the statistics over each engine's moves with forced
//! passes left out.

use std::collections::BTreeMap;

use serde::Serialize;

use super::record::GameRecord;
use crate::game::Game;

/// How every game writes its forced pass in the records (Othello, four-player Quixo and
/// Talat all print their pass move as `pass`): a move that is no decision.
pub const PASS: &str = "pass";

/// The seat (index into `record.engines`) that made each move of `record`, and the position
/// after the last one: the moves are replayed from `start` with the rules of `G`, and each
/// move's seat is the seat to move before it, the one the runner asked. Passes, rotations
/// that skip a seat and team games need no special case.
///
/// # Errors
/// A start position or a move the rules refuse, naming the game id (and the move).
pub fn movers<G: Game>(record: &GameRecord) -> Result<(Vec<usize>, G), String> {
    let (mut pos, opening) = G::parse_opening(&record.start)
        .map_err(|e| format!("game {}: bad start position: {e}", record.id))?;
    for m in opening {
        pos = pos.play(m);
    }
    let mut seats = Vec::with_capacity(record.moves.len());
    for (i, text) in record.moves.iter().enumerate() {
        seats.push(pos.to_move().index());
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("game {} move {}: {e}", record.id, i + 1))?;
        pos = pos.play(mv);
    }
    Ok((seats, pos))
}

/// Statistics of one engine's move times, milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveTimes {
    /// Moves timed.
    pub moves: u64,
    /// Arithmetic mean, ms.
    pub mean: f64,
    /// Median, ms: the middle time, or the mean of the two middle ones for an even count.
    pub median: f64,
    /// 90th percentile by nearest rank, ms: the time at 1-based rank `ceil(0.9 n)` of the
    /// `n` times sorted ascending, i.e. the smallest time that at least 90 % of the moves do
    /// not exceed (of 5 moves the 5th, of 10 the 9th, of 20 the 18th).
    pub p90: f64,
    /// The longest time, ms.
    pub max: f64,
}

impl MoveTimes {
    /// The statistics of `ms` (milliseconds, any order); `None` when it is empty.
    #[must_use]
    pub fn of(ms: &[f64]) -> Option<Self> {
        if ms.is_empty() {
            return None;
        }
        let mut sorted = ms.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])
        };
        let rank = (9 * n).div_ceil(10).max(1);
        Some(Self {
            moves: n as u64,
            mean: sorted.iter().sum::<f64>() / n as f64,
            median,
            p90: sorted[rank - 1],
            max: sorted[n - 1],
        })
    }
}

/// Each engine's move-time statistics over `records` (by engine name; an engine without a
/// timed move is absent). A move counts when its record has one `move_stats` entry per
/// move (records written before `move_stats` existed have none and contribute nothing), it
/// is not a [`PASS`], and its seconds are a duration (finite, not negative); its engine is
/// the one in the seat [`movers`] finds. A record that does not replay, or whose
/// `move_stats` do not match its moves, is left out whole rather than guessed at.
#[must_use]
pub fn by_engine<G: Game>(records: &[GameRecord]) -> BTreeMap<String, MoveTimes> {
    let mut ms: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in records {
        if r.move_stats.is_empty() || r.move_stats.len() != r.moves.len() {
            continue;
        }
        let Ok((seats, _)) = movers::<G>(r) else {
            continue;
        };
        for ((text, stat), seat) in r.moves.iter().zip(&r.move_stats).zip(seats) {
            let Some(engine) = r.engines.get(seat) else {
                continue;
            };
            if text == PASS || !(stat.seconds.is_finite() && stat.seconds >= 0.0) {
                continue;
            }
            ms.entry(engine).or_default().push(1000.0 * stat.seconds);
        }
    }
    ms.into_iter()
        .filter_map(|(name, v)| MoveTimes::of(&v).map(|t| (name.to_string(), t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;
    use crate::tournament::record::MoveStat;

    #[test]
    fn statistics_of_hand_made_times() {
        // Sorted 1, 2, 3, 4, 100: mean 110 / 5 = 22, median the 3rd = 3, p90 at rank
        // ceil(4.5) = 5 = 100, max 100.
        let t = MoveTimes::of(&[4.0, 100.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(
            t,
            MoveTimes {
                moves: 5,
                mean: 22.0,
                median: 3.0,
                p90: 100.0,
                max: 100.0
            }
        );
        // Ten times 1..=10: mean 5.5, median (5 + 6) / 2 = 5.5, p90 at rank 9 = 9.
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        let t = MoveTimes::of(&ten).unwrap();
        assert_eq!((t.mean, t.median, t.p90, t.max), (5.5, 5.5, 9.0, 10.0));
        // Eleven: p90 at rank ceil(9.9) = 10.
        let eleven: Vec<f64> = (1..=11).map(f64::from).collect();
        assert_eq!(MoveTimes::of(&eleven).unwrap().p90, 10.0);
        // One time is every statistic.
        let one = MoveTimes::of(&[7.5]).unwrap();
        assert_eq!(
            (one.mean, one.median, one.p90, one.max),
            (7.5, 7.5, 7.5, 7.5)
        );
        assert_eq!(MoveTimes::of(&[]), None);
    }

    /// An Othello record from `start` with `moves` and per-move seconds.
    fn record(start: &str, moves: &[&str], seconds: &[f64]) -> GameRecord {
        GameRecord {
            id: 4,
            block: 0,
            round: 0,
            game: "othello".into(),
            seed: 1,
            engines: vec!["a".into(), "b".into()],
            opening: String::new(),
            start: start.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            scores: Vec::new(),
            points: vec![0.5, 0.5],
            ranks: vec![1, 1],
            reason: super::super::record::Reason::PlyCap,
            detail: None,
            seconds: 1.0,
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
            overrun_ms: None,
            teams: Vec::new(),
            move_stats: seconds
                .iter()
                .map(|&s| MoveStat {
                    score: 0,
                    seconds: s,
                })
                .collect(),
        }
    }

    #[test]
    fn movers_follow_the_rules_through_a_pass() {
        // White to move (`O`) with no placement: it passes, then Black (seat 0, `a`) plays.
        // Black on a1 and b1, White's only disc on c1: White cannot flip anything; Black
        // plays d1, flipping c1, which ends the game (White has no disc left).
        let start = format!("XXO{} O", "-".repeat(61));
        let r = record(&start, &["pass", "d1"], &[0.001, 0.004]);
        let (seats, end) = movers::<Position>(&r).unwrap();
        assert_eq!(seats, vec![1, 0]);
        assert!(
            end.to_string()
                .starts_with(&format!("XXXX{}", "-".repeat(60)))
        );
        assert!(end.outcome().is_some());
        // The pass is no decision: `b` has no timed move, `a` has d1's 4 ms.
        let t = by_engine::<Position>(&[r]);
        assert_eq!(t.len(), 1);
        assert_eq!(t["a"].moves, 1);
        assert!((t["a"].mean - 4.0).abs() < 1e-9);
    }

    #[test]
    fn odd_records_contribute_nothing() {
        let start = Position::start().to_string();
        // Before move_stats existed; move_stats not matching the moves; a move the rules
        // refuse; a negative time (that move alone is left out).
        let old = record(&start, &["f5", "d6"], &[]);
        let short = record(&start, &["f5", "d6"], &[0.01]);
        let illegal = record(&start, &["f5", "a1"], &[0.01, 0.02]);
        let negative = record(&start, &["f5", "d6"], &[-0.01, 0.02]);
        let t = by_engine::<Position>(&[old, short, illegal.clone(), negative]);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t["b"].moves, 1);
        assert!((t["b"].max - 20.0).abs() < 1e-9);
        assert_eq!(
            movers::<Position>(&illegal).unwrap_err(),
            format!(
                "game 4 move 2: {}",
                Position::start()
                    .play(Position::start().parse_move("f5").unwrap())
                    .parse_move("a1")
                    .unwrap_err()
            )
        );
    }
}
