//! Tier tables and their chunks as files: the one-blank tier's codes (a finished table, one
//! value-iteration round, or one chunk of a round), checked on read, written through a
//! temporary file and a rename, and merged chunk by chunk with every chunk checked.
//!
//! Layout (little-endian): 16-byte magic [`MAGIC`], `u32` format version [`VERSION`], `u8`
//! board side, `u8` blanks (1), `u16` 0, `u32` round ([`FINAL`] for a finished table),
//! `u64` tier size (canonical boards), `u64` first index, `u64` number of codes, `u64`
//! FNV-1a-64 checksum of the codes, then the one-byte codes ([`super::retro::Code`]; the
//! code 254 marks a board a round has not resolved yet, never in a finished table).

use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::retro::{Code, UNKNOWN};
use super::table_file::fnv1a64;

/// First bytes of a tier file.
pub const MAGIC: [u8; 16] = *b"tessera-qx-tier\n";
/// Format version.
pub const VERSION: u32 = 1;
/// The round of a finished table.
pub const FINAL: u32 = u32::MAX;
const HEADER: usize = 16 + 4 + 4 + 4 + 8 * 4;

/// The header and codes of one tier file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierPart {
    /// Board side (4 or 5).
    pub size: u8,
    /// Blank cubes of the tier's boards.
    pub blanks: u8,
    /// Value-iteration round, or [`FINAL`].
    pub round: u32,
    /// Canonical boards in the whole tier.
    pub total: u64,
    /// Tier index of the first code.
    pub start: u64,
    /// The codes of boards `start..start + codes.len()`.
    pub codes: Vec<Code>,
}

/// Why a tier file or a merge was refused: one line each.
#[derive(Debug)]
pub enum TierFileError {
    /// Reading or writing failed.
    Io(PathBuf, io::Error),
    /// Not a tier file, a newer version, a short or long file, a checksum or code that
    /// cannot be right: the file and what was wrong.
    Bad(PathBuf, String),
    /// The chunks of a merge do not fit together: what is missing or inconsistent.
    Merge(String),
}

impl fmt::Display for TierFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(p, e) => write!(f, "{}: {e}", p.display()),
            Self::Bad(p, why) => write!(f, "{}: {why}", p.display()),
            Self::Merge(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TierFileError {}

impl TierPart {
    /// Whether this part holds the whole tier.
    #[must_use]
    pub fn is_whole(&self) -> bool {
        self.start == 0 && self.codes.len() as u64 == self.total
    }

    /// The file bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + self.codes.len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&[self.size, self.blanks, 0, 0]);
        b.extend_from_slice(&self.round.to_le_bytes());
        b.extend_from_slice(&self.total.to_le_bytes());
        b.extend_from_slice(&self.start.to_le_bytes());
        b.extend_from_slice(&(self.codes.len() as u64).to_le_bytes());
        b.extend_from_slice(&fnv1a64(&self.codes).to_le_bytes());
        b.extend_from_slice(&self.codes);
        b
    }

    /// Parses and checks file bytes; `Err` names what was wrong.
    ///
    /// # Errors
    /// Bad magic, another version, a header that does not fit its length, a checksum
    /// mismatch, or a code no solve writes (254 in a finished table).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < 16 || bytes[..16] != MAGIC {
            return Err("not a tessera Quixo tier file (bad magic)".into());
        }
        if bytes.len() < HEADER {
            return Err(format!(
                "truncated: {} bytes, the header alone is {HEADER}",
                bytes.len()
            ));
        }
        let word = |at: usize, n: usize| -> u64 {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(&bytes[at..at + n]);
            u64::from_le_bytes(b)
        };
        let version = word(16, 4) as u32;
        if version != VERSION {
            return Err(format!(
                "tier format version {version}, this program reads version {VERSION}"
            ));
        }
        let (size, blanks) = (bytes[20], bytes[21]);
        let round = word(24, 4) as u32;
        let (total, start, count, sum) = (word(28, 8), word(36, 8), word(44, 8), word(52, 8));
        let expected = (HEADER as u64).checked_add(count);
        if expected != Some(bytes.len() as u64) {
            return Err(format!(
                "wrong length: {} bytes, the header announces {} codes ({} bytes)",
                bytes.len(),
                count,
                expected.map_or_else(|| "too many".to_string(), |e| e.to_string())
            ));
        }
        if start.checked_add(count).is_none_or(|end| end > total) {
            return Err(format!(
                "codes {start}..{} lie outside the tier of {total} boards",
                start.saturating_add(count)
            ));
        }
        let codes = bytes[HEADER..].to_vec();
        if fnv1a64(&codes) != sum {
            return Err("checksum mismatch (corrupt tier file)".into());
        }
        if round == FINAL
            && let Some(i) = codes.iter().position(|&c| c == UNKNOWN)
        {
            return Err(format!(
                "unresolved code at board {} of a finished table (corrupt tier file)",
                start + i as u64
            ));
        }
        Ok(Self {
            size,
            blanks,
            round,
            total,
            start,
            codes,
        })
    }
}

/// The largest tier file read, bytes (tier 1 is 52.5 MB; tier 2 would be about 315 MB).
pub const MAX_TIER_FILE: u64 = 1 << 30;

/// Reads and checks a tier file.
///
/// # Errors
/// [`TierFileError::Io`] for a file that cannot be read, [`TierFileError::Bad`] for one
/// that is not a valid tier file.
pub fn read_part(path: &Path) -> Result<TierPart, TierFileError> {
    // Checked by kind and size first: a device (/dev/zero) or a file past the cap is
    // refused, never read into memory; a missing file stays an I/O error.
    let bad = |why: String| TierFileError::Bad(path.to_path_buf(), why);
    let meta = std::fs::metadata(path).map_err(|e| TierFileError::Io(path.to_path_buf(), e))?;
    if !meta.is_file() {
        return Err(bad("not a regular file (a device or a folder)".into()));
    }
    if meta.len() > MAX_TIER_FILE {
        return Err(bad(format!(
            "{} bytes, more than a tier file holds ({MAX_TIER_FILE})",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| TierFileError::Io(path.to_path_buf(), e))?;
    TierPart::from_bytes(&bytes).map_err(|why| TierFileError::Bad(path.to_path_buf(), why))
}

/// Writes a tier file atomically: to `PATH.tmpPID` in the same folder, synced, then
/// renamed over `path` (a reader never sees half a file; a failed write leaves nothing).
///
/// # Errors
/// The folder cannot be written.
pub fn write_part(part: &TierPart, path: &Path) -> Result<(), TierFileError> {
    let err = |e| TierFileError::Io(path.to_path_buf(), e);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&part.to_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

/// The file of chunk `i` of `n` of round `round` in `dir`: `DIR/round-R-chunk-I-of-N.qxt`.
#[must_use]
pub fn chunk_path(dir: &Path, round: u32, i: usize, n: usize) -> PathBuf {
    dir.join(format!("round-{round}-chunk-{i}-of-{n}.qxt"))
}

/// The merged table of round `round` in `dir`: `DIR/round-R.qxt`.
#[must_use]
pub fn round_path(dir: &Path, round: u32) -> PathBuf {
    dir.join(format!("round-{round}.qxt"))
}

/// Joins the `n` chunks of one round (in chunk order) into the round's table, checking that
/// each is there, of the same board size, tier and round, and that they cover the tier
/// exactly once in order.
///
/// # Errors
/// A missing or unreadable chunk, or chunks that do not fit together: one line naming the
/// chunk and what was wrong.
pub fn merge_chunks(dir: &Path, round: u32, n: usize) -> Result<TierPart, TierFileError> {
    if n == 0 {
        return Err(TierFileError::Merge(
            "a merge needs at least one chunk".into(),
        ));
    }
    let mut merged: Option<TierPart> = None;
    for i in 0..n {
        let path = chunk_path(dir, round, i, n);
        if !path.exists() {
            return Err(TierFileError::Merge(format!(
                "chunk {i} of {n} of round {round} is missing ({})",
                path.display()
            )));
        }
        let part = read_part(&path)?;
        let bad = |why: String| TierFileError::Bad(path.clone(), why);
        if part.round != round {
            return Err(bad(format!("holds round {}, not {round}", part.round)));
        }
        match &mut merged {
            None => {
                if part.start != 0 {
                    return Err(bad(format!(
                        "starts at board {}, the first chunk must start at 0",
                        part.start
                    )));
                }
                merged = Some(part);
            }
            Some(m) => {
                if (part.size, part.blanks, part.total) != (m.size, m.blanks, m.total) {
                    return Err(bad(format!(
                        "is of another tier (size {}, {} blank, {} boards; chunk 0: size {}, {} blank, {} boards)",
                        part.size, part.blanks, part.total, m.size, m.blanks, m.total
                    )));
                }
                let end = m.codes.len() as u64;
                if part.start != end {
                    return Err(bad(format!(
                        "starts at board {}, the chunks before end at {end}",
                        part.start
                    )));
                }
                m.codes.extend_from_slice(&part.codes);
            }
        }
    }
    let m = merged.unwrap_or_else(|| unreachable!("n >= 1"));
    if m.codes.len() as u64 != m.total {
        return Err(TierFileError::Merge(format!(
            "the {n} chunks of round {round} cover {} of the tier's {} boards",
            m.codes.len(),
            m.total
        )));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(start: u64, codes: Vec<Code>, total: u64) -> TierPart {
        TierPart {
            size: 4,
            blanks: 1,
            round: 3,
            total,
            start,
            codes,
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_named() {
        let p = part(0, vec![1, 2, 255, 254], 4);
        let b = p.to_bytes();
        assert_eq!(TierPart::from_bytes(&b), Ok(p.clone()));
        let mut bad = b.clone();
        bad[HEADER + 1] ^= 1;
        assert_eq!(
            TierPart::from_bytes(&bad).unwrap_err(),
            "checksum mismatch (corrupt tier file)"
        );
        assert!(
            TierPart::from_bytes(&b[..b.len() - 1])
                .unwrap_err()
                .starts_with("wrong length")
        );
        assert!(
            TierPart::from_bytes(&b[..20])
                .unwrap_err()
                .starts_with("truncated")
        );
        assert!(
            TierPart::from_bytes(b"hello")
                .unwrap_err()
                .contains("bad magic")
        );
        let fin = TierPart { round: FINAL, ..p };
        assert!(
            TierPart::from_bytes(&fin.to_bytes())
                .unwrap_err()
                .contains("unresolved code at board 3")
        );
    }

    #[test]
    fn merge_checks_every_chunk() {
        let dir = std::env::temp_dir().join(format!("tessera-tier-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_part(&part(0, vec![1, 2], 5), &chunk_path(&dir, 3, 0, 2)).unwrap();
        let missing = merge_chunks(&dir, 3, 2).unwrap_err().to_string();
        assert!(
            missing.starts_with("chunk 1 of 2 of round 3 is missing"),
            "{missing}"
        );
        write_part(&part(3, vec![3, 4], 5), &chunk_path(&dir, 3, 1, 2)).unwrap();
        let gap = merge_chunks(&dir, 3, 2).unwrap_err().to_string();
        assert!(
            gap.ends_with("starts at board 3, the chunks before end at 2"),
            "{gap}"
        );
        write_part(&part(2, vec![3, 4], 5), &chunk_path(&dir, 3, 1, 2)).unwrap();
        let short = merge_chunks(&dir, 3, 2).unwrap_err().to_string();
        assert_eq!(
            short,
            "the 2 chunks of round 3 cover 4 of the tier's 5 boards"
        );
        write_part(&part(2, vec![3, 4, 5], 5), &chunk_path(&dir, 3, 1, 2)).unwrap();
        assert_eq!(merge_chunks(&dir, 3, 2).unwrap().codes, vec![1, 2, 3, 4, 5]);
        std::fs::write(chunk_path(&dir, 3, 1, 2), b"tessera-qx-tier\nxx").unwrap();
        assert!(
            merge_chunks(&dir, 3, 2)
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
