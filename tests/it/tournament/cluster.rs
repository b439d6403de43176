//! The Slurm job-array scripts (`scripts/slurm-tournament.sh`,
//! `scripts/slurm-selfplay.sh`) and the guide's cluster page (docs/cluster.md).
//!
//! The tests here run the scripts task by task without Slurm (as the array would, with the
//! variables Slurm sets) and check what the guide promises. One test, ignored by default,
//! starts a real one-node Slurm with `scripts/slurm-local.sh` (Debian's `slurm-wlm` and
//! `munge`, as root) and follows the guide's commands through `sbatch`:
//!
//! ```sh
//! cargo test --release --test it tournament::cluster:: -- --ignored
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const TESSERA: &str = env!("CARGO_BIN_EXE_tessera");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// More self-play options for the Slurm test (exact labels from 8 empties, a quick solve).
const SELFPLAY: &[(&str, &str)] = &[("EXTRA", "--exact-empties 8")];
const SCRIPTS: [&str; 2] = ["slurm-tournament.sh", "slurm-selfplay.sh"];

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-cluster-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn script(name: &str) -> String {
    format!("{ROOT}/scripts/{name}")
}

fn guide() -> String {
    std::fs::read_to_string(format!("{ROOT}/docs/cluster.md")).unwrap()
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The exit status is 2 and stderr is one line holding `want`.
fn refused(o: &Output, want: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{want}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(want), "{want}: {err}");
}

/// A PATH holding the tessera under test (as `cargo install` would put it) and the system's.
fn path_with_tessera() -> String {
    let bin = Path::new(TESSERA).parent().unwrap().display().to_string();
    format!("{bin}:{}", std::env::var("PATH").unwrap_or_default())
}

/// Small settings for both scripts (three quick engines; a few self-play games).
fn small(c: &mut Command) -> &mut Command {
    c.env("PATH", path_with_tessera())
        .env("ENGINES", "othello-ab-d1,othello-ab-d2,othello-ab-d3")
        .env("ROUNDS", "4")
        .env("SEED", "11")
        .env("ENGINE", "othello-ab-d1")
        .env("GAMES", "12")
        .env("PLIES", "4-10")
        .env_remove("EXTRA")
        .env_remove("TESSERA")
        .env_remove("SHARDS")
        .env_remove("OUT")
}

/// Runs array task `task` of `name` in `dir` as Slurm would: `SLURM_ARRAY_TASK_COUNT` is the
/// size of the submitted array (1 for `sbatch --array=7`).
fn task(dir: &Path, name: &str, task: u32, count: u32, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    small(&mut c)
        .arg(script(name))
        .current_dir(dir)
        .env("SLURM_ARRAY_TASK_ID", task.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", count.to_string())
        .envs(env.iter().copied());
    c.output().unwrap()
}

/// `NAME` of every `NAME=${NAME:-default}` line of a script: the variables it reads.
fn variables(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once("=${")?;
            let default = rest.strip_prefix(name)?.strip_prefix(":-")?;
            let default = default.strip_suffix('}')?;
            (!name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase()))
                .then(|| (name.to_string(), default.to_string()))
        })
        .collect()
}

/// Defects 1 and 2: the logs went to `shards/slurm-%A_%a.out`, a folder that does not exist
/// when Slurm opens the log (every task failed to launch), and, had it existed, the logs sat
/// among the shard directories `merge shards/*` reads. Now the log is a file in the
/// submission directory, which exists, away from the shard folder.
#[test]
fn the_logs_go_to_the_submission_directory_not_the_shard_folder() {
    for name in SCRIPTS {
        let text = std::fs::read_to_string(script(name)).unwrap();
        let output: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("#SBATCH --output="))
            .collect();
        assert_eq!(output.len(), 1, "{name}: one #SBATCH --output line");
        assert!(
            !output[0].contains('/'),
            "{name}: the log {} needs a folder to exist before the job starts",
            output[0]
        );
        let out = variables(&text)
            .into_iter()
            .find(|(n, _)| n == "OUT")
            .unwrap()
            .1;
        assert!(!output[0].starts_with(&out), "{name}: logs in {out}");
    }
    // The guide's merge after the tournament script (task by task, logs as Slurm names
    // them) reads only shard directories.
    let dir = tmp("logs");
    for t in 1..=16 {
        let o = task(&dir, "slurm-tournament.sh", t, 16, &[]);
        ok(&o);
        std::fs::write(dir.join(format!("tessera-tournament-4_{t}.out")), &o.stderr).unwrap();
    }
    let merge = "tessera tournament merge tournament-shards/* --out merged";
    assert!(guide().contains(merge), "docs/cluster.md shows `{merge}`");
    let mut c = Command::new("bash");
    let o = small(&mut c)
        .args(["-c", merge])
        .current_dir(&dir)
        .output()
        .unwrap();
    ok(&o);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defect 3: Slurm sets `SLURM_ARRAY_TASK_COUNT=1` for `sbatch --array=7`; the scripts
/// took it for the shard count (`--shard 7/1` failed, `--shard 1/1` played the whole
/// tournament). The count is `SHARDS` now, and a rerun task resumes its shard.
#[test]
fn a_rerun_task_plays_its_own_shard_and_resumes() {
    let dir = tmp("rerun");
    for t in [1, 7] {
        ok(&task(&dir, "slurm-tournament.sh", t, 1, &[]));
        let settings =
            std::fs::read_to_string(dir.join(format!("tournament-shards/{t}/tournament.json")))
                .unwrap();
        assert!(
            settings.contains(&format!("\"shard\": \"{t}/16\"")),
            "{settings}"
        );
    }
    // 3 engines x 4 rounds = 12 colour-swapped pairs: shard 1/16 holds pair 0 alone.
    let records = dir.join("tournament-shards/1/games.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    // A task killed after its first game: the rerun keeps it and plays the other one.
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&records, format!("{first}\n")).unwrap();
    ok(&task(&dir, "slurm-tournament.sh", 1, 1, &[]));
    let again = std::fs::read_to_string(&records).unwrap();
    assert_eq!(again.lines().count(), 2, "{again}");
    assert_eq!(
        again.lines().next().unwrap(),
        first,
        "the kept game was played again"
    );
    // Self-play: a rerun plays its shard of the 16, not the whole run.
    ok(&task(&dir, "slurm-selfplay.sh", 3, 1, &[]));
    let data = std::fs::read_to_string(dir.join("selfplay-shards/3.txt")).unwrap();
    assert!(data.contains("# shard 3/16"), "{data}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad settings end the task with one line on stderr and exit status 2, before anything is
/// written: a task beyond the shard count, no task id, a bad count, tessera missing.
#[test]
fn bad_task_settings_are_one_line_exit_2() {
    let dir = tmp("bad");
    for name in SCRIPTS {
        for (t, env, want) in [
            (17, vec![], "array task 17 is beyond SHARDS=16"),
            (3, vec![("SHARDS", "2")], "array task 3 is beyond SHARDS=2"),
            (1, vec![("SHARDS", "0")], "SHARDS='0' is not a shard count"),
            (1, vec![("SHARDS", "x")], "SHARDS='x' is not a shard count"),
            (
                1,
                vec![("TESSERA", "tessera-not-here")],
                "'tessera-not-here' not found",
            ),
            (1, vec![("PATH", "/usr/bin:/bin")], "'tessera' not found"),
        ] {
            refused(&task(&dir, name, t, 16, &env), want);
        }
        let mut c = Command::new("bash");
        let o = small(&mut c)
            .arg(script(name))
            .current_dir(&dir)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .output()
            .unwrap();
        refused(&o, "no array task id");
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a refused task wrote something"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defect 5: every variable a script reads is named, with its default, in the script's
/// header and on the guide's page; the two kinds of job default to different folders.
#[test]
fn the_scripts_and_the_guide_name_every_variable() {
    let page = guide();
    let mut outs = Vec::new();
    for name in SCRIPTS {
        let text = std::fs::read_to_string(script(name)).unwrap();
        let vars = variables(&text);
        assert!(vars.len() >= 8, "{name}: {vars:?}");
        for (var, default) in &vars {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("#   {var} ")))
                .unwrap_or_else(|| panic!("{name}: no header line for {var}"));
            assert!(
                default.is_empty() || default.starts_with('$') || line.contains(default.as_str()),
                "{name}: the header line of {var} lacks its default {default}: {line}"
            );
            assert!(
                page.contains(&format!("`{var}`")),
                "docs/cluster.md does not name {var} (of {name})"
            );
            if var == "OUT" {
                outs.push(default.clone());
            }
        }
    }
    assert_eq!(outs.len(), 2);
    assert_ne!(outs[0], outs[1], "both scripts write into one folder");
    for word in [
        "shared filesystem",
        "move_ms",
        "slurm-local.sh",
        "--array=7",
    ] {
        assert!(page.contains(word), "docs/cluster.md does not say {word}");
    }
}

/// Defect 4: the merged self-play file is not the one-piece file byte for byte; the guide
/// says which lines differ (the `#` header's command line and the `merged from` line), and
/// this checks it: the data lines are equal, and so is every other header line.
#[test]
fn the_merged_selfplay_file_differs_in_the_named_header_lines_only() {
    let dir = tmp("header");
    for t in 1..=3 {
        ok(&task(
            &dir,
            "slurm-selfplay.sh",
            t,
            3,
            &[("SHARDS", "3"), ("EXTRA", "--exact-empties 8")],
        ));
    }
    let mut c = Command::new("bash");
    ok(&small(&mut c)
        .args(["-c", "tessera selfplay othello --engine othello-ab-d1 --games 12 --random-plies 4-10 --seed 11 --exact-empties 8 --no-progress --out whole.txt"])
        .current_dir(&dir)
        .output()
        .unwrap());
    let mut c = Command::new("bash");
    ok(&small(&mut c)
        .args(["-c", "tessera selfplay othello --merge \"$(ls selfplay-shards/*.txt | paste -sd,)\" --out merged.txt"])
        .current_dir(&dir)
        .output()
        .unwrap());
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let (whole, merged) = (read("whole.txt"), read("merged.txt"));
    let split = |t: &str| -> (Vec<String>, Vec<String>) {
        let (h, d): (Vec<&str>, Vec<&str>) = t.lines().partition(|l| l.starts_with('#'));
        let h = h
            .into_iter()
            .filter(|l| !l.starts_with("# command:") && !l.starts_with("# merged from"))
            .map(str::to_string)
            .collect();
        (h, d.into_iter().map(str::to_string).collect())
    };
    let ((wh, wd), (mh, md)) = (split(&whole), split(&merged));
    assert!(wd.len() > 100, "{} data lines", wd.len());
    assert_eq!(md, wd, "the data lines");
    assert_eq!(
        mh, wh,
        "the header lines but the command and merged-from lines"
    );
    assert!(merged.contains("# merged from 3 shards"));
    assert!(
        guide().contains("merged from"),
        "docs/cluster.md names the header lines that differ"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-node Slurm started by `scripts/slurm-local.sh` in a scratch folder, stopped (and
/// the folder removed) when dropped, also when the test fails.
struct LocalSlurm {
    dir: PathBuf,
    conf: String,
}

impl LocalSlurm {
    fn start(dir: PathBuf) -> Self {
        for program in [
            "sbatch",
            "squeue",
            "scontrol",
            "/usr/sbin/slurmctld",
            "/usr/sbin/munged",
        ] {
            assert!(
                Command::new("sh")
                    .args(["-c", &format!("command -v {program}")])
                    .output()
                    .unwrap()
                    .status
                    .success(),
                "{program} is missing: apt-get install -y slurm-wlm munge (as root)"
            );
        }
        let o = Command::new(script("slurm-local.sh"))
            .arg("start")
            .env("SLURM_LOCAL_DIR", &dir)
            .env("SLURM_LOCAL_PORT", "16817")
            .output()
            .unwrap();
        let slurm = Self {
            conf: String::from_utf8_lossy(&o.stdout)
                .trim()
                .strip_prefix("export SLURM_CONF=")
                .unwrap_or_default()
                .to_string(),
            dir,
        };
        ok(&o);
        assert!(!slurm.conf.is_empty(), "no SLURM_CONF line");
        slurm
    }

    /// `bash -c LINE` in `dir` with this Slurm's configuration, tessera on the PATH and the
    /// small settings.
    fn run(&self, dir: &Path, line: &str, env: &[(&str, &str)]) -> Output {
        let mut c = Command::new("bash");
        small(&mut c)
            .args(["-c", line])
            .current_dir(dir)
            .env("SLURM_CONF", &self.conf)
            .envs(env.iter().copied());
        c.output().unwrap()
    }

    /// Submits with `sbatch ...` (`line`), waits until the job has left the queue (at most
    /// two minutes) and returns its id and each task's `JobState` and `ExitCode`.
    fn job(&self, dir: &Path, line: &str, env: &[(&str, &str)]) -> (String, Vec<(String, String)>) {
        let o = self.run(dir, line, env);
        ok(&o);
        let out = String::from_utf8_lossy(&o.stdout);
        let id = out
            .trim()
            .strip_prefix("Submitted batch job ")
            .unwrap_or_else(|| panic!("sbatch said {out}"))
            .to_string();
        let started = Instant::now();
        loop {
            let q = self.run(dir, &format!("squeue -h -j {id}"), &[]);
            if q.stdout.is_empty() {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "job {id} still queued"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
        let show = self.run(dir, &format!("scontrol -o show job {id}"), &[]);
        ok(&show);
        let tasks = String::from_utf8_lossy(&show.stdout)
            .lines()
            .map(|l| {
                let field = |k: &str| {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix(k))
                        .unwrap_or_default()
                        .to_string()
                };
                (field("JobState="), field("ExitCode="))
            })
            .collect();
        (id, tasks)
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let _ = Command::new(script("slurm-local.sh"))
            .arg("stop")
            .env("SLURM_LOCAL_DIR", &self.dir)
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The guide's Slurm section on a real one-node Slurm (`scripts/slurm-local.sh`), its
/// commands as printed: a tournament and a self-play run as 16-task arrays, merged, equal
/// to the runs in one piece (games, report, data lines); a rerun task resumes; bad input
/// fails the job with one line and exit status 2. Needs root and `slurm-wlm munge`; about a
/// minute. Run: `cargo test --release --test it tournament::cluster:: -- --ignored`.
#[test]
#[ignore = "starts a one-node Slurm (root, apt-get install -y slurm-wlm munge); about a minute"]
fn the_guide_slurm_section_on_a_real_slurm() {
    let scratch = tmp("slurm");
    let slurm = LocalSlurm::start(scratch.join("slurm"));
    let work = scratch.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::os::unix::fs::symlink(format!("{ROOT}/scripts"), work.join("scripts")).unwrap();
    let page = guide();
    fn said<'a>(page: &str, line: &'a str) -> &'a str {
        assert!(
            page.contains(line),
            "docs/cluster.md does not show `{line}`"
        );
        line
    }
    let completed = |tasks: &[(String, String)], n: usize| {
        assert_eq!(tasks.len(), n, "{tasks:?}");
        assert!(
            tasks.iter().all(|(s, e)| s == "COMPLETED" && e == "0:0"),
            "{tasks:?}"
        );
    };

    // Tournament: 16 tasks, the merge, the one-piece run.
    let (_, tasks) = slurm.job(
        &work,
        said(&page, "sbatch scripts/slurm-tournament.sh"),
        &[],
    );
    completed(&tasks, 16);
    ok(&slurm.run(
        &work,
        said(
            &page,
            "tessera tournament merge tournament-shards/* --out merged",
        ),
        &[],
    ));
    ok(&slurm.run(
        &work,
        "tessera tournament othello --engines $ENGINES --rounds $ROUNDS --seed $SEED --no-progress --out whole",
        &[],
    ));
    let report = |d: &str| {
        let o = slurm.run(&work, &format!("tessera tournament report {d}"), &[]);
        ok(&o);
        String::from_utf8(o.stdout).unwrap()
    };
    // id -> what was played, in id order (records are written as games end).
    let played = |d: &str| -> std::collections::BTreeMap<u64, String> {
        std::fs::read_to_string(work.join(d).join("games.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let game = format!("{} {} {}", v["engines"], v["moves"], v["points"]);
                (v["id"].as_u64().unwrap(), game)
            })
            .collect()
    };
    assert_eq!(played("merged").len(), 24);
    assert_eq!(played("merged"), played("whole"));
    // The same games: the same report but for the measured times per move.
    assert_eq!(
        crate::common::without_times(&report("merged")),
        crate::common::without_times(&report("whole"))
    );

    // A task rerun: shard 7 lost its last game; the rerun keeps the first and plays it again.
    let records = work.join("tournament-shards/7/games.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&records, format!("{first}\n")).unwrap();
    let (_, tasks) = slurm.job(
        &work,
        said(&page, "sbatch --array=7 scripts/slurm-tournament.sh"),
        &[],
    );
    completed(&tasks, 1);
    let again = std::fs::read_to_string(&records).unwrap();
    assert_eq!(again.lines().count(), text.lines().count());
    assert_eq!(again.lines().next().unwrap(), first);
    ok(&slurm.run(
        &work,
        "tessera tournament merge tournament-shards/* --out merged2",
        &[],
    ));
    assert_eq!(played("merged2"), played("whole"));

    // Self-play: 16 tasks, the merge, the one-piece run's data lines.
    let (_, tasks) = slurm.job(
        &work,
        said(&page, "sbatch scripts/slurm-selfplay.sh"),
        SELFPLAY,
    );
    completed(&tasks, 16);
    ok(&slurm.run(
        &work,
        said(&page, "tessera selfplay othello --merge \"$(ls selfplay-shards/*.txt | paste -sd,)\" --out data/selfplay.txt"),
        &[],
    ));
    ok(&slurm.run(
        &work,
        "tessera selfplay othello --engine $ENGINE --games $GAMES --random-plies $PLIES --seed $SEED $EXTRA --no-progress --out whole.txt",
        SELFPLAY,
    ));
    let data = |f: &str| -> Vec<String> {
        std::fs::read_to_string(work.join(f))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert!(data("whole.txt").len() > 100);
    assert_eq!(data("data/selfplay.txt"), data("whole.txt"));

    // Bad input fails the job: one line in its log, exit status 2.
    let failed = |line: &str, env: &[(&str, &str)], log: &str, want: &str| {
        let (id, tasks) = slurm.job(&work, line, env);
        assert_eq!(tasks.len(), 1, "{tasks:?}");
        assert_eq!(
            tasks[0],
            ("FAILED".to_string(), "2:0".to_string()),
            "{line}"
        );
        let text = std::fs::read_to_string(work.join(log.replace("JOB", &id))).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains(want), "{want}: {text}");
    };
    failed(
        "sbatch --array=17 scripts/slurm-tournament.sh",
        &[],
        "tessera-tournament-JOB_17.out",
        "array task 17 is beyond SHARDS=16",
    );
    failed(
        "sbatch --array=2 scripts/slurm-selfplay.sh",
        &[("TESSERA", "/opt/nowhere/tessera")],
        "tessera-selfplay-JOB_2.out",
        "'/opt/nowhere/tessera' not found",
    );
    // Mixed shard sets: task 1 of an 8-shard split into the 16-shard folder.
    failed(
        "SHARDS=8 sbatch --array=1 scripts/slurm-tournament.sh",
        &[],
        "tessera-tournament-JOB_1.out",
        "holds shard 1/16 of this tournament, not shard 1/8",
    );
    // A missing shard: the merge refuses.
    let o = slurm.run(
        &work,
        "tessera tournament merge $(ls -d tournament-shards/* | grep -v '/5$') --out merged3",
        &[],
    );
    refused(&o, "shard 5 of 16 missing");
    drop(slurm);
    let _ = std::fs::remove_dir_all(&scratch);
}
