//! The tournament report with its seats named for people (`Black (X)`; team games
//! `team X (A1+A2)`), as the text report, the JSON report and the HTML page show it.

use crate::present::Present;
use crate::tournament::record::GameRecord;
use crate::tournament::settings::Settings;

/// Names the rows of the report's per-seat table for people (`Black (X)`; team games:
/// `team X (A1+A2)`).
pub fn name_seats<G: Present>(rep: &mut crate::tournament::report::Report) {
    let start = G::start();
    let n = start.seats();
    for row in &mut rep.seats {
        let members: Vec<String> = (0..n)
            .map(|s| crate::game::Seat(s as u8))
            .filter(|&s| usize::from(start.team(s)) == row.seat)
            .map(|s| start.seat_name(s))
            .collect();
        row.name = if members.len() > 1 {
            // "A1 (team X)", "A2 (team X)" -> "team X (A1+A2)".
            let bases: Vec<&str> = members
                .iter()
                .map(|m| m.split(" (").next().unwrap_or(m))
                .collect();
            let team = members[0]
                .split_once(" (")
                .map(|(_, t)| t.trim_end_matches(')').to_string());
            match team {
                Some(t) => format!("{t} ({})", bases.join("+")),
                None => format!("team {}", bases.join("+")),
            }
        } else {
            members
                .into_iter()
                .next()
                .unwrap_or_else(|| format!("seat {}", row.seat))
        };
    }
}

/// The report of `records` of game `G`, with its seats named.
pub fn named_report<G: Present>(
    settings: &Settings,
    records: &[GameRecord],
) -> crate::tournament::report::Report {
    let mut rep = crate::tournament::report::build::<G>(settings, records);
    name_seats::<G>(&mut rep);
    rep
}
