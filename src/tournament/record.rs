//! Game records: one JSON object per line in `DIR/games.jsonl`, appended and flushed as
//! each game ends, so an interrupted tournament loses no finished game.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
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
    /// A position occurred for the third time with the same seat to move, in a game whose
    /// rules have no other end to cycles (Quixo): scored as a draw.
    Repetition,
    /// An engine played an illegal move: that engine loses.
    IllegalMove,
    /// An engine crashed, hung past its timeout or answered nonsense: that engine loses.
    EngineError,
    /// An engine used more than its clock (`tc` / `st`) plus its `timemargin`: it loses;
    /// the record's `overrun_ms` says by how much.
    TimeForfeit,
    /// `--adjudicate exact=N`: the position was solved exactly and the game ended with
    /// the solved result (`scores` hold the solved final score).
    AdjudicatedExact,
    /// `--adjudicate resign=SCORE,MOVES`: both engines' scores agreed that one side was
    /// lost for MOVES moves each.
    AdjudicatedResign,
    /// `--adjudicate draw=SCORE,MOVES[,FROM]`: both engines' scores stayed within SCORE of
    /// 0 for MOVES moves each: scored as a draw.
    AdjudicatedDraw,
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
    /// Milliseconds each move of `moves` took, from the request to the reply (absent in
    /// records written before clocks were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_ms: Vec<u64>,
    /// With a clock (`tc` / `st`): the mover's clock after each move of `moves`,
    /// milliseconds (increment and any new period included); empty without clocks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_ms: Vec<u64>,
    /// A time forfeit's overrun: milliseconds used beyond the time left on the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrun_ms: Option<u64>,
    /// Team per seat in team games (four-seat Quixo: `[0, 1, 0, 1]`); empty (and absent
    /// from the JSON) when every seat is its own side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<u8>,
    /// Per move of `moves`: the mover's score in the game's unit and the seconds it took
    /// (absent in records written before it existed; exported as GGF evals and times).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_stats: Vec<MoveStat>,
}

/// What an engine said about one move it played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveStat {
    /// The mover's score for the position, in the game's unit (Othello: centi-discs).
    pub score: i32,
    /// Seconds the engine took.
    pub seconds: f64,
}

impl GameRecord {
    /// The game as its sides saw it: for a team game, one entry per team (the engine, points
    /// and place of the team's first seat; teammates share results), otherwise the record
    /// itself. Ratings and head-to-head statistics are computed on this view.
    #[must_use]
    pub fn sides_view(&self) -> std::borrow::Cow<'_, GameRecord> {
        if self.teams.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let n = self
            .teams
            .iter()
            .map(|&t| usize::from(t) + 1)
            .max()
            .unwrap_or(0);
        let first: Vec<usize> = (0..n)
            .filter_map(|t| self.teams.iter().position(|&x| usize::from(x) == t))
            .collect();
        let pick = |v: &[usize]| -> Vec<usize> {
            first.iter().filter_map(|&i| v.get(i).copied()).collect()
        };
        let ranks_of_seats = pick(&self.ranks);
        // Places among teams: 1 + the number of teams placed strictly better.
        let ranks: Vec<usize> = ranks_of_seats
            .iter()
            .map(|&r| 1 + ranks_of_seats.iter().filter(|&&o| o < r).count())
            .collect();
        let mut side = self.clone();
        side.engines = first.iter().map(|&i| self.engines[i].clone()).collect();
        side.scores = first
            .iter()
            .filter_map(|&i| self.scores.get(i).copied())
            .collect();
        side.points = GameRecord::points_from_ranks(&ranks);
        side.ranks = ranks;
        side.teams = Vec::new();
        std::borrow::Cow::Owned(side)
    }

    /// In a team game, sets every seat's points to its team's (1 win, 1/2 draw, 0 loss for
    /// two teams), from the seats' places. Does nothing outside team games.
    pub fn share_team_points(&mut self) {
        if self.teams.is_empty() || self.ranks.len() != self.teams.len() {
            return;
        }
        let side = self.sides_view().into_owned();
        self.points = self
            .teams
            .iter()
            .map(|&t| side.points.get(usize::from(t)).copied().unwrap_or(0.0))
            .collect();
    }
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

/// The longest line of `games.jsonl` read, bytes: a record of a 1,000-ply game with its
/// per-move statistics is about 100 KB, so a longer line is not a record (a device, or a
/// file that is not a record file).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// How the last line of a records file ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Empty file, or the last line ends with a newline.
    Clean,
    /// The last line is a complete record without its newline (counted); a resuming run
    /// adds the newline before appending.
    Unterminated,
    /// The last line (1-based `line`) is cut short (a run stopped mid-write): it is not
    /// counted; a resuming run removes it (the file is cut to `keep` bytes).
    Torn {
        /// Its line number.
        line: usize,
        /// Bytes of the file before it.
        keep: u64,
    },
}

/// The records of a file, each with its line number (1-based), and how the file ends.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// `(line, record)` in file order (a record equal to an earlier one is left out).
    pub records: Vec<(usize, GameRecord)>,
    /// How the last line ends.
    pub tail: Tail,
}

impl Loaded {
    /// A note for the user when the last line is torn (it was skipped), naming the file and
    /// the line: `None` otherwise.
    #[must_use]
    pub fn note(&self, path: &Path) -> Option<String> {
        match self.tail {
            Tail::Torn { line, .. } => Some(format!(
                "note: {}:{line}: the last line is cut short (a run stopped while writing it) \
                 and is not counted; resuming the tournament removes it",
                path.display()
            )),
            _ => None,
        }
    }
}

/// Reads the records of `path` (see [`load_numbered`]), printing the torn-line note on
/// stderr if there is one.
///
/// # Errors
/// As [`load_numbered`].
pub fn load(path: &Path) -> Result<Vec<GameRecord>, String> {
    let loaded = load_numbered(path)?;
    if let Some(note) = loaded.note(path) {
        eprintln!("{note}");
    }
    Ok(loaded.records.into_iter().map(|(_, r)| r).collect())
}

/// Reads the records of `path`, only reading: a missing file is no records; a last line
/// without its newline counts when it is a whole record and is reported as torn
/// ([`Tail::Torn`], not counted) when it is not. A record equal to one already read (a
/// line copied twice) is ignored. The file is never changed (see [`repair_tail`]).
///
/// # Errors
/// An unreadable file or one that is not a regular file, a line that is not UTF-8 or is
/// longer than [`MAX_LINE_BYTES`], a malformed line before the last, or a second, different
/// record with an id already read (two runs writing one file): `FILE:LINE: what`.
pub fn load_numbered(path: &Path) -> Result<Loaded, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Loaded {
                records: Vec::new(),
                tail: Tail::Clean,
            });
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!(
            "{} is not a regular file (a records file is)",
            path.display()
        ));
    }
    let mut records: Vec<(usize, GameRecord)> = Vec::new();
    let mut seen: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut good_bytes = 0u64;
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let mut n = 0;
    let mut tail = Tail::Clean;
    loop {
        bytes.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        n += 1;
        if read > MAX_LINE_BYTES {
            return Err(format!(
                "{}:{n}: the line is longer than {MAX_LINE_BYTES} bytes: not a game record",
                path.display()
            ));
        }
        let terminated = bytes.last() == Some(&b'\n');
        let line = std::str::from_utf8(&bytes).map_err(|e| {
            format!(
                "{}:{n}: not UTF-8 text (byte {} of the line): not a game record",
                path.display(),
                e.valid_up_to() + 1
            )
        })?;
        if line.trim().is_empty() {
            good_bytes += read as u64;
            continue;
        }
        let r: GameRecord = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(_) if !terminated => {
                tail = Tail::Torn {
                    line: n,
                    keep: good_bytes,
                };
                break;
            }
            Err(e) => {
                return Err(format!("{}:{n}: not a game record: {e}", path.display()));
            }
        };
        if !terminated {
            tail = Tail::Unterminated;
        }
        good_bytes += read as u64;
        match seen.get(&r.id) {
            None => {
                seen.insert(r.id, records.len());
                records.push((n, r));
            }
            Some(&k) if records[k].1 == r => {}
            Some(&k) => {
                return Err(format!(
                    "{}:{n}: a second, different record of game {} (first on line {}): \
                     two runs wrote this file; keep one of the lines",
                    path.display(),
                    r.id,
                    records[k].0
                ));
            }
        }
    }
    Ok(Loaded { records, tail })
}

/// Makes the file of `loaded` ready for appending, for a run that holds the directory's
/// lock: a torn last line is cut off, a complete last line without its newline gets one.
/// Returns what was done, for the user, or `None` when nothing was needed.
///
/// # Errors
/// The file cannot be written.
pub fn repair_tail(path: &Path, loaded: &Loaded) -> Result<Option<String>, String> {
    let fail = |e: std::io::Error| format!("cannot repair {}: {e}", path.display());
    match loaded.tail {
        Tail::Clean => Ok(None),
        Tail::Unterminated => {
            let mut f = OpenOptions::new().append(true).open(path).map_err(fail)?;
            f.write_all(b"\n").map_err(fail)?;
            Ok(Some(format!(
                "note: {}: added the newline missing after the last record",
                path.display()
            )))
        }
        Tail::Torn { line, keep } => {
            let f = OpenOptions::new().write(true).open(path).map_err(fail)?;
            f.set_len(keep).map_err(fail)?;
            Ok(Some(format!(
                "note: {}:{line}: removed the last line, cut short by an earlier run; its game \
                 is played again",
                path.display()
            )))
        }
    }
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

    fn team_game(ranks: Vec<usize>) -> GameRecord {
        GameRecord {
            move_stats: Vec::new(),
            id: 0,
            block: 0,
            round: 0,
            game: "quixo-4p".into(),
            seed: 1,
            engines: ["a", "b", "a", "b"].map(String::from).to_vec(),
            opening: String::new(),
            start: String::new(),
            moves: Vec::new(),
            scores: vec![0, 1, 0, 1],
            points: GameRecord::points_from_ranks(&ranks),
            ranks,
            reason: Reason::Normal,
            detail: None,
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
            overrun_ms: None,
            seconds: 0.0,
            teams: vec![0, 1, 0, 1],
        }
    }

    #[test]
    fn team_games_are_scored_and_viewed_by_team() {
        // Team O (seats 1 and 3) won: seats 0 and 2 share second place.
        let mut r = team_game(vec![2, 1, 2, 1]);
        r.share_team_points();
        assert_eq!(r.points, vec![0.0, 1.0, 0.0, 1.0]);
        let side = r.sides_view();
        assert_eq!(side.engines, vec!["a", "b"]);
        assert_eq!(side.ranks, vec![2, 1]);
        assert_eq!(side.points, vec![0.0, 1.0]);
        assert_eq!(side.scores, vec![0, 1]);
        assert!(side.teams.is_empty());
        // A draw between teams.
        let mut d = team_game(vec![1, 1, 1, 1]);
        d.share_team_points();
        assert_eq!(d.points, vec![0.5; 4]);
        // The JSON of a team game keeps the teams; other games have no `teams` field.
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains("\"teams\":[0,1,0,1]"), "{json}");
        let mut plain = team_game(vec![1, 2, 1, 2]);
        plain.teams.clear();
        assert!(!serde_json::to_string(&plain).unwrap().contains("teams"));
        assert!(matches!(plain.sides_view(), std::borrow::Cow::Borrowed(_)));
    }
}
