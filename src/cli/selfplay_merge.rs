//! `tessera selfplay <game> --merge SHARD,... --out FILE`: the shards of one self-play run
//! merged ([`tessera::tuning::selfplay_merge::merge`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::{CliError, print_json, say};

/// What `selfplay <game> --merge FILES --out FILE [--json]` was given.
pub struct MergeArgs<'a> {
    /// The game id (`othello`).
    pub game: String,
    /// The shard files.
    pub merge: &'a [PathBuf],
    /// The merged file.
    pub out: &'a Path,
    /// Print one JSON object instead of the summary line.
    pub json: bool,
}

/// Runs `selfplay --merge`.
///
/// # Errors
/// As [`tessera::tuning::selfplay_merge::merge`].
pub fn run(args: &MergeArgs<'_>) -> Result<ExitCode, CliError> {
    let s = tessera::tuning::selfplay_merge::merge(&args.game, args.merge, args.out)?;
    if args.json {
        print_json(&serde_json::json!({
            "shards": s.shards,
            "unique": s.unique,
            "out": args.out.display().to_string(),
        }));
    } else {
        say(format!(
            "{} shards merged: {} distinct positions written to {}",
            s.shards,
            s.unique,
            args.out.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}
