//! [`TerminalBar`]: a run's progress on the terminal, as `tessera tune` shows it: a
//! progress bar (indicatif, on stderr; hidden on request), the step lines above it and the
//! notes on stdout, or nothing at all when the front end prints one JSON object at the end.

use std::io::Write;

use indicatif::{ProgressBar, ProgressStyle};

use super::progress::Progress;

/// A [`Progress`] shown on the terminal.
pub struct TerminalBar {
    bar: ProgressBar,
    /// Nothing but the bar's state is kept: no notes or step lines are printed.
    quiet: bool,
}

/// Writes one line to stdout; a closed pipe (e.g. `| head`) is not worth a panic.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

impl TerminalBar {
    /// A bar shown unless `no_progress` or `quiet`; with `quiet` nothing else is printed
    /// either (the front end's `--json`).
    #[must_use]
    pub fn new(no_progress: bool, quiet: bool) -> Self {
        Self {
            bar: if no_progress || quiet {
                ProgressBar::hidden()
            } else {
                ProgressBar::new(0)
            },
            quiet,
        }
    }
}

impl Progress for TerminalBar {
    fn note(&self, line: &str) {
        if !self.quiet {
            say(line);
        }
    }

    fn start(&self, unit: &'static str, total: u64, done: u64) {
        self.bar.set_length(total);
        // Steps without a status line (the MPC searches) have no {msg}.
        let template = if unit == "position" {
            format!("{{bar:30}} {unit} {{pos}}/{{len}} [{{elapsed_precise}}, ETA {{eta}}]")
        } else {
            format!("{{bar:30}} {unit} {{pos}}/{{len}} {{msg}} [{{elapsed_precise}}, ETA {{eta}}]")
        };
        if let Ok(style) = ProgressStyle::with_template(&template) {
            self.bar.set_style(style);
        }
        self.bar.set_position(done);
    }

    fn step(&self, line: &str, status: &str) {
        if self.quiet {
        } else if self.bar.is_hidden() {
            say(line);
        } else {
            self.bar.println(line);
        }
        if !status.is_empty() {
            self.bar.set_message(status.to_string());
        }
        self.bar.inc(1);
    }

    fn position(&self, done: u64) {
        self.bar.set_position(done);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
