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

use tessera::games::othello::obf_batch::{self, BatchSettings};
use tessera::present::obf_batch as view;

use super::output::{CliError, EXIT_UNFINISHED, EXIT_USAGE, print_json, say};

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
        for line in view::header_lines(problems.len(), run.path, run.threads, tt_mib) {
            say(line);
        }
    }
    let mut entries = Vec::new();
    let (totals, wall) = obf_batch::solve(&problems, &settings, &mut |r| {
        if run.json {
            entries.push(r.to_json());
        } else {
            say(view::text_line(r));
        }
    })
    .map_err(CliError::input)?;
    if run.json {
        print_json(&view::to_json(
            run.path,
            (run.threads, tt_mib),
            (problems.len(), entries),
            &totals,
            wall,
        ));
    } else {
        for line in view::totals_lines(&totals, wall) {
            say(line);
        }
    }
    Ok(if totals.errors > 0 {
        ExitCode::from(EXIT_USAGE)
    } else if totals.stopped > 0 || totals.not_tried > 0 {
        ExitCode::from(EXIT_UNFINISHED)
    } else {
        ExitCode::SUCCESS
    })
}
