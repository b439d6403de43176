//! An OBF problem file solved line by line, each score compared with the file's, like
//! Edax's `-solve`: `tessera solve othello --obf FILE` is this with a table printed.
//!
//! A line that cannot be read (bad board, side or annotation, no empty square, a finished
//! game, bytes that are not UTF-8) becomes that line's error and the batch goes on. A time
//! budget covers the whole batch: when it runs out, the problem being solved is reported as
//! stopped and the lines after it as not tried.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Move;
use super::endgame::Solver;
use super::obf::ObfProblem;
use crate::search::{Limits, TranspositionTable};

/// Transposition table size for solving a position with more than
/// [`SMALL_SOLVE_MAX_EMPTIES`] empties, MiB.
pub const DEFAULT_SOLVE_TT_MIB: usize = 256;

/// Transposition table size for solving a position with at most
/// [`SMALL_SOLVE_MAX_EMPTIES`] empties, MiB: a quarter of the pages to zero, and with the
/// table's four-way buckets it holds what these solves store (FFO #45, 24 empties: 151.75 M
/// nodes at 64 MiB against 151.73 M at 256; #49, 26 empties: 204.2 M against 204.4 M).
pub const SMALL_SOLVE_TT_MIB: usize = 64;

/// Largest number of empties solved with [`SMALL_SOLVE_TT_MIB`] by default.
pub const SMALL_SOLVE_MAX_EMPTIES: u32 = 26;

/// The table size, MiB, for solving a position with `empties` empty squares: `tt_mib` when
/// given, else [`SMALL_SOLVE_TT_MIB`] up to [`SMALL_SOLVE_MAX_EMPTIES`] empties and
/// [`DEFAULT_SOLVE_TT_MIB`] above.
#[must_use]
pub fn solve_tt_mib(tt_mib: Option<usize>, empties: u32) -> usize {
    match tt_mib {
        Some(mib) => mib,
        None if empties <= SMALL_SOLVE_MAX_EMPTIES => SMALL_SOLVE_TT_MIB,
        None => DEFAULT_SOLVE_TT_MIB,
    }
}

/// The largest OBF file read, bytes.
pub const MAX_OBF_FILE: u64 = 256 << 20;

pub use super::obf::Problems;

/// The problem lines of an OBF file: each with its line number (from 1) and the problem or
/// that line's error ([`super::obf::parse_file`]). Comment and blank lines are left out; a
/// byte-order mark is skipped.
///
/// # Errors
/// The file cannot be read (missing, too large, a line over the line cap), is binary (a NUL
/// byte), holds no problem line at all, or none that parses: one line naming the file.
pub fn read_problems(path: &Path) -> Result<Problems, String> {
    let bytes = crate::game::files::read_line_bytes(path, "OBF file", MAX_OBF_FILE)?;
    super::obf::parse_file(&bytes, path)
}

/// What became of one line.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Solved: the exact score (discs, side to move) and a best move.
    Solved {
        /// Exact final disc difference for the side to move.
        score: i32,
        /// A move reaching it (`None` for a pass-only position).
        best: Option<Move>,
        /// Nodes searched.
        nodes: u64,
        /// Seconds the solve took (wall).
        seconds: f64,
    },
    /// Stopped by the batch's time budget.
    Stopped {
        /// Nodes searched.
        nodes: u64,
        /// Seconds searched (wall).
        seconds: f64,
    },
    /// Not started: the batch's time budget had run out.
    NotTried,
    /// The line could not be read (the message says why).
    Error(String),
}

/// One line's result.
#[derive(Clone, Debug)]
pub struct LineResult<'a> {
    /// The line number in the file, from 1.
    pub line: usize,
    /// The problem, when the line was read.
    pub problem: Option<&'a ObfProblem>,
    /// What became of it.
    pub outcome: Outcome,
}

/// Whether a solved line agrees with the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The file's best score is the solver's, and the file scores the solver's move so too
    /// (or does not score it).
    Matches,
    /// The file says otherwise.
    Differs,
    /// The file gives no score for this position.
    Unannotated,
}

impl LineResult<'_> {
    /// For a solved line: the file's best score, the file's score of the solver's move, and
    /// whether they agree with the solver.
    #[must_use]
    pub fn agreement(&self) -> Option<(Option<i32>, Option<i32>, Agreement)> {
        let (Outcome::Solved { score, best, .. }, Some(p)) = (&self.outcome, self.problem) else {
            return None;
        };
        let expected = p.expected_score();
        // The move's own file score, when the file annotates it, must be the best one.
        let move_score = best.and_then(|m| p.score_of(m));
        let agreement = match expected {
            None => Agreement::Unannotated,
            Some(e) if e == *score && move_score.is_none_or(|s| s == e) => Agreement::Matches,
            Some(_) => Agreement::Differs,
        };
        Some((expected, move_score, agreement))
    }

    /// The line as a JSON object (`line`, then `error`, `not_tried`, `stopped` or the
    /// solve: `position`, `empties`, `score`, `move`, `file_score`, `file_move_score`,
    /// `matches`, `nodes`, `seconds`, `nps`).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let line = self.line;
        match &self.outcome {
            Outcome::Error(e) => json!({"line": line, "error": e}),
            Outcome::NotTried => json!({"line": line, "not_tried": true}),
            Outcome::Stopped { nodes, seconds } => {
                json!({"line": line, "stopped": true, "nodes": nodes, "seconds": seconds})
            }
            Outcome::Solved {
                score,
                best,
                nodes,
                seconds,
            } => {
                let (expected, move_score, agreement) =
                    self.agreement()
                        .unwrap_or((None, None, Agreement::Unannotated));
                let p = self.problem.map(|p| p.position);
                json!({
                    "line": line,
                    "position": p.map(|p| p.to_string()),
                    "empties": p.map(|p| p.empties()),
                    "score": score,
                    "move": best.map(|m| m.to_string()),
                    "file_score": expected,
                    "file_move_score": move_score,
                    "matches": match agreement {
                        Agreement::Matches => Some(true),
                        Agreement::Differs => Some(false),
                        Agreement::Unannotated => None,
                    },
                    "nodes": nodes,
                    "seconds": seconds,
                    "nps": *nodes as f64 / seconds.max(1e-9),
                })
            }
        }
    }
}

/// Batch totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Lines solved.
    pub solved: u32,
    /// Solved lines agreeing with the file.
    pub matched: u32,
    /// Solved lines disagreeing with the file.
    pub differ: u32,
    /// Solved lines the file gives no score for.
    pub unannotated: u32,
    /// Lines that could not be read.
    pub errors: u32,
    /// Lines stopped by the time budget.
    pub stopped: u32,
    /// Lines not started.
    pub not_tried: u32,
    /// Nodes over all solves.
    pub nodes: u64,
    /// Seconds over all solves (wall).
    pub seconds: f64,
}

impl Totals {
    /// Counts one line.
    pub fn add(&mut self, r: &LineResult) {
        match &r.outcome {
            Outcome::Error(_) => self.errors += 1,
            Outcome::NotTried => self.not_tried += 1,
            Outcome::Stopped { nodes, seconds } => {
                self.stopped += 1;
                self.nodes += nodes;
                self.seconds += seconds;
            }
            Outcome::Solved { nodes, seconds, .. } => {
                self.solved += 1;
                self.nodes += nodes;
                self.seconds += seconds;
                match r.agreement().map(|a| a.2) {
                    Some(Agreement::Matches) => self.matched += 1,
                    Some(Agreement::Differs) => self.differ += 1,
                    _ => self.unannotated += 1,
                }
            }
        }
    }
}

/// How to solve a batch.
#[derive(Clone, Copy, Debug)]
pub struct BatchSettings {
    /// Transposition table size, MiB (a fresh table per problem); `None`: [`solve_tt_mib`]
    /// of the file's largest problem.
    pub tt_mib: Option<usize>,
    /// Search threads per solve.
    pub threads: usize,
    /// Budget for the whole batch, milliseconds.
    pub time_ms: Option<u64>,
}

/// The table size a batch of `problems` uses under `settings`, MiB.
#[must_use]
pub fn batch_tt_mib(
    problems: &[(usize, Result<ObfProblem, String>)],
    settings: &BatchSettings,
) -> usize {
    let most_empties = problems
        .iter()
        .filter_map(|(_, p)| p.as_ref().ok().map(|p| p.position.empties()))
        .max()
        .unwrap_or(0);
    solve_tt_mib(settings.tt_mib, most_empties)
}

/// Solves one position exactly as `tessera solve othello` does: a fresh table of
/// [`solve_tt_mib`]`(tt_mib, empties)` MiB (prefaulted for several threads), `threads`
/// threads, `time_ms` for the whole solve; `progress` sees each finished root pass.
///
/// # Errors
/// The table cannot be allocated.
pub fn solve_one(
    pos: &super::Position,
    (tt_mib, threads, time_ms): (Option<usize>, usize, Option<u64>),
    progress: Option<super::endgame::PassCallback<'_>>,
) -> Result<super::endgame::Solution, String> {
    let mut tt = TranspositionTable::try_new(solve_tt_mib(tt_mib, pos.empties()))?;
    if threads > 1 {
        tt.prefault();
    }
    let limits = Limits {
        time_ms,
        ..Limits::default()
    };
    let mut solver = Solver::new(&tt, &limits).with_threads(threads);
    if let Some(progress) = progress {
        solver = solver.with_progress(progress);
    }
    Ok(solver.solve(pos))
}

/// Solves `problems` (from [`read_problems`]) in order; `on_line` hears each line's result
/// as it is known. Returns the totals and the batch's wall seconds.
///
/// # Errors
/// A transposition table of the size asked cannot be allocated.
pub fn solve(
    problems: &[(usize, Result<ObfProblem, String>)],
    settings: &BatchSettings,
    on_line: &mut dyn FnMut(&LineResult),
) -> Result<(Totals, f64), String> {
    let tt_mib = batch_tt_mib(problems, settings);
    let new_table = || -> Result<TranspositionTable, String> {
        let mut tt = TranspositionTable::try_new(tt_mib)?;
        if settings.threads > 1 {
            tt.prefault();
        }
        Ok(tt)
    };
    let mut tt = new_table()?;
    let mut tt_used = false;
    // The budget runs from here: the first table's allocation is not part of it (the
    // fresh tables of the later problems are).
    let start = Instant::now();
    let deadline = settings.time_ms.map(|ms| start + Duration::from_millis(ms));
    let mut totals = Totals::default();
    let mut out_of_time = false;
    for (line, parsed) in problems {
        let outcome = match parsed {
            Err(e) => Outcome::Error(e.clone()),
            Ok(_) if out_of_time => Outcome::NotTried,
            Ok(p) => {
                if tt_used {
                    // Each problem starts from an empty table, as a single solve would: a
                    // fresh allocation (untouched zero pages, faulted in where the solve
                    // writes, inside its time) rather than clearing every page of a table
                    // the last problem may have barely used.
                    drop(tt);
                    tt = new_table()?;
                }
                tt_used = true;
                let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                if remaining.is_some_and(|r| r.is_zero()) {
                    out_of_time = true;
                    Outcome::NotTried
                } else {
                    let limits = Limits {
                        time_ms: remaining.map(|r| (r.as_millis() as u64).max(1)),
                        ..Limits::default()
                    };
                    let sol = Solver::new(&tt, &limits)
                        .with_threads(settings.threads)
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
            }
        };
        let result = LineResult {
            line: *line,
            problem: parsed.as_ref().ok(),
            outcome,
        };
        totals.add(&result);
        on_line(&result);
    }
    Ok((totals, start.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_small_up_to_26_empties_unless_given() {
        assert_eq!(solve_tt_mib(None, 20), 64);
        assert_eq!(solve_tt_mib(None, 26), 64);
        assert_eq!(solve_tt_mib(None, 27), 256);
        assert_eq!(solve_tt_mib(Some(8), 20), 8);
        assert_eq!(solve_tt_mib(Some(512), 30), 512);
    }

    #[test]
    fn a_batch_solves_compares_with_the_file_and_counts_bad_lines() {
        // Line 2 of tests/data/othello/accuracy-small.obf (8-12 empties, every move scored);
        // then the same board claiming a best score 2 higher, then a line that is no board.
        let text = include_str!("../../../tests/data/othello/accuracy-small.obf");
        let good = text.lines().nth(1).unwrap();
        let (board, notes) = good.split_once(';').unwrap();
        let first: i32 = notes
            .split(';')
            .next()
            .unwrap()
            .split(':')
            .nth(1)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let wrong = format!("{board}; A8:{:+};", first + 2);
        let dir = std::env::temp_dir().join(format!("tessera-obf-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.obf");
        std::fs::write(&path, format!("% comment\n{good}\n{wrong}\nnot a board\n")).unwrap();
        let problems = read_problems(&path).unwrap();
        assert_eq!(problems.iter().map(|p| p.0).collect::<Vec<_>>(), [2, 3, 4]);
        let settings = BatchSettings {
            tt_mib: Some(1),
            threads: 1,
            time_ms: None,
        };
        let mut agreements = Vec::new();
        let (totals, _) = solve(&problems, &settings, &mut |r| {
            agreements.push(r.agreement().map(|a| a.2));
        })
        .unwrap();
        assert_eq!(
            agreements,
            [Some(Agreement::Matches), Some(Agreement::Differs), None]
        );
        assert_eq!(
            (totals.solved, totals.matched, totals.differ, totals.errors),
            (2, 1, 1, 1)
        );
        std::fs::write(&path, "% only a comment\n").unwrap();
        assert!(
            read_problems(&path)
                .unwrap_err()
                .contains("has no problem lines")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
