//! Issue 36, records you can trust, end to end through the `tessera` binary: `tournament
//! report` only reads (a torn, an unterminated and a clean `games.jsonl` keep their bytes),
//! a complete last line without its newline counts, a torn one is named and skipped, only a
//! resuming run (which holds the lock) repairs the tail and says so, bytes that are not
//! UTF-8 are refused with the line, and every record that does not follow from the
//! tournament's settings and the rules is refused with `games.jsonl:LINE:` and exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Four games of Othello between depth-1 and depth-2 alpha-beta (two rounds of a pair).
const SMALL: &[&str] = &["--engines", "othello-ab-d1,othello-ab-d2", "--rounds", "2"];

fn tournament(args: &[&str], out: &Path) -> Output {
    bin()
        .args(["tournament", "othello", "--no-progress", "--json", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

fn report(dir: &Path) -> Output {
    bin()
        .args(["tournament", "report", "--json"])
        .arg(dir)
        .output()
        .unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A one-line error with exit code 2.
fn refused(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn report_never_changes_the_records_and_a_resume_repairs_the_tail_saying_so() {
    let dir = tmp("tail");
    json(&tournament(SMALL, &dir));
    let path = dir.join("games.jsonl");
    let clean = bytes(&path);
    assert_eq!(clean.iter().filter(|&&b| b == b'\n').count(), 4);
    // Clean: four games, the file unchanged.
    let v = json(&report(&dir));
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(bytes(&path), clean);

    // The last newline gone (the issue's `truncate -s -1`): the last record is whole and
    // counts; the file is not touched.
    let unterminated = clean[..clean.len() - 1].to_vec();
    std::fs::write(&path, &unterminated).unwrap();
    let o = report(&dir);
    let v = json(&o);
    assert_eq!(v["games"], 4, "{v}");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(bytes(&path), unterminated, "report changed the file");
    // A resume (holding the lock) adds the newline, says so, and plays nothing.
    let o = tournament(SMALL, &dir);
    let v = json(&o);
    assert_eq!(v["played"], 0, "{v}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("added the newline"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(bytes(&path), clean);

    // A last line cut in the middle: named and skipped, the file untouched.
    let cut = clean.len() - 100;
    let torn = clean[..cut].to_vec();
    std::fs::write(&path, &torn).unwrap();
    let o = report(&dir);
    let v = json(&o);
    assert_eq!(v["games"], 3, "{v}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.jsonl:4:") && err.contains("cut short"),
        "{err}"
    );
    assert_eq!(bytes(&path), torn, "report changed the file");
    // Export reads the same way and changes nothing either.
    let o = bin()
        .args(["tournament", "export"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    assert_eq!(bytes(&path), torn, "export changed the file");
    // The resume removes the torn line, says so, and plays that game again.
    let o = tournament(SMALL, &dir);
    let v = json(&o);
    assert_eq!(
        (v["played"].as_u64(), v["resumed"].as_u64()),
        (Some(1), Some(3))
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.jsonl:4:") && err.contains("removed the last line"),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count(), 4);
    assert_eq!(json(&report(&dir))["games"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bytes_that_are_not_utf8_are_refused_with_their_line() {
    let dir = tmp("utf8");
    json(&tournament(SMALL, &dir));
    let path = dir.join("games.jsonl");
    let mut b = bytes(&path);
    let second = b.iter().position(|&c| c == b'\n').unwrap() + 1;
    b[second + 30] = 0xff;
    std::fs::write(&path, &b).unwrap();
    let err = refused(&report(&dir));
    assert!(
        err.contains("games.jsonl:2:") && err.contains("UTF-8"),
        "{err}"
    );
    assert_eq!(bytes(&path), b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A change to one record.
type Edit = dyn Fn(&mut serde_json::Value);

/// Applies each edit to line `line` of a fresh copy of `lines`, and expects `report` (and a
/// resume) to refuse it naming `games.jsonl:LINE:` and `what`.
fn expect_refused(
    dir: &Path,
    args: &[&str],
    lines: &[String],
    cases: Vec<(usize, Box<Edit>, &str)>,
) {
    let path = dir.join("games.jsonl");
    for (line, f, what) in &cases {
        let mut v: serde_json::Value = serde_json::from_str(&lines[line - 1]).unwrap();
        f(&mut v);
        let mut out = lines.to_vec();
        out[line - 1] = serde_json::to_string(&v).unwrap();
        let edited = out.join("\n") + "\n";
        std::fs::write(&path, &edited).unwrap();
        let err = refused(&report(dir));
        assert!(
            err.contains(&format!("games.jsonl:{line}:")) && err.contains(what),
            "expected '{what}': {err}"
        );
        let err = refused(&tournament(args, dir));
        assert!(err.contains(&format!("games.jsonl:{line}:")), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    json(&report(dir));
}

/// The seat to move after the first `k` recorded moves of an Othello record (passes are
/// recorded, so seats alternate; the start's last character is the side to move).
fn to_move_after(v: &serde_json::Value, k: usize) -> usize {
    let first = usize::from(!v["start"].as_str().unwrap().ends_with('X'));
    (first + k) % 2
}

/// Cuts a record's moves to 10 and makes it a forfeit by the seat then to move.
fn forfeit(v: &mut serde_json::Value, reason: &str) {
    for key in ["moves", "move_ms", "move_stats"] {
        if let Some(a) = v[key].as_array_mut() {
            a.truncate(10);
        }
    }
    let loser = to_move_after(v, 10);
    let mut ranks = [1, 1];
    ranks[loser] = 2;
    let mut points = [1.0, 1.0];
    points[loser] = 0.0;
    v["ranks"] = serde_json::json!(ranks);
    v["points"] = serde_json::json!(points);
    v["scores"] = serde_json::json!([]);
    v["reason"] = reason.into();
    v["detail"] = "edited".into();
}

#[test]
fn records_that_do_not_follow_from_the_settings_and_the_rules_are_refused() {
    let dir = tmp("edits");
    json(&tournament(SMALL, &dir));
    let lines: Vec<String> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let swap = |v: &mut serde_json::Value| {
        let e = v["engines"].as_array_mut().unwrap();
        e.reverse();
    };
    let cases: Vec<(usize, Box<Edit>, &str)> = vec![
        // The engines reversed: the other engine would win the game.
        (1, Box::new(swap), "schedule"),
        // A self-game.
        (
            2,
            Box::new(|v| v["engines"] = serde_json::json!(["othello-ab-d2", "othello-ab-d2"])),
            "schedule",
        ),
        // Another pair's block.
        (3, Box::new(|v| v["block"] = 13.into()), "block"),
        // An id outside the schedule (a 31st game of 30).
        (
            4,
            Box::new(|v| v["id"] = 99999.into()),
            "outside the schedule",
        ),
        // Forfeits a built-in engine cannot produce.
        (1, Box::new(|v| forfeit(v, "engine-error")), "built in"),
        (2, Box::new(|v| forfeit(v, "illegal-move")), "built in"),
        // A time forfeit without a clock.
        (
            3,
            Box::new(|v| {
                forfeit(v, "time-forfeit");
                v["overrun_ms"] = 5.into();
            }),
            "no clock",
        ),
        // Adjudications the tournament did not enable.
        (
            4,
            Box::new(|v| {
                forfeit(v, "adjudicated-resign");
            }),
            "--adjudicate resign",
        ),
        (
            1,
            Box::new(|v| {
                for key in ["moves", "move_ms", "move_stats"] {
                    v[key].as_array_mut().unwrap().truncate(20);
                }
                v["reason"] = "adjudicated-exact".into();
                v["scores"] = serde_json::json!([40, 24]);
                v["ranks"] = serde_json::json!([1, 2]);
                v["points"] = serde_json::json!([1.0, 0.0]);
            }),
            "--adjudicate exact",
        ),
    ];
    expect_refused(&dir, SMALL, &lines, cases);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_exact_adjudication_is_solved_again() {
    let dir = tmp("exact");
    let args = [
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--rounds",
        "1",
        "--adjudicate",
        "exact=10",
    ];
    let v = json(&tournament(&args, &dir));
    assert_eq!(v["reasons"]["adjudicated-exact"], 2, "{v}");
    let lines: Vec<String> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    // A solved draw reversed is the same record: use a decided game.
    let line = 1 + lines
        .iter()
        .position(|l| !l.contains("\"ranks\":[1,1]"))
        .expect("a decided game");
    let reverse = |v: &mut serde_json::Value| {
        for key in ["scores", "points", "ranks"] {
            v[key].as_array_mut().unwrap().reverse();
        }
    };
    expect_refused(
        &dir,
        &args,
        &lines,
        vec![(line, Box::new(reverse), "solves to scores")],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
