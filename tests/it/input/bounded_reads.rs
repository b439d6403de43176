//! Every file tessera reads whole is read with a size cap named in the error.
//! `--weights`, `--ggf` (also `/dev/stdin`), `--obf`, `--data`, `--openings`, `--book` and
//! `play`'s, `gtp`'s and `nboard`'s stdin pointed at `/dev/zero` used to grow to gigabytes within seconds; now each is refused at
//! once (exit 2, one line naming the file and the limit), and a regular file larger than
//! its cap is refused before it is read.

#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs tessera with `args` (stdin from `stdin`), expecting a one-line refusal within 10 s
/// that contains every word of `expect`.
fn refused_quickly(args: &[&str], stdin: Option<&str>, expect: &[&str]) {
    let t = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tessera"));
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    match stdin {
        Some(file) => cmd.stdin(std::fs::File::open(file).unwrap()),
        None => cmd.stdin(Stdio::null()),
    };
    let mut child = cmd.spawn().unwrap();
    let deadline = t + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} still reading after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "{args:?}: expected '{e}' in: {err}");
    }
}

#[test]
fn every_input_file_pointed_at_dev_zero_is_refused_at_once() {
    let out = std::env::temp_dir().join(format!("tessera-bounded-{}", std::process::id()));
    let out_s = out.to_str().unwrap();
    let text = ["/dev/zero", "1 MiB"];
    refused_quickly(
        &[
            "bestmove",
            "othello",
            "--depth",
            "1",
            "--weights",
            "/dev/zero",
        ],
        None,
        // Weights files are read whole once per run (pinned): a device is refused before
        // any read, naming the weights file cap.
        &["/dev/zero", "device", "256 MiB"],
    );
    refused_quickly(&["analyze", "othello", "--ggf", "/dev/zero"], None, &text);
    refused_quickly(
        &["analyze", "othello", "--ggf", "/dev/stdin"],
        Some("/dev/zero"),
        &["/dev/stdin", "1 MiB"],
    );
    refused_quickly(&["solve", "othello", "--obf", "/dev/zero"], None, &text);
    // The protocol servers read their commands line by line from stdin.
    refused_quickly(&["gtp", "othello"], Some("/dev/zero"), &["gtp", "1 MiB"]);
    refused_quickly(
        &["nboard", "othello"],
        Some("/dev/zero"),
        &["nboard", "1 MiB"],
    );
    // The moves of `play` are read line by line from stdin.
    refused_quickly(
        &["play", "othello", "--depth", "1"],
        Some("/dev/zero"),
        &["stdin", "1 MiB"],
    );
    refused_quickly(
        &[
            "tune",
            "othello",
            "--method",
            "texel",
            "--data",
            "/dev/zero",
            "--out",
            out_s,
        ],
        None,
        &text,
    );
    refused_quickly(
        &[
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--openings",
            "/dev/zero",
            "--out",
            out_s,
        ],
        None,
        // Openings files are indexed and read by offset: only a regular file will do.
        &["/dev/zero", "not a regular file"],
    );
    refused_quickly(
        &["bestmove", "othello", "--depth", "1", "--book", "/dev/zero"],
        None,
        &["/dev/zero", "device"],
    );
    assert!(!out.exists(), "a refused command wrote {}", out.display());
}

#[test]
fn a_file_larger_than_its_cap_is_refused_before_reading() {
    let dir = std::env::temp_dir().join(format!("tessera-bounded-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A sparse file: 257 MiB long, nothing on disk.
    let big = dir.join("big.weights");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(257 << 20)
        .unwrap();
    refused_quickly(
        &[
            "bestmove",
            "othello",
            "--depth",
            "1",
            "--weights",
            big.to_str().unwrap(),
        ],
        None,
        &["big.weights", "269484032 bytes", "256 MiB"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
