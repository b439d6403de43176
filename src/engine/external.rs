//! An external program speaking GTP as a [`Player`]: tessera starts it, keeps its board in
//! step with the game (`play COLOUR VERTEX` for the moves it has not seen, `clear_board`
//! and a replay when the game is not a continuation), and asks `genmove COLOUR`.
//!
//! Every answer is awaited with a deadline — the spec's `time-ms` plus a grace of
//! `max(2000 ms, time-ms)`, or [`DEFAULT_TIMEOUT_MS`] with no time set — so a hung program
//! never hangs the caller: it is killed and the move fails with an error naming the
//! command. A program that exits, answers `?`, or writes something that is not a GTP
//! response fails the move likewise; a parsable but illegal move is returned as it is
//! (a tournament scores it as an illegal-move loss).
//!
//! The program runs in its own process group, and the whole group is killed when the
//! program times out, fails, or is dropped: a wrapper script's children do not outlive it.
//! With [`super::engine_log::set_dir`] every line sent, received and written on stderr is
//! logged.
//!
//! Passes: the moves are sent with their passes (`play white pass`) until the program
//! refuses one with `?`; from then on passes are not sent, as for `gtp-rhino`, which
//! passes for a side without a move by itself and does not accept `pass` in `play`.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{EngineSpec, Player, Thought};
use crate::game::Seat;
use crate::search::Limits;
use crate::wire::gtp::{GtpGame, LineResult, Response, ResponseReader};

/// The process groups of the programs running now, so that tessera ends them when it is
/// stopped by a signal (see [`end_all`]).
mod groups {
    use std::process::{Child, Command};
    use std::sync::{Mutex, MutexGuard};

    /// Group ids (each program's pid: it leads its own group) of the programs started and
    /// not yet ended.
    static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    fn live() -> MutexGuard<'static, Vec<u32>> {
        LIVE.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts `process` and records its group, under the lock, so that [`end_all`] never
    /// misses a program that is starting.
    pub fn spawn(process: &mut Command) -> std::io::Result<Child> {
        let mut live = live();
        let child = process.spawn()?;
        live.push(child.id());
        Ok(child)
    }

    /// The program of group `id` has ended.
    pub fn forget(id: u32) {
        live().retain(|&g| g != id);
    }

    /// Kills every recorded group and returns the lock, held: no program starts after.
    pub fn end_all() -> MutexGuard<'static, Vec<u32>> {
        let mut live = live();
        for &g in live.iter() {
            #[cfg(unix)]
            if let Ok(pgid) = i32::try_from(g) {
                // SAFETY: kill(2) with a negative pid signals that process group; it reads
                // no memory of ours.
                unsafe {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
        }
        live.clear();
        live
    }
}

/// Kills the process group of every external program running now (SIGKILL: the program and
/// whatever it started) and keeps any other from starting until the process exits; for a
/// process about to end on a signal (`SIGTERM`, `SIGHUP`, a second `SIGINT`).
pub fn end_all_and_hold() {
    std::mem::forget(groups::end_all());
}

/// Timeout of every answer when no time per move is set, milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// Smallest grace added to the time per move, milliseconds.
pub const MIN_GRACE_MS: u64 = 2_000;

/// How long the program gets to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_secs(1);

/// Lines of the program's stderr kept for error messages.
const STDERR_LINES: usize = 8;

/// The deadline of one answer for a time per move of `time_ms`: `time_ms` plus a grace of
/// `max(2000, time_ms)` ms, or [`DEFAULT_TIMEOUT_MS`] when no time is set.
#[must_use]
pub fn answer_timeout(time_ms: Option<u64>) -> Duration {
    Duration::from_millis(match time_ms {
        Some(t) => t.saturating_add(t.max(MIN_GRACE_MS)),
        None => DEFAULT_TIMEOUT_MS,
    })
}

/// The last lines of the program's stderr, and whether it has been closed.
#[derive(Default)]
struct StderrTail {
    lines: Mutex<VecDeque<String>>,
    closed: AtomicBool,
}

/// An external GTP program playing game `G`.
pub struct GtpEngine<G: GtpGame> {
    name: String,
    command: String,
    time_ms: Option<u64>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<StderrTail>,
    /// The moves on the program's board since its last `clear_board` (passes included).
    seen: Vec<G::Move>,
    /// The program's board may differ from `seen` (a failed exchange, a new game).
    dirty: bool,
    /// Whether passes are sent with `play` (until the program refuses one).
    sends_passes: bool,
    /// Set when the program is gone (exited, killed after a timeout or garbage); every
    /// later request fails with this message.
    failed: Option<String>,
    /// The `--engine-log` file of this process, if logging is on.
    log: Option<super::engine_log::Log>,
    /// The spec's clock as GTP `time_settings` arguments (main, byo-yomi time, stones).
    time_settings: Option<(f64, f64, u32)>,
    /// Whether `time_settings` went out since the last `clear_board`.
    time_sent: bool,
}

impl<G: GtpGame> GtpEngine<G> {
    /// Starts the program of `spec.command` and sets up its board (`boardsize`,
    /// `clear_board`); answers are awaited for [`answer_timeout`]`(spec.time_ms)`.
    ///
    /// # Errors
    /// No command in the spec, a program that cannot start (naming the command), or a
    /// failed setup exchange.
    pub fn new(spec: &EngineSpec) -> Result<Self, String> {
        let command = spec
            .command
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| format!("engine '{}': protocol gtp needs a command", spec.name))?;
        let mut engine = Self::start(&spec.name, command, spec.time_ms)?;
        // GTP has Canadian byo-yomi, not increments: a game clock of MOVES per period is
        // byo-yomi with no main time, sudden death is main time only, `st` is one stone
        // per period. The real clock goes with every genmove as time_left.
        engine.time_settings = match (spec.tc, spec.st) {
            (Some(tc), _) => Some(match tc.moves {
                Some(m) => (0.0, tc.base_ms as f64 / 1000.0, m),
                None => (tc.base_ms as f64 / 1000.0, 0.0, 0),
            }),
            (None, Some(st)) => Some((0.0, st, 1)),
            (None, None) => None,
        };
        Ok(engine)
    }

    /// Starts `command` (program and arguments, split on whitespace) as engine `name` with
    /// a time per move of `time_ms`, and sets up its board.
    ///
    /// # Errors
    /// As [`GtpEngine::new`].
    pub fn start(name: &str, command: &str, time_ms: Option<u64>) -> Result<Self, String> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| format!("engine '{name}': the command is empty"))?;
        let mut process = Process::new(program);
        process
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group, so a wrapper script's children die with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        let mut child = groups::spawn(&mut process)
            .map_err(|e| format!("engine '{name}': cannot start '{command}': {e}"))?;
        let log = super::engine_log::open(name, command, child.id());
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (tx, rx) = sync_channel(256);
        if let Some(out) = stdout {
            spawn_reader(name, out, tx, log.clone());
        }
        let stderr = Arc::new(StderrTail::default());
        match stderr_pipe {
            Some(err) => spawn_stderr(name, err, Arc::clone(&stderr), log.clone()),
            None => stderr.closed.store(true, Ordering::Release),
        }
        let mut engine = Self {
            name: name.to_string(),
            command: command.to_string(),
            time_ms,
            child,
            stdin,
            lines: rx,
            stderr,
            seen: Vec::new(),
            dirty: true,
            sends_passes: true,
            failed: None,
            log,
            time_settings: None,
            time_sent: false,
        };
        let timeout = answer_timeout(time_ms);
        if let Some(size) = G::board_size() {
            engine.command(&format!("boardsize {size}"), timeout)?;
        }
        engine.command("clear_board", timeout)?;
        engine.dirty = false;
        Ok(engine)
    }

    /// The command line the program was started with.
    #[must_use]
    pub fn command_line(&self) -> &str {
        &self.command
    }

    /// Sends one command and returns the engine's answer text; a `?` answer is an error
    /// naming the command and the answer.
    ///
    /// # Errors
    /// A `?` answer, or a failure of the exchange (see [`GtpEngine::exchange`]).
    pub fn command(&mut self, cmd: &str, timeout: Duration) -> Result<String, String> {
        let r = self.exchange(cmd, timeout)?;
        if r.success {
            Ok(r.text)
        } else {
            Err(format!("{} answered '? {}' to '{cmd}'", self.who(), r.text))
        }
    }

    /// Sends one command and waits up to `timeout` for the whole response.
    ///
    /// # Errors
    /// The program is gone (exited, or killed by an earlier failure), does not answer in
    /// time (it is then killed), or writes a line that cannot start a GTP response (it is
    /// then killed).
    pub fn exchange(&mut self, cmd: &str, timeout: Duration) -> Result<Response, String> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let verb = cmd.split_whitespace().next().unwrap_or("").to_string();
        if let Some(log) = &self.log {
            log.line('>', cmd);
        }
        let written = self.stdin.as_mut().is_some_and(|s| {
            s.write_all(cmd.as_bytes())
                .and_then(|()| s.write_all(b"\n"))
                .and_then(|()| s.flush())
                .is_ok()
        });
        if !written {
            let status = self.reap();
            return Err(self.fail(format!(
                "{} exited{status} before '{verb}' could be sent{}",
                self.who(),
                self.stderr_text()
            )));
        }
        // A deadline too far to represent is no deadline.
        let deadline = Instant::now().checked_add(timeout);
        let mut reader = ResponseReader::new();
        loop {
            let next = match deadline {
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(line) => match reader.feed(&line) {
                    LineResult::More => {}
                    LineResult::Done(r) => return Ok(r),
                    LineResult::Garbage(g) => {
                        self.kill();
                        let g: String = g.chars().take(80).collect();
                        return Err(self.fail(format!(
                            "{} answered '{g}' to '{verb}', which is not a GTP response",
                            self.who()
                        )));
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(self.fail(format!(
                        "{} did not answer {verb} within {} ms",
                        self.who(),
                        timeout.as_millis()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.reap();
                    return Err(self.fail(format!(
                        "{} exited{status} while answering {verb}{}",
                        self.who(),
                        self.stderr_text()
                    )));
                }
            }
        }
    }

    fn who(&self) -> String {
        format!("engine '{}' ({})", self.name, self.command)
    }

    fn fail(&mut self, message: String) -> String {
        self.failed = Some(message.clone());
        self.stdin = None;
        message
    }

    fn kill(&mut self) {
        self.stdin = None;
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
        groups::forget(self.child.id());
    }

    /// Kills every process left in the program's process group (a wrapper's children).
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group; it reads no
            // memory of ours. The group id is the child's pid (`process_group(0)` above).
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }

    /// Waits briefly for a program whose output closed, kills it if it lingers, and
    /// describes its exit status (` with status 1`, ` (killed by a signal)`).
    fn reap(&mut self) -> String {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        self.kill_group();
        match status.map(|s| s.code()) {
            Some(Some(code)) => format!(" with status {code}"),
            Some(None) => " (killed by a signal)".to_string(),
            None => String::new(),
        }
    }

    /// `; stderr: LINE | LINE` with the last lines the program wrote on stderr, if any.
    fn stderr_text(&self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        while !self.stderr.closed.load(Ordering::Acquire) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let lines = self
            .stderr
            .lines
            .lock()
            .map(|l| l.iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        if lines.is_empty() {
            String::new()
        } else {
            format!("; stderr: {}", lines.join(" | "))
        }
    }

    /// Sends a move the program has not seen.
    fn send_move(&mut self, seat: Seat, mv: G::Move, timeout: Duration) -> Result<(), String> {
        let cmd = format!("play {} {}", G::colour_name(seat), G::vertex(mv));
        if G::is_pass(mv) {
            if !self.sends_passes {
                return Ok(());
            }
            let r = self.exchange(&cmd, timeout)?;
            if !r.success {
                // The program passes by itself (gtp-rhino); never send passes again.
                self.sends_passes = false;
            }
            return Ok(());
        }
        self.command(&cmd, timeout).map(|_| ())
    }

    fn genmove(
        &mut self,
        start: &G,
        moves: &[G::Move],
        pos: &G,
        limits: &Limits,
    ) -> Result<Thought<G::Move>, String> {
        if start.to_string() != G::start().to_string() {
            return Err(format!(
                "{}: GTP engines need openings given as move sequences from the start position, \
                 not a position ({start})",
                self.who()
            ));
        }
        let mut p = G::start();
        let mut seats = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            if !p.is_legal(m) {
                return Err(format!(
                    "{}: move {} of the game ({m}) is illegal",
                    self.who(),
                    i + 1
                ));
            }
            seats.push(p.to_move());
            p = p.play(m);
        }
        if p.to_string() != pos.to_string() {
            return Err(format!(
                "{}: the game's moves lead to {p}, not to the position asked ({pos})",
                self.who()
            ));
        }
        let timeout = answer_timeout(
            limits
                .clock
                .map(|c| c.remaining_ms)
                .or(self.time_ms)
                .or(limits.time_ms),
        );
        if self.dirty || !moves.starts_with(&self.seen) {
            self.dirty = true;
            self.command("clear_board", timeout)?;
            self.seen.clear();
            self.time_sent = false;
        }
        // Programs without the time commands answer '?': they play on their own settings.
        if let Some((main, byo, stones)) = self.time_settings
            && !self.time_sent
        {
            self.exchange(&format!("time_settings {main} {byo} {stones}"), timeout)?;
            self.time_sent = true;
        }
        self.dirty = true;
        for i in self.seen.len()..moves.len() {
            self.send_move(seats[i], moves[i], timeout)?;
            self.seen.push(moves[i]);
        }
        let colour = G::colour_name(pos.to_move());
        if let Some(c) = limits.clock {
            // GTP times are whole seconds; the stones left in a byo-yomi period, or 0.
            let stones = match self.time_settings {
                Some((_, _, s)) if s > 0 => c.moves_to_go.unwrap_or(0),
                _ => 0,
            };
            self.exchange(
                &format!("time_left {colour} {} {stones}", c.remaining_ms / 1000),
                timeout,
            )?;
        }
        let started = Instant::now();
        let answer = self.command(&format!("genmove {colour}"), timeout)?;
        let elapsed = started.elapsed();
        let vertex = answer.trim();
        let mv = G::parse_vertex(vertex).map_err(|_| {
            if vertex.eq_ignore_ascii_case("resign") {
                format!(
                    "{} resigned (answered 'resign' to genmove {colour})",
                    self.who()
                )
            } else {
                format!(
                    "{} answered '{vertex}' to genmove {colour}, which is not a move",
                    self.who()
                )
            }
        })?;
        if pos.is_legal(mv) {
            self.seen.push(mv);
            self.dirty = false;
        }
        Ok(Thought {
            best_move: Some(mv),
            score: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            elapsed,
            pv: vec![mv],
            unit: "none",
        })
    }
}

/// Calls `each` with every line read from `input` (lossy UTF-8, line end kept) until the
/// end of input, a read error, or `each` returning false.
fn for_each_line(input: impl Read, mut each: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !each(String::from_utf8_lossy(&buf).into_owned()) {
                    return;
                }
            }
        }
    }
}

fn spawn_reader(
    name: &str,
    out: impl Read + Send + 'static,
    tx: SyncSender<String>,
    log: Option<super::engine_log::Log>,
) {
    let _ = std::thread::Builder::new()
        .name(format!("gtp-out {name}"))
        .spawn(move || {
            for_each_line(out, |line| {
                if let Some(log) = &log {
                    log.line('<', &line);
                }
                tx.send(line).is_ok()
            });
        });
}

fn spawn_stderr(
    name: &str,
    err: impl Read + Send + 'static,
    tail: Arc<StderrTail>,
    log: Option<super::engine_log::Log>,
) {
    let spawned = std::thread::Builder::new()
        .name(format!("gtp-err {name}"))
        .spawn({
            let tail = Arc::clone(&tail);
            move || {
                for_each_line(err, |line| {
                    if let Some(log) = &log {
                        log.line('!', &line);
                    }
                    let line: String = line.trim().chars().take(200).collect();
                    if !line.is_empty()
                        && let Ok(mut lines) = tail.lines.lock()
                    {
                        if lines.len() == STDERR_LINES {
                            lines.pop_front();
                        }
                        lines.push_back(line);
                    }
                    true
                });
                tail.closed.store(true, Ordering::Release);
            }
        });
    if spawned.is_err() {
        tail.closed.store(true, Ordering::Release);
    }
}

impl<G: GtpGame> Player<G> for GtpEngine<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.dirty = true;
        self.seen.clear();
    }

    /// Only at the start position: a GTP program learns a game from its moves, and a bare
    /// position has none (use [`Player::choose_in_game`]).
    fn choose(&mut self, pos: &G, limits: &Limits) -> Result<Thought<G::Move>, String> {
        if pos.to_string() != G::start().to_string() {
            return Err(format!(
                "{}: a GTP engine needs the game's moves from the start position, not a bare position ({pos})",
                self.who()
            ));
        }
        self.genmove(&G::start(), &[], pos, limits)
    }

    fn choose_in_game(
        &mut self,
        start: &G,
        moves: &[G::Move],
        pos: &G,
        limits: &Limits,
    ) -> Result<Thought<G::Move>, String> {
        self.genmove(start, moves, pos, limits)
    }
}

impl<G: GtpGame> Drop for GtpEngine<G> {
    /// Sends `quit`, gives the program `QUIT_WAIT` to exit, then kills it and every
    /// process left in its process group.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            if let Some(log) = &self.log {
                log.line('>', "quit");
            }
            let _ = stdin.write_all(b"quit\n").and_then(|()| stdin.flush());
        }
        let deadline = Instant::now() + QUIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        // Whatever the program started and left behind goes with it.
        self.kill_group();
        groups::forget(self.child.id());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts() {
        assert_eq!(answer_timeout(None), Duration::from_millis(30_000));
        assert_eq!(answer_timeout(Some(200)), Duration::from_millis(2_200));
        assert_eq!(answer_timeout(Some(5_000)), Duration::from_millis(10_000));
        assert_eq!(
            answer_timeout(Some(u64::MAX)),
            Duration::from_millis(u64::MAX)
        );
    }
}
