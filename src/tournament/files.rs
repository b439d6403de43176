//! The files a tournament depends on (each engine's weights, book and MPC table, a Quixo
//! engine's solved-tier tables; the openings file), pinned when a run starts and stamped in `DIR/tournament.json` by path,
//! size and content hash (never their content): a resume whose files differ from the
//! stamps would score two different engines under one name, so it is refused unless
//! `--allow-changed-files` accepts it (and the change is recorded).
//!
//! Pinning (see [`crate::game::pinned`]) makes every game of a run use the content read at
//! its start: a file deleted or overwritten during the run changes nothing.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::EngineSpec;
use crate::game::pinned::{self, FileStamp};

/// The key of `DIR/tournament.json` that lists the [`DependedFile`]s.
pub const FILES_KEY: &str = "files";

/// The key of `DIR/tournament.json` that lists the changes `--allow-changed-files` accepted
/// ([`FileChange`]s, oldest first).
pub const CHANGES_KEY: &str = "changed_files";

/// A file the tournament depends on, and what it held when stamped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DependedFile {
    /// The engine that names the file; `None` for the openings file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// What the file is: `weights`, `book`, `mpc`, `openings`, or a Quixo engine's
    /// `full-board-table` or `tier-table` (`tables`).
    pub kind: String,
    /// Path, size and content hash.
    #[serde(flatten)]
    pub stamp: FileStamp,
}

impl DependedFile {
    /// `engine 'w' weights file PATH`, `openings file PATH`.
    #[must_use]
    pub fn describe(&self) -> String {
        match &self.engine {
            Some(e) => format!("engine '{e}' {} file {}", self.kind, self.stamp.path),
            None => format!("{} file {}", self.kind, self.stamp.path),
        }
    }
}

/// A change of a depended file accepted by `--allow-changed-files`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    /// The file as it was stamped before.
    pub before: DependedFile,
    /// Its stamp from the run that accepted the change.
    pub after: FileStamp,
    /// Games the directory held when the change was accepted (the games played before it
    /// used the old content).
    pub games_before: usize,
}

/// The files `spec` names, as `(kind, path)`: its weights (not a `builtin:` name), book
/// and MPC table (not `builtin`). Built-in and external engines alike (an external
/// program's own files are its business).
#[must_use]
pub fn engine_files(spec: &EngineSpec) -> Vec<(&'static str, &Path)> {
    let mut out = Vec::new();
    if spec.weight_values.is_none()
        && let Some(w) = &spec.weights
        && !w.to_str().is_some_and(|s| s.starts_with("builtin:"))
    {
        out.push(("weights", w.as_path()));
    }
    if let Some(b) = spec.book_source()
        && b != "builtin"
    {
        out.push(("book", Path::new(b)));
    }
    if let Some(m) = spec.mpc_source()
        && m != "builtin"
    {
        out.push(("mpc", Path::new(m)));
    }
    out
}

/// The largest file a stamp reads whole: the largest any engine file may be.
const MAX_STAMPED: u64 = 1 << 30;

/// Pins every file the `engines` name and returns their stamps, in engine order.
///
/// # Errors
/// A file that cannot be read (naming the engine and the file).
pub fn stamp_engines(engines: &[EngineSpec]) -> Result<Vec<DependedFile>, String> {
    let mut out = Vec::new();
    for spec in engines {
        for (kind, path) in engine_files(spec) {
            let stamp = pinned::stamp(path, &format!("{kind} file"), MAX_STAMPED)
                .map_err(|e| spec.named_error(&e))?;
            out.push(DependedFile {
                engine: Some(spec.name.clone()),
                kind: kind.into(),
                stamp,
            });
        }
        // The solved tiers' tables, stamped from the bytes the engines play with (read
        // once per process and shared, not pinned: tens of MB).
        for (kind, path, _) in
            crate::engine::quixo_tables::table_files(spec).map_err(|e| spec.named_error(&e))?
        {
            let stamp = crate::engine::quixo_tables::table_stamp(kind, &path)
                .map_err(|e| spec.named_error(&e))?;
            out.push(DependedFile {
                engine: Some(spec.name.clone()),
                kind: kind.into(),
                stamp,
            });
        }
    }
    Ok(out)
}

/// The changes from the stamps `before` (of `dir`'s settings) to `now`: every file of
/// `now` whose engine and kind `before` also lists, with another content hash; and every
/// file `before` lists for an engine of `engines` (this run's engine names) that `now` no
/// longer has (its `after` then has an empty path and the hash `none`: an engine whose
/// `tables=auto` found no table this time plays another way under the same name). A file
/// `before` does not list (a directory written before files were stamped) is no change.
#[must_use]
pub fn changes(
    before: &[DependedFile],
    now: &[DependedFile],
    engines: &[&str],
    games: usize,
) -> Vec<FileChange> {
    let edited = now.iter().filter_map(|n| {
        let b = before
            .iter()
            .find(|b| b.engine == n.engine && b.kind == n.kind)?;
        (b.stamp.hash != n.stamp.hash).then(|| FileChange {
            before: b.clone(),
            after: n.stamp.clone(),
            games_before: games,
        })
    });
    let dropped = before.iter().filter_map(|b| {
        let engine = b.engine.as_deref()?;
        let gone = engines.contains(&engine)
            && !now.iter().any(|n| n.engine == b.engine && n.kind == b.kind);
        gone.then(|| FileChange {
            before: b.clone(),
            after: FileStamp {
                path: String::new(),
                size: 0,
                hash: NO_FILE.into(),
            },
            games_before: games,
        })
    });
    edited.chain(dropped).collect()
}

/// The hash a [`FileChange`] records when the engine no longer uses the file at all.
pub const NO_FILE: &str = "none";

/// The refusal of a resume over `change` in `dir`: one line naming the file and both
/// hashes.
#[must_use]
pub fn refusal(dir: &Path, change: &FileChange) -> String {
    let what = if change.before.engine.is_some() {
        "its games would mix two engines under one name; restore the file, use another \
         --out, or give --allow-changed-files to play on with it"
    } else {
        "the games already played come from its old openings; restore the file or use \
         another --out"
    };
    if change.after.hash == NO_FILE {
        return format!(
            "{} ({}) was used when {} was started and is not used now (a missing table, or \
             a file no longer named): {what}",
            change.before.describe(),
            change.before.stamp.hash,
            dir.display()
        );
    }
    if change.after.path != change.before.stamp.path {
        // Another file was named, not the same file edited: say which is which.
        let now = DependedFile {
            engine: change.before.engine.clone(),
            kind: change.before.kind.clone(),
            stamp: change.after.clone(),
        };
        return format!(
            "{} is not the file {} was started with ({}, {}; this one is {}): {what}",
            now.describe(),
            dir.display(),
            change.before.stamp.path,
            change.before.stamp.hash,
            change.after.hash
        );
    }
    format!(
        "{} changed since {} was started ({} then, {} now): {what}",
        change.before.describe(),
        dir.display(),
        change.before.stamp.hash,
        change.after.hash
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(engine: &str, kind: &str, hash: &str) -> DependedFile {
        DependedFile {
            engine: Some(engine.into()),
            kind: kind.into(),
            stamp: FileStamp {
                path: format!("{engine}.{kind}"),
                size: 1,
                hash: hash.into(),
            },
        }
    }

    #[test]
    fn a_file_an_engine_no_longer_uses_is_a_change_and_a_removed_engine_is_not() {
        let before = [
            file("tb", "full-board-table", "h1"),
            file("w", "weights", "h2"),
        ];
        // `tb`'s table is gone this run (tables=auto with an empty cache); `w` is unchanged.
        let now = [file("w", "weights", "h2")];
        let c = changes(&before, &now, &["tb", "w"], 4);
        assert_eq!(c.len(), 1);
        assert_eq!(
            (c[0].before.engine.as_deref(), c[0].after.hash.as_str()),
            (Some("tb"), NO_FILE)
        );
        assert_eq!(
            refusal(Path::new("t"), &c[0]),
            "engine 'tb' full-board-table file tb.full-board-table (h1) was used when t was \
             started and is not used now (a missing table, or a file no longer named): its \
             games would mix two engines under one name; restore the file, use another \
             --out, or give --allow-changed-files to play on with it"
        );
        // An engine that is not in this run at all is the settings' business, not a file's.
        assert!(changes(&before, &now, &["w"], 4).is_empty());
        // An edited file is still a change, named with both hashes.
        let edited = [
            file("tb", "full-board-table", "h9"),
            file("w", "weights", "h2"),
        ];
        let c = changes(&before, &edited, &["tb", "w"], 0);
        assert_eq!((c.len(), c[0].after.hash.as_str()), (1, "h9"));
    }
}
