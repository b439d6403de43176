//! Reading input files with a size cap: every file or stream tessera reads whole (weights,
//! openings, GGF and OBF files, self-play data, books, presets, settings) is read through
//! [`read_bytes`] or [`read_text`], so a device (`/dev/zero`), an endless pipe or a file far
//! larger than any real one is refused with its name and the cap instead of filling memory.
//!
//! A regular file larger than the cap is refused before reading; a device is refused for
//! binary files; anything else (a pipe, `/dev/stdin`, a terminal or device for text) is read
//! up to the cap, and text stops at the first line longer than [`MAX_LINE`] (every text
//! format tessera reads is line-based with short lines).

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One mebibyte, in bytes.
pub const MIB: u64 = 1 << 20;

/// The longest line of a text file read whole: 1 MiB (a GGF game line is a few KB).
pub const MAX_LINE: u64 = MIB;

/// `n` bytes for people: `256 MiB`, `1 GiB`.
#[must_use]
pub fn size_text(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Why a file could not be read whole. Each variant names the file (`what`, e.g. `"weights
/// file"`, and its path); `Display` is the one-line message the command line prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileError {
    /// The file does not exist. Example: `cannot read weights file w.bin: No such file or
    /// directory (os error 2)`.
    Missing {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The system's message.
        detail: String,
    },
    /// Any other failure to open or read it (permissions, an I/O error), with its kind.
    /// Example: `cannot read weights file w.bin: Permission denied (os error 13)`.
    Io {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The kind of the I/O error.
        kind: std::io::ErrorKind,
        /// The system's message.
        detail: String,
    },
    /// The path is a folder. Example: `weights file data is a directory`.
    Directory {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
    },
    /// A character or block device given for a binary file. Example: `weights file
    /// /dev/zero is a device, not a file (tessera reads at most 4 MiB of it)`.
    Device {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The most tessera reads of this file, in bytes.
        cap: u64,
    },
    /// A regular file larger than the cap, refused before reading. Example: `weights file
    /// w.bin is 9000000 bytes, more than 4 MiB, the most tessera reads for it`.
    TooLarge {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The file's size, in bytes.
        len: u64,
        /// The most tessera reads of this file, in bytes.
        cap: u64,
    },
    /// A stream (pipe, device read as text) that went on past the cap. Example: `openings
    /// file /dev/stdin: more than 1 MiB, the most tessera reads for it (a device or an
    /// endless stream?)`.
    OverCap {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The most tessera reads of this file, in bytes.
        cap: u64,
    },
    /// A line of a text file longer than the longest line tessera reads. Example: `games
    /// file /dev/zero: line 1 is longer than 1 MiB, the longest line tessera reads`.
    LongLine {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The line, counted from 1.
        line: u64,
        /// The longest line read, in bytes.
        max: u64,
    },
    /// Text that is not UTF-8. Example: `games file g.txt: line 2 is not UTF-8 text`.
    NotUtf8 {
        /// What the file is, for the message.
        what: String,
        /// The path as given.
        path: PathBuf,
        /// The first line with a byte that is not UTF-8, counted from 1.
        line: u64,
    },
}

impl FileError {
    fn io(what: &str, path: &Path, e: &std::io::Error) -> Self {
        let (what, path, detail) = (what.to_string(), path.to_path_buf(), e.to_string());
        match e.kind() {
            std::io::ErrorKind::NotFound => Self::Missing { what, path, detail },
            kind => Self::Io {
                what,
                path,
                kind,
                detail,
            },
        }
    }

    /// The path of the file the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::Missing { path, .. }
            | Self::Io { path, .. }
            | Self::Directory { path, .. }
            | Self::Device { path, .. }
            | Self::TooLarge { path, .. }
            | Self::OverCap { path, .. }
            | Self::LongLine { path, .. }
            | Self::NotUtf8 { path, .. } => path,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { what, path, detail }
            | Self::Io {
                what, path, detail, ..
            } => {
                write!(f, "cannot read {what} {}: {detail}", path.display())
            }
            Self::Directory { what, path } => write!(f, "{what} {} is a directory", path.display()),
            Self::Device { what, path, cap } => write!(
                f,
                "{what} {} is a device, not a file (tessera reads at most {} of it)",
                path.display(),
                size_text(*cap)
            ),
            Self::TooLarge {
                what,
                path,
                len,
                cap,
            } => write!(
                f,
                "{what} {} is {len} bytes, more than {}, the most tessera reads for it",
                path.display(),
                size_text(*cap)
            ),
            Self::OverCap { what, path, cap } => write!(
                f,
                "{what} {}: more than {}, the most tessera reads for it (a device or an \
                 endless stream?)",
                path.display(),
                size_text(*cap)
            ),
            Self::LongLine {
                what,
                path,
                line,
                max,
            } => write!(
                f,
                "{what} {}: line {line} is longer than {}, the longest line tessera reads",
                path.display(),
                size_text(*max)
            ),
            Self::NotUtf8 { what, path, line } => {
                write!(
                    f,
                    "{what} {}: line {line} is not UTF-8 text",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for FileError {}

impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

/// Reads `path` whole, at most `cap` bytes; `what` names the file in errors
/// (`"weights file"`). With `max_line`, a line longer than that many bytes stops the read.
fn read_capped(
    path: &Path,
    what: &str,
    cap: u64,
    max_line: Option<u64>,
) -> Result<Vec<u8>, FileError> {
    let fail = |e: std::io::Error| FileError::io(what, path, &e);
    let named = || (what.to_string(), path.to_path_buf());
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    if meta.is_dir() {
        let (what, path) = named();
        return Err(FileError::Directory { what, path });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if max_line.is_none() && (t.is_char_device() || t.is_block_device()) {
            let (what, path) = named();
            return Err(FileError::Device { what, path, cap });
        }
    }
    if meta.is_file() && meta.len() > cap {
        let (what, path) = named();
        return Err(FileError::TooLarge {
            what,
            path,
            len: meta.len(),
            cap,
        });
    }
    let mut out = Vec::with_capacity(if meta.is_file() {
        usize::try_from(meta.len()).unwrap_or(0)
    } else {
        0
    });
    let mut buf = vec![0u8; 64 << 10];
    let mut line_len = 0u64;
    let mut line = 1u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(e)),
        };
        if out.len() as u64 + n as u64 > cap {
            let (what, path) = named();
            return Err(FileError::OverCap { what, path, cap });
        }
        if let Some(max) = max_line {
            for &b in &buf[..n] {
                if b == b'\n' {
                    line += 1;
                    line_len = 0;
                } else {
                    line_len += 1;
                    if line_len > max {
                        let (what, path) = named();
                        return Err(FileError::LongLine {
                            what,
                            path,
                            line,
                            max,
                        });
                    }
                }
            }
        }
        out.extend_from_slice(&buf[..n]);
    }
    Ok(out)
}

/// Checks that `path` can be written before any work that ends by writing it: opens it for
/// appending, creating it if missing, and removes it again if it was created here, so an
/// existing file is left as it was and no empty file is left behind.
///
/// # Errors
/// The open's error: a missing folder, no permission, a read-only file system, a folder.
pub fn probe_writable(path: &Path) -> std::io::Result<()> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    if !existed {
        std::fs::remove_file(path).ok();
    }
    Ok(())
}

/// Reads a binary file whole, at most `cap` bytes.
///
/// # Errors
/// A [`FileError`]: a missing or unreadable file, a directory, a device, or more than `cap`
/// bytes, naming the file and the cap.
pub fn read_bytes(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, FileError> {
    read_capped(path, what, cap, None)
}

/// Reads a text file whole as bytes (for formats that report bytes that are not UTF-8 per
/// line themselves), at most `cap` bytes, no line longer than [`MAX_LINE`].
///
/// # Errors
/// As [`read_bytes`] (a device is read up to the cap), or [`FileError::LongLine`].
pub fn read_line_bytes(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, FileError> {
    read_capped(path, what, cap, Some(MAX_LINE))
}

/// Reads a UTF-8 text file whole, at most `cap` bytes, no line longer than [`MAX_LINE`].
///
/// # Errors
/// As [`read_line_bytes`], or [`FileError::NotUtf8`] naming the line.
pub fn read_text(path: &Path, what: &str, cap: u64) -> Result<String, FileError> {
    let bytes = read_capped(path, what, cap, Some(MAX_LINE))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u64;
        FileError::NotUtf8 {
            what: what.to_string(),
            path: path.to_path_buf(),
            line,
        }
    })
}

/// As [`read_text`], `None` when the file does not exist.
///
/// # Errors
/// As [`read_text`].
pub fn read_text_if_exists(path: &Path, what: &str, cap: u64) -> Result<Option<String>, FileError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_text(path, what, cap).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_probe_leaves_files_as_they_were() {
        let dir = std::env::temp_dir().join(format!("tessera-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A new file: writable, and not left behind.
        let new = dir.join("new.txt");
        probe_writable(&new).unwrap();
        assert!(!new.exists());
        // An existing file: writable, its bytes kept.
        let old = dir.join("old.txt");
        std::fs::write(&old, b"kept").unwrap();
        probe_writable(&old).unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"kept");
        // A missing folder and a folder: errors.
        assert!(probe_writable(&dir.join("missing").join("x.txt")).is_err());
        assert!(probe_writable(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_kind_names_the_file_and_the_size() {
        let dir = std::env::temp_dir().join(format!("tessera-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        let shown = f.display().to_string();
        std::fs::write(&f, "one\ntwo\n").unwrap();
        assert_eq!(read_text(&f, "test file", 8).unwrap(), "one\ntwo\n");
        let e = read_text(&f, "test file", 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "test file {shown} is 8 bytes, more than 7 bytes, the most tessera reads for it"
            )
        );
        assert!(matches!(e, FileError::TooLarge { len: 8, cap: 7, .. }));
        std::fs::write(&f, b"ok\n\xff\n").unwrap();
        let e = read_text(&f, "test file", MIB).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("test file {shown}: line 2 is not UTF-8 text")
        );
        assert!(matches!(e, FileError::NotUtf8 { line: 2, .. }));
        // Bytes are bytes: the same file reads whole.
        assert_eq!(
            read_line_bytes(&f, "test file", MIB).unwrap(),
            b"ok\n\xff\n"
        );
        let e = read_text(&dir, "test file", MIB).unwrap_err();
        assert_eq!(
            e,
            FileError::Directory {
                what: "test file".into(),
                path: dir.clone()
            }
        );
        assert_eq!(
            e.to_string(),
            format!("test file {} is a directory", dir.display())
        );
        let gone = dir.join("gone.txt");
        let e = read_bytes(&gone, "test file", MIB).unwrap_err();
        assert!(matches!(e, FileError::Missing { .. }), "{e:?}");
        assert_eq!(e.path(), gone);
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read test file {}: ", gone.display())),
            "{e}"
        );
        assert_eq!(read_text_if_exists(&gone, "test file", MIB).unwrap(), None);
        // Any other I/O failure keeps its kind: a path through a file.
        let e = read_bytes(&f.join("x"), "test file", MIB).unwrap_err();
        assert!(
            matches!(
                e,
                FileError::Io {
                    kind: std::io::ErrorKind::NotADirectory,
                    ..
                }
            ),
            "{e:?}"
        );
        // A device: stopped at the first long line (text) or refused (bytes), at once.
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            let e = read_text(zero, "test file", 1 << 30).unwrap_err();
            assert_eq!(
                e,
                FileError::LongLine {
                    what: "test file".into(),
                    path: zero.into(),
                    line: 1,
                    max: MIB
                }
            );
            assert_eq!(
                e.to_string(),
                "test file /dev/zero: line 1 is longer than 1 MiB, the longest line tessera reads"
            );
            let e = read_bytes(zero, "test file", 4 * MIB).unwrap_err();
            assert_eq!(
                e.to_string(),
                "test file /dev/zero is a device, not a file (tessera reads at most 4 MiB of it)"
            );
            assert!(matches!(e, FileError::Device { cap, .. } if cap == 4 * MIB));
            // Read as text with short lines allowed to run on: the cap stops the stream.
            let e = read_capped(zero, "test file", MIB, Some(u64::MAX)).unwrap_err();
            assert_eq!(
                e.to_string(),
                "test file /dev/zero: more than 1 MiB, the most tessera reads for it (a device \
                 or an endless stream?)"
            );
            assert!(matches!(e, FileError::OverCap { .. }));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
