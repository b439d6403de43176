//! Results by seat: how each seat (colour, turn position) fared over all games, whoever sat
//! there. Every opening is played in every seat rotation (see [`super::schedule`]), so each
//! engine sits in each seat equally often and a difference between seats is the seat's
//! advantage, not the engines'.
//!
//! Per seat: games, mean score (points: 1 win, 1/2 draw, 0 loss; more seats: see
//! [`GameRecord::points`]) with a 95 % Wilson interval over blocks, and the shares of wins (sole first
//! place), draws (first place shared) and losses (any other place) with 95 % Wilson
//! intervals. A fair seat scores 1/2 in every game size, since the points of a game sum
//! to `seats / 2`.
//!
//! Repeats: a game whose start and moves equal another game's of the same block is counted
//! once. Copies of one deterministic engine play the same game in every seat rotation of an
//! opening, and counting it once per rotation would double the evidence. The score's
//! interval is taken over blocks (the mean of each block's games for the seat), so games
//! sharing an opening are not taken as independent.

use serde::Serialize;

use super::record::GameRecord;
use super::stats::proportion::{self, Interval};

/// The confidence of every interval in the per-seat table.
pub const CONFIDENCE: f64 = 0.95;

/// One seat's results.
#[derive(Clone, Debug, Serialize)]
pub struct SeatRow {
    /// Seat index (0 moves or places first in every game's start position; in team games
    /// the side of seat 0's team).
    pub seat: usize,
    /// The seat's name for people (`Black (X)`); `seat N` until a caller that knows the
    /// game names it.
    pub name: String,
    /// Games counted (repeats within a block counted once).
    pub games: u64,
    /// Blocks (openings) the games come from.
    pub blocks: u64,
    /// Sole first places.
    pub wins: u64,
    /// Shared first places.
    pub draws: u64,
    /// Other places.
    pub losses: u64,
    /// Mean points per game (the mean of the blocks' means), with its 95 % Wilson interval
    /// over blocks ([`proportion::wilson_mean`]).
    pub score: Interval,
    /// Share of wins, 95 % Wilson interval.
    pub win: Interval,
    /// Share of draws, 95 % Wilson interval.
    pub draw: Interval,
    /// Share of losses, 95 % Wilson interval.
    pub loss: Interval,
}

impl SeatRow {
    /// Whether the seat's score interval excludes the fair 1/2: `+1` favoured, `-1`
    /// disfavoured, `0` not shown to differ.
    #[must_use]
    pub fn verdict(&self) -> i32 {
        if self.score.lower > 0.5 {
            1
        } else if self.score.upper < 0.5 {
            -1
        } else {
            0
        }
    }
}

/// The per-seat table of `records`, taken as their sides saw them (team games: one row per
/// team). Records of another number of sides than the first record's are skipped.
#[must_use]
pub fn by_seat(records: &[GameRecord]) -> Vec<SeatRow> {
    let sides: Vec<GameRecord> = records
        .iter()
        .map(|r| r.sides_view().into_owned())
        .collect();
    let Some(n) = sides.first().map(|r| r.points.len()) else {
        return Vec::new();
    };
    // Distinct games per block, in record order.
    let mut blocks: std::collections::BTreeMap<usize, Vec<&GameRecord>> =
        std::collections::BTreeMap::new();
    for r in sides
        .iter()
        .filter(|r| r.points.len() == n && r.ranks.len() == n)
    {
        let games = blocks.entry(r.block).or_default();
        if !games
            .iter()
            .any(|g| g.start == r.start && g.moves == r.moves && !r.moves.is_empty())
        {
            games.push(r);
        }
    }
    (0..n)
        .map(|seat| {
            let mut block_means = Vec::with_capacity(blocks.len());
            let (mut games, mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64, 0u64);
            for block in blocks.values() {
                let mut sum = 0.0;
                for r in block {
                    sum += r.points[seat];
                    games += 1;
                    let firsts = r.ranks.iter().filter(|&&x| x == 1).count();
                    match (r.ranks[seat], firsts) {
                        (1, 1) => wins += 1,
                        (1, _) => draws += 1,
                        _ => losses += 1,
                    }
                }
                block_means.push(sum / block.len() as f64);
            }
            SeatRow {
                seat,
                name: format!("seat {seat}"),
                games,
                blocks: blocks.len() as u64,
                wins,
                draws,
                losses,
                score: proportion::wilson_mean(
                    block_means.iter().sum(),
                    block_means.len() as u64,
                    CONFIDENCE,
                ),
                win: proportion::wilson(wins, games, CONFIDENCE),
                draw: proportion::wilson(draws, games, CONFIDENCE),
                loss: proportion::wilson(losses, games, CONFIDENCE),
            }
        })
        .collect()
}

/// `x` in [0, 1] as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// An interval as `[lo, hi]` in percent.
#[must_use]
pub fn interval_text(i: &Interval) -> String {
    format!("[{}, {}]", pct(i.lower), pct(i.upper))
}

/// The per-seat table as text (a heading line, a column line, one line per seat).
#[must_use]
pub fn render(rows: &[SeatRow]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let _ = writeln!(
        s,
        "{:<w$} {:>6} {:>7} {:>14} {:>6} {:>14} {:>6} {:>14} {:>6} {:>14}",
        "seat",
        "games",
        "score%",
        "95 %",
        "win%",
        "95 % Wilson",
        "draw%",
        "95 % Wilson",
        "loss%",
        "95 % Wilson"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<w$} {:>6} {:>7} {:>14} {:>6} {:>14} {:>6} {:>14} {:>6} {:>14}",
            r.name,
            r.games,
            pct(r.score.value),
            interval_text(&r.score),
            pct(r.win.value),
            interval_text(&r.win),
            pct(r.draw.value),
            interval_text(&r.draw),
            pct(r.loss.value),
            interval_text(&r.loss)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::Reason;

    fn rec(block: usize, engines: &[&str], ranks: Vec<usize>) -> GameRecord {
        GameRecord {
            id: block * engines.len(),
            block,
            round: block,
            game: "othello".into(),
            seed: 1,
            engines: engines.iter().map(|s| (*s).to_string()).collect(),
            opening: String::new(),
            start: String::new(),
            moves: vec![format!("{engines:?} {ranks:?}")],
            move_stats: Vec::new(),
            scores: Vec::new(),
            points: GameRecord::points_from_ranks(&ranks),
            ranks,
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
    fn two_seats_counted_by_seat_not_engine() {
        // Seat 0 wins three games (whoever sits there), one draw.
        let r = vec![
            rec(0, &["a", "b"], vec![1, 2]),
            rec(0, &["b", "a"], vec![1, 2]),
            rec(1, &["a", "b"], vec![1, 2]),
            rec(1, &["b", "a"], vec![1, 1]),
        ];
        let rows = by_seat(&r);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].wins, rows[0].draws, rows[0].losses), (3, 1, 0));
        assert_eq!((rows[1].wins, rows[1].draws, rows[1].losses), (0, 1, 3));
        assert!((rows[0].score.value - 0.875).abs() < 1e-12);
        assert!((rows[1].score.value - 0.125).abs() < 1e-12);
        assert_eq!(rows[0].win, proportion::wilson(3, 4, CONFIDENCE));
        let text = render(&rows);
        assert!(text.contains("87.5") && text.contains("12.5"), "{text}");
    }

    #[test]
    fn three_seats_and_team_games() {
        // Places (2, 1, 3): seat 1 wins alone; seat 0 scores 1/2, seat 2 scores 0.
        let r = vec![rec(0, &["a", "b", "c"], vec![2, 1, 3])];
        let rows = by_seat(&r);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1].wins, 1);
        assert_eq!(rows[0].losses, 1);
        assert!((rows[0].score.value - 0.5).abs() < 1e-12);
        // A four-seat team game is two sides: team of seat 0 (seats 0, 2) lost.
        let mut t = rec(0, &["a", "b", "a", "b"], vec![2, 1, 2, 1]);
        t.teams = vec![0, 1, 0, 1];
        t.share_team_points();
        let rows = by_seat(&[t]);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].losses, rows[1].wins), (1, 1));
        assert!(by_seat(&[]).is_empty());
    }

    #[test]
    fn repeated_games_count_once_and_blocks_carry_the_interval() {
        // Identical deterministic engines: both games of a block are the same game.
        let mut r = Vec::new();
        for b in 0..3 {
            for e in [["a", "b"], ["b", "a"]] {
                let mut g = rec(b, &e, if b == 2 { vec![2, 1] } else { vec![1, 2] });
                g.moves = vec![format!("game of block {b}")];
                r.push(g);
            }
        }
        let rows = by_seat(&r);
        assert_eq!((rows[0].games, rows[0].blocks), (3, 3));
        assert_eq!((rows[0].wins, rows[0].losses), (2, 1));
        // Block means 1, 1, 0: 2 of 3 blocks, Wilson over blocks (0.2077, 0.9385).
        assert!((rows[0].score.value - 2.0 / 3.0).abs() < 1e-12);
        assert!(
            (rows[0].score.lower - 0.2077).abs() < 5e-5,
            "{:?}",
            rows[0].score
        );
        assert!(
            (rows[0].score.upper - 0.9385).abs() < 5e-5,
            "{:?}",
            rows[0].score
        );
    }
}
