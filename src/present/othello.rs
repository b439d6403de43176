//! Othello as people see it: `Black (X)` and `White (O)`, discs counted, results with the
//! empty squares given to the winner, GGF records.

use std::cmp::Ordering;

use serde_json::{Value, json};

use super::Present;
use crate::game::{Game, Seat};
use crate::games::othello::{self as oth, Color, Move, Position};

/// `Black (X)` or `White (O)`.
#[must_use]
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (X)",
        Color::White => "White (O)",
    }
}

/// Black's final disc difference (the empties given to the winner).
fn black_margin(pos: &Position) -> i32 {
    match pos.side() {
        Color::Black => pos.final_disc_difference(),
        Color::White => -pos.final_disc_difference(),
    }
}

impl Present for Position {
    const SCORE_UNIT: &'static str = oth::SCORE_UNIT;
    const MOVE_HELP: &'static str = "Type a square such as f5 (column a..h, row 1..8); a \
                                     forced pass is played for you. Also 'help' for this text, \
                                     or 'quit' to leave.";
    const CLICK_HELP: &'static str = "Click a square with a dot (a legal move). A forced pass \
        is played for you and noted.";

    fn seat_name(&self, seat: Seat) -> String {
        color_name(if seat.0 == 0 {
            Color::Black
        } else {
            Color::White
        })
        .to_string()
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    /// The compact transcript (`f5d6c3`, passes implied), as `--moves` reads it.
    fn transcript(moves: &[Move]) -> String {
        moves
            .iter()
            .filter(|m| !m.is_pass())
            .map(ToString::to_string)
            .collect()
    }

    /// Disc counts, the final score with the empties given to the winner, and who won.
    fn result_text(&self) -> Option<String> {
        self.outcome()?;
        let (b, w) = (self.black().count_ones(), self.white().count_ones());
        let empties = self.empties();
        let margin = black_margin(self);
        let verdict = match margin.cmp(&0) {
            Ordering::Greater => format!("Black (X) wins by {margin}"),
            Ordering::Less => format!("White (O) wins by {}", -margin),
            Ordering::Equal => "a draw".to_string(),
        };
        let empty_note = if empties > 0 && margin != 0 {
            let squares = if empties == 1 { "square" } else { "squares" };
            format!(", {empties} empty {squares} to the winner")
        } else {
            String::new()
        };
        Some(format!(
            "game over: Black (X) {b} discs, White (O) {w} discs{empty_note}: {verdict}"
        ))
    }

    fn result_json(&self) -> Option<Value> {
        self.outcome()?;
        let margin = black_margin(self);
        let winner = match margin.cmp(&0) {
            Ordering::Greater => "black",
            Ordering::Less => "white",
            Ordering::Equal => "draw",
        };
        Some(json!({
            "black_discs": self.black().count_ones(),
            "white_discs": self.white().count_ones(),
            "black_margin": margin,
            "winner": winner,
        }))
    }

    /// Centi-discs: 100 times the final disc difference for the side to move.
    fn final_score(&self) -> i32 {
        100 * self.final_disc_difference()
    }

    fn clicks(mv: &str) -> Vec<String> {
        if mv.eq_ignore_ascii_case("pass") {
            Vec::new()
        } else {
            vec![mv.to_string()]
        }
    }

    fn counts(&self) -> Vec<(String, i64)> {
        vec![
            (
                self.seat_name(Seat(0)),
                i64::from(self.black().count_ones()),
            ),
            (
                self.seat_name(Seat(1)),
                i64::from(self.white().count_ones()),
            ),
            ("empty".into(), i64::from(self.empties())),
        ]
    }

    fn ggf(start: &Self, moves: &[Move]) -> Option<String> {
        let mut game = crate::formats::ggf::GgfGame::from_position(*start);
        for &m in moves {
            game.push(m, None, None).ok()?;
        }
        Some(game.to_ggf())
    }

    fn from_ggf(text: &str) -> Result<(Self, Vec<Move>), String> {
        let game = crate::formats::ggf::parse_game(text)?;
        Ok((game.start, game.move_list()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_empty_square_is_named_in_the_singular() {
        // 63 black discs and h8 empty: neither side can move, the game is over, and the
        // empty square goes to Black, 64-0.
        let text = format!("{}- X", "X".repeat(63));
        let pos: Position = text.parse().unwrap();
        assert_eq!(
            pos.result_text().unwrap(),
            "game over: Black (X) 63 discs, White (O) 0 discs, 1 empty square to the \
             winner: Black (X) wins by 64"
        );
        let text = format!("{}-- X", "X".repeat(62));
        let pos: Position = text.parse().unwrap();
        assert!(
            pos.result_text()
                .unwrap()
                .contains(", 2 empty squares to the winner"),
        );
    }
}
