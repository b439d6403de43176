//! How a game is shown to people: seat names, the board as text, results in words and as
//! JSON, move transcripts, and what the board drawing (`tessera serve`'s page, the HTML
//! reports' game viewer, one script: `web/board.js`) needs beyond the rules: how a move is
//! made by clicks, the counts under the board, the cells to mark when the game is over.
//!
//! One trait, [`Present`], implemented once per game (`present/<game>.rs`). The command
//! line, the web application and the reports all show games through it, so they say the
//! same thing.
//!
//! Beside it: numbers, move lists and perft tables for people ([`si`], [`rate`],
//! [`join_moves`], [`json_moves`], [`perft_line`]), the output of Othello's exact solves
//! ([`othello_solve`], [`obf_batch`]), and of Quixo's ([`quixo_solve`], [`quixo_tier`]).
//!
//! A click token is a cell as the board drawing names it (`f5`; Quixo `c1`; Talat
//! `WG:c1`) or a choice the drawing offers beside the board (four-player Quixo's dot `>2`,
//! a Talat tower kind `H3` to place). The page never knows the rules: it offers the tokens
//! that continue some legal move's token list.
//!
//! # Example
//!
//! ```
//! use tessera::game::{Game, Seat};
//! use tessera::games::othello::Position;
//! use tessera::present::Present;
//!
//! let pos = Position::start();
//! assert_eq!(pos.seat_name(Seat(0)), "Black (X)");
//! assert_eq!(pos.counts()[2], ("empty".to_string(), 60));
//! let full: Position = format!("{} O", "X".repeat(64)).parse().map_err(|e| format!("{e}"))?;
//! assert!(full.result_text().is_some_and(|t| t.contains("Black (X) wins by 64")));
//! # Ok::<(), String>(())
//! ```

mod numbers;
pub mod obf_batch;
mod othello;
pub mod othello_solve;
mod quixo;
pub mod quixo_solve;
pub mod quixo_tier;
mod score;
mod talat;

pub use numbers::{join_moves, json_moves, perft_header, perft_line, rate, si};
pub use othello::color_name;
pub use score::{info_line, score_short, score_text};

use serde_json::{Value, json};

use crate::game::{Game, Seat};

/// A game as people see it. Every method has the command line's wording.
pub trait Present: Game + 'static {
    /// Unit of the engines' scores (e.g. `"centi-discs"`).
    const SCORE_UNIT: &'static str;

    /// Help text for typing a move (terminal `play`).
    const MOVE_HELP: &'static str;

    /// How a person makes a move on the page, in one paragraph.
    const CLICK_HELP: &'static str;

    /// The seat's name for people, e.g. `Black (X)`.
    fn seat_name(&self, seat: Seat) -> String;

    /// The seat named by `text` (case-insensitive): a colour, a symbol or the seat number.
    fn seat_by_name(&self, text: &str) -> Option<Seat> {
        let text = text.trim().to_ascii_lowercase();
        (0..self.seats()).map(|i| Seat(i as u8)).find(|&s| {
            text == s.0.to_string()
                || self
                    .seat_name(s)
                    .to_ascii_lowercase()
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| !w.is_empty() && w == text)
        })
    }

    /// Whether `mv` is a pass (played for a person automatically when it is the only move).
    fn is_pass(&self, mv: Self::Move) -> bool {
        mv.to_string().eq_ignore_ascii_case("pass")
    }

    /// A game's moves as one line of text (default: separated by spaces).
    fn transcript(moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The board drawn for a terminal, with coordinates.
    fn diagram(&self) -> String;

    /// The result of a finished game for people (`None` while the game goes on).
    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let parts: Vec<String> = (0..self.seats())
            .map(|i| {
                let s = Seat(i as u8);
                format!(
                    "{} {} (place {})",
                    self.seat_name(s),
                    outcome.score(s),
                    outcome.rank(s)
                )
            })
            .collect();
        Some(format!("game over: {}", parts.join(", ")))
    }

    /// The score of a finished game for the side to move, in [`Present::SCORE_UNIT`]
    /// (default: its [`Outcome::margin`](crate::game::Outcome::margin)); 0 while the game
    /// goes on.
    fn final_score(&self) -> i32 {
        self.outcome().map_or(0, |o| o.margin(self.to_move()))
    }

    /// The result of a finished game as JSON (`None` while the game goes on).
    fn result_json(&self) -> Option<Value> {
        let outcome = self.outcome()?;
        let seats: Vec<Value> = (0..self.seats())
            .map(|i| {
                let s = Seat(i as u8);
                json!({
                    "seat": i,
                    "name": self.seat_name(s),
                    "score": outcome.score(s),
                    "place": outcome.rank(s),
                })
            })
            .collect();
        Some(json!({ "seats": seats }))
    }

    /// The result of a finished game in words: who won (or a draw), then each seat's
    /// score and place (`Black (X) wins. Black (X) 40 (place 1), White (O) 24 (place 2)`).
    fn result_words(&self) -> Option<String> {
        let detail = self.result_text()?;
        let outcome = self.outcome()?;
        let winners: Vec<String> = (0..self.seats())
            .map(|i| Seat(i as u8))
            .filter(|&s| outcome.rank(s) == 1)
            .map(|s| self.seat_name(s))
            .collect();
        let head = if winners.len() == self.seats() {
            "Draw".to_string()
        } else if winners.len() == 1 {
            format!("{} wins", winners[0])
        } else {
            format!("{} win", winners.join(" and "))
        };
        Some(format!(
            "{head}. {}",
            detail.trim_start_matches("game over: ")
        ))
    }

    /// The click tokens of move `mv` (its text), in the order a person clicks them; empty
    /// for a pass (played automatically).
    fn clicks(mv: &str) -> Vec<String>;

    /// Counts shown under the board, as (label, value): discs, cubes, points.
    fn counts(&self) -> Vec<(String, i64)>;

    /// Cells to highlight on a finished board (a completed Quixo line); none by default.
    fn marks(&self) -> Vec<String> {
        Vec::new()
    }

    /// The game's record in GGF (Othello only).
    fn ggf(_start: &Self, _moves: &[Self::Move]) -> Option<String> {
        None
    }

    /// A start position and moves from a GGF game record (Othello only).
    ///
    /// # Errors
    /// A malformed record, or a game that has no GGF records.
    fn from_ggf(_text: &str) -> Result<(Self, Vec<Self::Move>), String> {
        Err(format!(
            "GGF records are Othello games; {} starts from a position or a move list",
            Self::ID
        ))
    }
}

/// The counts as JSON `[{label, value}]`.
pub fn counts_json<G: Present>(pos: &G) -> Value {
    pos.counts()
        .into_iter()
        .map(|(label, value)| json!({ "label": label, "value": value }))
        .collect()
}

/// The first click tokens of `pos`'s legal moves (the cells or choices a person would
/// start a move with), each once; none when the game is over or the only move is a pass.
pub fn first_tokens<G: Present>(pos: &G) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if pos.outcome().is_some() {
        return out;
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    for m in moves.iter() {
        if let Some(t) = G::clicks(&m.to_string()).into_iter().next()
            && !out.contains(&t)
        {
            out.push(t);
        }
    }
    out
}

/// Splits `a-b` / `axb` move texts into their two cells, keeping a board prefix
/// (`WG:c1-c2` gives `WG:c1`, `WG:c2`).
fn two_cells(text: &str, sep: &[char]) -> Vec<String> {
    let (board, rest) = match text.split_once(':') {
        Some((b, r)) => (format!("{b}:"), r),
        None => (String::new(), text),
    };
    match rest.split_once(sep) {
        Some((a, b)) => vec![format!("{board}{a}"), format!("{board}{b}")],
        None => vec![text.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{othello, quixo, talat};

    #[test]
    fn move_texts_split_into_the_cells_clicked() {
        assert_eq!(othello::Position::clicks("f5"), ["f5"]);
        assert!(othello::Position::clicks("pass").is_empty());
        assert_eq!(quixo::Quixo::clicks("c1-a1"), ["c1", "a1"]);
        assert_eq!(quixo::Quixo4p::clicks("c1-a1>2"), ["c1", "a1", ">2"]);
        assert_eq!(talat::Talat::clicks("H3@WG:c1"), ["H3", "WG:c1"]);
        assert_eq!(talat::Talat::clicks("WG:c1-c2"), ["WG:c1", "WG:c2"]);
        assert_eq!(talat::Talat::clicks("GB:c2xd2"), ["GB:c2", "GB:d2"]);
    }

    #[test]
    fn quixo_marks_the_winning_row() {
        // X completes row 1; O has nothing.
        let pos: quixo::Quixo = "XXXXX/O..../O..../...../..... O".parse().unwrap();
        assert_eq!(pos.marks(), ["a1", "b1", "c1", "d1", "e1"]);
        let open: quixo::Quixo = "XXXX./O..../O..../...../..... O".parse().unwrap();
        assert!(open.marks().is_empty());
    }

    #[test]
    fn othello_counts_discs() {
        let c = othello::Position::start().counts();
        assert_eq!((c[0].1, c[1].1, c[2].1), (2, 2, 60));
    }

    #[test]
    fn othello_result_of_a_full_board() {
        let all_black: othello::Position = format!("{} O", "X".repeat(64)).parse().unwrap();
        let text = all_black.result_text().unwrap();
        assert!(text.contains("Black (X) wins by 64"), "{text}");
        assert!(othello::Position::start().result_text().is_none());
    }

    #[test]
    fn seats_are_found_by_colour_symbol_or_number() {
        let pos = othello::Position::start();
        assert_eq!(pos.seat_by_name("white"), Some(Seat(1)));
        assert_eq!(pos.seat_by_name("X"), Some(Seat(0)));
        assert_eq!(pos.seat_by_name("1"), Some(Seat(1)));
        assert_eq!(pos.seat_by_name("green"), None);
    }
}
