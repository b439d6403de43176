//! `tessera solve othello --obf FILE`: solves every problem of an Edax OBF problem file
//! ([`tessera::games::othello::obf`]) and compares each score with the file's, like Edax's
//! `-solve`: one line per problem as it is solved, then the totals.
//!
//! A line that cannot be read (bad board, side or annotation, no empty square, a finished
//! game) gets an error entry naming its line number and the batch goes on; the exit code is
//! then 2. `--time-ms` is a budget for the whole batch: when it runs out, the problem being
//! solved is reported as stopped, the lines after it as not tried, the totals are printed
//! and the exit code is 1.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tessera::games::othello::Move;
use tessera::games::othello::endgame::Solver;
use tessera::games::othello::obf::ObfProblem;
use tessera::search::{Limits, TranspositionTable};

use super::output::{CliError, EXIT_UNFINISHED, EXIT_USAGE, print_json, rate, say, si};

/// Settings of an OBF batch.
pub struct ObfRun<'a> {
    /// The problem file.
    pub path: &'a Path,
    /// `--tt-mb`: transposition table size, MiB (cleared before each problem); `None`: the
    /// single-position default for the file's largest problem (64 MiB up to 26 empties, 256
    /// above: [`super::solve_args::othello_tt_mib`]).
    pub tt_mib: Option<usize>,
    /// Search threads per solve.
    pub threads: usize,
    /// Budget for the whole batch, milliseconds.
    pub time_ms: Option<u64>,
    /// One JSON object instead of the table.
    pub json: bool,
}

/// What became of one line.
enum Outcome {
    Solved {
        score: i32,
        best: Option<Move>,
        nodes: u64,
        seconds: f64,
    },
    Stopped {
        nodes: u64,
        seconds: f64,
    },
    /// Not started: the batch's `--time-ms` had run out.
    NotTried,
    Error(String),
}

/// Batch totals.
#[derive(Default)]
struct Totals {
    solved: u32,
    matched: u32,
    differ: u32,
    unannotated: u32,
    errors: u32,
    stopped: u32,
    not_tried: u32,
    nodes: u64,
    seconds: f64,
}

/// Runs the batch.
///
/// # Errors
/// The file cannot be read or holds no problem line at all (exit code 2).
pub fn run(run: &ObfRun) -> Result<ExitCode, CliError> {
    let bytes = tessera::game::files::read_line_bytes(run.path, "OBF file", 256 << 20)
        .map_err(CliError::input)?;
    // A byte-order mark is skipped; a binary file or one without a problem that parses
    // is one error line, not one per line.
    let lines =
        tessera::games::othello::obf::parse_file(&bytes, run.path).map_err(CliError::input)?;

    let most_empties = lines
        .iter()
        .filter_map(|(_, p)| p.as_ref().ok().map(|p| p.position.empties()))
        .max()
        .unwrap_or(0);
    let tt_mib = super::solve_args::othello_tt_mib(run.tt_mib, most_empties);
    let mut tt = TranspositionTable::try_new(tt_mib).map_err(CliError::input)?;
    if run.threads > 1 {
        tt.prefault();
    }
    if !run.json {
        say(format!(
            "solving {} problem{} from {} ({} thread{}, {tt_mib} MiB table)",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            run.path.display(),
            run.threads,
            if run.threads == 1 { "" } else { "s" }
        ));
        say(format!(
            "{:>5} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>10}  match",
            "line", "empties", "score", "file", "move", "nodes", "seconds", "nodes/s"
        ));
    }

    let mut tt_used = false;
    // The budget runs from here: the first table's allocation is not part of it (the
    // fresh tables of the later problems are).
    let start = Instant::now();
    let deadline = run.time_ms.map(|ms| start + Duration::from_millis(ms));
    let mut totals = Totals::default();
    let mut entries: Vec<Value> = Vec::new();
    let mut out_of_time = false;

    for (line, parsed) in &lines {
        let line = *line;
        let problem = match parsed {
            Err(e) => Err(e.clone()),
            Ok(p) => Ok(p),
        };
        let outcome = match problem {
            Err(e) => Outcome::Error(e),
            Ok(_) if out_of_time => Outcome::NotTried,
            Ok(p) => {
                if tt_used {
                    // Each problem starts from an empty table, as a single solve would: a
                    // fresh allocation (untouched zero pages, faulted in where the solve
                    // writes, inside its time) rather than clearing every page of a table
                    // the last problem may have barely used (clearing 2 GiB after a
                    // 1-empty problem took 20 system CPU-s, outside the budget).
                    drop(tt);
                    tt = TranspositionTable::try_new(tt_mib).map_err(CliError::input)?;
                    if run.threads > 1 {
                        tt.prefault();
                    }
                }
                tt_used = true;
                let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                if remaining.is_some_and(|r| r.is_zero()) {
                    out_of_time = true;
                    let problem = parsed.as_ref().ok();
                    entries.push(report_line(
                        line,
                        problem,
                        &Outcome::NotTried,
                        run.json,
                        &mut totals,
                    ));
                    continue;
                }
                let limits = Limits {
                    time_ms: remaining.map(|r| (r.as_millis() as u64).max(1)),
                    ..Limits::default()
                };
                let sol = Solver::new(&tt, &limits)
                    .with_threads(run.threads)
                    .solve(&p.position);
                match sol.score {
                    Some(score) => Outcome::Solved {
                        score,
                        best: sol.best_move,
                        nodes: sol.nodes,
                        seconds: sol.seconds,
                    },
                    None => {
                        out_of_time = true;
                        Outcome::Stopped {
                            nodes: sol.nodes,
                            seconds: sol.seconds,
                        }
                    }
                }
            }
        };
        let problem = parsed.as_ref().ok();
        entries.push(report_line(line, problem, &outcome, run.json, &mut totals));
    }

    let all_seconds = start.elapsed().as_secs_f64();
    let nps = rate(totals.nodes, totals.seconds);
    if run.json {
        print_json(&json!({
            "game": "othello",
            "file": run.path.display().to_string(),
            "threads": run.threads,
            "tt_mb": tt_mib,
            "problems": entries,
            "totals": {
                "problems": lines.len(),
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
                "wall_seconds": all_seconds,
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
            "total: {:.3} s, {} nodes, {}nodes/s ({:.3} s wall for the batch)",
            totals.seconds,
            totals.nodes,
            si(nps),
            all_seconds
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

/// Prints the text line of one outcome (unless `json`), adds it to the totals and
/// returns its JSON entry.
fn report_line(
    line: usize,
    problem: Option<&ObfProblem>,
    outcome: &Outcome,
    json: bool,
    totals: &mut Totals,
) -> Value {
    match outcome {
        Outcome::Error(e) => {
            totals.errors += 1;
            if !json {
                say(format!("{line:>5} error: line {line}: {e}"));
            }
            json!({"line": line, "error": e})
        }
        Outcome::NotTried => {
            totals.not_tried += 1;
            if !json {
                say(format!("{line:>5} not tried: --time-ms ran out before it"));
            }
            json!({"line": line, "not_tried": true})
        }
        Outcome::Stopped { nodes, seconds } => {
            totals.stopped += 1;
            totals.nodes += nodes;
            totals.seconds += seconds;
            if !json {
                say(format!(
                    "{line:>5} stopped by --time-ms after {seconds:.3} s and {nodes} nodes"
                ));
            }
            json!({"line": line, "stopped": true, "nodes": nodes, "seconds": seconds})
        }
        Outcome::Solved {
            score,
            best,
            nodes,
            seconds,
        } => {
            let p = problem.expect("a solved line was parsed");
            totals.solved += 1;
            totals.nodes += nodes;
            totals.seconds += seconds;
            let expected = p.expected_score();
            // The move's own file score, when the file annotates it, must be the best one.
            let move_score = best.and_then(|m| p.score_of(m));
            let best = best.map(|m| m.to_string());
            let matches = expected.map(|e| e == *score && move_score.is_none_or(|s| s == e));
            match matches {
                Some(true) => totals.matched += 1,
                Some(false) => totals.differ += 1,
                None => totals.unannotated += 1,
            }
            if !json {
                say(format!(
                    "{line:>5} {:>7} {:>+6} {:>6} {:>5} {:>14} {:>9.3} {:>10}  {}",
                    p.position.empties(),
                    score,
                    expected.map_or_else(|| "-".to_string(), |e| format!("{e:+}")),
                    best.as_deref().unwrap_or("-"),
                    nodes,
                    seconds,
                    si(rate(*nodes, *seconds)),
                    match matches {
                        Some(true) => "yes",
                        Some(false) => "NO",
                        None => "-",
                    }
                ));
            }
            json!({
                "line": line,
                "position": p.position.to_string(),
                "empties": p.position.empties(),
                "score": score,
                "move": best,
                "file_score": expected,
                "file_move_score": move_score,
                "matches": matches,
                "nodes": nodes,
                "seconds": seconds,
                "nps": rate(*nodes, *seconds),
            })
        }
    }
}
