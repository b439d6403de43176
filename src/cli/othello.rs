//! Othello specifics of the command line: none beyond the defaults (its fast perft and
//! square symmetry are the library's).

use tessera::games::othello::Position;

use super::games::CliGame;

impl CliGame for Position {}
