//! Why a fairness run stopped.

use std::fmt;

/// Why a fairness run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FairnessError {
    /// Bad input: settings, engines, openings, a row's folder (the message says which).
    Input(String),
    /// The levels are not increasing (their strengths, as given, weakest first).
    LevelsOutOfOrder(Vec<u64>),
    /// A run on good input that failed (a solve, a random setup with no move).
    Failure(String),
}

impl FairnessError {
    /// Whether the run failed on good input (front ends exit 1), not on bad input (exit 2).
    #[must_use]
    pub fn is_failure(&self) -> bool {
        matches!(self, FairnessError::Failure(_))
    }
}

impl fmt::Display for FairnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FairnessError::Input(m) | FairnessError::Failure(m) => f.write_str(m),
            FairnessError::LevelsOutOfOrder(levels) => write!(
                f,
                "levels {}: the levels must increase from the weakest to the strongest, each once",
                join(levels)
            ),
        }
    }
}

impl std::error::Error for FairnessError {}

/// The levels as written in messages: `4,2`.
#[must_use]
pub fn join(levels: &[u64]) -> String {
    levels
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}
