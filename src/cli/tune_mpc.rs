//! `tessera tune othello --method mpc`: fits the Multi-ProbCut parameters
//! ([`tessera::tuning::mpc`]) from self-play positions and writes the parameter file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use tessera::games::othello::Position;
use tessera::games::othello::eval::Eval;
use tessera::tuning::mpc::{self, PHASES};
use tessera::tuning::selfplay;

use super::output::{CliError, print_json, say};

/// What the MPC fit takes from the command line.
pub struct MpcArgs<'a> {
    /// Self-play data files.
    pub data: &'a [PathBuf],
    /// Output parameter file.
    pub out: &'a Path,
    /// Positions to search.
    pub positions: u64,
    /// Deepest search, plies.
    pub depth: u32,
    /// The evaluation's weights file or `builtin:` name.
    pub weights: &'a Path,
    /// Worker threads.
    pub threads: usize,
    /// No progress bar.
    pub no_progress: bool,
    /// One JSON object at the end instead of text.
    pub json: bool,
}

/// Runs the fit.
///
/// # Errors
/// No data, unreadable or malformed data or weights, too few positions, an unwritable
/// output.
pub fn run(args: &MpcArgs<'_>) -> Result<ExitCode, CliError> {
    if args.data.is_empty() {
        return Err(CliError::input(
            "--data FILE is required for --method mpc (from `tessera selfplay othello`)",
        ));
    }
    let eval = Eval::load(args.weights).map_err(CliError::input)?;
    let (positions, read) = pick_positions(args)?;
    let started = Instant::now();
    let bar = if args.no_progress || args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(positions.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} position {pos}/{len} [{elapsed_precise}, ETA {eta}]",
        )
        .map_err(|e| CliError::failure(e.to_string()))?,
    );
    let records = mpc::collect(&positions, &eval, args.depth, args.threads, &|n| {
        bar.set_position(n as u64);
    });
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        "Othello Multi-ProbCut parameters: deep score = a x shallow score + b, residual sigma (centi-discs), per depth pair and empties".to_string(),
        format!("command: {}", tessera::tuning::command_line()),
        format!(
            "data: {} ({read} distinct positions with 13..=60 empties; {} of them, evenly spread, searched)",
            names.join(", "),
            positions.len()
        ),
        format!(
            "searches: iterative deepening to depth {} with {}, 16 MiB table, no MPC; {:.0} s on {} thread(s)",
            args.depth,
            args.weights.display(),
            secs,
            args.threads
        ),
        format!("date: {}", tessera::tuning::utc_date()),
    ];
    let table = mpc::fit_table(&records, args.depth, header).map_err(CliError::input)?;
    std::fs::write(args.out, table.to_text())
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", args.out.display())))?;
    if args.json {
        let entries: Vec<serde_json::Value> = table
            .entries()
            .iter()
            .map(|e| {
                serde_json::json!({
                    "depth": e.depth, "shallow": e.shallow,
                    "empties_min": e.empties_min, "empties_max": e.empties_max,
                    "a": e.a, "b": e.b, "sigma": e.sigma, "samples": e.samples,
                })
            })
            .collect();
        print_json(&serde_json::json!({
            "out": args.out.display().to_string(),
            "positions": positions.len(),
            "seconds": secs,
            "entries": entries,
        }));
    } else {
        say(format!(
            "searched {} positions to depth {} in {secs:.0} s; sigma (centi-discs) by depth and phase:",
            positions.len(),
            args.depth
        ));
        let mut line = "depth shallow".to_string();
        for (lo, hi) in PHASES {
            line.push_str(&format!(" {lo:>4}-{hi:<3}"));
        }
        say(line);
        for d in mpc::MIN_DEPTH..=args.depth {
            let mut line = format!("{d:>5} {:>7}", mpc::shallow_depth(d));
            for (lo, _) in PHASES {
                match table.entry(d, lo) {
                    Some(e) => line.push_str(&format!(" {:>8.0}", e.sigma)),
                    None => line.push_str("        -"),
                }
            }
            say(line);
        }
        say(format!("wrote {}", args.out.display()));
    }
    Ok(ExitCode::SUCCESS)
}

/// The positions to search: the data's distinct positions with 13..=60 empties, at most
/// `--positions` of them spread evenly over the files; and how many there were.
fn pick_positions(args: &MpcArgs<'_>) -> Result<(Vec<Position>, usize), CliError> {
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    for path in args.data {
        for (line, s) in selfplay::read_numbered(path).map_err(CliError::input)? {
            let pos: Position = s.position.parse().map_err(|e| {
                CliError::input(format!(
                    "data file {} line {line}: not an Othello position: {e}",
                    path.display()
                ))
            })?;
            if (13..=60).contains(&pos.empties()) && seen.insert(s.position) {
                all.push(pos);
            }
        }
    }
    if all.is_empty() {
        return Err(CliError::input(
            "the data files hold no Othello position with 13 or more empties",
        ));
    }
    let n = (args.positions as usize).min(all.len());
    let picked = (0..n).map(|i| all[i * all.len() / n]).collect();
    Ok((picked, all.len()))
}
