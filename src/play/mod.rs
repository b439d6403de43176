//! Games between people and engines: the move history with undo and redo that the web
//! page and the terminal share ([`history`]), the terminal's game with its commands
//! ([`terminal`]), and who sits where with people's input read a line at a time
//! ([`seats`]).

pub mod history;
pub mod seats;
pub mod terminal;
