//! File formats shared with other programs: [`ggf`] (GGS / NBoard / Edax game records for
//! Othello) and [`wthor`] (the French federation's WTHOR game databases, read as a source
//! of positions for fitting); and [`position_source`]: where a position to work on comes
//! from (its text, moves, an FFO problem, the end of a GGF game).
//!
//! # Example
//!
//! ```
//! use tessera::formats::ggf;
//!
//! let game = ggf::parse_game(
//!     "(;GM[Othello]PB[me]PW[you]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/-0.5/1.2];)",
//! )?;
//! assert_eq!(game.property("PB"), Some("me"));
//! assert_eq!(game.move_list().len(), 2);
//! assert_eq!(game.final_position().to_string(), "---------------------------OX------XOX-------O------------------ X");
//! # Ok::<(), String>(())
//! ```

pub mod ggf;
pub mod position_source;
pub mod wthor;
