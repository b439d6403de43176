//! The tuning runs' progress on the terminal: a progress bar (hidden with `--no-progress`),
//! step lines above it, nothing but the final JSON object with `--json`.

use indicatif::{ProgressBar, ProgressStyle};
use tessera::tuning::Progress;

use super::output::say;

/// A [`Progress`] shown with indicatif.
pub struct Bar {
    bar: ProgressBar,
    /// `--json`: the notes and step lines are not printed.
    json: bool,
}

impl Bar {
    /// A bar shown unless `no_progress` or `json`; with `json` nothing else is printed.
    pub fn new(no_progress: bool, json: bool) -> Self {
        Self {
            bar: if no_progress || json {
                ProgressBar::hidden()
            } else {
                ProgressBar::new(0)
            },
            json,
        }
    }
}

impl Progress for Bar {
    fn note(&self, line: &str) {
        if !self.json {
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
        if self.json {
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
