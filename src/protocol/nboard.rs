//! tessera as an NBoard engine (the protocol of Chris Welty's NBoard GUI, also spoken by
//! NTest and Edax): [`NboardServer`] reads commands line by line and writes every answer
//! line flushed at once. `tessera nboard othello` runs it on stdin/stdout.
//!
//! Commands (protocol version 2; `nboard 1` is accepted too):
//! - `nboard <version>`: the session starts; answered with `set myname tessera`;
//! - `set depth <n>`: the level: midgame depth `n`, exact solving at `2n` empties or fewer
//!   (see [`crate::engine::level`]);
//! - `set game <GGF>`: the whole game (see [`crate::formats::ggf`]);
//! - `set contempt <x>`: accepted, ignored (tessera plays for the disc difference);
//! - `move <mv>[/<eval>[/<time>]]`: one move (`F5`, or `PA` for a pass; a move by the
//!   colour not on move when the side on move has none implies its pass);
//! - `hint <n>`: every legal move is searched and the best `n` reported as
//!   `search <pv> <eval> 0 <depth>` lines, best first (`book <pv> <eval> 0 <depth>` for
//!   moves from the opening book), evals in discs for the side to move;
//! - `go`: `=== <move>/<eval>/<time>` (the engine does not play the move: the GUI sends
//!   `move` next);
//! - `ping <n>`: any search is stopped (its answer dropped), then `pong <n>`;
//! - `learn`: answered `learned` (the book is built offline by `tessera book build`, so
//!   nothing is added; a note says so on stderr);
//! - `quit`: the session ends (a search is stopped first).
//!
//! While a search runs it writes `status tessera is thinking` and `nodestats <nodes>
//! <seconds>` lines (totals since the command). Searches run on a worker thread, so `ping` and `quit` are read and
//! obeyed while one runs; other commands that arrive during a search stop it first.
//! Unknown or malformed lines get a one-line note on stderr and are otherwise ignored, as
//! the protocol asks. At the end of input a running search finishes and is answered.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::engine::analyze::analyze_moves;
use crate::engine::{Player, Thought};
use crate::formats::ggf::{self, GgfGame};
use crate::game::Game;
use crate::games::othello::{Move, Position};
use crate::search::Limits;

pub use crate::engine::level::level_exact_empties;

/// Depth used before the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 8;

/// A move suggested by a book: the move, its value for the side to move (centi-discs) and
/// the depth of the search that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Value for the side to move, centi-discs.
    pub score: i32,
    /// Search depth behind the value.
    pub depth: u32,
}

/// Where `hint` finds book moves: every known move of a position, best first (empty when
/// the position is not in the book).
pub type BookProbe = Arc<dyn Fn(&Position) -> Vec<BookMove> + Send + Sync>;

/// Called with (nodes, seconds) after each search iteration, for `nodestats` lines.
pub type NodeStats = Box<dyn FnMut(u64, f64) + Send>;

/// Builds the engine for a depth (level) with a `nodestats` callback.
pub type EngineFactory = Box<dyn Fn(u32, NodeStats) -> Box<dyn Player<Position>> + Send>;

/// Where answer lines go; every line is flushed at once.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum NboardCommand {
    /// `nboard <version>`.
    Nboard(String),
    /// `set depth <n>`.
    SetDepth(u32),
    /// `set game <GGF>`.
    SetGame(String),
    /// `set contempt <x>`.
    SetContempt(String),
    /// `move <mv>[/<eval>[/<time>]]`: the move text (before the first `/`).
    Move(String),
    /// `hint <n>`.
    Hint(u32),
    /// `go`.
    Go,
    /// `ping <n>`.
    Ping(String),
    /// `learn`.
    Learn,
    /// `quit`.
    Quit,
    /// An empty line.
    Empty,
    /// A line that is not a command (or a command with a bad argument): the reason.
    Bad(String),
}

/// Parses one line from the GUI.
#[must_use]
pub fn parse_command(line: &str) -> NboardCommand {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let number = |what: &str| -> Result<u32, NboardCommand> {
        rest.parse::<u32>()
            .map_err(|_| NboardCommand::Bad(format!("{what} needs a whole number, got '{rest}'")))
    };
    match word {
        "" => NboardCommand::Empty,
        "nboard" => NboardCommand::Nboard(rest.to_string()),
        "set" => {
            let (what, value) = match rest.split_once(char::is_whitespace) {
                Some((w, v)) => (w, v.trim()),
                None => (rest, ""),
            };
            match what {
                "depth" => match value.parse::<u32>() {
                    Ok(d) if (1..=60).contains(&d) => NboardCommand::SetDepth(d),
                    _ => {
                        NboardCommand::Bad(format!("set depth needs a depth 1..60, got '{value}'"))
                    }
                },
                "game" => NboardCommand::SetGame(value.to_string()),
                "contempt" => NboardCommand::SetContempt(value.to_string()),
                _ => NboardCommand::Bad(format!("unknown setting 'set {what}'")),
            }
        }
        "move" if !rest.is_empty() => {
            NboardCommand::Move(rest.split('/').next().unwrap_or("").trim().to_string())
        }
        "move" => NboardCommand::Bad("move needs a square, e.g. 'move F5'".into()),
        "hint" => match number("hint") {
            Ok(0) => NboardCommand::Bad("hint 0 asks for no move".into()),
            Ok(n) => NboardCommand::Hint(n),
            Err(e) => e,
        },
        "go" => NboardCommand::Go,
        "ping" => NboardCommand::Ping(rest.to_string()),
        "learn" => NboardCommand::Learn,
        "quit" => NboardCommand::Quit,
        _ => NboardCommand::Bad(format!("unknown command '{}'", crate::game::shown(line))),
    }
}

/// A move in NBoard text: `F5`, `PA` for a pass.
#[must_use]
pub fn move_text(mv: Move) -> String {
    match mv.square() {
        Some(sq) => sq.to_string().to_ascii_uppercase(),
        None => "PA".to_string(),
    }
}

/// A principal variation in NBoard text: `F5-D6-C3`.
#[must_use]
pub fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| move_text(m))
        .collect::<Vec<_>>()
        .join("-")
}

/// Centi-discs as NBoard's eval in discs: `1.25`, `-0.50`.
#[must_use]
pub fn eval_text(centi_discs: i32) -> String {
    format!("{:.2}", f64::from(centi_discs) / 100.0)
}

/// The `search` line of one analysed move.
#[must_use]
pub fn search_line(t: &Thought<Move>) -> String {
    format!(
        "search {} {} 0 {}",
        pv_text(&t.pv),
        eval_text(t.score),
        t.depth
    )
}

/// Nodes and time of the current task, for `nodestats` (a `hint` runs one search per move).
struct Progress {
    base: u64,
    last: u64,
    started: Instant,
}

impl Progress {
    fn new() -> Self {
        Self {
            base: 0,
            last: 0,
            started: Instant::now(),
        }
    }
}

/// A search running on the worker thread.
struct Worker {
    handle: JoinHandle<Box<dyn Player<Position>>>,
    stop: Arc<AtomicBool>,
}

/// An NBoard session (see the module documentation).
pub struct NboardServer {
    factory: EngineFactory,
    engine: Option<Box<dyn Player<Position>>>,
    worker: Option<Worker>,
    depth: u32,
    game: GgfGame,
    book: Option<BookProbe>,
    out: Output,
    name: String,
    progress: Arc<Mutex<Progress>>,
}

/// Writes one line and flushes it.
fn emit(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A note for people on stderr (the GUI ignores it).
fn note(text: &str) {
    eprintln!("tessera nboard: {text}");
}

impl NboardServer {
    /// A session writing to `out`; `factory` builds the engine for a depth (again after each
    /// `set depth`), `book` gives the book moves of a position (`None`: no book), and `name`
    /// is the name announced with `set myname`.
    #[must_use]
    pub fn new(factory: EngineFactory, book: Option<BookProbe>, out: Output, name: &str) -> Self {
        Self {
            factory,
            engine: None,
            worker: None,
            depth: DEFAULT_DEPTH,
            game: GgfGame::new(),
            book,
            out,
            name: name.to_string(),
            progress: Arc::new(Mutex::new(Progress::new())),
        }
    }

    /// The current position (at the end of the game).
    #[must_use]
    pub fn position(&self) -> Position {
        self.game.final_position()
    }

    /// Reads commands from `input` until `quit` or its end, answering on the output.
    pub fn run(mut self, input: impl BufRead + Send + 'static) {
        let lines = spawn_reader(input);
        loop {
            let Ok(line) = lines.recv() else {
                // End of input: let a running search finish and answer.
                self.finish(false);
                return;
            };
            if !self.handle(&line) {
                return;
            }
        }
    }

    /// Handles one line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = parse_command(line);
        match &command {
            NboardCommand::Empty | NboardCommand::SetContempt(_) => return true,
            NboardCommand::Bad(why) => {
                note(&format!("{why} (ignored)"));
                return true;
            }
            _ => {}
        }
        // Everything else stops a search first (the GUI sends ping before changing
        // the game, so this is a safeguard).
        self.finish(true);
        match command {
            NboardCommand::Nboard(v) => {
                if v != "1" && v != "2" {
                    note(&format!(
                        "protocol version '{v}' is not 1 or 2; carrying on with version 2"
                    ));
                }
                emit(&self.out, &format!("set myname {}", self.name));
            }
            NboardCommand::SetDepth(d) => {
                if d != self.depth {
                    self.engine = None;
                }
                self.depth = d;
            }
            NboardCommand::SetGame(text) => match ggf::parse_game(&text) {
                Ok(g) => self.game = g,
                Err(e) => note(&format!("set game refused: {e}")),
            },
            NboardCommand::Move(text) => {
                if let Err(e) = self.play(&text) {
                    note(&format!("move refused: {e}"));
                }
            }
            NboardCommand::Hint(n) => self.start(Task::Hint(n)),
            NboardCommand::Go => self.start(Task::Go),
            NboardCommand::Ping(n) => emit(&self.out, &format!("pong {n}")),
            NboardCommand::Learn => {
                note("learn: the book is built by `tessera book build`; nothing added");
                emit(&self.out, "learned");
            }
            NboardCommand::Quit => return false,
            NboardCommand::Empty | NboardCommand::SetContempt(_) | NboardCommand::Bad(_) => {}
        }
        true
    }

    /// Waits for a running search to finish and answer (tests, end of input).
    pub fn wait(&mut self) {
        self.finish(false);
    }

    /// Appends a move (a move by the colour not on move implies a forced pass).
    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = Move::parse(text).map_err(|e| e.0)?;
        let pos = self.position();
        if !mv.is_pass() && pos.legal_placements() == 0 && pos.is_legal(Move::PASS) {
            self.game.push(Move::PASS, None, None)?;
        }
        self.game.push(mv, None, None)
    }

    /// Stops (when `stop`) and waits for a running search; keeps the engine.
    fn finish(&mut self, stop: bool) {
        if let Some(w) = self.worker.take() {
            if stop {
                w.stop.store(true, Ordering::Relaxed);
            }
            match w.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => note("the search thread failed; a new engine is built"),
            }
        }
    }

    /// Starts a `hint` or `go` search on the worker thread.
    fn start(&mut self, task: Task) {
        let pos = self.position();
        if pos.outcome().is_some() {
            note("the game is over: no move to search");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => {
                let stats_out = self.out.clone();
                let progress = self.progress.clone();
                (self.factory)(
                    self.depth,
                    Box::new(move |nodes, _secs| {
                        let Ok(mut p) = progress.lock() else { return };
                        // A new search of the same task (hint searches move by move).
                        if nodes < p.last {
                            p.base += p.last;
                        }
                        p.last = nodes;
                        let line = format!(
                            "nodestats {} {:.2}",
                            p.base + nodes,
                            p.started.elapsed().as_secs_f64()
                        );
                        emit(&stats_out, &line);
                    }),
                )
            }
        };
        if let Ok(mut p) = self.progress.lock() {
            *p = Progress::new();
        }
        // The level: solved to the end from 2 x depth empties (the depth limit dropped).
        let limits = crate::engine::level::level_limits(
            &pos,
            &Limits {
                depth: Some(self.depth),
                stop: Some(stop.clone()),
                ..Limits::default()
            },
            level_exact_empties(self.depth),
        );
        let book = self.book.clone();
        let flag = stop.clone();
        let name = self.name.clone();
        let handle = std::thread::spawn(move || {
            emit(&out, &format!("status {name} is thinking"));
            let started = Instant::now();
            let lines = match task {
                Task::Go => go(engine.as_mut(), &pos, &limits, book.as_ref(), started),
                Task::Hint(n) => hint(engine.as_mut(), &pos, &limits, book.as_ref(), n),
            };
            if !flag.load(Ordering::Relaxed) {
                match lines {
                    Ok(lines) => {
                        for l in lines {
                            emit(&out, &l);
                        }
                    }
                    Err(e) => note(&format!("search failed: {e}")),
                }
            }
            emit(&out, &format!("status {name} is waiting"));
            engine
        });
        self.worker = Some(Worker { handle, stop });
    }
}

/// What the worker does.
#[derive(Clone, Copy)]
enum Task {
    Go,
    Hint(u32),
}

/// `go`: the book move if there is one, else the engine's; `=== MOVE/EVAL/TIME`.
fn go(
    engine: &mut dyn Player<Position>,
    pos: &Position,
    limits: &Limits,
    book: Option<&BookProbe>,
    started: Instant,
) -> Result<Vec<String>, String> {
    if let Some(b) = book.and_then(|probe| probe(pos).into_iter().next()) {
        return Ok(vec![format!(
            "=== {}/{}/{:.2}",
            move_text(b.mv),
            eval_text(b.score),
            started.elapsed().as_secs_f64()
        )]);
    }
    let t = engine.choose(pos, limits)?;
    let mv = t.best_move.ok_or("no move in an unfinished game")?;
    Ok(vec![format!(
        "=== {}/{}/{:.2}",
        move_text(mv),
        eval_text(t.score),
        started.elapsed().as_secs_f64()
    )])
}

/// `hint n`: the best `n` moves, book moves as `book` lines, the rest searched.
fn hint(
    engine: &mut dyn Player<Position>,
    pos: &Position,
    limits: &Limits,
    book: Option<&BookProbe>,
    n: u32,
) -> Result<Vec<String>, String> {
    let book_moves = book.map(|probe| probe(pos)).unwrap_or_default();
    if !book_moves.is_empty() {
        return Ok(book_moves
            .iter()
            .take(n as usize)
            .map(|b| {
                format!(
                    "book {} {} 0 {}",
                    move_text(b.mv),
                    eval_text(b.score),
                    b.depth
                )
            })
            .collect());
    }
    // Each move gets the full depth less one ply (analyze_moves splits budgets).
    let scores = analyze_moves(engine, pos, limits)?;
    Ok(scores.iter().take(n as usize).map(search_line).collect())
}

/// Lines of `input` on a channel, read by a thread of their own so commands arrive while a
/// search runs.
fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("nboard 2"), NboardCommand::Nboard("2".into()));
        assert_eq!(parse_command("set depth 6"), NboardCommand::SetDepth(6));
        assert_eq!(
            parse_command("move F5/0.50/3.2"),
            NboardCommand::Move("F5".into())
        );
        assert_eq!(parse_command("hint 3"), NboardCommand::Hint(3));
        assert_eq!(parse_command("ping 12"), NboardCommand::Ping("12".into()));
        assert_eq!(parse_command("  "), NboardCommand::Empty);
        for bad in [
            "hint 0",
            "hint x",
            "set depth 0",
            "set depth",
            "move",
            "frobnicate",
            "set color 3",
        ] {
            assert!(matches!(parse_command(bad), NboardCommand::Bad(_)), "{bad}");
        }
    }

    /// An output buffer the test can read.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn take_lines(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    fn server(book: Option<BookProbe>) -> (NboardServer, Buffer) {
        use crate::games::othello as oth;
        let buffer = Buffer::default();
        let out: Output = Arc::new(Mutex::new(Box::new(buffer.clone())));
        let factory: EngineFactory = Box::new(|depth, mut stats: NodeStats| {
            Box::new(
                crate::engine::othello::alphabeta_engine(
                    "t",
                    oth::eval::Weights::default(),
                    1,
                    level_exact_empties(depth),
                )
                .with_progress(move |i| stats(i.nodes, i.elapsed.as_secs_f64())),
            ) as Box<dyn Player<Position>>
        });
        (NboardServer::new(factory, book, out, "tessera"), buffer)
    }

    #[test]
    fn a_whole_game_with_hints_and_a_ping() {
        let (mut s, out) = server(None);
        for line in [
            "nboard 2",
            "set depth 2",
            "set contempt 0",
            "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)",
        ] {
            assert!(s.handle(line));
        }
        assert_eq!(out.take_lines(), ["set myname tessera"]);
        let mut plies = 2;
        while s.position().outcome().is_none() {
            let mut legal = <Position as Game>::Moves::default();
            s.position().generate_moves(&mut legal);
            s.handle("hint 99");
            s.wait();
            let hints: Vec<String> = out
                .take_lines()
                .into_iter()
                .filter(|l| l.starts_with("search "))
                .collect();
            assert_eq!(hints.len(), legal.len(), "one search line per legal move");
            let evals: Vec<f64> = hints
                .iter()
                .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
                .collect();
            assert!(
                evals.windows(2).all(|w| w[0] >= w[1]),
                "best first: {hints:?}"
            );
            s.handle("go");
            s.wait();
            let lines = out.take_lines();
            assert_eq!(
                lines.first().map(String::as_str),
                Some("status tessera is thinking")
            );
            assert_eq!(
                lines.last().map(String::as_str),
                Some("status tessera is waiting")
            );
            let answer = lines
                .iter()
                .find(|l| l.starts_with("=== "))
                .expect("an answer to go");
            let mv = answer[4..].split('/').next().unwrap().to_string();
            assert!(
                hints.iter().any(|h| h.starts_with(&format!("search {mv}"))),
                "{answer} is not among the hints {hints:?}"
            );
            let before = s.position();
            s.handle(&format!("move {mv}/0.00/0.1"));
            assert_ne!(s.position(), before, "the move was played");
            plies += 1;
            assert!(plies < 130);
        }
        // The game is over: go and hint answer nothing; ping still does.
        s.handle("go");
        s.handle("ping 9");
        assert_eq!(out.take_lines(), ["pong 9"]);
    }

    #[test]
    fn ping_stops_a_search_and_drops_its_answer() {
        let (mut s, out) = server(None);
        s.handle("nboard 2");
        s.handle("set depth 40");
        s.handle("go");
        let started = Instant::now();
        s.handle("ping 3");
        assert!(
            started.elapsed().as_secs() < 10,
            "ping waited for the search"
        );
        let lines = out.take_lines();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("pong 3"),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    }

    #[test]
    fn bad_input_is_ignored() {
        let (mut s, out) = server(None);
        let start = s.position();
        for line in [
            "set game (;GM[Amazons];)",
            "set game (;GM[Othello]B[a1];)",
            "set game garbage",
            "move a1",
            "move z9",
            "hint 0",
            "hint -1",
            "set depth 99",
            "xyzzy",
            "\u{1}\u{2}",
        ] {
            assert!(s.handle(line), "{line}");
        }
        assert_eq!(s.position(), start);
        s.handle("ping 1");
        assert_eq!(out.take_lines(), ["pong 1"]);
        // A book answers hint and go without a search.
        let probe: BookProbe = Arc::new(|p: &Position| {
            if *p == Position::start() {
                vec![BookMove {
                    mv: Move::parse("f5").unwrap(),
                    score: 0,
                    depth: 12,
                }]
            } else {
                Vec::new()
            }
        });
        let (mut s, out) = server(Some(probe));
        s.handle("hint 3");
        s.wait();
        s.handle("go");
        s.wait();
        let lines: Vec<String> = out
            .take_lines()
            .into_iter()
            .filter(|l| !l.starts_with("status"))
            .collect();
        assert_eq!(lines[0], "book F5 0.00 0 12");
        assert!(lines[1].starts_with("=== F5/0.00/"), "{lines:?}");
    }

    #[test]
    fn texts() {
        let pv: Vec<Move> = ["f5", "pass", "d6"]
            .iter()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        assert_eq!(pv_text(&pv), "F5-PA-D6");
        assert_eq!(eval_text(-50), "-0.50");
        assert_eq!(eval_text(125), "1.25");
    }
}
