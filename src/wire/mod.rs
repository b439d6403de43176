//! The wire level of the text protocols tessera speaks with other programs, below the
//! engines: what both the client (an external GTP program as a player,
//! [`crate::engine::external`]) and the servers above the engines ([`crate::protocol`]:
//! `tessera gtp`, `tessera nboard`) need to read and write a line.
//!
//! - [`gtp`]: the Go Text Protocol's pieces (the [`GtpGame`] trait with Othello's colours
//!   and vertices, command parsing, response formatting and parsing);
//! - [`quixo`]: Quixo's (and four-player Quixo's) GTP names.

pub mod gtp;
pub mod quixo;

pub use gtp::{Command, GtpGame, Response, ResponseReader, format_response};
