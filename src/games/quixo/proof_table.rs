//! The full-board table a 5x5 proof uses at its leaves ([`proof_table`]): needed only when
//! a position can reach a full board within the proof's plies, then loaded from its file
//! or built ([`super::table_cache::obtain`]).

use std::path::Path;

use super::Quixo;
use super::retro::FullBoardTable;
use super::table_cache::{self, TableCacheError, TableSource};
use crate::game::Game;

/// Why no table could be had for a proof; `Display` gives the one-line message.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProofTableError {
    /// A table file was named for a position that cannot use one (the message says why).
    NotUsed(String),
    /// The cache refused the file or could not build the table.
    Cache(TableCacheError),
}

impl std::fmt::Display for ProofTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotUsed(m) => f.write_str(m),
            Self::Cache(e) => write!(f, "--table {e}"),
        }
    }
}

impl std::error::Error for ProofTableError {}

/// The full-board table a proof of `pos` within `max_plies` plies uses, and where it came
/// from: `None` when no full board is reachable (or the game is over). `file` is the table
/// file named (else the cache file); with a `time_ms` budget under a minute an existing
/// file is used but no table is built. `notes` gets the cache's lines for people.
///
/// # Errors
/// A `file` for a position that cannot use it, a file that is not a table of ours, a
/// table that cannot be built.
pub fn proof_table(
    pos: &Quixo,
    max_plies: u32,
    (file, threads, time_ms): (Option<&Path>, usize, Option<u64>),
    notes: &mut dyn FnMut(&str),
) -> Result<Option<(FullBoardTable, TableSource)>, ProofTableError> {
    let blanks = pos.size() as u32 * pos.size() as u32 - (pos.x() | pos.o()).count_ones();
    // A move fills at most one blank, so the full-board table is reachable within
    // `max_plies` only from 5x5 positions with at most that many blanks; farther positions
    // use the proving search alone. A valid table file is loaded; building one takes
    // seconds (more on a loaded machine), so a --time-ms below a minute only uses an
    // existing file.
    let needed = pos.size() == 5 && blanks <= max_plies && pos.outcome().is_none();
    if !needed && file.is_some() {
        return Err(ProofTableError::NotUsed(if pos.outcome().is_some() {
            "--table is not used: the position is already over".to_string()
        } else {
            format!(
                "--table is not used: the full-board table is reachable only from positions \
                 with at most --max-plies ({max_plies}) blank squares, this one has {blanks}"
            )
        }));
    }
    if !needed {
        return Ok(None);
    }
    table_cache::obtain(file, threads, time_ms.is_none_or(|t| t >= 60_000), notes)
        .map_err(ProofTableError::Cache)
}
