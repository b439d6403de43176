//! An OBF batch solve ([`crate::games::othello::obf_batch`]) for people and programs, as
//! Edax's `-solve` shows one: a line per problem as it is solved, then the totals; or one
//! JSON object.

use serde_json::json;

use super::{rate, si};
use crate::games::othello::obf_batch::{Agreement, LineResult, Outcome, Totals};

/// The first lines: what is solved with which settings, and the table's header.
#[must_use]
pub fn header_lines(
    problems: usize,
    file: &std::path::Path,
    threads: usize,
    tt_mib: usize,
) -> [String; 2] {
    [
        format!(
            "solving {problems} problem{} from {} ({threads} thread{}, {tt_mib} MiB table)",
            if problems == 1 { "" } else { "s" },
            file.display(),
            if threads == 1 { "" } else { "s" }
        ),
        format!(
            "{:>5} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>10}  match",
            "line", "empties", "score", "file", "move", "nodes", "seconds", "nodes/s"
        ),
    ]
}

/// The table line of one result.
#[must_use]
pub fn text_line(r: &LineResult) -> String {
    let line = r.line;
    match &r.outcome {
        Outcome::Error(e) => format!("{line:>5} error: line {line}: {e}"),
        Outcome::NotTried => format!("{line:>5} not tried: --time-ms ran out before it"),
        Outcome::Stopped { nodes, seconds } => {
            format!("{line:>5} stopped by --time-ms after {seconds:.3} s and {nodes} nodes")
        }
        Outcome::Solved {
            score,
            best,
            nodes,
            seconds,
        } => {
            let (expected, _, agreement) =
                r.agreement()
                    .unwrap_or((None, None, Agreement::Unannotated));
            format!(
                "{line:>5} {:>7} {:>+6} {:>6} {:>5} {:>14} {:>9.3} {:>10}  {}",
                r.problem.map_or(0, |p| p.position.empties()),
                score,
                expected.map_or_else(|| "-".to_string(), |e| format!("{e:+}")),
                best.map_or_else(|| "-".to_string(), |m| m.to_string()),
                nodes,
                seconds,
                si(rate(*nodes, *seconds)),
                match agreement {
                    Agreement::Matches => "yes",
                    Agreement::Differs => "NO",
                    Agreement::Unannotated => "-",
                }
            )
        }
    }
}

/// The two totals lines: the counts, then time, nodes and speed (`wall`: the batch's wall
/// seconds).
#[must_use]
pub fn totals_lines(totals: &Totals, wall: f64) -> [String; 2] {
    [
        format!(
            "total: {} solved ({} match the file, {} differ, {} without a file score), {} errors, {} stopped, {} not tried",
            totals.solved,
            totals.matched,
            totals.differ,
            totals.unannotated,
            totals.errors,
            totals.stopped,
            totals.not_tried
        ),
        format!(
            "total: {:.3} s, {} nodes, {}nodes/s ({wall:.3} s wall for the batch)",
            totals.seconds,
            totals.nodes,
            si(rate(totals.nodes, totals.seconds)),
        ),
    ]
}

/// The batch as one JSON object: the settings, each problem's entry (`entries`, from
/// [`LineResult::to_json`]) and the totals (`problems`: the lines of the file read).
#[must_use]
pub fn to_json(
    file: &std::path::Path,
    (threads, tt_mib): (usize, usize),
    (problems, entries): (usize, Vec<serde_json::Value>),
    totals: &Totals,
    wall: f64,
) -> serde_json::Value {
    json!({
        "game": "othello",
        "file": file.display().to_string(),
        "threads": threads,
        "tt_mb": tt_mib,
        "problems": entries,
        "totals": {
            "problems": problems,
            "solved": totals.solved,
            "matched": totals.matched,
            "differ": totals.differ,
            "unannotated": totals.unannotated,
            "errors": totals.errors,
            "stopped": totals.stopped,
            "not_tried": totals.not_tried,
            "nodes": totals.nodes,
            "seconds": totals.seconds,
            "nps": rate(totals.nodes, totals.seconds),
            "wall_seconds": wall,
        },
    })
}
