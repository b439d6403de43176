//! Files pinned for the life of the process: the first read of a file an engine depends on
//! (weights, book, MPC table) keeps its bytes, and every later read of the same path gets
//! those bytes, so a file deleted or overwritten while a tournament, `gtp`, `nboard`,
//! `serve` or self-play runs cannot change an engine under it: every game's engine is built
//! from the content the run started with.
//!
//! Each pinned file also has a [`FileStamp`] (path, size, content hash): a tournament
//! records the stamps of the files its engines and openings come from, and a resume
//! refuses when a file's content changed since (see [`crate::tournament::files`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// A file's content as first read by this process.
#[derive(Debug)]
pub struct Pinned {
    /// The path as given to the first read.
    pub path: PathBuf,
    /// The whole content.
    pub bytes: Arc<[u8]>,
    /// [`content_hash`] of `bytes`.
    pub hash: String,
}

impl Pinned {
    /// The stamp of this file: its path, size and content hash.
    #[must_use]
    pub fn stamp(&self) -> FileStamp {
        FileStamp {
            path: self.path.display().to_string(),
            size: self.bytes.len() as u64,
            hash: self.hash.clone(),
        }
    }
}

/// What a tournament records of a file it depends on (never the content).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    /// The path as the engine spec or `--openings` gave it.
    pub path: String,
    /// Size, bytes.
    pub size: u64,
    /// [`content_hash`] of the content: `fnv1a64:` and 16 hex digits.
    pub hash: String,
}

/// The content hash of stamps: 64-bit FNV-1a, written `fnv1a64:` and 16 hex digits. It
/// tells a changed file from the same one (a chance of 2^-64 to miss a change), not a
/// forgery from the real file.
#[must_use]
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h = FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// 64-bit FNV-1a over bytes given in pieces (for files read as a stream).
#[derive(Clone, Copy, Debug)]
pub struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl FnvHasher {
    /// Adds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash as a number.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.0
    }

    /// The hash as stamps write it (`fnv1a64:` and 16 hex digits).
    #[must_use]
    pub fn finish(&self) -> String {
        format!("fnv1a64:{:016x}", self.0)
    }
}

/// The pinned files, by canonical path.
static PINNED: Mutex<Vec<(PathBuf, Arc<Pinned>)>> = Mutex::new(Vec::new());

/// The key of `path` in [`PINNED`]: its canonical form when it exists (two spellings of one
/// file share a pin), else the path itself.
fn key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The content of `path` as pinned by the first read in this process, reading it now (with
/// [`super::files::read_bytes`]'s cap and checks; `text` adds those of
/// [`super::files::read_line_bytes`]) when it is not pinned yet.
fn pin(path: &Path, what: &str, cap: u64, text: bool) -> Result<Arc<Pinned>, String> {
    let k = key(path);
    // Also the pin of a file since deleted: its canonical path is then unknown, so look
    // under the path as given too.
    let mut pins = PINNED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, p)) = pins.iter().find(|(p, _)| *p == k || p.as_path() == path) {
        if p.bytes.len() as u64 > cap {
            return Err(format!(
                "{what} {} is {} bytes, more than {}, the most tessera reads for it",
                path.display(),
                p.bytes.len(),
                super::files::size_text(cap)
            ));
        }
        return Ok(Arc::clone(p));
    }
    let bytes = if text {
        super::files::read_line_bytes(path, what, cap)?
    } else {
        super::files::read_bytes(path, what, cap)?
    };
    let pinned = Arc::new(Pinned {
        path: path.to_path_buf(),
        hash: content_hash(&bytes),
        bytes: bytes.into(),
    });
    pins.push((k.clone(), Arc::clone(&pinned)));
    if k.as_path() != path {
        pins.push((path.to_path_buf(), Arc::clone(&pinned)));
    }
    Ok(pinned)
}

/// A binary file's content, pinned (see the module documentation).
///
/// # Errors
/// As [`super::files::read_bytes`] on the first read.
pub fn read_bytes(path: &Path, what: &str, cap: u64) -> Result<Arc<Pinned>, String> {
    pin(path, what, cap, false)
}

/// A UTF-8 text file's content, pinned (see the module documentation).
///
/// # Errors
/// As [`super::files::read_text`].
pub fn read_text(path: &Path, what: &str, cap: u64) -> Result<String, String> {
    let p = pin(path, what, cap, true)?;
    match std::str::from_utf8(&p.bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let line = 1 + p.bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            Err(format!(
                "{what} {}: line {line} is not UTF-8 text",
                path.display()
            ))
        }
    }
}

/// The stamp of `path`: its pinned content's when pinned, else read (and pinned) now.
///
/// # Errors
/// As [`read_bytes`].
pub fn stamp(path: &Path, what: &str, cap: u64) -> Result<FileStamp, String> {
    read_bytes(path, what, cap).map(|p| p.stamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_file_keeps_its_first_content() {
        let dir = std::env::temp_dir().join(format!("tessera-pinned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("w.txt");
        std::fs::write(&f, "first\n").unwrap();
        let a = read_text(&f, "test file", 1 << 20).unwrap();
        let stamp_a = stamp(&f, "test file", 1 << 20).unwrap();
        std::fs::write(&f, "second, longer\n").unwrap();
        assert_eq!(read_text(&f, "test file", 1 << 20).unwrap(), a);
        std::fs::remove_file(&f).unwrap();
        assert_eq!(read_text(&f, "test file", 1 << 20).unwrap(), "first\n");
        assert_eq!(stamp(&f, "test file", 1 << 20).unwrap(), stamp_a);
        assert_eq!(stamp_a.size, 6);
        assert!(stamp_a.hash.starts_with("fnv1a64:") && stamp_a.hash.len() == 24);
        // The published FNV-1a 64 test vectors (Fowler, Noll, Vo: the offset basis for
        // the empty input).
        assert_eq!(content_hash(b"a"), "fnv1a64:af63dc4c8601ec8c");
        assert_eq!(content_hash(b"foobar"), "fnv1a64:85944171f73967e8");
        assert_eq!(content_hash(b""), "fnv1a64:cbf29ce484222325");
        // The cap holds for a pinned file too.
        let e = read_text(&f, "test file", 3).unwrap_err();
        assert!(e.contains("6 bytes") && e.contains("3 bytes"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
