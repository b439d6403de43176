//! Game records: one JSON object per line in `DIR/games.jsonl`, appended and flushed as
//! each game ends, so an interrupted tournament loses no finished game.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The rules ended it.
    Normal,
    /// The ply cap (`--max-plies`) was reached: scored as a draw.
    PlyCap,
    /// An engine played an illegal move: that engine loses.
    IllegalMove,
    /// An engine crashed, hung past its timeout or answered nonsense: that engine loses.
    EngineError,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game index in the schedule (the game's id).
    pub id: usize,
    /// Block (pair / rotation block) index.
    pub block: usize,
    /// Round (opening) index.
    pub round: usize,
    /// Game id (`othello`).
    pub game: String,
    /// Master seed of the tournament.
    pub seed: u64,
    /// Engine name per seat.
    pub engines: Vec<String>,
    /// The opening as given (file line or random moves; empty for the start position).
    pub opening: String,
    /// The position the game started from, in the game's one-line form.
    pub start: String,
    /// Moves played from `start`, in the game's notation.
    pub moves: Vec<String>,
    /// Final score per seat in the game's unit (Othello: discs, empties to the winner);
    /// empty when the game did not end by the rules.
    pub scores: Vec<i32>,
    /// Points per seat: 1 win, 1/2 draw, 0 loss for two seats; for more seats
    /// (seats beaten + half the seats tied) / (seats - 1).
    pub points: Vec<f64>,
    /// Place per seat, 1 = first (ties share).
    pub ranks: Vec<usize>,
    /// Why the game ended.
    pub reason: Reason,
    /// Details for forfeits: the engine's error or the illegal move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl GameRecord {
    /// Points per seat from places (see [`GameRecord::points`]).
    #[must_use]
    pub fn points_from_ranks(ranks: &[usize]) -> Vec<f64> {
        let n = ranks.len();
        if n < 2 {
            return vec![1.0; n];
        }
        ranks
            .iter()
            .map(|&r| {
                let beaten = ranks.iter().filter(|&&o| o > r).count() as f64;
                let tied = ranks.iter().filter(|&&o| o == r).count() as f64 - 1.0;
                (beaten + 0.5 * tied) / (n - 1) as f64
            })
            .collect()
    }
}

/// Reads the records of `path`; a missing file is no records. A last line cut short by a
/// crash is dropped and the file truncated to the last complete line, so appending resumes
/// cleanly. A record whose id was already read (a line copied twice) is ignored.
///
/// # Errors
/// An unreadable file or a malformed complete line (naming the line).
pub fn load(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut records = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut good_bytes = 0u64;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut n = 0;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        n += 1;
        if !line.ends_with('\n') {
            // Torn last line: drop it.
            let f = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            f.set_len(good_bytes)
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            break;
        }
        good_bytes += read as u64;
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord = serde_json::from_str(&line)
            .map_err(|e| format!("{} line {n} is not a game record: {e}", path.display()))?;
        if seen.insert(r.id) {
            records.push(r);
        }
    }
    Ok(records)
}

/// Appends records to a file, one line each, flushed to the OS before returning.
pub struct Writer {
    file: File,
}

impl Writer {
    /// Opens `path` for appending (created if missing).
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn append(path: &Path) -> Result<Self, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {} for writing: {e}", path.display()))?;
        Ok(Self { file })
    }

    /// Writes one record as a single line (one `write` call) and flushes it.
    ///
    /// # Errors
    /// The write fails (disk full, ...).
    pub fn write(&mut self, r: &GameRecord) -> Result<(), String> {
        let mut line = serde_json::to_string(r).map_err(|e| e.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| format!("cannot write game record: {e}"))?;
        self.file
            .flush()
            .map_err(|e| format!("cannot write game record: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_from_places() {
        assert_eq!(GameRecord::points_from_ranks(&[1, 2]), vec![1.0, 0.0]);
        assert_eq!(GameRecord::points_from_ranks(&[1, 1]), vec![0.5, 0.5]);
        assert_eq!(
            GameRecord::points_from_ranks(&[2, 1, 3]),
            vec![0.5, 1.0, 0.0]
        );
        assert_eq!(
            GameRecord::points_from_ranks(&[1, 1, 3]),
            vec![0.75, 0.75, 0.0]
        );
    }
}
