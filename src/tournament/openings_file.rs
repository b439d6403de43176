//! An openings file indexed, not held in memory: a tournament's settings record the file's
//! path, size, content hash and number of openings ([`OpeningsFile`]), never its lines, and
//! a game looks its opening up by number in the file.
//!
//! The index ([`LineIndex`]) keeps, for every [`BLOCK`] openings, the byte offset of the
//! block's first opening line and a hash of the block's bytes: 16 bytes per block, so a
//! 200 MB file of 9.5 million lines indexes in about 1.2 MB. Looking an opening up reads its
//! block (a few KB) from the file, opened once when the index was built, and checks the
//! block's hash, so a file overwritten during a run is noticed instead of giving other
//! openings. A file deleted during a run changes nothing (the open file is read).
//!
//! Lines are counted as [`super::openings::read_file`] reads them: blank lines and `#`
//! comments are skipped, and openings are trimmed.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::game::files::{MAX_LINE, size_text};
use crate::game::pinned::{FileStamp, FnvHasher};

/// Openings per index entry.
pub const BLOCK: usize = 128;

/// An openings file as a tournament's settings record it. Two are equal when their
/// content is (size, hash, number of openings), wherever the file was read from: a resume or
/// a shard on another machine may name the same file by another path.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpeningsFile {
    /// The path as `--openings` gave it.
    pub path: String,
    /// Size, bytes.
    pub size: u64,
    /// Content hash ([`crate::game::pinned::content_hash`] of the whole file).
    pub hash: String,
    /// Number of openings (lines that are neither blank nor `#` comments).
    pub openings: usize,
}

impl PartialEq for OpeningsFile {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.hash == other.hash && self.openings == other.openings
    }
}

impl Eq for OpeningsFile {}

impl OpeningsFile {
    /// The file's stamp (path, size, hash), as the other files a tournament depends on.
    #[must_use]
    pub fn stamp(&self) -> FileStamp {
        FileStamp {
            path: self.path.clone(),
            size: self.size,
            hash: self.hash.clone(),
        }
    }
}

/// One index entry: where a block of [`BLOCK`] openings starts, and the hash of its bytes
/// (up to the next block's start, or the end of the file).
#[derive(Clone, Copy, Debug)]
struct Block {
    offset: u64,
    hash: u64,
}

/// An indexed openings file (see the module documentation).
#[derive(Debug)]
pub struct LineIndex {
    /// What the settings record.
    pub file: OpeningsFile,
    /// The file, open since the index was built.
    handle: Mutex<std::fs::File>,
    blocks: Vec<Block>,
}

/// An opening line: neither blank nor a `#` comment.
fn is_opening(line: &str) -> bool {
    !line.is_empty() && !line.starts_with('#')
}

/// Reads one line (with its `\n`) into `buf`, at most [`MAX_LINE`] bytes before the
/// newline; returns the bytes read (0 at the end).
fn next_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    buf.clear();
    reader.take(MAX_LINE + 2).read_until(b'\n', buf)
}

impl LineIndex {
    /// Builds the index of `path` in one pass, calling `each(line_number, trimmed_line)` on
    /// every line (comments too; openings are the lines that are neither blank nor a `#`
    /// comment). `cap` is the largest file read.
    ///
    /// # Errors
    /// A missing or unreadable file, one that is not a regular file (a device or a pipe
    /// cannot be read again by offset), larger than `cap`, a line longer than
    /// [`MAX_LINE`] or not UTF-8 (naming the line), or the first error of `each`.
    pub fn build(
        path: &Path,
        cap: u64,
        mut each: impl FnMut(usize, &str) -> Result<(), String>,
    ) -> Result<Self, String> {
        let what = "openings file";
        let fail = |e: std::io::Error| format!("cannot read {what} {}: {e}", path.display());
        let file = std::fs::File::open(path).map_err(fail)?;
        let meta = file.metadata().map_err(fail)?;
        if meta.is_dir() {
            return Err(format!("{what} {} is a directory", path.display()));
        }
        if !meta.is_file() {
            return Err(format!(
                "{what} {} is not a regular file (a device or a pipe): tessera reads \
                 openings by their place in the file",
                path.display()
            ));
        }
        if meta.len() > cap {
            return Err(format!(
                "{what} {} is {} bytes, more than {}, the most tessera reads for it",
                path.display(),
                meta.len(),
                size_text(cap)
            ));
        }
        let mut reader = BufReader::with_capacity(64 << 10, file.try_clone().map_err(fail)?);
        let mut whole = FnvHasher::default();
        let mut blocks: Vec<Block> = Vec::new();
        let mut block_hash = FnvHasher::default();
        let (mut offset, mut openings, mut number) = (0u64, 0usize, 0usize);
        let mut buf = Vec::new();
        loop {
            let n = next_line(&mut reader, &mut buf).map_err(fail)?;
            if n == 0 {
                break;
            }
            number += 1;
            if offset + n as u64 > cap {
                return Err(format!(
                    "{what} {}: more than {}, the most tessera reads for it",
                    path.display(),
                    size_text(cap)
                ));
            }
            let body = buf.strip_suffix(b"\n").unwrap_or(&buf);
            if body.len() as u64 > MAX_LINE {
                return Err(format!(
                    "{what} {}: line {number} is longer than {}, the longest line tessera reads",
                    path.display(),
                    size_text(MAX_LINE)
                ));
            }
            let text = std::str::from_utf8(body).map_err(|_| {
                format!("{what} {}: line {number} is not UTF-8 text", path.display())
            })?;
            let line = text.trim();
            if is_opening(line) {
                if openings.is_multiple_of(BLOCK) {
                    if let Some(last) = blocks.last_mut() {
                        last.hash = block_hash.value();
                    }
                    blocks.push(Block { offset, hash: 0 });
                    block_hash = FnvHasher::default();
                }
                openings += 1;
            }
            each(number, line)?;
            whole.write(&buf);
            if !blocks.is_empty() {
                block_hash.write(&buf);
            }
            offset += n as u64;
        }
        if let Some(last) = blocks.last_mut() {
            last.hash = block_hash.value();
        }
        Ok(Self {
            file: OpeningsFile {
                path: path.display().to_string(),
                size: offset,
                hash: whole.finish(),
                openings,
            },
            handle: Mutex::new(file),
            blocks,
        })
    }

    /// Opening number `i` (0-based, `< file.openings`), trimmed.
    ///
    /// # Errors
    /// `i` out of range, a read error, or a block whose bytes changed since the index was
    /// built (the file was overwritten).
    pub fn line(&self, i: usize) -> Result<String, String> {
        let path = &self.file.path;
        let b = i / BLOCK;
        let block = self
            .blocks
            .get(b)
            .filter(|_| i < self.file.openings)
            .ok_or_else(|| {
                format!(
                    "openings file {path} holds {} openings, not {}",
                    self.file.openings,
                    i + 1
                )
            })?;
        let end = self.blocks.get(b + 1).map_or(self.file.size, |n| n.offset);
        let changed = || {
            format!(
                "openings file {path} changed while tessera was reading it (its bytes \
                 differ from when the run started); restore it"
            )
        };
        let fail = |e: std::io::Error| format!("cannot read openings file {path}: {e}");
        let mut file = self.handle.lock().unwrap_or_else(|p| p.into_inner());
        file.seek(SeekFrom::Start(block.offset)).map_err(fail)?;
        let mut reader = BufReader::new((&mut *file).take(end - block.offset));
        let (mut hash, mut k, mut found) = (FnvHasher::default(), b * BLOCK, None);
        let mut buf = Vec::new();
        let mut read = 0u64;
        loop {
            let n = next_line(&mut reader, &mut buf).map_err(fail)?;
            if n == 0 {
                break;
            }
            read += n as u64;
            hash.write(&buf);
            let line = std::str::from_utf8(&buf).map_err(|_| changed())?.trim();
            if is_opening(line) {
                if k == i {
                    found = Some(line.to_string());
                }
                k += 1;
            }
        }
        if read != end - block.offset || hash.value() != block.hash {
            return Err(changed());
        }
        found.ok_or_else(changed)
    }
}

/// The indexes built by this process, so each file is read once per run.
static INDEXES: Mutex<Vec<(PathBuf, Arc<LineIndex>)>> = Mutex::new(Vec::new());

/// Remembers `index` for [`index`].
pub fn keep(index: LineIndex) -> Arc<LineIndex> {
    let index = Arc::new(index);
    let key =
        std::fs::canonicalize(&index.file.path).unwrap_or_else(|_| PathBuf::from(&index.file.path));
    let mut all = INDEXES.lock().unwrap_or_else(|p| p.into_inner());
    all.retain(|(k, i)| !(k == &key && i.file.hash == index.file.hash));
    all.push((key, Arc::clone(&index)));
    index
}

/// The index of the openings file `file` records: one built earlier by this process for the
/// same path and content, else built now (reading the file once).
///
/// # Errors
/// As [`LineIndex::build`], or a file whose content is not the one `file` records (naming
/// the file and both hashes).
pub fn index(file: &OpeningsFile, cap: u64) -> Result<Arc<LineIndex>, String> {
    let key = std::fs::canonicalize(&file.path).unwrap_or_else(|_| PathBuf::from(&file.path));
    {
        let all = INDEXES.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, i)) = all
            .iter()
            .find(|(k, i)| (k == &key || i.file.path == file.path) && i.file.hash == file.hash)
        {
            return Ok(Arc::clone(i));
        }
    }
    let built = LineIndex::build(Path::new(&file.path), cap, |_, _| Ok(()))?;
    if built.file.hash != file.hash || built.file.openings != file.openings {
        return Err(format!(
            "openings file {} changed since the tournament was started ({} then, {} now)",
            file.path, file.hash, built.file.hash
        ));
    }
    Ok(keep(built))
}

/// The first `k` entries of a permutation of `0..n` drawn from `rng` by Fisher-Yates from
/// the front: entry `i` does not depend on `k`, so a run with more rounds extends the order
/// of a run with fewer. Memory grows with `k`, not `n`.
pub fn shuffled_prefix(n: usize, k: usize, rng: &mut rand::rngs::StdRng) -> Vec<usize> {
    use rand::RngExt;
    let k = k.min(n);
    let mut moved: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(k);
    for i in 0..k {
        let j = rng.random_range(i..n);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        let at_i = moved.get(&i).copied().unwrap_or(i);
        moved.insert(j, at_i);
        out.push(at_j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn lines_are_found_by_number_and_an_overwrite_is_noticed() {
        let dir = std::env::temp_dir().join(format!("tessera-openings-idx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.txt");
        let mut text = String::from("# game: othello\n\n");
        for i in 0..300 {
            text.push_str(&format!("  line {i}  \n"));
            if i % 7 == 0 {
                text.push_str("# a comment\n\n");
            }
        }
        std::fs::write(&f, &text).unwrap();
        let mut seen = 0;
        let idx = LineIndex::build(&f, 1 << 20, |_, l| {
            seen += usize::from(is_opening(l));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, 300);
        assert_eq!(idx.file.openings, 300);
        assert_eq!(idx.file.size, text.len() as u64);
        assert_eq!(
            idx.file.hash,
            crate::game::pinned::content_hash(text.as_bytes())
        );
        for i in [0, 1, 127, 128, 129, 255, 256, 299] {
            assert_eq!(idx.line(i).unwrap(), format!("line {i}"));
        }
        assert!(idx.line(300).unwrap_err().contains("holds 300 openings"));
        // Overwritten in place with other bytes of the same length: noticed.
        std::fs::write(&f, text.replace("line 200", "line 201")).unwrap();
        assert!(idx.line(200).unwrap_err().contains("changed"), "block 1");
        assert_eq!(idx.line(5).unwrap(), "line 5", "block 0 is unchanged");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_shuffled_prefix_is_a_permutation_and_extends() {
        let draw = |k| shuffled_prefix(50, k, &mut rand::rngs::StdRng::seed_from_u64(7));
        let all = draw(50);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(draw(10), all[..10]);
        assert_eq!(draw(80), all);
        assert_ne!(all, (0..50).collect::<Vec<_>>());
    }
}
