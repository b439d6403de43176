//! `tessera tune othello --method mpc`: fits the Multi-ProbCut parameters
//! ([`tessera::tuning::mpc_run`]) and prints the residual sigma per depth and phase.

use std::process::ExitCode;

use tessera::tuning::mpc::{self, PHASES};
use tessera::tuning::mpc_run::{self, MpcConfig};

use super::output::{CliError, print_json, say};
use super::progress::Bar;

/// Runs the fit.
///
/// # Errors
/// No data, unreadable or malformed data or weights, too few positions, an unwritable
/// output.
pub fn run(cfg: &MpcConfig, no_progress: bool, json: bool) -> Result<ExitCode, CliError> {
    let s = mpc_run::run(cfg, &Bar::new(no_progress, json))?;
    let secs = s.seconds;
    if json {
        let entries: Vec<serde_json::Value> = s
            .table
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
            "out": cfg.out.display().to_string(),
            "positions": s.positions,
            "seconds": secs,
            "entries": entries,
        }));
    } else {
        say(format!(
            "searched {} positions to depth {} in {secs:.0} s; sigma (centi-discs) by depth and phase:",
            s.positions, cfg.depth
        ));
        let mut line = "depth shallow".to_string();
        for (lo, hi) in PHASES {
            line.push_str(&format!(" {lo:>4}-{hi:<3}"));
        }
        say(line);
        for d in mpc::MIN_DEPTH..=cfg.depth {
            let mut line = format!("{d:>5} {:>7}", mpc::shallow_depth(d));
            for (lo, _) in PHASES {
                match s.table.entry(d, lo) {
                    Some(e) => line.push_str(&format!(" {:>8.0}", e.sigma)),
                    None => line.push_str("        -"),
                }
            }
            say(line);
        }
        say(format!("wrote {}", cfg.out.display()));
    }
    Ok(ExitCode::SUCCESS)
}
