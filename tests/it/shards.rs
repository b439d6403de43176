//! Issue 18 part 6: a tournament split into shards run by GNU parallel (Debian package
//! `parallel`) and by the Slurm array script `scripts/slurm-tournament.sh` (run task by task
//! without Slurm), then `tournament merge`: the merged records are exactly the games of the
//! same tournament run in one piece.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

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

fn merge(dir: &Path, shards: &[PathBuf]) -> BTreeMap<u64, String> {
    let merged = dir.join("merged");
    let o = Command::new(TESSERA)
        .args(["tournament", "merge"])
        .args(shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    games(&merged)
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
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let shards: Vec<PathBuf> = (1..=4).map(|i| dir.join(format!("shards/{i}"))).collect();
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
