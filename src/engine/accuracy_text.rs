//! An accuracy run for people and programs. Othello ([`super::accuracy::measure_othello_file`]):
//! the engine's settings in one line, a table line per answer, the summary table per number
//! of empties and overall, and the whole run as one JSON object. Quixo
//! ([`super::accuracy::measure_quixo_tiers`]): a line per answer, the table per tier and
//! outcome, and the JSON object.

use serde_json::json;

use super::EngineSpec;
use super::accuracy::{Answer, Report, Summary};
use crate::present::si;

/// The engine's settings: `NAME (depth D, time T ms, K threads)`, `-` where unset.
#[must_use]
pub fn settings_text(spec: &EngineSpec) -> String {
    let threads = spec.threads.unwrap_or(1);
    format!(
        "{} (depth {}, time {}, {} thread{})",
        spec.name,
        spec.depth.map_or_else(|| "-".into(), |d| d.to_string()),
        spec.time_ms
            .map_or_else(|| "-".into(), |t| format!("{t} ms")),
        threads,
        if threads == 1 { "" } else { "s" }
    )
}

/// The header line of the per-answer table.
#[must_use]
pub fn answer_header() -> String {
    format!(
        "{:>5} {:>7} {:>6} {:>6} {:>5} {:>8} {:>8} {:>12} {:>8}",
        "line", "empties", "move", "loss", "best", "score", "error", "nodes", "seconds"
    )
}

/// One answer's line: truth line, empties, move, loss, exact score, the engine's score and
/// its error (discs), nodes, seconds.
#[must_use]
pub fn answer_line(a: &Answer) -> String {
    format!(
        "{:>5} {:>7} {:>6} {:>6} {:>+5} {:>+8.2} {:>+8.2} {:>12} {:>8.3}",
        a.line,
        a.bucket,
        a.chosen,
        a.loss(),
        a.best_score,
        a.engine_score,
        a.error(),
        a.nodes,
        a.seconds
    )
}

/// The summary table: a blank line, the header, one line per number of empties, `all`.
#[must_use]
pub fn summary_lines(report: &Report) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        format!(
            "{:>7} {:>9} {:>9} {:>6} {:>6} {:>9} {:>9} {:>7} {:>14} {:>9}",
            "empties",
            "positions",
            "best move",
            "loss",
            "MAE",
            "within 3",
            "within 6",
            "signed",
            "nodes",
            "nodes/s"
        ),
    ];
    for (e, t) in &report.buckets {
        lines.push(row(&e.to_string(), &t.summary()));
    }
    lines.push(row("all", &report.overall.summary()));
    lines
}

/// One line of the summary table.
fn row(label: &str, s: &Summary) -> String {
    format!(
        "{label:>7} {:>9} {:>7.1} % {:>6.2} {:>6.2} {:>7.1} % {:>7.1} % {:>+7.2} {:>14} {:>9}",
        s.positions,
        s.best_move_pct,
        s.mean_loss,
        s.mae,
        s.within_3_pct,
        s.within_6_pct,
        s.mean_signed_error,
        s.nodes,
        si(s.nps)
    )
}

/// The run as one JSON object: the file, the engine's settings, the overall summary, one
/// per number of empties (`by_empties`) and every answer (`positions`).
#[must_use]
pub fn to_json(file: &std::path::Path, spec: &EngineSpec, report: &Report) -> serde_json::Value {
    let buckets: serde_json::Map<String, serde_json::Value> = report
        .buckets
        .iter()
        .map(|(e, t)| (e.to_string(), json!(t.summary())))
        .collect();
    json!({
        "game": "othello",
        "file": file.display().to_string(),
        "engine": spec.name,
        "depth": spec.depth,
        "time_ms": spec.time_ms,
        "threads": spec.threads.unwrap_or(1),
        "overall": report.overall.summary(),
        "by_empties": buckets,
        "positions": report.answers,
    })
}

/// The Quixo bucket's label: the tier (full board, one blank) and the exact outcome.
fn quixo_label(b: u32) -> &'static str {
    match b {
        0 => "full, won",
        1 => "full, drawn",
        10 => "1 blank, won",
        _ => "1 blank, drawn",
    }
}

/// One Quixo answer's line: the position's number, bucket, chosen move, its exact value
/// and the best one, nodes, seconds.
#[must_use]
pub fn quixo_answer_line(a: &Answer) -> String {
    format!(
        "{:>5} {:>6} {:>6} {:>5} {:>5} {:>12} {:>8.3}",
        a.line, a.bucket, a.chosen, a.chosen_score, a.best_score, a.nodes, a.seconds
    )
}

/// The Quixo run as one JSON object (`by_tier`: the summary per tier and outcome).
#[must_use]
pub fn quixo_json(file: &std::path::Path, spec: &EngineSpec, report: &Report) -> serde_json::Value {
    let buckets: serde_json::Map<String, serde_json::Value> = report
        .buckets
        .iter()
        .map(|(b, t)| (quixo_label(*b).to_string(), json!(t.summary())))
        .collect();
    json!({
        "game": "quixo",
        "file": file.display().to_string(),
        "engine": spec.name,
        "depth": spec.depth,
        "time_ms": spec.time_ms,
        "overall": report.overall.summary(),
        "by_tier": buckets,
        "positions": report.answers,
    })
}

/// The Quixo summary table: the header, a line per tier and outcome, `all`: positions,
/// the share of moves that keep the exact value, nodes, mean milliseconds.
#[must_use]
pub fn quixo_summary_lines(report: &Report) -> Vec<String> {
    let mut lines = vec![format!(
        "{:>16} {:>9} {:>11} {:>14} {:>9}",
        "positions", "count", "keeps value", "nodes", "mean ms"
    )];
    for (b, t) in report
        .buckets
        .iter()
        .map(|(b, t)| (quixo_label(*b), t))
        .chain([("all", &report.overall)])
    {
        let s = t.summary();
        lines.push(format!(
            "{b:>16} {:>9} {:>9.1} % {:>14} {:>9.1}",
            s.positions,
            s.best_move_pct,
            s.nodes,
            1000.0 * s.seconds / s.positions.max(1) as f64
        ));
    }
    lines
}
