//! `tessera selfplay othello --wthor FILE,...`: the positions of human games from WTHOR
//! databases, labelled as self-play positions are ([`tessera::tuning::wthor_import`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tessera::tuning::wthor_import::{self, WthorConfig};

use super::output::{CliError, print_json, say};

/// What `selfplay --wthor` needs of the `selfplay` arguments.
pub struct WthorArgs<'a> {
    /// The game id given (only `othello` has WTHOR files).
    pub game: String,
    /// The WTHOR files, read in order.
    pub files: &'a [PathBuf],
    /// Output data file (overwritten).
    pub out: &'a Path,
    /// Exact labels at this many empties or fewer (default 14; 0 = none).
    pub exact_empties: Option<u32>,
    /// `--max-plies`, refused here (played games only).
    pub max_plies: Option<u64>,
    /// Worker threads.
    pub threads: u64,
    /// Print one JSON object.
    pub json: bool,
}

/// Runs `selfplay othello --wthor`.
///
/// # Errors
/// Another game than Othello, options that only apply to played games, an unreadable, cut
/// short or malformed WTHOR file (naming it, and the game and ply of a bad move), an
/// unwritable output.
pub fn run(args: &WthorArgs) -> Result<ExitCode, CliError> {
    if args.game != "othello" {
        return Err(CliError::input(
            "--wthor reads Othello game databases: use `selfplay othello --wthor FILE`",
        ));
    }
    if args.max_plies.is_some() {
        return Err(CliError::input(
            "--max-plies is for played games; WTHOR games are read whole",
        ));
    }
    let summary = wthor_import::import(&WthorConfig {
        files: args.files.to_vec(),
        out: args.out.to_path_buf(),
        exact_empties: args.exact_empties.unwrap_or(14),
        threads: args.threads as usize,
    })?;
    let secs = summary.seconds;
    if args.json {
        print_json(&serde_json::json!({
            "games": summary.games,
            "unfinished": summary.unfinished,
            "positions": summary.positions,
            "unique": summary.unique,
            "exact": summary.exact,
            "seconds": secs,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "{} WTHOR games ({} stopped before the end), {} positions, {} distinct written to {} \
             ({} with exact labels) in {secs:.1} s",
            summary.games,
            summary.unfinished,
            summary.positions,
            summary.unique,
            args.out.display(),
            summary.exact
        ));
    }
    Ok(ExitCode::SUCCESS)
}
