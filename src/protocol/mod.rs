//! tessera as an engine for other programs, above the engines: the servers of the text
//! protocols.
//!
//! - [`server`]: tessera as a GTP engine on stdin/stdout (`tessera gtp othello`);
//! - [`nboard`]: tessera as an NBoard-protocol engine (`tessera nboard othello`).
//!
//! The wire level both directions share (GTP commands and responses, each game's colours
//! and vertices) is [`crate::wire`], below the engines; the client, an external GTP
//! program as a [`crate::engine::Player`], is [`crate::engine::external::GtpEngine`].
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

pub mod nboard;
pub mod server;

pub use server::GtpServer;
