//! The lock on a tournament's output directory: one run writes `DIR/games.jsonl` at a time.
//!
//! The lock is an advisory exclusive file lock (`flock` on Unix, `LockFileEx` on Windows)
//! on `DIR/tournament.lock`, which also holds the owner's process id for the error message.
//! The operating system releases it when the owner exits in any way (`kill -9` included), so a
//! lock file left by a dead process is stale by construction and the next run takes it over.
//! The file is never deleted: deleting it would let a third run lock a fresh file while a
//! second still holds the old one.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Name of the lock file inside the output directory.
pub const LOCK_FILE: &str = "tournament.lock";

/// A held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct OutLock {
    _file: File,
    path: PathBuf,
}

impl OutLock {
    /// Takes the lock of `dir` (which must exist), writing this process's id into it.
    ///
    /// # Errors
    /// Another live process holds it (the message names its process id), or the lock file
    /// cannot be opened or written.
    pub fn acquire(dir: &Path) -> Result<Self, String> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                let owner = text
                    .split_whitespace()
                    .next()
                    .filter(|w| w.parse::<u32>().is_ok())
                    .map_or_else(|| "another process".to_string(), |p| format!("process {p}"));
                return Err(format!(
                    "{} is in use by another tessera run ({owner} holds {}); wait for it to \
                     finish or use another --out",
                    dir.display(),
                    path.display()
                ));
            }
            Err(TryLockError::Error(e)) => {
                return Err(format!("cannot lock {}: {e}", path.display()));
            }
        }
        let pid = std::process::id();
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| writeln!(file, "{pid}"))
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Self { _file: file, path })
    }

    /// The lock file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_owner_and_a_released_lock_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("tessera-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A stale file naming a process that no longer holds it: taken over.
        std::fs::write(dir.join(LOCK_FILE), "999999999\n").unwrap();
        let first = OutLock::acquire(&dir).unwrap();
        let pid = std::process::id().to_string();
        assert_eq!(std::fs::read_to_string(first.path()).unwrap().trim(), pid);
        // flock locks belong to the open file description: a second open is refused.
        let err = OutLock::acquire(&dir).unwrap_err();
        assert!(err.contains(&format!("process {pid}")), "{err}");
        assert!(!err.contains('\n'), "{err}");
        drop(first);
        let again = OutLock::acquire(&dir).unwrap();
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
