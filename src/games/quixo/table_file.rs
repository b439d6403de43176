//! The 5x5 full-board table ([`FullBoardTable`]) as a file, so it is built once and then
//! loaded (a fraction of a second) instead of re-solved (a few seconds, about 60 MB at peak) on every
//! `solve quixo`.
//!
//! Layout (little-endian): 16-byte magic [`MAGIC`], `u32` format version
//! [`FORMAT_VERSION`], `u64` number of codes (`2^25`), `u64` FNV-1a-64 checksum of the
//! codes, then the `2^25` one-byte codes indexed by the side to move's mask (see
//! [`super::retro::Code`]). A file is trusted only if all of these match and every code is
//! well formed and agrees with the rules on the boards that already have a line; anything
//! else is an error naming what was wrong, and the caller rebuilds the table.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use super::geometry::geometry_of;
use super::retro::{Code, DRAW, FullBoardTable};

/// First bytes of a table file.
pub const MAGIC: [u8; 16] = *b"tessera-qx5full\n";
/// Bumped whenever the codes' meaning or the solver's results change, so older files are
/// rebuilt rather than trusted.
pub const FORMAT_VERSION: u32 = 1;
/// Codes in a table: one per full 5x5 board.
pub const ENTRIES: u64 = 1 << 25;
const HEADER: usize = 16 + 4 + 8 + 8;

/// Why a table file was not accepted.
#[derive(Debug)]
pub enum TableFileError {
    /// Reading or writing failed (including a missing file).
    Io(io::Error),
    /// The file does not start with [`MAGIC`]: not a tessera table.
    Foreign,
    /// Written by another format version.
    Version(u32),
    /// Wrong number of codes or a truncated / overlong file.
    Length {
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The codes do not match the stored checksum.
    Checksum,
    /// A code that cannot be right (malformed, or contradicting the rules on a board that
    /// already has a line), at this board index.
    BadCode(u32),
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "{e}"),
            Self::Foreign => f.write_str("not a tessera Quixo full-board table (bad magic)"),
            Self::Version(v) => write!(
                f,
                "table format version {v}, this program writes version {FORMAT_VERSION}"
            ),
            Self::Length { expected, found } => {
                write!(f, "wrong length: {found} bytes, expected {expected}")
            }
            Self::Checksum => f.write_str("checksum mismatch (corrupt table)"),
            Self::BadCode(i) => write!(f, "impossible code at board {i:#x} (corrupt table)"),
        }
    }
}

impl std::error::Error for TableFileError {}

impl From<io::Error> for TableFileError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl TableFileError {
    /// Whether the file simply does not exist (build it, no warning needed).
    #[must_use]
    pub fn is_missing(&self) -> bool {
        matches!(self, Self::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// FNV-1a, 64 bits (Fowler-Noll-Vo; offset basis and prime from the reference).
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Writes `table` in the file layout above.
///
/// # Errors
/// Any write error.
pub fn write_table(table: &FullBoardTable, w: &mut impl Write) -> io::Result<()> {
    let codes = table.codes();
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    head.extend_from_slice(&fnv1a64(codes).to_le_bytes());
    w.write_all(&head)?;
    w.write_all(codes)?;
    w.flush()
}

/// Reads and checks a table written by [`write_table`].
///
/// # Errors
/// [`TableFileError`] naming the first thing found wrong.
pub fn read_table(r: &mut impl Read) -> Result<FullBoardTable, TableFileError> {
    let mut bytes = Vec::with_capacity(HEADER + ENTRIES as usize);
    // One byte more than a valid file, to detect an overlong one without reading it all.
    r.take(HEADER as u64 + ENTRIES + 1)
        .read_to_end(&mut bytes)?;
    let expected = HEADER as u64 + ENTRIES;
    if bytes.len() < 16 || bytes[..16] != MAGIC {
        return Err(TableFileError::Foreign);
    }
    if bytes.len() < HEADER {
        return Err(TableFileError::Length {
            expected,
            found: bytes.len() as u64,
        });
    }
    let word = |at: usize, n: usize| -> u64 {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(b)
    };
    let version = word(16, 4) as u32;
    if version != FORMAT_VERSION {
        return Err(TableFileError::Version(version));
    }
    if word(20, 8) != ENTRIES || bytes.len() as u64 != expected {
        return Err(TableFileError::Length {
            expected,
            found: bytes.len() as u64,
        });
    }
    let sum = word(28, 8);
    let codes = bytes.split_off(HEADER);
    if fnv1a64(&codes) != sum {
        return Err(TableFileError::Checksum);
    }
    check_codes(&codes)?;
    Ok(FullBoardTable::from_codes(codes))
}

/// Rejects codes no solve can produce: distances beyond the solver's range, the reserved
/// "unknown" code, and boards with a line whose code is not the rules' immediate result
/// (the side to move's line: won in 0; else the other side's: lost in 0).
fn check_codes(codes: &[Code]) -> Result<(), TableFileError> {
    let g = geometry_of(5);
    for (i, &c) in codes.iter().enumerate() {
        let me = i as u32;
        let opp = g.full & !me;
        let ok = if g.has_line(me) {
            c == 1
        } else if g.has_line(opp) {
            c == 0
        } else {
            c == DRAW || (2..=253).contains(&c)
        };
        if !ok {
            return Err(TableFileError::BadCode(me));
        }
    }
    Ok(())
}

/// Loads a table file.
///
/// # Errors
/// As [`read_table`]; [`TableFileError::is_missing`] when there is no such file.
pub fn load_table(path: &Path) -> Result<FullBoardTable, TableFileError> {
    let mut f = io::BufReader::new(std::fs::File::open(path)?);
    read_table(&mut f)
}

/// Saves `table` to `path` atomically: written to a temporary file in the same folder
/// (created if needed) and renamed, so a reader never sees half a table. A symbolic link
/// is followed: its target is replaced and the link stays.
///
/// # Errors
/// The folder cannot be created or written; a dangling symbolic link.
pub fn save_table(table: &FullBoardTable, path: &Path) -> io::Result<()> {
    // A symbolic link is followed: the table replaces the file it points to and the link
    // stays (renaming over the link itself would leave its target stale).
    let resolved;
    let path = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        resolved = std::fs::canonicalize(path)?;
        resolved.as_path()
    } else {
        path
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    let result = (|| {
        let mut w = io::BufWriter::new(std::fs::File::create(&tmp)?);
        write_table(table, &mut w)?;
        w.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_reference_values() {
        // Published FNV-1a 64 test vectors (Fowler/Noll/Vo reference test suite).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
