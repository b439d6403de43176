//! Quixo over GTP: seat names `x` / `o` (four players: `a1`, `b1`, `a2`, `b2`); vertices
//! are the move texts (`c1-a1`, `c1-a1>2`, `pass`).

use crate::game::{MoveError, Seat};
use crate::games::quixo::{Move, Position};
use crate::wire::gtp::GtpGame;

/// GTP names: two players `x` / `o`; four players `a1`, `b1`, `a2`, `b2`. Vertices are the
/// move texts (`c1-a1`, `c1-a1>2`, `pass`).
impl<const FOUR: bool> GtpGame for Position<FOUR> {
    fn colour_name(seat: Seat) -> &'static str {
        if FOUR {
            ["a1", "b1", "a2", "b2"][seat.index() & 3]
        } else {
            ["x", "o"][seat.index() & 1]
        }
    }

    fn seat_of_colour(text: &str) -> Option<Seat> {
        let t = text.trim().to_ascii_lowercase();
        let names: &[&str] = if FOUR {
            &["a1", "b1", "a2", "b2"]
        } else {
            &["x", "o"]
        };
        names.iter().position(|n| *n == t).map(|i| Seat(i as u8))
    }

    /// `boardsize 5` (the standard board) is accepted; other sizes are refused.
    fn board_size() -> Option<u32> {
        Some(5)
    }

    fn vertex(mv: Move) -> String {
        mv.to_string()
    }

    fn parse_vertex(text: &str) -> Result<Move, MoveError> {
        text.trim().to_ascii_lowercase().parse()
    }
}
