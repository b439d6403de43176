//! Reading input files with a size cap: every file or stream tessera reads whole (weights,
//! openings, GGF and OBF files, self-play data, books, presets, settings) is read through
//! [`read_bytes`] or [`read_text`], so a device (`/dev/zero`), an endless pipe or a file far
//! larger than any real one is refused with its name and the cap instead of filling memory.
//!
//! A regular file larger than the cap is refused before reading; a device is refused for
//! binary files; anything else (a pipe, `/dev/stdin`, a terminal or device for text) is read
//! up to the cap, and text stops at the first line longer than [`MAX_LINE`] (every text
//! format tessera reads is line-based with short lines).

use std::io::Read;
use std::path::Path;

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

/// Reads `path` whole, at most `cap` bytes; `what` names the file in errors
/// (`"weights file"`). With `max_line`, a line longer than that many bytes stops the read.
fn read_capped(
    path: &Path,
    what: &str,
    cap: u64,
    max_line: Option<u64>,
) -> Result<Vec<u8>, String> {
    let fail = |e: std::io::Error| format!("cannot read {what} {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    if meta.is_dir() {
        return Err(format!("{what} {} is a directory", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if max_line.is_none() && (t.is_char_device() || t.is_block_device()) {
            return Err(format!(
                "{what} {} is a device, not a file (tessera reads at most {} of it)",
                path.display(),
                size_text(cap)
            ));
        }
    }
    if meta.is_file() && meta.len() > cap {
        return Err(format!(
            "{what} {} is {} bytes, more than {}, the most tessera reads for it",
            path.display(),
            meta.len(),
            size_text(cap)
        ));
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
            return Err(format!(
                "{what} {}: more than {}, the most tessera reads for it (a device or an \
                 endless stream?)",
                path.display(),
                size_text(cap)
            ));
        }
        if let Some(max) = max_line {
            for &b in &buf[..n] {
                if b == b'\n' {
                    line += 1;
                    line_len = 0;
                } else {
                    line_len += 1;
                    if line_len > max {
                        return Err(format!(
                            "{what} {}: line {line} is longer than {}, the longest line \
                             tessera reads",
                            path.display(),
                            size_text(max)
                        ));
                    }
                }
            }
        }
        out.extend_from_slice(&buf[..n]);
    }
    Ok(out)
}

/// Reads a binary file whole, at most `cap` bytes.
///
/// # Errors
/// An unreadable file, a directory, or more than `cap` bytes, naming the file and the cap.
pub fn read_bytes(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, String> {
    read_capped(path, what, cap, None)
}

/// Reads a text file whole as bytes (for formats that report bytes that are not UTF-8 per
/// line themselves), at most `cap` bytes, no line longer than [`MAX_LINE`].
///
/// # Errors
/// As [`read_bytes`], or a line longer than [`MAX_LINE`].
pub fn read_line_bytes(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, String> {
    read_capped(path, what, cap, Some(MAX_LINE))
}

/// Reads a UTF-8 text file whole, at most `cap` bytes, no line longer than [`MAX_LINE`].
///
/// # Errors
/// As [`read_bytes`], a line longer than [`MAX_LINE`], or bytes that are not UTF-8 (naming
/// the line).
pub fn read_text(path: &Path, what: &str, cap: u64) -> Result<String, String> {
    let bytes = read_capped(path, what, cap, Some(MAX_LINE))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!("{what} {}: line {line} is not UTF-8 text", path.display())
    })
}

/// As [`read_text`], `None` when the file does not exist.
///
/// # Errors
/// As [`read_text`].
pub fn read_text_if_exists(path: &Path, what: &str, cap: u64) -> Result<Option<String>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_text(path, what, cap).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_name_the_file_and_the_size() {
        let dir = std::env::temp_dir().join(format!("tessera-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "one\ntwo\n").unwrap();
        assert_eq!(read_text(&f, "test file", 8).unwrap(), "one\ntwo\n");
        let e = read_text(&f, "test file", 7).unwrap_err();
        assert!(e.contains("a.txt") && e.contains("7 bytes"), "{e}");
        std::fs::write(&f, b"ok\n\xff\n").unwrap();
        let e = read_text(&f, "test file", MIB).unwrap_err();
        assert!(e.contains("line 2") && e.contains("UTF-8"), "{e}");
        assert!(
            read_text(&dir, "test file", MIB)
                .unwrap_err()
                .contains("directory")
        );
        // A device: stopped at the first long line (text) or at the cap (bytes), at once.
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            let e = read_text(zero, "test file", 1 << 30).unwrap_err();
            assert!(e.contains("/dev/zero") && e.contains("1 MiB"), "{e}");
            let e = read_bytes(zero, "test file", 4 * MIB).unwrap_err();
            assert!(e.contains("/dev/zero") && e.contains("device"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
