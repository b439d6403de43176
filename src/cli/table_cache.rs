//! Where `solve quixo` keeps the 5x5 full-board table between runs, and how it gets one:
//! load the file if it is valid, else build the table (saying so) and save it, falling back
//! to the table in memory with a warning when the file cannot be written.

use std::path::{Path, PathBuf};

use tessera::games::quixo::retro::FullBoardTable;
use tessera::games::quixo::table_file::{FORMAT_VERSION, TableFileError, load_table, save_table};

use super::output::CliError;

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
/// written by a newer format version is refused, never rebuilt over, and so is a directory;
/// a corrupt tessera table (right magic, bad length or checksum) is rebuilt.
///
/// # Errors
/// The table could not be built (a thread pool failure); a `--table` file that is not
/// one of ours (exit 2).
pub fn obtain(
    path: Option<&Path>,
    threads: usize,
    may_build: bool,
) -> Result<Option<(FullBoardTable, TableSource)>, CliError> {
    let explicit = path.is_some();
    if let Some(p) = path.filter(|p| p.is_dir()) {
        return Err(CliError::input(format!(
            "--table {}: is a directory (give the path of a table file, e.g. {})",
            p.display(),
            p.join(format!("quixo-full5-v{FORMAT_VERSION}.bin"))
                .display()
        )));
    }
    let path = path.map(Path::to_path_buf).or_else(default_path);
    if let Some(p) = &path {
        match load_table(p) {
            Ok(t) => return Ok(Some((t, TableSource::Loaded(p.clone())))),
            Err(e) if e.is_missing() => {}
            // A file the user named that is not ours (or is from a newer tessera) is never
            // overwritten: a mistyped --table must not destroy a document.
            Err(e) if explicit && not_ours(&e, p) => {
                return Err(CliError::input(format!(
                    "--table {}: {e}; refusing to overwrite a file that is not a table this \
                     tessera wrote (remove it or give another path)",
                    p.display()
                )));
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
                eprintln!("warning: full-board table {}: {why}; {then}", p.display());
            }
        }
    }
    if !may_build {
        eprintln!(
            "note: no valid full-board table{}, and a time limit below a minute does not build \
             one (run once without --time-ms to build and cache it): proving by search alone",
            path.as_ref()
                .map_or(String::new(), |p| format!(" at {}", p.display()))
        );
        return Ok(None);
    }
    let started = std::time::Instant::now();
    eprintln!(
        "building the 5x5 full-board table (2^25 boards, a few seconds and about 60 MB, once)..."
    );
    let table = FullBoardTable::solve(threads).map_err(CliError::failure)?;
    let built = format!(
        "built the full-board table in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let Some(p) = path else {
        eprintln!("{built}");
        eprintln!(
            "warning: no cache directory (neither XDG_CACHE_HOME nor HOME is set); \
             the table is kept in memory only"
        );
        return Ok(Some((table, TableSource::Memory)));
    };
    match save_table(&table, &p) {
        Ok(()) => {
            eprintln!("{built}; saved to {}", p.display());
            Ok(Some((table, TableSource::Built(p))))
        }
        Err(e) => {
            eprintln!("{built}");
            eprintln!(
                "warning: cannot write the full-board table to {}: {e}; kept in memory only",
                p.display()
            );
            Ok(Some((table, TableSource::Memory)))
        }
    }
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
