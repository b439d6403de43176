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
//!   colour not on move when the side on move has none implies its pass); the eval and
//!   time are kept in the game record;
//! - `hint <n>`: every legal move is searched and the best `n` reported as
//!   `search <pv> <eval> 0 <depth>` lines, best first (`book <pv> <eval> 0 <depth>` for
//!   moves from the opening book), evals in discs for the side to move;
//! - `go`: `=== <move>/<eval>/<time>` (the engine does not play the move: the GUI sends
//!   `move` next);
//! - `ping <n>`: `pong <n>` (see below for a running search);
//! - `learn`: the game is added to the book (as Edax's `learn`): every midgame position of
//!   the game the book lacks (or knows only from a shallower analysis) is analysed at the
//!   session's depth, values are backed up, and the book is saved to the book file of the
//!   session ([`NboardServer::with_learning`], `--book FILE`), then `learned`. Without a
//!   book file nothing is learned (the built-in book is never changed): a note on stderr,
//!   then `learned`, so a GUI waiting for it goes on;
//! - `quit`: the session ends (a running search is stopped first, its answer dropped).
//!
//! **Commands during a search** (as Edax, whose input thread stops the search on `ping`):
//! `hint`, `go` and `learn` run on a worker thread while the input is read on, and every
//! `hint`/`go` received is answered unless something supersedes it:
//! - `ping <n>` stops the search; its (possibly truncated: the last finished iteration,
//!   the moves searched so far) answer is written, then `pong <n>`. Commands queued behind
//!   the search are superseded: queued `hint`, `go` and `learn` are dropped (a note on
//!   stderr), queued settings applied;
//! - `set game` and `move` (a new position) stop the search and drop its answer (it would
//!   be about the old position), supersede the queue the same way, then apply;
//! - `quit` and the end of input stop the search and end the session (exit code 0); at
//!   the end of input the truncated answer is still written;
//! - `nboard`, `set depth`, `hint`, `go` and `learn` wait in a queue and are carried out in
//!   order when the search ends, so each `hint`/`go` gets its answer;
//! - lines that change nothing (`set contempt`, empty, malformed or unknown lines) are
//!   handled at once and do not disturb the search.
//!
//! While a search runs it writes `status tessera is thinking` and `nodestats <nodes>
//! <seconds>` lines (totals since the command), then `status tessera is waiting`.
//! Unknown or malformed lines (a bad `move` field, a move that is not legal, naming the
//! square, a non-Othello `set game`, `hint 0`) get a one-line `error` note on stderr and are
//! otherwise ignored, as the protocol asks.

use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::engine::analyze::analyze_moves;
use crate::engine::book::Book;
use crate::engine::{Player, Thought};
use crate::formats::ggf::{self, GgfGame};
use crate::game::Game;
use crate::games::othello::{Move, Position};
use crate::search::Limits;

pub use crate::engine::level::level_exact_empties;

/// Depth used before the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 8;

/// Called with (nodes, seconds) after each search iteration, for `nodestats` lines.
pub type NodeStats = Box<dyn FnMut(u64, f64) + Send>;

/// Builds the engine for a depth (level) with a `nodestats` callback.
pub type EngineFactory = Box<dyn Fn(u32, NodeStats) -> Box<dyn Player<Position>> + Send>;

/// Where answer lines go; every line is flushed at once.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The session's opening book, shared with the worker thread (`learn` adds to it).
pub type SharedBook = Arc<Mutex<Book>>;

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
    /// `move <mv>[/<eval>[/<time>]]`: the move, and the eval (discs) and time (seconds)
    /// when given.
    Move(Move, Option<f64>, Option<f64>),
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
                _ => NboardCommand::Bad(format!(
                    "unknown setting 'set {}'",
                    crate::game::shown(what)
                )),
            }
        }
        "move" if !rest.is_empty() => match ggf::parse_move_value(rest) {
            Ok((mv, eval, time)) => NboardCommand::Move(mv, eval, time),
            Err(e) => NboardCommand::Bad(format!("move {}: {e}", crate::game::shown(rest))),
        },
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

/// What a worker hands back: the engine, and the answer lines (or why there are none).
type WorkerResult = (Box<dyn Player<Position>>, Result<Vec<String>, String>);

/// A search running on the worker thread.
struct Worker {
    id: u64,
    handle: JoinHandle<WorkerResult>,
    stop: Arc<AtomicBool>,
}

/// What the input side tells the session loop.
enum Event {
    /// A line from the GUI.
    Line(String),
    /// The input ended (`None`) or was refused: a line longer than
    /// [`crate::game::files::MAX_LINE`] (the reason).
    End(Option<String>),
    /// Worker `id` has finished.
    Done(u64),
}

/// What becomes of a stopped search's answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// Written (`ping`, the end of input, a search that finished).
    Write,
    /// Dropped (a new position, `quit`).
    Drop,
}

/// An NBoard session (see the module documentation).
pub struct NboardServer {
    factory: EngineFactory,
    engine: Option<Box<dyn Player<Position>>>,
    worker: Option<Worker>,
    next_id: u64,
    queue: VecDeque<NboardCommand>,
    events: Option<Sender<Event>>,
    depth: u32,
    game: GgfGame,
    book: Option<SharedBook>,
    learn_file: Option<PathBuf>,
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

/// An error note on stderr: the line was not carried out.
fn error(text: &str) {
    eprintln!("tessera nboard: error: {text}");
}

/// The engine and book of `tessera nboard` ([`NboardServer::standard`]).
#[derive(Clone, Debug, Default)]
pub struct NboardConfig {
    /// Transposition table size, MiB.
    pub tt_mb: usize,
    /// Evaluation weights file; `None`: the default pattern evaluation.
    pub weights: Option<PathBuf>,
    /// Search threads.
    pub threads: usize,
    /// `builtin` (or `None`), `none`, or a book file `learn` adds to (a file that does not
    /// exist yet starts as the built-in book, written on the first `learn`).
    pub book: Option<String>,
    /// An alpha-beta engine spec (preset, `.toml` or inline) played at the GUI's levels
    /// with its own evaluation, Multi-ProbCut, table and threads (`weights`, `tt_mb` and
    /// `threads` are then not used); `None`: the front ends' default, full width.
    pub engine: Option<String>,
}

impl NboardServer {
    /// The session `tessera nboard` runs on `out`: tessera's alpha-beta engine at the
    /// session's level with `cfg`'s evaluation, table and threads, and `cfg`'s book; with
    /// a note for people when the book file does not exist yet.
    ///
    /// # Errors
    /// An unreadable weights or book file, an empty `book`.
    pub fn standard(
        cfg: &NboardConfig,
        out: Output,
    ) -> Result<(Self, Option<String>), crate::engine::flags::FlagsError> {
        use crate::engine::EngineSpec;
        use crate::engine::flags::{FlagsError, book_arg, refuse_empty_book};
        use crate::engine::othello::{alphabeta_player, spec_eval};
        use crate::engine::spec::ExactEmpties;
        // The front ends' default engine at the GUI's level, as `bestmove --level N`: full
        // width (no Multi-ProbCut), exact from the level's empties; or `--engine` at that
        // level. The session keeps its own book, and the evaluation is loaded once.
        let mut spec = match &cfg.engine {
            Some(text) => {
                let spec = EngineSpec::from_arg(text, "othello")
                    .and_then(|s| s.expect_game("othello").map(|()| s))
                    .map_err(|e| FlagsError::Engine(format!("--engine: {e}")))?;
                if spec.protocol != crate::engine::Protocol::Builtin {
                    return Err(FlagsError::Conflict(format!(
                        "--engine {text}: an external program cannot be played at NBoard's \
                         levels (set depth); give one of tessera's alpha-beta engines"
                    )));
                }
                if spec.algo != crate::engine::Algorithm::Alphabeta {
                    return Err(FlagsError::Conflict(format!(
                        "--engine {text}: NBoard plays levels (set depth), so the engine must be \
                         tessera's alpha-beta (algo {})",
                        spec.algo.name()
                    )));
                }
                spec
            }
            None => {
                let mut spec = EngineSpec::front_end_default("othello")
                    .map_err(|e| FlagsError::Engine(e.into()))?;
                if let Some(path) = &cfg.weights {
                    spec.weights = Some(path.clone());
                }
                spec = spec.full_width();
                spec.tt_mb = cfg.tt_mb;
                spec.threads = Some(cfg.threads);
                spec
            }
        };
        spec.level = None;
        let eval = spec_eval(&spec).map_err(FlagsError::Build)?;
        let factory = Box::new(move |depth: u32, mut stats: NodeStats| {
            let mut at_level = spec.clone();
            at_level.exact_empties = Some(ExactEmpties::Upto(level_exact_empties(depth)));
            let mut engine = alphabeta_player(&at_level, eval.clone());
            engine.set_progress(Box::new(move |info| {
                stats(info.nodes, info.elapsed.as_secs_f64());
            }));
            engine
        });
        refuse_empty_book(cfg.book.as_deref())?;
        let learn_file = match cfg.book.as_deref() {
            None | Some("none" | "builtin") => None,
            Some(path) => Some(PathBuf::from(path)),
        };
        if let Some(path) = &learn_file
            && !path.exists()
            && let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
            && !parent.is_dir()
        {
            // `learn` could never write it: refused before the session, not at `learn`.
            return Err(FlagsError::Conflict(format!(
                "--book {}: folder {} does not exist",
                path.display(),
                parent.display()
            )));
        }
        let mut note = None;
        let book: Option<Book> = match &learn_file {
            Some(path) if !path.exists() => {
                note = Some(format!(
                    "tessera nboard: book {} does not exist yet: the built-in book is used and \
                     `learn` writes it",
                    path.display()
                ));
                Some(Book::builtin().as_ref().clone())
            }
            _ => book_arg(Some(cfg.book.as_deref().unwrap_or("builtin")))?
                .map(|b| b.as_ref().clone()),
        };
        let mut server = NboardServer::new(factory, book, out, "tessera");
        if let Some(file) = learn_file {
            server = server.with_learning(file);
        }
        Ok((server, note))
    }
}

impl NboardServer {
    /// A session writing to `out`; `factory` builds the engine for a depth (again after each
    /// `set depth`), `book` is the opening book (`None`: no book), and `name` is the name
    /// announced with `set myname`.
    #[must_use]
    pub fn new(factory: EngineFactory, book: Option<Book>, out: Output, name: &str) -> Self {
        Self {
            factory,
            engine: None,
            worker: None,
            next_id: 0,
            queue: VecDeque::new(),
            events: None,
            depth: DEFAULT_DEPTH,
            game: GgfGame::new(),
            book: book.map(|b| Arc::new(Mutex::new(b))),
            learn_file: None,
            out,
            name: name.to_string(),
            progress: Arc::new(Mutex::new(Progress::new())),
        }
    }

    /// `learn` adds games to the book and saves it to `file` (an empty book to start with
    /// when the session has none).
    #[must_use]
    pub fn with_learning(mut self, file: PathBuf) -> Self {
        if self.book.is_none() {
            self.book = Some(Arc::new(Mutex::new(Book::new())));
        }
        self.learn_file = Some(file);
        self
    }

    /// The current position (at the end of the game).
    #[must_use]
    pub fn position(&self) -> Position {
        self.game.final_position()
    }

    /// Whether a search (or `learn`) is running.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.worker.is_some()
    }

    /// Reads commands from `input` until `quit` or its end, answering on the output. At
    /// the end of input a running search is stopped, its truncated answer written.
    ///
    /// # Errors
    /// An input line longer than [`crate::game::files::MAX_LINE`] bytes (1 MiB; no NBoard
    /// command is): the session ends as at the end of input, and this names the limit.
    pub fn run(mut self, input: impl BufRead + Send + 'static) -> Result<(), String> {
        let (tx, rx) = channel();
        self.events = Some(tx.clone());
        spawn_reader(input, tx);
        loop {
            match rx.recv() {
                Ok(Event::Line(line)) => {
                    if !self.handle(&line) {
                        return Ok(());
                    }
                }
                Ok(Event::Done(id)) => {
                    if self.worker.as_ref().is_some_and(|w| w.id == id) {
                        self.finish(false, Answer::Write);
                        self.drain();
                    }
                }
                Ok(Event::End(refused)) => {
                    self.finish(true, Answer::Write);
                    self.supersede("the end of input");
                    return refused.map_or(Ok(()), Err);
                }
                Err(_) => {
                    self.finish(true, Answer::Write);
                    self.supersede("the end of input");
                    return Ok(());
                }
            }
        }
    }

    /// Handles one line (see the module documentation for lines that arrive during a
    /// search); false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = parse_command(line);
        match command {
            NboardCommand::Empty | NboardCommand::SetContempt(_) => true,
            NboardCommand::Bad(why) => {
                error(&format!("{why} (ignored)"));
                true
            }
            command if self.worker.is_none() => self.execute(command),
            NboardCommand::Ping(n) => {
                self.finish(true, Answer::Write);
                self.supersede(&format!("ping {n}"));
                emit(&self.out, format!("pong {n}").trim_end());
                true
            }
            NboardCommand::Quit => {
                self.finish(true, Answer::Drop);
                false
            }
            command @ (NboardCommand::SetGame(_) | NboardCommand::Move(..)) => {
                self.finish(true, Answer::Drop);
                self.supersede("a new position");
                self.execute(command)
            }
            command => {
                self.queue.push_back(command);
                true
            }
        }
    }

    /// Waits for running and queued searches to finish and answer (tests).
    pub fn wait(&mut self) {
        while self.worker.is_some() {
            self.finish(false, Answer::Write);
            self.drain();
        }
    }

    /// Carries out one command with no search running; false after `quit`.
    fn execute(&mut self, command: NboardCommand) -> bool {
        match command {
            NboardCommand::Nboard(v) => {
                if v != "1" && v != "2" {
                    note(&format!(
                        "protocol version '{}' is not 1 or 2; carrying on with version 2",
                        crate::game::shown(&v)
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
                Err(e) => error(&format!("set game refused, the game is unchanged: {e}")),
            },
            NboardCommand::Move(mv, eval, time) => {
                if let Err(e) = self.play(mv, eval, time) {
                    error(&e);
                }
            }
            NboardCommand::Hint(n) => self.start(Task::Hint(n)),
            NboardCommand::Go => self.start(Task::Go),
            NboardCommand::Learn => self.start(Task::Learn),
            NboardCommand::Ping(n) => emit(&self.out, format!("pong {n}").trim_end()),
            NboardCommand::Quit => return false,
            NboardCommand::Empty | NboardCommand::SetContempt(_) => {}
            NboardCommand::Bad(why) => error(&format!("{why} (ignored)")),
        }
        true
    }

    /// Carries out queued commands until one starts a search (or none is left).
    fn drain(&mut self) {
        while self.worker.is_none() {
            let Some(command) = self.queue.pop_front() else {
                return;
            };
            self.execute(command);
        }
    }

    /// Queued commands superseded by `by`: searches dropped, settings applied.
    fn supersede(&mut self, by: &str) {
        for command in std::mem::take(&mut self.queue) {
            match command {
                NboardCommand::Hint(_) | NboardCommand::Go | NboardCommand::Learn => {
                    note(&format!("{command:?} superseded by {by}: not carried out"));
                }
                other => {
                    self.execute(other);
                }
            }
        }
    }

    /// Appends a move (a move by the colour not on move implies a forced pass).
    fn play(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), String> {
        let pos = self.position();
        if pos.outcome().is_some() {
            return Err(format!(
                "move {}: the game is over, no move is legal",
                move_text(mv)
            ));
        }
        let implied_pass = !mv.is_pass() && pos.legal_placements() == 0 && pos.is_legal(Move::PASS);
        let after = if implied_pass { pos.pass() } else { pos };
        if !after.is_legal(mv) {
            return Err(format!(
                "move {} is not legal in this position ({after}); ignored",
                move_text(mv)
            ));
        }
        if implied_pass {
            self.game.push(Move::PASS, None, None)?;
        }
        self.game.push(mv, eval, time)
    }

    /// Stops (when `stop`) and waits for a running search; writes its answer or drops it,
    /// then `status ... is waiting`; keeps the engine.
    fn finish(&mut self, stop: bool, answer: Answer) {
        let Some(w) = self.worker.take() else {
            return;
        };
        if stop {
            w.stop.store(true, Ordering::Relaxed);
        }
        match w.handle.join() {
            Ok((engine, lines)) => {
                self.engine = Some(engine);
                match (answer, lines) {
                    (Answer::Write, Ok(lines)) => {
                        for l in lines {
                            emit(&self.out, &l);
                        }
                    }
                    (Answer::Write, Err(e)) => error(&format!("search failed: {e}")),
                    (Answer::Drop, _) => note("the answer of the stopped search is dropped"),
                }
            }
            Err(_) => error("the search thread failed; a new engine is built"),
        }
        emit(&self.out, &format!("status {} is waiting", self.name));
    }

    /// The engine for the session's depth (built again after `set depth`).
    fn take_engine(&mut self) -> Box<dyn Player<Position>> {
        if let Some(e) = self.engine.take() {
            return e;
        }
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

    /// Starts a `hint`, `go` or `learn` on the worker thread.
    fn start(&mut self, task: Task) {
        let pos = self.position();
        if task != Task::Learn && pos.outcome().is_some() {
            error("the game is over: no move to search");
            return;
        }
        let learning = match (task, &self.learn_file, &self.book) {
            (Task::Learn, Some(file), Some(book)) => Some((file.clone(), book.clone())),
            (Task::Learn, _, _) => {
                note(
                    "learn: no book file for this session (--book FILE); the built-in book \
                     is never changed, nothing learned",
                );
                emit(&self.out, "learned");
                return;
            }
            _ => None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = self.take_engine();
        if let Ok(mut p) = self.progress.lock() {
            *p = Progress::new();
        }
        // The level: solved to the end from 2 x depth empties (the depth limit dropped).
        let exact_empties = level_exact_empties(self.depth);
        let limits = crate::engine::level::level_limits(
            &pos,
            &Limits {
                depth: Some(self.depth),
                stop: Some(stop.clone()),
                ..Limits::default()
            },
            exact_empties,
        );
        let book = self.book.clone();
        let game = self.game.clone();
        let depth = self.depth;
        let flag = stop.clone();
        let id = self.next_id;
        self.next_id += 1;
        let events = self.events.clone();
        emit(
            &self.out,
            &format!(
                "status {} is {}",
                self.name,
                if task == Task::Learn {
                    "learning"
                } else {
                    "thinking"
                }
            ),
        );
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let lines = match (task, learning) {
                (Task::Go, _) => go(engine.as_mut(), &pos, &limits, book.as_ref(), started),
                (Task::Hint(n), _) => hint(engine.as_mut(), &pos, &limits, book.as_ref(), n),
                (Task::Learn, Some((file, book))) => learn(
                    engine.as_mut(),
                    &game,
                    &book,
                    &file,
                    depth,
                    exact_empties,
                    &flag,
                ),
                (Task::Learn, None) => Err("no book to learn into".into()),
            };
            if let Some(tx) = events {
                let _ = tx.send(Event::Done(id));
            }
            (engine, lines)
        });
        self.worker = Some(Worker { id, handle, stop });
    }
}

/// What the worker does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Task {
    Go,
    Hint(u32),
    Learn,
}

/// The book moves of `pos` (best first), empty without a book.
fn book_moves(book: Option<&SharedBook>, pos: &Position) -> Vec<crate::engine::book::Suggestion> {
    book.and_then(|b| b.lock().ok().map(|b| b.probe(pos)))
        .unwrap_or_default()
}

/// `go`: the book move if there is one, else the engine's; `=== MOVE/EVAL/TIME`.
fn go(
    engine: &mut dyn Player<Position>,
    pos: &Position,
    limits: &Limits,
    book: Option<&SharedBook>,
    started: Instant,
) -> Result<Vec<String>, String> {
    if let Some(b) = book_moves(book, pos).first() {
        return Ok(vec![format!(
            "=== {}/{}/{:.2}",
            move_text(b.mv),
            eval_text(b.score),
            started.elapsed().as_secs_f64()
        )]);
    }
    let mut t = engine.choose(pos, limits)?;
    if !searched(&t) {
        // Stopped (a `ping` sent with the `go`) before one ply was searched: its move would
        // be the first legal one with eval 0.00. One ply is finished first (microseconds).
        t = engine.choose(pos, &Limits::depth(1))?;
    }
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
    book: Option<&SharedBook>,
    n: u32,
) -> Result<Vec<String>, String> {
    let book_moves = book_moves(book, pos);
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
    // Each move gets the full depth less one ply (analyze_moves splits budgets). A search
    // stopped before any move was searched (a `ping` sent with the `hint`) would answer no
    // `search` line at all, where the protocol wants one for the top move: every move is
    // then searched one ply deep (the reply searched to depth 1), unstoppable and quick.
    let mut scores = analyze_moves(engine, pos, limits)?;
    if scores.is_empty() {
        scores = analyze_moves(engine, pos, &Limits::depth(2))?;
    }
    Ok(scores.iter().take(n as usize).map(search_line).collect())
}

/// Whether a search result comes from at least one finished ply (or a solve): a search
/// stopped before its first iteration ended reports depth 0, the first legal move and a
/// score of 0, which are no answer.
fn searched(t: &Thought<Move>) -> bool {
    t.exact || t.depth >= 1
}

/// `learn`: the game's line into the book (see [`Book::learn`]), saved to `file`.
fn learn(
    engine: &mut dyn Player<Position>,
    game: &GgfGame,
    book: &SharedBook,
    file: &std::path::Path,
    depth: u32,
    exact_empties: u32,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<String>, String> {
    if game.start != Position::start() {
        note("learn: the game does not start from the standard position; nothing learned");
        return Ok(vec!["learned".into()]);
    }
    let mut book = book.lock().map_err(|_| "the book is unusable")?;
    let moves = game.move_list();
    let added = book.learn(
        engine,
        &game.start,
        &moves,
        depth,
        exact_empties,
        Some(stop),
    )?;
    if added == 0 {
        note(&format!(
            "learn: nothing new at depth {depth}; the book has {} positions, {} not written",
            book.len(),
            file.display()
        ));
        return Ok(vec!["learned".into()]);
    }
    // A book that cannot be saved is a failed learn, not a failed search: say so and still
    // answer `learned`, so a GUI waiting for it goes on.
    match book.save(file) {
        Ok(()) => note(&format!(
            "learn: {added} positions added or deepened at depth {depth}; the book has {} \
             positions, saved to {}",
            book.len(),
            file.display()
        )),
        Err(e) => error(&format!("learn failed: {e}")),
    }
    Ok(vec!["learned".into()])
}

/// Reads `input` line by line on a thread of its own (so commands arrive while a search
/// runs) and sends them as events, then [`Event::End`] at its end or on a read error. Bytes
/// that are not UTF-8 become U+FFFD, so such a line is an unknown command, not the end. A
/// line longer than [`crate::game::files::MAX_LINE`] ends the input with its reason (no
/// more than that is read of it).
fn spawn_reader(mut input: impl BufRead + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let max = crate::game::files::MAX_LINE;
        let mut bytes = Vec::new();
        let mut refused = None;
        loop {
            bytes.clear();
            match (&mut input).take(max + 1).read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(n) if n as u64 > max => {
                    refused = Some(format!(
                        "nboard: an input line longer than {max} bytes (1 MiB): not an NBoard command"
                    ));
                    break;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&bytes);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Event::End(refused));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("nboard 2"), NboardCommand::Nboard("2".into()));
        assert_eq!(parse_command("set depth 6"), NboardCommand::SetDepth(6));
        let f5 = Move::parse("f5").unwrap();
        assert_eq!(
            parse_command("move F5/0.50/3.2"),
            NboardCommand::Move(f5, Some(0.5), Some(3.2))
        );
        assert_eq!(
            parse_command("move PA"),
            NboardCommand::Move(Move::PASS, None, None)
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
            "move F5/abc",
            "move F5/0.5/later",
            "move F5/1/2/3",
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

    fn server(book: Option<Book>) -> (NboardServer, Buffer) {
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
    fn ping_stops_a_search_and_answers_after_its_truncated_answer() {
        let (mut s, out) = server(None);
        s.handle("nboard 2");
        s.handle("set depth 40");
        s.handle("go");
        // Queued behind the search: a setting (applied) and a hint (superseded by the ping).
        s.handle("set depth 2");
        s.handle("hint 3");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let started = Instant::now();
        s.handle("ping 3");
        assert!(
            started.elapsed().as_secs() < 10,
            "ping waited for the search"
        );
        assert!(!s.busy(), "the queued hint was dropped");
        let lines = out.take_lines();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("pong 3"),
            "{lines:?}"
        );
        let answer = lines
            .iter()
            .position(|l| l.starts_with("=== "))
            .expect("an answer");
        assert!(answer < lines.len() - 1);
        assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
        let mv = Move::parse(lines[answer][4..].split('/').next().unwrap()).unwrap();
        assert!(Position::start().is_legal(mv));
        // The queued `set depth 2` was applied: a go now finishes at once.
        s.handle("go");
        s.wait();
        assert!(out.take_lines().iter().any(|l| l.starts_with("=== ")));
    }

    #[test]
    fn commands_during_a_search_wait_their_turn_and_each_is_answered() {
        let (mut s, out) = server(None);
        s.handle("set depth 6");
        s.handle("hint 2");
        s.handle("go");
        s.handle("hint 1");
        s.handle("set contempt 0");
        s.handle("xyzzy");
        s.wait();
        let lines: Vec<String> = out
            .take_lines()
            .into_iter()
            .filter(|l| !l.starts_with("nodestats"))
            .collect();
        let kinds: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "status", "search", "search", "status", "status", "===", "status", "status",
                "search", "status"
            ],
            "{lines:?}"
        );
        // A new position stops the search and drops its answer (and the queued go).
        s.handle("set depth 30");
        s.handle("hint 5");
        s.handle("go");
        s.handle("move f5");
        assert!(!s.busy());
        assert_eq!(
            s.position(),
            Position::start().play(Move::parse("f5").unwrap())
        );
        let lines = out.take_lines();
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("status") || l.starts_with("nodestats")),
            "{lines:?}"
        );
    }

    #[test]
    fn moves_keep_their_eval_and_time_and_illegal_ones_are_refused() {
        let (mut s, _out) = server(None);
        s.handle("move F5/-0.50/1.5");
        s.handle("move A1");
        s.handle("move F5/abc");
        s.handle("move D6");
        assert_eq!(s.game.moves.len(), 2);
        assert_eq!(s.game.moves[0].eval, Some(-0.5));
        assert_eq!(s.game.moves[0].time, Some(1.5));
        assert_eq!(s.game.moves[1].eval, None);
        assert_eq!(s.position(), Position::from_transcript("f5d6").unwrap());
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
        // A ping without its number gets a pong without one (no trailing space).
        s.handle("ping");
        assert_eq!(out.take_lines(), ["pong"]);
        // A book answers hint and go without a search.
        let f5 = Move::parse("f5").unwrap();
        let mut book = Book::new();
        book.insert(
            &Position::start(),
            &[Thought {
                best_move: Some(f5),
                score: 0,
                exact: false,
                depth: 12,
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                pv: vec![f5],
                unit: crate::games::othello::SCORE_UNIT,
            }],
            12,
        );
        let (mut s, out) = server(Some(book));
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
