//! [`TuneError`]: why a tuning run (a fit, an SPSA run, a self-play merge or import) stopped,
//! one kind per cause, each carrying what was wrong; `Display` gives the one-line message.

use std::fmt;
use std::path::PathBuf;

/// Why a tuning run stopped. [`TuneError::is_failure`] separates bad input (arguments,
/// data, checkpoints, outputs that cannot be written) from a run that failed on good input
/// (threads, engines, the fitted weights); front ends map these to their exit codes.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TuneError {
    /// A setting out of its range: `flag` must be `wanted`, the value given was `got`.
    BadValue {
        /// The setting's command-line name (`--lr`).
        flag: &'static str,
        /// What it must be (`a finite number > 0`).
        wanted: &'static str,
        /// The value given, as written in the message.
        got: String,
    },
    /// A setting that does not parse (the message names it and its form).
    Setting(String),
    /// Two settings that do not go together; the message names both.
    Conflict(&'static str),
    /// No data file was given to a fit that needs one; the message names its source.
    NoData(&'static str),
    /// The data files hold no usable position; the message says which kind was wanted.
    EmptyData(&'static str),
    /// A data file could not be read or has a bad line (the message names file and line).
    Data(String),
    /// A data line whose position does not fit the run.
    DataLine {
        /// The data file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The data files as a whole cannot be used (`data FILES: ...`).
    DataSet {
        /// The data files, as given.
        files: Vec<PathBuf>,
        /// What was wrong.
        message: String,
    },
    /// An output or the checkpoint would overwrite this data file.
    OverwritesData(PathBuf),
    /// The checkpoint is the output file.
    CheckpointIsOutput(PathBuf),
    /// A folder for an output cannot be made.
    CreateFolder {
        /// The folder.
        dir: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// An output file cannot be written (found before the run or at its end).
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason (`it is a folder` for a folder).
        message: String,
    },
    /// The result file could not be written at the end of a run that did its work (a
    /// failure, not bad input: the MPC fit's searches are done).
    WriteResult {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// A checkpoint that cannot be read, written or parsed (the message names it).
    Checkpoint(String),
    /// A checkpoint that is not one of this run's kind and size.
    CheckpointMalformed {
        /// The checkpoint file.
        path: PathBuf,
        /// What it should hold (`an SPSA checkpoint of 3 parameters`).
        wanted: String,
    },
    /// An SPSA checkpoint made with another seed.
    CheckpointSeed {
        /// The checkpoint file.
        path: PathBuf,
        /// The seed it was made with.
        seed: u64,
    },
    /// A checkpoint of another run (other game, data, engine or settings).
    CheckpointOtherRun {
        /// The checkpoint file.
        path: PathBuf,
        /// What differs, as the message says it (`another SPSA run (...)`).
        what: String,
    },
    /// A checkpoint that has already run more steps than asked for.
    CheckpointAhead {
        /// The checkpoint file.
        path: PathBuf,
        /// Steps it has run.
        done: usize,
        /// Steps asked for.
        wanted: usize,
        /// The step's name, plural (`epochs`, `iterations`).
        unit: &'static str,
    },
    /// The engine cannot be used: not found, a bad spec, another game's, or one the run
    /// cannot tune (the message says which).
    Engine(String),
    /// Self-play shards that do not make up one run (another game's, of different runs,
    /// one given twice or missing; the message says which).
    Shards(String),
    /// An evaluation weights file that cannot be read or is bad (the message names it).
    Weights(String),
    /// The run failed on good input: threads, an engine's game, the weights it produced.
    Failed(String),
}

impl TuneError {
    /// Whether the run failed on good input (front ends: exit 1) rather than being given
    /// bad input (exit 2).
    #[must_use]
    pub fn is_failure(&self) -> bool {
        matches!(self, Self::WriteResult { .. } | Self::Failed(_))
    }
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadValue { flag, wanted, got } => write!(f, "{flag} must be {wanted}, got {got}"),
            Self::Conflict(m) | Self::NoData(m) | Self::EmptyData(m) => f.write_str(m),
            Self::Data(m)
            | Self::Checkpoint(m)
            | Self::Engine(m)
            | Self::Weights(m)
            | Self::Shards(m)
            | Self::Setting(m)
            | Self::Failed(m) => f.write_str(m),
            Self::DataLine {
                path,
                line,
                message,
            } => {
                write!(f, "data file {} line {line}: {message}", path.display())
            }
            Self::DataSet { files, message } => {
                let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                write!(f, "data {}: {message}", names.join(", "))
            }
            Self::OverwritesData(p) => write!(
                f,
                "--out or the checkpoint would overwrite the data file {}",
                p.display()
            ),
            Self::CheckpointIsOutput(p) => write!(
                f,
                "the checkpoint {} is the output file: name another with --checkpoint",
                p.display()
            ),
            Self::CreateFolder { dir, message } => {
                write!(f, "cannot create {}: {message}", dir.display())
            }
            Self::Write { path, message } | Self::WriteResult { path, message } => {
                write!(f, "cannot write {}: {message}", path.display())
            }
            Self::CheckpointMalformed { path, wanted } => {
                write!(f, "checkpoint {}: not {wanted}", path.display())
            }
            Self::CheckpointSeed { path, seed } => write!(
                f,
                "checkpoint {} was made with --seed {seed} (remove it or pass --fresh)",
                path.display()
            ),
            Self::CheckpointOtherRun { path, what } => write!(
                f,
                "checkpoint {} is of {what}: remove it or pass --fresh",
                path.display()
            ),
            Self::CheckpointAhead {
                path,
                done,
                wanted,
                unit,
            } => write!(
                f,
                "checkpoint {} has already run {done} {unit}; --epochs {wanted} is fewer (pass --epochs {done} or more to continue, or --fresh to start over)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for TuneError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_name_what_was_wrong() {
        let e = TuneError::BadValue {
            flag: "--lr",
            wanted: "a finite number > 0",
            got: "-1".into(),
        };
        assert_eq!(e.to_string(), "--lr must be a finite number > 0, got -1");
        assert!(!e.is_failure());
        let e = TuneError::CheckpointAhead {
            path: "f.ckpt".into(),
            done: 5,
            wanted: 3,
            unit: "epochs",
        };
        assert_eq!(
            e.to_string(),
            "checkpoint f.ckpt has already run 5 epochs; --epochs 3 is fewer (pass --epochs 5 or more to continue, or --fresh to start over)"
        );
        let e = TuneError::DataSet {
            files: vec!["a.txt".into(), "b.txt".into()],
            message: "no positions".into(),
        };
        assert_eq!(e.to_string(), "data a.txt, b.txt: no positions");
        assert!(TuneError::Failed("x".into()).is_failure());
        assert!(
            TuneError::WriteResult {
                path: "m.txt".into(),
                message: "denied".into()
            }
            .is_failure()
        );
    }
}
