//! Pieces every tuning run shares: the engine it plays (a preset or an inline spec of its
//! game), the resume check of a checkpoint and the worker threads.

use std::path::Path;

use super::error::TuneError;
use crate::engine::EngineSpec;

/// Resolves an engine description for `game`: an inline spec when it holds `=`, else a
/// preset name or `.toml` file.
///
/// # Errors
/// [`TuneError::Engine`]: an unknown preset, a bad spec, or an engine of another game.
pub fn resolve_engine(text: &str, game: &str) -> Result<EngineSpec, TuneError> {
    let spec = if text.contains('=') {
        EngineSpec::from_inline(text, game)
    } else {
        EngineSpec::resolve(text)
    }
    .map_err(|e| TuneError::Engine(e.into()))?;
    if spec.game != game {
        return Err(TuneError::Engine(format!(
            "engine '{}' plays {}, not {game}",
            spec.name, spec.game
        )));
    }
    Ok(spec)
}

/// Refuses a resume whose wanted step count is below the `done` steps (`unit`: `epochs`,
/// SPSA `iterations`) of the checkpoint `ckpt`: the fit cannot go back, and writing the
/// checkpoint's weights under a smaller count would misstate them.
///
/// # Errors
/// [`TuneError::CheckpointAhead`].
pub fn check_resume(
    ckpt: &Path,
    done: usize,
    wanted: usize,
    unit: &'static str,
) -> Result<(), TuneError> {
    if done > wanted {
        return Err(TuneError::CheckpointAhead {
            path: ckpt.to_path_buf(),
            done,
            wanted,
            unit,
        });
    }
    Ok(())
}

/// A pool of `threads` worker threads for a fit's passes over its data.
///
/// # Errors
/// [`TuneError::Failed`] when the threads cannot be started.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, TuneError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TuneError::Failed(format!("cannot start threads: {e}")))
}

/// `resuming from CKPT at epoch N`, with a note when all epochs are already done.
pub(crate) fn resuming_note(ckpt: &Path, epoch: usize, epochs: usize) -> String {
    format!(
        "resuming from {} at epoch {epoch}{}",
        ckpt.display(),
        if epoch == epochs {
            " (all done: writing the output again)"
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_resolve_for_their_game_only() {
        let spec = resolve_engine("name=d1,depth=1", "othello").unwrap();
        assert_eq!((spec.name.as_str(), spec.depth), ("d1", Some(1)));
        let e = resolve_engine("othello-ab-d2", "quixo").unwrap_err();
        assert_eq!(
            e.to_string(),
            "engine 'othello-ab-d2' plays othello, not quixo"
        );
        assert!(matches!(
            resolve_engine("no-such-preset", "othello"),
            Err(TuneError::Engine(_))
        ));
    }

    #[test]
    fn a_resume_cannot_go_back() {
        assert!(check_resume(Path::new("c"), 3, 3, "epochs").is_ok());
        assert!(matches!(
            check_resume(Path::new("c"), 4, 3, "iterations"),
            Err(TuneError::CheckpointAhead {
                done: 4,
                wanted: 3,
                ..
            })
        ));
        assert_eq!(
            resuming_note(Path::new("c"), 3, 3),
            "resuming from c at epoch 3 (all done: writing the output again)"
        );
    }
}
