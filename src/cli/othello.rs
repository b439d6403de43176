//! Othello specifics of the command line: the fast perft and the square symmetry.

use tessera::games::othello::{self as oth, Position};

use super::games::CliGame;

impl CliGame for Position {
    const SQUARE_SYMMETRY: bool = true;

    fn perft(&self, depth: u32) -> u64 {
        oth::perft::perft(self, depth)
    }
}
