//! Watching tournament folders (`tessera serve --watch DIR`): the games of `DIR/games.jsonl`
//! replayed with the rules for the board drawing. The page asks again every few seconds
//! with `since` (the number of games it has), so games appear as a running tournament
//! finishes them.

use std::path::PathBuf;

use crate::tournament::record;
use serde_json::{Value, json};

use super::http::{ApiError, ApiResult, query};
use crate::games::GameId;
use crate::report::replay;

/// Most games sent in one answer (the page asks again for the rest).
pub const MAX_GAMES_PER_ANSWER: usize = 200;

/// `GET /api/watch?dir=K&since=N`: games N.. (in file order) of watched folder K, replayed;
/// without `dir`, the folders.
///
/// # Errors
/// 400 for a bad `dir` or `since`; 422 for a records file that cannot be read or replayed.
pub fn list(dirs: &[PathBuf], url: &str) -> ApiResult {
    let Some(k) = query(url, "dir") else {
        let folders: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Ok(json!({ "folders": folders }));
    };
    let dir = k
        .parse::<usize>()
        .ok()
        .and_then(|k| dirs.get(k))
        .ok_or_else(|| {
            ApiError::bad(format!(
                "no watched folder {} (there are {}; give folders with --watch)",
                crate::game::shown(&k),
                dirs.len()
            ))
        })?;
    let since = match query(url, "since") {
        None => 0,
        Some(s) => s.parse::<usize>().map_err(|_| {
            ApiError::bad(format!(
                "'since' must be a count, got '{}'",
                crate::game::shown(&s)
            ))
        })?,
    };
    let path = dir.join("games.jsonl");
    // A running tournament may be writing its last line: a torn tail is left out quietly.
    let records: Vec<_> = record::load_numbered(&path)
        .map_err(|e| ApiError::with(422, e))?
        .records
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let total = records.len();
    let mut games = Vec::new();
    for rec in records.iter().skip(since).take(MAX_GAMES_PER_ANSWER) {
        let id = &rec.game.parse::<GameId>().map_err(|_| {
            ApiError::with(
                422,
                format!(
                    "{}: game {} is of unknown game '{}'",
                    path.display(),
                    rec.id,
                    rec.game
                ),
            )
        })?;
        let v: Result<Value, String> = crate::for_game!(id, replay(rec));
        games.push(v.map_err(|e| ApiError::with(422, format!("{}: {e}", path.display())))?);
    }
    Ok(json!({
        "folder": dir.display().to_string(),
        "total": total,
        "since": since,
        "games": games,
    }))
}
