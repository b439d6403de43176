//! `selfplay`: a run split with `--shard I/N` under GNU parallel
//! (Debian package `parallel`) and by the Slurm array script `scripts/slurm-selfplay.sh`
//! (run task by task without Slurm), then `selfplay --merge`: the merged file holds exactly
//! the samples of the run in one piece, in its order; bad merges are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TESSERA: &str = env!("CARGO_BIN_EXE_tessera");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-spshards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const ARGS: &str = "--engine othello-ab-d1 --games 12 --random-plies 4-10 --exact-empties 8 --seed 5 --no-progress";

/// The sample lines of a data file (the `#` lines hold dates and command lines).
fn samples(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn whole(dir: &Path) -> Vec<String> {
    let out = dir.join("whole.txt");
    let o = Command::new(TESSERA)
        .args(["selfplay", "othello"])
        .args(ARGS.split(' '))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    ok(&o);
    samples(&out)
}

fn merge(game: &str, shards: &[PathBuf], out: &Path) -> Output {
    let list: Vec<String> = shards.iter().map(|p| p.display().to_string()).collect();
    Command::new(TESSERA)
        .args(["selfplay", game, "--merge", &list.join(","), "--out"])
        .arg(out)
        .output()
        .unwrap()
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
        eprintln!("!!! GNU parallel is missing: selfplay shards under parallel SKIPPED !!!");
    }
    found.then_some("parallel")
}

#[test]
fn selfplay_shards_under_gnu_parallel_merge_into_the_whole_run() {
    let Some(parallel) = gnu_parallel() else {
        return;
    };
    let dir = tmp("parallel");
    let reference = whole(&dir);
    assert!(reference.len() > 100, "{} samples", reference.len());
    // docs/cluster.md's command: three shards, two at a time.
    let o = Command::new(parallel)
        .current_dir(&dir)
        .args(["--will-cite", "-j", "2", "--halt", "now,fail=1"])
        .arg(format!(
            "{TESSERA} selfplay othello {ARGS} --shard {{}}/3 --out shards/{{}}.txt"
        ))
        .args([":::", "1", "2", "3"])
        .output()
        .unwrap();
    ok(&o);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| dir.join(format!("shards/{i}.txt")))
        .collect();
    for s in &shards {
        let n = samples(s).iter().filter(|l| !l.is_empty()).count();
        assert!(n > 0 && n < reference.len(), "{} holds {n}", s.display());
    }
    // Given in any order, the merge is the run in one piece, line for line.
    let out = dir.join("merged.txt");
    let reversed: Vec<PathBuf> = shards.iter().rev().cloned().collect();
    ok(&merge("othello", &reversed, &out));
    assert_eq!(samples(&out), reference);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_selfplay_script_runs_each_task_as_a_shard() {
    let dir = tmp("slurm");
    let reference = whole(&dir);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-selfplay.sh");
    for task in 1..=4 {
        let o = Command::new("bash")
            .arg(script)
            .current_dir(&dir)
            .env("TESSERA", TESSERA)
            .env("ENGINE", "othello-ab-d1")
            .env("GAMES", "12")
            .env("PLIES", "4-10")
            .env("SEED", "5")
            .env("SHARDS", "4")
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .output()
            .unwrap();
        ok(&o);
    }
    // The script keeps selfplay's default --exact-empties (14); the reference used 8, so
    // compare with a whole run at the script's settings.
    let whole14 = dir.join("whole14.txt");
    ok(&Command::new(TESSERA)
        .args([
            "selfplay",
            "othello",
            "--engine",
            "othello-ab-d1",
            "--games",
            "12",
        ])
        .args([
            "--random-plies",
            "4-10",
            "--seed",
            "5",
            "--no-progress",
            "--out",
        ])
        .arg(&whole14)
        .output()
        .unwrap());
    assert_ne!(
        samples(&whole14),
        reference,
        "the labels depend on --exact-empties"
    );
    let shards: Vec<PathBuf> = (1..=4)
        .map(|i| dir.join(format!("selfplay-shards/{i}.txt")))
        .collect();
    let out = dir.join("merged.txt");
    ok(&merge("othello", &shards, &out));
    assert_eq!(samples(&out), samples(&whole14));
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

#[test]
fn bad_merges_are_one_line_exit_2_nothing_written() {
    let dir = tmp("bad");
    let shard = |i: u32, n: u32, seed: &str| {
        let out = dir.join(format!("s{i}-{n}-{seed}.txt"));
        ok(&Command::new(TESSERA)
            .args([
                "selfplay",
                "othello",
                "--engine",
                "othello-ab-d1",
                "--games",
                "4",
            ])
            .args([
                "--seed",
                seed,
                "--no-progress",
                "--shard",
                &format!("{i}/{n}"),
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap());
        out
    };
    let (a, b) = (shard(1, 2, "1"), shard(2, 2, "1"));
    let other_seed = shard(2, 2, "9");
    let whole = dir.join("whole.txt");
    ok(&Command::new(TESSERA)
        .args([
            "selfplay",
            "othello",
            "--engine",
            "othello-ab-d1",
            "--games",
            "4",
        ])
        .args(["--no-progress", "--out"])
        .arg(&whole)
        .output()
        .unwrap());
    let out = dir.join("merged.txt");
    for (game, files, want) in [
        ("othello", vec![a.clone()], "shard 2 of 2 missing"),
        ("othello", vec![a.clone(), a.clone()], "are both shard 1/2"),
        (
            "othello",
            vec![a.clone(), other_seed],
            "not a shard of the same run",
        ),
        ("othello", vec![whole], "not a shard"),
        ("quixo", vec![a.clone(), b.clone()], "not quixo"),
    ] {
        let o = merge(game, &files, &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{want}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{want}: {err}");
        assert!(!out.exists(), "{want}: wrote {}", out.display());
    }
    ok(&merge("othello", &[a, b], &out));
    let _ = std::fs::remove_dir_all(&dir);
}
