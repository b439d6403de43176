//! Shared output and error helpers: the one-line `error: ...` report and its exit code,
//! stdout printing that never panics, JSON output; the library's number formatting and
//! flag value parsers re-exported.

use std::fmt::Display;

use std::io::Write;
use std::process::ExitCode;
pub use tessera::present::rate;

/// Exit code for bad arguments or input.
pub const EXIT_USAGE: u8 = 2;
/// Exit code for work that could not be finished (a limit stopped it, an engine failed).
pub const EXIT_UNFINISHED: u8 = 1;

pub use tessera::engine::flag_values::*;

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

/// Checks before any work that `path` can be written (see
/// [`tessera::tuning::outputs::check_writable`]).
///
/// # Errors
/// An input error naming the path.
pub fn check_writable(path: &std::path::Path) -> Result<(), CliError> {
    Ok(tessera::tuning::outputs::check_writable(path)?)
}

impl From<tessera::tournament::request::TournamentError> for CliError {
    /// Every kind is bad input (exit 2).
    fn from(e: tessera::tournament::request::TournamentError) -> Self {
        CliError::input(e.to_string())
    }
}

impl From<tessera::report::ReportError> for CliError {
    fn from(e: tessera::report::ReportError) -> Self {
        match e {
            tessera::report::ReportError::Input(msg) => CliError::input(msg),
            e @ tessera::report::ReportError::Write { .. } => CliError::failure(e.to_string()),
        }
    }
}
