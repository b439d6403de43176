//! A tournament split into shards run by GNU parallel (Debian package
//! `parallel`) and by the Slurm array script `scripts/slurm-tournament.sh` (run task by task
//! without Slurm), then `tournament merge`: the merged records are exactly the games of the
//! same tournament run in one piece.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::without_times;

const TESSERA: &str = env!("CARGO_BIN_EXE_tessera");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// id -> (engines, moves, points) of every record, without the timing.
fn games(dir: &Path) -> BTreeMap<u64, String> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let key = format!("{} {} {}", v["engines"], v["moves"], v["points"]);
            (v["id"].as_u64().unwrap(), key)
        })
        .collect()
}

const ARGS: &str =
    "--engines othello-ab-d1,othello-ab-d2,othello-ab-d3 --rounds 4 --seed 11 --no-progress";

fn whole(dir: &Path) -> BTreeMap<u64, String> {
    let out = dir.join("whole");
    let o = Command::new(TESSERA)
        .args(["tournament", "othello"])
        .args(ARGS.split(' '))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    games(&out)
}

/// `tournament merge SHARDS --out OUT`.
fn merge_into(shards: &[PathBuf], out: &Path) -> Output {
    Command::new(TESSERA)
        .args(["tournament", "merge"])
        .args(shards)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The games of `shards` merged into `dir/merged`; its report (`tournament report`) must
/// be the one-piece run's (`dir/whole`), line for line but for the measured times per move.
fn merge(dir: &Path, shards: &[PathBuf]) -> BTreeMap<u64, String> {
    let merged = dir.join("merged");
    let o = merge_into(shards, &merged);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = |d: &Path| {
        let o = Command::new(TESSERA)
            .args(["tournament", "report"])
            .arg(d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    // The same games: the same report but for the measured times (each engine's move
    // count stays).
    assert_eq!(
        without_times(&report(&merged)),
        without_times(&report(&dir.join("whole")))
    );
    games(&merged)
}

/// `tessera tournament othello ARGS --shard SHARD --out OUT` with more arguments.
fn shard(shard: &str, out: &Path, more: &[&str]) -> Output {
    Command::new(TESSERA)
        .args(["tournament", "othello"])
        .args(ARGS.split(' '))
        .args(["--concurrency", "1", "--shard", shard])
        .args(more)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The exit status is 2 and stderr one line holding `want`.
fn refused(o: &Output, want: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{want}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(want), "{want}: {err}");
}

/// `parallel`, or `None` (loudly) outside CI; under CI a missing program fails the test.
fn gnu_parallel() -> Option<&'static str> {
    let found = Command::new("parallel").arg("--version").output().is_ok();
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(
        found || !ci,
        "GNU parallel is missing under CI: apt-get install -y parallel (.ci/run does)"
    );
    if !found {
        eprintln!("!!! GNU parallel is missing: shards_under_gnu_parallel is SKIPPED !!!");
    }
    found.then_some("parallel")
}

#[test]
fn shards_under_gnu_parallel_merge_into_the_whole_tournament() {
    let Some(parallel) = gnu_parallel() else {
        return;
    };
    let dir = tmp("parallel");
    let reference = whole(&dir);
    assert_eq!(reference.len(), 3 * 2 * 4);
    // docs/cluster.md's command: three shards, two at a time, each into shards/I.
    let o = Command::new(parallel)
        .current_dir(&dir)
        .args(["--will-cite", "-j", "2", "--halt", "now,fail=1"])
        .arg(format!(
            "{TESSERA} tournament othello {ARGS} --concurrency 1 --shard {{}}/3 --out shards/{{}}"
        ))
        .args([":::", "1", "2", "3"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("shards/{i}"))).collect();
    for s in &shards {
        let n = games(s).len();
        assert!(
            n > 0 && n < reference.len(),
            "{} holds {n} games",
            s.display()
        );
    }
    assert_eq!(merge(&dir, &shards), reference);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_array_script_runs_each_task_as_a_shard() {
    let dir = tmp("slurm");
    let reference = whole(&dir);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-tournament.sh");
    for task in 1..=4 {
        let o = Command::new("bash")
            .arg(script)
            .current_dir(&dir)
            .env("TESSERA", TESSERA)
            .env("ENGINES", "othello-ab-d1,othello-ab-d2,othello-ab-d3")
            .env("ROUNDS", "4")
            .env("SEED", "11")
            .env("SHARDS", "4")
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let shards: Vec<PathBuf> = (1..=4)
        .map(|i| dir.join(format!("tournament-shards/{i}")))
        .collect();
    assert_eq!(merge(&dir, &shards), reference);
    // Without a task id the script refuses to run.
    let o = Command::new("bash")
        .arg(script)
        .current_dir(&dir)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same games in two directories (a shard copied, or rerun on another machine)
/// differ in their timings only; the merge takes them as one game each. A game played
/// differently is still refused.
#[test]
fn overlapping_shards_that_differ_in_timings_only_merge() {
    let dir = tmp("overlap");
    let reference = whole(&dir);
    let (a, b, again) = (dir.join("a"), dir.join("b"), dir.join("again"));
    for (s, out) in [("1/2", &a), ("2/2", &b), ("1/2", &again)] {
        let o = shard(s, out, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // Every machine-dependent field of every record of the copy made different.
    let path = again.join("games.jsonl");
    let retimed: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["seconds"] = serde_json::json!(123.5);
            let n = v["moves"].as_array().unwrap().len();
            v["move_ms"] = serde_json::json!(vec![777; n]);
            for m in v["move_stats"].as_array_mut().unwrap() {
                m["seconds"] = serde_json::json!(0.777);
            }
            v.to_string()
        })
        .collect();
    assert!(!retimed.is_empty());
    std::fs::write(&path, retimed.join("\n") + "\n").unwrap();
    assert_eq!(
        merge(&dir, &[a.clone(), again.clone(), b.clone()]),
        reference
    );
    // Game 0 given the moves and result of game 1 (the same opening; results are per seat)
    // under its own engines: a legal record of another game under the same id.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of =
        |lines: &[serde_json::Value], id: u64| lines.iter().position(|v| v["id"] == id).unwrap();
    let (g0, g1) = (of(&lines, 0), of(&lines, 1));
    assert_ne!(lines[g0]["moves"], lines[g1]["moves"]);
    for key in [
        "moves",
        "scores",
        "points",
        "ranks",
        "reason",
        "move_stats",
        "move_ms",
    ] {
        lines[g0][key] = lines[g1][key].clone();
    }
    let id = 0;
    let body: Vec<String> = lines.iter().map(ToString::to_string).collect();
    std::fs::write(&path, body.join("\n") + "\n").unwrap();
    let out = dir.join("merged2");
    let o = merge_into(&[a, again, b], &out);
    refused(&o, &format!("game {id} is played differently"));
    assert!(!out.join("games.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each shard of an SPRT would stop on its own partial LLR: refused.
#[test]
fn sprt_with_shard_is_refused() {
    let dir = tmp("sprt");
    let out = dir.join("s");
    let o = Command::new(TESSERA)
        .args([
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
        ])
        .args([
            "--sprt",
            "elo0=0,elo1=10",
            "--shard",
            "1/2",
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    refused(&o, "--sprt cannot be combined with --shard");
    assert!(!out.join("games.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shard directory names its shard: the merge refuses a missing shard and shards of
/// different splits, and a directory resumes only as the shard it holds.
#[test]
fn shard_sets_are_checked() {
    let dir = tmp("sets");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    for (s, out) in [("1/2", &a), ("2/2", &b), ("2/3", &c)] {
        let o = shard(s, out, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let out = dir.join("merged");
    refused(
        &merge_into(std::slice::from_ref(&a), &out),
        "shard 2 of 2 missing",
    );
    refused(
        &merge_into(&[a.clone(), c.clone()], &out),
        "holds shard 2/3 but",
    );
    assert!(!out.join("games.jsonl").exists());
    // Shard 2/3's directory resumed as 2/2 (a rerun with another shard count).
    refused(
        &shard("2/2", &c, &[]),
        "holds shard 2/3 of this tournament, not shard 2/2",
    );
    let d = dir.join("d");
    let o = shard("1/2", &d, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    refused(
        &shard("1/3", &d, &[]),
        "holds shard 1/2 of this tournament, not shard 1/3",
    );
    // A record outside its directory's shard (a file copied into the wrong directory).
    std::fs::copy(b.join("games.jsonl"), a.join("games.jsonl")).unwrap();
    let o = merge_into(&[a, b], &out);
    refused(&o, "is not in shard 1/2");
    let _ = std::fs::remove_dir_all(&dir);
}
