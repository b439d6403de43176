//! Helpers shared by the integration tests: a reproducible RNG and random Othello positions.
#![allow(dead_code)] // each test file uses a subset

use tessera::game::Game;
use tessera::games::othello::Position;

/// Marsaglia's xorshift64 (state must be non-zero): reproducible random play.
pub struct Rng(pub u64);

impl Rng {
    /// A generator from any seed (mixed so that small seeds differ quickly).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every legal move of `pos`.
pub fn moves_of<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut list = G::Moves::default();
    pos.generate_moves(&mut list);
    list.to_vec()
}

/// Plays random moves from the start until exactly `empties` squares are empty (a forced
/// pass is played like any move). `None` if the game ended first; the position returned may
/// be finished when it has `empties` empties left and nobody can move.
pub fn random_position(rng: &mut Rng, empties: u32) -> Option<Position> {
    let mut pos = Position::start();
    while pos.empties() > empties {
        let moves = moves_of(&pos);
        if moves.is_empty() {
            return None;
        }
        pos = pos.play(moves[rng.below(moves.len())]);
    }
    Some(pos)
}

/// Whether process `pid` has exited (gone, or a zombie nobody reaped yet).
pub fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// The process ids written (whitespace-separated) to `file` by a test's scripts.
pub fn pids(file: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// A text tournament report with the measured times of its "Time per move" table left
/// out: each row keeps its engine and move count (which the games decide) and drops the
/// milliseconds, which differ from run to run. For comparing reports of the same games
/// played by different runs (shards and their merge against a run in one piece).
pub fn without_times(report: &str) -> String {
    let mut out = String::new();
    let mut in_table = false;
    for line in report.lines() {
        if line == "Time per move (ms; passes excluded)" {
            in_table = true;
        } else if line.trim().is_empty() {
            in_table = false;
        } else if in_table {
            let kept: Vec<&str> = line.split_whitespace().take(2).collect();
            out.push_str(&kept.join(" "));
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A JSON tournament report (`report.json`, `--json`) with each rating row's
/// `time_per_move_ms` cut to its move count, as [`without_times`] does for text.
pub fn without_times_json(mut report: serde_json::Value) -> serde_json::Value {
    if let Some(rows) = report["ratings"].as_array_mut() {
        for row in rows {
            let moves = row["time_per_move_ms"]["moves"].clone();
            row["time_per_move_ms"] = moves;
        }
    }
    report
}

/// Runs the `tessera` binary with `args`, `input` on its standard input (then its end),
/// and returns its exit status and output.
pub fn tessera_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tessera starts");
    {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        // The program may quit before reading everything; a closed pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    } // dropped: end of input
    child.wait_with_output().expect("tessera runs to the end")
}

/// Asserts that `out` is a refusal of bad input: exit 2 and one line on stderr holding
/// each of `needles`.
pub fn refused(out: &std::process::Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "'{n}' not in: {err}");
    }
}
