//! Statistics and safety, end to end through the `tessera` binary: the SPRT
//! examples of the issue accept H1 (and the mirrored test agrees), a locked `--out` is refused
//! naming the owner's PID and a stale lock is taken over, edited records are refused naming
//! the line, external engines die with their process group (a wrapper's children too), and
//! `--engine-log` writes the protocol traffic.

use crate::common::{gone, pids};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-safety-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn tournament(args: &[&str], out: &Path) -> std::process::Output {
    bin()
        .args(["tournament", "othello", "--no-progress", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

fn json(o: &std::process::Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A one-line error with exit code 2.
fn refused(o: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn the_issue_sprt_examples_accept_h1_in_both_engine_orders() {
    // d6 against d1 at normalized [0, 300]: H1 (the old fixed point said H0 after 9 wins).
    let dir = tmp("sprt300");
    let args = [
        "--rounds",
        "50",
        "--seed",
        "3",
        "--sprt",
        "elo0=0,elo1=300",
        "--json",
    ];
    let v = json(&tournament(
        &[&["--engines", "othello-ab-d6,othello-ab-d1"], &args[..]].concat(),
        &dir,
    ));
    assert_eq!(v["sprt"]["decision"], "H1 accepted", "{v}");
    assert!(v["games"].as_u64().unwrap() < 100, "{v}");
    // The same games seen from d1: [-300, 0], H0 and H1 exchanged, the LLR negated.
    let mirror = tmp("sprt300m");
    let w = json(&tournament(
        &[
            &["--engines", "othello-ab-d1,othello-ab-d6"][..],
            &[
                "--rounds",
                "50",
                "--seed",
                "3",
                "--sprt",
                "elo0=-300,elo1=0",
                "--json",
            ],
        ]
        .concat(),
        &mirror,
    ));
    assert_eq!(w["sprt"]["decision"], "H0 accepted", "{w}");
    let (a, b) = (
        v["sprt"]["llr"].as_f64().unwrap(),
        w["sprt"]["llr"].as_f64().unwrap(),
    );
    if v["games"] == w["games"] {
        assert!((a + b).abs() < 1e-6, "{a} vs {b}");
    }
    // [-1500, -500] against an engine that loses (nearly) every game: the LLR moves and the
    // run stops with H1 (it stayed at 0.000 forever).
    let wide = tmp("sprt1500");
    let v = json(&tournament(
        &[
            "--engines",
            "othello-ab-d6,othello-ab-d1",
            "--rounds",
            "50",
            "--seed",
            "3",
            "--sprt",
            "elo0=-1500,elo1=-500",
            "--json",
        ],
        &wide,
    ));
    assert_eq!(v["sprt"]["decision"], "H1 accepted", "{v}");
    for d in [dir, mirror, wide] {
        let _ = std::fs::remove_dir_all(d);
    }
}

const SMALL: &[&str] = &[
    "--engines",
    "othello-ab-d1,othello-ab-d2",
    "--rounds",
    "2",
    "--seed",
    "5",
];

#[test]
fn a_locked_out_is_refused_naming_the_pid_and_a_stale_lock_is_taken_over() {
    let dir = tmp("lock");
    std::fs::create_dir_all(&dir).unwrap();
    let lock_path = dir.join("tournament.lock");
    {
        // This test process plays the running tournament.
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&lock_path)
            .unwrap();
        f.lock().unwrap();
        std::fs::write(&lock_path, format!("{}\n", std::process::id())).unwrap();
        let err = refused(&tournament(SMALL, &dir));
        assert!(
            err.contains(&format!("process {}", std::process::id())),
            "{err}"
        );
        assert!(!dir.join("games.jsonl").exists() && !dir.join("tournament.json").exists());
    }
    // The lock holder is gone (its file still names it): the next run takes over.
    let o = tournament(SMALL, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("games.jsonl"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_runs_on_one_out_never_both_write() {
    let dir = tmp("race");
    let slow = [
        "--engines",
        "othello-ab-d4,othello-ab-d6",
        "--rounds",
        "30",
        "--concurrency",
        "1",
    ];
    let mut first = bin()
        .args(["tournament", "othello", "--no-progress", "--out"])
        .arg(&dir)
        .args(slow)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.join("tournament.lock");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.trim() == first.id().to_string()) {
        assert!(
            Instant::now() < deadline,
            "the first run never took the lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let err = refused(&tournament(&slow, &dir));
    assert!(err.contains(&format!("process {}", first.id())), "{err}");
    let _ = first.kill();
    let _ = first.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A change to one record.
type Edit = dyn Fn(&mut serde_json::Value);

#[test]
fn edited_records_are_refused_naming_the_line() {
    let dir = tmp("edited");
    let o = tournament(SMALL, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = dir.join("games.jsonl");
    let original = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    assert_eq!(lines.len(), 4);
    let report = || {
        bin()
            .args(["tournament", "report"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    assert!(report().status.success());
    let edit = |line: usize, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(lines[line - 1]).unwrap();
        f(&mut v);
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out[line - 1] = serde_json::to_string(&v).unwrap();
        std::fs::write(&path, out.join("\n") + "\n").unwrap();
    };
    let cases: Vec<(usize, Box<Edit>, &str)> = vec![
        (
            2,
            Box::new(|v| v["points"] = serde_json::json!([1.0, 1.0])),
            "points",
        ),
        (
            3,
            Box::new(|v| v["engines"][0] = "othello-ab-d9".into()),
            "othello-ab-d9",
        ),
        (
            1,
            Box::new(|v| {
                let n = v["moves"].as_array().unwrap().len();
                v["moves"][n / 2] = "a1".into();
            }),
            "move",
        ),
        (
            4,
            Box::new(|v| {
                v["moves"].as_array_mut().unwrap().pop();
            }),
            "end",
        ),
        (2, Box::new(|v| v["seed"] = 6.into()), "seed"),
    ];
    for (line, f, what) in &cases {
        edit(*line, f.as_ref());
        let err = refused(&report());
        assert!(
            err.contains(&format!("games.jsonl:{line}:")) && err.contains(what),
            "{err}"
        );
        // Resuming refuses it too, and writes nothing.
        let before = std::fs::read_to_string(&path).unwrap();
        let err = refused(&tournament(SMALL, &dir));
        assert!(err.contains(&format!("games.jsonl:{line}:")), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    }
    // A second record of a game with another result (two runs writing one file).
    let mut v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    v["seconds"] = 99.0.into();
    std::fs::write(
        &path,
        format!("{original}{}\n", serde_json::to_string(&v).unwrap()),
    )
    .unwrap();
    let err = refused(&report());
    assert!(
        err.contains("games.jsonl:5:") && err.contains("first on line 1"),
        "{err}"
    );
    // The untouched file reports again.
    std::fs::write(&path, &original).unwrap();
    assert!(report().status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[cfg(unix)]
#[test]
fn a_wrapper_engines_children_die_with_it_and_engine_log_records_the_traffic() {
    let dir = tmp("group");
    std::fs::create_dir_all(&dir).unwrap();
    let children = dir.join("children.pid");
    // A wrapper that starts a helper in the background and then runs tessera's GTP engine.
    let wrapper = script(
        &dir,
        "wrapper.sh",
        &format!(
            "#!/bin/sh\nsleep 600 &\necho $! >> {}\nexec {} gtp othello --depth 1\n",
            children.display(),
            env!("CARGO_BIN_EXE_tessera")
        ),
    );
    let logs = dir.join("logs");
    let out = dir.join("t");
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1",
            "--engine",
            &format!("name=wrapped,protocol=gtp,command={}", wrapper.display()),
            "--rounds",
            "1",
            "--engine-log",
            logs.to_str().unwrap(),
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let started = pids(&children);
    assert!(
        started.len() >= 2,
        "one helper per engine process: {started:?}"
    );
    for pid in &started {
        assert!(gone(*pid), "helper {pid} outlived its engine");
    }
    // One log per engine process, with what was sent and what came back.
    let files: Vec<PathBuf> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(files.len() >= 2, "{files:?}");
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(files.iter().all(|f| {
        f.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("wrapped-")
    }));
    assert!(text.contains("> genmove"), "{text}");
    assert!(text.contains("< ="), "{text}");
    assert!(text.contains("> quit"), "{text}");

    // A program that hangs in genmove: killed on the timeout with its whole group.
    let hung = dir.join("hung.pid");
    let hanging = script(
        &dir,
        "hang.sh",
        &format!(
            "#!/bin/sh\nsleep 600 &\necho $! >> {p}\nwhile read line; do\n  case \"$line\" in\n    \
             genmove*) sleep 600 & echo $! >> {p}; wait ;;\n    quit*) printf '=\\n\\n'; exit 0 ;;\n    \
             *) printf '=\\n\\n' ;;\n  esac\ndone\n",
            p = hung.display()
        ),
    );
    let out = dir.join("t2");
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1",
            "--engine",
            &format!(
                "name=hangs,protocol=gtp,command={},time-ms=100",
                hanging.display()
            ),
            "--rounds",
            "1",
            "--json",
        ],
        &out,
    );
    let v = json(&o);
    assert_eq!(v["reasons"]["engine-error"], 2, "{v}");
    let started = pids(&hung);
    assert!(started.len() >= 3, "{started:?}");
    for pid in &started {
        assert!(
            gone(*pid),
            "process {pid} of a timed-out engine is still running"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
