//! Results by seat in tournament reports, `tessera fairness`, and the HTML pages, through
//! the `tessera` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-fair-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The records of DIR/games.jsonl as JSON values.
fn records(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn report_counts_results_by_seat_from_the_records() {
    let out = tmp("seats");
    let o = bin()
        .args([
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "5",
            "--no-progress",
            "--json",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let rep = json_of(&o);
    let seats = rep["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["name"], "Black (X)");
    assert_eq!(seats[1]["name"], "White (O)");
    // Count Black's results straight from the records (different engines: no repeats).
    let recs = records(&out);
    assert_eq!(recs.len(), 10);
    let (mut w, mut d, mut l, mut points) = (0, 0, 0, 0.0);
    for r in &recs {
        let ranks: Vec<u64> = r["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        match (ranks[0], ranks[1]) {
            (1, 2) => w += 1,
            (1, 1) => d += 1,
            _ => l += 1,
        }
        points += r["points"][0].as_f64().unwrap();
    }
    assert_eq!(seats[0]["games"], 10);
    assert_eq!(
        (
            seats[0]["wins"].as_u64(),
            seats[0]["draws"].as_u64(),
            seats[0]["losses"].as_u64()
        ),
        (Some(w), Some(d), Some(l))
    );
    assert_eq!(seats[1]["wins"].as_u64(), Some(l));
    let score = seats[0]["score"]["value"].as_f64().unwrap();
    assert!(
        (score - points / 10.0).abs() < 1e-9,
        "{score} vs {}",
        points / 10.0
    );
    let (lo, hi) = (
        seats[0]["win"]["lower"].as_f64().unwrap(),
        seats[0]["win"]["upper"].as_f64().unwrap(),
    );
    assert!(lo <= w as f64 / 10.0 && w as f64 / 10.0 <= hi);
    // The text report has the section, and report.json holds the same named seats.
    let text = bin()
        .args(["tournament", "report"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Results by seat") && text.contains("Black (X)"),
        "{text}"
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(saved["seats"], rep["seats"]);
    let _ = std::fs::remove_dir_all(&out);
}
