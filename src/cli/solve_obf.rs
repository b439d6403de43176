//! `tessera solve othello --obf FILE`: solves every problem of an Edax OBF problem file
//! ([`tessera::games::othello::obf_batch`]) and compares each score with the file's, like
//! Edax's `-solve`: one line per problem as it is solved, then the totals.
//!
//! A line that cannot be read gets an error entry naming its line number and the batch goes
//! on; the exit code is then 2. `--time-ms` is a budget for the whole batch: when it runs
//! out, the problem being solved is reported as stopped, the lines after it as not tried,
//! the totals are printed and the exit code is 1.

use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use tessera::games::othello::obf_batch::{self, Agreement, BatchSettings, LineResult, Outcome};

use super::output::{CliError, EXIT_UNFINISHED, EXIT_USAGE, print_json, rate, say, si};

/// Settings of an OBF batch.
pub struct ObfRun<'a> {
    /// The problem file.
    pub path: &'a Path,
    /// `--tt-mb`: transposition table size, MiB (a fresh table per problem); `None`: the
    /// single-position default for the file's largest problem
    /// ([`obf_batch::solve_tt_mib`]).
    pub tt_mib: Option<usize>,
    /// Search threads per solve.
    pub threads: usize,
    /// Budget for the whole batch, milliseconds.
    pub time_ms: Option<u64>,
    /// One JSON object instead of the table.
    pub json: bool,
}

/// Runs the batch.
///
/// # Errors
/// The file cannot be read or holds no problem line at all (exit code 2).
pub fn run(run: &ObfRun) -> Result<ExitCode, CliError> {
    let problems = obf_batch::read_problems(run.path).map_err(CliError::input)?;
    let settings = BatchSettings {
        tt_mib: run.tt_mib,
        threads: run.threads,
        time_ms: run.time_ms,
    };
    let tt_mib = obf_batch::batch_tt_mib(&problems, &settings);
    if !run.json {
        let n = problems.len();
        say(format!(
            "solving {n} problem{} from {} ({} thread{}, {tt_mib} MiB table)",
            if n == 1 { "" } else { "s" },
            run.path.display(),
            run.threads,
            if run.threads == 1 { "" } else { "s" }
        ));
        say(format!(
            "{:>5} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>10}  match",
            "line", "empties", "score", "file", "move", "nodes", "seconds", "nodes/s"
        ));
    }
    let mut entries = Vec::new();
    let (totals, wall) = obf_batch::solve(&problems, &settings, &mut |r| {
        if run.json {
            entries.push(r.to_json());
        } else {
            say(text_line(r));
        }
    })
    .map_err(CliError::input)?;
    let nps = rate(totals.nodes, totals.seconds);
    if run.json {
        print_json(&json!({
            "game": "othello",
            "file": run.path.display().to_string(),
            "threads": run.threads,
            "tt_mb": tt_mib,
            "problems": entries,
            "totals": {
                "problems": problems.len(),
                "solved": totals.solved,
                "matched": totals.matched,
                "differ": totals.differ,
                "unannotated": totals.unannotated,
                "errors": totals.errors,
                "stopped": totals.stopped,
                "not_tried": totals.not_tried,
                "nodes": totals.nodes,
                "seconds": totals.seconds,
                "nps": nps,
                "wall_seconds": wall,
            },
        }));
    } else {
        say(format!(
            "total: {} solved ({} match the file, {} differ, {} without a file score), {} errors, {} stopped, {} not tried",
            totals.solved,
            totals.matched,
            totals.differ,
            totals.unannotated,
            totals.errors,
            totals.stopped,
            totals.not_tried
        ));
        say(format!(
            "total: {:.3} s, {} nodes, {}nodes/s ({wall:.3} s wall for the batch)",
            totals.seconds,
            totals.nodes,
            si(nps),
        ));
    }
    Ok(if totals.errors > 0 {
        ExitCode::from(EXIT_USAGE)
    } else if totals.stopped > 0 || totals.not_tried > 0 {
        ExitCode::from(EXIT_UNFINISHED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The table line of one result.
fn text_line(r: &LineResult) -> String {
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
