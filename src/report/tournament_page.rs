//! The tournament page: the rating list, head to head, SPRT, results by seat, time per
//! move, how the games ended and the game viewer, read from the typed [`Report`].

use std::fmt::Write as _;
use std::path::Path;

use super::cells::{finite, infinite_or_num, num, num_or_why, txt};
use super::charts::{interval_chart, line_chart};
use super::{ReportError, escape, move_times, page, viewer_games, viewer_section};
use crate::present::Present;
use crate::tournament::record::GameRecord;
use crate::tournament::report::{Pairing, Rating, Report, SprtState};
use crate::tournament::seat_names::named_report;
use crate::tournament::seats::SeatRow;

/// [`tournament_page`] of a folder read by [`crate::tournament::folder::read`], for its
/// game.
///
/// # Errors
/// As [`tournament_page`].
pub fn folder_page(
    dir: &Path,
    folder: &crate::tournament::folder::Folder,
) -> Result<String, ReportError> {
    fn page<G: Present>(
        dir: &Path,
        folder: &crate::tournament::folder::Folder,
    ) -> Result<String, ReportError> {
        tournament_page::<G>(dir, &folder.settings, &folder.records)
    }
    crate::for_game!(folder.game, page(dir, folder))
}

/// The HTML page of a tournament folder `dir` with its `settings` and finished `records`:
/// the report with named seats, LLR history, charts and the game viewer.
///
/// # Errors
/// No finished games, a record of another game, or a game the rules refuse.
pub fn tournament_page<G: Present>(
    dir: &Path,
    settings: &crate::tournament::settings::Settings,
    records: &[GameRecord],
) -> Result<String, ReportError> {
    if records.is_empty() {
        return Err(ReportError::Input(format!(
            "{} holds no finished games: nothing to show",
            dir.display()
        )));
    }
    if let Some(r) = records.iter().find(|r| r.game != G::ID) {
        return Err(ReportError::Input(format!(
            "{}: game {} is a record of {}, but the tournament is {}",
            dir.display(),
            r.id,
            r.game,
            G::ID
        )));
    }
    let rep = named_report::<G>(settings, records);
    let llr = crate::tournament::report::llr_history(settings, records);
    report_page::<G>(&dir.display().to_string(), &rep, records, &llr)
}

/// The per-seat table and chart of `seats`, whose cells' keys start with `prefix` (their
/// path in the report JSON, e.g. `seats`).
fn seats_section(seats: &[SeatRow], prefix: &str) -> String {
    let mut s = String::from(
        "<table><tr><th class=\"l\">seat</th><th>games</th><th>score %</th><th>95 % low</th><th>95 % high</th>\
         <th>win %</th><th>draw %</th><th>loss %</th><th>win 95 % (Wilson)</th></tr>",
    );
    let mut items = Vec::new();
    for (i, r) in seats.iter().enumerate() {
        let p = format!("{prefix}.{i}");
        let _ = write!(
            s,
            "<tr>{}{}{}{}{}{}{}{}<td>{:.1} – {:.1}</td></tr>",
            txt(&r.name),
            num(&format!("{p}.games"), &r.games, 1.0, 0),
            num(&format!("{p}.score.value"), &r.score.value, 100.0, 1),
            num(&format!("{p}.score.lower"), &r.score.lower, 100.0, 1),
            num(&format!("{p}.score.upper"), &r.score.upper, 100.0, 1),
            num(&format!("{p}.win.value"), &r.win.value, 100.0, 1),
            num(&format!("{p}.draw.value"), &r.draw.value, 100.0, 1),
            num(&format!("{p}.loss.value"), &r.loss.value, 100.0, 1),
            100.0 * finite(r.win.lower).unwrap_or(0.0),
            100.0 * finite(r.win.upper).unwrap_or(0.0)
        );
        let f = |x: f64| 100.0 * finite(x).unwrap_or(0.5);
        items.push((
            r.name.clone(),
            f(r.score.value),
            f(r.score.lower),
            f(r.score.upper),
        ));
    }
    s.push_str("</table>");
    s.push_str(&interval_chart(&items, 0.0, 100.0, 50.0, " %"));
    s
}

/// The page of a tournament: `report` is the report (as `report.json`), `records` the
/// games, `llr` the LLR after each game when an SPRT ran.
///
/// # Errors
/// Records of another game, or moves that do not replay.
pub fn report_page<G: Present>(
    dir: &str,
    report: &Report,
    records: &[GameRecord],
    llr: &[f64],
) -> Result<String, ReportError> {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} games of <b>{}</b> from <code>{}</code>. Every number below is from the records \
         (the same as <code>report.json</code>).</p>",
        report.games,
        escape(G::ID),
        escape(dir)
    );
    // Rating list.
    body.push_str("<h2>Rating list</h2>");
    let _ = write!(
        body,
        "<p class=\"note\">Maximum likelihood, {}; 95 % bootstrap intervals over blocks.</p>",
        escape(&report.anchor)
    );
    let ratings = &report.ratings;
    let mut items = Vec::new();
    body.push_str("<table><tr><th>rank</th><th class=\"l\">engine</th><th>Elo</th><th>95 % low</th><th>95 % high</th><th>games</th><th>score %</th></tr>");
    let mut notes = Vec::new();
    for (i, r) in ratings.iter().enumerate() {
        let p = format!("ratings.{i}");
        let why = r.interval_note.as_deref();
        let _ = write!(
            body,
            "<tr><td>{}</td>{}{}{}{}{}{}</tr>",
            i + 1,
            txt(&r.name),
            num_or_why(&format!("{p}.elo"), &r.elo, 1.0, 1, why),
            num_or_why(&format!("{p}.lower"), &r.lower, 1.0, 0, why),
            num_or_why(&format!("{p}.upper"), &r.upper, 1.0, 0, why),
            num(&format!("{p}.games"), &r.games, 1.0, 0),
            num_or_why(&format!("{p}.score"), &r.score, 100.0, 1, why)
        );
        // Absent numbers stay absent in the chart: no bar, no point.
        let f = |x: f64| finite(x).unwrap_or(f64::NAN);
        if let Some(why) = why {
            notes.push(format!("{}: {why}", escape(&r.name)));
        }
        items.push((r.name.clone(), f(r.elo), f(r.lower), f(r.upper)));
    }
    body.push_str("</table>");
    for n in &notes {
        let _ = write!(body, "<p class=\"note\">{n}</p>");
    }
    let finite = |x: &f64| x.is_finite();
    let lo = items
        .iter()
        .flat_map(|i| [i.1, i.2])
        .filter(finite)
        .fold(0.0, f64::min);
    let hi = items
        .iter()
        .flat_map(|i| [i.1, i.3])
        .filter(finite)
        .fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.05).max(10.0);
    body.push_str(&interval_chart(&items, lo - pad, hi + pad, 0.0, ""));
    // Head-to-head matrix.
    let pairings = &report.pairings;
    if !pairings.is_empty() {
        body.push_str(&pairings_section(ratings, pairings));
    }
    // Score (and LLR) over the games played.
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.id);
    if let Some(first) = ratings.first().map(|r| r.name.as_str()) {
        let mut series = Vec::new();
        let mut total = 0.0;
        let mut margin = Vec::new();
        for r in &sorted {
            let view = r.sides_view();
            if let Some(k) = view.engines.iter().position(|e| e == first) {
                total += view.points[k] - 0.5;
            }
            margin.push(total);
        }
        series.push((
            "points above 1/2 of the top-rated engine",
            "#1565c0",
            margin,
        ));
        body.push_str("<h2>Score over the games played</h2>");
        body.push_str(&line_chart(&series, &[]));
    }
    if !llr.is_empty() {
        body.push_str(&sprt_section(report.sprt.as_ref(), llr));
    }
    // Results by seat.
    let _ = write!(
        body,
        "<h2>Results by seat</h2><p class=\"note\">All engines together; score = mean points ({}), 95 % Wilson interval over blocks; win = sole first place.</p>",
        escape(&crate::tournament::fairness::points_rule(
            report.seats.len()
        ))
    );
    body.push_str(&seats_section(&report.seats, "seats"));
    // Time per move.
    let mut names: Vec<String> = ratings.iter().map(|r| r.name.clone()).collect();
    names.sort();
    body.push_str(&move_times::section::<G>(records, &names).map_err(ReportError::Input)?);
    // Termination reasons.
    body.push_str(
        "<h2>How the games ended</h2><table><tr><th class=\"l\">reason</th><th>games</th></tr>",
    );
    for (k, n) in &report.reasons {
        let _ = write!(
            body,
            "<tr>{}{}</tr>",
            txt(k),
            num(&format!("reasons.{k}"), n, 1.0, 0)
        );
    }
    body.push_str("</table>");
    // `#game=ID` on a tournament page: record ids are unique in one folder.
    let labelled: Vec<(String, String, &GameRecord)> = sorted
        .iter()
        .map(|r| (String::new(), r.id.to_string(), *r))
        .collect();
    let games = viewer_games::<G>(&labelled)?;
    body.push_str(&viewer_section(games.len(), sorted.len()));
    let data = serde_json::json!({ "game": G::ID, "games": games });
    Ok(page(
        &format!("tessera tournament report: {}", G::ID),
        &body,
        &data,
    ))
}

/// The head-to-head matrix of the engines of `ratings` (rows and columns in rating order)
/// and the table and notes of `pairings` (two-seat games).
fn pairings_section(ratings: &[Rating], pairings: &[Pairing]) -> String {
    let mut body = String::new();
    let names: Vec<&str> = ratings.iter().map(|r| r.name.as_str()).collect();
    body.push_str("<h2>Head to head</h2><p class=\"note\">Row engine's score % against the column engine (games; Elo ± 95 %).</p><table><tr><th></th>");
    for n in &names {
        let _ = write!(body, "<th>{}</th>", escape(n));
    }
    body.push_str("</tr>");
    for &a in &names {
        let _ = write!(body, "<tr><th class=\"l\">{}</th>", escape(a));
        for &b in &names {
            let cell = pairings.iter().find_map(|p| {
                if p.a == a && p.b == b {
                    Some((p, false))
                } else if p.a == b && p.b == a {
                    Some((p, true))
                } else {
                    None
                }
            });
            match cell {
                None => body.push_str("<td></td>"),
                Some((p, flipped)) => {
                    let score = finite(p.score).unwrap_or(0.5);
                    let sign = if flipped { -1.0 } else { 1.0 };
                    let score = if flipped { 1.0 - score } else { score };
                    // Elo is absent (infinite) only when one side won every game; a finite
                    // Elo without an error bar (absent, with the reason in `note`) shows
                    // "± —", never ∞.
                    let elo = match (finite(p.elo), finite(p.elo_error)) {
                        (Some(e), Some(err)) => format!("{:+.0} ± {err:.0}", sign * e),
                        (Some(e), None) => format!("{:+.0} ± —", sign * e),
                        _ if score > 0.5 => "+∞".to_string(),
                        _ => "−∞".to_string(),
                    };
                    let why = p
                        .note
                        .as_deref()
                        .map_or(String::new(), |n| format!(": {}", escape(n)));
                    let _ = write!(
                        body,
                        "<td title=\"{a} vs {b}{why}\">{:.1} % ({} games; Elo {})</td>",
                        100.0 * score,
                        p.games,
                        escape(&elo),
                        a = escape(a),
                        b = escape(b)
                    );
                }
            }
        }
        body.push_str("</tr>");
    }
    body.push_str("</table><table><tr><th class=\"l\">engine</th><th class=\"l\">opponent</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score %</th><th>Elo</th><th>±</th><th>nElo</th><th>LOS %</th></tr>");
    for (i, p) in pairings.iter().enumerate() {
        let k = format!("pairings.{i}");
        let why = p.note.as_deref();
        let _ = write!(
            body,
            "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>",
            txt(&p.a),
            txt(&p.b),
            num(&format!("{k}.games"), &p.games, 1.0, 0),
            num(&format!("{k}.wins"), &p.wins, 1.0, 0),
            num(&format!("{k}.draws"), &p.draws, 1.0, 0),
            num(&format!("{k}.losses"), &p.losses, 1.0, 0),
            num(&format!("{k}.score"), &p.score, 100.0, 1),
            infinite_or_num(&format!("{k}.elo"), p.elo, p.score),
            num_or_why(&format!("{k}.elo_error"), &p.elo_error, 1.0, 1, why),
            num_or_why(&format!("{k}.nelo"), &p.nelo, 1.0, 1, why),
            num_or_why(&format!("{k}.los"), &p.los, 100.0, 1, why)
        );
    }
    body.push_str("</table>");
    for p in pairings {
        if let Some(n) = &p.note {
            let _ = write!(
                body,
                "<p class=\"note\">{} vs {}: {}</p>",
                escape(&p.a),
                escape(&p.b),
                escape(n)
            );
        }
    }
    body
}

/// The SPRT's chart of `llr` (the LLR after each game) between its bounds, and its state
/// (`None`: no SPRT state, every cell absent).
fn sprt_section(sprt: Option<&SprtState>, llr: &[f64]) -> String {
    let mut body = String::new();
    let bounds: Vec<(f64, String)> = sprt
        .map(|s| [("lower", s.lower), ("upper", s.upper)])
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| finite(v).map(|v| (v, format!("{k} bound"))))
        .collect();
    let extra: Vec<(f64, &str)> = bounds.iter().map(|(v, s)| (*v, s.as_str())).collect();
    body.push_str("<h2>SPRT: log-likelihood ratio over the games played</h2>");
    body.push_str(&line_chart(&[("LLR", "#c62828", llr.to_vec())], &extra));
    let _ = write!(
        body,
        "<table><tr><th>LLR</th><th>lower</th><th>upper</th><th class=\"l\">decision</th></tr><tr>{}{}{}{}</tr></table>",
        num("sprt.llr", &sprt.map(|s| s.llr), 1.0, 3),
        num("sprt.lower", &sprt.map(|s| s.lower), 1.0, 3),
        num("sprt.upper", &sprt.map(|s| s.upper), 1.0, 3),
        txt(sprt.map_or("", |s| s.decision.as_str()))
    );
    body
}
