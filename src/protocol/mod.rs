//! Engine protocols: tessera speaking to other programs and other programs speaking to
//! tessera.
//!
//! - [`gtp`]: the Go Text Protocol pieces both directions share (the [`GtpGame`] trait,
//!   command parsing, response formatting and parsing);
//! - [`nboard`]: tessera as an NBoard-protocol engine (`tessera nboard othello`);
//! - [`server`]: tessera as a GTP engine on stdin/stdout (`tessera gtp othello`);
//! - the client, an external GTP program as a [`crate::engine::Player`], is
//!   [`crate::engine::external::GtpEngine`].

pub mod gtp;
pub mod nboard;
pub mod quixo;
pub mod server;

pub use gtp::{Command, GtpGame, Response, ResponseReader, format_response};
pub use server::GtpServer;
