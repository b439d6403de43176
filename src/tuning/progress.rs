//! [`Progress`]: how a tuning run reports as it goes (a run never prints): notes such as
//! "resuming from ...", the start of its steps, one line per step. A front end shows them
//! (on the terminal: [`super::progress_bar::TerminalBar`]); [`Silent`] drops them.

/// Receives a run's progress. Methods take `&self` and the trait needs `Sync` because some
/// runs report from worker threads (the MPC fit's searches).
pub trait Progress: Sync {
    /// A line about the run outside its steps: the data's size, a resumed checkpoint, the
    /// held-out error table.
    fn note(&self, line: &str);
    /// The steps begin: `total` steps of `unit` (`"epoch"`, `"iteration"`, `"position"`),
    /// `done` of them already run (a resumed checkpoint).
    fn start(&self, unit: &'static str, total: u64, done: u64);
    /// One more step is done: its line (the loss after an epoch, say) and a short status for
    /// a progress bar.
    fn step(&self, line: &str, status: &str);
    /// `done` steps are finished (steps that have no line: the MPC fit's searches).
    fn position(&self, done: u64);
    /// The steps are over.
    fn finish(&self);
}

/// A [`Progress`] that drops everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn note(&self, _: &str) {}
    fn start(&self, _: &'static str, _: u64, _: u64) {}
    fn step(&self, _: &str, _: &str) {}
    fn position(&self, _: u64) {}
    fn finish(&self) {}
}
