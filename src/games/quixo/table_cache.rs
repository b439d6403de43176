//! Where the 5x5 full-board table is kept between runs (`solve quixo`), and how a run gets
//! one: load the file if it is valid, else build the table (saying so) and save it, falling
//! back to the table in memory with a warning when the file cannot be written. What it has
//! to say (warnings, progress) goes to a `notes` callback, one line each.

use std::path::{Path, PathBuf};

use super::retro::FullBoardTable;
use super::table_file::{FORMAT_VERSION, TableFileError, load_table, save_table};

/// Why no table could be had from a file the caller named, or built.
#[derive(Debug)]
pub enum TableCacheError {
    /// The path named is a directory.
    Directory(PathBuf),
    /// The path named is a device, a FIFO or a socket.
    NotRegular(PathBuf),
    /// The file named is not a table this tessera wrote (or a newer one): never overwritten.
    NotOurs {
        /// The file.
        path: PathBuf,
        /// Why it was refused.
        error: TableFileError,
    },
    /// Building the table failed (a thread pool could not start).
    Build(String),
}

impl std::fmt::Display for TableCacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Directory(p) => write!(
                f,
                "{}: is a directory (give the path of a table file, e.g. {})",
                p.display(),
                p.join(format!("quixo-full5-v{FORMAT_VERSION}.bin"))
                    .display()
            ),
            Self::NotRegular(p) => write!(
                f,
                "{}: not a regular file (give the path of a table file)",
                p.display()
            ),
            Self::NotOurs { path, error } => write!(
                f,
                "{}: {error}; refusing to overwrite a file that is not a table this \
                 tessera wrote (remove it or give another path)",
                path.display()
            ),
            Self::Build(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for TableCacheError {}

/// The default table file: `$XDG_CACHE_HOME/tessera/quixo-full5-v<version>.bin`, or under
/// `$HOME/.cache` when `XDG_CACHE_HOME` is unset, empty or relative (as the XDG base
/// directory specification requires); `None` without either.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".cache"))
        })?;
    Some(
        base.join("tessera")
            .join(format!("quixo-full5-v{FORMAT_VERSION}.bin")),
    )
}

/// How the table was obtained, for the output.
#[derive(Clone, Debug)]
pub enum TableSource {
    /// Loaded from this file.
    Loaded(PathBuf),
    /// Built now and saved to this file.
    Built(PathBuf),
    /// Built now and kept in memory only (no usable file).
    Memory,
}

impl TableSource {
    /// One word for JSON: `loaded`, `built` or `memory`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Loaded(_) => "loaded",
            Self::Built(_) => "built",
            Self::Memory => "memory",
        }
    }

    /// The file, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            Self::Loaded(p) | Self::Built(p) => Some(p),
            Self::Memory => None,
        }
    }
}

/// The table from `path` (`--table FILE`, else [`default_path`]); when the file is
/// missing, corrupt, foreign or of another version, builds it on `threads` threads if
/// `may_build` (messages on stderr) and saves it. Returns `None` when no valid file exists
/// and building is not allowed.
///
/// A `--table FILE` that exists but is foreign (another kind of file, not empty) or was
/// written by a newer format version is refused, never rebuilt over, and so is a directory
/// or anything that is not a regular file (a device, a FIFO); a corrupt tessera table (right
/// magic, bad length or checksum) is rebuilt. The default cache file is rebuilt when it is
/// not valid, except that a device or FIFO there, or a symbolic link there to a file that is
/// not ours, is left alone (the table is then kept in memory, with a warning).
///
/// # Errors
/// The table could not be built (a thread pool failure); a `--table` file that is not
/// one of ours (exit 2).
pub fn obtain(
    path: Option<&Path>,
    threads: usize,
    may_build: bool,
    notes: &mut dyn FnMut(&str),
) -> Result<Option<(FullBoardTable, TableSource)>, TableCacheError> {
    let explicit = path.is_some();
    if let Some(p) = path.filter(|p| p.is_dir()) {
        return Err(TableCacheError::Directory(p.to_path_buf()));
    }
    let mut path = path.map(Path::to_path_buf).or_else(default_path);
    // Where the built table may be saved: not over a file that is not ours behind the
    // cache's own name when that name is a symbolic link (the link points elsewhere).
    let mut keep_in_memory = None;
    if let Some(p) = path.as_ref().filter(|p| is_special(p)) {
        // A device, a FIFO, a socket: never opened (a FIFO would block) nor replaced.
        if explicit {
            return Err(TableCacheError::NotRegular(p.clone()));
        }
        notes(&format!(
            "warning: full-board table {}: not a regular file (a device or FIFO); not used",
            p.display()
        ));
        keep_in_memory = Some(format!("{} is not a regular file", p.display()));
        path = None;
    }
    if let Some(p) = &path {
        match load_table(p) {
            Ok(t) => return Ok(Some((t, TableSource::Loaded(p.clone())))),
            Err(e) if e.is_missing() => {}
            // A file the user named that is not ours (or is from a newer tessera) is never
            // overwritten: a mistyped --table must not destroy a document.
            Err(e) if explicit && not_ours(&e, p) => {
                return Err(TableCacheError::NotOurs {
                    path: p.clone(),
                    error: e,
                });
            }
            // The cache's own name, linked to someone else's file: leave that file alone.
            Err(e) if is_symlink(p) && not_ours(&e, p) => {
                notes(&format!(
                    "warning: full-board table {}: a symbolic link to a file that is not a \
                     table this tessera wrote ({e}); not overwritten",
                    p.display()
                ));
                keep_in_memory = Some(format!("{} links to another file", p.display()));
            }
            Err(e) => {
                // An empty file fails the magic check; say what it is.
                let why = if std::fs::metadata(p).is_ok_and(|m| m.len() == 0) {
                    "empty file".to_string()
                } else {
                    e.to_string()
                };
                let then = if may_build {
                    "rebuilding it"
                } else {
                    "not used"
                };
                notes(&format!(
                    "warning: full-board table {}: {why}; {then}",
                    p.display()
                ));
            }
        }
    }
    if !may_build {
        notes(&format!(
            "note: no valid full-board table{}, and a time limit below a minute does not build \
             one (run once without --time-ms to build and cache it): proving by search alone",
            path.as_ref()
                .map_or(String::new(), |p| format!(" at {}", p.display()))
        ));
        return Ok(None);
    }
    let started = std::time::Instant::now();
    notes(
        "building the 5x5 full-board table (2^25 boards, a few seconds and about 60 MB, once)...",
    );
    let table = FullBoardTable::solve(threads).map_err(TableCacheError::Build)?;
    let built = format!(
        "built the full-board table in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let Some(why) = keep_in_memory {
        notes(&built);
        notes(&format!("warning: {why}; the table is kept in memory only"));
        return Ok(Some((table, TableSource::Memory)));
    }
    let Some(p) = path else {
        notes(&built);
        notes(
            "warning: no cache directory (neither XDG_CACHE_HOME nor HOME is set); \
             the table is kept in memory only",
        );
        return Ok(Some((table, TableSource::Memory)));
    };
    match save_table(&table, &p) {
        Ok(()) => {
            notes(&format!("{built}; saved to {}", p.display()));
            Ok(Some((table, TableSource::Built(p))))
        }
        Err(e) => {
            notes(&built);
            notes(&format!(
                "warning: cannot write the full-board table to {}: {e}; kept in memory only",
                p.display()
            ));
            Ok(Some((table, TableSource::Memory)))
        }
    }
}

/// Whether `p` exists (following symbolic links) and is neither a regular file nor a
/// directory: a device, a FIFO or a socket.
fn is_special(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Whether `p` itself is a symbolic link.
fn is_symlink(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// Whether the file at `p`, refused for `e`, is someone else's: not a tessera table and
/// not empty, or a table of a newer format version.
fn not_ours(e: &TableFileError, p: &Path) -> bool {
    match e {
        TableFileError::Foreign => std::fs::metadata(p).is_ok_and(|m| m.len() > 0),
        TableFileError::Version(v) => *v > FORMAT_VERSION,
        _ => false,
    }
}
