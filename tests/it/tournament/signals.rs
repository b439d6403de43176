//! Every process tessera starts ends with it. A tournament against an external
//! GTP program that never answers is stopped by `SIGTERM`, `SIGHUP` or two `SIGINT`s while
//! it waits for the program; tessera then ends at once (as the signal's default action) and
//! no process of the program's group survives (before, all were left running under PID 1).

#![cfg(unix)]

use crate::common::{gone, pids};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-signals-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn send(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Starts a tournament against a program that reads its commands and never answers (a shell
/// with a `cat` child reading the shell's stdin, both in the program's process group), waits until both run, sends
/// `signals` 300 ms apart, and checks that tessera ends within 10 s by `expected` and that
/// both processes are gone within 5 s.
fn stop_with(name: &str, signals: &[&str], expected: i32) {
    let dir = tmp(name);
    let pid_file = dir.join("engine.pid");
    let script = dir.join("hang.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ >> {p}\nexec 3<&0\ncat <&3 > /dev/null &\necho $! >> {p}\nwait\n",
            p = pid_file.display()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tournament", "othello", "--no-progress", "--rounds", "1"])
        .args(["--engines", "othello-ab-d1", "--engine"])
        .arg(format!(
            "name=hang,protocol=gtp,command={}",
            script.display()
        ))
        .arg("--out")
        .arg(dir.join("t"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while pids(&pid_file).len() < 2 {
        assert!(Instant::now() < deadline, "the engine never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let engine = pids(&pid_file);
    for (i, s) in signals.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(300));
        }
        send(child.id(), s);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            for &p in &engine {
                send(p, "KILL");
            }
            panic!("tessera did not end within 10 s of {signals:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.signal(), Some(expected), "{signals:?}: {status:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !engine.iter().all(|&p| gone(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let alive: Vec<u32> = engine.iter().copied().filter(|&p| !gone(p)).collect();
    for &p in &alive {
        send(p, "KILL");
    }
    assert!(
        alive.is_empty(),
        "{signals:?}: engine processes {alive:?} outlived tessera"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_ends_every_engine_process() {
    stop_with("term", &["TERM"], 15);
}

#[test]
fn sighup_ends_every_engine_process() {
    stop_with("hup", &["HUP"], 1);
}

#[test]
fn a_second_sigint_ends_every_engine_process() {
    stop_with("int", &["INT", "INT"], 2);
}
