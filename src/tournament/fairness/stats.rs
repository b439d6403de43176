//! Seat fairness: identical engines in every seat rotation, summarised per seat, per
//! opening suite, per strength level and per rules variant, with the trend of each seat's
//! score as the engines get stronger.
//!
//! Each row is one tournament of copies of one engine (see [`crate::tournament::runner`]): since the
//! engines are the same, every difference between the seats' scores is the seat's.

use serde::Serialize;

use crate::tournament::seats::SeatRow;
use crate::tournament::stats::proportion::z_of;

/// One tournament of identical engines: a rules variant, an opening suite and a strength.
#[derive(Clone, Debug, Serialize)]
pub struct FairnessRow {
    /// Rules variant (`rules` for the game as written; Talat's `[choice]` points otherwise).
    pub variant: String,
    /// Opening suite (`start`, `random-8`, a file name).
    pub openings: String,
    /// Strength level (`depth 4`, `100 ms`), weakest first within a suite.
    pub level: String,
    /// Order of the level, 0 = weakest.
    pub level_index: usize,
    /// The tournament directory of the row's records.
    pub dir: String,
    /// Games counted.
    pub games: usize,
    /// Distinct games (by their moves): deterministic engines from one position play one
    /// game per seat order however many rounds are scheduled.
    pub distinct: usize,
    /// Results by seat.
    pub seats: Vec<SeatRow>,
}

/// How one seat's score changes from the weakest to the strongest level of a suite.
#[derive(Clone, Debug, Serialize)]
pub struct Trend {
    /// Rules variant.
    pub variant: String,
    /// Opening suite.
    pub openings: String,
    /// Seat index.
    pub seat: usize,
    /// Seat name.
    pub name: String,
    /// Weakest level and the seat's score there.
    pub from: (String, f64),
    /// Strongest level and the seat's score there.
    pub to: (String, f64),
    /// Score change (strongest minus weakest) with its 95 % interval (normal, from the two
    /// levels' independent intervals).
    pub change: f64,
    /// Lower end of the change's interval.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
    /// `grows` (the seat's distance from 1/2 increases, interval excluding 0), `shrinks`,
    /// or `no significant change`.
    pub direction: String,
}

impl Trend {
    /// The trend in words, from the seat's side of the fair 1/2 at both levels: an
    /// advantage or a disadvantage that grows or shrinks, or a seat that crosses from behind
    /// to ahead (or back); empty for `no significant change`.
    #[must_use]
    pub fn reading(&self) -> String {
        if self.direction == "no significant change" {
            return String::new();
        }
        let (from, to) = (self.from.1, self.to.1);
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        if (from - 0.5) * (to - 0.5) < 0.0 {
            return if from < 0.5 {
                format!(
                    "the seat goes from behind ({}) to ahead ({})",
                    pct(from),
                    pct(to)
                )
            } else {
                format!(
                    "the seat goes from ahead ({}) to behind ({})",
                    pct(from),
                    pct(to)
                )
            };
        }
        let what = if from < 0.5 || (from == 0.5 && to < 0.5) {
            "disadvantage"
        } else {
            "advantage"
        };
        format!("the seat's {what} {}", self.direction)
    }
}

/// The standard error of a seat's score from its 95 % interval (half-width / z).
fn standard_error(row: &SeatRow) -> f64 {
    (row.score.upper - row.score.lower) / (2.0 * z_of(crate::tournament::seats::CONFIDENCE))
}

/// The trend of every seat (two sides: the first seat only, the other mirrors it) in every
/// (variant, openings) group with at least two levels, whose weakest and strongest rows
/// each hold games from at least two blocks.
#[must_use]
pub fn trends(rows: &[FairnessRow]) -> Vec<Trend> {
    let mut out = Vec::new();
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        let key = (r.variant.as_str(), r.openings.as_str());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    for (variant, openings) in groups {
        let mut g: Vec<&FairnessRow> = rows
            .iter()
            .filter(|r| r.variant == variant && r.openings == openings && r.games > 0)
            .collect();
        g.sort_by_key(|r| r.level_index);
        let (Some(lo), Some(hi)) = (g.first(), g.last()) else {
            continue;
        };
        // A row of one block (one game) has no interval to compare.
        let measured = |r: &FairnessRow| r.seats.iter().all(|s| s.blocks >= 2);
        if lo.level_index == hi.level_index
            || lo.seats.len() != hi.seats.len()
            || !measured(lo)
            || !measured(hi)
        {
            continue;
        }
        let seats = if lo.seats.len() == 2 {
            1
        } else {
            lo.seats.len()
        };
        for s in 0..seats {
            let (a, b) = (&lo.seats[s], &hi.seats[s]);
            let change = b.score.value - a.score.value;
            let half = z_of(crate::tournament::seats::CONFIDENCE)
                * (standard_error(a).powi(2) + standard_error(b).powi(2)).sqrt();
            let (lower, upper) = (change - half, change + half);
            let significant = lower > 0.0 || upper < 0.0;
            let farther = (b.score.value - 0.5).abs() > (a.score.value - 0.5).abs();
            let direction = match (significant, farther) {
                (false, _) => "no significant change",
                (true, true) => "grows",
                (true, false) => "shrinks",
            };
            out.push(Trend {
                variant: variant.into(),
                openings: openings.into(),
                seat: s,
                name: a.name.clone(),
                from: (lo.level.clone(), a.score.value),
                to: (hi.level.clone(), b.score.value),
                change,
                lower,
                upper,
                direction: direction.into(),
            });
        }
    }
    out
}

/// The verdict of one row: which seats' 95 % score intervals exclude 1/2.
#[must_use]
pub fn row_verdict(row: &FairnessRow) -> String {
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    let shown: Vec<String> = row
        .seats
        .iter()
        .filter(|s| s.verdict() != 0)
        .map(|s| {
            format!(
                "{} {} ({} % [{}, {}])",
                s.name,
                if s.verdict() > 0 {
                    "favoured"
                } else {
                    "disfavoured"
                },
                pct(s.score.value),
                pct(s.score.lower),
                pct(s.score.upper)
            )
        })
        .collect();
    if row.games == 0 {
        "no games".into()
    } else if shown.is_empty() {
        "no seat advantage shown (every seat's 95 % interval contains 50 %)".into()
    } else {
        shown.join("; ")
    }
}

/// What a seat's points are, in words for headers: two sides score 1 / 1/2 / 0; more seats score
/// (seats beaten + half the seats tied) / (seats - 1), so second of three scores 1/2.
#[must_use]
pub fn points_rule(seats: usize) -> String {
    if seats <= 2 {
        "1 win, 1/2 draw".into()
    } else {
        let places = if seats == 3 {
            ": first 1, second 1/2, third 0"
        } else {
            ""
        };
        format!(
            "(seats beaten + half the seats tied) / {}{places}",
            seats - 1
        )
    }
}

/// The overall verdict: for every variant (the rules as written first, then each rule
/// choice), each opening suite at the strongest level whose games come from at least two
/// blocks, said in one line (joined by `; `).
#[must_use]
pub fn verdict(rows: &[FairnessRow]) -> String {
    if rows.is_empty() {
        return "no games".into();
    }
    let top = rows.iter().map(|r| r.level_index).max().unwrap_or(0);
    let parts: Vec<String> = rows
        .iter()
        .filter(|r| r.level_index == top && r.games > 0 && r.seats.iter().all(|s| s.blocks >= 2))
        .map(|r| {
            format!(
                "{} ({}, {}, {} games): {}",
                r.variant,
                r.openings,
                r.level,
                r.games,
                row_verdict(r)
            )
        })
        .collect();
    if parts.is_empty() {
        "too few games for a verdict (every row is a single game or empty)".into()
    } else {
        parts.join("; ")
    }
}

/// The rows as a text table: one line per row with every seat's score, interval and
/// win/draw/loss shares.
#[must_use]
pub fn render(rows: &[FairnessRow]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let vw = rows
        .iter()
        .map(|r| r.variant.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let ow = rows
        .iter()
        .map(|r| r.openings.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    let mut header = format!(
        "{:<vw$} {:<ow$} {:<9} {:>5} {:>8}",
        "variant", "openings", "level", "games", "distinct"
    );
    if let Some(r) = rows.first() {
        for seat in &r.seats {
            let _ = write!(
                header,
                "  {:<36}",
                format!("{}: score [95 %] W/D/L %", seat.name)
            );
        }
    }
    let _ = writeln!(s, "{header}");
    for r in rows {
        let _ = write!(
            s,
            "{:<vw$} {:<ow$} {:<9} {:>5} {:>8}",
            r.variant, r.openings, r.level, r.games, r.distinct
        );
        for seat in &r.seats {
            let cell = format!(
                "{} [{}, {}] {}/{}/{}",
                pct(seat.score.value),
                pct(seat.score.lower),
                pct(seat.score.upper),
                pct(seat.win.value),
                pct(seat.draw.value),
                pct(seat.loss.value)
            );
            let _ = write!(s, "  {cell:<36}");
        }
        let _ = writeln!(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::proportion::Interval;

    fn seat(seat: usize, score: f64, half: f64) -> SeatRow {
        let i = |v: f64| Interval {
            value: v,
            lower: v - half,
            upper: v + half,
        };
        SeatRow {
            seat,
            name: format!("seat {seat}"),
            games: 100,
            blocks: 100,
            wins: 0,
            draws: 0,
            losses: 0,
            score: i(score),
            win: i(score),
            draw: i(0.0),
            loss: i(1.0 - score),
        }
    }

    fn row(level: usize, s0: f64, half: f64) -> FairnessRow {
        FairnessRow {
            variant: "rules".into(),
            openings: "random-8".into(),
            level: format!("depth {level}"),
            level_index: level,
            dir: String::new(),
            games: 100,
            distinct: 100,
            seats: vec![seat(0, s0, half), seat(1, 1.0 - s0, half)],
        }
    }

    #[test]
    fn trend_grows_shrinks_or_stays() {
        // 0.55 ± 0.02 -> 0.70 ± 0.02: change 0.15 ± 1.96 * sqrt(2) * 0.02 / 1.96 = ± 0.0283.
        let t = trends(&[row(0, 0.55, 0.02), row(1, 0.6, 0.02), row(2, 0.70, 0.02)]);
        assert_eq!(t.len(), 1);
        assert!((t[0].change - 0.15).abs() < 1e-12);
        assert!((t[0].upper - t[0].change - 0.02 * 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(t[0].direction, "grows");
        let t = trends(&[row(0, 0.70, 0.02), row(2, 0.52, 0.02)]);
        assert_eq!(t[0].direction, "shrinks");
        let t = trends(&[row(0, 0.55, 0.10), row(2, 0.60, 0.10)]);
        assert_eq!(t[0].direction, "no significant change");
        assert!(trends(&[row(0, 0.5, 0.1)]).is_empty());
    }

    #[test]
    fn verdicts_name_the_favoured_seat() {
        let r = row(2, 0.60, 0.05);
        let v = row_verdict(&r);
        assert!(v.contains("seat 0 favoured (60.0 % [55.0, 65.0])"), "{v}");
        assert!(v.contains("seat 1 disfavoured"), "{v}");
        assert!(row_verdict(&row(2, 0.52, 0.05)).starts_with("no seat advantage"));
        let v = verdict(&[row(0, 0.5, 0.05), r.clone()]);
        assert!(
            v.starts_with("rules (random-8, depth 2, 100 games): seat 0 favoured"),
            "{v}"
        );
        // Every suite at the strongest level speaks; rows of one block do not.
        let mut start = row(2, 0.9, 0.05);
        start.openings = "start".into();
        let mut single = row(2, 1.0, 0.4);
        single.openings = "one".into();
        single.seats.iter_mut().for_each(|s| s.blocks = 1);
        let v = verdict(&[start, r, single]);
        assert_eq!(v.matches("rules (").count(), 2, "{v}");
        assert!(!v.contains("one,"), "{v}");
        let text = render(&[row(0, 0.55, 0.02)]);
        assert!(text.contains("55.0 [53.0, 57.0]"), "{text}");
    }
}
