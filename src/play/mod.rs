//! Games between people and engines: the move history with undo and redo that the web
//! page and the terminal share ([`history`]), and the terminal's game with its commands
//! ([`terminal`]).

pub mod history;
pub mod terminal;
