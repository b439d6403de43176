//! What an exact Quixo solve is asked to do (`tessera solve quixo`): every board of a small
//! size by retrograde analysis, a 3x3 or 4x4 position looked up in its size's table, or a
//! 5x5 position proved by search. Settings that do not go with the task are refused by
//! name, here rather than in each front end.

use std::path::PathBuf;

/// The settings of an exact Quixo solve as a front end gives them, each named in messages
/// by its command-line flag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveSettings {
    /// Solve every board of this side (3 or 4) by retrograde analysis (`--size`).
    pub size: Option<u8>,
    /// Whether a position was given (`--position` or `--moves`).
    pub has_position: bool,
    /// Plies of the proving search (`--max-plies`).
    pub max_plies: Option<u32>,
    /// Time limit of the proving search, milliseconds (`--time-ms`).
    pub time_ms: Option<u64>,
    /// Transposition table of the proving search, MiB (`--tt-mb`).
    pub tt_mb: Option<usize>,
    /// The 5x5 full-board table (`--table`).
    pub table: Option<PathBuf>,
    /// Whether a proving search was chosen (`--prover`).
    pub prover: bool,
}

/// The solve the settings ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveTask {
    /// Every board of this side, by retrograde analysis ([`super::solve_size`]).
    Size(u8),
    /// The position given: see [`SolveSettings::check_position`] once its size is known.
    Position,
}

impl SolveSettings {
    /// The task, with the settings checked against it.
    ///
    /// # Errors
    /// One line naming the flags: a whole board size with a position or with any setting
    /// of the proving search (`--table`, `--time-ms`, `--max-plies`, `--prover`,
    /// `--tt-mb`), or neither a size nor a position.
    pub fn task(&self) -> Result<SolveTask, String> {
        let Some(size) = self.size else {
            if !self.has_position {
                return Err(
                    "solve quixo needs --size 3|4 or a position (--position or --moves)".into(),
                );
            }
            return Ok(SolveTask::Position);
        };
        if self.table.is_some() {
            return Err(
                "--table is the 5x5 full-board table; --size solves a 3x3 or 4x4 board".into(),
            );
        }
        if self.time_ms.is_some() {
            return Err(
                "--time-ms limits the proving search of a position; --size always \
                        solves the whole board"
                    .into(),
            );
        }
        if self.max_plies.is_some() || self.prover || self.tt_mb.is_some() {
            return Err(
                "--max-plies, --prover and --tt-mb are for the proving search of a 5x5 \
                 position; --size solves every board exactly by retrograde analysis"
                    .into(),
            );
        }
        if self.has_position {
            return Err(
                "give either --size (solve a whole board size) or a position, not both".into(),
            );
        }
        Ok(SolveTask::Size(size))
    }

    /// Checks the settings against a position of side `n`: a 3x3 or 4x4 one is looked up
    /// exactly in its size's table, so the proving search's settings mean nothing for it.
    ///
    /// # Errors
    /// One line naming the flags, for a position smaller than 5x5 given any of them.
    pub fn check_position(&self, n: u8) -> Result<(), String> {
        let proving = self.max_plies.is_some()
            || self.prover
            || self.tt_mb.is_some()
            || self.time_ms.is_some()
            || self.table.is_some();
        if n < 5 && proving {
            return Err(format!(
                "a {n}x{n} position is looked up exactly in the retrograde table of its size: \
                 --max-plies, --prover, --tt-mb, --time-ms and --table are for 5x5 positions"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{SolveSettings, SolveTask};

    #[test]
    fn a_size_goes_with_no_position_and_no_proving_setting() {
        let size = |s: SolveSettings| SolveSettings { size: Some(4), ..s };
        let none = SolveSettings::default();
        assert_eq!(size(none.clone()).task(), Ok(SolveTask::Size(4)));
        let refused = [
            (
                SolveSettings {
                    table: Some("t".into()),
                    ..none.clone()
                },
                "--table is the 5x5 full-board table; --size solves a 3x3 or 4x4 board",
            ),
            (
                SolveSettings {
                    time_ms: Some(5),
                    ..none.clone()
                },
                "--time-ms limits the proving search of a position; --size always solves the \
                 whole board",
            ),
            (
                SolveSettings {
                    max_plies: Some(3),
                    ..none.clone()
                },
                "--max-plies, --prover and --tt-mb are for the proving search of a 5x5 \
                 position; --size solves every board exactly by retrograde analysis",
            ),
            (
                SolveSettings {
                    prover: true,
                    ..none.clone()
                },
                "--max-plies, --prover and --tt-mb",
            ),
            (
                SolveSettings {
                    tt_mb: Some(8),
                    ..none.clone()
                },
                "--max-plies, --prover and --tt-mb",
            ),
            (
                SolveSettings {
                    has_position: true,
                    ..none.clone()
                },
                "give either --size (solve a whole board size) or a position, not both",
            ),
        ];
        for (settings, message) in refused {
            let e = size(settings.clone()).task().unwrap_err();
            assert!(e.starts_with(message), "{settings:?}: {e}");
        }
        assert_eq!(
            none.task().unwrap_err(),
            "solve quixo needs --size 3|4 or a position (--position or --moves)"
        );
    }

    #[test]
    fn a_small_position_takes_no_proving_setting() {
        let position = SolveSettings {
            has_position: true,
            ..SolveSettings::default()
        };
        assert_eq!(position.task(), Ok(SolveTask::Position));
        for n in [3, 4, 5] {
            assert_eq!(position.check_position(n), Ok(()));
        }
        let timed = SolveSettings {
            time_ms: Some(100),
            ..position
        };
        assert_eq!(timed.task(), Ok(SolveTask::Position));
        assert_eq!(timed.check_position(5), Ok(()));
        assert_eq!(
            timed.check_position(4).unwrap_err(),
            "a 4x4 position is looked up exactly in the retrograde table of its size: \
             --max-plies, --prover, --tt-mb, --time-ms and --table are for 5x5 positions"
        );
    }
}
