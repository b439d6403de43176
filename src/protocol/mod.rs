//! Engine protocols: tessera speaking to other programs and other programs speaking to
//! tessera.
//!
//! - [`gtp`]: the Go Text Protocol pieces both directions share (the [`GtpGame`] trait,
//!   command parsing, response formatting and parsing);
//! - [`nboard`]: tessera as an NBoard-protocol engine (`tessera nboard othello`);
//! - [`server`]: tessera as a GTP engine on stdin/stdout (`tessera gtp othello`);
//! - the client, an external GTP program as a [`crate::engine::Player`], is
//!   [`crate::engine::external::GtpEngine`].
//!
//! # Example
//!
//! tessera as a GTP engine, fed a session from a string instead of stdin:
//!
//! ```
//! use tessera::engine::{EngineSpec, Players};
//! use tessera::games::othello::Position;
//! use tessera::protocol::GtpServer;
//!
//! let spec = EngineSpec::from_inline("name=gtp-demo,depth=2", "othello")?;
//! let mut server = GtpServer::<Position>::new(Position::make_player(&spec)?, spec.limits());
//! let mut output = Vec::new();
//! server
//!     .run("boardsize 8\nclear_board\nplay black f5\ngenmove white\nquit\n".as_bytes(), &mut output)
//!     .map_err(|e| e.to_string())?;
//! let answers = String::from_utf8(output).map_err(|e| e.to_string())?;
//! println!("{answers}");
//! assert_eq!(server.moves().len(), 2); // f5 and the engine's reply
//! # Ok::<(), String>(())
//! ```

pub mod gtp;
pub mod nboard;
pub mod quixo;
pub mod server;

pub use gtp::{Command, GtpGame, Response, ResponseReader, format_response};
pub use server::GtpServer;
