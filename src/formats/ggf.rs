//! GGF (Generic Game Format, the record format of GGS, Buro and Durdanovic) for Othello:
//! reading one game or a file of games, and writing them back.
//!
//! A game is `(;` properties `;)`, each property `TAG[value]` (`\` escapes the next
//! character inside a value). The tags read here: `GM[Othello]` (required, compared without
//! case), `TY[8]` (board size 8; GGS variant letters are accepted except `a`, anti-Othello,
//! whose scoring differs), `BO[8 <64 squares> <side>]` (the start; `*` Black, `O` White,
//! `-` empty, then `*` or `O` to move; default the standard start), and the moves
//! `B[f5]` / `W[d6/0.50/3.2]` (square or `PA`, optional `/eval` in discs for the mover and
//! `/time` in seconds). Every other property (`PC`, `DT`, `PB`, `PW`, `RB`, `RW`, `RE`,
//! `TI`, ...) is kept as text, in order. Source: <https://www.skatgame.net/mburo/ggsa/ggf>
//! and the NBoard protocol document (its example game is a test below).
//!
//! A move by the colour not on move is accepted when the side on move has no legal move:
//! the pass is inserted (as Edax does). [`GgfGame::to_ggf`] writes every move with its
//! colour and passes as `PA`, so a game written here reads back identically.

use std::fmt::Write as _;

use crate::game::Game;
use crate::games::othello::{Color, Move, Position};

/// One move of a GGF game: the colour that played it, the move, and the optional eval
/// (discs, for the mover) and time (seconds) the record gives.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    /// The colour that moved (`B[..]` or `W[..]`).
    pub color: Color,
    /// The move (a square, or [`Move::PASS`]).
    pub mv: Move,
    /// The mover's evaluation in discs, if recorded.
    pub eval: Option<f64>,
    /// Seconds used, if recorded.
    pub time: Option<f64>,
}

/// An Othello game read from (or to be written as) GGF.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Every property other than `BO`, `B` and `W`, in the order read (tag, raw value).
    pub properties: Vec<(String, String)>,
    /// The start position (`BO`, or the standard start).
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<GgfMove>,
}

impl GgfGame {
    /// A game from the standard start with `GM[Othello]` and `TY[8]` and no moves.
    #[must_use]
    pub fn new() -> Self {
        Self::from_position(Position::start())
    }

    /// A game starting at `start` with `GM[Othello]` and `TY[8]` and no moves.
    #[must_use]
    pub fn from_position(start: Position) -> Self {
        Self {
            properties: vec![("GM".into(), "Othello".into()), ("TY".into(), "8".into())],
            start,
            moves: Vec::new(),
        }
    }

    /// The value of property `tag` (first occurrence).
    #[must_use]
    pub fn property(&self, tag: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(t, _)| t == tag)
            .map(|(_, v)| v.as_str())
    }

    /// Sets property `tag` (replacing the first occurrence, else appending).
    pub fn set_property(&mut self, tag: &str, value: impl Into<String>) {
        let value = value.into();
        match self.properties.iter_mut().find(|(t, _)| t == tag) {
            Some(slot) => slot.1 = value,
            None => self.properties.push((tag.to_string(), value)),
        }
    }

    /// The moves as played (passes included).
    #[must_use]
    pub fn move_list(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after every move.
    #[must_use]
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, m| p.play(m.mv))
    }

    /// Appends `mv` (legal in the final position) with its optional eval and time.
    ///
    /// # Errors
    /// An illegal move, naming it and the position.
    pub fn push(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), String> {
        let pos = self.final_position();
        if !pos.is_legal(mv) {
            return Err(format!("{mv} is not legal in {pos}"));
        }
        self.moves.push(GgfMove {
            color: pos.side(),
            mv,
            eval,
            time,
        });
        Ok(())
    }

    /// The game as one GGF line: the properties in order, `BO`, then the moves.
    #[must_use]
    pub fn to_ggf(&self) -> String {
        let mut s = String::from("(;");
        for (tag, value) in &self.properties {
            let _ = write!(s, "{tag}[{}]", escape(value));
        }
        let _ = write!(s, "BO[8 {}]", board_text(&self.start));
        for m in &self.moves {
            let tag = match m.color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let square = match m.mv.square() {
                Some(sq) => sq.to_string().to_ascii_uppercase(),
                None => "PA".to_string(),
            };
            let _ = write!(s, "{tag}[{square}");
            match (m.eval, m.time) {
                (None, None) => {}
                (Some(e), None) => {
                    let _ = write!(s, "/{e}");
                }
                (e, Some(t)) => {
                    let e = e.map(|e| e.to_string()).unwrap_or_default();
                    let _ = write!(s, "/{e}/{t}");
                }
            }
            s.push(']');
        }
        s.push_str(";)");
        s
    }
}

impl Default for GgfGame {
    fn default() -> Self {
        Self::new()
    }
}

/// The `BO` board text after the size: 64 squares a1..h8 (`*` Black, `O` White, `-`
/// empty), a space, and `*` or `O` to move.
fn board_text(pos: &Position) -> String {
    let (b, w) = (pos.black(), pos.white());
    let mut s: String = (0..64)
        .map(|i| {
            if b >> i & 1 != 0 {
                '*'
            } else if w >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push(' ');
    s.push(match pos.side() {
        Color::Black => '*',
        Color::White => 'O',
    });
    s
}

fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Parses the one GGF game in `text` (surrounding whitespace allowed).
///
/// # Errors
/// A one-line message: no game, more than one game, or what is wrong with the game (see
/// [`parse_games`]).
pub fn parse_game(text: &str) -> Result<GgfGame, String> {
    let mut games = parse_games(text)?;
    match games.len() {
        0 => Err("no GGF game found (expected '(;GM[Othello]...;)')".into()),
        1 => Ok(games.remove(0)),
        n => Err(format!("{n} GGF games found where one was expected")),
    }
}

/// Parses every game of a GGF file (games one after another; text between games is
/// ignored).
///
/// # Errors
/// The first malformed game, with its number (1-based): an unterminated game or value, a
/// property name that is not upper-case letters, a game that is not Othello (`GM`) or not
/// 8x8 (`TY`, `BO`), a bad board, or an illegal or malformed move (with its ply).
pub fn parse_games(text: &str) -> Result<Vec<GgfGame>, String> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let n = games.len() + 1;
        let (props, after) =
            split_properties(&rest[start + 2..]).map_err(|e| format!("GGF game {n}: {e}"))?;
        games.push(build_game(props).map_err(|e| format!("GGF game {n}: {e}"))?);
        rest = after;
    }
    Ok(games)
}

/// A game's properties in order: (tag, value).
type Properties = Vec<(String, String)>;

/// The properties of one game up to its closing `;)`, and the text after it.
fn split_properties(text: &str) -> Result<(Properties, &str), String> {
    let mut props = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut tag = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            ';' if tag.is_empty() && chars.peek().is_some_and(|&(_, d)| d == ')') => {
                return Ok((props, &text[i + 2..]));
            }
            'A'..='Z' => tag.push(c),
            '[' => {
                if tag.is_empty() {
                    return Err("a value '[...]' without a property name".into());
                }
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some((_, '\\')) => {
                            if let Some((_, e)) = chars.next() {
                                value.push(e);
                            }
                        }
                        Some((_, ']')) => break,
                        Some((_, v)) => value.push(v),
                        None => return Err(format!("property {tag}[ is never closed with ']'")),
                    }
                }
                props.push((std::mem::take(&mut tag), value));
            }
            c if c.is_whitespace() && tag.is_empty() => {}
            _ => {
                return Err(format!(
                    "unexpected '{c}' (property names are upper-case letters, values in [...])"
                ));
            }
        }
    }
    Err("the game is never closed with ';)'".into())
}

fn build_game(props: Properties) -> Result<GgfGame, String> {
    match props.iter().find(|(t, _)| t == "GM") {
        Some((_, gm)) if gm.trim().eq_ignore_ascii_case("othello") => {}
        Some((_, gm)) => {
            return Err(format!(
                "GM[{gm}] is not Othello (tessera reads Othello GGF games)"
            ));
        }
        None => return Err("no GM[Othello] property".into()),
    }
    if let Some((_, ty)) = props.iter().find(|(t, _)| t == "TY") {
        check_type(ty)?;
    }
    let mut game = GgfGame {
        properties: Vec::new(),
        start: Position::start(),
        moves: Vec::new(),
    };
    let mut pos = game.start;
    let mut seen_move = false;
    for (tag, value) in props {
        match tag.as_str() {
            "BO" => {
                if seen_move {
                    return Err("BO[...] after the first move".into());
                }
                game.start = parse_board(&value)?;
                pos = game.start;
            }
            "B" | "W" => {
                seen_move = true;
                let color = if tag == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let ply = game.moves.len() + 1;
                let m = parse_move(&value, color).map_err(|e| format!("ply {ply}: {e}"))?;
                if color != pos.side() {
                    // The side on move has no move: an implied pass.
                    if pos.legal_placements() != 0 || !pos.is_legal(Move::PASS) {
                        return Err(format!(
                            "ply {ply}: {tag}[{value}] but {} is to move",
                            color_word(pos.side())
                        ));
                    }
                    game.moves.push(GgfMove {
                        color: pos.side(),
                        mv: Move::PASS,
                        eval: None,
                        time: None,
                    });
                    pos = pos.pass();
                }
                if !pos.is_legal(m.mv) {
                    return Err(format!(
                        "ply {ply}: {tag}[{value}] is illegal in position {pos}"
                    ));
                }
                pos = pos.play(m.mv);
                game.moves.push(m);
            }
            _ => game.properties.push((tag, value)),
        }
    }
    Ok(game)
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `TY`: a board size of 8 with optional GGS variant letters, anti-Othello (`a`) refused.
fn check_type(ty: &str) -> Result<(), String> {
    let digits: String = ty.chars().filter(char::is_ascii_digit).collect();
    let size_digits: String = ty
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.is_empty() || size_digits != "8" {
        return Err(format!("TY[{ty}] is not an 8x8 game"));
    }
    if ty.contains('a') {
        return Err(format!(
            "TY[{ty}] is anti-Othello, which tessera does not play"
        ));
    }
    Ok(())
}

/// `BO[8 <64 squares> <side>]`; whitespace inside the squares is allowed.
fn parse_board(value: &str) -> Result<Position, String> {
    let mut tokens: Vec<&str> = value.split_whitespace().collect();
    if tokens.first() != Some(&"8") {
        return Err(format!(
            "BO[{value}]: tessera reads 8x8 boards only (BO[8 ...])"
        ));
    }
    let side = tokens.pop().filter(|_| tokens.len() > 1).ok_or_else(|| {
        format!("BO[{value}]: expected the size, 64 squares and the side to move")
    })?;
    let squares: String = tokens[1..].concat();
    let text = format!("{squares} {side}");
    text.parse::<Position>()
        .map_err(|e| format!("BO[{value}]: {e}"))
}

/// A move value `square[/eval[/time]]` (eval and time may be empty).
fn parse_move(value: &str, color: Color) -> Result<GgfMove, String> {
    let (mv, eval, time) = parse_move_value(value)?;
    Ok(GgfMove {
        color,
        mv,
        eval,
        time,
    })
}

/// One move value as GGF (`B[f5/0.50/3.2]`) and the NBoard `move` command write it:
/// a square or `PA` (any case; Edax takes anything starting with `pa` as a pass), then an
/// optional `/eval` (discs, for the mover) and `/time` (seconds, not negative); empty
/// fields count as absent.
///
/// # Errors
/// A bad square, an eval or time that is not a finite number (a negative time), or more
/// than three `/` fields, naming the value.
pub fn parse_move_value(value: &str) -> Result<(Move, Option<f64>, Option<f64>), String> {
    let mut parts = value.split('/');
    let square = parts.next().unwrap_or("").trim();
    let mv = if square
        .get(..2)
        .is_some_and(|p| p.eq_ignore_ascii_case("pa"))
    {
        Move::PASS
    } else {
        Move::parse(square).map_err(String::from)?
    };
    let number = |text: Option<&str>, what: &str| -> Result<Option<f64>, String> {
        match text.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| format!("bad {what} '{t}' in move [{value}]")),
        }
    };
    let eval = number(parts.next(), "eval")?;
    let time = number(parts.next(), "time")?;
    if let Some(t) = time
        && t < 0.0
    {
        return Err(format!("bad time '{t}' (negative) in move [{value}]"));
    }
    if parts.next().is_some() {
        return Err(format!(
            "move [{value}] has more than three '/' fields (square/eval/time)"
        ));
    }
    Ok((mv, eval, time))
}

/// The largest GGF file read: 1 GiB (a whole GGS archive is a few hundred MB).
pub const MAX_GGF_FILE: u64 = 1 << 30;

/// Reads game `FILE[:N]`: the N-th game (1-based) of a GGF file, or its only game when no
/// `:N` is given (a suffix is taken as `N` only when it is all digits).
///
/// # Errors
/// An unreadable file, a malformed game, `N` out of range, or several games and no `N`.
pub fn load(spec: &str) -> Result<GgfGame, String> {
    let (path, index) = match spec.rsplit_once(':') {
        Some((p, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
            let n: usize = n
                .parse()
                .map_err(|_| format!("game number '{n}' is too large"))?;
            (p, Some(n))
        }
        _ => (spec, None),
    };
    let text = crate::game::files::read_text(std::path::Path::new(path), "GGF file", MAX_GGF_FILE)?;
    let mut games = parse_games(&text).map_err(|e| format!("{path}: {e}"))?;
    let count = games.len();
    match index {
        _ if count == 0 => Err(format!("{path}: no GGF game found")),
        None if count == 1 => Ok(games.remove(0)),
        None => Err(format!(
            "{path} holds {count} games: choose one with {path}:N (1..{count})"
        )),
        Some(n) if (1..=count).contains(&n) => Ok(games.swap_remove(n - 1)),
        Some(n) => Err(format!("{path} has no game {n} (it holds 1..{count})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example game of the NBoard protocol document.
    const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn move_values_with_eval_and_time() {
        let f5 = Move::parse("f5").unwrap();
        assert_eq!(parse_move_value("F5"), Ok((f5, None, None)));
        assert_eq!(
            parse_move_value("f5/-0.50/3.2"),
            Ok((f5, Some(-0.5), Some(3.2)))
        );
        assert_eq!(parse_move_value("F5//1"), Ok((f5, None, Some(1.0))));
        assert_eq!(parse_move_value("PA"), Ok((Move::PASS, None, None)));
        assert_eq!(
            parse_move_value("pass/0"),
            Ok((Move::PASS, Some(0.0), None))
        );
        for (bad, names) in [
            ("F5/abc", "abc"),
            ("F5/1/xyz", "xyz"),
            ("F5/1/-2", "negative"),
            ("F5/1/2/3", "three"),
            ("F5/inf", "inf"),
            ("z9", "z9"),
            ("a\u{20ac}", "not an Othello move"),
        ] {
            let e = parse_move_value(bad).unwrap_err();
            assert!(e.contains(names), "{bad}: {e}");
        }
    }

    #[test]
    fn nboard_document_example_reads_as_the_transcript() {
        let g = parse_game(NBOARD_EXAMPLE).unwrap();
        assert_eq!(g.start, Position::start());
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.property("PB"), Some("./mEdax"));
        assert_eq!(g.property("PW"), Some("chris"));
        assert_eq!(g.property("DT"), Some("2014-02-21 20:52:27 GMT"));
        assert_eq!(g.moves[1].color, Color::White);
        let by_transcript = Position::from_transcript("f5f6d3c5e6f7e7f4").unwrap();
        assert_eq!(g.final_position(), by_transcript);
        // Written back, it reads back identically.
        let again = parse_game(&g.to_ggf()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn evals_times_and_passes_round_trip() {
        // After f5f6f7g7d3f8h8h6 Black has no move: White's next move implies a pass.
        let text = "(;GM[othello]PB[a]PW[b]TY[8]B[f5/0.5/1.25]W[f6//2]B[f7/-3]W[g7]B[d3]W[f8]B[h8]W[h6]W[f4/12.5/0.1];)";
        let g = parse_game(text).unwrap();
        assert_eq!(g.moves[0].eval, Some(0.5));
        assert_eq!(g.moves[0].time, Some(1.25));
        assert_eq!(g.moves[1].eval, None);
        assert_eq!(g.moves[1].time, Some(2.0));
        assert_eq!(g.moves[2].eval, Some(-3.0));
        assert_eq!(g.moves[8].mv, Move::PASS);
        assert_eq!(g.moves[8].color, Color::Black);
        assert_eq!(g.moves.len(), 10);
        let written = g.to_ggf();
        assert!(written.contains("B[PA]W[F4/12.5/0.1]"), "{written}");
        assert_eq!(parse_game(&written).unwrap(), g);
        assert_eq!(parse_game(&written).unwrap().to_ggf(), written);
    }

    #[test]
    fn a_file_of_games_and_a_board() {
        let bo = "BO[8 O--OOOOX -OOOOOOX OOXXOOOX OOXOOOXX OOOOOOXX ---OOOOX ----O--X -------- *]";
        let text = format!("junk (;GM[Othello]{bo}B[a2];)\n(;GM[Othello];)\n");
        let games = parse_games(&text).unwrap();
        assert_eq!(games.len(), 2);
        let ffo40: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
            .parse()
            .unwrap();
        assert_eq!(games[0].start, ffo40);
        assert_eq!(games[1].moves.len(), 0);
        assert_eq!(parse_game(&games[0].to_ggf()).unwrap(), games[0]);
    }

    #[test]
    fn malformed_games_are_refused_with_a_reason() {
        let cases = [
            ("(;GM[Othello]B[f5]", "never closed"),
            ("(;GM[Othello]B[f5;)", "never closed"),
            ("(;GM[Amazons]B[f5];)", "not Othello"),
            ("(;B[f5];)", "no GM"),
            ("(;GM[Othello]TY[10];)", "not an 8x8"),
            ("(;GM[Othello]TY[8a];)", "anti-Othello"),
            ("(;GM[Othello]B[a1];)", "illegal"),
            ("(;GM[Othello]W[f5];)", "Black is to move"),
            ("(;GM[Othello]B[z9];)", "not an Othello move"),
            ("(;GM[Othello]B[f5/x];)", "bad eval"),
            ("(;GM[Othello]BO[8 ---- *];)", "64"),
            ("(;GM[Othello]b[f5];)", "unexpected 'b'"),
            ("", "no GGF game"),
        ];
        for (text, want) in cases {
            let err = parse_game(text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
