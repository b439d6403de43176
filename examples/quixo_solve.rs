//! Times the Quixo exact solves and reports peak memory:
//! `cargo run --release --example quixo_solve -- [3|4|full] [threads]`.
//!
//! - `3`, `4`: every board of the 3x3 / 4x4 game ([`solve_size`]); prints the value and
//!   length from the empty board and the W/L/D counts (published: 12,748 / 6,935 / 0 and
//!   26,434,489 / 15,003,736 / 1,608,496).
//! - `full`: the 2^25 full 5x5 boards ([`FullBoardTable`]); prints the counts (published:
//!   20,073,427 / 13,326,948 / 154,057) and the longest forced results (70-ply losses,
//!   69-ply wins).
//!
//! Peak memory is the process's `VmHWM` from `/proc/self/status` (Linux).

use std::time::Instant;

use tessera::games::quixo::retro::{FullBoardTable, solve_size};

fn peak_mib() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or("unknown".into(), |kb| format!("{} MiB", kb / 1024))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("3", String::as_str);
    let threads = args.get(1).and_then(|t| t.parse().ok()).unwrap_or(2);
    match what {
        "3" | "4" => match solve_size(what.parse().unwrap(), threads) {
            Ok(s) => println!(
                "{0}x{0}: {1:?} in {2:?} plies; {3} wins / {4} losses / {5} draws; {6:.2} s; peak {7}",
                s.size,
                s.value,
                s.plies,
                s.counts.wins,
                s.counts.losses,
                s.counts.draws,
                s.seconds,
                peak_mib()
            ),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
        "full" => {
            let t = Instant::now();
            let table = FullBoardTable::solve(threads).unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(2);
            });
            let secs = t.elapsed().as_secs_f64();
            let c = table.counts();
            let (l, w) = table.longest();
            println!(
                "5x5 full boards: {} wins / {} losses / {} draws; longest loss {} plies ({} boards), longest win {} plies ({} boards); {secs:.2} s; peak {}",
                c.wins,
                c.losses,
                c.draws,
                l.0,
                l.1,
                w.0,
                w.1,
                peak_mib()
            );
        }
        other => {
            eprintln!(
                "error: '{}' is not 3, 4 or full",
                tessera::game::shown(other)
            );
            std::process::exit(2);
        }
    }
}
