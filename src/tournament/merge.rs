//! `tournament merge`: the records of the shards of one tournament (`--shard I/N`, one
//! directory each) combined into the records of the tournament played in one piece.
//!
//! Two records of one game id (overlapping directories, a task rerun on another machine)
//! are the same game when what was played agrees ([`same_play`]); the machine-dependent
//! fields ([`MACHINE_DEPENDENT`]) may differ, and the first directory's record is kept.

use std::path::{Path, PathBuf};

use super::files::{DependedFile, FileChange};
use super::record::GameRecord;
use super::settings::Settings;

/// The record fields that depend on the machine and its load, not on the game: a rerun of
/// the same game on another machine (or at another time) gives other values. They are not
/// compared by [`same_play`]. `move_stats` holds each move's score too: an engine searching
/// by time or on several threads may report another score for the same move.
pub const MACHINE_DEPENDENT: [&str; 5] =
    ["seconds", "move_ms", "clock_ms", "overrun_ms", "move_stats"];

/// Whether `a` and `b` record the same game: the same schedule slot (id, block, round), game,
/// seed, engines, teams, opening and start position, the same moves and the same result
/// (scores, points, places, reason and its detail). The fields of [`MACHINE_DEPENDENT`] are
/// not compared.
#[must_use]
pub fn same_play(a: &GameRecord, b: &GameRecord) -> bool {
    a.id == b.id
        && a.block == b.block
        && a.round == b.round
        && a.game == b.game
        && a.seed == b.seed
        && a.engines == b.engines
        && a.teams == b.teams
        && a.opening == b.opening
        && a.start == b.start
        && a.moves == b.moves
        && a.scores == b.scores
        && a.points == b.points
        && a.ranks == b.ranks
        && a.reason == b.reason
        && a.detail == b.detail
}

/// One directory to merge: its name (for messages), its settings, the shard its
/// `tournament.json` names (`None`: the whole schedule, or written before shards were
/// recorded) and its records.
pub struct Part {
    /// The directory, as given.
    pub name: String,
    /// Its `tournament.json`.
    pub settings: Settings,
    /// Its shard `(I, N)`.
    pub shard: Option<(usize, usize)>,
    /// Its records.
    pub records: Vec<GameRecord>,
    /// The stamps of the files its engines and openings depend on.
    pub files: Vec<DependedFile>,
    /// The file changes `--allow-changed-files` accepted in it.
    pub changes: Vec<FileChange>,
}

/// Checks the shards named by `parts`: one shard count and, when every part names its
/// shard, none missing. A shard given twice (a copy, a rerun elsewhere) is allowed: its
/// games are compared by [`combine`].
///
/// # Errors
/// One line naming the directories: shards of different counts, or the missing shard
/// numbers.
pub fn check_shard_set(parts: &[Part]) -> Result<(), String> {
    let mut seen: Vec<Option<&str>> = Vec::new();
    let mut count: Option<(usize, &str)> = None;
    for p in parts {
        let Some((i, n)) = p.shard else { continue };
        match count {
            None => count = Some((n, &p.name)),
            Some((m, first)) if m != n => {
                return Err(format!(
                    "{} holds shard {i}/{n} but {first} one of {m} shards: \
                     merge the shards of one --shard I/N split",
                    p.name
                ));
            }
            Some(_) => {}
        }
        seen.resize(n, None);
        seen[i - 1] = Some(&p.name);
    }
    if parts.iter().all(|p| p.shard.is_some()) {
        let missing = missing_shards(&seen);
        if !missing.is_empty() {
            return Err(format!(
                "shard {} of {} missing: merge needs every shard's directory",
                missing.join(", "),
                seen.len()
            ));
        }
    }
    Ok(())
}

/// The numbers (1-based, as in `--shard I/N`) of the shards `seen` (one entry per shard,
/// `None` when absent) lacks, for messages.
#[must_use]
pub fn missing_shards<T>(seen: &[Option<T>]) -> Vec<String> {
    seen.iter()
        .enumerate()
        .filter(|(_, p)| p.is_none())
        .map(|(i, _)| (i + 1).to_string())
        .collect()
}

/// The records of `parts` as one tournament, sorted by id; a game present in several parts
/// once (the first part's record).
///
/// # Errors
/// No parts; parts of different tournaments; a bad shard set ([`check_shard_set`]); a
/// record outside its directory's shard; one game id played differently in two parts.
pub fn combine(parts: Vec<Part>) -> Result<(Settings, Vec<GameRecord>), String> {
    let first = parts.first().ok_or("no directories to merge")?;
    let (settings, first_name) = (first.settings.clone(), first.name.clone());
    check_shard_set(&parts)?;
    let mut merged: Vec<GameRecord> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for p in parts {
        if p.settings != settings {
            return Err(format!(
                "{} holds a different tournament than {first_name}: only shards of one \
                 tournament merge",
                p.name
            ));
        }
        for r in p.records {
            if let Some((i, n)) = p.shard
                && r.block % n != i - 1
            {
                return Err(format!(
                    "{}: game {} (block {}) is not in shard {i}/{n}",
                    p.name, r.id, r.block
                ));
            }
            match seen.get(&r.id) {
                None => {
                    seen.insert(r.id, merged.len());
                    merged.push(r);
                }
                Some(&k) if same_play(&merged[k], &r) => {}
                Some(_) => {
                    return Err(format!(
                        "game {} is played differently in {} and an earlier directory \
                         (moves or result differ): the directories hold different games",
                        r.id, p.name
                    ));
                }
            }
        }
    }
    merged.sort_by_key(|r| r.id);
    Ok((settings, merged))
}

/// The file stamps of the merged tournament: those of the first part that names them,
/// which every other part naming the same file (by engine and kind) must agree with by
/// size and content hash (paths may differ from machine to machine); the accepted changes
/// of all parts, each once.
///
/// # Errors
/// Two parts whose engines or openings were read from different content, naming the file,
/// both directories and both hashes.
pub fn combine_files(parts: &[Part]) -> Result<(Vec<DependedFile>, Vec<FileChange>), String> {
    let mut files: Vec<(&str, &DependedFile)> = Vec::new();
    let mut changes: Vec<FileChange> = Vec::new();
    for p in parts {
        for f in &p.files {
            match files
                .iter()
                .find(|(_, g)| g.engine == f.engine && g.kind == f.kind)
            {
                None => files.push((&p.name, f)),
                Some((name, g)) if g.stamp.hash != f.stamp.hash || g.stamp.size != f.stamp.size => {
                    return Err(format!(
                        "{} differs between {name} ({}) and {} ({}): the directories played \
                         with different files and do not merge",
                        g.describe(),
                        g.stamp.hash,
                        p.name,
                        f.stamp.hash
                    ));
                }
                Some(_) => {}
            }
        }
        for c in &p.changes {
            if !changes.contains(c) {
                changes.push(c.clone());
            }
        }
    }
    Ok((files.into_iter().map(|(_, f)| f.clone()).collect(), changes))
}

/// What [`merge_dirs`] wrote.
pub struct Merged {
    /// The tournament's settings.
    pub settings: Settings,
    /// Every game, sorted by id.
    pub records: Vec<GameRecord>,
    /// Notes for people, one a line: a directory's note ([`super::folder::Folder::note`]),
    /// games of the schedule missing (a shard missing or unfinished).
    pub note: Option<String>,
}

/// Merges the tournament directories `dirs` (each read and checked by
/// [`super::folder::read`]) into the new directory `out`: `tournament.json` (the settings,
/// with the file stamps all of them agree on, see [`combine_files`]) and `games.jsonl`.
///
/// # Errors
/// A directory that does not read, directories that do not merge ([`combine`],
/// [`combine_files`]), `out` already holding records, or a write that fails.
pub fn merge_dirs(dirs: &[PathBuf], out: &Path) -> Result<Merged, String> {
    let mut parts = Vec::new();
    let mut notes = Vec::new();
    for d in dirs {
        let folder = super::folder::read(d)?;
        notes.extend(folder.note);
        let shard = super::runner::saved_shard(d)?;
        let (files, changes) = super::runner::saved_files(d)?;
        parts.push(Part {
            name: d.display().to_string(),
            settings: folder.settings,
            shard,
            records: folder.records,
            files,
            changes,
        });
    }
    let (files, changes) = combine_files(&parts)?;
    let (settings, merged) = combine(parts)?;
    let taken = || {
        format!(
            "{} already holds records; merge into a new directory",
            out.display()
        )
    };
    if out.join("games.jsonl").exists() {
        return Err(taken());
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let _lock = super::lock::OutLock::acquire(out)?;
    if out.join("games.jsonl").exists() {
        return Err(taken());
    }
    super::runner::write_settings(
        out,
        &super::runner::settings_value(&settings, None, &files, &changes)?,
    )?;
    let mut w = super::record::Writer::append(&out.join("games.jsonl"))?;
    for r in &merged {
        w.write(r)?;
    }
    // Shards that are missing or unfinished leave holes in the schedule: say so.
    let seats = merged.first().map_or(2, |r| r.sides_view().engines.len());
    let scheduled = super::schedule::groups(settings.engines.len(), seats, settings.format).len()
        * settings.rounds
        * seats;
    if merged.len() < scheduled && settings.sprt.is_none() {
        notes.push(format!(
            "note: {} of the {scheduled} scheduled games are present (a shard missing or unfinished?)",
            merged.len()
        ));
    }
    let note = (!notes.is_empty()).then(|| notes.join("\n"));
    Ok(Merged {
        settings,
        records: merged,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::{MoveStat, Reason};

    fn record(id: usize) -> GameRecord {
        GameRecord {
            id,
            block: id / 2,
            round: 0,
            game: "othello".into(),
            seed: 1,
            engines: vec!["a".into(), "b".into()],
            opening: String::new(),
            start: "start".into(),
            moves: vec!["f5".into(), "d6".into()],
            scores: vec![40, 24],
            points: vec![1.0, 0.0],
            ranks: vec![1, 2],
            reason: Reason::Normal,
            detail: None,
            seconds: 1.5,
            move_ms: vec![3, 4],
            clock_ms: Vec::new(),
            overrun_ms: None,
            teams: Vec::new(),
            move_stats: vec![
                MoveStat {
                    score: 10,
                    seconds: 0.003,
                },
                MoveStat {
                    score: -10,
                    seconds: 0.004,
                },
            ],
        }
    }

    #[test]
    fn timings_do_not_make_another_game() {
        let a = record(3);
        let mut b = a.clone();
        b.seconds = 9.0;
        b.move_ms = vec![30, 40];
        b.clock_ms = vec![100, 200];
        b.overrun_ms = Some(5);
        b.move_stats[0].seconds = 0.03;
        b.move_stats[1].score = -12;
        assert!(same_play(&a, &b));
        let mut c = a.clone();
        c.moves[1] = "c3".into();
        assert!(!same_play(&a, &c));
        let mut d = a.clone();
        d.points = vec![0.5, 0.5];
        assert!(!same_play(&a, &d));
        let mut e = a.clone();
        e.reason = Reason::PlyCap;
        assert!(!same_play(&a, &e));
    }
}
