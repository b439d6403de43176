//! `tessera nboard othello` driven as the NBoard GUI drives it: the session start, a game
//! given as GGF, `hint` and `go` on every move of a whole game (the GUI sends the move back),
//! `ping` while a deep search runs, commands that arrive during a search, the end of input
//! during a deep search, `learn` into a book file, and bad lines, which are ignored with an
//! error note on stderr.

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
    errors: Receiver<String>,
}

impl Session {
    fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["nboard", "othello", "--tt-mb", "4"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tessera nboard");
        let lines = read_lines(child.stdout.take().expect("piped stdout"));
        let errors = read_lines(child.stderr.take().expect("piped stderr"));
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            errors,
        }
    }

    /// The stderr lines written so far (waiting up to `timeout` for at least `n`).
    fn stderr_lines(&self, n: usize, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        while got.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.errors.recv_timeout(left) {
                Ok(l) => got.push(l),
                Err(_) => break,
            }
        }
        while let Ok(l) = self.errors.try_recv() {
            got.push(l);
        }
        got
    }

    /// Waits up to `timeout` for the process to exit; its status, or `None` (then killed).
    fn exit_within(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
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

/// The lines of `pipe` on a channel, read by a thread of their own.
fn read_lines(pipe: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
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
    // The stopped search still answers (its last finished iteration), before the pong.
    let answers: Vec<&String> = before.iter().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(answers.len(), 1, "{before:?}");
    let mv = answers[0][4..].split('/').next().unwrap();
    assert!(Position::start().is_legal(parse_move(mv)), "{before:?}");
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
    let mut s = Session::start(&["--book", "builtin"]);
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
    // Bytes that are not UTF-8 are one more unknown line, not the end of the session.
    let stdin = s.stdin.as_mut().unwrap();
    stdin.write_all(b"\xff\xfe move \xc3\n").unwrap();
    stdin.flush().unwrap();
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

/// The GUI closes the pipe while a deep search runs: the search stops, tessera exits 0 at
/// once (no orphan left burning CPU).
#[test]
fn end_of_input_stops_a_deep_search_and_exits() {
    for task in ["go", "hint 10"] {
        let mut s = Session::start(&["--book", "none"]);
        s.send("nboard 2");
        s.send("set depth 30");
        s.send("set game (;GM[Othello]TY[8]B[f5]W[d6]B[c3]W[d3]B[c4];)");
        s.send(task);
        s.until("status tessera is thinking", Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(300));
        let closed = Instant::now();
        s.stdin = None;
        let status = s.exit_within(Duration::from_secs(15));
        assert!(
            status.is_some(),
            "{task}: still running 15 s after the end of input"
        );
        assert!(status.unwrap().success(), "{task}");
        assert!(closed.elapsed() < Duration::from_secs(15));
    }
}

/// Every `hint`/`go` received is answered, in order, even when sent while a search runs;
/// a `move` (a new position) stops the search and drops its answer.
#[test]
fn commands_sent_during_a_search_are_answered_in_turn() {
    let mut s = Session::start(&["--book", "none"]);
    s.send("nboard 2");
    s.send("set depth 5");
    s.send("set game (;GM[Othello]TY[8]B[f5]W[d6];)");
    s.send("hint 2");
    s.send("go");
    s.send("set contempt 0");
    s.send("what is this");
    s.send("hint 1");
    let a = s.until("=== ", Duration::from_secs(60));
    let b = s.until("search ", Duration::from_secs(60));
    let searches = a.iter().filter(|l| l.starts_with("search ")).count();
    assert_eq!(searches, 2, "hint 2 answered before go: {a:?}");
    assert!(b.last().unwrap().starts_with("search "), "{b:?}");
    let rest = s.sync(2);
    assert!(
        rest.iter()
            .all(|l| !l.starts_with("search ") && !l.starts_with("===")),
        "hint 1 gave one line: {rest:?}"
    );
    // A new position drops the running search's answer.
    s.send("set depth 30");
    s.send("go");
    s.until("status tessera is thinking", Duration::from_secs(30));
    s.send("move C3");
    let rest = s.sync(3);
    assert!(!rest.iter().any(|l| l.starts_with("===")), "{rest:?}");
    s.send("set depth 2");
    s.send("hint 99");
    let lines = s.until("status tessera is waiting", Duration::from_secs(30));
    let after = Position::from_transcript("f5d6c3").unwrap();
    let mut legal = <Position as Game>::Moves::default();
    after.generate_moves(&mut legal);
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(
        hints.len(),
        legal.len(),
        "the hint is about f5d6c3: {lines:?}"
    );
}

/// `move` with a malformed eval or time, or an illegal square, gets an error line on
/// stderr naming what was wrong, and the game is unchanged.
#[test]
fn bad_moves_get_an_error_line() {
    let mut s = Session::start(&["--book", "none"]);
    s.send("nboard 2");
    s.send("set depth 2");
    s.send("move F5/abc");
    s.send("move F5/0.5/soon");
    s.send("move A1");
    s.send("set game (;GM[Amazons];)");
    s.send("hint 0");
    s.sync(1);
    let errors = s.stderr_lines(5, Duration::from_secs(10));
    let has = |needles: &[&str]| {
        errors
            .iter()
            .any(|e| e.contains("error") && needles.iter().all(|n| e.contains(n)))
    };
    assert!(has(&["F5/abc", "eval", "abc"]), "{errors:?}");
    assert!(has(&["time", "soon"]), "{errors:?}");
    assert!(has(&["A1", "not legal"]), "{errors:?}");
    assert!(has(&["set game", "Amazons"]), "{errors:?}");
    assert!(has(&["hint 0"]), "{errors:?}");
    // Still the start position: F5 is legal, and its eval/time are accepted.
    s.send("move F5/-0.25/1.5");
    s.send("hint 99");
    let lines = s.until("status tessera is waiting", Duration::from_secs(30));
    let hints = lines.iter().filter(|l| l.starts_with("search ")).count();
    assert_eq!(hints, 3, "three replies to f5: {lines:?}");
    assert!(
        s.stderr_lines(0, Duration::ZERO)
            .iter()
            .all(|e| !e.contains("error")),
        "a good move gave an error"
    );
}

/// `learn` adds the game to the session's book file (created from the built-in book when
/// missing) and answers `learned`; without a book file nothing is written.
#[test]
fn learn_adds_the_game_to_the_book_file() {
    let dir = std::env::temp_dir().join(format!("tessera-it-{}-learn", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.book");
    let line = "f5d6c3d3c4f4c5b3c2e6c6b4";
    let mut s = Session::start(&["--book", file.to_str().unwrap()]);
    s.send("nboard 2");
    s.send("set depth 3");
    let game = ggf_of(line);
    s.send(&format!("set game {game}"));
    s.send("learn");
    let lines = s.until("learned", Duration::from_secs(120));
    assert!(
        lines.contains(&"status tessera is learning".to_string()),
        "{lines:?}"
    );
    s.sync(1);
    let book = tessera::engine::book::Book::load(&file).expect("the book file was written");
    let builtin = tessera::engine::book::Book::builtin();
    assert!(
        book.len() > builtin.len(),
        "{} <= {}",
        book.len(),
        builtin.len()
    );
    // Every position of the line is in the book now, with a legal best move.
    let mut pos = Position::start();
    for i in 0..line.len() / 2 {
        assert!(book.contains(&pos), "ply {i}: {pos}");
        let best = book.probe(&pos)[0].mv;
        assert!(pos.is_legal(best));
        pos = pos.play(parse_move(&line[2 * i..2 * i + 2]));
    }
    assert!(book.contains(&pos));
    // The session plays from what it learned: hint at the end of the line is a book answer.
    s.send("hint 1");
    let lines = s.until("status tessera is waiting", Duration::from_secs(30));
    assert!(lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
    s.send("quit");
    assert!(
        s.exit_within(Duration::from_secs(10))
            .is_some_and(|st| st.success())
    );

    // --book none: learned, nothing written anywhere, a note says why.
    let mut s = Session::start(&["--book", "none"]);
    s.send(&format!("set game {game}"));
    s.send("learn");
    s.until("learned", Duration::from_secs(10));
    let notes = s.stderr_lines(1, Duration::from_secs(10));
    assert!(
        notes.iter().any(|n| n.contains("nothing learned")),
        "{notes:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GGF game of an Othello transcript (passes implied).
fn ggf_of(transcript: &str) -> String {
    let mut g = ggf::GgfGame::new();
    let mut pos = Position::start();
    for i in 0..transcript.len() / 2 {
        let mv = parse_move(&transcript[2 * i..2 * i + 2]);
        g.push(mv, None, None).unwrap();
        pos = pos.play(mv);
    }
    assert_eq!(g.final_position(), pos);
    g.to_ggf()
}

/// The `=== MOVE/EVAL` answers of `bestmove --depth d` for d in 1..=12 after `moves`, as the
/// NBoard session would write them: any finished iteration of the session's search gives
/// one of these.
fn answers_of_finished_iterations(moves: &str) -> Vec<String> {
    (1..=12)
        .map(|d| {
            let out = Command::new(BIN)
                .args(["bestmove", "othello", "--book", "none", "--tt-mb", "4"])
                .args(["--moves", moves, "--depth", &d.to_string(), "--json"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            format!(
                "{}/{:.2}",
                v["move"].as_str().unwrap().to_uppercase(),
                v["score"].as_f64().unwrap() / 100.0
            )
        })
        .collect()
}

/// A `go` stopped by a `ping` sent with it (before depth 1 finished) answered the
/// first legal move with eval 0.00 (`=== C3/0.00/0.00`), and a `hint` stopped that early
/// wrote no `search` line. Now depth 1 is finished first: the answer is that of a finished
/// iteration, and a hint always gives at least its top move.
#[test]
fn go_or_hint_stopped_at_once_still_answers_a_searched_move() {
    let moves = "f5d6c3";
    let finished = answers_of_finished_iterations(moves);
    for round in 0..5 {
        let mut s = Session::start(&["--book", "none"]);
        s.send("nboard 2");
        s.send("set depth 20");
        s.send(&format!("set game {}", ggf_of(moves)));
        {
            let stdin = s.stdin.as_mut().unwrap();
            write!(stdin, "go\nping {round}\n").unwrap();
            stdin.flush().unwrap();
        }
        let mut lines = s.until(&format!("pong {round}"), Duration::from_secs(30));
        lines.pop();
        let answer = lines
            .iter()
            .find(|l| l.starts_with("=== "))
            .expect("an answer");
        let fields: Vec<&str> = answer[4..].split('/').collect();
        let given = format!("{}/{}", fields[0], fields[1]);
        assert!(
            finished.contains(&given),
            "round {round}: '{answer}' is no finished iteration's answer ({finished:?})"
        );
        {
            let stdin = s.stdin.as_mut().unwrap();
            write!(stdin, "hint 3\nping {}\n", round + 100).unwrap();
            stdin.flush().unwrap();
        }
        let lines = s.until(&format!("pong {}", round + 100), Duration::from_secs(30));
        let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
        assert!(
            !searches.is_empty(),
            "round {round}: no search line in {lines:?}"
        );
        for l in searches {
            // search <pv> <eval> 0 <depth>: the move plus at least one ply of reply.
            let depth: u32 = l.split_whitespace().nth(4).unwrap().parse().unwrap();
            assert!(depth >= 2, "{l}");
        }
    }
}

#[test]
fn an_empty_book_flag_is_refused_by_name() {
    let out = Command::new(BIN)
        .args(["nboard", "othello", "--book", ""])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: --book is empty"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
