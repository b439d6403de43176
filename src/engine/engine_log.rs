//! `--engine-log DIR`: each external engine process's protocol traffic in its own file,
//! `DIR/NAME-PID.log` (engine name with characters other than letters, digits, `-`, `_` and
//! `.` replaced by `_`; the process id of the program). Lines start with `>` (sent), `<`
//! (received) or `!` (stderr), after the milliseconds since the program started; the first
//! line is the command.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

static DIR: OnceLock<PathBuf> = OnceLock::new();

/// Turns logging on for every external engine started from now on (once per process).
///
/// # Errors
/// The directory cannot be created, or logging was already set to another directory.
pub fn set_dir(dir: PathBuf) -> Result<(), String> {
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create --engine-log {}: {e}", dir.display()))?;
    if DIR.get().is_some_and(|d| *d != dir) {
        return Err("--engine-log is already set to another directory".into());
    }
    let _ = DIR.set(dir);
    Ok(())
}

/// One engine process's log; cloned into its reader threads.
#[derive(Clone)]
pub struct Log {
    file: Arc<Mutex<File>>,
    started: Instant,
}

impl Log {
    /// Appends `text` (its line end dropped) tagged with `direction`. Write errors are
    /// ignored: a full disk must not lose the game.
    pub fn line(&self, direction: char, text: &str) {
        let ms = self.started.elapsed().as_millis();
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(
                f,
                "{ms:>8} {direction} {}",
                text.trim_end_matches(['\r', '\n'])
            );
        }
    }
}

/// The log of engine `name` started as `command` with process id `pid`, when logging is on
/// (a file that cannot be created is a warning on stderr, not an error).
#[must_use]
pub fn open(name: &str, command: &str, pid: u32) -> Option<Log> {
    let dir = DIR.get()?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}-{pid}.log"));
    match File::create(&path) {
        Ok(mut f) => {
            let _ = writeln!(f, "# engine {name}: {command} (pid {pid})");
            Some(Log {
                file: Arc::new(Mutex::new(f)),
                started: Instant::now(),
            })
        }
        Err(e) => {
            eprintln!("warning: cannot write engine log {}: {e}", path.display());
            None
        }
    }
}
