//! The fairness page, read from the typed [`Summary`] of a run.

use std::fmt::Write as _;

use super::cells::{finite, num, txt};
use super::charts::interval_chart;
use super::{MAX_VIEWER_GAMES, ReportError, escape, page, viewer_games, viewer_section};
use crate::present::Present;
use crate::tournament::fairness::Summary;
use crate::tournament::record::GameRecord;

/// The page of a fairness run: `summary` is the run's summary (the command's JSON, field
/// for field), `records` the games of each row (in the order of `summary.rows`).
///
/// # Errors
/// Records of another game, or moves that do not replay.
pub fn fairness_page<G: Present>(
    summary: &Summary,
    records: &[Vec<GameRecord>],
) -> Result<String, ReportError> {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} in every seat rotation. Score = mean points ({}; a fair seat scores 50 %), \
         95 % Wilson intervals over blocks; W/D/L = sole first / shared first / other place.</p>\
         {}<p class=\"verdict\">Verdict: {}</p>",
        escape(&summary.engine),
        escape(&summary.points),
        if summary.interrupted {
            "<p class=\"verdict\">INTERRUPTED: the rows below are partial.</p>"
        } else {
            ""
        },
        escape(&summary.verdict)
    );
    body.push_str("<h2>Results by seat</h2><table><tr><th class=\"l\">variant</th><th class=\"l\">openings</th><th class=\"l\">level</th><th>games</th><th>distinct</th><th class=\"l\">seat</th><th>score %</th><th>95 % low</th><th>95 % high</th><th>win %</th><th>draw %</th><th>loss %</th></tr>");
    let mut items = Vec::new();
    for (i, r) in summary.rows.iter().enumerate() {
        for (j, seat) in r.seats.iter().enumerate() {
            let p = format!("rows.{i}.seats.{j}");
            let head = if j == 0 {
                format!(
                    "<td class=\"l\" rowspan=\"{n}\">{}</td><td class=\"l\" rowspan=\"{n}\">{}</td><td class=\"l\" rowspan=\"{n}\">{}</td><td rowspan=\"{n}\" data-key=\"rows.{i}.games\" data-value=\"{}\">{}</td><td rowspan=\"{n}\">{}</td>",
                    escape(&r.variant),
                    escape(&r.openings),
                    escape(&r.level),
                    r.games,
                    r.games,
                    r.distinct,
                    n = r.seats.len()
                )
            } else {
                String::new()
            };
            let name = &seat.name;
            let _ = write!(
                body,
                "<tr>{head}{}{}{}{}{}{}{}</tr>",
                txt(name),
                num(&format!("{p}.score.value"), &seat.score.value, 100.0, 1),
                num(&format!("{p}.score.lower"), &seat.score.lower, 100.0, 1),
                num(&format!("{p}.score.upper"), &seat.score.upper, 100.0, 1),
                num(&format!("{p}.win.value"), &seat.win.value, 100.0, 1),
                num(&format!("{p}.draw.value"), &seat.draw.value, 100.0, 1),
                num(&format!("{p}.loss.value"), &seat.loss.value, 100.0, 1)
            );
            let f = |x: f64| 100.0 * finite(x).unwrap_or(0.5);
            items.push((
                format!("{} {} {}: {name}", r.variant, r.openings, r.level),
                f(seat.score.value),
                f(seat.score.lower),
                f(seat.score.upper),
            ));
        }
    }
    body.push_str("</table><p class=\"note\">Each seat's score with its 95 % interval; the dashed line is the fair 50 %. Rows of one distinct game (deterministic engines from the start position) show the wide interval of a single game and take no part in the trend or the verdict.</p>");
    body.push_str(&interval_chart(&items, 0.0, 100.0, 50.0, " %"));
    if !summary.trends.is_empty() {
        body.push_str("<h2>Trend with strength</h2><table><tr><th class=\"l\">variant</th><th class=\"l\">openings</th><th class=\"l\">seat</th><th class=\"l\">from</th><th>score %</th><th class=\"l\">to</th><th>score %</th><th>change</th><th>95 % low</th><th>95 % high</th><th class=\"l\">direction</th></tr>");
        for (i, t) in summary.trends.iter().enumerate() {
            let k = format!("trends.{i}");
            let _ = write!(
                body,
                "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>",
                txt(&t.variant),
                txt(&t.openings),
                txt(&t.name),
                txt(&t.from.0),
                num(&format!("{k}.from.1"), &t.from.1, 100.0, 1),
                txt(&t.to.0),
                num(&format!("{k}.to.1"), &t.to.1, 100.0, 1),
                num(&format!("{k}.change"), &t.change, 100.0, 1),
                num(&format!("{k}.lower"), &t.lower, 100.0, 1),
                num(&format!("{k}.upper"), &t.upper, 100.0, 1),
                txt(&t.direction)
            );
        }
        body.push_str("</table>");
    }
    if !summary.exact.is_empty() || !summary.notes.is_empty() {
        body.push_str("<h2>Exact results</h2><ul>");
        for e in &summary.exact {
            let _ = write!(
                body,
                "<li>Quixo {}: {}{} ({})</li>",
                escape(&e.board),
                escape(&e.value),
                e.plies.map_or(String::new(), |p| format!(" in {p} plies")),
                escape(&e.source)
            );
        }
        for n in &summary.notes {
            let _ = write!(body, "<li>{}</li>", escape(n));
        }
        body.push_str("</ul>");
    }
    let mut labelled = Vec::new();
    let mut total = 0;
    for (i, recs) in records.iter().enumerate() {
        let label = summary.rows.get(i).map_or_else(
            || " /  /  ".to_string(),
            |r| format!("{} / {} / {} ", r.variant, r.openings, r.level),
        );
        let mut sorted: Vec<&GameRecord> = recs.iter().collect();
        sorted.sort_by_key(|r| r.id);
        total += sorted.len();
        // A few games of every row, so each row is in the viewer.
        let per_row = (MAX_VIEWER_GAMES / records.len().max(1)).max(1);
        // Every row is a tournament of its own with ids from 0: `#game=ROW-ID` (row from 1,
        // as listed) names one game of the page.
        labelled.extend(
            sorted
                .into_iter()
                .take(per_row)
                .map(|g| (label.clone(), format!("{}-{}", i + 1, g.id), g)),
        );
    }
    let games = viewer_games::<G>(&labelled)?;
    body.push_str(&viewer_section(games.len(), total));
    let data = serde_json::json!({ "game": G::ID, "games": games });
    Ok(page(&format!("tessera fairness: {}", G::ID), &body, &data))
}
