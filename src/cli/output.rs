//! Shared output and error helpers: the one-line `error: ...` report and its exit code,
//! stdout printing that never panics, JSON output, number and score formatting, and
//! argument value parsers.

use std::fmt::Display;

use std::io::Write;
use std::process::ExitCode;
pub use tessera::present::{score_short, score_text};

/// Exit code for bad arguments or input.
pub const EXIT_USAGE: u8 = 2;
/// Exit code for work that could not be finished (a limit stopped it, an engine failed).
pub const EXIT_UNFINISHED: u8 = 1;

pub use super::parse::*;

/// A failure to report: one line on stderr and an exit code.
#[derive(Debug)]
pub struct CliError {
    code: u8,
    message: String,
}

impl CliError {
    /// Bad arguments or input (exit code 2).
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// A run that failed for another reason (exit code 1).
    pub fn failure(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_UNFINISHED,
            message: message.into(),
        }
    }

    /// Prints `error: <message>` (one line) on stderr and returns the exit code.
    pub fn report(&self) -> ExitCode {
        let line = one_line(&self.message);
        let _ = writeln!(std::io::stderr(), "error: {line}");
        ExitCode::from(self.code)
    }
}

impl From<tessera::tuning::TuneError> for CliError {
    /// A run that failed on good input exits 1, bad input 2.
    fn from(e: tessera::tuning::TuneError) -> Self {
        if e.is_failure() {
            Self::failure(e.to_string())
        } else {
            Self::input(e.to_string())
        }
    }
}

/// Collapses whitespace runs (newlines included) into single spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Handles a clap parse failure: help and version go to stdout with their own exit code;
/// usage errors become one `error: ...` line on stderr and exit code 2.
pub fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE))
        }
        _ => {
            // clap's message: "error: ...", detail lines, a blank line, "Usage: ...", and
            // "For more information, try '--help'." Keep the message and details.
            let text = e.to_string();
            let parts: Vec<String> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(one_line)
                .filter(|l| !l.is_empty())
                .collect();
            // A line ending in ':' introduces the next ("... were not provided:" then
            // "--mpc <...>"): join those with a space, the others with "; ".
            let mut joined = String::new();
            for p in &parts {
                if !joined.is_empty() {
                    joined.push_str(if joined.ends_with(':') { " " } else { "; " });
                }
                joined.push_str(p);
            }
            let message = joined.strip_prefix("error:").unwrap_or(&joined).trim();
            let _ = writeln!(std::io::stderr(), "error: {message} (see --help)");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Writes one line to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
pub fn say(line: impl Display) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Writes a prompt (no newline) and flushes it.
pub fn prompt(text: impl Display) {
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{text}");
    let _ = out.flush();
}

/// Prints exactly one JSON object on one line of stdout.
pub fn print_json(value: &serde_json::Value) {
    say(value);
}

/// `1234567` as `1.23 M`, `12345` as `12.3 k`: rates for humans.
pub fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0} ")
    }
}

/// A per-second rate that does not blow up on a zero duration.
pub fn rate(count: u64, seconds: f64) -> f64 {
    count as f64 / seconds.max(1e-9)
}

/// Moves joined by spaces.
pub fn join_moves<M: Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Moves as a JSON array of strings.
pub fn json_moves<M: Display>(moves: &[M]) -> serde_json::Value {
    serde_json::Value::Array(
        moves
            .iter()
            .map(|m| serde_json::Value::String(m.to_string()))
            .collect(),
    )
}

/// Checks before any work that `path` can be written (see
/// [`tessera::tuning::outputs::check_writable`]).
///
/// # Errors
/// An input error naming the path.
pub fn check_writable(path: &std::path::Path) -> Result<(), CliError> {
    Ok(tessera::tuning::outputs::check_writable(path)?)
}

/// Checks before any work that an HTML page can be written to `path`.
///
/// # Errors
/// `path` is a folder, its folder does not exist, or it cannot be opened for writing.
pub fn check_html_target(path: &std::path::Path) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::input(format!(
            "--html {}: is a folder; give a file name, e.g. {}/report.html",
            path.display(),
            path.display()
        )));
    }
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        return Err(CliError::input(format!(
            "--html {}: folder {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    check_writable(path)
}

impl From<tessera::report::ReportError> for CliError {
    fn from(e: tessera::report::ReportError) -> Self {
        match e {
            tessera::report::ReportError::Input(msg) => CliError::input(msg),
            e @ tessera::report::ReportError::Write { .. } => CliError::failure(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_parsers_reject_zero_and_junk() {
        assert!(at_least_one_u32("0").is_err());
        assert!(at_least_one_u32("x").is_err());
        assert_eq!(at_least_one_u32("3"), Ok(3));
        assert_eq!(
            at_least_one_u64("99999999999999999999").unwrap_err(),
            "99999999999999999999 is too large"
        );
        assert_eq!(
            at_least_one_u64("-99999999999999999999999999999999999999999").unwrap_err(),
            "must be at least 1"
        );
        assert!(
            at_least_one_u64("12x")
                .unwrap_err()
                .starts_with("not a whole number")
        );
        assert_eq!(ffo_number("41"), Ok(41));
        assert!(ffo_number("-1").unwrap_err().contains("40..59"));
        assert_eq!(search_depth("60"), Ok(60));
        assert_eq!(
            search_depth("61").unwrap_err(),
            "61 must be in 1..=60 plies"
        );
        assert!(search_depth("0").is_err());
        assert_eq!(search_depth("-3").unwrap_err(), "must be in 1..=60 plies");
        assert!(tt_mib("0").is_err());
        assert_eq!(tt_mib("16"), Ok(16));
    }
}
