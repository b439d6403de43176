//! `tessera nboard othello` driven as the NBoard GUI drives it: the session start, a game
//! given as GGF, `hint` and `go` on every move of a whole game (the GUI sends the move back),
//! `ping` while a deep search runs, and bad lines, which are ignored with a note on stderr.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use tessera::formats::ggf;
use tessera::game::Game;
use tessera::games::othello::{Move, Position};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

/// A `tessera nboard othello` process with a reader thread, so no answer can hang the test.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["nboard", "othello", "--tt-mb", "4"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tessera nboard");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to tessera");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("no '{prefix}' line within {timeout:?}; got {got:?}"),
            }
        }
    }

    /// Sends `ping n` and returns the lines before `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut lines = self.until(&format!("pong {n}"), Duration::from_secs(60));
        lines.pop();
        lines
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_move(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_whole_game_as_the_gui_plays_it() {
    let mut s = Session::start(&["--book", "none"]);
    s.send("nboard 2");
    s.send("set depth 3");
    s.send("set contempt 0");
    // The NBoard document's example game: the GUI sends the whole game first.
    let example = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
    s.send(&format!("set game {example}"));
    let lines = s.sync(1);
    assert_eq!(lines, ["set myname tessera"]);
    let mut pos = ggf::parse_game(example).unwrap().final_position();
    let mut ping = 2;
    while pos.outcome().is_none() {
        let mut legal = <Position as Game>::Moves::default();
        pos.generate_moves(&mut legal);
        // hint 99: one search line per legal move, best first, each PV starting with a
        // legal move.
        s.send("hint 99");
        // (A ping now would stop the search: wait for the answer.)
        let lines = s.until("status tessera is waiting", Duration::from_secs(120));
        let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(hints.len(), legal.len(), "{lines:?}");
        let mut evals = Vec::new();
        for h in &hints {
            let f: Vec<&str> = h.split(' ').collect();
            assert_eq!(f.len(), 5, "{h}");
            let first = f[1].split('-').next().unwrap();
            assert!(pos.is_legal(parse_move(first)), "{h} in {pos}");
            evals.push(f[2].parse::<f64>().unwrap());
            assert_eq!(f[3], "0");
            assert!(f[4].parse::<u32>().unwrap() >= 1);
        }
        assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{hints:?}");
        // go: '=== MOVE/EVAL/TIME'; the engine does not play it, the GUI sends it back.
        s.send("go");
        let lines = s.until("=== ", Duration::from_secs(60));
        let answer = lines.last().unwrap();
        let mv_text = answer[4..].split('/').next().unwrap();
        let mv = parse_move(mv_text);
        assert!(pos.is_legal(mv), "{answer} in {pos}");
        assert_eq!(answer[4..].split('/').count(), 3, "{answer}");
        s.send(&format!("move {mv_text}/0.00/0.01"));
        pos = pos.play(mv);
        let rest = s.sync(ping);
        ping += 1;
        assert!(
            rest.iter()
                .all(|l| l.starts_with("status ") || l.starts_with("nodestats ")),
            "{rest:?}"
        );
    }
    // A finished game: go and hint answer nothing (a note on stderr), ping still answers.
    s.send("go");
    s.send("hint 3");
    assert!(
        s.sync(ping)
            .iter()
            .all(|l| !l.starts_with("===") && !l.starts_with("search"))
    );
    s.send("quit");
    let status = s.child.wait().expect("tessera exits");
    assert!(status.success());
}

#[test]
fn ping_stops_a_running_search() {
    let mut s = Session::start(&["--book", "none"]);
    s.send("nboard 2");
    s.send("set depth 40");
    s.send("set game (;GM[Othello]TY[8];)");
    s.send("go");
    // Wait until the search is running.
    s.until("status tessera is thinking", Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let before = s.sync(7);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "pong took {:?}",
        started.elapsed()
    );
    assert!(!before.iter().any(|l| l.starts_with("===")), "{before:?}");
    // The session goes on normally afterwards.
    s.send("set depth 2");
    s.send("go");
    let lines = s.until("=== ", Duration::from_secs(30));
    let mv = lines.last().unwrap()[4..]
        .split('/')
        .next()
        .unwrap()
        .to_string();
    assert!(Position::start().is_legal(parse_move(&mv)));
}

#[test]
fn bad_lines_are_ignored_and_the_book_answers() {
    let mut s = Session::start(&[]);
    s.send("nboard 1");
    s.send("set depth 2");
    for bad in [
        "set game (;GM[Amazons]B[f5];)",
        "set game (;GM[Othello]B[a1];)",
        "set game (;GM[Othello]",
        "move a1",
        "move zz",
        "hint 0",
        "hint lots",
        "set depth 0",
        "garbage \u{7f} line",
        "",
    ] {
        s.send(bad);
    }
    assert_eq!(s.sync(1), ["set myname tessera"]);
    // Still the start position: the built-in book knows it.
    s.send("hint 999");
    let lines = s.until("status tessera is waiting", Duration::from_secs(60));
    let books: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(books.len(), 4, "{lines:?}");
    for b in books {
        let mv = parse_move(b.split(' ').nth(1).unwrap());
        assert!(Position::start().is_legal(mv), "{b}");
    }
    // An input that ends without quit: the session ends, exit code 0.
    s.stdin = None;
    let status = s.child.wait().expect("exits");
    assert!(status.success());
}
