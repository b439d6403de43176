//! The pieces of the Go Text Protocol (GTP, version 2) that the client
//! ([`crate::engine::external`]) and the server ([`crate::protocol::server`]) share: how a game names
//! its colours and vertices ([`GtpGame`]), command-line parsing ([`Command`]), response
//! formatting ([`format_response`]) and response parsing ([`ResponseReader`]).
//!
//! GTP as spoken by Othello programs (Quarry, Debian's `gtp-rhino`): colours `black` /
//! `white` (or `b` / `w`), vertices are square names (`F5`, case-insensitive), a pass is
//! `pass`. A response is `=` (success) or `?` (failure), the command's numeric id if it had
//! one, a space and the text, and ends with an empty line.

use crate::game::{Game, MoveError, Seat};
use crate::games::othello::{Color, Move, Position, Square};

/// A game that can be spoken over GTP.
pub trait GtpGame: Game {
    /// The GTP colour name of a seat (`black`, `white`).
    fn colour_name(seat: Seat) -> &'static str;

    /// The seat a GTP colour names: the full name or its first letter, case-insensitive
    /// (`b`, `W`, `Black`); `None` for anything else.
    fn seat_of_colour(text: &str) -> Option<Seat>;

    /// The board size sent with `boardsize` (Othello: 8); `None` when the game has no
    /// single size to announce.
    fn board_size() -> Option<u32> {
        None
    }

    /// A move as a GTP vertex (`F5`, `pass`).
    fn vertex(mv: Self::Move) -> String;

    /// A GTP vertex as a move, case-insensitive (`f5`, `F5`, `pass`); legality is not
    /// checked.
    ///
    /// # Errors
    /// A [`MoveError`] naming the text when it is no move of this game.
    fn parse_vertex(text: &str) -> Result<Self::Move, MoveError>;

    /// Whether `mv` is the pass.
    fn is_pass(mv: Self::Move) -> bool {
        Self::parse_vertex("pass").is_ok_and(|p| p == mv)
    }

    /// The board as `showboard` prints it (several lines, none empty); default: the
    /// one-line position text.
    fn showboard(&self) -> String {
        self.to_string()
    }
}

impl GtpGame for Position {
    fn colour_name(seat: Seat) -> &'static str {
        if seat == Color::Black.seat() {
            "black"
        } else {
            "white"
        }
    }

    fn seat_of_colour(text: &str) -> Option<Seat> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("b") || t.eq_ignore_ascii_case("black") {
            Some(Color::Black.seat())
        } else if t.eq_ignore_ascii_case("w") || t.eq_ignore_ascii_case("white") {
            Some(Color::White.seat())
        } else {
            None
        }
    }

    fn board_size() -> Option<u32> {
        Some(8)
    }

    fn vertex(mv: Move) -> String {
        if mv.is_pass() {
            "pass".to_string()
        } else {
            mv.to_string().to_ascii_uppercase()
        }
    }

    fn parse_vertex(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        // Only square names and `pass`: the other pass spellings of [`Move::parse`]
        // (`PA`, `ps`, `--`) are not GTP.
        if let Some(sq) = Square::parse(t) {
            return Ok(Move::place(sq));
        }
        Err(MoveError(format!(
            "'{text}' is not a GTP vertex of Othello (expected a square A1..H8 or 'pass')"
        )))
    }

    fn is_pass(mv: Move) -> bool {
        mv.is_pass()
    }

    fn showboard(&self) -> String {
        self.diagram()
    }
}

/// One GTP command line, preprocessed as the protocol says: control characters other than
/// tab and newline removed, tabs turned into spaces, everything from `#` on dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id before the command, as written (echoed in the response).
    pub id: Option<String>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

impl Command {
    /// Parses one input line; `None` for a line with nothing to do (empty, blank, a
    /// comment, or an id alone).
    #[must_use]
    pub fn parse(line: &str) -> Option<Self> {
        let cleaned: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter_map(|c| match c {
                '\t' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect();
        let mut tokens = cleaned.split_whitespace();
        let first = tokens.next()?;
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (Some(first.to_string()), tokens.next()?.to_string())
        } else {
            (None, first.to_string())
        };
        Some(Self {
            id,
            name,
            args: tokens.map(str::to_string).collect(),
        })
    }
}

/// A complete response: `=ID TEXT` or `?ID TEXT`, then an empty line. Empty lines inside
/// `text` are dropped (they would end the response early); `text` may be empty.
#[must_use]
pub fn format_response(id: Option<&str>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.as_str()),
        Err(t) => ('?', t.as_str()),
    };
    let body: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || !l.trim().is_empty())
        .map(|(_, l)| l.trim_end())
        .collect();
    let body = body.join("\n");
    let mut out = String::with_capacity(body.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    if !body.is_empty() {
        out.push(' ');
        out.push_str(&body);
    }
    out.push_str("\n\n");
    out
}

/// A response read from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// `=` (true) or `?` (false).
    pub success: bool,
    /// The id echoed, if any.
    pub id: Option<String>,
    /// The text: the first line without the `=ID ` prefix, further lines as they came,
    /// joined with `\n`.
    pub text: String,
}

/// Assembles a response from an engine's output lines.
#[derive(Debug, Default)]
pub struct ResponseReader {
    started: Option<(bool, Option<String>)>,
    lines: Vec<String>,
}

/// What one line did to a [`ResponseReader`].
#[derive(Debug, PartialEq, Eq)]
pub enum LineResult {
    /// More lines are needed.
    More,
    /// The response is complete.
    Done(Response),
    /// The line cannot start a response (it does not begin with `=` or `?`).
    Garbage(String),
}

impl ResponseReader {
    /// A reader waiting for the first line of a response.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one line (without its line end; a trailing `\r` is ignored). Empty lines
    /// before the response are skipped; the empty line after it ends it.
    pub fn feed(&mut self, line: &str) -> LineResult {
        let line = line.trim_end_matches(['\r', '\n']);
        match &self.started {
            None => {
                if line.trim().is_empty() {
                    return LineResult::More;
                }
                let mut chars = line.chars();
                let success = match chars.next() {
                    Some('=') => true,
                    Some('?') => false,
                    _ => return LineResult::Garbage(line.to_string()),
                };
                let rest = chars.as_str();
                let digits =
                    rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let id = (digits > 0).then(|| rest[..digits].to_string());
                self.started = Some((success, id));
                self.lines.push(rest[digits..].trim().to_string());
                LineResult::More
            }
            Some((success, id)) => {
                if line.trim().is_empty() {
                    let resp = Response {
                        success: *success,
                        id: id.clone(),
                        text: self.lines.join("\n").trim_end().to_string(),
                    };
                    self.started = None;
                    self.lines.clear();
                    LineResult::Done(resp)
                } else {
                    self.lines.push(line.to_string());
                    LineResult::More
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn othello_colours_and_vertices() {
        for (t, c) in [
            ("b", Color::Black),
            ("BLACK", Color::Black),
            ("w", Color::White),
            ("White", Color::White),
        ] {
            assert_eq!(Position::seat_of_colour(t), Some(c.seat()));
        }
        assert_eq!(Position::seat_of_colour("red"), None);
        assert_eq!(Position::colour_name(Seat(0)), "black");
        assert_eq!(Position::colour_name(Seat(1)), "white");
        let f5 = Move::parse("f5").unwrap();
        assert_eq!(Position::vertex(f5), "F5");
        assert_eq!(Position::vertex(Move::PASS), "pass");
        assert_eq!(Position::parse_vertex("F5"), Ok(f5));
        assert_eq!(Position::parse_vertex("f5"), Ok(f5));
        assert_eq!(Position::parse_vertex("PASS"), Ok(Move::PASS));
        for bad in ["", "z9", "f55", "--", "pa", "resign", "y"] {
            assert!(Position::parse_vertex(bad).is_err(), "{bad}");
        }
        assert!(Position::is_pass(Move::PASS) && !Position::is_pass(f5));
    }

    #[test]
    fn commands_are_preprocessed() {
        let c = Command::parse("12 play\tblack F5 # comment").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(
            (c.name.as_str(), c.args.clone()),
            ("play", vec!["black".to_string(), "F5".to_string()])
        );
        assert_eq!(Command::parse(""), None);
        assert_eq!(Command::parse("   # only a comment"), None);
        assert_eq!(Command::parse("42"), None);
        let c = Command::parse("na\u{7}me\r").unwrap();
        assert_eq!((c.id, c.name.as_str()), (None, "name"));
    }

    #[test]
    fn responses_round_trip() {
        assert_eq!(format_response(Some("3"), &Ok("F5".into())), "=3 F5\n\n");
        assert_eq!(format_response(None, &Ok(String::new())), "=\n\n");
        assert_eq!(
            format_response(None, &Err("illegal move".into())),
            "? illegal move\n\n"
        );
        assert_eq!(format_response(None, &Ok("a\n\nb".into())), "= a\nb\n\n");
        let mut r = ResponseReader::new();
        assert_eq!(r.feed(""), LineResult::More);
        assert_eq!(r.feed("=7 F5\r"), LineResult::More);
        assert_eq!(
            r.feed(""),
            LineResult::Done(Response {
                success: true,
                id: Some("7".into()),
                text: "F5".into()
            })
        );
        assert_eq!(r.feed("? cannot score"), LineResult::More);
        assert_eq!(r.feed("more"), LineResult::More);
        assert_eq!(
            r.feed(" "),
            LineResult::Done(Response {
                success: false,
                id: None,
                text: "cannot score\nmore".into()
            })
        );
        assert_eq!(r.feed("y"), LineResult::Garbage("y".into()));
    }
}
