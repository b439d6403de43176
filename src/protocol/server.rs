//! tessera as a GTP engine: [`GtpServer`] keeps the game, answers the standard commands
//! and asks its [`Player`] for moves on `genmove`. `tessera gtp othello` runs it on
//! stdin/stdout.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`, `list_commands`,
//! `boardsize`, `clear_board`, `komi`, `play`, `genmove`, `undo`, `showboard`,
//! `final_score`, `time_settings`, `time_left`, `quit`.
//!
//! Passes: GTP programs differ on them (`gtp-rhino` passes for a side with no move by
//! itself and rejects `play COLOUR pass`), so this server takes both styles: `play` and
//! `genmove` for the colour not to move first pass for the side to move when it has no
//! move, and an explicit `play COLOUR pass` is accepted when it is legal. `genmove` in a
//! finished game answers `pass`; `genmove` for a colour that is not to move while the side
//! to move has a move is an error (gtp-rhino answers `pass` there, which a client cannot
//! tell from a real pass). `final_score` is `B+24`, `W+10` or `0` (empties to the
//! winner) and an error (`cannot score`) before the game is over.

use std::io::{BufRead, Read, Write};

use crate::engine::Player;
use crate::game::Seat;
use crate::search::{GameClock, Limits};
use crate::wire::gtp::{Command, GtpGame, format_response};

/// The commands the server knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "quit",
];

/// GTP's time system (`time_settings main byo_yomi_time byo_yomi_stones`, Canadian
/// byo-yomi) and the clock `time_left` last reported, seconds.
#[derive(Clone, Copy, Debug, Default)]
struct GtpTime {
    /// `time_settings`: main time, byo-yomi time, byo-yomi stones.
    settings: Option<(f64, f64, u32)>,
    /// `time_left`: seconds and stones left (0 stones: main time), reset by
    /// `time_settings` and `clear_board`.
    left: Option<(f64, u32)>,
}

impl GtpTime {
    /// The clock at the start of a game: the main time, or the first byo-yomi period when
    /// there is none; `None` untimed (`time_settings 0 0 0` is no limit, as GTP says).
    fn initial(&self) -> Option<(f64, u32)> {
        let (main, byo, stones) = self.settings?;
        if main > 0.0 {
            Some((main, 0))
        } else if byo > 0.0 && stones > 0 {
            Some((byo, stones))
        } else {
            None
        }
    }

    /// Runs the clock down by a move that took `secs` (until the next `time_left`).
    fn spend(&mut self, secs: f64) {
        if let Some((t, n)) = self.left.or_else(|| self.initial()) {
            self.left = Some((t - secs, n.saturating_sub(1)));
        }
    }

    /// The clock to plan the next move with: the last `time_left`, else the full main
    /// time (or the first byo-yomi period when there is none); `None` without time
    /// settings or for `time_settings 0 0 0` (no limit, as GTP says).
    fn clock(&self) -> Option<GameClock> {
        let (secs, stones) = self.left.or_else(|| self.initial())?;
        Some(GameClock {
            remaining_ms: (secs.max(0.0) * 1000.0) as u64,
            increment_ms: 0,
            moves_to_go: (stones > 0).then_some(stones),
        })
    }
}

/// A GTP engine session: the game so far, an undo stack, and the player that moves.
pub struct GtpServer<G: GtpGame> {
    player: Box<dyn Player<G>>,
    limits: Limits,
    /// The limits once a clock is set (see [`GtpServer::with_clock_limits`]).
    clock_limits: Option<Limits>,
    time: GtpTime,
    start: G,
    pos: G,
    moves: Vec<G::Move>,
    /// Before each `play` / `genmove`: the position and the number of moves.
    history: Vec<(G, usize)>,
}

impl<G: GtpGame> GtpServer<G> {
    /// A session at the start position; `player` moves within `limits` on `genmove`.
    #[must_use]
    pub fn new(player: Box<dyn Player<G>>, limits: Limits) -> Self {
        Self {
            player,
            limits,
            clock_limits: None,
            time: GtpTime::default(),
            start: G::start(),
            pos: G::start(),
            moves: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Moves within `limits` (plus the clock) instead of the session's limits whenever
    /// the other side has set a clock (`time_settings` other than `0 0 0`, or `time_left`):
    /// a default engine's own move time gives way to the GUI's clock.
    #[must_use]
    pub fn with_clock_limits(mut self, limits: Limits) -> Self {
        self.clock_limits = Some(limits);
        self
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &G {
        &self.pos
    }

    /// The moves played since `clear_board` (passes included).
    #[must_use]
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Answers one input line: `None` when the line holds no command (empty, a comment),
    /// else the formatted response and whether the command was `quit`.
    pub fn handle_line(&mut self, line: &str) -> Option<(String, bool)> {
        let cmd = Command::parse(line)?;
        let (result, quit) = self.handle(&cmd);
        Some((format_response(cmd.id.as_deref(), &result), quit))
    }

    /// Serves GTP until `quit` or the end of `input`.
    ///
    /// # Errors
    /// A failure to read `input` or write `output` (e.g. the other side closed the pipe), or
    /// an input line longer than [`crate::game::files::MAX_LINE`] bytes (`InvalidData`; no
    /// more than that is read of it).
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        let max = crate::game::files::MAX_LINE;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = (&mut input).take(max + 1).read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(());
            }
            if n as u64 > max {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("an input line longer than {max} bytes (1 MiB): not a GTP command"),
                ));
            }
            let line = String::from_utf8_lossy(&buf);
            if let Some((response, quit)) = self.handle_line(&line) {
                output.write_all(response.as_bytes())?;
                output.flush()?;
                if quit {
                    return Ok(());
                }
            }
        }
    }

    /// Answers one command: the response text (`Err` for a `?` response) and whether it
    /// was `quit`.
    pub fn handle(&mut self, cmd: &Command) -> (Result<String, String>, bool) {
        let args = &cmd.args;
        let result = match cmd.name.as_str() {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("tessera".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args.first() {
                Some(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
                None => Err("syntax error".to_string()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            // Accepted and ignored (Othello has no komi), but it must be a number.
            "komi" if args.len() == 1 && args[0].parse::<f64>().is_ok() => Ok(String::new()),
            "komi" => Err("syntax error".into()),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => match self.history.pop() {
                Some((pos, n)) => {
                    self.pos = pos;
                    self.moves.truncate(n);
                    Ok(String::new())
                }
                None => Err("cannot undo".to_string()),
            },
            "showboard" => Ok(format!("\n{}", self.pos.showboard())),
            "final_score" => self.final_score(),
            "quit" => return (Ok(String::new()), true),
            _ => Err("unknown command".to_string()),
        };
        (result, false)
    }

    /// `time_settings main_time byo_yomi_time byo_yomi_stones` (seconds, seconds, count).
    fn time_settings(&mut self, args: &[String]) -> Result<String, String> {
        let nums: Vec<f64> = args.iter().filter_map(|a| a.parse::<f64>().ok()).collect();
        match nums[..] {
            [main, byo, stones]
                if args.len() == 3
                    && nums.iter().all(|v| v.is_finite() && *v >= 0.0)
                    && stones.fract() == 0.0 =>
            {
                self.time = GtpTime {
                    settings: Some((main, byo, stones as u32)),
                    left: None,
                };
                Ok(String::new())
            }
            _ => Err("syntax error".into()),
        }
    }

    /// `time_left colour time stones`: the clock of `colour` before its next `genmove`
    /// (only the engine's own colour matters; tessera plans with the one last given).
    fn time_left(&mut self, args: &[String]) -> Result<String, String> {
        let secs = args.get(1).and_then(|a| a.parse::<f64>().ok());
        let stones = args.get(2).and_then(|a| a.parse::<u32>().ok());
        match (args.len(), Self::seat_arg(args), secs, stones) {
            (3, Ok(_), Some(t), Some(n)) if t.is_finite() => {
                self.time.left = Some((t, n));
                // A time_left without time_settings still says the game is timed.
                self.time.settings.get_or_insert((t, 0.0, 0));
                Ok(String::new())
            }
            _ => Err("syntax error".into()),
        }
    }

    fn clear(&mut self) {
        self.time.left = None;
        self.pos = self.start.clone();
        self.moves.clear();
        self.history.clear();
        self.player.new_game();
    }

    fn boardsize(&mut self, args: &[String]) -> Result<String, String> {
        let size: u32 = args
            .first()
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| "syntax error".to_string())?;
        if G::board_size() != Some(size) {
            return Err("unacceptable size".to_string());
        }
        self.clear();
        Ok(String::new())
    }

    fn seat_arg(args: &[String]) -> Result<Seat, String> {
        args.first()
            .and_then(|c| G::seat_of_colour(c))
            .ok_or_else(|| "syntax error".to_string())
    }

    /// The pass, when it is the only legal move of the side to move.
    fn forced_pass(pos: &G) -> Option<G::Move> {
        G::parse_vertex("pass").ok().filter(|&p| pos.is_legal(p))
    }

    /// Plays passes for the sides to move until `seat` is to move or a side has a move.
    fn pass_until(&mut self, seat: Seat) {
        for _ in 0..self.pos.seats() {
            if self.pos.to_move() == seat {
                return;
            }
            match Self::forced_pass(&self.pos) {
                Some(p) => {
                    self.pos = self.pos.play(p);
                    self.moves.push(p);
                }
                None => return,
            }
        }
    }

    fn restore(&mut self) {
        if let Some((pos, n)) = self.history.pop() {
            self.pos = pos;
            self.moves.truncate(n);
        }
    }

    fn play(&mut self, args: &[String]) -> Result<String, String> {
        let seat = Self::seat_arg(args)?;
        let mv = args
            .get(1)
            .and_then(|v| G::parse_vertex(v).ok())
            .ok_or_else(|| "syntax error".to_string())?;
        self.history.push((self.pos.clone(), self.moves.len()));
        self.pass_until(seat);
        if self.pos.to_move() != seat || !self.pos.is_legal(mv) {
            self.restore();
            return Err("illegal move".to_string());
        }
        self.pos = self.pos.play(mv);
        self.moves.push(mv);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[String]) -> Result<String, String> {
        let seat = Self::seat_arg(args)?;
        let pass = G::parse_vertex("pass").ok();
        if self.pos.outcome().is_some() {
            return pass
                .map(G::vertex)
                .ok_or_else(|| "the game is over".to_string());
        }
        self.history.push((self.pos.clone(), self.moves.len()));
        self.pass_until(seat);
        if self.pos.to_move() != seat {
            self.restore();
            return Err(format!(
                "it is {}'s turn, not {}'s",
                G::colour_name(self.pos.to_move()),
                G::colour_name(seat)
            ));
        }
        let clock = self.time.clock();
        let mut limits = match (&clock, &self.clock_limits) {
            (Some(_), Some(l)) => l.clone(),
            _ => self.limits.clone(),
        };
        limits.clock = clock;
        let asked = std::time::Instant::now();
        let result = self
            .player
            .choose_in_game(&self.start, &self.moves, &self.pos, &limits);
        // Until the next time_left, the clock runs down by the time used.
        self.time.spend(asked.elapsed().as_secs_f64());
        let thought = match result {
            Ok(t) => t,
            Err(e) => {
                self.restore();
                return Err(format!("engine error: {}", one_line(&e)));
            }
        };
        match thought.best_move {
            Some(mv) if self.pos.is_legal(mv) => {
                self.pos = self.pos.play(mv);
                self.moves.push(mv);
                Ok(G::vertex(mv))
            }
            Some(mv) => {
                self.restore();
                Err(format!("engine error: it chose the illegal move {mv}"))
            }
            None => {
                self.restore();
                Err("engine error: it returned no move".to_string())
            }
        }
    }

    fn final_score(&self) -> Result<String, String> {
        let outcome = self
            .pos
            .outcome()
            .ok_or_else(|| "cannot score".to_string())?;
        if self.pos.seats() != 2 {
            return Err("cannot score".to_string());
        }
        let margin = outcome.score(Seat(0)) - outcome.score(Seat(1));
        let letter = |seat: Seat| {
            G::colour_name(seat)
                .chars()
                .next()
                .map_or('?', |c| c.to_ascii_uppercase())
        };
        Ok(match margin {
            0 => "0".to_string(),
            m if m > 0 => format!("{}+{m}", letter(Seat(0))),
            m => format!("{}+{}", letter(Seat(1)), -m),
        })
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Thought;
    use crate::game::Game;
    use crate::games::othello::Position;

    /// Plays the first legal move; counts its calls.
    struct First;
    impl Player<Position> for First {
        fn name(&self) -> &str {
            "first"
        }
        fn choose(
            &mut self,
            pos: &Position,
            _: &Limits,
        ) -> Result<Thought<<Position as Game>::Move>, String> {
            let mut moves = <Position as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            Ok(Thought {
                best_move: moves.first().copied(),
                score: 0,
                exact: false,
                depth: 0,
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                pv: Vec::new(),
                unit: "none",
            })
        }
    }

    fn ask(s: &mut GtpServer<Position>, line: &str) -> String {
        s.handle_line(line).map(|(r, _)| r).unwrap_or_default()
    }

    #[test]
    fn passes_are_played_for_the_side_without_a_move() {
        let mut s = GtpServer::new(Box::new(First), Limits::depth(1));
        // After these eight moves Black has no move and White has.
        for (c, v) in [
            ("b", "f5"),
            ("w", "f6"),
            ("b", "f7"),
            ("w", "g7"),
            ("b", "d3"),
            ("w", "f8"),
            ("b", "h8"),
            ("w", "h6"),
        ] {
            assert_eq!(ask(&mut s, &format!("play {c} {v}")), "=\n\n", "{c} {v}");
        }
        assert_eq!(ask(&mut s, "play white pass"), "? illegal move\n\n");
        assert_eq!(ask(&mut s, "genmove black"), "= pass\n\n");
        assert_eq!(ask(&mut s, "undo"), "=\n\n");
        // rhino style: no pass sent, White just plays.
        assert_eq!(ask(&mut s, "play white c3"), "=\n\n");
        assert_eq!(s.moves().len(), 10);
        assert_eq!(ask(&mut s, "undo"), "=\n\n");
        assert_eq!(s.moves().len(), 8);
        assert_eq!(ask(&mut s, "play black pass"), "=\n\n");
        assert_eq!(ask(&mut s, "genmove white"), "= C3\n\n");
        assert_eq!(
            ask(&mut s, "genmove white"),
            "? it is black's turn, not white's\n\n"
        );
    }

    #[test]
    fn garbage_never_panics() {
        let mut s = GtpServer::new(Box::new(First), Limits::depth(1));
        for line in [
            "",
            "#",
            "1",
            "play",
            "play x",
            "play b",
            "play b zz",
            "genmove",
            "genmove purple",
            "boardsize",
            "boardsize -1",
            "boardsize 99999999999999999999",
            "known_command",
            "\u{0}\u{1}",
            "99999999999999999999999 name",
            "é ü",
            "undo",
            "final_score",
        ] {
            let _ = ask(&mut s, line);
        }
        assert_eq!(
            ask(&mut s, "99999999999999999999999 name"),
            "=99999999999999999999999 tessera\n\n"
        );
    }
}
